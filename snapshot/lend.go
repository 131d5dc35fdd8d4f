package snapshot

import (
	mathbits "math/bits"
	"slices"
	"unsafe"

	"netcubes/wire"
)

// Lending the baseline's models (levels 12-13, the sender). A packet
// starts from the models its baseline's packet ended with, and its own
// end is kept for the packets that will name it. The plain way copies the
// baseline's 337 kB into the packet's storage and codes there: a copy of
// memory no cache holds any more (the baseline was coded a tick or more
// ago, among 64 clients), about a fifth of a replayed packet's cost.
//
// A replayed packet knows before it codes which lines of the models it
// may write: those of its trace (trace.listLines, about a fifth of them).
// So the baseline lends its storage instead: the lines the replay may
// write are saved (the baseline's undo), the packet codes in the
// baseline's storage, which becomes the new snapshot's, and the baseline
// keeps the packet's old storage, stale, with the undo: its models are
// the new snapshot's plus the saved lines. Saving them also brings them
// into the cache, all at once, before the replay needs them.
//
// Why one undo is enough: the sender's baseline is always its newest
// acked snapshot, and that only moves forward (dropOldModels). The new
// snapshot's models change again only when a packet names it as its
// baseline, that is once it is acked, and by then the lender is older
// than the newest acked: its models were dropped. Until then, a packet
// that names the lender again (no newer ack came, about two packets in
// five on the intercontinental link) copies its models instead
// (copyModels: the new snapshot's, the saved lines put back), the plain
// way's cost, and the lender stays as it is. A packet whose storage a lender still relies on and that codes
// again without having been kept (it was not sent) first gives the
// lender its storage back, the saved lines put back (reclaim).

// modelLine is the unit the models are saved in: a cache line.
const modelLine = 64

// numModelLines is the number of lines of entropyModels.
const numModelLines = (int(unsafe.Sizeof(entropyModels{})) + modelLine - 1) / modelLine

// Copying only what differs. Most lines of a snapshot's models still hold
// their values after reset (a packet's decisions touch about a fifth of
// them, and after the whole katamari script the lines any packet touched
// are little more than half), and a copy needs to write only the lines
// where its source or its destination may not: entropyModels.clean marks
// the lines known to hold their reset values. reset sets every bit, a
// replay clears those of its trace's lines (trace.mask), any other coding
// all of them (decidePayload), and a copy makes the destination's the
// source's (copyModelsFrom). A bit set wrongly would change the bits of
// later packets: a bit may only ever be cleared without cause, never set.

// cleanWords is the length of entropyModels.clean: a bit a line.
const cleanWords = 83

// The models' lines must fit in clean's bits.
var _ [cleanWords*64 - numModelLines]struct{}

// cleanAfterReset is clean after reset: every line but those of clean.
var cleanAfterReset = func() (c [cleanWords]uint64) {
	for l := range int(unsafe.Offsetof(entropyModels{}.clean)) / modelLine {
		c[l/64] |= 1 << (l % 64)
	}
	return c
}()

// copyModelsFrom makes dst's models src's, writing only the lines where
// either is not known clean (runs of them at a time), and returns how
// many lines it passed over.
func copyModelsFrom(dst, src *entropyModels) (skipped int) {
	d, sb := modelBytes(dst), modelBytes(src)
	for w := range cleanWords {
		skipped += mathbits.OnesCount64(dst.clean[w] & src.clean[w])
	}
	for w := range cleanWords {
		need := ^(dst.clean[w] & src.clean[w])
		for need != 0 {
			lo := mathbits.TrailingZeros64(need)
			run := mathbits.TrailingZeros64(^(need >> lo)) // 64 when the rest are all set
			need &^= (1<<run - 1) << lo
			from := min((w*64+lo)*modelLine, len(d))
			to := min((w*64+lo+run)*modelLine, len(d))
			copy(d[from:to], sb[from:to])
		}
	}
	dst.clean = src.clean
	return skipped
}

// unclean clears the clean bits of the lines of the n bytes at offset off
// of m, about to be written other than by coding.
func (m *entropyModels) unclean(off, n int) {
	for l := off / modelLine; l <= (off+n-1)/modelLine; l++ {
		m.clean[l/64] &^= 1 << (l % 64)
	}
}

// modelLender is implemented by the sender's baseline store (lend.go).
type modelLender interface {
	// lendModels lends baseline seq's models to e (see lend.go).
	lendModels(seq uint16, lines []uint16, e *entropyState) bool
	// copyModels copies baseline seq's models into dst.
	copyModels(seq uint16, dst *entropyModels) bool
	// reclaim gives back the models lent to e's storage, if any.
	reclaim(e *entropyState)
	// baselineMem copies the cubes' memory of baseline seq's models
	// into dst (len(dst) cubes).
	baselineMem(seq uint16, dst []uint8) bool
}

// modelUndo is what a lending entry needs to rebuild its models.
type modelUndo struct {
	// over is the storage its models were lent to (now another
	// snapshot's, or the packet's); nil once they are its own again.
	over  *entropyModels
	lines []uint16
	data  [][modelLine]byte
}

// modelBytes is m as bytes.
func modelBytes(m *entropyModels) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(m)), unsafe.Sizeof(*m))
}

// save keeps the given lines of m, which it lends to over.
func (u *modelUndo) save(m *entropyModels, lines []uint16) {
	b := modelBytes(m)
	u.lines = append(u.lines[:0], lines...)
	u.data = slices.Grow(u.data[:0], len(lines))[:len(lines)]
	for i, l := range lines {
		if o := int(l) * modelLine; o+modelLine <= len(b) {
			u.data[i] = [modelLine]byte(b[o:])
		} else {
			copy(u.data[i][:], b[o:]) // the last line, when the models end inside it
		}
	}
	u.over = m
}

