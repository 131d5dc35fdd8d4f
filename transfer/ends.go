package transfer

// The two ends of a transfer: the left's Sender, which picks the fragment
// each packet carries, and the right's Receiver, which puts them together.

import (
	"fmt"
	"math"

	"netcubes/viewmodel"
	"netcubes/wire"
)

// Sender is the left's end of one transfer.
type Sender struct {
	cfg    Config
	frame  uint32
	data   []byte
	held   []bool // the right said it holds fragment i
	sentAt []int  // tick fragment i last went, −1 never
	done   bool   // the right has the world and runs it
	next   int    // where the search for a fragment to send starts
	sent   int    // fragments sent, resends included
	piece  Piece
}

// NewSender starts the transfer of a world at frame, its bytes already
// compressed (Compress). The fragment size grows past cfg's when the
// world would otherwise need more than MaxFragments.
func NewSender(cfg Config, frame int, data []byte) *Sender {
	frag := max(cfg.FragmentBytes, (len(data)+MaxFragments-1)/MaxFragments)
	cfg.FragmentBytes = min(frag, MaxFragmentBytes)
	n := fragments(len(data), cfg.FragmentBytes)
	s := &Sender{cfg: cfg, frame: uint32(frame), data: data, held: make([]bool, n), sentAt: make([]int, n)}
	for i := range s.sentAt {
		s.sentAt[i] = -1
	}
	return s
}

// Frame is the frame of the world being sent.
func (s *Sender) Frame() int { return int(s.frame) }

// Bytes is the transfer's size: compressed bytes and fragments.
func (s *Sender) Bytes() (bytes, fragments int) { return len(s.data), len(s.held) }

// Sent is how many fragments went, resends included.
func (s *Sender) Sent() int { return s.sent }

// Done reports whether the right said it runs the world.
func (s *Sender) Done() bool { return s.done }

// Piece is what this tick's packet carries (now, in ticks; rttTicks the
// round trip, 0 when unknown): a fragment the right lacks that has not
// gone within a round trip, or only the announcement (Index −1) while
// every missing fragment is still on its way. Nil once the right runs the
// world.
func (s *Sender) Piece(now, rttTicks int) *Piece {
	if s.done {
		return nil
	}
	p := &s.piece
	p.Frame, p.Size, p.Fragment, p.Index, p.Data = s.frame, int32(len(s.data)), int32(s.cfg.FragmentBytes), -1, nil
	wait := rttTicks + s.cfg.ResendAfterTicks
	n := len(s.held)
	for k := range n {
		i := (s.next + k) % n
		if s.held[i] || (s.sentAt[i] >= 0 && now-s.sentAt[i] < wait) {
			continue
		}
		lo, hi := span(i, len(s.data), s.cfg.FragmentBytes)
		p.Index, p.Data = int32(i), s.data[lo:hi]
		s.sentAt[i] = now
		s.next = (i + 1) % n
		s.sent++
		break
	}
	return p
}

// Take reads a right's ack: a transfer of another frame (an old right's,
// or a right that started over and follows none) makes everything go
// again; for this one, the fragments it holds stop being sent.
func (s *Sender) Take(a *Ack, following bool) {
	if !following || a.Frame != s.frame {
		s.done = false
		for i := range s.held {
			s.held[i] = false
		}
		return
	}
	if a.Done {
		s.done = true
		return
	}
	if int(a.Count) != len(s.held) {
		return // not this transfer's shape: ignored
	}
	s.done = false
	for i := range s.held {
		s.held[i] = a.Holds(i)
	}
}

// Receiver is the right's end of a transfer.
type Receiver struct {
	frame  uint32
	size   int
	frag   int
	active bool
	data   []byte
	have   []bool
	got    int // fragments held
	bytes  int // bytes held
}

// Reset forgets the transfer.
func (r *Receiver) Reset() {
	r.active, r.got, r.bytes = false, 0, 0
	r.data, r.have = nil, nil
}

