package rollback

// A machine that joins a running session (the two-process mode's rights):
// as in lockstep (lockstep/join.go), the left sends its world at the
// frame the right joined, exact to the bit, in fragments inside this
// right's packets (package transfer), the inputs from that frame on going
// with them; the machine holds the inputs, restores the world when the
// last fragment is in, and runs from there. The other machines, the relay
// and the left world go on. A leave changes no input: in the two-process
// mode every player's input is made at the left.

import (
	"errors"

	"netcubes/strategy"
	"netcubes/transfer"
)

var _ strategy.Joiner = (*Strategy)(nil)

// Join implements strategy.Joiner: the left starts serving a machine that
// joined at this frame with a state transfer.
func (st *Strategy) Join(ctx strategy.Context) {
	st.players, st.own = ctx.Players(), ownPlayer(ctx)
	st.start, st.lastOut = ctx.Frame(), 0
	for p := range st.acked {
		st.acked[p] = st.start
	}
	st.xs.Start(st.cfg.Transfer, ctx.Left(), ctx.Frame(), st.relay.start)
}

// transfer returns the left's figures of this client's transfer and the
// right's count of refused ones.
func (st *Strategy) transfer() transfer.Stats { return st.xs.Stats(st.xj.Refused()) }

var errTransfer = errors.New("rollback: a state transfer from the left's future or from before the session")

// takePiece is the machine's part of a piece in a packet of frame.
func (st *Strategy) takePiece(frame int, p *transfer.Piece) error {
	f := int(p.Frame)
	if f > frame || f < st.relay.start {
		return errTransfer
	}
	if st.xj.New(p) {
		st.restartRight(f)
		st.xj.Follow(f)
		st.m.mine[f%ring] = hashAt{frame: -1} // the fresh world's, not the transfer's
	}
	restored, err := st.xj.Take(p, st.m.world)
	if restored {
		st.m.record(f) // the world's hash at its frame, against the left's
	}
	return err
}

// Stats are the machine's sync figures, for tests.
type Stats struct {
	Checked  int // frames whose hashes were compared with the left's
	Desync   int // first frame that differed, −1
	Restarts int // times the machine started over
	Frame    int // the machine's world's frame (−1: none)
}

// Stats returns the machine's sync figures.
func (st *Strategy) Stats() Stats {
	s := Stats{Checked: st.m.fig.Checked, Desync: st.m.fig.Desync, Restarts: st.restarts, Frame: -1}
	if st.m.world != nil {
		s.Frame = st.m.world.Frame()
	}
	return s
}
