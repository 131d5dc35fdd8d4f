package rollback

// Design note: the seam. The left is the world with every input known at
// once: the session steps it with every player's input at the tick it was
// made, which is what every machine converges to. Each client's right is
// one player's machine (client k plays player k; client 1's machine makes
// no input of its own, so with one player the right is the machine on the
// other end, predicting the presenter's keys). Inputs travel through the
// server, as lockstep's do, but the server never waits: each player's
// inputs go down as far as it holds them. Both sides start from a freshly
// built world when the strategy starts, as in lockstep (the state a
// rollback game starts from is a level both machines load).

import (
	"fmt"
	"math"

	"netcubes/cubes"
	"netcubes/strategy"
	"netcubes/transfer"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Strategy is rollback (GGPO's model): strategy 7.
type Strategy struct {
	cfg      Config
	step     int
	nudge    bool
	controls []strategy.Control

	// Left side.
	relay   *relay // every player's inputs at the server, shared with the clones
	start   int
	players int
	acked   [cubes.MaxPlayers]int // this client holds player p's inputs before this frame
	pkt     InputPacket
	lastOut int // inputs in the last packet sent

	// Right side.
	m         machine
	fresh     cubes.Saved
	shared    int // the left's start as its settings said (a right process), −1
	own       int // the player this machine makes inputs for, −1
	mine      [ring]uint8
	ownNext   int // first frame of ours the server lacks
	tuned     int // the input delay tuned from the RTT (step 4)
	thin      bool
	spectator bool
	ts        timeSync
	skipped   bool // this tick was skipped by the time sync
	started   bool // the first input arrived
	back      AckPacket
	backIn    AckPacket
	in        InputPacket

	// The state transfer (join.go). Left: the transfer to this client's
	// machine, none when it runs from the session's start. Right: the
	// world the machine follows, if any.
	xs       transfer.WorldOut
	xj       transfer.Joining
	restarts int // times the machine started over (tests)
}

// New returns rollback at step 2 of its build-up (rollback, no input
// delay); cfg's delay and window are then the step's. A config that does
// not validate is refused with a panic, as every strategy's New does: it is
// a programming error (DefaultConfig validates).
func New(cfg Config) *Strategy {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	st := &Strategy{cfg: cfg, shared: -1, relay: &relay{}, xj: transfer.NewJoining()}
	st.SetStep(1)
	st.controls = st.buildControls()
	return st
}

// ID implements strategy.Strategy.
func (st *Strategy) ID() string { return "rollback" }

// Name implements strategy.Strategy.
func (st *Strategy) Name() string { return "Rollback" }

// Family implements strategy.Strategy.
func (st *Strategy) Family() string { return "Rollback" }

// SetStep selects build-up step i (0-based, clamped) with its delay and
// window.
func (st *Strategy) SetStep(i int) {
	st.step = min(max(i, 0), len(Steps)-1)
	s := Steps[st.step]
	st.cfg.InputDelay, st.cfg.PredictionWindow = s.Delay, s.Window
}

// SetInputDelay sets the input delay (frames, clamped to 0-MaxInputDelay).
func (st *Strategy) SetInputDelay(d int) {
	st.cfg.InputDelay = min(max(d, 0), MaxInputDelay)
}

// SetWindow sets the prediction window (frames, clamped).
func (st *Strategy) SetWindow(w int) {
	st.cfg.PredictionWindow = min(max(w, 0), MaxPredictionWindow)
}

// setNudge switches the nudge on or off (the next start's first run of
// frame NudgeAfterFrames moves the player 1 nm).
func (st *Strategy) setNudge(on bool) { st.nudge = on }

// delay is the input delay in force.
func (st *Strategy) delay() int {
	if Steps[st.step].Tuned {
		return st.tuned
	}
	return st.cfg.InputDelay
}

// Mode implements strategy.Strategy.
func (st *Strategy) Mode() string {
	d := fmt.Sprintf("delay %d", st.delay())
	if Steps[st.step].SyncTest {
		d = fmt.Sprintf("%d frames again every frame · %s", st.cfg.SyncTestFrames, d)
	}
	if Steps[st.step].Tuned {
		d += " (tuned)"
	}
	s := fmt.Sprintf("step %d: %s · %s · window %d", st.step+1, Steps[st.step].Name, d, st.cfg.PredictionWindow)
	if st.nudge {
		s += " · nudge on"
	}
	return s
}

// Explain implements strategy.Strategy.
func (st *Strategy) Explain() string {
	switch {
	case Steps[st.step].SyncTest:
		return "Sync test: every frame, roll back 8 frames and simulate them again; the hashes must match (O: nudge the first run 1 nm)."
	case st.cfg.PredictionWindow == 0:
		return "Inputs only, no prediction: the right waits for every player's input, as lockstep does. The price: stall time."
	}
	return "Inputs only, nobody waits: the right predicts the inputs still on the way and rolls back when they differ. The price: resimulation."
}

// SubMode implements strategy.Strategy: the build-up. Each step starts
// both sides over (RestartsAfter), so its figures are its own.
func (st *Strategy) SubMode(dir int) string {
	n := len(Steps)
	st.SetStep(((st.step+dir)%n + n) % n)
	return fmt.Sprintf("step %d: %s · both sides start over", st.step+1, Steps[st.step].Name)
}

// RestartsAfter implements strategy.Restarter.
func (st *Strategy) RestartsAfter(int) bool { return true }

// Restart implements strategy.Restarter: as a switch to the strategy.
func (st *Strategy) Restart(ctx strategy.Context) { st.Reset(ctx) }

// Clone implements strategy.Strategy: one more client's machine, relaying
// through the same server.
func (st *Strategy) Clone() strategy.Strategy {
	c := New(st.cfg)
	c.step, c.cfg, c.nudge = st.step, st.cfg, st.nudge
	c.relay = st.relay
	return c
}

// ownPlayer is the player whose inputs this client's machine makes: any
// but player 1, who plays at the server, when its client sends inputs.
func ownPlayer(ctx strategy.Context) int {
	if p := ctx.Player(); p > 0 && p < ctx.InputClients() {
		return p
	}
	return -1
}

// Reset implements strategy.Strategy: both sides start over from a freshly
// built world at this frame (a right process: at the left's start).
func (st *Strategy) Reset(ctx strategy.Context) {
	if !st.fresh.Valid() || st.m.world == nil || st.m.world.NumCubes() != ctx.Left().NumCubes() {
		ctx.NewWorld().Save(&st.fresh)
		st.m.world = ctx.NewWorld()
	}
	start := ctx.Frame()
	if st.shared >= 0 {
		start = st.shared
	}
	left := ctx.EditLeft()
	if left.Restore(&st.fresh) == nil {
		left.SetFrame(ctx.Frame())
	}
	st.players = ctx.Players()
	st.relay.reset(start, st.players)
	st.own = ownPlayer(ctx)
	st.lastOut = 0
	st.xs.Stop()
	st.restartRight(start)
}

// restartRight starts the machine over at frame start.
func (st *Strategy) restartRight(start int) {
	st.restarts++
	st.start = start
	for p := range st.acked {
		st.acked[p] = start
	}
	st.ownNext = start
	st.started = false
	st.tuned = st.cfg.InputDelay
	st.ts.reset()
	st.m.reset(&st.fresh, start, st.players, st.own)
	st.xj.Reset()
}

var _ strategy.Releaser = (*Strategy)(nil)

// Release implements strategy.Releaser: the machine's world, its saves and
// the fresh world go; Reset builds them again.
func (st *Strategy) Release() {
	st.m.world = nil
	st.m.saves = [saveRing]cubes.Saved{}
	st.m.popBuf, st.m.popAfter = nil, nil
	st.fresh = cubes.Saved{}
	st.xs.Stop()
	st.xj.Reset()
}

// PrepareSend implements strategy.Preparer: the server's share of a tick,
// once for every client: the inputs that play at the server (player 1's,
// and those of players without a client of their own) into the relay, and
// the left world's hash.
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
	r.hash, r.preparedAt = uint32(ctx.Left().StateHash()), f
}

// Send implements strategy.Strategy: each player's inputs this client has
// not acked, as far as the server holds them, and the left's hash.
func (st *Strategy) Send(ctx strategy.Context) {
	r := st.relay
	f := ctx.Frame()
	if r.preparedAt != f {
		st.PrepareSend(ctx)
	}
	p := &st.pkt
	p.Players, p.Own = int32(st.players), int32(st.own)
	st.lastOut = 0
	for pl := range st.players {
		if pl == st.own {
			continue
		}
		from := max(st.acked[pl], st.start, r.next[pl]-ring+1)
		n := max(min(r.next[pl]-from, MaxSend), 0)
		lag := f - 1 - (from + n - 1)
		if n == 0 || lag > maxLag {
			n, lag = 0, 0
		}
		p.Lag[pl], p.Count[pl] = int32(lag), int32(n)
		for k := range n {
			p.Inputs[pl][k] = r.in[pl][(from+k)%ring]
		}
		st.lastOut += n
	}
	for pl := range st.players {
		p.Advantage[pl] = r.adv[pl]
	}
	if st.own >= 0 {
		p.OwnNext = uint32(r.next[st.own])
	}
	p.Hash = r.hash
	// The transfer starts over from this frame (Join) when it ran longer
	// than the inputs from its frame are held, or the right needs it again.
	p.Piece = st.xs.Piece(ctx, ring/2, func() { st.Join(ctx) })
	_, _ = ctx.Send(p)
}

// Acked implements strategy.Strategy (the inputs' acks come in ReceiveBack).
func (st *Strategy) Acked(strategy.Context, uint16) {}

var (
	errFrame = fmt.Errorf("rollback: packet from a frame the left has not reached")
	errAhead = fmt.Errorf("rollback: ack of an input the left has not sent")
)

// Receive implements strategy.Strategy: the inputs, each player's run in
// order, and the left's hash.
func (st *Strategy) Receive(ctx strategy.Context, seq uint16, s *wire.ReadStream) error {
	frame, ok := wire.FrameOf(seq, ctx.Frame())
	if !ok {
		return errFrame
	}
	p := &st.in
	p.Players, p.Own = int32(st.players), int32(st.own)
	if err := p.Serialize(s); err != nil {
		return err
	}
	if p.Piece != nil {
		// First: a new transfer starts the machine over at its frame,
		// and the inputs below are then held from there.
		if err := st.takePiece(frame, p.Piece); err != nil {
			return err
		}
	}
	for pl := range st.players {
		if pl == st.own {
			continue
		}
		first := frame - 1 - int(p.Lag[pl]) - int(p.Count[pl]) + 1
		for k := range int(p.Count[pl]) {
			st.m.take(pl, first+k, cubes.InputFromBits(p.Inputs[pl][k]))
		}
	}
	for pl := range st.players {
		st.ts.remote[pl] = p.Advantage[pl]
	}
	if st.own >= 0 && int64(p.OwnNext) <= int64(frame) && int(p.OwnNext) > st.ownNext {
		st.ownNext = int(p.OwnNext)
	}
	if frame >= st.start {
		st.m.leftHash(frame, p.Hash)
	}
	if !st.started && st.m.confirmed() > st.start {
		st.started = true
	}
	return nil
}

// Update implements strategy.Strategy: the machine's tick.
func (st *Strategy) Update(ctx strategy.Context) {
	st.thin, st.spectator = ctx.Thin(), ctx.Player() < 0
	t := ctx.Frame()
	if st.own >= 0 && t-1 >= st.start {
		// This tick's input of our own player is frame t−1's: the left
		// stepped it with the same.
		in := ctx.PresenterInput()
		st.mine[(t-1)%ring] = in.Bits()
		st.m.take(st.own, t-1, in)
	}
	if st.thin {
		return // a thin client holds inputs and acks them, and simulates nothing
	}
	if st.xj.Waiting() {
		st.m.count(StallWorld)
		return // the inputs are held; the world is on its way
	}
	st.tune(ctx)
	st.timeSync(ctx)
	pl := tickPlan{
		target:   t - st.delay() - st.ts.lag,
		window:   st.cfg.PredictionWindow,
		maxSteps: st.cfg.MaxStepsPerTick,
		nudgeAt:  -1,
	}
	if ctx.Player() < 0 {
		// A spectator: confirmed inputs only, a little later, never a
		// rollback.
		pl.target -= st.cfg.SpectatorDelay
		pl.window = 0
	}
	if Steps[st.step].SyncTest {
		pl.syncTest = st.cfg.SyncTestFrames
	}
	if st.nudge {
		pl.nudgeAt = st.start + st.cfg.NudgeAfterFrames
	}
	if !st.started && pl.window == 0 {
		st.m.count(StallStarted)
		return
	}
	st.m.update(pl)
}

// predicting reports whether this machine predicts (a spectator and the
// lockstep step wait for every input): only such a machine has a frame
// advantage to measure and takes part in the time sync.
func (st *Strategy) predicting() bool { return !st.spectator && st.cfg.PredictionWindow > 0 }

// timeSync measures the frame advantage and, with the time sync on,
// decides once a second and skips a tick now and then while the machine
// runs ahead.
func (st *Strategy) timeSync(ctx strategy.Context) {
	st.skipped = false
	if !st.predicting() {
		return
	}
	rtt, _ := ctx.RTT()
	st.ts.measure(&st.m, int(math.Round(rtt/(1000.0/wire.TicksPerSecond))))
	if !st.cfg.TimeSync {
		return
	}
	if (ctx.Frame()-st.start)%syncEvery == 0 {
		st.ts.decide(&st.m)
	}
	st.skipped = st.ts.skip(ctx.Frame())
}

// tune sets the tuned input delay from the round trip, once a second and
// by at most one frame: half the round trip hidden by the delay, the rest
// by rollbacks.
func (st *Strategy) tune(ctx strategy.Context) {
	if !Steps[st.step].Tuned || ctx.Frame()%wire.TicksPerSecond != 0 {
		return
	}
	rtt, ok := ctx.RTT()
	if !ok {
		return
	}
	want := min(max(int(math.Round(rtt/2/(1000.0/wire.TicksPerSecond))), 0), MaxInputDelay)
	switch {
	case want > st.tuned:
		st.tuned++
	case want < st.tuned:
		st.tuned--
	}
}

// SendBack implements strategy.TwoWay: per player, the first frame this
// machine lacks, and its own player's inputs the server does not hold.
func (st *Strategy) SendBack(ctx strategy.Context) {
	b := &st.back
	b.Players, b.Own = int32(st.players), int32(st.own)
	b.Transfer = st.xj.Ack()
	for pl := range st.players {
		b.Next[pl] = uint32(max(st.m.next[pl], 0))
	}
	if st.own >= 0 {
		f := ctx.Frame() - 1
		from := max(st.ownNext, st.start, f-ring+1)
		n := max(min(f-from+1, MaxSend), 0)
		b.OwnFirst, b.OwnCount = uint32(max(from, 0)), int32(n)
		b.Advantage = 0
		if st.predicting() && !st.thin {
			b.Advantage = st.ts.local(&st.m)
		}
		for k := range n {
			b.Inputs[k] = st.mine[(from+k)%ring]
		}
	}
	_, _ = ctx.SendBack(b)
}

// ReceiveBack implements strategy.TwoWay: what a client holds, and its
// player's inputs. A frame the left has not reached is refused.
func (st *Strategy) ReceiveBack(ctx strategy.Context, s *wire.ReadStream) error {
	a := &st.backIn
	a.Players, a.Own = int32(st.players), int32(st.own)
	if err := a.Serialize(s); err != nil {
		return err
	}
	now := int64(ctx.Frame())
	for pl := range st.players {
		if pl != st.own && int64(a.Next[pl]) > now {
			return errAhead
		}
	}
	if st.own >= 0 && int64(a.OwnFirst)+int64(a.OwnCount) > now {
		return errAhead
	}
	for pl := range st.players {
		// Taken as it is, even when lower: a right that started over needs
		// the inputs again; an old ack only makes the left resend a few.
		if pl != st.own && int(a.Next[pl]) >= st.start {
			st.acked[pl] = int(a.Next[pl])
		}
	}
	st.xs.Take(a.Transfer)
	// A machine that lacks inputs the relay no longer holds (it started
	// over long after its start) can only be given the world.
	for pl := range st.players {
		if pl != st.own && int(a.Next[pl]) < st.relay.next[pl]-ring+MaxSend && a.Transfer == nil {
			st.xs.Again()
		}
	}
	if st.own >= 0 {
		st.relay.adv[st.own] = a.Advantage
		for k := range int(a.OwnCount) {
			st.relay.put(st.own, int(a.OwnFirst)+k, a.Inputs[k])
		}
	}
	return nil
}

// View implements strategy.Strategy: the machine's world, once it has
// simulated a frame.
func (st *Strategy) View(v *viewmodel.View) (float64, bool) {
	w := st.m.world
	if w == nil || st.thin || w.Frame() <= st.start || st.xj.Waiting() {
		return 0, false
	}
	for i := 0; i < w.NumCubes(); i++ {
		c := w.Cube(i)
		v.Cubes = append(v.Cubes, viewmodel.CubeView{
			Position: c.Position, Orientation: c.Orientation, HalfExtent: w.HalfExtent(i),
			Interacting: c.Interacting, AtRest: w.AtRest(i),
		})
	}
	st.popMarks(v)
	return float64(w.Frame()), true
}

// popMarkTicks is how long a rollback's jumps stay outlined (ticks), and
// popMarkMetres the smallest jump outlined: the pop, visible in the pile.
const (
	popMarkTicks  = wire.TicksPerSecond / 2
	popMarkMetres = 0.02
)

// popMarks outlines, for half a second after a rollback, every cube it
// moved by more than 2 cm: where the machine showed it before, and where
// to (the renderer draws them with the ghost).
func (st *Strategy) popMarks(v *viewmodel.View) {
	m := &st.m
	if m.fig.Rollbacks == 0 || m.fig.tick-m.fig.popTick > popMarkTicks {
		return
	}
	w := m.world
	for i := range m.popBuf {
		if m.popAfter[i].Sub(m.popBuf[i]).Len() < popMarkMetres {
			continue
		}
		v.Marks = append(v.Marks, viewmodel.Mark{Kind: viewmodel.MarkReplay, Position: m.popBuf[i],
			Orientation: w.Cube(i).Orientation, HalfExtent: w.HalfExtent(i), To: m.popAfter[i]})
	}
}

// world is the machine's world (tests).
func (st *Strategy) world() *cubes.World { return st.m.world }

var _ strategy.IndependentRight = (*Strategy)(nil)

// IndependentRight implements strategy.IndependentRight: a client's machine
// (Receive, Update, SendBack) reads and writes its own instance only: its
// world, saves, input ring and time sync. What it shares with the other
// clients' instances is the relay, the server's store of inputs, which
// only the left side writes (PrepareSend, ReceiveBack, Reset); the
// machine reads its start once in a while (a state transfer's frame
// check), which nobody changes during the clients' turn. So the players'
// machines may run at once, as they do on their own computers.
func (st *Strategy) IndependentRight() bool { return true }
