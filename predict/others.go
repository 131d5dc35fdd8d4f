package predict

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/geom"
	"netcubes/snapshot"
	"netcubes/statesync"
	"netcubes/strategy"
	"netcubes/viewmodel"
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
//     playout clock locked to the server's packets (snapshot.Clock, the
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

// OthersMode is how a client draws the other players (`I`).
type OthersMode int

// The drawing modes of other players.
const (
	// OthersArrived draws the newest state as it arrives.
	OthersArrived OthersMode = iota + 1
	// OthersInterpolate draws a fixed time in the past from a buffer.
	OthersInterpolate
	// OthersExtrapolate dead-reckons from the newest state, 0.25 s at most
	// past the last packet.
	OthersExtrapolate
	// OthersPredict steps them with their last known inputs inside the
	// rewind-and-replay.
	OthersPredict
	// Others2004 simulates them and pulls them toward the server's states
	// by the article's smoothing rule.
	Others2004
	// NumOthersModes counts the modes.
	NumOthersModes = int(Others2004)
)

var othersNames = [...]string{"", "as it arrives", "interpolated", "extrapolated", "predicted (last inputs)", "2004 smoothing"}

// othersFlagNames are the values of -predict-others.
var othersFlagNames = []string{"arrived", "interpolate", "extrapolate", "predict", "2004"}

// String names the mode on the HUD.
func (m OthersMode) String() string {
	if m < OthersArrived || int(m) > NumOthersModes {
		return fmt.Sprintf("others(%d)", int(m))
	}
	return othersNames[m]
}

// kinematic reports whether the other players are proxies set where they
// are drawn (1-3), not simulated.
func (m OthersMode) kinematic() bool { return m <= OthersExtrapolate }

// AutoTag says which clients tag on their own (the bench's and the bots').
type AutoTag int

// The auto-tag settings.
const (
	AutoTagOff  AutoTag = iota // only the tag key
	AutoTagBots                // the bots' clients (2..)
	AutoTagAll                 // every client, the presenter's too (the bench)
	numAutoTags
)

var autoTagNames = []string{"off", "bots", "all"}

// String names the setting.
func (a AutoTag) String() string {
	if a < 0 || a >= numAutoTags {
		return fmt.Sprintf("autotag(%d)", int(a))
	}
	return autoTagNames[a]
}

// OthersSettings are the presenter's live choices about other players.
type OthersSettings struct {
	Others OthersMode
	// DelayNudge is added to OthersConfig.InterpDelayTicks (D / Shift+D),
	// ticks, within ±MaxDelayNudge.
	DelayNudge int
	// Compensate: the server's verdict on a tag that counts (and marks
	// disputes) is the lag-compensated one. Both are always computed.
	Compensate bool
	AutoTag    AutoTag
}

// MaxDelayNudge bounds OthersSettings.DelayNudge, ticks (±1 s).
const MaxDelayNudge = 60

// DefaultOthersSettings: interpolation (the article's advice: "interpolate
// their motion and accept that it is behind"), lag compensation on, the
// bots tag.
func DefaultOthersSettings() OthersSettings {
	return OthersSettings{Others: OthersInterpolate, Compensate: true, AutoTag: AutoTagBots}
}

// normalize puts every field in range.
func (o *OthersSettings) normalize() {
	if o.Others < OthersArrived || int(o.Others) > NumOthersModes {
		o.Others = OthersInterpolate
	}
	o.DelayNudge = min(max(o.DelayNudge, -MaxDelayNudge), MaxDelayNudge)
	if o.AutoTag < 0 || o.AutoTag >= numAutoTags {
		o.AutoTag = AutoTagOff
	}
}

