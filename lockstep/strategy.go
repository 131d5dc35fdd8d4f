package lockstep

// Design note: deterministic lockstep, the strategy the state
// synchronization article defines itself against. Both sides run the same
// deterministic simulation from the same state; only inputs cross the
// link. The right simulates frame n only when it holds input n, a playout
// delay behind the left (so inputs usually arrive in time), catching up at
// most MaxCatchUp frames a tick after a stall and never running ahead of
// the inputs it has. When an input is missing the right waits: the stall
// is the lesson (on a TCP-like link one loss holds back everything behind
// it; on UDP the inputs every packet repeats keep it going). Because the
// solver is bit-exact, the right is the left, bit for bit, with no state
// ever sent: the HUD's error is exactly zero and both sides' StateHash
// agree every frame. The non-deterministic mode moves the right's player
// by one nanometre along x, once (PerturbMetres), and the audience watches
// the hash break at once and the worlds part a few seconds later.
//
// The starting state: lockstep games start from a level both sides load,
// and so does this one. When the strategy starts (frame S), both worlds
// become a freshly built world at frame S: the left visibly starts over
// from the grid. Nothing else is the same on both sides of a real network,
// and a copy of the left's running world would have to cross the link
// first (900 cubes' exact state and every contact's warm start). In the
// two-process mode the right learns S from the left's settings
// (SerializeSettings) and starts there; a right that joins a running left
// makes the left start over (the session resets the strategy for a new
// connection).

