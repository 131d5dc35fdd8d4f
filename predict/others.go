package predict

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/geom"
	"netcubes/playout"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: how a client draws the OTHER players. The 2004 article is
// about "how to allow each client to control his own character while
// displaying a reasonable approximation of the motion of the other
// players"; its reader Q&A and the entity-interpolation log (seeds/001)
// give the choices, and `I` walks them:
//
//  1. as it arrives: the newest state the server sent, nothing more. No
//     added delay, but the motion steps with every late or lost packet.
//  2. interpolated (seeds/001): every state is kept in a small buffer by
//     server frame, and the player is drawn a fixed time in the past, on a
//     playout clock locked to the server's packets (playout.Clock, the
//     phase-locked loop snapshot interpolation uses): between two states
//     the client has, never beyond the newest (it holds there, starved).
//  3. extrapolated: dead reckoning from the newest state at its velocity,
//     to the server's present; "if no packets are received after 0.25 secs
//     the character stops extrapolating and stays still until the next
//     packet arrives" (the article's Q&A).
//  4. predicted with their last known inputs inside the rewind-and-replay:
//     the client's world steps them with the inputs the server last said
//     they used, as it did before this file ("falling flat when predicting
//     other players, as they're being predicted ahead using input data which
//     is half their RTT old").
//  5. the 2004 smoothing: simulated with their last inputs as in 4, and
//     pulled toward each server state by the article's clientUpdate rule
//     (snap beyond 2 m, 10 % of the way beyond 10 cm, else nothing;
//     velocities snap).
//
// In 1-3 the other player is a proxy in the client's predicting world: set
// before every predicted step to where it is drawn (its inputs idle), so
// the client's own player collides with the other player it sees, in the
// past. That is what makes pushing under lag hard: the proxy does not give
// way (the server moves it, and the client sees that a round trip and the
// interpolation delay later), so the pushing player is held back on its
// own screen and corrected by the server, where the push happened. A
// replay re-plays the proxies as they were drawn at each frame (rec), so
// a replay from a saved world still reproduces what the client saw. In 4
// and 5 the other players are simulated; in a replay, 4 takes the server's
// state for them (its "inside the rewind-and-replay") and 5 re-plays them
// as they were.
//
// The figures. Each drawn other player represents a server frame: the
// newest state's (1), the playout time (2), the newest state's plus the
// extrapolated time (3), the client's own frame (4 and 5: ahead of the
// server, compared when the server gets there). Its error is the distance
// to the server's exact state at that frame (the strategy's server half
// keeps every player's truth, truth.go; a diagnostic, never fed back), and
// how far in the past it is is the server's present minus that frame.
// Jitter is the change of the drawn per-tick motion from one tick to the
// next (cm per tick): zero for smooth motion, large for steps and snaps.

// stateRingSize is how many states of one other player the client keeps,
// by server frame: the interpolation delay plus the latency of the
// terrible preset (about 20 ticks) with room, a power of two.
const stateRingSize = 64

// stateRing is one other player's received states, by server frame
// (slot f % stateRingSize); packets may arrive out of order.
type stateRing struct {
	frame   [stateRingSize]int
	state   [stateRingSize]cubes.CubeState
	newest  int // newest frame held (−1: none)
	arrived int // the tick the newest arrived at
}

func (r *stateRing) reset() {
	for k := range r.frame {
		r.frame[k] = -1
	}
	r.newest = -1
}

// put keeps the state of frame f (a duplicate or a frame too old to be
// kept is ignored); now is the arrival tick.
func (r *stateRing) put(f int, s cubes.CubeState, now int) {
	if f < 0 || f <= r.newest-stateRingSize {
		return
	}
	k := f % stateRingSize
	if r.frame[k] == f {
		return
	}
	r.frame[k], r.state[k] = f, s
	if f > r.newest {
		r.newest, r.arrived = f, now
	}
}

// get returns the state of frame f when held.
func (r *stateRing) get(f int) (cubes.CubeState, bool) {
	if f < 0 || f > r.newest || f <= r.newest-stateRingSize {
		return cubes.CubeState{}, false
	}
	k := f % stateRingSize
	if r.frame[k] != f {
		return cubes.CubeState{}, false
	}
	return r.state[k], true
}

