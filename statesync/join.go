package statesync

import (
	"fmt"

	"netcubes/cubes"
	"netcubes/replication"
	"netcubes/strategy"
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
// left's whole world at that frame, every cube quantized exactly as an
// update carries it, written to bytes on the left and read back on the
// right, which starts its world from what it read. The block is delivered
// whole at the switch (as a reliable transfer would deliver it): its cost
// is its size, which the HUD and the bench show with the time it takes at
// the state sync budget. Config.JoinFromInitial keeps the old catch-up, for
// the bench and the tests that measure corrections of a right that starts
// behind.
//
// A right process (the two-process mode) does not hold the left's world
// (its left never steps), so there it joins from the initial world as
// before: the block would have to cross the socket, which that mode does
// not carry.
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

// joinState is what the strategy remembers of its right's join.
type joinState struct {
	frame int // the left frame joined at (−1: started with the world)
	bytes int // the block's size
	buf   []byte
	block JoinBlock
	told  bool // the join's event was reported
}

// holdsLeft reports whether this process steps the left world: false in
// a right process, whose left stays where it started.
func holdsLeft(ctx strategy.Context) bool { return ctx.Left().Frame() == ctx.Frame() }

// join starts the right from a block of the left's world, after a Reset
// at a frame past the start (see the design note).
func (st *Strategy) join(ctx strategy.Context) {
	j := &st.joined
	j.frame, j.bytes, j.told = -1, 0, false
	if ctx.Frame() == 0 || st.cfg.JoinFromInitial || !holdsLeft(ctx) {
		return
	}
	data, err := st.writeJoinBlock(ctx.Left())
	if err != nil {
		return
	}
	if err := st.readJoinBlock(data, ctx.Frame()); err != nil {
		return
	}
	j.frame, j.bytes = ctx.Frame(), len(data)
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
	// The largest cube: 1 + 59 + 47 + 1 + 84 bits; 25 bytes each.
	if need := 8 + 25*n; len(j.buf) < need {
		j.buf = make([]byte, need)
	}
	w := wire.NewWriteStream(j.buf)
	if err := b.Serialize(w); err != nil {
		return nil, err
	}
	if err := w.SerializeAlign(); err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}

// readJoinBlock reads a block and starts the right's world from it at
// frame: every cube's state, its colour as the left had it, and the
// quantizer told that the world is on the grid already.
func (st *Strategy) readJoinBlock(data []byte, frame int) error {
	r := &st.rcv
	n := r.world.NumCubes()
	b := JoinBlock{Cubes: make([]replication.QuantizedCubeState, n), Interacting: make([]bool, n)}
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
	}
	r.world.SetFrame(frame)
	// The right was told every cube's state and colour: each cube's last
	// update is the block (none is "never sent"), and the sender has no
	// colour to tell until one changes.
	s := &st.snd
	for i := range n {
		s.colourKnown[i], s.colourAt[i] = b.Interacting[i], frame
		s.lastSent[i] = frame
	}
	return nil
}

// JoinedBytes is the size of the block the right joined with, and the
// left frame it joined at (false: it started with the world, or caught up
// from the initial one).
func (st *Strategy) JoinedBytes() (bytes, frame int, ok bool) {
	return st.joined.bytes, st.joined.frame, st.joined.frame >= 0
}

// joinSeconds is how long the block takes at the budget (headers aside).
func (st *Strategy) joinSeconds() float64 {
	return float64(st.joined.bytes*8) / (float64(st.budgetKbps()) * 1000)
}

// joinShowTicks is how long the facts line says how the right joined.
const joinShowTicks = 5 * wire.TicksPerSecond

// joinFacts leads the facts line for a few seconds after a join.
func (st *Strategy) joinFacts() string {
	now := 0
	if st.rcv.world != nil {
		now = st.rcv.frame()
	}
	j := &st.joined
	if j.frame < 0 || st.rcv.world == nil || now-j.frame > joinShowTicks {
		return ""
	}
	return fmt.Sprintf("joined from one %.1f kB block of the world (%.2f s at %d kbit/s) · ",
		float64(j.bytes)/1000, st.joinSeconds(), st.budgetKbps())
}

// joinEvent is the caption of a join, once.
func (st *Strategy) joinEvent() (strategy.Event, bool) {
	j := &st.joined
	if j.frame < 0 || j.told {
		return strategy.Event{}, false
	}
	j.told = true
	return strategy.Event{Kind: strategy.EventNote,
		Text: fmt.Sprintf("the right joined from one %.1f kB block of the left's world", float64(j.bytes)/1000)}, true
}

var _ strategy.Eventful = (*Strategy)(nil)

// Event implements strategy.Eventful: the join, once.
func (st *Strategy) Event() (strategy.Event, bool) { return st.joinEvent() }
