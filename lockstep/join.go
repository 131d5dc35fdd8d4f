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

	"netcubes/strategy"
	"netcubes/transfer"
)

var _ strategy.Joiner = (*Strategy)(nil)

// Join implements strategy.Joiner: the left starts serving a right that
// joined at this frame with a state transfer, and the relay, the left
// world and every other client go on.
func (st *Strategy) Join(ctx strategy.Context) {
	st.players = ctx.Players()
	st.start, st.acked, st.lastCount = ctx.Frame(), ctx.Frame(), 0
	st.xs.Start(st.cfg.Transfer, ctx.Left(), ctx.Frame(), st.relay.start)
}

// transfer returns the left's figures of this client's transfer and the
// right's count of refused ones.
func (st *Strategy) transfer() transfer.Stats { return st.xs.Stats(st.xj.Refused()) }

var errTransfer = errors.New("lockstep: a state transfer from the left's future or from before the session")

// takePiece is the right's part of a piece in a packet of frame: a piece
// of a new transfer starts the right over at its world's frame (waiting
// for the world), a fragment is stored, the last one restores the world.
func (st *Strategy) takePiece(frame int, p *transfer.Piece) error {
	f := int(p.Frame)
	if f > frame || f < st.relay.start {
		return errTransfer
	}
	if st.xj.New(p) {
		st.restartRight(f)
		st.xj.Follow(f)
		st.own[f%ring] = hashAt{frame: -1} // the fresh world's, not the transfer's
	}
	restored, err := st.xj.Take(p, st.world)
	if restored {
		st.recordOwn() // the world's hash at its frame, against the left's
	}
	return err
}

// receiving reports whether the right waits for its world.
func (st *Strategy) receiving() bool { return st.xj.Waiting() }