// OthersConfig holds the tunables of other players and tags.
type OthersConfig struct {
	// InterpDelayTicks is how far behind the newest state the clock plays
	// the other players, ticks: three packet intervals plus a jitter
	// margin of two, snapshot interpolation's value at 60 packets a second
	// (snapshot.DefaultDelayTicks: 5 ticks, 83 ms), so two lost packets in
	// a row still leave a state to move toward. Less shows them fresher
	// and starves more.
	InterpDelayTicks int
	// ExtrapolateLimitTicks is how long after the last packet the
	// extrapolation runs on, ticks: 15, the article's 0.25 s. Longer runs a
	// player who stopped (or timed out) on into walls; shorter freezes it
	// at every burst of loss.
	ExtrapolateLimitTicks int
	// Clock is the playout clock's tuning (snapshot interpolation's).
	Clock snapshot.ClockConfig

	// TagReach is how close (m, centre to centre) another player must be
	// for a tag to hit: 3 m, a player's own edge (1.5 m) beyond touching,
	// so a tag needs no contact and a player moving 5 m/s crosses the
	// edge of the reach in a fraction of a round trip.
	TagReach float64
	// AutoTagRange is how close the nearest other player must be drawn for
	// an automatic tag, m: 1.5 × the reach, so the automatic tags fall
	// around its edge (hits and misses), where the verdicts can disagree.
	AutoTagRange float64
	// TagCooldownTicks is the least time between two tags of one client,
	// ticks (a quarter second). The server enforces it, which bounds the
	// tags a packet may carry (MaxTags) and the verdicts it sends back.
	TagCooldownTicks int
	// MaxRewindTicks is the furthest back the server rewinds for a tag,
	// ticks (1.5 s): the client's lead, its latency and its interpolation
	// delay on the terrible preset (about 50 ticks) with room to spare.
	// Counter-Strike's sv_maxunlag is 1 s; a claim beyond this is clamped
	// (a cheater cannot reach further into the past).
	MaxRewindTicks int
	// DisputeTicks is how long a disputed tag stays marked, ticks.
	DisputeTicks int
}

// DefaultOthersConfig returns the values above.
func DefaultOthersConfig() OthersConfig {
	return OthersConfig{
		InterpDelayTicks:      5,
		ExtrapolateLimitTicks: 15,
		Clock:                 snapshot.DefaultClockConfig(),
		TagReach:              3,
		AutoTagRange:          4.5,
		TagCooldownTicks:      15,
		MaxRewindTicks:        90,
		DisputeTicks:          90,
	}
}

// validate checks the fields a bad value would break.
func (c *OthersConfig) validate() error {
	switch {
	case c.InterpDelayTicks < 0 || c.InterpDelayTicks > stateRingSize/2:
		return fmt.Errorf("predict: InterpDelayTicks %d not in 0..%d", c.InterpDelayTicks, stateRingSize/2)
	case c.ExtrapolateLimitTicks < 0:
		return fmt.Errorf("predict: ExtrapolateLimitTicks must be ≥ 0")
	case c.TagCooldownTicks < 1 || c.MaxRewindTicks < 1 || c.MaxRewindTicks > maxViewBack || c.DisputeTicks < 0:
		return fmt.Errorf("predict: TagCooldownTicks ≥ 1, MaxRewindTicks 1..%d, DisputeTicks ≥ 0", maxViewBack)
	case !(c.TagReach > 0) || !(c.AutoTagRange >= 0):
		return fmt.Errorf("predict: TagReach must be > 0")
	}
	return nil
}

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

// pendingCmp is a drawn pose to compare with the server's truth once the
// server reaches the frame it represents (modes 4-5, ahead of the server).
type pendingCmp struct {
	frame int // −1: empty
	pos   [cubes.MaxPlayers]mgl64.Vec3
	has   uint8 // bit p: player p was drawn
}

// othersTick is one tick of the one-second window of the figures.
type othersTick struct {
	errSq, errMax      float64
	errN               int
	jitSq              float64
	jitN               int
	pastSum            float64 // ticks in the past of the nearest other player, summed
	pastN              int
	starved            int // ticks a drawn player was held (starved or stopped)
	contact, contCorrs int // ticks in contact with another player, corrections then
}

// others is the client's side of the other players.
type others struct {
	clock *snapshot.Clock
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
}

