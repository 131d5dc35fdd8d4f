package statesync

import (
	"errors"
	"fmt"

	"netcubes/cubes"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/transfer"
	"netcubes/wire"
)

// Design note: joining mid-session. A right that starts while the left has
// been running (the presenter pressing 3 mid-run, a client joining a game)
// has a world the left left behind long ago. Left to the updates, it
// catches up from the initial world: for a second or two every cube the
// left moved is metres off, and each correction is a "pop" of a metre or
// two that is no pop at all (the screen read 164 cm RMS and "a cube jumped
// 209 cm"). The compression article's answer for a receiver that does not
// know the state: "send down the initial state ... as one large data
// block". So a right that joins after frame 0 starts from a JoinBlock: the
// left's whole world at that frame (B), every cube quantized exactly as an
// update carries it, written to bytes on the left.
//
// The block crosses the same simulated link as everything else: it is cut
// into pieces (package transfer, the state transfer of lockstep and
// rollback: fragments acked by a bitmap, one resent when its ack is a
// round trip and a few ticks late), one piece riding after the last byte
// of each state sync packet until the right says it has the block (a
// packet without one ends where it always did, so every packet outside a
// join is byte for byte what it was). The right acks in its ack packet
// (strategy.TwoWay). Meanwhile it keeps the inputs and updates that
// arrive, shows nothing, and does not simulate; with the last piece it
// reads the block, starts its world from it at frame B, and its playout
// clock catches up from B to its target at one extra frame a tick, with
// the inputs it kept. A block whose pieces take longer than half the
// input ring starts over from a newer frame (the inputs from B would no
// longer be held). The pieces ride above the byte budget: a burst the
// bandwidth graph shows, of Config.Join.FragmentBytes a packet.
//
// Config.JoinFromInitial keeps the old catch-up, for the bench and the
// tests that measure corrections of a right that starts behind.
//
// One block, per cube in index order:
//
//	interacting      1 bit
//	position        59 bits  (4,096 per metre, as an absolute update)
//	orientation     47 bits  (smallest three, 15 bits)
//	at rest          1 bit
//	velocities      84 bits  only when not at rest
//
// after the left's frame (32 bits). 901 resting cubes: about 12 kB.

// JoinBlock is the left's whole world in one block.
type JoinBlock struct {
	Frame       uint32
	Cubes       []replication.QuantizedCubeState // len: the world's cubes, known to both sides
	Interacting []bool
}

// errRestVelocity: a cube sent moving has no velocity.
var errRestVelocity = fmt.Errorf("statesync: a join block's moving cube has zero velocities")

// Serialize writes, reads or measures the block; the reader's Cubes and
// Interacting must already have the world's length.
func (b *JoinBlock) Serialize(s wire.Stream) error {
	if len(b.Interacting) != len(b.Cubes) {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint32(s, &b.Frame); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryOther)
	for i := range b.Cubes {
		if err := serializeJoinCube(s, &b.Cubes[i], &b.Interacting[i]); err != nil {
			return err
		}
	}
	return nil
}

// serializeJoinCube is one cube of the block.
func serializeJoinCube(s wire.Stream, q *replication.QuantizedCubeState, red *bool) error {
	if err := wire.SerializeBool(s, red); err != nil {
		return err
	}
	if err := wire.SerializeQuantizedPosition(s, &q.Position, wire.StateSyncPositionResolution); err != nil {
		return err
	}
	if err := wire.SerializeQuantizedQuat(s, &q.Orientation, wire.StateSyncOrientationBits); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &q.AtRest); err != nil {
		return err
	}
	if q.AtRest {
		if s.IsReading() {
			q.LinearVelocity, q.AngularVelocity = wire.QuantizedVec3{}, wire.QuantizedVec3{}
		}
		return nil
	}
	if err := wire.SerializeQuantizedVelocity(s, &q.LinearVelocity, replication.LinearVelocityBits); err != nil {
		return err
	}
	if err := wire.SerializeQuantizedVelocity(s, &q.AngularVelocity, replication.AngularVelocityBits); err != nil {
		return err
	}
	if q.LinearVelocity == (wire.QuantizedVec3{}) && q.AngularVelocity == (wire.QuantizedVec3{}) {
		return s.Fail(errRestVelocity)
	}
	return nil
}

