package snapshot

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"netcubes/wire"
	"netcubes/wire/arith"
)

// Decide once, code many (levels 12-13, the sender). A coded packet is two
// kinds of work: deciding what to code (which cubes changed, each one's
// reference, contexts, neighbour correction, residuals: geometry, a
// function of the snapshot, its baselines and the header) and coding
// those decisions with the models (mixing, coding, updating them: a
// function of the models as well). Clients that acked the same baseline
// make the same decisions with different models, since their models are
// the ends of different chains of packets (sendshare.go): their packets
// differ, but only in the second kind of work.
//
// So the first client of a tick to code a packet with a given header
// records its decisions (a trace: for each, which models it is coded
// with, as offsets into entropyModels, and the value), and the others
// with the same header replay the trace against their own models instead
// of deciding again: the same calls to the coder in the same order with
// the same values and the same models, hence the same bits.
//
// One input of the decisions lives in the models: each cube's memory
// (entropyModels.mem, the size of its residual in the baseline's packet),
// which picks the second model of the changed decision and of the
// residuals. The memory is the baseline's packet's, which differs between
// clients whose baselines' packets were coded against different
// baselines; rather than keying traces by it (which split the 64 clients
// of the scale bench into about 16 traces a tick instead of 6), an
// operation whose model depends on it records the model of memory class 0
// and the stride to the others, and the replay adds the client's own
// class. The memory a packet leaves (its residuals' sizes) does not
// depend on the models: the trace carries it whole.

// Trace operations: one call of the coder each (entropyState's bit,
// tree, golomb, bitMix3, golombMix3), as record is told them; a trace
// keeps them as the coder's binary decisions (arith.Step), appended as
// they are recorded.
const (
	opBit       = iota // a: Prob
	opTree             // a: the tree's first Prob, n: its bits
	opGolomb           // a: Golomb
	opMix              // a, b, c: Probs (c nil: none), mx: Mixer
	opGolombMix        // a, b: Golomb, c: GolombContext (nil: none), mx: GolombMixers
)

// trace is the decisions of one packet.
type trace struct {
	key    traceKey
	ready  bool
	spoilt bool // a model outside the packet's models (off): never published
	// steps are the coder's binary decisions, flattened from each
	// call of the coder as it is recorded (offsets into entropyModels;
	// a second model that depends on the cube's memory class at class
	// 0, with its stride).
	steps []arith.Step
	stats PacketStats
	n     int             // cubes
	mem   [MaxCubes]uint8 // the memory the packet leaves, mem[:n]
	// lines: the lines of entropyModels (modelLine bytes each) a replay
	// of the trace may write, in increasing order, whatever the
	// client's memory classes (lend.go); seen marks them, a byte a line
	// (a plain store each: with a bitmap, recording cost a tenth more),
	// as the steps are recorded, and marked is how many steps it has
	// seen.
	lines  []uint16
	mask   [cleanWords]uint64 // lines as a bitmap
	seen   []bool
	marked int
	tag    int // the category of the last tag step, −1: none yet
}

// traceKey is everything of a packet a trace depends on besides the
// models: the tick's snapshot, its header, and (for the baselines' cubes)
// the baselines it names; clients quantize alike, so the cubes of a
// frame are the same for all (quantized).
type traceKey struct {
	frame                             int
	level                             Level
	predict, initial, carried, motion bool
	baseline                          uint16
	span                              uint8
}

// traceShare holds the traces recorded this tick, shared by an instance
// and its clones (quantized), like packetShare.
type traceShare struct {
	mu    sync.Mutex
	frame int
	all   []*trace
	n     int // this tick's, all[:n]
	// replayed counts the packets coded from another client's trace
	// (tests and the design note's figures).
	replayed int
	busy     int // claims that found the trace still being recorded
	// recorderLends counts the recorders coding in their baseline's
	// models lent (wholeModels), recorderMem those that read their
	// baseline's memory from a lender (baselineMem): tests.
	recorderLends, recorderMem atomic.Int64
	// published, when set (tests), is told every trace as it is
	// published, under the lock.
	published func(*trace)
}

