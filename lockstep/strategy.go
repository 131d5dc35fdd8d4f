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
// later receives the left's world instead (join.go).

import (
	"fmt"
	"math"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/transfer"
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
	relay     *relay // every player's inputs at the server, shared with the clones
	start     int    // the frame the strategy started at
	acked     int    // the right holds every input before this frame
	pkt       InputPacket
	lastCount int // inputs in the last packet sent
	players   int // players in the world (at the last Reset)

	// Right side.
	world  *cubes.World
	fresh  cubes.Saved // a freshly built world: where both sides start
	shared int         // the left's start as its settings said (a right process), −1
	have   [ring]int32 // frame held at each slot, −1 for none
	inputs [ring]cubes.Inputs
	next   int // first frame whose input the right does not hold
	// stuck is the player (1-based) the server last said it waits for (0:
	// none); with several players, the one who holds everyone up.
	stuck int
	// This client's own player (not player 1): its inputs go up to the
	// server in the ack packets, every one the server does not hold yet.
	mine    [ring]uint8
	ownNext int // the first frame of ours the server lacks
	// firstAt is the tick the first input arrived (−1: none yet). The
	// playout clock runs from it: frame start+k may be simulated from tick
	// firstAt + delay + k on, so the delay absorbs the link's jitter
	// whatever its latency, and a stall makes the right fall behind that
	// schedule (frames waiting) until it catches up.
	firstAt    int
	own        [ring]hashAt
	remote     [ring]hashAt
	checked    int
	desync     int  // first frame whose hashes differed, −1
	desyncSaid bool // the desync was reported as an event (Event)
	perturbed  bool
	waiting    int // frames the right is behind its playout target
	stalled    [stallWindow]bool
	stallIdx   int
	stallRun   int // current stall, ticks
	longest    int // longest stall, ticks
	stallTicks int // stall ticks since the start
	stepped    int // frames simulated this tick
	back       AckPacket
	backIn     AckPacket
	in         InputPacket
	newestIn   int // the frame of the newest packet read

	// The state transfer (join.go). Left: the transfer to this client's
	// right, none when it runs from the session's start. Right: the world
	// it follows, if any.
	xs       transfer.WorldOut
	xj       transfer.Joining
	restarts int // times the right's world started over (tests, the bench)
}

// hashAt is a frame's state hash (low 32 bits).
type hashAt struct {
	frame int
	hash  uint32
}

