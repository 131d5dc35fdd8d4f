package predict

import (
	"errors"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/geom"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: the client (the right), which owns the player.
//
// Its clock. The client stamps each input with its own frame number ct and
// runs ahead of the server by about half a round trip plus a jitter margin,
// so that input n reaches the server before the server steps frame n. It
// learns how early its inputs arrive from the server's reports and adjusts
// its tick rate by taking 2 steps (or none) in one tick out of AdjustEvery
// (Glenn's "1,1,1,1,1,2" in the article's Q&A), at most ±25 %. A report is
// about an input sent a round trip ago, so the client adds the adjustments
// it made since that input before comparing: without that the clock would
// keep correcting for a lead it has already fixed, and overshoot.
//
// Its world. In the prediction modes the local world is at frame ct: each
// tick the client saves it (cubes.World.Save, the whole world, bit exact;
// only the last round trip's saves are kept, see keepSaves),
// steps it with the presenter's input at once (no lag), and records the
// move {frame, input, player state after}. When the server's state for
// frame f arrives, the client compares the server's player with the move's
// state at f; beyond the threshold it restores the world saved at f, snaps
// the player (and the cubes in that packet) to the server, and replays the
// stored moves f .. ct−1: the result is the corrected present. Cubes the
// server sent without a correction are snapped at the present, though they
// describe frame f: those cubes are in the past. When the client replays,
// it does not snap them at the present: its world is the server's physics
// on the server's inputs, so the cubes follow by themselves, and a
// correction sets the packet's cubes at their frame before the replay (so
// a replay from a saved world reproduces the present bit for bit). With
// the player-only scope the cubes come from the server, in the past: the
// article's limit once the player pushes them (sub-mode 5).
//
// With the player-only scope the prediction runs in a world of its own
// holding just the player on the ground plane (the one grid cube that
// cubes.Config requires is parked far away), so a replay costs a few
// microseconds; the other cubes are drawn from a mirror of the server,
// snapped to every update and stepped with the server's inputs, as in
// sub-mode 1.
//
// Nothing here reads the wall clock except the replay-cost figure for the
// HUD, which is measured, never fed back into the simulation.

// errNotCompressed: the server sends quantized states only.
var errNotCompressed = errors.New("predict: server packet not compressed")

// parkedCube is where the player-only world keeps its one grid cube: far
// outside anything the player reaches, asleep.
var parkedCube = mgl64.Vec3{300, 300, 0.2}

// move is one predicted frame.
type move struct {
	frame int // −1: empty
	in    cubes.Input
	after cubes.CubeState // the player after stepping frame → frame+1
}

// ring is the client's history of one predicting world: the moves of the
// last MoveRing frames, and a saved world for the newest depth of them
// only, the frames a correction can still rewind to (see keepSaves).
type ring struct {
	moves []move         // moves[f % n]
	saves []*cubes.Saved // saves[f % n]: the world at frame savedAt[f % n], before its step; nil: none
	// savedAt[k] is the frame saves[k] holds (−1: none).
	savedAt []int
	// depth is how many of the newest frames keep a save.
	depth int
	// spare holds saves that left the window when the depth shrank, for
	// when it grows again (a round trip that changes, an exact client's
	// margin): at most maxSpareSaves, the rest go to the collector.
	spare []*cubes.Saved
}

// maxSpareSaves bounds the ring's spare saves: enough for the depth's
// small steps back and forth (a few ticks of margin) without holding the
// memory of a long-gone deep window (0.3-0.7 MB a save).
const maxSpareSaves = 8

func (r *ring) reset(n int) {
	if len(r.moves) != n {
		r.moves = make([]move, n)
		r.saves = make([]*cubes.Saved, n)
		r.savedAt = make([]int, n)
		r.spare = make([]*cubes.Saved, 0, maxSpareSaves)
	}
	for k := range r.moves {
		r.moves[k].frame = -1
		r.saves[k], r.savedAt[k] = nil, -1 // a ring starting over holds no save
	}
	clear(r.spare)
	r.spare = r.spare[:0]
	r.depth = n
}

// at returns the move of frame f, or nil.
func (r *ring) at(f int) *move {
	if f < 0 || len(r.moves) == 0 {
		return nil
	}
	m := &r.moves[f%len(r.moves)]
	if m.frame != f {
		return nil
	}
	return m
}

// saved returns the world saved at frame f, or nil.
func (r *ring) saved(f int) *cubes.Saved {
	if f < 0 || len(r.saves) == 0 {
		return nil
	}
	k := f % len(r.saves)
	if r.savedAt[k] != f {
		return nil
	}
	return r.saves[k]
}

// save saves w as the world at frame f. The saves of the frames that left
// the window of the newest depth frames go: one is reused for f (in the
// steady state exactly one leaves as f enters, so nothing is allocated),
// the others wait as spares (when the depth shrinks).
func (r *ring) save(w *cubes.World, f int) {
	k := f % len(r.saves)
	s := r.saves[k]
	r.saves[k], r.savedAt[k] = nil, -1
	for j, t := range r.saves {
		if t != nil && r.savedAt[j] <= f-r.depth {
			if s == nil {
				s = t
			} else if len(r.spare) < maxSpareSaves {
				r.spare = append(r.spare, t)
			}
			r.saves[j], r.savedAt[j] = nil, -1
		}
	}
	if s == nil && len(r.spare) > 0 {
		s, r.spare = r.spare[len(r.spare)-1], r.spare[:len(r.spare)-1]
	}
	if s == nil {
		s = new(cubes.Saved)
	}
	w.Save(s)
	r.saves[k], r.savedAt[k] = s, f
}

// held counts the saved worlds the ring holds and their bytes, its
// spares' bytes included.
func (r *ring) held() (n, bytes int) {
	for _, s := range r.saves {
		if s != nil {
			n++
			bytes += s.Bytes()
		}
	}
	for _, s := range r.spare {
		bytes += s.Bytes()
	}
	return n, bytes
}

type client struct {
	w     *cubes.World // the local world: predicted, or the server's mirror
	pw    *cubes.World // the player-only prediction world
	wr    ring         // w's history (predicting the whole world)
	pr    ring         // pw's history
	rw    *radiusWorld // the radius scope's world (radius.go), built when first used
	rr    ring         // rw's history
	n     int
	world bool // w predicts (else w mirrors the server)
	// radius: rw predicts the player and the cubes near it.
	radius bool
	pred   bool // something predicts (w or pw)
	set    Settings
	// configured: the worlds follow set (configure ran since the reset).
	configured bool

	ct     int // the next frame the client stamps
	tick   int
	cumAdj int   // extra steps taken minus steps skipped, since reset
	adjAt  []int // cumAdj when frame f was stamped, [f % ring]
	est    int   // estimated earliness of inputs now, ticks
	hasEst bool

	inBits []uint8 // inputs by frame, [f % ring]
	acked  int     // newest input frame the server holds (−1)

	// The lag of the server's states as they arrive (the client's frame
	// minus the state's): the largest of each of the last lagPeriods
	// periods of lagPeriod ticks, lags[lagAt] the current one (−1: none).
	// keepSaves sizes the rings' saves from them.
	lags  [lagPeriods]int
	lagAt int

	lastServer int // newest server frame received (−1)
	// confirmed is the newest frame of the client's time the server has
	// sent its player at (the server's frame but for the article's server).
	confirmed int
	// adopted is the frame of the newest server state the predicting world
	// took (a replay or a snap): its later frames were stepped from it,
	// with the client's own inputs (−1: none yet).
	adopted int
	// shared: the local world is still the world both sides built at
	// frame 0, stepped only with the server's inputs (see catchUp).
	shared bool
	// exact: the predicting world descends bit for bit from the server's
	// (the world both built at frame 0, or the server's own at a join),
	// stepped since the frame adopted with inputs the server also used or
	// that a correction can still rewind (exactReplay). No quantized state
	// was written into it.
	exact bool
	// matched is the newest frame f of a server state whose inputs
	// matched the client's for every frame before f since the frame
	// adopted (−1: none): where an exact correction may start looking.
	matched int
	// serverIns are the inputs the server stepped its newest frame with,
	// every player's: the other players' predicted steps reuse them (the
	// client knows nothing newer of them).
	serverIns    cubes.Inputs
	player       int // the client's own player (0-based), −1 for a spectator
	me, pme      int // its cube in w and in pw
	serverPlayer cubes.CubeState
	hasServer    bool

	smooth *replication.Smoother
	oldPos []mgl64.Vec3 // scratch: poses before a replay
	oldRot []mgl64.Quat
	oldIn  []bool // scratch: predicted by the radius world before a replay

	mark      cubes.CubeState // where the player was drawn before the last replay
	markTo    cubes.CubeState
	markTicks int

	pressFrame, pressTick int // a key press waiting to show (−1: none)
	prevBits              uint8

	pkt  ServerPacket
	back InputPacket

	// substeps is the server's solver substeps: what a diverging client
	// differs from (diverge.go).
	substeps int

	// heard is the inputs the server stepped each frame with, as its
	// packets say, [f % joinRing]: a joining client steps the server's
	// save on with them (join.go, catchUp).
	heard []heardInput
	// joinTo is the session frame a joined client's clock reaches at its
	// next update, predicting the frames the server stepped after its
	// newest packet (−1: none; join.go).
	joinTo int
}

func (c *client) reset(st *Strategy, ctx strategy.Context) {
	cfg := &st.cfg
	c.w = ctx.NewWorld()
	c.w.SetFrame(ctx.Frame())
	c.substeps = c.w.Physics().Config().Substeps
	c.n = c.w.NumCubes()
	pw, err := playerWorld(ctx.Left())
	if err != nil {
		// The same configuration with a one-cube grid cannot fail where
		// the full one did; keep the full world rather than crash.
		pw = ctx.NewWorld()
	}
	c.pw = pw
	c.wr.reset(cfg.MoveRing)
	c.pr.reset(cfg.MoveRing)
	c.rr.reset(cfg.MoveRing)
	c.rw = nil
	if len(c.adjAt) != cfg.MoveRing {
		c.adjAt = make([]int, cfg.MoveRing)
		c.inBits = make([]uint8, cfg.MoveRing)
	}
	c.ct = ctx.Frame()
	c.tick, c.cumAdj, c.est, c.hasEst = 0, 0, 0, false
	c.acked = -1
	for k := range c.lags {
		c.lags[k] = -1
	}
	c.lastServer, c.hasServer, c.adopted, c.confirmed = -1, false, -1, -1
	c.matched, c.joinTo = -1, -1
	c.shared = ctx.Frame() == 0
	c.exact = c.shared
	c.serverIns = cubes.Inputs{}
	c.player = ctx.Player()
	c.me, c.pme = cubes.Player, cubes.Player
	if c.player > 0 {
		c.me, c.pme = c.w.PlayerCube(c.player), c.pw.PlayerCube(c.player)
	}
	c.parkOthers()
	if c.smooth == nil || len(c.oldPos) != c.n {
		c.smooth = replication.NewSmoother(replication.DefaultSmoothingConfig(), c.n)
		c.oldPos, c.oldRot, c.oldIn = make([]mgl64.Vec3, c.n), make([]mgl64.Quat, c.n), make([]bool, c.n)
	}
	c.smooth.Reset()
	c.markTicks = 0
	c.pressFrame, c.prevBits = -1, 0
	c.set, c.configured = Settings{}, false
	c.pkt.State.NumCubes = int32(c.n)
	c.configure(st)
}

// configure follows the presenter's settings: which world predicts. A
// change of mode or scope starts the predicting world's history over at
// the present (its saved past was predicted under other rules).
func (c *client) configure(st *Strategy) {
	s := st.set
	if s == c.set && c.configured {
		return
	}
	old := c.set
	c.set = s
	c.pred = s.Mode.predicts() && c.player >= 0 // a spectator has nothing to predict
	// The article's server (step 6) has the article's client: the player
	// alone, whatever the scope (its cubes and its player are at different
	// times: no one frame to replay the world from).
	c.world = c.pred && s.Scope == ScopeWorld && !s.Mode.streams()
	c.radius = c.pred && s.Scope == ScopeRadius && !s.Mode.streams()
	if old.Mode == s.Mode && old.Scope == s.Scope && old.Divergence == s.Divergence && c.configured {
		return // only the smoothing changed
	}
	c.configured = true
	c.buildRadius(st)
	c.diverge(s.Divergence)
	c.wr.reset(len(c.wr.moves))
	c.pr.reset(len(c.pr.moves))
	c.rr.reset(len(c.rr.moves))
	c.adopted = -1
	if c.world {
		c.w.SetFrame(c.ct)
	}
	// The player-only world: the player where the local world has it.
	_ = c.pw.SetCube(c.pme, c.w.Cube(c.me))
	c.pw.SetFrame(c.ct)
	if c.rw != nil {
		// The radius world starts as the mirror, with no cube predicted:
		// the next step takes in the cubes near the player.
		c.rw.clear(c.w)
		_ = c.rw.w.SetCube(c.rw.me, c.w.Cube(c.me))
		c.rw.w.SetFrame(c.ct)
	}
}

// buildRadius builds the radius world the first time the radius scope is
// chosen (most clients never pay for it).
func (c *client) buildRadius(st *Strategy) {
	if !c.radius || c.rw != nil {
		return
	}
	rw, err := newRadiusWorld(c.w, st.cfg.MoveRing)
	if err != nil {
		// A smaller grid of the same configuration cannot fail where the
		// full one did; predict the player alone rather than crash.
		c.radius = false
		return
	}
	rw.me = rw.w.PlayerCube(max(c.player, 0))
	c.rw = rw
}

// playerWorld builds the player-only prediction world: left's
// configuration with a one-cube grid, that cube parked far away.
func playerWorld(left *cubes.World) (*cubes.World, error) {
	cfg := left.Config()
	cfg.GridSide = 1
	w, err := cubes.NewWorld(cfg, left.Physics().Config())
	if err != nil {
		return nil, err
	}
	parked := w.Cube(1)
	parked.Position = parkedCube
	return w, w.SetCube(1, parked)
}

// in is the client's player's cube in pw, the local world or the
// player-only one (their indices differ for players 2..: the player-only
// world's grid is one cube).
func (c *client) in(pw *cubes.World) int {
	switch {
	case pw == c.pw:
		return c.pme
	case c.rw != nil && pw == c.rw.w:
		return c.rw.me
	}
	return c.me
}

// predicting returns the world that predicts the player and its history.
func (c *client) predicting() (*cubes.World, *ring) {
	switch {
	case c.world:
		return c.w, &c.wr
	case c.radius:
		return c.rw.w, &c.rr
	}
	return c.pw, &c.pr
}

// lend lets the radius world take in the cubes near the player and give
// back the far ones, before a step of frame f (nothing in other scopes).
func (c *client) lend(st *Strategy) {
	if c.radius {
		c.rw.choose(c.w, st.cfg.RadiusM)
	}
}

// saved records the radius world's slots of frame f beside the ring's
// saved world.
func (c *client) saved(f int) {
	if c.radius {
		c.rw.saveSlots(f)
	}
}

// update is the client's tick: the clock, the predicted steps, the mirror.
func (c *client) update(st *Strategy, ctx strategy.Context) {
	cfg := &st.cfg
	ss := &st.stats
	c.configure(st)
	c.tick++

	// The clock: 1 step, or 2 or 0 once every AdjustEvery ticks.
	steps := 1
	switch {
	case c.set.Mode.streams():
		// The article's client: its own time, one input a tick, no lead;
		// the presenter's client with the speed hack, one more now and then.
		if c.set.Speed.hack() && ctx.Client() == 0 && c.tick%cfg.SpeedHackEvery == 0 {
			steps = 2
		}
	case c.hasEst && c.tick%cfg.AdjustEvery == 0:
		switch {
		case c.est < cfg.TargetEarly:
			steps = 2
		case c.est > cfg.TargetEarly+cfg.EarlyBand:
			steps = 0
		}
		c.cumAdj += steps - 1
		c.est += steps - 1
	}
	if c.joinTo > c.ct && !c.set.Mode.streams() {
		// A joined client's clock reaches the server's present at once.
		// Its ring keeps the saves of every frame from the one adopted,
		// which an exact correction may rewind to (keepSaves runs after
		// the steps: sized before them, it would drop them as they go).
		c.cumAdj += c.joinTo - c.ct
		steps += c.joinTo - c.ct
		_, r := c.predicting()
		r.depth = min(max(r.depth, c.joinTo+2-max(c.adopted, c.matched)), len(r.moves))
	}
	c.joinTo = -1
	ss.StepsThisTick = steps

	in := ctx.PresenterInput()
	if b := in.Bits(); b&^c.prevBits != 0 && c.pressFrame < 0 {
		// A key went down: it shows once a drawn state includes the input
		// stamped now.
		c.pressFrame, c.pressTick = c.ct, c.tick
	}
	c.prevBits = in.Bits()

	if ctx.Thin() {
		// A thin client (the scale bench's) stamps and sends its inputs
		// on its clock, and simulates nothing.
		for range steps {
			k := c.ct % len(c.inBits)
			c.inBits[k], c.adjAt[k] = in.Bits(), c.cumAdj
			c.ct++
		}
		return
	}
	st.oth.begin(st, c, ctx)
	start := time.Now()
	pw, r := c.predicting()
	for range steps {
		f := c.ct
		k := f % len(c.inBits)
		c.inBits[k] = in.Bits()
		c.adjAt[k] = c.cumAdj
		if c.pred {
			ins := c.stepInputs(in)
			st.oth.beforeStep(c, pw, f, &ins)
			c.lend(st)
			r.save(pw, f)
			c.saved(f)
			pw.StepAll(&ins)
			ss.PredictBodies += uint64(pw.Physics().Stats().AwakeBodies)
			c.set.Divergence.AfterStep(pw)
			r.moves[k] = move{frame: f, in: in, after: pw.Cube(c.in(pw))}
			c.shared = false // stepped with the client's own input
		}
		c.ct++
	}
	if !c.world && c.hasServer && c.w.Frame() < ctx.Frame() {
		// The mirror carries on with the server's last input until the
		// next state arrives.
		c.w.StepAll(&c.serverIns)
		ss.MirrorBodies += uint64(c.w.Physics().Stats().AwakeBodies)
		c.set.Divergence.AfterStep(c.w)
	}
	ss.PredictNs += time.Since(start).Nanoseconds()

	c.keepSaves(cfg, r)
	ss.SaveDepth = r.depth
	ss.Saves, ss.SaveBytes = r.held()

	c.smooth.Decay(c.set.smoothMode())
	if c.markTicks > 0 {
		c.markTicks--
	}

	// Input-to-motion delay: the first tick whose drawn state includes
	// the pressed input.
	if c.pressFrame >= 0 && c.shownFrame() > c.pressFrame {
		ss.InputDelayMs = float64(c.tick-c.pressTick) * 1000 / wire.TicksPerSecond
		ss.HasInputDelay = true
		ss.InputPresses++
		ss.InputDelaySumMs += ss.InputDelayMs
		c.pressFrame = -1
	}
	ss.RadiusCubes = 0
	if c.radius {
		ss.RadiusCubes = c.rw.Predicted()
	}
	ss.Lead = c.ct - ctx.Frame()
	ss.Early, ss.HasEarly = c.est, c.hasEst
	ss.MoveDepth = 0
	if c.pred {
		ss.MoveDepth = c.ct - max(c.confirmed, c.ct-len(r.moves))
	}
	st.oth.end(st, c, ctx)
	st.tagTick(c, ctx)
}

// lagPeriod and lagPeriods make the lag's window: the saves follow a lag
// that grows at once, and one that shrinks after three to four seconds.
// On the terrible preset the lag's largest swings from second to second:
// with a window of one to two seconds the ring dropped saves and built new
// ones (whole worlds' arrays, allocated) 19 times in 10 s.
const (
	lagPeriod  = wire.TicksPerSecond
	lagPeriods = 4
)

// keepSaves sets how many of the newest frames keep a saved world in the
// predicting ring: the frames a correction can still rewind to. A server
// state for frame f that arrives when the client stamps frame ct rewinds
// to the world saved at f, ct − f frames back: the round trip as the
// client lives it (its lead over the server, plus the state's way back).
// The ring keeps the largest such lag of the window, a quarter more and
// SaveMargin frames for the jitter to come, at least MinSaves and at most
// the move ring; with no state received in the whole window it keeps the
// depth it had. 128 saves at any round trip held 215 MB of whole-world
// saves; this is what a correction needs.
func (c *client) keepSaves(cfg *Config, r *ring) {
	if c.tick%lagPeriod == 0 {
		c.lagAt = (c.lagAt + 1) % len(c.lags)
		c.lags[c.lagAt] = -1
	}
	lag := -1
	for _, l := range c.lags {
		lag = max(lag, l)
	}
	if lag < 0 {
		return
	}
	need := lag + lag/4 + cfg.SaveMargin
	if c.exact {
		// An exact correction rewinds to the first frame not yet known
		// to match the server's inputs (exactFrom): after a join, further
		// back than the round trip until the first states come in.
		need = max(need, c.ct-max(c.adopted, c.matched)+1+cfg.SaveMargin)
	}
	r.depth = min(max(need, cfg.MinSaves), len(r.moves))
}

// shownFrame is the frame the drawn player is at: the client's clock when
// it predicts, the mirror's frame when it does not.
func (c *client) shownFrame() int {
	if c.pred {
		return c.ct
	}
	return c.w.Frame()
}

// smoothMode maps the settings' smoothing onto state synchronization's.
func (s Settings) smoothMode() replication.SmoothingMode {
	switch s.Smoothing {
	case Smooth2004:
		return replication.Smoothing2004
	case SmoothAdaptive:
		return replication.SmoothingAdaptive
	}
	return replication.SmoothingNone
}

// sendBack writes the unacknowledged inputs, up to MaxInputs.
func (c *client) sendBack(st *Strategy, ctx strategy.Context) {
	newest := c.ct - 1
	if newest < 0 {
		return
	}
	oldest := max(c.acked+1, newest-st.cfg.MaxInputs+1, c.ct-len(c.inBits)+1, 0)
	if st.join.waiting() {
		oldest = newest // a joining client has stamped nothing yet: its packet carries the ack
	}
	if oldest > newest {
		oldest = newest // always say something: the clock needs reports
	}
	p := &c.back // a field, not a local: handed to an interface, a local escaped (an allocation per tick)
	p.Newest, p.Count = int32(newest), int32(newest-oldest+1)
	for k := int32(0); k < p.Count; k++ {
		p.Inputs[k] = c.inBits[int(p.Frame(k))%len(c.inBits)]
	}
	p.Players = int32(ctx.Players())
	if p.Players > 1 {
		st.fillTags(p)
	}
	if err := st.sendInputs(ctx, p); err == nil {
		st.stats.InputsPerPacket = int(p.Count)
	}
}

// receive takes one server packet.
func (c *client) receive(st *Strategy, ctx strategy.Context, seq uint16, r *wire.ReadStream) error {
	p := &c.pkt
	p.State.NumCubes = int32(c.n)
	p.State.Players = int32(ctx.Players())
	p.State.History = nil
	f, ok := wire.FrameOf(seq, ctx.Frame())
	if !ok {
		return errors.New("predict: packet from a frame the server has not reached")
	}
	p.Frame = int32(f)
	if err := p.Serialize(r); err != nil {
		return err
	}
	if !p.State.Compressed {
		return errNotCompressed
	}
	if err := st.receivePiece(ctx, f, r); err != nil {
		return err
	}
	if !ctx.Thin() {
		c.hear(p, f)
	}
	if st.join.waiting() {
		return nil // nothing to step until the server's world is in
	}
	c.configure(st)
	if p.State.Players > 1 && !ctx.Thin() {
		st.oth.received(st, c, p, f, ctx.Frame())
		st.takeVerdicts(c, &p.Verdicts)
	}
	ss := &st.stats
	if f <= c.lastServer {
		ss.StalePackets++
		return nil
	}
	c.lastServer = f
	if p.HasAck && int(p.AckedInput) < c.ct {
		c.acked = max(c.acked, int(p.AckedInput))
	}
	// pf is the frame of the client's time the packet's player is at: the
	// server's frame, but with the article's server the player's own time
	// (every input it holds is applied on arrival: the newest acked + 1).
	pf := f
	if c.set.Mode.streams() {
		if !p.HasAck || int(p.AckedInput) >= c.ct {
			return nil
		}
		pf = int(p.AckedInput) + 1
	}
	c.lags[c.lagAt] = max(c.lags[c.lagAt], c.ct-pf)
	c.confirmed = max(c.confirmed, pf)
	if p.HasEarly {
		// The report, plus the steps gained since that input was sent.
		e, ef := int(p.Early), int(p.EarlyFrame)
		if ef < c.ct && ef > c.ct-len(c.adjAt) {
			e += c.cumAdj - c.adjAt[ef%len(c.adjAt)]
		}
		c.est, c.hasEst = e, true
		ss.Reported = int(p.Early)
	}
	if ctx.Thin() {
		return nil // only the clock and the acks above: nothing is simulated
	}
	c.serverIns = serverInputs(&p.State, replication.Inputs-1)
	hasPlayer := false
	for k := range p.State.NumUpdates {
		if u := &p.State.Updates[k]; int(u.Index) == c.me && c.player >= 0 {
			c.serverPlayer = stateOf(u)
			c.hasServer, hasPlayer = true, true
		}
	}

	// The mirror (no prediction, or the player-only scope): everything
	// the server says, at its frame.
	if !c.world {
		if f > c.w.Frame() || !c.pred {
			c.w.SetFrame(f)
		}
		c.apply(p, !c.pred, true)
	}
	if !c.pred || !hasPlayer {
		return nil
	}
	pw, rg := c.predicting()
	f = pf

	// How far was the prediction of frame f from the server's? (Only
	// frames the client predicted can be compared at the same frame.)
	var predicted *cubes.CubeState
	if f == c.ct {
		cur := pw.Cube(c.in(pw))
		predicted = &cur
	} else if m := rg.at(f - 1); m != nil {
		predicted = &m.after
	}
	if predicted == nil {
		if c.catchUp(st, rg, f) {
			return nil
		}
		// The client is behind the server (just reset) or the frame has
		// left the ring: nothing to compare, take the server's word now.
		c.snapPresent(st, pw, f)
		if c.world {
			c.apply(p, false, true)
		}
		return nil
	}
	d := geom.Len(predicted.Position.Sub(c.serverPlayer.Position))
	a := geom.AngleBetween(predicted.Orientation, c.serverPlayer.Orientation)
	ss.addError(d, a)
	other := c.otherInput(p, rg, f)
	if other {
		ss.InputMismatches++
	} else {
		c.matched = max(c.matched, f)
	}
	if !c.set.Mode.corrects() || (!other && d <= st.cfg.CorrectPosition && a <= st.cfg.CorrectAngle && !st.othersOff(c, p, f)) {
		if c.world && !c.set.Mode.corrects() {
			c.apply(p, false, true) // the cubes, at the present
		}
		return nil
	}
	c.replay(st, pw, rg, f, p)
	return nil
}

// otherInput reports whether the server stepped any frame since the last
// state the client adopted with another input than the client predicted it
// with: an input that reached the server late (while the clock settles
// ahead of the server, or after a burst of loss longer than the inputs'
// redundancy) or not at all. The packet says
// which inputs the server used for its last replication.Inputs frames, so
// the client knows its prediction is wrong before the error shows: it
// corrects now, while the difference is small, instead of letting it grow
// until it crosses the threshold (on a perfect link that took 125 frames
// and 2 cm).
func (c *client) otherInput(p *ServerPacket, rg *ring, f int) bool {
	if c.set.Mode.streams() {
		return false // the inputs a packet carries are of the server's frames, not the player's time
	}
	for k := range replication.Inputs {
		bits := serverInputs(&p.State, k)[c.player].Bits()
		g := f - replication.Inputs + k
		if g < c.adopted {
			continue
		}
		if m := rg.at(g); m != nil && m.in.Bits() != bits {
			return true
		}
	}
	return false
}

// catchUp brings a client that is behind the server toward frame f by
// stepping its own world with the inputs the server used (each packet
// carries the last replication.Inputs of them: heard), when that world is
// still the one both sides started from: a session that starts with this
// strategy builds the same world at frame 0 on both sides, and a client
// joining mid-session restores the server's save (join.go), so stepping
// it with the same inputs gives the server's state bit for bit. After a
// join over a slow link that is a few dozen steps in one tick, once: in
// chunks, the client's own steps between two packets would part it from
// the server's inputs and lose the exact world. Taking the server's quantized
// state instead would start the prediction 0.1 mm and 1.3 mm/s away from
// the server's exact world, an error that grows until it crosses the
// correction threshold (2 cm after 125 frames on a perfect link). Only the
// whole-world scope can do this: the player-only world is not the
// server's.
func (c *client) catchUp(st *Strategy, rg *ring, f int) bool {
	if !c.shared || !c.world || f <= c.ct {
		return false
	}
	for g := c.ct; g < f; g++ {
		if _, ok := c.heardAt(g); !ok {
			return false
		}
	}
	for g := c.ct; g < f; g++ {
		ins, _ := c.heardAt(g)
		in := ins[c.player]
		k := g % len(c.inBits)
		c.inBits[k], c.adjAt[k] = in.Bits(), c.cumAdj
		rg.save(c.w, g)
		c.w.StepAll(&ins)
		c.set.Divergence.AfterStep(c.w)
		rg.moves[k] = move{frame: g, in: in, after: c.w.Cube(c.me)}
	}
	c.cumAdj += f - c.ct
	c.ct, c.adopted = f, f
	st.stats.ClockJumps++
	return true
}

// snapPresent puts the predicting world's player at the server's state and
// its clock at least at frame f.
func (c *client) snapPresent(st *Strategy, pw *cubes.World, f int) {
	c.adopted = max(c.adopted, f)
	c.shared, c.exact = false, false
	old := pw.Cube(c.in(pw))
	_ = pw.SetCube(c.in(pw), c.serverPlayer)
	c.smooth.Corrected(c.set.smoothMode(), c.me, old.Position, old.Orientation, c.serverPlayer.Position, c.serverPlayer.Orientation)
	if f > c.ct {
		// Behind the server: jump the clock to it (a fresh client, or
		// one that lost contact for longer than its ring).
		c.cumAdj += f - c.ct
		c.ct = f
		pw.SetFrame(f)
		st.stats.ClockJumps++
	}
}

// replay rewinds the predicting world to frame f, applies the server's
// state and replays the stored moves up to the present.
func (c *client) replay(st *Strategy, pw *cubes.World, rg *ring, f int, p *ServerPacket) {
	ss := &st.stats
	start := time.Now()
	saved := rg.saved(f)
	if f < c.ct && saved == nil {
		ss.TooOld++
		c.snapPresent(st, pw, f)
		return
	}
	old := pw.Cube(c.in(pw))
	smooth := c.world
	if smooth {
		for i := range c.n {
			s := c.w.Cube(i)
			c.oldPos[i], c.oldRot[i] = s.Position, s.Orientation
		}
	}
	c.radiusBefore()
	frames := 0
	if g, ok := c.exactFrom(pw, rg, f, p); ok {
		frames = c.exactReplay(st, pw, rg, g, f, p)
	} else {
		if f < c.ct && pw.Restore(saved) != nil {
			ss.TooOld++
			c.snapPresent(st, pw, f)
			return
		}
		if c.world {
			c.apply(p, false, false) // at frame f; smoothed below, after the replay
		}
		if c.radius {
			if f < c.ct {
				c.rw.restoreSlots(f)
			}
			c.applyRadius(p) // the predicted cubes the packet has, at frame f
		}
		_ = pw.SetCube(c.in(pw), c.serverPlayer)
	}
	c.adopted = f
	for g := f; g < c.ct; g++ {
		m := rg.at(g)
		if m == nil {
			break
		}
		ins := c.stepInputs(m.in)
		st.oth.replayStep(c, pw, g, &ins)
		c.lend(st)
		rg.save(pw, g)
		c.saved(g)
		pw.StepAll(&ins)
		ss.ReplayBodies += uint64(pw.Physics().Stats().AwakeBodies)
		c.set.Divergence.AfterStep(pw)
		m.after = pw.Cube(c.in(pw))
		frames++
	}
	now := pw.Cube(c.in(pw))
	mode := c.set.smoothMode()
	if smooth {
		for i := range c.n {
			s := c.w.Cube(i)
			c.smooth.Corrected(mode, i, c.oldPos[i], c.oldRot[i], s.Position, s.Orientation)
		}
	} else {
		c.smooth.Corrected(mode, c.me, old.Position, old.Orientation, now.Position, now.Orientation)
		c.radiusAfter(mode)
	}
	c.mark, c.markTo, c.markTicks = old, now, st.cfg.MarkTicks
	ss.Corrections++
	ss.ReplayedFrames += frames
	ss.ReplayNs += time.Since(start).Nanoseconds()
	ss.lastReplay(frames, time.Since(start))
}

// apply snaps the local world w to the packet's cube updates; the player's
// only with withPlayer (the mirror of sub-mode 1); smoothed unless a replay
// smooths afterwards.
func (c *client) apply(p *ServerPacket, withPlayer, smooth bool) {
	c.shared = false // quantized states: no longer the shared world
	c.exact = c.exact && !c.world
	mode := c.set.smoothMode()
	for k := int32(0); k < p.State.NumUpdates; k++ {
		u := &p.State.Updates[k]
		i := int(u.Index)
		if (i == c.me && c.player >= 0 && !withPlayer) || c.skipOnApply(i) {
			continue
		}
		old := c.w.Cube(i)
		ns := stateOf(u)
		if c.w.SetCube(i, ns) != nil {
			continue
		}
		if smooth && (i != c.me || !c.pred) {
			c.smooth.Corrected(mode, i, old.Position, old.Orientation, ns.Position, ns.Orientation)
		}
	}
}

// stateOf is an update's cube state.
func stateOf(u *replication.StateUpdate) cubes.CubeState {
	p, r, l, a := u.State.Dequantize()
	return cubes.CubeState{Position: p, Orientation: r, LinearVelocity: l, AngularVelocity: a, Interacting: u.Interacting}
}

// drawnPlayer is the player as the client simulates it now.
func (c *client) drawnPlayer() cubes.CubeState {
	switch {
	case c.radius:
		return c.rw.w.Cube(c.rw.me)
	case c.pred && !c.world:
		return c.pw.Cube(c.pme)
	}
	return c.w.Cube(c.me)
}

// drawnCube is cube i as the client draws it (but the player): from the
// radius world while it predicts i, else from the local world.
func (c *client) drawnCube(i int) (cubes.CubeState, bool) {
	if c.radius {
		if k := c.rw.slot(i); k >= 0 {
			return c.rw.w.Cube(k), c.rw.w.AtRest(k)
		}
	}
	return c.w.Cube(i), c.w.AtRest(i)
}

// playerAt returns the client's predicted player state at frame f (after
// the server's corrections up to now), from its move ring: what a test
// compares with the server's state at the same frame.
func (st *Strategy) playerAt(f int) (cubes.CubeState, bool) {
	c := &st.cli
	if !c.pred {
		return cubes.CubeState{}, false
	}
	pw, r := c.predicting()
	if f == c.ct {
		return pw.Cube(c.in(pw)), true
	}
	if m := r.at(f - 1); m != nil {
		return m.after, true
	}
	return cubes.CubeState{}, false
}

// clientFrame is the client's clock: the frame its next input is stamped
// with (its drawn player is at this frame when it predicts).
func (st *Strategy) clientFrame() int { return st.cli.ct }

// stepInputs are the inputs a predicted step uses: the client's own for
// its player, and for every other player the newest the server said it
// used (the client knows nothing newer of them; in the player-only world
// the others are parked and their inputs do nothing).
func (c *client) stepInputs(own cubes.Input) cubes.Inputs {
	ins := c.serverIns
	if !c.world {
		ins = cubes.Inputs{}
	}
	if c.player >= 0 {
		ins[c.player] = own
	}
	return ins
}

// serverInputs are every player's inputs of input slot k of a server
// packet (slot replication.Inputs−1 is the packet's frame − 1).
func serverInputs(p *replication.Packet, k int) cubes.Inputs {
	ins := cubes.Inputs{cubes.InputFromBits(p.Inputs[k])}
	for q := 1; q < int(p.Players); q++ {
		ins[q] = cubes.InputFromBits(p.Others[q-1][k])
	}
	return ins
}

// parkOthers moves the other players of the player-only world far away,
// each to a spot of its own, where the client's player never meets them:
// that world predicts one player alone.
func (c *client) parkOthers() {
	for p := range c.pw.NumPlayers() {
		if p == c.player {
			continue
		}
		i := c.pw.PlayerCube(p)
		s := c.pw.Cube(i)
		s.Position = parkedCube.Add(mgl64.Vec3{float64(5 * (p + 1)), 0, 1})
		_ = c.pw.SetCube(i, s)
	}
}

// exactFrom reports whether the correction of frame f can keep the
// predicting world exact, and from which frame: the first since the frame
// adopted whose input the server stepped differently from the client's
// prediction (its first steps after a join, before its inputs reach the
// server in time, or a burst of loss). That needs a world that is exact
// (c.exact), the whole world predicted by the server's own solver for one
// player, the server's inputs of every frame from there to f (heard: a
// packet carries its last replication.Inputs, the client keeps them) and
// the world saved at that frame.
func (c *client) exactFrom(pw *cubes.World, rg *ring, f int, p *ServerPacket) (int, bool) {
	if !c.exact || !c.world || pw != c.w || p.State.Players > 1 || c.set.Divergence != diverge.Off ||
		c.set.Mode.streams() || f > c.ct {
		return 0, false
	}
	from := max(c.adopted, c.matched, 0)
	for g := from; g < f; g++ {
		m := rg.at(g)
		ins, ok := c.heardAt(g)
		if m == nil || !ok {
			return 0, false // frames whose inputs were never heard were never checked
		}
		if m.in.Bits() != ins[c.player].Bits() {
			return g, rg.saved(g) != nil
		}
	}
	return 0, false // no other input: an exact world has nothing to correct
}

// exactReplay rewinds the predicting world to frame g, steps it to f with
// the inputs the server stepped with, then replays the client's own moves
// up to the present. No quantized state enters it: it is the server's
// world at f bit for bit, and predicts exactly again from there (as a
// client that started with the server at frame 0 does). It returns the
// frames stepped.
func (c *client) exactReplay(st *Strategy, pw *cubes.World, rg *ring, g, f int, p *ServerPacket) int {
	if pw.Restore(rg.saved(g)) != nil {
		return 0
	}
	ss := &st.stats
	for h := g; h < f; h++ {
		ins, _ := c.heardAt(h) // every frame from g heard (exactFrom)
		rg.save(pw, h)
		pw.StepAll(&ins)
		ss.ReplayBodies += uint64(pw.Physics().Stats().AwakeBodies)
		m := rg.at(h)
		m.in, m.after = ins[c.player], pw.Cube(c.in(pw))
	}
	return f - g
}
