package cubes

import (
	"fmt"
	"hash/fnv"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/physics"
)

// Player is the index of player 1's cube; cubes 1..GridSide² are the grid,
// and players 2..Players come after the grid (PlayerCube), so a one-player
// world is the same 901 cubes, in the same order, as it always was.
const Player = 0

// CubeState is one cube's networked state.
type CubeState struct {
	Position        mgl64.Vec3 // m
	Orientation     mgl64.Quat // unit quaternion
	LinearVelocity  mgl64.Vec3 // m/s
	AngularVelocity mgl64.Vec3 // rad/s
	Interacting     bool
}

// meta is the game state of a cube beyond its rigid body.
type meta struct {
	interacting bool
	restTicks   int // consecutive ticks below the rest speed
	holdTicks   int // ticks at rest since the cube last became interacting
}

// World is the cube world.
type World struct {
	cfg   Config
	phys  *physics.World
	ids   []physics.BodyID // ids[i] is cube i's body; cube 0 is the player
	half  []float64        // half extents
	meta  []meta
	frame int
	// players[p] is the cube of player p+1; isPlayer marks them.
	players  []int
	isPlayer []bool

	pairs []physics.ContactPair // scratch
	near  []physics.BodyID      // scratch of applyKatamari
}

// NewWorld builds the scene: the player above the grid centre and the grid
// of cubes resting on the ground.
func NewWorld(cfg Config, pcfg physics.Config) (*World, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Players == 0 {
		cfg.Players = 1 // the zero value: the original one-player demo
	}
	phys, err := physics.NewWorld(pcfg)
	if err != nil {
		return nil, err
	}
	w := &World{cfg: cfg, phys: phys}
	add := func(size float64, pos mgl64.Vec3, asleep bool) error {
		h := size / 2
		id, err := phys.AddBox(physics.BoxDef{
			Asleep:      asleep,
			HalfExtents: mgl64.Vec3{h, h, h},
			Density:     physics.DefaultDensity, // equal density: the player is (1.5/0.4)³ ≈ 53 times a cube
			Position:    pos,
			Orientation: mgl64.QuatIdent(),
		})
		if err != nil {
			return err
		}
		// Contact pairs name bodies by id; the world relies on body i
		// being cube i.
		if id != physics.BodyID(len(w.ids)) {
			return fmt.Errorf("cubes: body id %d for cube %d", id, len(w.ids))
		}
		w.ids = append(w.ids, id)
		w.half = append(w.half, h)
		w.meta = append(w.meta, meta{})
		return nil
	}
	if err := add(cfg.PlayerSize, cfg.PlayerStart, false); err != nil {
		return nil, err
	}
	w.players = append(w.players, Player)
	n := cfg.GridSide
	// The grid is centred on the origin: with 30 cubes at 1 m spacing the
	// centres run from −14.5 to +14.5 m.
	off := float64(-float64(n-1) / 2 * cfg.GridSpacing)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			pos := mgl64.Vec3{off + float64(float64(i)*cfg.GridSpacing), off + float64(float64(j)*cfg.GridSpacing), cfg.CubeSize / 2}
			// The grid is placed exactly at rest, so it starts asleep and
			// costs nothing until the player reaches it.
			if err := add(cfg.CubeSize, pos, true); err != nil {
				return nil, err
			}
		}
	}
	for p := 1; p < cfg.Players; p++ {
		w.players = append(w.players, len(w.ids))
		if err := add(cfg.PlayerSize, PlayerStart(cfg, p), false); err != nil {
			return nil, err
		}
	}
	w.isPlayer = make([]bool, len(w.ids))
	for _, i := range w.players {
		w.isPlayer[i] = true
		w.meta[i].interacting = true
	}
	return w, nil
}

// NumPlayers is the number of players (1..MaxPlayers).
func (w *World) NumPlayers() int { return len(w.players) }

// PlayerCube is the cube of player p (0-based: 0 is player 1).
func (w *World) PlayerCube(p int) int { return w.players[p] }

// IsPlayer reports whether cube i is a player's cube.
func (w *World) IsPlayer(i int) bool { return w.isPlayer[i] }

// PlayerOf is the player (0-based) whose cube is i, or −1.
func (w *World) PlayerOf(i int) int { return PlayerOf(w.cfg, i) }

// NumCubes is the number of cubes, the player included (901).
func (w *World) NumCubes() int { return len(w.ids) }

// Frame is the number of Steps taken.
func (w *World) Frame() int { return w.frame }

// SetFrame sets the frame counter. The player's wobble and bobbing follow
// the frame number, so a receiver that starts simulating in the middle of a
// session (a strategy switched on at frame F) sets its fresh world to F
// instead of replaying F idle steps.
func (w *World) SetFrame(f int) {
	if f >= 0 {
		w.frame = f
	}
}