// at interpolates the state at (fractional) frame t between the held
// states around it: never beyond the newest (starved: it holds the newest)
// and never before the oldest held (it holds that). It returns the frame
// the result represents.
func (r *stateRing) at(t float64) (cubes.CubeState, float64, bool) {
	if r.newest < 0 {
		return cubes.CubeState{}, 0, false
	}
	if t >= float64(r.newest) {
		s, _ := r.get(r.newest)
		return s, float64(r.newest), true
	}
	a := int(math.Floor(t))
	lo := r.newest - stateRingSize + 1
	for ; a >= lo; a-- {
		if _, ok := r.get(a); ok {
			break
		}
	}
	b := int(math.Ceil(t))
	for ; b <= r.newest; b++ {
		if _, ok := r.get(b); ok {
			break
		}
	}
	sb, _ := r.get(b)
	if a < lo {
		return sb, float64(b), true // older than anything held
	}
	sa, _ := r.get(a)
	if a == b {
		return sa, t, true
	}
	return lerpState(sa, sb, (t-float64(a))/float64(b-a)), t, true
}

// lerpState blends two states of one cube at u in [0, 1]: positions and
// velocities linearly, the orientation by slerp (seeds/001's interpolation,
// in 3D). The server's lag compensation calls it with the same arguments
// the client used, so both get the same bits.
func lerpState(a, b cubes.CubeState, u float64) cubes.CubeState {
	return cubes.CubeState{
		Position:        a.Position.Add(b.Position.Sub(a.Position).Mul(u)),
		Orientation:     geom.Slerp(a.Orientation, b.Orientation, u),
		LinearVelocity:  a.LinearVelocity.Add(b.LinearVelocity.Sub(a.LinearVelocity).Mul(u)),
		AngularVelocity: a.AngularVelocity.Add(b.AngularVelocity.Sub(a.AngularVelocity).Mul(u)),
		Interacting:     a.Interacting,
	}
}

// viewEighths is the resolution of the playout time the others are drawn
// at, and that a tag names: an eighth of a tick (2 ms). The client draws at
// exactly the time it tells the server, so a lag-compensated server can
// rebuild the very pose the client saw.
const viewEighths = 8

// quantizeView rounds a playout time down to an eighth of a tick.
func quantizeView(t float64) float64 { return math.Floor(t*viewEighths) / viewEighths }

// otherDrawn is one other player as the client draws it this tick.
type otherDrawn struct {
	has   bool
	state cubes.CubeState
	at    float64 // the server frame it represents
	// held: the extrapolation stopped (no packet for the limit), or the
	// interpolation ran out of states (starved).
	held bool
	// prevPos, prevStep: the drawn position and per-tick motion of the
	// tick before, for the jitter figure.
	prevPos, prevStep mgl64.Vec3
	hasPrev, hasStep  bool
	// fresh: a state arrived since the last tick (Others2004 pulls toward
	// it at the next tick).
	fresh bool
}

// othersRec is the other players' states in the predicting world before
// the step of one frame: what a replay re-plays.
type othersRec struct {
	frame  int
	states [cubes.MaxPlayers]cubes.CubeState
}

// others is the client's side of the other players.
type others struct {
	clock *playout.Clock
	bufs  [cubes.MaxPlayers]stateRing
	drawn [cubes.MaxPlayers]otherDrawn
	view  float64 // this tick's playout time (server frame, eighths)
	rec   []othersRec
	pend  []pendingCmp
	win   [wire.TicksPerSecond]othersTick
	cur   othersTick
	total othersTick
	// nearest is the nearest other player as drawn (−1: none).
	nearest int
	// lastCorr is the corrections counter at the last tick.
	lastCorr uint64
	// measured is what the window's figures were measured under, and
	// filled the ticks measured since it last changed (windowKey).
	measured windowKey
	filled   int
}

// othersRing is how many frames rec and pend hold: the client's lead and
// a replay's depth are far less.
const othersRing = 256