// claim returns the ready trace for k, or (mine) a new one for the caller
// to record and publish; nil, false when another client is recording it
// (the caller codes its own packet, the same bits).
func (s *traceShare) claim(k traceKey) (t *trace, mine bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k.frame != s.frame {
		s.frame, s.n = k.frame, 0
	}
	for _, q := range s.all[:s.n] {
		if q.key == k {
			if !q.ready {
				s.busy++
				return nil, false
			}
			s.replayed++
			return q, false
		}
	}
	if s.n == len(s.all) {
		s.all = append(s.all, &trace{})
	}
	q := s.all[s.n]
	s.n++
	q.key, q.ready, q.spoilt, q.steps, q.marked, q.tag = k, false, false, q.steps[:0], 0, -1
	if len(q.seen) == 0 {
		q.seen = make([]bool, numModelLines)
	}
	clear(q.seen)
	return q, true
}

// publish makes t, recorded, available to the clients that claim it after.
func (s *traceShare) publish(t *trace) {
	t.listLines()
	s.mu.Lock()
	defer s.mu.Unlock()
	t.ready = true
	if s.published != nil {
		s.published(t)
	}
}

// traceKeyOf is the key of packet p's trace.
func (p *Packet) traceKeyOf() traceKey {
	return traceKey{frame: int(p.Sequence), level: p.Level, predict: p.Predict, initial: p.Initial,
		carried: p.Carried, motion: p.Motion, baseline: p.Baseline, span: p.MotionSpan}
}

// off is the offset of the model at ptr inside e's models. A model
// elsewhere (no coder codes with one) spoils the trace: it is not
// published, and the other clients code their own packets.
func (e *entropyState) off(ptr unsafe.Pointer) int32 {
	d := uintptr(ptr) - uintptr(unsafe.Pointer(e.models))
	if d >= unsafe.Sizeof(*e.models) {
		e.rec.spoilt = true
		return 0
	}
	return int32(d)
}

// record appends one call of the coder (an op*) to the trace in
// progress, rec, as the binary decisions it codes: its models as offsets
// into e's models; a second model (b) that depends on the cube's memory
// class as that of class 0, with the stride to the others (memStride).
// It marks the lines they lie in as it goes, while the steps are in the
// cache, rather than in a pass over them all when the trace is published.
func (e *entropyState) record(kind uint8, n uint8, v int32, a, b, c, mx unsafe.Pointer) {
	t := e.rec
	oa, ob, oc, om, stride := int32(0), int32(0), int32(-1), int32(0), int32(0)
	if a != nil {
		oa = e.off(a)
	}
	if b != nil {
		ob = e.off(b)
		if e.memStride != 0 {
			ob -= int32(e.memClass) * e.memStride
			stride = e.memStride
		}
	}
	if c != nil {
		oc = e.off(c)
	}
	if mx != nil {
		om = e.off(mx)
	}
	switch kind {
	case opBit:
		t.steps = arith.AppendBit(t.steps, oa, int(v))
	case opTree:
		t.steps = arith.AppendTree(t.steps, oa, int(n), uint32(v))
	case opGolomb:
		t.steps = arith.AppendGolomb(t.steps, oa, v)
	case opMix:
		t.steps = arith.AppendMix(t.steps, oa, ob, stride, oc, om, int(v))
	case opGolombMix:
		t.steps = arith.AppendGolombMix(t.steps, oa, ob, stride, oc, om, v)
	}
	t.markSteps()
}

// recordCube starts cube i in the trace: the next steps' memory class is
// the replaying models' memory of cube i.
func (e *entropyState) recordCube(i int) {
	if e.rec != nil {
		t := e.rec
		t.steps = arith.AppendClass(t.steps, int32(unsafe.Offsetof(entropyModels{}.mem))+int32(i))
		t.marked = len(t.steps)
	}
}

