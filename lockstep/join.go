package lockstep

// Design note: a right that joins a running session. Lockstep's rights run
// the world from one start; a right that joins later cannot build the
// left's world at the current frame from anything it has, and starting
// the whole session over for it would throw every other right back to the
// grid. So the left saves its world at the frame the right joined (B),
// and sends it, exact to the bit, in fragments inside this right's input
// packets (package transfer) while the inputs from B on go with them as
// usual. The right holds the inputs, waits for the last fragment, restores
// the world at B, checks its hash against the left's for B, and from then
// on is an ordinary lockstep right, catching up on the inputs it holds.
// Nobody else notices: the other rights' instances, the relay of inputs
// and the left world go on.
//
// A leave changes nothing in the inputs: in the two-process mode every
// player's input is made at the left (the presenter, the scripts, the
// bots), so a right that leaves takes no input with it, and every right
// keeps receiving the same inputs for every frame.
//
// The right keeps its word on the transfer in every ack (a few bits once
// it runs the world). A right that started over (it fell behind, it
// restarted) follows no transfer any more: the left sends the world
// again. A transfer not finished within half the input ring (8.5 s)
// starts again from a newer frame, since the inputs from B would no
// longer be held.

import (
	"errors"
	"fmt"
	"math"

	"netcubes/cubes"
	"netcubes/strategy"
	"netcubes/transfer"
	"netcubes/wire"
)

var _ strategy.Joiner = (*Strategy)(nil)

// Join implements strategy.Joiner: the left starts serving a right that
// joined at this frame with a state transfer, and the relay, the left
// world and every other client go on.
func (st *Strategy) Join(ctx strategy.Context) {
	st.players = ctx.Players()
	st.start, st.acked, st.lastCount = ctx.Frame(), ctx.Frame(), 0
	st.xs, st.rejoin = nil, false
	var s cubes.Saved
	ctx.Left().Save(&s)
	b, err := s.AppendBinary(nil)
	if err == nil {
		b, err = transfer.Compress(b)
	}
	if err != nil {
		return // cannot happen with a world the session built; the right then waits
	}
	st.xs = transfer.NewSender(st.cfg.Transfer, ctx.Frame(), b)
}

// TransferStats is what the state transfer of a joined right costs.
type TransferStats struct {
	Frame     int // the world's frame, −1 when this client had none
	Bytes     int // compressed
	Fragments int
	Sent      int // fragments sent, resends included
	Done      bool
	Refused   int // transfers the right refused (the right's side)
}

// Transfer returns the left's figures of this client's transfer and the
// right's count of refused ones.
func (st *Strategy) Transfer() TransferStats {
	t := TransferStats{Frame: -1, Refused: st.xrefused}
	if st.xs != nil {
		t.Frame = st.xs.Frame()
		t.Bytes, t.Fragments = st.xs.Bytes()
		t.Sent, t.Done = st.xs.Sent(), st.xs.Done()
	}
	return t
}

// transferPiece is the left's piece for this tick's packet, starting the
// transfer over from this frame when it has run too long.
func (st *Strategy) transferPiece(ctx strategy.Context) *transfer.Piece {
	if st.rejoin || (st.xs != nil && !st.xs.Done() && ctx.Frame()-st.xs.Frame() > ring/2) {
		st.Join(ctx)
	}
	if st.xs == nil {
		return nil
	}
	rtt := 0
	if ms, ok := ctx.RTT(); ok {
		rtt = int(math.Ceil(ms * wire.TicksPerSecond / 1000))
	}
	return st.xs.Piece(ctx.Frame(), rtt)
}

// takeTransferAck reads a right's word on the transfer (the left).
func (st *Strategy) takeTransferAck(a *AckPacket) {
	if st.xs != nil {
		st.xs.Take(a.Transfer, a.Transfer != nil)
	}
}

var errTransfer = errors.New("lockstep: a state transfer that is not a world this right can run")

// takePiece is the right's part of a piece in a packet of frame: a piece
// of a new transfer starts the right over at its world's frame (waiting
// for the world), a fragment is stored, the last one restores the world.
func (st *Strategy) takePiece(frame int, p *transfer.Piece) error {
	f := int(p.Frame)
	if f > frame || f < st.relay.start {
		return errTransfer // a world from the left's future, or from before the session
	}
	if f != st.xbase {
		st.restartRight(f)
		st.xbase = f
		st.own[f%ring] = hashAt{frame: -1} // the fresh world's, not the transfer's
	}
	if st.xready || p.Index < 0 || !st.xr.Take(p) {
		return nil
	}
	return st.restoreTransfer()
}

// restoreTransfer decodes the complete transfer into the right's world.
func (st *Strategy) restoreTransfer() error {
	b, err := transfer.Decompress(st.xr.Data())
	if err == nil {
		err = st.world.DecodeSaved(b, &st.xsaved)
	}
	if err == nil && st.xsaved.Frame() != st.xbase {
		err = fmt.Errorf("a world of frame %d for a transfer of frame %d", st.xsaved.Frame(), st.xbase)
	}
	if err == nil {
		err = st.world.Restore(&st.xsaved)
	}
	st.xsaved = cubes.Saved{} // the world holds it now: nothing large kept twice
	if err != nil {
		st.xr.Drop() // the left sends it all again, as the acks will say
		st.xrefused++
		return fmt.Errorf("%w: %v", errTransfer, err)
	}
	st.xready = true
	st.recordOwn() // the world's hash at its frame, against the left's
	return nil
}

// transferAck is the right's word on its transfer for this tick's ack, nil
// for a right that runs from the session's start.
func (st *Strategy) transferAck() *transfer.Ack {
	if st.xbase < 0 {
		return nil
	}
	st.xr.Fill(&st.xack, st.xready)
	return &st.xack
}

// receiving reports whether the right waits for its world.
func (st *Strategy) receiving() bool { return st.xbase >= 0 && !st.xready }

// receivingLine is the right's transfer in words while it lasts.
func (st *Strategy) receivingLine() string {
	got, size := st.xr.Progress()
	if size == 0 {
		return fmt.Sprintf("receiving the left's world at frame %d", st.xbase)
	}
	return fmt.Sprintf("receiving the left's world at frame %d: %.0f of %.0f kB", st.xbase, float64(got)/1000, float64(size)/1000)
}
