package predict

import (
	"math"

	"netcubes/cubes"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: the server (the left). It is authoritative for everything
// and steps once per tick, whatever arrives: a frame is never simulated
// twice, and an input that arrives after its frame was simulated is counted
// as late and dropped, never applied out of order (the article: "ignores
// any input received with a time value less than the current time"). When
// the input for the frame about to be simulated has not arrived, the server
// repeats the last input it used and counts the frame as missing: the
// client's prediction of that frame is then wrong, and a correction will
// say so.
//
// The article's server advances each client's character as its inputs
// arrive (Q&A: "each character object has its physics advanced ahead in
// time individually"); with one world that must step together (Glenn's
// answer about Havok-style simulations), the client runs ahead instead so
// that input n is there before frame n (client.go, the clock), and the
// server tells it how early its inputs arrive.
//
// After each step the server sends its state: state synchronization's
// packet, the player in every packet and the other cubes by the priority
// accumulator within the budget, with the inputs it stepped with.

// serverInputRing is how many frames of received inputs the server holds:
// the client is never more than a couple of seconds ahead (MaxEarly).
const serverInputRing = 256

// maxAhead bounds how far ahead of the server a client input may be, in
// frames; a packet beyond that is hostile or from another session.
const maxAhead = 2 * serverInputRing / 3

// lateInput marks a slot whose input arrived after its frame: a value no
// 6-bit input has.
const lateInput = 0xff

type server struct {
	have   [serverInputRing]int32 // frame stored in each slot (−1: none)
	inputs [serverInputRing]uint8
	newest int32 // newest client frame received (−1: none)
	last   cubes.Input

	// early[t % window] is the smallest earliness that arrived at tick t.
	early      []int32
	earlyFrame []int32
	earlyTick  []int

	lastSim int // the last frame simulated (−1: none)

	// The article's server (step 6, stream.go): the player's time (the
	// next of its frames to simulate, −1: not started), the clamp's
	// allowance (frames), the player's own world for the frames of a
	// burst, and the streams' board, shared by every client's instance.
	stream int
	allow  int
	own    *cubes.World
	board  *streamBoard

	prio     *replication.PriorityAccumulator
	quant    *quantCache // shared by every client's instance
	pkt      ServerPacket
	m        *wire.MeasureStream
	cand     replication.StateUpdate
	selected []int32
}

func (s *server) reset(st *Strategy, ctx strategy.Context) {
	n := ctx.Left().NumCubes()
	for k := range s.have {
		s.have[k] = -1
	}
	s.newest = -1
	s.last = cubes.Input{}
	if len(s.early) != st.cfg.EarlyWindow {
		s.early = make([]int32, st.cfg.EarlyWindow)
		s.earlyFrame = make([]int32, st.cfg.EarlyWindow)
		s.earlyTick = make([]int, st.cfg.EarlyWindow)
	}
	for k := range s.earlyTick {
		s.earlyTick[k] = -1
	}
	s.lastSim = ctx.Frame() - 1
	s.stream, s.allow = -1, st.cfg.ClampBurstTicks
	if p := ctx.Player(); p >= 0 && p < cubes.MaxPlayers {
		s.board.reset(p)
	}
	if ctx.Client() == 0 {
		s.board.reset(-1)
	}
	if s.prio == nil || s.prio.Len() != n {
		s.prio = replication.NewPriorityAccumulator(n)
		s.m = wire.NewMeasureStream()
	}
	s.prio.Reset()
}

// receive takes a client input packet that reached the server (before the
// server steps frame ctx.Frame()).
func (s *server) receive(st *Strategy, ctx strategy.Context, r *wire.ReadStream) error {
	var p InputPacket
	p.Players = int32(ctx.Players())
	if err := p.Serialize(r); err != nil {
		return err
	}
	if err := st.receiveAck(r); err != nil {
		return err
	}
	now := int32(ctx.Frame())
	streams := st.set.Mode.streams()
	ref := now
	if streams && s.stream >= 0 {
		ref = int32(s.stream) // the article's server: the player's own time
	}
	if p.Newest > ref+maxAhead {
		return errInputFrames
	}
	st.receiveTags(ctx, &p.Tags)
	ss := &st.stats
	for k := int32(0); k < p.Count; k++ {
		f := p.Frame(k)
		slot := f % serverInputRing
		if s.have[slot] == f {
			continue // a redundant copy
		}
		if xs := st.join.xs; xs != nil && int(f) < xs.Frame() {
			continue // before the frame of the world a joining client waits for: none of its own
		}
		if streams && (f < ref || s.stream < 0 && f < now-maxAhead) {
			continue // before the player's time: "if time < currentTime return"
		}
		if f < now && !streams {
			// Its frame is simulated already: dropped, and counted the
			// first time it shows up. The slot remembers it (as "late",
			// never used) only while no future frame can share the slot.
			ss.LateInputs++
			if f > now-(serverInputRing-maxAhead) {
				s.have[slot] = f
				s.inputs[slot] = lateInput
			}
			continue
		}
		s.have[slot] = f
		s.inputs[slot] = p.Inputs[k]
		ss.ReceivedInputs++
	}
	s.newest = max(s.newest, p.Newest)
	// How early did the newest input arrive? Frame now is the next to
	// simulate: an input for it arriving now is 0 ticks early.
	e := p.Newest - now
	t := ctx.Frame()
	k := t % len(s.early)
	if s.earlyTick[k] != t || e < s.early[k] {
		s.early[k], s.earlyFrame[k], s.earlyTick[k] = e, p.Newest, t
	}
	return nil
}

// input returns the input for frame f, the frame the server is about to
// simulate.
func (s *server) input(st *Strategy, f int) cubes.Input {
	ss := &st.stats
	s.stream, s.allow = -1, st.cfg.ClampBurstTicks // no time stream on the fixed tick
	if f <= s.lastSim {
		ss.SimulatedTwice++
	}
	s.lastSim = f
	slot := f % serverInputRing
	if s.have[slot] == int32(f) && s.inputs[slot] != lateInput {
		s.last = cubes.InputFromBits(s.inputs[slot])
		ss.OnTimeFrames++
	} else {
		ss.MissingFrames++
	}
	return s.last
}

// report is the smallest earliness over the window, the frame of the
// input that had it, and whether any packet arrived in the window.
func (s *server) report(now int) (int32, int32, bool) {
	best, frame, ok := int32(math.MaxInt32), int32(0), false
	for k, t := range s.earlyTick {
		if t >= 0 && now-t < len(s.early) && now >= t && s.early[k] < best {
			best, frame, ok = s.early[k], s.earlyFrame[k], true
		}
	}
	return max(-MaxEarly, min(MaxEarly, best)), frame, ok
}

// send broadcasts the state after the server's step.
func (s *server) send(st *Strategy, ctx strategy.Context) {
	left := ctx.Left()
	frame := ctx.Frame()
	cfg := &st.cfg
	p := &s.pkt
	p.Frame = int32(frame)
	if ctx.Players() > 1 {
		st.truth.record(frame, left)
		st.fillVerdicts(&p.Verdicts, frame)
	}
	p.HasAck = s.newest >= 0
	p.AckedInput = max(0, s.newest)
	p.Early, p.EarlyFrame, p.HasEarly = s.report(frame)
	pk := &p.State
	pk.NumCubes = int32(left.NumCubes())
	pk.Players = int32(ctx.Players())
	pk.Quantized, pk.Compressed, pk.Delta, pk.HasBaseAck, pk.Relative = false, true, false, false, false
	pk.History = nil
	for k := range pk.Inputs {
		pk.Inputs[k] = ctx.PlayerInput(0, frame-replication.Inputs+k).Bits()
	}
	for q := 1; q < ctx.Players(); q++ {
		for k := range pk.Others[q-1] {
			pk.Others[q-1][k] = ctx.PlayerInput(q, frame-replication.Inputs+k).Bits()
		}
	}
	pk.NumUpdates = 0
	for i := 0; i < left.NumCubes(); i++ {
		s.prio.Add(i, replication.BasePriority(left, i, cfg.PlayerPriority, cfg.InteractingPriority, cfg.RestingPriority))
	}
	hb, err := ctx.Measure(p)
	if err != nil {
		return
	}
	used := hb.Total()
	budget := replication.BudgetBytes(cfg.BandwidthKbps) * 8
	s.selected = s.selected[:0]
	// The player first, always: the client's corrections need it in every
	// packet, and it anchors positions sent relative to it.
	me := int32(left.PlayerCube(max(ctx.Player(), 0)))
	s.candidate(left, me)
	if bits, err := pk.MeasureUpdate(s.m, &s.cand); err == nil {
		used += bits
		pk.Updates[0] = s.cand
		pk.NumUpdates = 1
		pk.Relative = true
		s.selected = append(s.selected, me)
	}
	rank := s.prio.Rank()
	minBits := replication.MinUpdateBits(left.NumCubes())
	for i, more := rank.Next(); more; i, more = rank.Next() {
		if len(s.selected) >= cfg.MaxUpdates || budget-used < minBits {
			break // nothing further down can fit
		}
		if i == me {
			continue
		}
		s.candidate(left, i)
		bits, err := pk.MeasureUpdate(s.m, &s.cand)
		if err != nil || used+bits > budget {
			continue
		}
		used += bits
		s.selected = append(s.selected, i)
	}
	sortIndices(s.selected)
	for k, i := range s.selected {
		s.candidate(left, i)
		pk.Updates[k] = s.cand
	}
	pk.NumUpdates = int32(len(s.selected))
	if err := st.sendPacket(ctx, p); err != nil {
		return
	}
	for _, i := range s.selected {
		s.prio.Sent(int(i))
	}
	st.stats.LastUpdates = len(s.selected)
}

// candidate fills s.cand with cube i's quantized state.
func (s *server) candidate(left *cubes.World, i int32) {
	s.cand = replication.StateUpdate{Index: i, Interacting: left.Interacting(int(i)), State: *s.quant.state(left, int(i))}
}

// quantCache is the server's world quantized for the wire this tick, cube
// by cube as the clients' senders ask for them: every client's instance
// shares one (Clone), so a cube is quantized once a tick however many
// clients send it.
type quantCache struct {
	at []int // the frame each entry was quantized at, −1: never
	q  []replication.QuantizedCubeState
}

// prepare quantizes every cube of left at its frame (the parallel sends
// then only read).
func (c *quantCache) prepare(left *cubes.World) {
	for i := range left.NumCubes() {
		c.state(left, i)
	}
}

// state is cube i of left quantized at left's frame.
func (c *quantCache) state(left *cubes.World, i int) *replication.QuantizedCubeState {
	if len(c.at) != left.NumCubes() {
		c.at = make([]int, left.NumCubes())
		c.q = make([]replication.QuantizedCubeState, left.NumCubes())
		for k := range c.at {
			c.at[k] = -1
		}
	}
	if f := left.Frame(); c.at[i] != f {
		s := left.Cube(i)
		c.q[i] = replication.QuantizeState(s.Position, s.Orientation, s.LinearVelocity, s.AngularVelocity)
		c.at[i] = f
	}
	return &c.q[i]
}

// sortIndices sorts a few dozen indices in place (insertion sort: no
// allocation, and the list is short).
func sortIndices(a []int32) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