func (o *others) reset(st *Strategy) {
	if o.clock == nil {
		o.clock = playout.NewClock(st.cfg.Others.Clock)
		o.rec = make([]othersRec, othersRing)
		o.pend = make([]pendingCmp, othersRing)
	}
	o.clock.Reset()
	o.clock.SetInterval(1)
	for p := range o.bufs {
		o.bufs[p].reset()
		o.drawn[p] = otherDrawn{}
	}
	for k := range o.rec {
		o.rec[k].frame = -1
		o.pend[k].frame = -1
	}
	o.win = [wire.TicksPerSecond]othersTick{}
	o.cur, o.total = othersTick{}, othersTick{}
	o.nearest = -1
	o.lastCorr = 0
	o.measured, o.filled = st.windowKey(), 0
}

// restart empties the window when what it measures changed: the figures
// of the new mode start from nothing, not mixed with the last second of
// the one before (from 2004 smoothing to "as it arrives" the line read
// "44 ms ahead, off by 25 cm" for seconds after the key). The comparisons
// still waiting for the server were drawn under the old mode: they go too,
// and so does each player's last drawn step (the jump between the two
// modes' poses is not jitter).
func (o *others) restart(st *Strategy) {
	o.win = [wire.TicksPerSecond]othersTick{}
	o.cur = othersTick{}
	for k := range o.pend {
		o.pend[k].frame = -1
	}
	for q := range o.drawn {
		o.drawn[q].hasPrev, o.drawn[q].hasStep = false, false
	}
	o.measured, o.filled = st.windowKey(), 0
}

// isOther reports whether p is another player of a world with n players.
func (c *client) isOther(p, n int) bool { return p != c.player && p >= 0 && p < n }

// received takes the other players' states of a server packet for frame
// f (after the packet was read), at tick now.
func (o *others) received(st *Strategy, c *client, p *ServerPacket, f, now int) {
	w := c.w
	n := w.NumPlayers()
	if n < 2 {
		return
	}
	o.clock.SetDelay(float64(st.delayTicks()))
	o.clock.OnPacket(f, now)
	for k := int32(0); k < p.State.NumUpdates; k++ {
		u := &p.State.Updates[k]
		q := w.PlayerOf(int(u.Index))
		if !c.isOther(q, n) {
			continue
		}
		before := o.bufs[q].newest
		o.bufs[q].put(f, stateOf(u), now)
		if o.bufs[q].newest != before {
			o.drawn[q].fresh = true
		}
	}
}

// delayTicks is the interpolation delay the settings ask for, within what
// the state rings hold (half of them: the latency needs the rest).
func (st *Strategy) delayTicks() int {
	return min(max(st.cfg.Others.InterpDelayTicks+st.set.DelayNudge, 0), maxDelayTicks)
}

// maxDelayTicks bounds the interpolation delay, ticks (533 ms).
const maxDelayTicks = stateRingSize / 2

// simulatedHere reports whether the other players are simulated in the
// client's predicting world (4 and 5 with the whole-world scope), rather
// than drawn from the server's states.
func (c *client) simulatedHere() bool { return c.pred && c.world && !c.set.Others.kinematic() }

// begin runs at the start of the client's tick, before its predicted
// steps: the playout clock, the 2004 pull, and the drawn pose of every
// other player that is not simulated here.
func (o *others) begin(st *Strategy, c *client, ctx strategy.Context) {
	n := c.w.NumPlayers()
	if n < 2 {
		return
	}
	cfg := &st.cfg.Others
	now := ctx.Frame()
	o.clock.SetDelay(float64(st.delayTicks()))
	o.clock.Advance()
	o.view = -1
	if o.clock.Started() {
		o.view = quantizeView(math.Min(o.clock.Time(now), float64(now)))
	}
	mode := c.set.Others
	for q := range n {
		if !c.isOther(q, n) {
			continue
		}
		d := &o.drawn[q]
		b := &o.bufs[q]
		if mode == Others2004 && c.simulatedHere() && d.fresh {
			o.pull2004(st, c, q)
		}
		d.fresh = false
		if c.simulatedHere() {
			continue // drawn from the world after the steps (end)
		}
		d.held = false
		switch {
		case !mode.kinematic():
			// 4 and 5 without a world that simulates them: the mirror of
			// the server, which steps them with their last inputs.
			d.state, d.at, d.has = c.w.Cube(c.w.PlayerCube(q)), float64(c.w.Frame()), c.hasServer || b.newest >= 0
		case b.newest < 0:
			d.has = false
		case mode == OthersArrived:
			d.state, _ = b.get(b.newest)
			d.at, d.has = float64(b.newest), true
		case mode == OthersInterpolate:
			if o.view < 0 {
				d.has = false
				continue
			}
			s, at, ok := b.at(o.view)
			d.state, d.at, d.has = s, at, ok
			d.held = ok && at < o.view
		case mode == OthersExtrapolate:
			d.state, d.at, d.held = extrapolate(b, now, cfg.ExtrapolateLimitTicks)
			d.has = true
		}
		if d.held {
			o.cur.starved++
		}
	}
}