// Config returns the world's configuration.
func (w *World) Config() Config { return w.cfg }

// Physics exposes the rigid-body world (statistics, contact impulses).
func (w *World) Physics() *physics.World { return w.phys }

// HalfExtent is half the edge length of cube i, m.
func (w *World) HalfExtent(i int) float64 { return w.half[i] }

// BodyID is the physics body of cube i.
func (w *World) BodyID(i int) physics.BodyID { return w.ids[i] }

// Cube returns cube i's state.
func (w *World) Cube(i int) CubeState {
	s := w.phys.State(w.ids[i])
	return CubeState{
		Position:        s.Position,
		Orientation:     s.Orientation,
		LinearVelocity:  s.LinearVelocity,
		AngularVelocity: s.AngularVelocity,
		Interacting:     w.meta[i].interacting,
	}
}

// States appends every cube's state to dst and returns it.
func (w *World) States(dst []CubeState) []CubeState {
	for i := range w.ids {
		dst = append(dst, w.Cube(i))
	}
	return dst
}

// AtRest reports whether cube i has been slow for RestFrames ticks.
func (w *World) AtRest(i int) bool { return w.meta[i].restTicks >= w.cfg.RestFrames }

// Interacting reports whether cube i is interacting (drawn red).
func (w *World) Interacting(i int) bool { return w.meta[i].interacting }

// SetCube snaps cube i to s. The physics wakes the body only if the state
// really changed (see physics.World.SetState), so re-applying a cube's own
// quantized state keeps a resting world asleep. A cube set to a moving state
// is no longer at rest.
func (w *World) SetCube(i int, s CubeState) error {
	if i < 0 || i >= len(w.ids) {
		return fmt.Errorf("cubes: no cube %d", i)
	}
	if err := w.phys.SetState(w.ids[i], physics.State{
		Position:        s.Position,
		Orientation:     s.Orientation,
		LinearVelocity:  s.LinearVelocity,
		AngularVelocity: s.AngularVelocity,
	}); err != nil {
		return err
	}
	m := &w.meta[i]
	if !w.slow(i, s.LinearVelocity, s.AngularVelocity) {
		m.restTicks = 0
	}
	if !w.isPlayer[i] {
		if s.Interacting && !m.interacting {
			m.holdTicks = 0
		}
		m.interacting = s.Interacting
	}
	return nil
}

// SetStates snaps every cube; states must hold NumCubes entries.
func (w *World) SetStates(states []CubeState) error {
	if len(states) != len(w.ids) {
		return fmt.Errorf("cubes: %d states for %d cubes", len(states), len(w.ids))
	}
	for i := range states {
		if err := w.SetCube(i, states[i]); err != nil {
			return err
		}
	}
	return nil
}

// slow reports whether the linear speed and the speed of the fastest point
// (|ω|·√3·h for a cube) are both under the rest speed.
func (w *World) slow(i int, v, omega mgl64.Vec3) bool {
	r := w.cfg.RestSpeed
	edge := length(omega) * w.half[i] * math.Sqrt(3)
	return length(v) < r && edge < r
}

// Step advances the world by one 1/60 s tick with input in for player 1
// and the other players idle.
func (w *World) Step(in Input) { w.StepAll(&Inputs{in}) }

// StepAll advances the world by one 1/60 s tick, each player under its own
// input (ins[p] for player p+1; entries past NumPlayers are ignored). The
// players' forces are applied in player order, so the same inputs always
// add up the same way.
func (w *World) StepAll(ins *Inputs) {
	for p, pc := range w.players {
		in := ins[p]
		w.applyPlayerForces(pc, in)
		if in.Blow {
			w.applyBlow(p, pc)
		}
		if in.Katamari {
			w.applyKatamari(pc)
		}
	}
	w.phys.Step()
	w.frame++
	w.updateRest()
	w.spreadInteraction()
}