// replay codes the decisions of t with the packet's models: the calls a
// coding pass of the same packet would make, flattened into the coder's
// binary decisions (arith.Replay).
func (e *entropyState) replay(t *trace) {
	m := e.models
	e.enc.Replay(unsafe.Pointer(m), t.steps, &memClasses)
	copy(m.mem[:t.n], t.mem[:t.n])
	for w := range m.clean {
		m.clean[w] &^= t.mask[w]
	}
}

// memClasses is memClass as a table, for arith.Replay.
var memClasses = func() (c [256]uint8) {
	for v := range c {
		c[v] = uint8(memClass(v))
	}
	return c
}()

// replayable checks that packet p can be coded from trace t (its cubes'
// decisions recorded by another client this tick): its older baseline
// must be one this sender holds, as a coding pass would check.
func (p *Packet) replayable(base []Cube, t *trace) error {
	if p.Motion {
		base2 := p.Baselines.SnapshotBaseline(false, p.Baseline-uint16(p.MotionSpan))
		if base2 == nil {
			return ErrNoBaseline
		}
		if len(base2) != len(base) {
			return ErrSize
		}
	}
	if t.n != len(p.Cubes) {
		return ErrSize
	}
	return nil
}

// tagOp records a change of category. A category the same as the last
// one recorded is not: the coder charges the decisions in between to it
// either way, and a replay then skips a step (most cubes are unchanged,
// and each is charged to the flags: a seventh of a packet's steps).
func (e *entropyState) tagOp(c wire.Category) {
	if t := e.rec; t != nil && t.tag != int(c) {
		t.tag = int(c)
		t.steps = arith.AppendTag(t.steps, int(c))
		t.marked = len(t.steps)
	}
}

// markSteps marks the lines of entropyModels that the steps recorded
// since the last call may write: every Prob and Mixer they update (the
// second model at every memory class). A superset is all lending needs
// (lend.go): a line listed but not written is saved and put back
// unchanged.
func (t *trace) markSteps() {
	mixer := int32(unsafe.Sizeof(arith.Mixer{}))
	for i := t.marked; i < len(t.steps); i++ {
		st := &t.steps[i]
		switch st.Kind {
		case arith.StepPlain:
			t.markAt(st.A)
		case arith.StepMix2, arith.StepMix3:
			t.markAt(st.A)
			t.markAt(st.B)
			if st.Stride != 0 {
				for k := int32(1); k < numMemClasses; k++ {
					t.markAt(st.B + k*st.Stride)
				}
			}
			if st.Kind == arith.StepMix3 {
				t.markAt(st.C)
			}
			t.markAt(st.M)
			t.markAt(st.M + mixer - 1)
		}
	}
	t.marked = len(t.steps)
}

// listLines lists the lines a replay of t may write (lend.go): those its
// steps marked, and those of the memory the packet leaves.
func (t *trace) listLines() {
	t.mark(int32(unsafe.Offsetof(entropyModels{}.mem)), int32(t.n))
	t.lines = t.lines[:0]
	t.mask = [cleanWords]uint64{}
	// Eight lines' marks at a time: most are not marked.
	seen := t.seen
	for w := 0; w < len(seen); w += 8 {
		if w+8 <= len(seen) && *(*uint64)(unsafe.Pointer(&seen[w])) == 0 {
			continue
		}
		for l := w; l < min(w+8, len(seen)); l++ {
			if seen[l] {
				t.lines = append(t.lines, uint16(l))
				t.mask[l/64] |= 1 << (l % 64)
			}
		}
	}
}

// markAt marks the line of the byte at offset off (a Prob, aligned, lies
// in one line).
func (t *trace) markAt(off int32) {
	l := uint32(off) / modelLine
	t.seen[l] = true
}

// mark marks the lines of the n bytes at offset off.
func (t *trace) mark(off, n int32) {
	if n <= 0 {
		return
	}
	for l := uint32(off) / modelLine; l <= uint32(off+n-1)/modelLine; l++ {
		t.seen[l] = true
	}
}