// putBack puts the saved lines into m.
func (u *modelUndo) putBack(m *entropyModels) {
	b := modelBytes(m)
	for i, l := range u.lines {
		if o := int(l) * modelLine; o+modelLine <= len(b) {
			*(*[modelLine]byte)(b[o:]) = u.data[i]
		} else {
			copy(b[o:], u.data[i][:])
		}
	}
}

// restore puts the saved lines back into the storage they were lent to,
// which becomes the lender's models again.
func (u *modelUndo) restore(m *entropyModels) {
	u.putBack(m)
	u.over = nil
}

// lendModels codes packet e's pass in the models of baseline seq, whose
// entry saves the lines the pass may write (lines) and keeps e's storage
// in exchange. False when the sender does not lend (a test keeping every
// snapshot's models, which may be read after a newer ack) or does not
// hold the baseline's models, or lent them already: a packet that names
// the same baseline again copies them (copyModels), the plain way's cost.
func (s *snapshotSender) lendModels(seq uint16, lines []uint16, e *entropyState) bool {
	s.reclaim(e)
	if s.keepAll {
		return false
	}
	b := s.history.Find(s.frame + wire.SequenceDiff(seq, uint16(s.frame)))
	if b == nil || !b.HasModels {
		return false
	}
	if b.undo != nil && b.undo.over != nil {
		return false
	}
	if b.undo == nil {
		b.undo = s.undos.get()
	}
	b.undo.save(b.Models, lines)
	b.Models, e.models = e.models, b.Models
	e.lentBy = b
	s.shared.lends.Add(1)
	return true
}

// copyModels copies baseline seq's models into dst: a lender's are the
// storage it lent them to with its saved lines put back, its own storage
// left as it is (stale). False when it does not hold them.
func (s *snapshotSender) copyModels(seq uint16, dst *entropyModels) bool {
	b := s.history.Find(s.frame + wire.SequenceDiff(seq, uint16(s.frame)))
	if b == nil || !b.HasModels {
		return false
	}
	if u := b.undo; u != nil && u.over != nil {
		// The storage's clean lines are clean in the lender's models
		// too: its saved lines are among those its borrower's replay
		// cleared.
		s.shared.cleanSkipped.Add(int64(copyModelsFrom(dst, u.over)))
		u.putBack(dst)
		s.shared.rebuilt.Add(1)
		return true
	}
	s.shared.cleanSkipped.Add(int64(copyModelsFrom(dst, b.Models)))
	return true
}

// baselineMem copies the memory of the first len(dst) cubes of baseline
// seq's models into dst: a lender's are in the storage it lent them to,
// except in the lines it saved. What a recorder needs of its baseline's
// models (recordPayload). False when it does not hold them.
func (s *snapshotSender) baselineMem(seq uint16, dst []uint8) bool {
	b := s.history.Find(s.frame + wire.SequenceDiff(seq, uint16(s.frame)))
	if b == nil || !b.HasModels {
		return false
	}
	u := b.undo
	if u == nil || u.over == nil {
		copy(dst, b.Models.mem[:len(dst)])
		return true
	}
	copy(dst, u.over.mem[:len(dst)])
	s.shared.traces.recorderMem.Add(1)
	off := int(unsafe.Offsetof(entropyModels{}.mem))
	for i, l := range u.lines { // in increasing order
		lo := int(l) * modelLine
		if lo+modelLine <= off {
			continue
		}
		if lo >= off+len(dst) {
			break
		}
		from, to := max(lo, off), min(lo+modelLine, off+len(dst))
		copy(dst[from-off:to-off], u.data[i][from-lo:to-lo])
	}
	return true
}

// reclaim gives the lender to e's storage its models back before it is
// overwritten without having been kept (keepModels clears lentBy): it
// takes the storage back, its saved lines put back. (Any other lender to
// it, which should not exist, gets a copy of its own.)
func (s *snapshotSender) reclaim(e *entropyState) {
	b := e.lentBy
	if b == nil {
		return
	}
	e.lentBy = nil
	st := e.models
	for k := 0; k < s.history.Len(); k++ {
		if x := s.history.At(k); x != b && x.undo != nil && x.undo.over == st {
			*x.Models = *st
			x.undo.putBack(x.Models)
			x.undo.over = nil
			s.shared.rebuilt.Add(1)
		}
	}
	if u := b.undo; u != nil && u.over == st {
		u.restore(st)
		b.Models, e.models = e.models, b.Models
	}
}

// releaseUndo gives e's undo back: e's models are dropped or replaced.
// Lenders to e's storage (none should be left: a storage's owner is
// newer than its lenders, and snapshots are dropped oldest first) get a
// copy of their own first.
func (s *snapshotSender) releaseUndo(e *Entry) {
	if e.Models != nil && (e.undo == nil || e.undo.over == nil) {
		for k := range s.history.slots {
			if x := &s.history.slots[k]; x != e && x.undo != nil && x.undo.over == e.Models {
				*x.Models = *e.Models
				x.undo.putBack(x.Models)
				x.undo.over = nil
			}
		}
	}
	if e.undo != nil {
		e.undo.over = nil
		s.undos.put(e.undo)
		e.undo = nil
	}
}

// undoPool recycles the undos of the sender's entries: only the entries
// lending their models hold one, about one per client.
type undoPool = pool[*modelUndo]

func newUndo() *modelUndo { return &modelUndo{} }