// extrapolate dead-reckons from the newest state toward frame now, but no
// further than limit ticks after that state arrived: then it holds, still.
func extrapolate(b *stateRing, now, limit int) (cubes.CubeState, float64, bool) {
	s, _ := b.get(b.newest)
	until := min(now, b.arrived+limit)
	h := max(until-b.newest, 0)
	dt := float64(h) / wire.TicksPerSecond
	out := s
	out.Position = s.Position.Add(s.LinearVelocity.Mul(dt))
	out.Orientation = geom.RotateBy(s.Orientation, s.AngularVelocity, dt)
	held := now > b.arrived+limit
	if held {
		out.LinearVelocity, out.AngularVelocity = mgl64.Vec3{}, mgl64.Vec3{}
	}
	return out, float64(b.newest + h), held
}

// pull2004 is the article's clientUpdate for another player: the client's
// simulated state moves toward the newest server state by the smoothing
// rule, and takes its velocities.
func (o *others) pull2004(st *Strategy, c *client, q int) {
	b := &o.bufs[q]
	target, ok := b.get(b.newest)
	if !ok {
		return
	}
	i := c.w.PlayerCube(q)
	cur := c.w.Cube(i)
	cfg := &st.cfg
	d := target.Position.Sub(cur.Position)
	switch dist := geom.Len(d); {
	case dist > cfg.SnapDistance:
		cur.Position, cur.Orientation = target.Position, target.Orientation
	case dist > cfg.SmoothDistance:
		cur.Position = cur.Position.Add(d.Mul(cfg.SmoothFraction))
		cur.Orientation = geom.Slerp(cur.Orientation, target.Orientation, cfg.SmoothFraction)
	}
	cur.LinearVelocity, cur.AngularVelocity = target.LinearVelocity, target.AngularVelocity
	_ = c.w.SetCube(i, cur)
}

// beforeStep runs before each predicted step of frame f of pw: the other
// players that are drawn, not simulated, are set where they are drawn
// (their inputs idle), and every other player's state is recorded for
// replays.
func (o *others) beforeStep(c *client, pw *cubes.World, f int, ins *cubes.Inputs) {
	n := pw.NumPlayers()
	if n < 2 {
		return
	}
	proxies := pw != c.w || !c.simulatedHere()
	r := &o.rec[f%len(o.rec)]
	r.frame = f
	for q := range n {
		if !c.isOther(q, n) {
			continue
		}
		i := pw.PlayerCube(q)
		if proxies {
			ins[q] = cubes.Input{}
			if d := &o.drawn[q]; d.has {
				_ = pw.SetCube(i, d.state)
			}
		}
		r.states[q] = pw.Cube(i)
	}
}

// replayStep runs before each replayed step of frame g: the other players
// are put back as they were when frame g was first predicted; but where
// the world simulates them with their inputs (4), the replay decides them
// (from the server's state at the correction's frame), and the record
// takes what it decided.
func (o *others) replayStep(c *client, pw *cubes.World, g int, ins *cubes.Inputs) {
	n := pw.NumPlayers()
	if n < 2 {
		return
	}
	r := &o.rec[g%len(o.rec)]
	if pw == c.w && c.set.Others == OthersPredict {
		r.frame = g
		for q := range n {
			if c.isOther(q, n) {
				r.states[q] = pw.Cube(pw.PlayerCube(q))
			}
		}
		return
	}
	if r.frame != g {
		return
	}
	for q := range n {
		if c.isOther(q, n) {
			ins[q] = cubes.Input{}
			_ = pw.SetCube(pw.PlayerCube(q), r.states[q])
		}
	}
}