// Take stores a piece. A piece of another transfer (another frame, size or
// fragment size) starts that one over. It returns true when the piece
// completed the transfer.
func (r *Receiver) Take(p *Piece) bool {
	if !r.active || p.Frame != r.frame || int(p.Size) != r.size || int(p.Fragment) != r.frag {
		r.active, r.frame, r.size, r.frag = true, p.Frame, int(p.Size), int(p.Fragment)
		r.data = make([]byte, r.size)
		r.have = make([]bool, p.count())
		r.got, r.bytes = 0, 0
	}
	i := int(p.Index)
	if i < 0 || i >= len(r.have) || r.have[i] {
		return false
	}
	lo, hi := span(i, r.size, r.frag)
	if len(p.Data) != hi-lo {
		return false
	}
	copy(r.data[lo:hi], p.Data)
	r.have[i] = true
	r.got++
	r.bytes += hi - lo
	return r.got == len(r.have)
}

// Complete reports whether every fragment is in.
func (r *Receiver) Complete() bool { return r.active && r.got == len(r.have) }

// Data is the compressed world once complete (nil before).
func (r *Receiver) Data() []byte {
	if !r.Complete() {
		return nil
	}
	return r.data
}

// Progress is the bytes held and the transfer's size.
func (r *Receiver) Progress() (got, size int) { return r.bytes, r.size }

// Pieces is the fragments held and the transfer's number of fragments (0
// before its first piece).
func (r *Receiver) Pieces() (got, total int) { return r.got, len(r.have) }

// Drop forgets the fragments held (the whole was refused): the left sends
// them again, as the acks now say.
func (r *Receiver) Drop() {
	for i := range r.have {
		r.have[i] = false
	}
	r.got, r.bytes = 0, 0
}

// Fill writes the receiver's ack: done when the world runs.
func (r *Receiver) Fill(a *Ack, done bool) {
	a.Frame, a.Done = r.frame, done
	a.Count = int32(len(r.have))
	a.Have = [MaxFragments / 32]uint32{}
	for i, h := range r.have {
		if h {
			a.Have[i/32] |= 1 << (i % 32)
		}
	}
}

// Stats is what the state transfer of a joined right costs, as the
// lockstep and rollback strategies report it.
type Stats struct {
	Frame     int // the world's frame, −1 when this client had none
	Bytes     int // compressed
	Fragments int
	Sent      int // fragments sent, resends included
	Done      bool
	Refused   int // transfers the right refused (the right's side)
}

// StatsOf returns the left's figures of the transfer s (nil: none) with
// the right's count of refused ones.
func StatsOf(s *Sender, refused int) Stats {
	t := Stats{Frame: -1, Refused: refused}
	if s != nil {
		t.Frame = s.Frame()
		t.Bytes, t.Fragments = s.Bytes()
		t.Sent, t.Done = s.Sent(), s.Done()
	}
	return t
}

// SendingFacts words the transfer s for a left process's facts line while
// the right has not acked all of it ("" with none, or once it has): a
// left process shows the data it sends, not the joining end, which waits
// in the right's process. line is the strategy's own words, a format with
// %.1f for the size in kB of bytes (the size its figures name), %s for
// "n pieces" and %d for the fragments sent, resends included.
func SendingFacts(s *Sender, bytes int, line string) string {
	if s == nil || s.Done() {
		return ""
	}
	_, total := s.Bytes()
	return fmt.Sprintf(line, float64(bytes)/1000, viewmodel.Plural(total, "piece"), s.Sent())
}

// Overdue reports whether the transfer s, unfinished at frame now, has run
// longer than hold frames: the inputs from its frame are no longer held,
// so it starts over from a newer frame.
func Overdue(s *Sender, now, hold int) bool {
	return s != nil && !s.Done() && now-s.Frame() > hold
}

// NextPiece is s's piece for this tick's packet (nil: no transfer), with a
// fragment resent when unacked after the round trip (rttMs, when known)
// and a few ticks.
func NextPiece(s *Sender, now int, rttMs float64, known bool) *Piece {
	if s == nil {
		return nil
	}
	rtt := 0
	if known {
		rtt = int(math.Ceil(rttMs * wire.TicksPerSecond / 1000))
	}
	return s.Piece(now, rtt)
}