// applyPlayerForces pushes, rolls, wobbles and rights the player whose
// cube is pc.
func (w *World) applyPlayerForces(pc int, in Input) {
	var dir mgl64.Vec3
	if in.Left {
		dir[0]--
	}
	if in.Right {
		dir[0]++
	}
	if in.Up {
		dir[1]++
	}
	if in.Down {
		dir[1]--
	}
	if dir == (mgl64.Vec3{}) {
		return
	}
	dir = normalize(dir)
	id := w.ids[pc]
	s := w.phys.State(id)
	m := w.phys.Mass(id)
	h := w.half[pc]
	c := &w.cfg

	// Pushing against the current horizontal velocity doubles the force,
	// as in the original: the player brakes and turns briskly.
	f := float64(c.MoveAccel * m) // rounded before the doubling below (see exact.go)
	along := dot(dir, mgl64.Vec3{s.LinearVelocity[0], s.LinearVelocity[1], 0})
	if along < 0 {
		f *= 2
	} else if c.TopSpeed > 0 {
		f *= math.Max(0, 1-along/c.TopSpeed)
	}
	w.phys.ApplyForce(id, dir.Mul(f))

	// Roll about the horizontal axis at right angles to the push
	// (ẑ × dir): the leading edge dips and the cube tips over it.
	axis := cross(mgl64.Vec3{0, 0, 1}, dir)
	w.phys.ApplyTorque(id, axis.Mul(c.RollAccel*m*h))

	// Wobble: a sideways push following a triangle wave in the frame
	// count (no sin in the simulation: transcendental functions can
	// differ between platforms, integer arithmetic cannot).
	if c.WobbleAccel != 0 && c.WobblePeriod > 1 {
		p := w.frame % c.WobblePeriod
		half := c.WobblePeriod / 2
		tri := float64(min(p, c.WobblePeriod-p))/float64(half)*2 - 1 // −1..1
		side := mgl64.Vec3{-dir[1], dir[0], 0}
		w.phys.ApplyForce(id, side.Mul(tri*c.WobbleAccel*m))
	}

	// Upright: turn the most upward of the six face normals toward +z.
	if c.UprightAccel != 0 {
		up := uppermostAxis(s.Orientation)
		w.phys.ApplyTorque(id, cross(up, mgl64.Vec3{0, 0, 1}).Mul(c.UprightAccel*m*h))
	}
}

// uppermostAxis is the body's face normal (±x, ±y, ±z in body space,
// rotated to world space) that points most nearly up.
func uppermostAxis(q mgl64.Quat) mgl64.Vec3 {
	best := mgl64.Vec3{}
	bestZ := -2.0
	for _, a := range [3]mgl64.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
		n := rotate(q, a)
		if n[2] < 0 {
			n = n.Mul(-1)
		}
		if n[2] > bestZ {
			best, bestZ = n, n[2]
		}
	}
	return best
}

// accelToward is min(strength/d², limit): the 1/d² falloff of the
// original's blow and katamari fields, capped so a cube at d ≈ 0 does not
// receive an infinite kick.
func accelToward(strength, limit, d float64) float64 {
	return math.Min(strength/(d*d), limit)
}

// applyBlow pushes cubes near a point on the ground under player p (cube
// pc) away from it, lifts the player so it hovers, and makes it bob. Other
// players are not blown: they are pushed only by what they touch.
func (w *World) applyBlow(player, pc int) {
	c := &w.cfg
	pid := w.ids[pc]
	ps := w.phys.State(pid)
	origin := mgl64.Vec3{ps.Position[0], ps.Position[1], c.BlowOriginZ}
	for i := 1; i < len(w.ids); i++ {
		if w.isPlayer[i] {
			continue
		}
		p := w.phys.State(w.ids[i]).Position
		d := p.Sub(origin)
		dist := length(d)
		if dist > c.BlowRadius || dist < 1e-6 {
			continue
		}
		a := accelToward(c.BlowStrength, c.BlowCap, dist)
		w.phys.ApplyForce(w.ids[i], d.Mul(a*w.phys.Mass(w.ids[i])/dist))
	}
	// The lift: the same falloff, measured from a point BlowLiftOffset
	// lower, as a force rather than an acceleration.
	d := ps.Position.Sub(origin)
	d[2] -= c.BlowLiftOffset
	if dist := length(d); dist < c.BlowRadius && dist > 1e-6 {
		w.phys.ApplyForce(pid, d.Mul(accelToward(c.BlowStrength, c.BlowCap, dist)/dist))
	}
	w.bob(pid, player, ps)
}

// tri is a triangle wave of period ticks with phase offset, in −1..1: the
// bobbing's smooth-enough oscillation without sin in the simulation.
func tri(frame, period, phase int) float64 {
	p := (frame + phase) % period
	return float64(4*math.Abs(float64(p)/float64(period)-0.5)) - 1
}

// bob makes the hovering player wobble, stay upright and slow down, as the
// original does while blowing. Each player's waves are shifted by a few
// ticks (bobPhaseTicks), so two players hovering side by side do not bob
// in step.
func (w *World) bob(pid physics.BodyID, player int, s physics.State) {
	c := &w.cfg
	f := w.frame + player*bobPhaseTicks
	wave := func(phase int) float64 {
		return tri(f, 126, phase) + tri(f, 251, phase*2) + float64(0.5*tri(f, 13, phase))
	}
	w.phys.ApplyForce(pid, mgl64.Vec3{wave(10), wave(40), wave(70)}.Mul(c.BobForce))
	w.phys.ApplyTorque(pid, mgl64.Vec3{wave(20), wave(50), wave(80)}.Mul(c.BobTorque))
	// Upright: turn the body's z axis back toward +z. |up × z| is the sine
	// of the tilt, close enough to the angle for the small tilts of a hover.
	up := rotate(s.Orientation, mgl64.Vec3{0, 0, 1})
	w.phys.ApplyTorque(pid, cross(up, mgl64.Vec3{0, 0, 1}).Mul(c.BobUpright))
	s.LinearVelocity[0] *= c.BobDampLinear
	s.LinearVelocity[1] *= c.BobDampLinear
	s.LinearVelocity[2] *= c.BobDampVertical
	s.AngularVelocity = s.AngularVelocity.Mul(c.BobDampAngular)
	w.phys.SetState(pid, s)
}

