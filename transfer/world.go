package transfer

import (
	"errors"
	"fmt"

	"netcubes/cubes"
)

// The world at each end: the left saves its world and starts a Sender;
// the right follows the transfer (Joining) and restores the world from it.

// SendWorld starts the transfer of w as it is now (its frame, every bit
// of its state).
func SendWorld(cfg Config, w *cubes.World) (*Sender, error) {
	var s cubes.Saved
	w.Save(&s)
	b, err := s.AppendBinary(nil)
	if err != nil {
		return nil, err
	}
	if b, err = Compress(b); err != nil {
		return nil, err
	}
	return NewSender(cfg, w.Frame(), b), nil
}

// ErrRefused wraps the reason a complete transfer was refused: bytes that
// do not decompress, are not a world like the right's, or hold a world of
// another frame than the transfer's.
var ErrRefused = errors.New("transfer: a world this right cannot run")

// Joining is a right's side of a state transfer: the world it follows (its
// frame) and whether it is in.
type Joining struct {
	base    int // −1: none
	ready   bool
	refused int
	r       Receiver
	ack     Ack
	saved   cubes.Saved
}

// NewJoining returns a right following no transfer.
func NewJoining() Joining { return Joining{base: -1} }

// Reset follows no transfer any more (the right starts from the session's
// start).
func (j *Joining) Reset() {
	j.base, j.ready = -1, false
	j.r.Reset()
	j.saved = cubes.Saved{}
}

// Base is the frame of the world followed, −1 for none.
func (j *Joining) Base() int { return j.base }

// Waiting reports whether the right follows a transfer whose world is not
// in yet: it must not simulate meanwhile.
func (j *Joining) Waiting() bool { return j.base >= 0 && !j.ready }

// Refused is how many complete transfers were refused.
func (j *Joining) Refused() int { return j.refused }

// New reports whether p belongs to another transfer than the one followed:
// the caller starts its right over at p's frame, then calls Follow.
func (j *Joining) New(p *Piece) bool { return int(p.Frame) != j.base }

// Follow starts following the transfer of the world at frame f.
func (j *Joining) Follow(f int) {
	j.Reset()
	j.base = f
}

// Take stores a piece of the transfer followed; the last one restores the
// world into w. restored is true on the piece that did it. A refused
// whole is dropped (the left sends it again, as the acks then say) and
// counted.
func (j *Joining) Take(p *Piece, w *cubes.World) (restored bool, err error) {
	if j.ready || int(p.Frame) != j.base || !j.r.Take(p) {
		return false, nil
	}
	b, err := Decompress(j.r.Data())
	if err == nil {
		err = w.DecodeSaved(b, &j.saved)
	}
	if err == nil && j.saved.Frame() != j.base {
		err = fmt.Errorf("a world of frame %d for a transfer of frame %d", j.saved.Frame(), j.base)
	}
	if err == nil {
		err = w.Restore(&j.saved)
	}
	j.saved = cubes.Saved{} // the world holds it now: nothing large kept twice
	if err != nil {
		j.r.Drop()
		j.refused++
		return false, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	j.ready = true
	return true, nil
}

// Ack is the right's word for its ack packet, nil when it follows no
// transfer.
func (j *Joining) Ack() *Ack {
	if j.base < 0 {
		return nil
	}
	j.r.Fill(&j.ack, j.ready)
	j.ack.Frame = uint32(j.base)
	return &j.ack
}

// Pieces is the fragments held and the transfer's number of them (0
// before its first piece).
func (j *Joining) Pieces() (got, total int) { return j.r.Pieces() }

// Progress is the bytes held and the transfer's size (0 before its first
// piece).
func (j *Joining) Progress() (got, size int) { return j.r.Progress() }

// Session is what WorldOut reads of the session's tick (strategy.Context
// has it).
type Session interface {
	Frame() int
	RTT() (ms float64, known bool)
}

// WorldOut is a left's end of the world's transfer to one right, for a
// strategy whose rights run the world from the session's start on the
// inputs alone (lockstep, rollback): a right that joins later gets the
// left's world at the frame it joined, the inputs from that frame going
// with it as usual.
type WorldOut struct {
	s     *Sender // nil: none
	again bool    // the right started over: send the world again
}

// Start starts sending the left world w to a right that joined at frame
// now, in place of any transfer before. While w has not stepped since the
// session started (frame start) it sends nothing: the right builds that
// fresh world itself.
func (o *WorldOut) Start(cfg Config, w *cubes.World, now, start int) {
	o.s, o.again = nil, false
	if now == start {
		return
	}
	// An error cannot happen with a world the session built; the right
	// then waits, and says so.
	o.s, _ = SendWorld(cfg, w)
}

// Stop forgets the transfer (a reset, a release).
func (o *WorldOut) Stop() { o.s, o.again = nil, false }

// Again has the next Piece start the transfer over: the right lacks
// inputs the left no longer holds (it started over long after its start),
// so only the world can serve it.
func (o *WorldOut) Again() { o.again = true }

// Piece is the left's piece for this tick's packet (nil: none). When the
// right needs the world again, or the transfer has run longer than hold
// frames (the inputs from its frame would no longer be held), it first
// calls join, the strategy's Join, which starts it over from this frame.
func (o *WorldOut) Piece(ctx Session, hold int, join func()) *Piece {
	if o.again || Overdue(o.s, ctx.Frame(), hold) {
		join()
	}
	rtt, known := ctx.RTT()
	return NextPiece(o.s, ctx.Frame(), rtt, known)
}

// Take reads the right's word on the transfer (nil: it follows none).
func (o *WorldOut) Take(a *Ack) {
	if o.s != nil {
		o.s.Take(a, a != nil)
	}
}

// Stats returns the left's figures of the transfer with the right's count
// of refused ones.
func (o *WorldOut) Stats(refused int) Stats { return StatsOf(o.s, refused) }

// Line is the right's transfer in words while it lasts.
func (j *Joining) Line() string {
	got, size := j.Progress()
	if size == 0 {
		return fmt.Sprintf("receiving the left's world at frame %d", j.Base())
	}
	return fmt.Sprintf("receiving the left's world at frame %d: %.0f of %.0f kB", j.Base(), float64(got)/1000, float64(size)/1000)
}