import (
	"fmt"
	"math"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// ring is the size of the input and hash rings, by frame (power of two,
// larger than the window and than any delay the link can add).
const ring = 1024

// stallWindow is the span of the "stalled in the last 10 s" figure, ticks.
const stallWindow = 10 * wire.TicksPerSecond

// Strategy is deterministic lockstep (strategy 4).
type Strategy struct {
	cfg      Config
	mode     int
	delayMs  float64
	controls []strategy.Control
	// link is the session's link as of the last tick: when the presenter
	// changes it by hand after choosing a mode, the mode's name (which
	// describes the link it chose) no longer says what is on the wire.
	link    link.Config
	hasLink bool

	// Left side.
	leftInputs [ring]uint8 // input of frame f at f%ring
	start      int         // the frame the strategy started at
	acked      int         // the right holds every input before this frame
	pkt        InputPacket
	lastCount  int // inputs in the last packet sent

	// Right side.
	world  *cubes.World
	fresh  cubes.Saved // a freshly built world: where both sides start
	shared int         // the left's start as its settings said (a right process), −1
	have   [ring]int32 // frame held at each slot, −1 for none
	inputs [ring]uint8
	next   int // first frame whose input the right does not hold
	// firstAt is the tick the first input arrived (−1: none yet). The
	// playout clock runs from it: frame start+k may be simulated from tick
	// firstAt + delay + k on, so the delay absorbs the link's jitter
	// whatever its latency, and a stall makes the right fall behind that
	// schedule (frames waiting) until it catches up.
	firstAt    int
	own        [ring]hashAt
	remote     [ring]hashAt
	checked    int
	desync     int // first frame whose hashes differed, −1
	perturbed  bool
	waiting    int // frames the right is behind its playout target
	stalled    [stallWindow]bool
	stallIdx   int
	stallRun   int // current stall, ticks
	longest    int // longest stall, ticks
	stallTicks int // stall ticks since the start
	stepped    int // frames simulated this tick
	back       AckPacket
	in         InputPacket
}

// hashAt is a frame's state hash (low 32 bits).
type hashAt struct {
	frame int
	hash  uint32
}

// New returns lockstep in its first mode.
func New(cfg Config) *Strategy {
	if cfg.WindowFrames < 1 || cfg.WindowFrames > MaxWindow {
		cfg.WindowFrames = MaxWindow
	}
	cfg.MaxCatchUp = max(cfg.MaxCatchUp, 1)
	st := &Strategy{cfg: cfg, shared: -1, desync: -1}
	st.SetMode(0)
	st.controls = st.buildControls()
	return st
}

// ID implements strategy.Strategy.
func (st *Strategy) ID() string { return "lockstep" }

// Name implements strategy.Strategy.
func (st *Strategy) Name() string { return "Deterministic lockstep" }

// Family implements strategy.Strategy.
func (st *Strategy) Family() string { return "Lockstep" }

// Mode implements strategy.Strategy.
func (st *Strategy) Mode() string {
	s := fmt.Sprintf("mode %d: %s · delay %.0f ms", st.mode+1, st.modeName(), st.delayMs)
	if st.desync >= 0 {
		s += fmt.Sprintf(" · DESYNC at frame %d", st.desync)
	}
	return s
}

// Explain implements strategy.Strategy.
func (st *Strategy) Explain() string {
	if Modes[st.mode].NonDeterministic {
		return "Inputs only; 1 s in, the right's player is moved by one nanometre: watch the hash break at once, then the worlds part."
	}
	return "Inputs only, no state: the right runs the same bit-exact simulation and waits for every input; the error is exactly 0."
}

// SetMode selects mode i (0-based, clamped), with its playout delay.
func (st *Strategy) SetMode(i int) {
	st.mode = min(max(i, 0), len(Modes)-1)
	st.delayMs = Modes[st.mode].DelayMs
	if st.hasLink {
		st.link = Modes[st.mode].Link // the session applies it (LinkChooser)
	}
}

// ModeIndex is the current mode, 0-based.
func (st *Strategy) ModeIndex() int { return st.mode }

// SetDelayMs sets the playout delay (0-1000 ms).
func (st *Strategy) SetDelayMs(ms float64) {
	if math.IsNaN(ms) {
		return
	}
	st.delayMs = min(max(ms, 0), 1000)
}

// DelayMs is the playout delay.
func (st *Strategy) DelayMs() float64 { return st.delayMs }

// modeName is the mode's name, unless the presenter has since changed the
// link the mode chose: then the name would describe a link that is no
// longer on the wire (the HUD's network column says what is).
func (st *Strategy) modeName() string {
	m := Modes[st.mode]
	if !st.hasLink || st.link == m.Link {
		return m.Name
	}
	if m.NonDeterministic {
		return "non-deterministic, link changed by hand"
	}
	return "deterministic, link changed by hand"
}

// seeLink notes the session's link (each tick, on either side).
func (st *Strategy) seeLink(ctx strategy.Context) { st.link, st.hasLink = ctx.Link(), true }

// ChosenLink implements strategy.LinkChooser: the mode's link conditions.
func (st *Strategy) ChosenLink() (link.Config, string) {
	return Modes[st.mode].Link, "lockstep mode " + fmt.Sprint(st.mode+1)
}

// SubMode implements strategy.Strategy: the seven modes.
func (st *Strategy) SubMode(dir int) string {
	n := len(Modes)
	st.SetMode(((st.mode+dir)%n + n) % n)
	return fmt.Sprintf("mode %d: %s, %.0f ms playout delay", st.mode+1, Modes[st.mode].Name, st.delayMs)
}

// delayTicks is the playout delay in whole ticks.
func (st *Strategy) delayTicks() int {
	return int(math.Ceil(st.delayMs*wire.TicksPerSecond/1000 - 1e-9))
}

// Reset implements strategy.Strategy: both sides start over from a
// freshly built world at this frame (or, in a right process, at the frame
// the left started at, which its settings carry).
func (st *Strategy) Reset(ctx strategy.Context) {
	if !st.fresh.Valid() {
		ctx.NewWorld().Save(&st.fresh)
		st.world = ctx.NewWorld()
	}
	start := ctx.Frame()
	if st.shared >= 0 {
		start = st.shared
	}
	left := ctx.EditLeft()
	if left.Restore(&st.fresh) == nil {
		left.SetFrame(ctx.Frame()) // the left's clock is the session's
	}
	st.acked = start
	st.lastCount = 0
	st.restartRight(start)
}

var _ strategy.Releaser = (*Strategy)(nil)

// Release implements strategy.Releaser: the right's world and the fresh
// world's save go; Reset builds them again.
func (st *Strategy) Release() {
	st.world = nil
	st.fresh = cubes.Saved{}
}

// restartRight puts the right's world at the fresh state at frame start and
// forgets every input and hash.
func (st *Strategy) restartRight(start int) {
	st.start = start
	if st.world.Restore(&st.fresh) == nil {
		st.world.SetFrame(start)
	}
	for k := range st.have {
		st.have[k] = -1
		st.own[k] = hashAt{frame: -1}
		st.remote[k] = hashAt{frame: -1}
	}
	st.next = start
	st.firstAt = -1
	st.checked, st.desync = 0, -1
	st.perturbed = false
	st.waiting, st.stallRun, st.longest, st.stallTicks, st.stepped = 0, 0, 0, 0, 0
	st.stalled = [stallWindow]bool{}
	st.stallIdx = 0
	st.recordOwn()
}

// Send implements strategy.Strategy: every input the right lacks, up to
// the window, and the left's hash.
func (st *Strategy) Send(ctx strategy.Context) {
	st.seeLink(ctx)
	f := ctx.Frame()
	newest := f - 1
	if newest >= st.start {
		st.leftInputs[newest%ring] = ctx.Input(newest).Bits()
	}
	from := max(st.acked, st.start, newest-ring+MaxWindow+1)
	n := max(min(newest-from+1, st.cfg.WindowFrames), 0)
	// Oldest unacked first: the right cannot skip a frame, so when more
	// than the window is missing it gets the oldest, and Lag says how far
	// they end before the packet's frame.
	p := &st.pkt
	p.Count = int32(n)
	p.Lag = 0
	if n > 0 {
		p.Lag = int32(newest - (from + n - 1))
	}
	for k := range n {
		p.Inputs[k] = st.leftInputs[(from+k)%ring]
	}
	p.Hash = uint32(ctx.Left().StateHash())
	st.lastCount = int(p.Count)
	_, _ = ctx.Send(p)
}

// Acked implements strategy.Strategy (lockstep's acks of inputs come in
// its own payload, ReceiveBack).
func (st *Strategy) Acked(strategy.Context, uint16) {}

// Receive implements strategy.Strategy: store the inputs and the hash.
func (st *Strategy) Receive(ctx strategy.Context, seq uint16, s *wire.ReadStream) error {
	// The frame bounds everything below: one the left has not reached is
	// refused; inputs from before the strategy started (or already held)
	// are skipped.
	frame, ok := wire.FrameOf(seq, ctx.Frame())
	if !ok {
		return errFrame
	}
	p := &st.in
	if err := p.Serialize(s); err != nil {
		return err
	}
	newest := frame - 1 - int(p.Lag)
	first := newest - int(p.Count) + 1
	for k := range int(p.Count) {
		f := first + k
		if f < st.next || f >= st.next+ring {
			continue // held already, from before the start, or too far ahead to keep
		}
		st.have[f%ring] = int32(f)
		st.inputs[f%ring] = p.Inputs[k]
	}
	for st.have[st.next%ring] == int32(st.next) {
		st.next++
	}
	if st.firstAt < 0 && st.next > st.start {
		st.firstAt = ctx.Frame()
	}
	if frame >= st.start {
		st.compare(frame, p.Hash, true)
	}
	return nil
}

var errFrame = fmt.Errorf("lockstep: packet from a frame the left has not reached")

// compare records a hash for frame f (remote: the left's) and compares it
// with the other side's when both are known.
func (st *Strategy) compare(f int, h uint32, remote bool) {
	mine, theirs := &st.own, &st.remote
	if remote {
		mine, theirs = &st.remote, &st.own
	}
	mine[f%ring] = hashAt{frame: f, hash: h}
	if o := theirs[f%ring]; o.frame == f {
		st.checked++
		if o.hash != h && (st.desync < 0 || f < st.desync) {
			st.desync = f
		}
	}
}

// recordOwn hashes the right world at its frame.
func (st *Strategy) recordOwn() {
	st.compare(st.world.Frame(), uint32(st.world.StateHash()), false)
}

// Update implements strategy.Strategy: simulate the frames whose inputs
// are held, up to the playout target, at most MaxCatchUp.
func (st *Strategy) Update(ctx strategy.Context) {
	st.seeLink(ctx)
	st.stepped = 0
	if st.firstAt < 0 {
		st.waiting = 0
		return // nothing has arrived yet
	}
	target := st.start + 1 + ctx.Frame() - st.firstAt - st.delayTicks()
	stalled := false
	for st.world.Frame() < target && st.stepped < st.cfg.MaxCatchUp {
		f := st.world.Frame()
		if f >= st.next {
			stalled = true
			break
		}
		if Modes[st.mode].NonDeterministic && !st.perturbed && f >= st.start+st.cfg.PerturbAfterFrames {
			st.perturb()
		}
		st.world.Step(cubes.InputFromBits(st.inputs[f%ring]))
		st.stepped++
		st.recordOwn()
	}
	st.waiting = max(target-st.world.Frame(), 0)
	st.stalled[st.stallIdx] = stalled
	st.stallIdx = (st.stallIdx + 1) % stallWindow
	if stalled {
		st.stallRun++
		st.stallTicks++
		st.longest = max(st.longest, st.stallRun)
	} else {
		st.stallRun = 0
	}
}

// PerturbMetres is how far the non-deterministic mode moves the right's
// player along x, once: one nanometre. (One unit in the last place, the
// smallest difference there is, does not survive: the next step's
// position update rounds it away. A nanometre is the smallest round
// figure that does, and it is still a millionth of a millimetre.)
const PerturbMetres = 1e-9

// perturb moves the right's player by PerturbMetres along x.
func (st *Strategy) perturb() {
	st.perturbed = true
	c := st.world.Cube(cubes.Player)
	c.Position[0] += PerturbMetres
	_ = st.world.SetCube(cubes.Player, c)
}

// SendBack implements strategy.TwoWay: the first frame the right lacks.
func (st *Strategy) SendBack(ctx strategy.Context) {
	st.back.Next = uint32(st.next)
	_, _ = ctx.SendBack(&st.back)
}

// ReceiveBack implements strategy.TwoWay: the left learns what the right
// holds. A frame the left has not reached is refused.
func (st *Strategy) ReceiveBack(ctx strategy.Context, s *wire.ReadStream) error {
	var a AckPacket
	if err := a.Serialize(s); err != nil {
		return err
	}
	if int64(a.Next) > int64(ctx.Frame()) {
		return errAhead
	}
	// Taken as it is, even when lower: a right that started over (a right
	// process learning the left's start) needs the inputs again. An old
	// ack arriving late only makes the left resend a few inputs.
	if int(a.Next) >= st.start {
		st.acked = int(a.Next)
	}
	return nil
}

var errAhead = fmt.Errorf("lockstep: ack of an input the left has not sent")

// View implements strategy.Strategy: the right world as it is, once it
// has simulated a frame of its own.
func (st *Strategy) View(v *viewmodel.View) (float64, bool) {
	w := st.world
	if w == nil || w.Frame() <= st.start {
		return 0, false
	}
	v.Player = cubes.Player
	for i := 0; i < w.NumCubes(); i++ {
		c := w.Cube(i)
		v.Cubes = append(v.Cubes, viewmodel.CubeView{
			Position: c.Position, Orientation: c.Orientation, HalfExtent: w.HalfExtent(i),
			Player: i == cubes.Player, Interacting: c.Interacting, AtRest: w.AtRest(i),
		})
	}
	return float64(w.Frame()), true
}

// StallTicks is how many of the last 10 s of ticks the right waited for
// an input.
func (st *Strategy) StallTicks() int {
	n := 0
	for _, s := range st.stalled {
		if s {
			n++
		}
	}
	return n
}

// Stats are the right's figures for tests and the bench.
type Stats struct {
	Checked        int // frames whose hashes both sides compared
	Desync         int // first frame whose hashes differed, −1
	StallTicks     int // ticks the right waited for an input, since the start
	LongestStall   int // ticks
	Waiting        int // frames behind the playout target now
	Frame          int // the right world's frame
	InputsInFlight int // inputs in the last packet
}

// Stats returns the right's figures.
func (st *Strategy) Stats() Stats {
	s := Stats{Checked: st.checked, Desync: st.desync, StallTicks: st.stallTicks, LongestStall: st.longest,
		Waiting: st.waiting, InputsInFlight: st.lastCount}
	if st.world != nil {
		s.Frame = st.world.Frame()
	}
	return s
}

// World is the right's world (tests).
func (st *Strategy) World() *cubes.World { return st.world }

// Facts implements strategy.Facts.
func (st *Strategy) Facts() string {
	return fmt.Sprintf("%s · %d inputs/packet · %s", st.syncLine(), st.lastCount, st.waitLine())
}

// RightFacts implements strategy.RightFacts: what a right process knows.
func (st *Strategy) RightFacts() string { return st.syncLine() + " · " + st.waitLine() }

func (st *Strategy) syncLine() string {
	if st.desync >= 0 {
		return fmt.Sprintf("DESYNC at frame %d (%d checked)", st.desync, st.checked)
	}
	return fmt.Sprintf("in sync, %d frames checked", st.checked)
}

func (st *Strategy) waitLine() string {
	return fmt.Sprintf("waiting %s · stalled %.1f s of the last 10", viewmodel.Plural(st.waiting, "frame"),
		float64(st.StallTicks())/wire.TicksPerSecond)
}