// othersRing is how many frames rec and pend hold: the client's lead and
// a replay's depth are far less.
const othersRing = 256

func (o *others) reset(st *Strategy) {
	if o.clock == nil {
		o.clock = snapshot.NewClock(st.cfg.Others.Clock)
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

// delayTicks is the interpolation delay the settings ask for.
func (st *Strategy) delayTicks() int {
	return max(st.cfg.Others.InterpDelayTicks+st.set.DelayNudge, 0)
}

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
	switch dist := d.Len(); {
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
		if s.Position.Sub(r.states[q].Position).Len() > st.cfg.CorrectPosition ||
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
				j := step.Sub(d.prevStep).Len()
				o.cur.jitSq += j * j
				o.cur.jitN++
			}
			d.prevStep, d.hasStep = step, true
		}
		d.prevPos, d.hasPrev = pos, true
		if !sim && d.at <= float64(now) {
			o.compare(st, q, pos, d.at)
		}
		if c.player >= 0 {
			if dist := pos.Sub(me).Len(); dist < best {
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

// drawnMe is where the View draws the client's own player.
func (st *Strategy) drawnMe(c *client) mgl64.Vec3 {
	s := c.drawnPlayer()
	p, _ := c.smooth.Rendered(c.me, s.Position, s.Orientation)
	return p
}

// drawnPose is where the View draws other player q: its drawn state, with
// the client's smoothing offset when the world simulates it.
func (st *Strategy) drawnPose(c *client, q int) cubes.CubeState {
	d := &st.oth.drawn[q]
	s := d.state
	if c.simulatedHere() {
		i := c.w.PlayerCube(q)
		s.Position, s.Orientation = c.smooth.Rendered(i, s.Position, s.Orientation)
	}
	return s
}

// compare measures a drawn position of player q against the server's
// exact state at frame t, when the truth is known (in one process).
func (o *others) compare(st *Strategy, q int, pos mgl64.Vec3, t float64) {
	tp, ok := st.truth.pose(t, q)
	if !ok {
		return
	}
	e := pos.Sub(tp).Len()
	o.cur.errSq += e * e
	o.cur.errN++
	o.cur.errMax = math.Max(o.cur.errMax, e)
}

// contactDistance is how close two players' centres are when they touch,
// m: the face-to-face distance (1.5 m) with a margin for tumbling edges.
const contactDistance = 1.9

// contact counts the ticks the client's player touches another player on
// the server, and the corrections of those ticks.
func (o *others) contact(st *Strategy, c *client) {
	corr := st.stats.Corrections
	newCorr := int(corr - o.lastCorr)
	o.lastCorr = corr
	if c.player < 0 {
		return
	}
	f, ok := st.truth.newest()
	if !ok {
		return
	}
	me, _ := st.truth.pose(float64(f), c.player)
	for q := range c.w.NumPlayers() {
		if !c.isOther(q, c.w.NumPlayers()) {
			continue
		}
		if p, ok := st.truth.pose(float64(f), q); ok && p.Sub(me).Len() < contactDistance {
			o.cur.contact++
			o.cur.contCorrs += newCorr
			return
		}
	}
}

// OthersStats are the figures of the other players over the last second,
// as the client draws them.
type OthersStats struct {
	ErrRMSCm, ErrMaxCm float64 // drawn vs the server at the frame it represents
	Compared           int     // comparisons in the window (0: no truth here)
	// PastMs is how far behind the server's present the nearest other
	// player is drawn (negative: ahead, predicted), ms; Nearest is that
	// player (0-based, −1: none).
	PastMs     float64
	Nearest    int
	JitterCm   float64 // RMS change of the drawn per-tick motion, cm per tick
	HeldTicks  int     // ticks a player was held (starved, or extrapolation stopped)
	ContactSec float64 // seconds of the window in contact with another player
	// ContactCorrPerSec is the client's corrections per second of contact.
	ContactCorrPerSec float64
	DelayMs           float64 // the interpolation delay the settings ask for
}

// add sums another tick (or window) into t; the largest error is kept.
func (t *othersTick) add(u *othersTick) {
	t.errSq += u.errSq
	t.errN += u.errN
	t.errMax = math.Max(t.errMax, u.errMax)
	t.jitSq += u.jitSq
	t.jitN += u.jitN
	t.pastSum += u.pastSum
	t.pastN += u.pastN
	t.starved += u.starved
	t.contact += u.contact
	t.contCorrs += u.contCorrs
}

// figures turns summed ticks into the figures.
func (t *othersTick) figures(st *Strategy) OthersStats {
	s := OthersStats{
		ErrRMSCm:  100 * math.Sqrt(t.errSq/float64(max(t.errN, 1))),
		ErrMaxCm:  100 * t.errMax,
		Compared:  t.errN,
		JitterCm:  100 * math.Sqrt(t.jitSq/float64(max(t.jitN, 1))),
		PastMs:    t.pastSum / float64(max(t.pastN, 1)) * 1000 / wire.TicksPerSecond,
		Nearest:   st.oth.nearest,
		HeldTicks: t.starved,
		DelayMs:   float64(st.delayTicks()) * 1000 / wire.TicksPerSecond,
	}
	s.ContactSec = float64(t.contact) / wire.TicksPerSecond
	if t.contact > 0 {
		s.ContactCorrPerSec = float64(t.contCorrs) / s.ContactSec
	}
	return s
}

// roll closes the tick into the one-second window and the run's totals,
// and recomputes the window's figures.
func (o *others) roll(st *Strategy, now int) {
	o.total.add(&o.cur)
	o.win[now%len(o.win)] = o.cur
	o.cur = othersTick{}
	var sum othersTick
	for k := range o.win {
		sum.add(&o.win[k])
	}
	st.stats.Others = sum.figures(st)
}

// OthersTotals are the other players' figures over the whole run (since
// the last reset), for the bench and the tests.
func (st *Strategy) OthersTotals() OthersStats { return st.oth.total.figures(st) }

// stateOfSeen is a quantized server state as the client decodes it: what
// the server's lag compensation rebuilds.
func stateOfSeen(s cubes.CubeState) cubes.CubeState {
	q := statesync.QuantizeState(s.Position, s.Orientation, s.LinearVelocity, s.AngularVelocity)
	u := statesync.StateUpdate{State: q, Interacting: s.Interacting}
	return stateOf(&u)
}

// otherAt returns where the View draws cube i when it is another player
// drawn by this file's rules.
func (st *Strategy) otherAt(i int) (cubes.CubeState, bool) {
	c := &st.cli
	q := c.w.PlayerOf(i)
	if q < 0 || q == c.player || q >= c.w.NumPlayers() || !st.oth.drawn[q].has {
		return cubes.CubeState{}, false
	}
	return st.drawnPose(c, q), true
}

// othersMarks adds the other players' marks to the view: the server's
// truth at its present (green, the ghost's colour: how far behind or ahead
// the drawn player is), when the truth is at hand, and the disputed tags
// (red: where the client saw the target, a line to where the server judged
// it).
func (st *Strategy) othersMarks(v *viewmodel.View, h float64) {
	c := &st.cli
	n := c.w.NumPlayers()
	if n < 2 {
		return
	}
	if f, ok := st.truth.newest(); ok {
		for q := range n {
			if !c.isOther(q, n) {
				continue
			}
			if s, ok := st.truth.at(f, q); ok {
				v.Marks = append(v.Marks, viewmodel.Mark{Kind: viewmodel.MarkTruth, Position: s.Position,
					Orientation: s.Orientation, HalfExtent: h})
			}
		}
	}
	for _, d := range st.tcli.disputes {
		if d.ticks > 0 {
			v.Marks = append(v.Marks, viewmodel.Mark{Kind: viewmodel.MarkDisputed, Position: d.at,
				Orientation: mgl64.QuatIdent(), HalfExtent: h, To: d.to})
		}
	}
}