// applyKatamari pulls cubes around the player whose cube is pc toward its
// centre (the grid's cubes only: players are not pulled into each other's
// balls).
func (w *World) applyKatamari(pc int) {
	c := &w.cfg
	centre := w.phys.Position(w.ids[pc])
	// Most cubes are far from the player: reject them on the squared
	// distance, with a little slack so that every cube the exact test
	// below would take is still tested.
	reach2 := c.PullMax * c.PullMax * 1.001
	// Only the bodies near the player, from the physics' grids (in index
	// order, so forces and wake-ups happen in the same order as a pass
	// over every cube would make them): the pass read 900 scattered
	// bodies for the few dozen in reach.
	w.near = w.phys.BodiesNear(centre, c.PullMax*1.001, w.near[:0])
	for _, id := range w.near {
		i := int(id)
		if w.isPlayer[i] {
			continue
		}
		p := w.phys.Position(w.ids[i])
		d := centre.Sub(p)
		if dot(d, d) > reach2 {
			continue
		}
		dist := length(d)
		if dist < c.PullMin || dist > c.PullMax {
			continue
		}
		a := accelToward(c.PullStrength, c.PullCap, dist)
		w.phys.ApplyForce(w.ids[i], d.Mul(a*w.phys.Mass(w.ids[i])/dist))
	}
}

// updateRest counts how long each cube has been slow and lets interacting
// cubes that have rested for InteractionHold ticks turn grey.
func (w *World) updateRest() {
	for i := range w.ids {
		m := &w.meta[i]
		if !w.phys.IsAwake(w.ids[i]) {
			m.restTicks++ // a sleeping body is at rest by definition
		} else {
			s := w.phys.State(w.ids[i])
			if w.slow(i, s.LinearVelocity, s.AngularVelocity) {
				m.restTicks++
			} else {
				m.restTicks = 0
			}
		}
		// Saturate so the counters never overflow on a long run.
		m.restTicks = min(m.restTicks, 1<<20)
		if w.isPlayer[i] {
			continue
		}
		if m.interacting && m.restTicks >= w.cfg.RestFrames {
			m.holdTicks++
			if m.holdTicks >= w.cfg.InteractionHold {
				m.interacting = false
			}
		}
	}
}

// spreadInteraction makes cubes touching a moving interacting cube (or the
// moving player) interacting. Only moving cubes spread it: a settled pile of
// red cubes would otherwise keep re-infecting itself and never turn grey.
// Pairs come in the physics' deterministic order; a cube infected in this
// pass spreads onward only from the next tick, one contact hop per tick.
func (w *World) spreadInteraction() {
	w.pairs = w.phys.ContactPairs(w.pairs[:0])
	n := len(w.ids)
	for _, p := range w.pairs {
		if p.B == physics.Ground {
			continue
		}
		a, b := int(p.A), int(p.B)
		if a >= n || b >= n {
			continue
		}
		// Decide from the state before this pass.
		spreadA := w.meta[a].interacting && w.meta[a].restTicks < w.cfg.RestFrames
		spreadB := w.meta[b].interacting && w.meta[b].restTicks < w.cfg.RestFrames
		if spreadA {
			w.infect(b)
		}
		if spreadB {
			w.infect(a)
		}
	}
}

func (w *World) infect(i int) {
	m := &w.meta[i]
	if !m.interacting {
		m.interacting = true
	}
	m.holdTicks = 0
}

// StateHash hashes the whole world: every body's physics state bits, each
// cube's interaction and rest counters, and the frame number. Two worlds
// with equal hashes are, for every purpose of the demo, identical.
func (w *World) StateHash() uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(v uint64) {
		for k := range buf {
			buf[k] = byte(v >> (8 * k))
		}
		h.Write(buf[:])
	}
	put(w.phys.StateHash())
	put(uint64(w.frame))
	for _, m := range w.meta {
		b := uint64(m.restTicks)<<32 | uint64(m.holdTicks)<<1
		if m.interacting {
			b |= 1
		}
		put(b)
	}
	return h.Sum64()
}