// maxBlockBytes is the largest block of a world of n cubes: 32 bits of
// frame, then at most 1 + 59 + 47 + 1 + 84 bits (25 bytes) a cube.
func maxBlockBytes(n int) int { return 8 + 25*n }

// joinState is what the strategy remembers of its right's join: the
// left's end of the block's transfer and the right's.
type joinState struct {
	// The left.
	xs    *transfer.Sender // nil: no block to send
	frame int              // the left frame of the block (−1: started with the world)
	bytes int              // the block's size
	block JoinBlock

	// The right.
	rx     transfer.Receiver
	since  int  // the frame the right joined at (the Reset's)
	expect bool // a block is on its way (the right knows it joins)
	follow int  // the frame of the block the right follows (−1: none)
	ready  bool // the block is in and the world runs from it
	doneAt int  // the frame the block came in
	ackDue bool // a piece arrived: say what is held
	ack    transfer.Ack
	// refused counts complete blocks the right could not read.
	refused int
	read    JoinBlock // where the right reads a block
	told    bool      // the join's event was reported
	now     int       // the session's frame at the right's last Update
	ackOut  joinAck
	// rightRuns: this process runs the right's end (its Update came
	// since the reset). A left process never does: its facts describe
	// the block it sends, not a right that waits in another process.
	rightRuns bool
}

// reset forgets both ends' join.
func (j *joinState) reset(frame int) {
	j.xs, j.frame, j.bytes = nil, -1, 0
	j.rx.Reset()
	j.since, j.expect, j.follow, j.ready, j.doneAt, j.ackDue = frame, false, -1, false, -1, false
	j.now = frame
	j.told = false
	j.rightRuns = false
}

// waiting reports whether the right waits for its block: it follows one
// not yet in, or it knows one is coming.
func (j *joinState) waiting() bool {
	return (j.follow >= 0 && !j.ready) || (j.expect && j.follow < 0)
}

// holdsLeft reports whether this process steps the left world: false in
// a right process, whose left stays where it started.
func holdsLeft(ctx strategy.Context) bool { return ctx.Left().Frame() == ctx.Frame() }

// join starts the transfer of a block of the left's world to a right
// that joins past frame 0 (see the design note). A right process does not
// write one (it holds no left world); it follows the pieces its left
// sends, if any.
func (st *Strategy) join(ctx strategy.Context) {
	j := &st.joined
	j.reset(ctx.Frame())
	if ctx.Frame() == 0 || st.cfg.JoinFromInitial || !holdsLeft(ctx) {
		return
	}
	st.startBlock(ctx)
	j.expect = j.xs != nil
}

// startBlock writes the left's world as a block and starts sending it.
func (st *Strategy) startBlock(ctx strategy.Context) {
	j := &st.joined
	data, err := st.writeJoinBlock(ctx.Left())
	if err != nil {
		return
	}
	j.frame, j.bytes = ctx.Frame(), len(data)
	j.xs = transfer.NewSender(st.cfg.Join, ctx.Frame(), data)
	// The right will hold every cube's state and colour as of the block:
	// each cube's last update is the block (none is "never sent"), and
	// the sender has no colour to tell until one changes.
	s := &st.snd
	for i := range j.block.Cubes {
		s.colourKnown[i], s.colourAt[i] = j.block.Interacting[i], j.frame
		s.lastSent[i] = j.frame
	}
}

// writeJoinBlock writes the left's world at the session's precision.
func (st *Strategy) writeJoinBlock(left *cubes.World) ([]byte, error) {
	j := &st.joined
	n := left.NumCubes()
	b := &j.block
	b.Frame = uint32(left.Frame())
	b.Cubes = b.Cubes[:0]
	b.Interacting = b.Interacting[:0]
	for i := range n {
		c := left.Cube(i)
		b.Cubes = append(b.Cubes, quantizeCube(&c, st.set.Coarse))
		b.Interacting = append(b.Interacting, c.Interacting)
	}
	// A new buffer each block: the sender holds the bytes until the
	// right has them all.
	w := wire.NewWriteStream(make([]byte, maxBlockBytes(n)))
	if err := b.Serialize(w); err != nil {
		return nil, err
	}
	if err := w.SerializeAlign(); err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}