// New returns lockstep in its first mode.
func New(cfg Config) *Strategy {
	if err := cfg.Validate(); err != nil {
		panic(err) // a programming error: see Config.Validate
	}
	st := &Strategy{cfg: cfg, shared: -1, desync: -1, relay: &relay{}, xj: transfer.NewJoining()}
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

// Mode implements strategy.Strategy. A desync is not a setting: the HUD
// draws it in red after the settings (Alarm).
func (st *Strategy) Mode() string {
	return fmt.Sprintf("mode %d: %s · delay %.0f ms", st.mode+1, st.modeName(), st.delayMs)
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
	if i < 0 || i >= len(Modes) {
		return // refused: the mode stays
	}
	st.mode = i
	st.delayMs = Modes[st.mode].DelayMs
	if st.hasLink {
		st.link = Modes[st.mode].Link // the session applies it (LinkChooser)
	}
}

// SetDelayMs sets the playout delay, 0..MaxDelayMs; a delay out of that
// range is ignored.
func (st *Strategy) SetDelayMs(ms float64) {
	if ms >= 0 && ms <= MaxDelayMs { // false for NaN
		st.delayMs = ms
	}
}

// MaxDelayMs is the longest playout delay offered.
const MaxDelayMs = 1000

// modeName is the mode's name, unless the link on the wire is not the one
// the mode chose: then the name would describe a link that is not there
// (the HUD's network column says what is). Not "changed by hand": the
// links may be the command line's (a per-client preset list), kept when
// lockstep was chosen.
func (st *Strategy) modeName() string {
	m := Modes[st.mode]
	if !st.hasLink || st.link == m.Link {
		return m.Name
	}
	if m.NonDeterministic {
		return "non-deterministic, on a link other than the mode's"
	}
	return "deterministic, on a link other than the mode's"
}

// seeLink notes the session's link (each tick, on either side).
func (st *Strategy) seeLink(ctx strategy.Context) { st.link, st.hasLink = ctx.Link(), true }

// ChosenLink implements strategy.LinkChooser: the mode's link conditions.
func (st *Strategy) ChosenLink() (link.Config, string, bool) {
	return Modes[st.mode].Link, "lockstep mode " + fmt.Sprint(st.mode+1), true
}

// SubMode implements strategy.Strategy: the eight modes. Each is a new
// experiment: the session restarts both sides from one world after the
// step (RestartsAfter), as a switch to lockstep does.
func (st *Strategy) SubMode(dir int) string {
	n := len(Modes)
	st.SetMode(((st.mode+dir)%n + n) % n)
	return fmt.Sprintf("mode %d: %s, %.0f ms playout delay · both sides start over", st.mode+1, Modes[st.mode].Name, st.delayMs)
}

// delayTicks is the playout delay in whole ticks.
func (st *Strategy) delayTicks() int {
	return int(math.Ceil(st.delayMs*wire.TicksPerSecond/1000 - 1e-9))
}

// Reset implements strategy.Strategy: both sides start over from a
// freshly built world at this frame (or, in a right process, at the frame
// the left started at, which its settings carry).
func (st *Strategy) Reset(ctx strategy.Context) {
	if !st.fresh.Valid() || st.world.NumCubes() != ctx.Left().NumCubes() {
		// Built once, and again when the players changed.
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
	st.players = ctx.Players()
	st.relay.reset(start, st.players)
	st.acked = start
	st.lastCount = 0
	st.xs.Stop()
	st.restartRight(start)
}

var _ strategy.Releaser = (*Strategy)(nil)

// Release implements strategy.Releaser: the right's world and the fresh
// world's save go; Reset builds them again.
func (st *Strategy) Release() {
	st.world = nil
	st.fresh = cubes.Saved{}
	st.xs.Stop()
	st.xj.Reset()
}

// restartRight puts the right's world at the fresh state at frame start and
// forgets every input and hash.
func (st *Strategy) restartRight(start int) {
	st.restarts++
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
	st.ownNext = start
	st.stuck = 0
	st.newestIn = -1
	st.firstAt = -1
	st.checked, st.desync, st.desyncSaid = 0, -1, false
	st.perturbed = false
	st.waiting, st.stallRun, st.longest, st.stallTicks, st.stepped = 0, 0, 0, 0, 0
	st.stalled = [stallWindow]bool{}
	st.stallIdx = 0
	st.xj.Reset()
	st.recordOwn()
}

// Send implements strategy.Strategy: every input the right lacks, up to
// the window, and the left's hash.
func (st *Strategy) Send(ctx strategy.Context) {
	st.seeLink(ctx)
	f := ctx.Frame()
	newest := f - 1
	r := st.relay
	if r.preparedAt != f {
		st.PrepareSend(ctx)
	}
	// Every frame the server holds every player's input for, the oldest
	// the right lacks first: the right cannot skip a frame, so when more
	// than the window is missing it gets the oldest, and Lag says how far
	// they end before the packet's frame.
	complete := r.next - 1
	from := max(st.acked, st.start, complete-ring+MaxWindow+1)
	n := max(min(complete-from+1, st.cfg.WindowFrames), 0)
	p := &st.pkt
	p.Players = int32(st.players)
	p.Lag = 0
	if n > 0 {
		p.Lag = int32(newest - (from + n - 1))
		if p.Lag > MaxLag {
			n, p.Lag = 0, 0 // stalled longer than the rings hold: nothing to relay
		}
	}
	p.Count = int32(n)
	for k := range n {
		p.Inputs[k] = r.in[0][(from+k)%ring]
		for pl := 1; pl < st.players; pl++ {
			p.Others[pl-1][k] = r.in[pl][(from+k)%ring]
		}
	}
	if st.players > 1 {
		p.Stuck = 0
		if complete < newest {
			p.Stuck = int32(r.stuck() + 1)
		}
		p.OwnNext = uint32(max(st.start, 0))
		if own := ctx.Player(); own > 0 {
			p.OwnNext = uint32(r.firstMissing(own))
		}
	}
	p.Hash = r.hash
	// The transfer starts over from this frame (Join) when it ran longer
	// than the inputs from its frame are held, or the right needs it again.
	p.Piece = st.xs.Piece(ctx, ring/2, func() { st.Join(ctx) })
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
	p.Players = int32(st.players)
	if err := p.Serialize(s); err != nil {
		return err
	}
	if p.Piece != nil {
		// First: a new transfer starts the right over at its frame,
		// and the inputs below are then held from there.
		if err := st.takePiece(frame, p.Piece); err != nil {
			return err
		}
	}
	newest := frame - 1 - int(p.Lag)
	first := newest - int(p.Count) + 1
	for k := range int(p.Count) {
		f := first + k
		if f < st.next || f >= st.next+ring {
			continue // held already, from before the start, or too far ahead to keep
		}
		st.have[f%ring] = int32(f)
		in := &st.inputs[f%ring]
		*in = cubes.Inputs{cubes.InputFromBits(p.Inputs[k])}
		for pl := 1; pl < st.players; pl++ {
			in[pl] = cubes.InputFromBits(p.Others[pl-1][k])
		}
	}
	if st.players > 1 && frame >= st.newestIn {
		st.newestIn = frame
		st.stuck = int(p.Stuck)
		if int64(p.OwnNext) <= int64(frame) && int(p.OwnNext) > st.ownNext {
			st.ownNext = int(p.OwnNext)
		}
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
	if ctx.Thin() {
		return // a thin client (the scale bench's) holds inputs and acks them, and simulates nothing
	}
	if st.firstAt < 0 || st.receiving() {
		st.waiting = 0
		return // nothing has arrived yet, or the world has not
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
		st.world.StepAll(&st.inputs[f%ring])
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

// SendBack implements strategy.TwoWay: the first frame the right lacks,
// and, for a client that owns a player other than player 1, that player's
// inputs the server does not hold yet.
func (st *Strategy) SendBack(ctx strategy.Context) {
	b := &st.back
	b.Next = uint32(st.next)
	b.Transfer = st.xj.Ack()
	b.Own = st.ownsPlayer(ctx)
	if b.Own {
		// The input this client's player made this tick is frame f's (the
		// server's world stepped f with it).
		f := ctx.Frame() - 1
		if f >= st.start {
			st.mine[f%ring] = ctx.PresenterInput().Bits()
		}
		from := max(st.ownNext, st.start, f-ring+1)
		n := max(min(f-from+1, st.cfg.WindowFrames), 0)
		b.OwnFirst, b.OwnCount = uint32(max(from, 0)), int32(n)
		for k := range n {
			b.Inputs[k] = st.mine[(from+k)%ring]
		}
	}
	_, _ = ctx.SendBack(b)
}

// ownsPlayer reports whether this client's player is one whose inputs go
// up to the server (any but player 1, who plays at the server).
func (st *Strategy) ownsPlayer(ctx strategy.Context) bool {
	return st.players > 1 && ctx.Player() > 0 && ctx.Player() < ctx.InputClients()
}

// ReceiveBack implements strategy.TwoWay: the left learns what the right
// holds. A frame the left has not reached is refused.
func (st *Strategy) ReceiveBack(ctx strategy.Context, s *wire.ReadStream) error {
	a := &st.backIn
	a.Own = st.ownsPlayer(ctx)
	if err := a.Serialize(s); err != nil {
		return err
	}
	if int64(a.Next) > int64(ctx.Frame()) || (a.Own && int64(a.OwnFirst)+int64(a.OwnCount) > int64(ctx.Frame())) {
		return errAhead
	}
	if a.Own {
		for k := range int(a.OwnCount) {
			st.relay.put(ctx.Player(), int(a.OwnFirst)+k, a.Inputs[k])
		}
	}
	// Taken as it is, even when lower: a right that started over (a right
	// process learning the left's start) needs the inputs again. An old
	// ack arriving late only makes the left resend a few inputs.
	if int(a.Next) >= st.start {
		st.acked = int(a.Next)
	}
	st.xs.Take(a.Transfer)
	// A right that lacks inputs the relay no longer holds (it started
	// over long after its start) can only be given the world.
	if oldest := st.relay.next - ring + MaxWindow; int(a.Next) < oldest && a.Transfer == nil {
		st.xs.Again()
	}
	return nil
}

var errAhead = fmt.Errorf("lockstep: ack of an input the left has not sent")

// View implements strategy.Strategy: the right world as it is, once it
// has simulated a frame of its own.
func (st *Strategy) View(v *viewmodel.View) (float64, bool) {
	w := st.world
	if w == nil || w.Frame() <= st.start || st.receiving() {
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
	Restarts       int // times the right's world started over
}

// Stats returns the right's figures.
func (st *Strategy) Stats() Stats {
	s := Stats{Checked: st.checked, Desync: st.desync, StallTicks: st.stallTicks, LongestStall: st.longest,
		Waiting: st.waiting, InputsInFlight: st.lastCount, Restarts: st.restarts}
	if st.world != nil {
		s.Frame = st.world.Frame()
	}
	return s
}

// World is the right's world (tests).
func (st *Strategy) World() *cubes.World { return st.world }

// Facts implements strategy.Facts.
func (st *Strategy) Facts() string {
	return fmt.Sprintf("%s · %s · %s/packet", st.syncLine(), st.waitLine(), viewmodel.Plural(st.lastCount, "input"))
}

// RightFacts implements strategy.RightFacts: what a right process knows.
func (st *Strategy) RightFacts() string {
	if st.receiving() {
		return st.xj.Line()
	}
	return st.syncLine() + " · " + st.waitLine()
}

func (st *Strategy) syncLine() string {
	if st.desync >= 0 {
		return fmt.Sprintf("DESYNC at frame %d (%d checked)", st.desync, st.checked)
	}
	return fmt.Sprintf("in sync, %d frames checked", st.checked)
}

func (st *Strategy) waitLine() string {
	// The stall time first: it is the lesson (a TCP-like link stalls, UDP
	// with redundant inputs does not), and the HUD wraps between parts.
	stalled := fmt.Sprintf("stalled %.1f s of the last 10", float64(st.StallTicks())/wire.TicksPerSecond)
	// The server cannot relay a frame until every player's input for it
	// is in: the slowest link holds everyone up.
	if p := st.WaitingFor(); p > 0 {
		return fmt.Sprintf("%s · waiting for player %d: %s", stalled, p, viewmodel.Plural(st.waiting, "frame"))
	}
	if st.stuck > 0 {
		return fmt.Sprintf("%s · player %d's input holds the server back", stalled, st.stuck)
	}
	return fmt.Sprintf("%s · waiting %s", stalled, viewmodel.Plural(st.waiting, "frame"))
}

// WaitingFor is the player (1-based) the server last said it waits for
// while this client waits (0: none, or not waiting).
func (st *Strategy) WaitingFor() int {
	if st.waiting > 0 {
		return st.stuck
	}
	return 0
}

// Clone implements strategy.Strategy: an instance for one more client,
// in the same mode, relaying through the same server.
func (st *Strategy) Clone() strategy.Strategy {
	c := New(st.cfg)
	c.SetMode(st.mode)
	c.delayMs = st.delayMs
	c.relay = st.relay
	return c
}

// relay is the server's store of every player's inputs: player 1's from
// the server's own input, the others' as their clients send them up. A
// frame can be relayed to the clients once every player's input for it is
// in (next counts them). One relay serves every client's instance.
type relay struct {
	start   int
	players int
	next    int // first frame some player's input is missing for
	// The left world's hash at frame preparedAt: hashing 901 cubes is the
	// server's work once a tick, not once per client.
	hash       uint32
	preparedAt int // the frame PrepareSend last ran at (−1: never)
	have       [cubes.MaxPlayers][ring]int32
	in         [cubes.MaxPlayers][ring]uint8
}

func (r *relay) reset(start, players int) {
	r.start, r.players, r.next = start, players, start
	r.preparedAt = -1
	for p := range r.have {
		for k := range r.have[p] {
			r.have[p][k] = -1
		}
	}
}

// put stores player p's input of frame f, if the ring can hold it.
func (r *relay) put(p, f int, bits uint8) {
	if p < 0 || p >= r.players || f < r.next || f >= r.next+ring {
		return
	}
	r.have[p][f%ring] = int32(f)
	r.in[p][f%ring] = bits
}

// holds reports whether player p's input of frame f is in.
func (r *relay) holds(p, f int) bool { return r.have[p][f%ring] == int32(f) }

// advance moves next past every frame complete for every player.
func (r *relay) advance() {
	for {
		for p := range r.players {
			if !r.holds(p, r.next) {
				return
			}
		}
		r.next++
	}
}

// stuck is the first player (0-based) whose input of frame next is missing.
func (r *relay) stuck() int {
	for p := range r.players {
		if !r.holds(p, r.next) {
			return p
		}
	}
	return 0
}

// firstMissing is the first frame from next on whose input of player p
// is not in: what the server asks that player's client for.
func (r *relay) firstMissing(p int) int {
	f := r.next
	for f < r.next+ring && r.holds(p, f) {
		f++
	}
	return f
}

// PrepareSend implements strategy.Preparer: the server's share of a tick,
// once for every client's instance: the inputs that play at the server
// put in the relay (player 1's, and any player's without a client of its
// own; the others' come up from their clients, ReceiveBack), the relay
// advanced, the left world hashed.
func (st *Strategy) PrepareSend(ctx strategy.Context) {
	r := st.relay
	f := ctx.Frame()
	if r.preparedAt == f {
		return
	}
	if newest := f - 1; newest >= r.start {
		r.put(0, newest, ctx.PlayerInput(0, newest).Bits())
		for pl := max(ctx.InputClients(), 1); pl < st.players; pl++ {
			r.put(pl, newest, ctx.PlayerInput(pl, newest).Bits())
		}
	}
	r.advance()
	r.hash, r.preparedAt = uint32(ctx.Left().StateHash()), f
}

var _ strategy.IndependentRight = (*Strategy)(nil)

// IndependentRight implements strategy.IndependentRight: a client's right
// (Receive, Update, SendBack) steps its own world with the inputs it
// holds and keeps its own hashes and stall figures. The relay it shares
// with the other clients' instances is the server's, written only on the
// left (its sends and ReceiveBack); the right reads its start (a state
// transfer's frame check), which nobody changes during the clients' turn.
func (st *Strategy) IndependentRight() bool { return true }
