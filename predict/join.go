package predict

import (
	"errors"
	"fmt"

	"netcubes/cubes"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/transfer"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: joining mid-session. A client that starts while the server
// has been running (the presenter pressing 5 mid-run, a player joining a
// game) needs the server's world as it is: the whole-world prediction
// replays from it, and a copy of the quantized states alone parts from
// the server's by 0.1 mm within a few frames and then corrects ten times
// a second for good (1-2 cm RMS). So the client starts from the server's
// save, bit for bit (every body, contact, warm start and sleep timer:
// cubes.Saved), and that save crosses the simulated link like everything
// else: compressed and cut into pieces (package transfer, as lockstep's
// and rollback's state transfer and state sync's join block), one piece
// after the last byte of each server packet, acked by a bitmap after the
// last byte of the client's input packet, a piece resent when its ack is
// a round trip and a few ticks late. A packet without a piece or an ack
// ends where it always did.
//
// Meanwhile the client shows nothing and does not step; it keeps the
// inputs the server's packets say it stepped with (heard). With the last
// piece it restores the save at the server's frame B and steps it on to
// the server's newest frame with those inputs (catchUp), so it holds the server's world bit for bit, and its
// prediction runs from there with its corrections as after a start at
// frame 0. A save not in after half of heard's frames starts over from
// a newer frame (the inputs from B would no longer be held).

// joinRing is how many frames of the server's inputs the client keeps
// (17 s): a save's transfer may take half of it.
const joinRing = 1024

// joinState is the join's two ends: the server's sender and the client's
// receiver.
type joinState struct {
	xs      *transfer.Sender // the server's: nil when no save is sent
	rx      transfer.Joining // the client's
	since   int              // the session frame the client joined at
	doneAt  int              // the session frame the save came in (−1: not)
	ackDue  bool             // a piece arrived: say what is held
	bytes   int              // the save's compressed size
	now     int              // the session frame at the last Update
	told    bool             // the join's caption was shown
	refused int              // complete saves the client could not run
	piece   transfer.Piece   // where the client reads a piece
	ack     transfer.Ack     // where the server reads an ack
	out     transfer.Tailed  // the server's packet and its piece
	back    transfer.Tailed  // the client's packet and its ack
	// clientRuns: this process runs the client's end (its Update came
	// since the reset). A left process never does: its facts describe
	// the save it sends, not a client that waits in another process.
	clientRuns bool
}

// reset forgets both ends' join.
func (j *joinState) reset(frame int) {
	j.xs = nil
	j.rx = transfer.NewJoining()
	j.since, j.doneAt, j.ackDue, j.bytes, j.now, j.told = frame, -1, false, 0, frame, false
	j.clientRuns = false
}

// waiting reports whether the client waits for its save.
func (j *joinState) waiting() bool { return j.rx.Waiting() }

// startJoin starts sending the server's world to a client that joins past
// frame 0, and has the client wait for it. A right process (its left
// world stays where it started) and a thin client send and wait for
// nothing: the right process follows the pieces its left sends, if any.
func (st *Strategy) startJoin(ctx strategy.Context) {
	j := &st.join
	j.reset(ctx.Frame())
	if ctx.Frame() == 0 || ctx.Thin() || ctx.Left().Frame() != ctx.Frame() {
		return
	}
	if st.sendSave(ctx) {
		j.rx.Follow(ctx.Frame())
	}
}

// sendSave starts the transfer of the server's world as it is now.
func (st *Strategy) sendSave(ctx strategy.Context) bool {
	xs, err := transfer.SendWorld(st.cfg.Join, ctx.Left())
	if err != nil {
		return false
	}
	st.join.xs = xs
	st.join.bytes, _ = xs.Bytes()
	return true
}

// joinPiece is the piece for this tick's server packet (nil: none), the
// save started over from this frame when it has taken too long.
func (st *Strategy) joinPiece(ctx strategy.Context) *transfer.Piece {
	j := &st.join
	if transfer.Overdue(j.xs, ctx.Frame(), joinRing/2) && !st.sendSave(ctx) {
		j.xs = nil
	}
	rtt, known := ctx.RTT()
	return transfer.NextPiece(j.xs, ctx.Frame(), rtt, known)
}

// sendPacket sends the server's packet, with a piece of the save while
// the client lacks it.
func (st *Strategy) sendPacket(ctx strategy.Context, p *ServerPacket) error {
	j := &st.join
	j.out = transfer.Tailed{Packet: p}
	if piece := st.joinPiece(ctx); piece != nil {
		j.out.Tail = piece
	}
	_, err := ctx.Send(&j.out)
	return err
}

// sendInputs sends the client's input packet, with its ack while it
// follows a save and a piece arrived or the save is not in.
func (st *Strategy) sendInputs(ctx strategy.Context, p *InputPacket) error {
	j := &st.join
	j.back = transfer.Tailed{Packet: p}
	if a := j.rx.Ack(); a != nil && (j.ackDue || j.waiting()) {
		j.ackDue = false
		j.back.Tail = a
	}
	_, err := ctx.SendBack(&j.back)
	return err
}

// receiveAck reads the ack after a client's input packet, if any: an ack
// of another save, or with none being sent, is ignored.
func (st *Strategy) receiveAck(r *wire.ReadStream) error {
	j := &st.join
	has, err := transfer.ReadTail(r, &j.ack)
	if err != nil || !has {
		return err
	}
	if j.xs != nil && int(j.ack.Frame) == j.xs.Frame() {
		j.xs.Take(&j.ack, true)
	}
	return nil
}

// errSaveFrame: a piece of a save from the packet's future or its distant
// past.
var errSaveFrame = errors.New("predict: a piece of a save from the packet's future or its distant past")

// receivePiece reads the piece after a server packet of frame f, if any,
// and takes it: a piece of another save than the one followed starts the
// client over, waiting for it; the last one starts the client from it.
func (st *Strategy) receivePiece(ctx strategy.Context, f int, r *wire.ReadStream) error {
	j := &st.join
	p := &j.piece
	has, err := transfer.ReadTail(r, p)
	if err != nil || !has {
		return err
	}
	b := int(p.Frame)
	if b > f || f-b > joinRing/2 {
		return errSaveFrame
	}
	j.ackDue = true
	if j.rx.New(p) {
		// The server started the save over, or this right process's left
		// serves it anew: the client starts over and waits for it.
		st.cli.reset(st, ctx)
		j.rx.Follow(b)
		j.since, j.doneAt, j.told = ctx.Frame(), -1, false
		j.bytes = int(p.Size)
	}
	c := &st.cli
	in, err := j.rx.Take(p, c.w)
	if err != nil {
		j.refused++ // asked for again: the acks now say nothing is held
		return nil
	}
	if in {
		j.doneAt = ctx.Frame()
		c.joined(st, b)
		c.joinTo = ctx.Frame()
	}
	return nil
}

// joined starts the client from the save restored into its world at
// frame b: the server's world bit for bit, stepped only with the server's
// inputs (catchUp then steps it on to the server's newest frame).
func (c *client) joined(st *Strategy, b int) {
	c.ct = b
	c.w.SetFrame(b)
	c.shared, c.exact = true, true
	c.lastServer, c.hasServer, c.adopted, c.confirmed, c.matched = -1, false, -1, -1, -1
	c.acked = -1
	c.configured = false
	c.configure(st)
}

// heardInput is the inputs the server stepped a frame with.
type heardInput struct {
	frame int32 // −1: none
	ins   cubes.Inputs
}

// hear keeps the inputs the packet of frame f says the server stepped
// frames f−32 .. f−1 with.
func (c *client) hear(p *ServerPacket, f int) {
	if len(c.heard) != joinRing {
		c.heard = make([]heardInput, joinRing)
		for k := range c.heard {
			c.heard[k].frame = -1
		}
	}
	for k := range replication.Inputs {
		g := f - replication.Inputs + k
		if g < 0 {
			continue
		}
		c.heard[g%joinRing] = heardInput{frame: int32(g), ins: serverInputs(&p.State, k)}
	}
}

// heardAt is the inputs the server stepped frame g with, if heard.
func (c *client) heardAt(g int) (cubes.Inputs, bool) {
	if g < 0 || len(c.heard) == 0 {
		return cubes.Inputs{}, false
	}
	h := &c.heard[g%joinRing]
	return h.ins, int(h.frame) == g
}

// JoinStats are the figures of a client's join from the server's save.
type JoinStats struct {
	Frame         int  // the server frame of the save (−1: no join)
	Bytes         int  // the save's compressed size
	Pieces, Sent  int  // its pieces, and pieces sent (resends included)
	Held          int  // pieces the client holds
	Ready         bool // the client runs from the save
	Ticks         int  // from the join until the save was in (or until now)
	Refused       int  // complete saves the client could not run
	ServerDone    bool // the server heard the client runs it
	ClientWaiting bool
}

// JoinStats returns the join's figures at session frame now.
func (st *Strategy) JoinStats(now int) JoinStats {
	j := &st.join
	t := transfer.StatsOf(j.xs, j.refused)
	out := JoinStats{Frame: j.rx.Base(), Bytes: j.bytes, Pieces: t.Fragments, Sent: t.Sent,
		Ready: j.doneAt >= 0, Refused: j.refused, ServerDone: t.Done, ClientWaiting: j.waiting()}
	if got, total := j.rx.Pieces(); total > 0 {
		out.Held, out.Pieces = got, total
	}
	end := now
	if j.doneAt >= 0 {
		end = j.doneAt
	}
	out.Ticks = end - j.since
	return out
}

// joinFacts is the facts line while the client waits for its save.
func (st *Strategy) joinFacts(now int) string {
	j := &st.join
	if !j.clientRuns {
		return transfer.SendingFacts(j.xs, j.bytes, sendingLine)
	}
	if !j.waiting() {
		return ""
	}
	ms := (now - j.since) * 1000 / wire.TicksPerSecond
	if got, total := j.rx.Pieces(); total > 0 {
		return fmt.Sprintf("joining: %d/%d pieces, %d ms", got, total, ms)
	}
	return fmt.Sprintf("joining: waiting for the server's world, %d ms", ms)
}

// joinEvent is the caption of a join, once the save is in.
func (st *Strategy) joinEvent() (strategy.Event, bool) {
	j := &st.join
	if j.doneAt < 0 || j.told {
		return strategy.Event{}, false
	}
	j.told = true
	_, total := j.rx.Pieces()
	ms := (j.doneAt - j.since) * 1000 / wire.TicksPerSecond
	return strategy.Event{Kind: strategy.EventNote, Text: fmt.Sprintf("the client joined from the server's %.1f kB world (%s, %d ms)",
		float64(j.bytes)/1000, viewmodel.Plural(total, "piece"), ms)}, true
}

// sendingLine is a left process's facts line while the save it sends to
// a joining client is not all acked (transfer.SendingFacts).
const sendingLine = "sending the joining client the server's %.1f kB world in %s (%d sent)"