// joinPiece is the piece for this tick's packet (nil: none), the block
// started over from this frame when it has taken too long.
func (st *Strategy) joinPiece(ctx strategy.Context) *transfer.Piece {
	j := &st.joined
	if transfer.Overdue(j.xs, ctx.Frame(), inputRing/2) {
		st.startBlock(ctx)
	}
	rtt, known := ctx.RTT()
	return transfer.NextPiece(j.xs, ctx.Frame(), rtt, known)
}

// Errors of the right's pieces.
var (
	errBlockFrame = errors.New("statesync: a join block from the packet's future or its distant past")
	errBlockSize  = errors.New("statesync: a join block larger than the world's")
)

// takePiece is the right's part of a piece in the packet of frame: a
// piece of another block than the one followed starts following it (the
// right waits for it), a fragment is stored, and the last one starts the
// right's world from the block.
func (st *Strategy) takePiece(ctx strategy.Context, frame int, p *transfer.Piece) error {
	j := &st.joined
	f := int(p.Frame)
	if f > frame || frame-f > inputRing {
		// From the packet's future, or older than a left ever lets a
		// block get (it starts one over after half the input ring).
		return errBlockFrame
	}
	if int(p.Size) > maxBlockBytes(st.n) {
		return errBlockSize
	}
	j.ackDue = true
	if f != j.follow {
		// Another block (the left started it over, or this right's left
		// serves it anew): wait for it, and start the clock again from it.
		j.rx.Reset()
		j.follow, j.ready, j.doneAt = f, false, -1
		st.rcv.clock.Reset()
	}
	if j.ready || p.Index < 0 || !j.rx.Take(p) {
		return nil
	}
	if err := st.readJoinBlock(j.rx.Data(), f); err != nil {
		// Not a block of this world: it is asked for again (the acks
		// now say nothing is held).
		j.rx.Drop()
		j.refused++
		return nil
	}
	j.ready, j.doneAt = true, ctx.Frame()
	j.bytes = int(p.Size)
	return nil
}

// readJoinBlock reads a block and starts the right's world from it at
// frame: every cube's state, its colour as the left had it, and the
// quantizer told that the world is on the grid already. Updates of the
// block's frame or older are stale from here on.
func (st *Strategy) readJoinBlock(data []byte, frame int) error {
	r := &st.rcv
	n := r.world.NumCubes()
	b := &st.joined.read
	if len(b.Cubes) != n {
		b.Cubes, b.Interacting = make([]replication.QuantizedCubeState, n), make([]bool, n)
	}
	if err := b.Serialize(wire.NewReadStream(data)); err != nil {
		return err
	}
	if int(b.Frame) != frame {
		return errFrameOutOfRange
	}
	for i := range n {
		if r.world.SetCube(i, stateFromQuantized(&b.Cubes[i], b.Interacting[i])) != nil {
			continue
		}
		r.quant.snapped(r.world, i, &b.Cubes[i])
		r.colour[i] = b.Interacting[i]
		r.lastApplied[i] = frame
	}
	r.world.SetFrame(frame)
	return nil
}

// joinAck is the right's word on its block, in its ack packet.
type joinAck struct{ a *transfer.Ack }

// Serialize writes, reads or measures the ack.
func (p *joinAck) Serialize(s wire.Stream) error { return p.a.Serialize(s) }

var _ strategy.TwoWay = (*Strategy)(nil)

// SendBack implements strategy.TwoWay: while the right follows a block
// and a piece arrived or the block is not in, it says which pieces it
// holds (or that it has the block).
func (st *Strategy) SendBack(ctx strategy.Context) {
	j := &st.joined
	if j.follow < 0 || (!j.ackDue && j.ready) {
		return
	}
	j.ackDue = false
	j.rx.Fill(&j.ack, j.ready)
	j.ack.Frame = uint32(j.follow)
	j.ackOut.a = &j.ack
	ctx.SendBack(&j.ackOut)
}