// othersOff reports whether the server's state of another player at frame
// f differs from the client's prediction of it beyond the correction
// threshold, where the client predicts the other players (4): "inside the
// rewind-and-replay", their errors correct the world as the client's own
// player's do (counted apart: Stats.OthersCorrections).
func (st *Strategy) othersOff(c *client, p *ServerPacket, f int) bool {
	if !c.simulatedHere() || c.set.Others != OthersPredict {
		return false
	}
	r := &st.oth.rec[f%len(st.oth.rec)]
	if r.frame != f {
		return false
	}
	for k := range p.State.NumUpdates {
		u := &p.State.Updates[k]
		q := c.w.PlayerOf(int(u.Index))
		if !c.isOther(q, c.w.NumPlayers()) {
			continue
		}
		s := stateOf(u)
		if geom.Len(s.Position.Sub(r.states[q].Position)) > st.cfg.CorrectPosition ||
			geom.AngleBetween(s.Orientation, r.states[q].Orientation) > st.cfg.CorrectAngle {
			st.stats.OthersCorrections++
			return true
		}
	}
	return false
}

// skipOnApply reports whether a server update of cube i is not snapped
// into the predicting world at the present: another player drawn from the
// server's states or pulled toward them by the 2004 rule, never snapped.
func (c *client) skipOnApply(i int) bool {
	if !c.pred || !c.world || c.set.Others == OthersPredict {
		return false
	}
	q := c.w.PlayerOf(i)
	return q >= 0 && q != c.player
}

// end runs after the client's predicted steps: the drawn pose of the
// players simulated here, the figures of the tick, the window.
func (o *others) end(st *Strategy, c *client, ctx strategy.Context) {
	n := c.w.NumPlayers()
	if n < 2 {
		return
	}
	now := ctx.Frame()
	if st.windowKey() != o.measured {
		o.restart(st)
	}
	sim := c.simulatedHere()
	me := st.drawnMe(c)
	best := math.Inf(1)
	o.nearest = -1
	pc := &o.pend[c.ct%len(o.pend)]
	if sim && pc.frame != c.ct {
		pc.frame, pc.has = c.ct, 0
	}
	for q := range n {
		if !c.isOther(q, n) {
			continue
		}
		d := &o.drawn[q]
		if sim {
			d.state, d.at, d.has, d.held = c.w.Cube(c.w.PlayerCube(q)), float64(c.ct), true, false
			// Ahead of the server: compared when the server gets there.
			pc.pos[q] = st.drawnPose(c, q).Position
			pc.has |= 1 << q
		}
		if !d.has {
			d.hasPrev, d.hasStep = false, false
			continue
		}
		pos := st.drawnPose(c, q).Position
		if d.hasPrev {
			step := pos.Sub(d.prevPos)
			if d.hasStep {
				j := geom.Len(step.Sub(d.prevStep))
				o.cur.jitSq += float64(j * j)
				o.cur.jitN++
			}
			d.prevStep, d.hasStep = step, true
		}
		d.prevPos, d.hasPrev = pos, true
		if !sim && d.at <= float64(now) {
			o.compare(st, q, pos, d.at)
		}
		if c.player >= 0 {
			if dist := geom.Len(pos.Sub(me)); dist < best {
				best, o.nearest = dist, q
			}
		}
	}
	if o.nearest >= 0 {
		o.cur.pastSum += float64(now) - o.drawn[o.nearest].at
		o.cur.pastN++
	}
	// The comparisons that waited for the server to reach their frame.
	for f := now - len(o.pend) + 1; f <= now; f++ {
		if f < 0 {
			continue
		}
		pc := &o.pend[f%len(o.pend)]
		if pc.frame != f {
			continue
		}
		for q := range n {
			if pc.has&(1<<q) != 0 {
				o.compare(st, q, pc.pos[q], float64(f))
			}
		}
		pc.frame = -1
	}
	o.contact(st, c)
	o.roll(st, now)
}

// stateOfSeen is a quantized server state as the client decodes it: what
// the server's lag compensation rebuilds.
func stateOfSeen(s cubes.CubeState) cubes.CubeState {
	q := replication.QuantizeState(s.Position, s.Orientation, s.LinearVelocity, s.AngularVelocity)
	u := replication.StateUpdate{State: q, Interacting: s.Interacting}
	return stateOf(&u)
}