// ReceiveBack implements strategy.TwoWay: the left reads a right's ack of
// its block. An ack of another block, or with no block being sent, is
// ignored.
func (st *Strategy) ReceiveBack(ctx strategy.Context, s *wire.ReadStream) error {
	var a transfer.Ack
	if err := a.Serialize(s); err != nil {
		return err
	}
	if xs := st.joined.xs; xs != nil && int(a.Frame) == xs.Frame() {
		xs.Take(&a, true)
	}
	return nil
}

// JoinStats are the figures of a right's join from a block.
type JoinStats struct {
	Frame        int  // the left frame of the block (−1: no join)
	Bytes        int  // the block's size
	Pieces, Sent int  // the block's pieces, and pieces sent (resends included)
	Held         int  // pieces the right holds
	Ready        bool // the right runs from the block
	Ticks        int  // from the join until the block was in (or until now)
	Refused      int  // complete blocks the right could not read
	LeftDone     bool // the left heard that the right has it
}

// JoinStats returns the figures of the join at frame now.
func (st *Strategy) JoinStats(now int) JoinStats {
	j := &st.joined
	t := transfer.StatsOf(j.xs, j.refused)
	out := JoinStats{Frame: j.frame, Bytes: j.bytes, Pieces: t.Fragments, Sent: t.Sent, Ready: j.ready, Refused: j.refused, LeftDone: t.Done}
	out.Held, _ = j.rx.Pieces()
	if _, total := j.rx.Pieces(); total > 0 {
		out.Pieces = total
	}
	end := now
	if j.ready {
		end = j.doneAt
	}
	out.Ticks = end - j.since
	if j.frame < 0 && j.follow < 0 {
		out.Frame = -1
	}
	return out
}

// joinShowTicks is how long the facts line says how the right joined.
const joinShowTicks = 5 * wire.TicksPerSecond

// joinFacts leads the facts line while the right waits for its block and
// for a few seconds after it came in.
func (st *Strategy) joinFacts(now int) string {
	j := &st.joined
	ms := func(ticks int) int { return ticks * 1000 / wire.TicksPerSecond }
	if !j.rightRuns {
		return transfer.SendingFacts(j.xs, j.bytes, sendingLine)
	}
	if j.waiting() {
		got, total := j.rx.Pieces()
		if total == 0 {
			return fmt.Sprintf("joining: waiting for the block, %d ms · ", ms(now-j.since))
		}
		return fmt.Sprintf("joining: %d/%d pieces, %d ms · ", got, total, ms(now-j.since))
	}
	if !j.ready || now-j.doneAt > joinShowTicks {
		return ""
	}
	_, total := j.rx.Pieces()
	return fmt.Sprintf("joined from one %.1f kB block of the world in %s, %d ms · ",
		float64(j.bytes)/1000, pieces(total), ms(j.doneAt-j.since))
}

// sendingLine leads a left process's facts line while the block it sends
// to a joining right is not all acked (transfer.SendingFacts).
const sendingLine = "sending the joining right one %.1f kB block in %s (%d sent) · "

// pieces is "1 piece" or "n pieces".
func pieces(n int) string {
	if n == 1 {
		return "1 piece"
	}
	return fmt.Sprintf("%d pieces", n)
}

// joinEvent is the caption of a join, once the block is in.
func (st *Strategy) joinEvent() (strategy.Event, bool) {
	j := &st.joined
	if !j.ready || j.told {
		return strategy.Event{}, false
	}
	j.told = true
	ms := (j.doneAt - j.since) * 1000 / wire.TicksPerSecond
	return strategy.Event{Kind: strategy.EventNote,
		Text: fmt.Sprintf("the right joined from one %.1f kB block of the left's world (%d ms)", float64(j.bytes)/1000, ms)}, true
}

var _ strategy.Eventful = (*Strategy)(nil)

// Event implements strategy.Eventful: the join, once.
func (st *Strategy) Event() (strategy.Event, bool) { return st.joinEvent() }

// receivePiece reads the piece after a state sync packet, if any (bytes
// past the packet's last one: the left sends a transfer.Tailed), and
// takes it.
func (st *Strategy) receivePiece(ctx strategy.Context, frame int, s *wire.ReadStream) error {
	p := &st.rcv.piece
	if has, err := transfer.ReadTail(s, p); err != nil || !has {
		return err
	}
	return st.takePiece(ctx, frame, p)
}
