package physics

// Design note: the World owns every body in one slice, indexed by BodyID,
// in the order they were added. Body order is the order everything else is
// processed in, so it is part of what makes the simulation deterministic.
// This file holds the body type, the public API that reads and writes
// bodies (state, forces, impulses, wake) and the input checks that keep NaN
// out. The step itself is in step.go.
//
// Hostile input policy: every public method that takes a float checks it.
// Non-finite values (NaN, ±Inf) are rejected with ErrNonFinite and counted
// in Stats().RejectedInputs; the world is left unchanged. A finite input
// whose effect would overflow (for example an impulse of 1e308 on a light
// body) is rejected the same way. Positions beyond MaxCoordinate are
// rejected with ErrOutOfBounds. So a World never holds NaN or Inf, and
// since the step only multiplies bounded values, it never produces them.

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// BodyID names a body: its index in the order bodies were added, from 0.
type BodyID int32

// Ground is the BodyID that contact queries report for the ground plane.
// It is not a real body: State, SetState and the force functions reject it.
const Ground BodyID = -1

// Errors returned by the World's methods.
var (
	// ErrInvalidBody: the BodyID does not name a body of this world.
	ErrInvalidBody = errors.New("physics: invalid body id")
	// ErrNonFinite: an argument was NaN or infinite, or its effect would
	// have overflowed. The call changed nothing.
	ErrNonFinite = errors.New("physics: non-finite value rejected")
	// ErrOutOfBounds: a position was farther than MaxCoordinate from the
	// origin on some axis.
	ErrOutOfBounds = errors.New("physics: position out of bounds")
	// ErrInvalidShape: a box definition had a non-positive size or mass.
	ErrInvalidShape = errors.New("physics: invalid box definition")
	// ErrTooManyBodies: the world holds the maximum number of bodies.
	ErrTooManyBodies = errors.New("physics: too many bodies")
)

// maxBodies keeps body indices inside the bits that sort keys reserve for
// them (see contact.go): 2^24 - 2, far beyond the 901 the demo needs.
const maxBodies = 1<<24 - 2

// maxHalfExtent bounds a box's half extent in metres, so the broadphase
// grid never has to cover an absurd number of cells.
const maxHalfExtent = 1000

// State is the full dynamic state of a body: what the network sends and
// what the StateHash covers.
type State struct {
	// Position of the centre of mass, metres, z up.
	Position mgl64.Vec3
	// Orientation, a unit quaternion (body to world).
	Orientation mgl64.Quat
	// LinearVelocity of the centre of mass, m/s.
	LinearVelocity mgl64.Vec3
	// AngularVelocity in world coordinates, rad/s.
	AngularVelocity mgl64.Vec3
}

// BoxDef describes a box to add with AddBox.
type BoxDef struct {
	// HalfExtents are half the box's edge lengths along its local x, y, z,
	// in metres (0.2 for the 0.4 m cubes, 0.75 for the player).
	HalfExtents mgl64.Vec3
	// Density in kg/m³, used when Mass is 0. See DefaultDensity.
	Density float64
	// Mass in kg; when positive it overrides Density.
	Mass float64
	// Position, Orientation, LinearVelocity and AngularVelocity give the
	// initial State. The zero Orientation means identity.
	Position        mgl64.Vec3
	Orientation     mgl64.Quat
	LinearVelocity  mgl64.Vec3
	AngularVelocity mgl64.Vec3
	// MaxLinearSpeed (m/s) and MaxAngularSpeed (rad/s) clamp this body's
	// speeds; 0 means the Config's defaults.
	MaxLinearSpeed  float64
	MaxAngularSpeed float64
	// Asleep creates the body asleep (its velocities are ignored), for
	// bodies placed at rest, like the demo's grid of cubes on the ground: a
	// settled scene then costs nothing from the first step instead of
	// simulating everything until it falls asleep. It wakes like any
	// sleeping body (a touch, a force, a real state change); its contacts
	// are found on the step it wakes. Ignored when sleeping is disabled.
	Asleep bool
}

// body is one rigid box. Fields are grouped by the phase that uses them,
// and what a save copies comes first (Save reads 4 of a body's 8 cache
// lines instead of 6; see docs/design/physics-many-worlds.md).
type body struct {
	// state: everything a save copies
	pos  vec3
	q    quat
	v, w vec3
	// accumulated external force and torque, cleared by each Step
	force, torque vec3
	maxLin        float64
	maxAng        float64

	// sleeping
	awake      bool
	sleepTime  float64 // seconds spent under SleepSpeed
	island     int32   // sleeping island, or -1 while awake
	islandNext int32   // next body of the same sleeping island, or -1
	restPos    vec3    // pose when the body fell asleep, for SetState's tolerance
	restQ      quat

	contactHead int32 // first contact of this body's contact list, or -1
	solverIndex int32 // index into the solver's body array this step (0 = none)

	rot mat3 // q as a rotation matrix, kept in step with q

	// shape and mass
	halfExtents vec3
	radius      float64 // |halfExtents|: distance from centre to a corner
	mass        float64
	invMass     float64
	invInertia  vec3 // inverse principal moments, local frame

	// broadphase: the lowest point of the box itself, for the ground
	// test, and its speculative margin (SpeculativeDistance/2 plus how far
	// it can move in one step), by which its bounds are grown (the grown
	// bounds are in the broadphase's fat slice).
	minZ   float64
	margin float64
	// motion bounds for this step (see bodyBounds): acceleration from
	// gravity and forces, the reach of rotation, the angular speed and a
	// bound on the angular acceleration's size, the most the clamps allow,
	// and the bound on how far a point of the box moves (its sweep: 0
	// asleep).
	acc      vec3
	spin     float64
	wlen     float64
	alpha    float64
	maxSweep float64
	sweep    float64
}

// World is a physics world: a static ground plane at z = 0 and dynamic
// boxes. It is not safe for concurrent use; a simulation is deterministic
// only when it is driven from one goroutine in a fixed order anyway.
type World struct {
	cfg     Config
	gravity vec3

	bodies []body

	// awake lists the awake bodies in increasing index order. It is
	// rebuilt (by a scan of all bodies) only when awakeDirty is set, which
	// happens when something wakes or falls asleep.
	awake      []int32
	awakeDirty bool

	bp    broadphase
	cs    contactSet
	sol   solver
	isl   islands
	stats Stats

	// satHints[ci] is the axis that separated contact ci's boxes last
	// step (collideBoxes), by pool index. Not saved: a stale hint only
	// makes a test try a useless axis first, never changes its result.
	satHints []uint8

	// SetState's angle tolerance as a gap: 1 - cos(θ/2) ≈ θ²/8.
	angleTolGap float64

	// shapes fingerprints the bodies' shapes for Save and Restore
	// (shapeHash), valid until the next AddBox.
	shapes      uint64
	shapesValid bool

	// Bookkeeping for incremental saves (see save.go): gen counts saves
	// (each Save takes the current value, then increments it), and
	// bodyGen[i] is the gen at which body i's saved state last changed,
	// so that a save into a Saved that holds an earlier save of this
	// world copies only the bodies changed since. forced lists the
	// bodies with a force or torque waiting for the next Step (a save
	// copies those without looking at every body).
	gen     uint64
	bodyGen []uint64
	forced  []int32
}

// touched records that body i's saved state changes now (see gen).
func (w *World) touched(i int32) { w.bodyGen[i] = w.gen }

// NewWorld returns an empty world, or an error wrapping ErrInvalidConfig.
func NewWorld(cfg Config) (*World, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	w := &World{cfg: cfg, gravity: toVec(cfg.Gravity), gen: 1}
	// cos(θ/2) ≈ 1 - θ²/8 for small θ; avoids math.Cos so the threshold
	// is the same bits on every platform.
	w.angleTolGap = float64(cfg.SetStateAngleTolerance*cfg.SetStateAngleTolerance) / 8
	w.bp.init(cfg.CellSize)
	w.cs.init()
	w.isl.init()
	return w, nil
}

// Config returns the world's configuration.
func (w *World) Config() Config { return w.cfg }

// bodyCount returns the number of bodies.
func (w *World) bodyCount() int { return len(w.bodies) }

// AddBox adds a dynamic box, awake, and returns its id. The box's inertia
// is that of a solid box of uniform density: I_x = m/3·(hy² + hz²) and so
// on, with h the half extents.
func (w *World) AddBox(def BoxDef) (BodyID, error) {
	if len(w.bodies) >= maxBodies {
		return 0, ErrTooManyBodies
	}
	h := toVec(def.HalfExtents)
	if !isFinite3(h) || !isFinite(def.Density) || !isFinite(def.Mass) ||
		!isFinite(def.MaxLinearSpeed) || !isFinite(def.MaxAngularSpeed) {
		w.stats.RejectedInputs++
		return 0, ErrNonFinite
	}
	for k := 0; k < 3; k++ {
		if !(h.comp(k) > 0) || h.comp(k) > maxHalfExtent {
			return 0, ErrInvalidShape
		}
	}
	volume := 8 * h.x * h.y * h.z
	mass := def.Mass
	if !(mass > 0) {
		mass = def.Density * volume
	}
	if !(mass > 0) || math.IsInf(mass, 0) || def.MaxLinearSpeed < 0 || def.MaxAngularSpeed < 0 {
		return 0, ErrInvalidShape
	}
	q := def.Orientation
	if q == (mgl64.Quat{}) {
		q = mgl64.QuatIdent()
	}
	s := State{def.Position, q, def.LinearVelocity, def.AngularVelocity}
	qs, err := w.checkState(&s)
	if err != nil {
		return 0, err
	}

	b := body{
		pos:         toVec(s.Position),
		q:           qs,
		v:           toVec(s.LinearVelocity),
		w:           toVec(s.AngularVelocity),
		halfExtents: h,
		radius:      length(h),
		mass:        mass,
		invMass:     1 / mass,
		maxLin:      w.cfg.MaxLinearSpeed,
		maxAng:      w.cfg.MaxAngularSpeed,
		awake:       true,
		island:      -1,
		islandNext:  -1,
		contactHead: -1,
	}
	if def.MaxLinearSpeed > 0 {
		b.maxLin = def.MaxLinearSpeed
	}
	if def.MaxAngularSpeed > 0 {
		b.maxAng = def.MaxAngularSpeed
	}
	hh := vec3{float64(h.x * h.x), float64(h.y * h.y), float64(h.z * h.z)}
	b.invInertia = vec3{
		3 / (mass * (hh.y + hh.z)),
		3 / (mass * (hh.x + hh.z)),
		3 / (mass * (hh.x + hh.y)),
	}
	b.v = clampLength(b.v, b.maxLin)
	b.w = clampLength(b.w, b.maxAng)
	b.rot = rotationMatrix(b.q)
	w.bodies = append(w.bodies, b)
	w.bodyGen = append(w.bodyGen, w.gen)
	w.shapesValid = false
	w.bp.fat = append(w.bp.fat, aabb{})
	w.bp.balls = append(w.bp.balls, ball{})
	w.awakeDirty = true
	id := BodyID(len(w.bodies) - 1)
	if def.Asleep && w.cfg.EnableSleep {
		w.startAsleep(id)
	}
	return id, nil
}

// startAsleep puts a new body to sleep in an island of its own.
func (w *World) startAsleep(id BodyID) {
	isl := w.allocIsland()
	w.isl.sleeping++
	b := &w.bodies[id]
	w.isl.list[isl].head = int32(id)
	w.isl.list[isl].size = 1
	b.island = isl
	b.islandNext = -1
	b.awake = false
	b.v, b.w = vec3{}, vec3{}
	b.restPos, b.restQ = b.pos, b.q
	w.setBounds(int32(id), 0)
	w.bp.sleepingDirty = true
}

// get returns the body named by id, or nil.
func (w *World) get(id BodyID) *body {
	if id < 0 || int(id) >= len(w.bodies) {
		return nil
	}
	return &w.bodies[id]
}

// State returns the body's state; the zero State for an invalid id.
func (w *World) State(id BodyID) State {
	b := w.get(id)
	if b == nil {
		return State{}
	}
	return State{b.pos.mgl(), b.q.mgl(), b.v.mgl(), b.w.mgl()}
}

// Position returns the body's position (the zero vector for an invalid
// id): State's first field, without building the rest, for callers that
// scan every body.
func (w *World) Position(id BodyID) mgl64.Vec3 {
	if b := w.get(id); b != nil {
		return b.pos.mgl()
	}
	return mgl64.Vec3{}
}

// halfExtents returns the body's half extents in metres (zero for an
// invalid id).
func (w *World) halfExtents(id BodyID) mgl64.Vec3 {
	if b := w.get(id); b != nil {
		return b.halfExtents.mgl()
	}
	return mgl64.Vec3{}
}

// Mass returns the body's mass in kg (0 for an invalid id).
func (w *World) Mass(id BodyID) float64 {
	if b := w.get(id); b != nil {
		return b.mass
	}
	return 0
}

// IsAwake reports whether the body is awake (simulated each step).
func (w *World) IsAwake(id BodyID) bool {
	b := w.get(id)
	return b != nil && b.awake
}

// checkState validates s and returns its orientation as a unit quaternion.
// A quaternion is renormalized only when it is measurably off unit length,
// so a caller that passes an already-normalized quaternion (like the
// network's dequantizer) gets exactly its bits back from State.
func (w *World) checkState(s *State) (quat, error) {
	q := fromMgl(s.Orientation)
	if !isFinite3(toVec(s.Position)) || !isFinite3(toVec(s.LinearVelocity)) || !isFinite3(toVec(s.AngularVelocity)) ||
		!isFinite(q.w) || !isFinite(q.x) || !isFinite(q.y) || !isFinite(q.z) {
		w.stats.RejectedInputs++
		return quat{}, ErrNonFinite
	}
	for k := 0; k < 3; k++ {
		if math.Abs(s.Position[k]) > MaxCoordinate {
			w.stats.RejectedInputs++
			return quat{}, ErrOutOfBounds
		}
	}
	n2 := qdot(q, q)
	if !(n2 > 1e-12) || n2 > 1e300 {
		w.stats.RejectedInputs++
		return quat{}, ErrNonFinite
	}
	if math.Abs(n2-1) > 1e-12 {
		q = qnormalize(q)
	}
	return q, nil
}

// SetState sets the body's full state, for example to snap it to a state
// received from the network.
//
// Whether it wakes the body depends on how big the change is:
//
//   - If the new state is within tolerance of the body's reference pose
//     (Config.SetStatePositionTolerance, SetStateAngleTolerance) and the
//     new linear speed and the speed |ω|·r of its fastest point are both
//     under SetStateSpeedTolerance, the change is "no real change": the
//     state is written exactly as given, but a sleeping body stays asleep
//     and an awake body keeps its sleep timer running.
//   - Otherwise the body and its whole island wake up and its sleep timer
//     restarts.
//
// The reference pose of a sleeping body is where it fell asleep, not its
// current pose, so a series of small sets cannot creep a sleeping body
// further than the tolerance without waking it. The reference of an awake
// body is its current pose.
//
// Why: in the "quantize both sides" mode every body is set to its own
// quantized state before every step. Quantization moves a body by at most
// 0.12 mm and its orientation by a few thousandths of a degree, far inside
// the tolerance, so a resting, sleeping world stays asleep and costs
// nothing; a correction from the network (a cube that really is somewhere
// else) is larger and wakes it.
//
// The orientation is renormalized when it is not unit length; a zero,
// NaN or infinite value is rejected (ErrNonFinite), as is a position
// beyond MaxCoordinate (ErrOutOfBounds). Velocities above the body's speed
// clamps are stored as given and clamped by the next Step.
func (w *World) SetState(id BodyID, s State) error {
	b := w.get(id)
	if b == nil {
		return ErrInvalidBody
	}
	q, err := w.checkState(&s)
	if err != nil {
		return err
	}
	refPos, refQ := b.pos, b.q
	if !b.awake {
		refPos, refQ = b.restPos, b.restQ
	}
	p, v, av := toVec(s.Position), toVec(s.LinearVelocity), toVec(s.AngularVelocity)
	small := w.withinTolerance(b, refPos, refQ, p, q, v, av)
	b.pos, b.q, b.v, b.w = p, q, v, av
	b.rot = rotationMatrix(q)
	w.touched(int32(id))
	if !small {
		w.wake(b)
		b.sleepTime = 0
	}
	return nil
}

// withinTolerance implements SetState's "no real change" test.
func (w *World) withinTolerance(b *body, refPos vec3, refQ quat, p vec3, q quat, v, av vec3) bool {
	c := &w.cfg
	tp := c.SetStatePositionTolerance
	if lengthSq(sub(p, refPos)) > float64(tp*tp) {
		return false
	}
	// The rotation between two unit quaternions has angle θ with
	// cos(θ/2) = |q1·q2|; 1 - cos(θ/2) ≈ θ²/8.
	if 1-math.Abs(qdot(q, refQ)) > w.angleTolGap {
		return false
	}
	ts := c.SetStateSpeedTolerance
	if lengthSq(v) > float64(ts*ts) {
		return false
	}
	wr := length(av) * b.radius
	return wr <= ts
}

// ApplyForce adds a force (N) at the body's centre of mass for the next
// Step only. A non-zero force wakes the body's island; a zero force is a
// no-op that does not wake it.
func (w *World) ApplyForce(id BodyID, f mgl64.Vec3) error {
	return w.applyForceTorque(id, toVec(f), vec3{})
}

// ApplyTorque adds a torque (N·m, world axes) for the next Step.
func (w *World) ApplyTorque(id BodyID, t mgl64.Vec3) error {
	return w.applyForceTorque(id, vec3{}, toVec(t))
}

func (w *World) applyForceTorque(id BodyID, f, t vec3) error {
	b := w.get(id)
	if b == nil {
		return ErrInvalidBody
	}
	if !isFinite3(f) || !isFinite3(t) {
		w.stats.RejectedInputs++
		return ErrNonFinite
	}
	if f == (vec3{}) && t == (vec3{}) {
		return nil
	}
	nf, nt := add(b.force, f), add(b.torque, t)
	// The step turns force into acceleration (F/m, I⁻¹τ): refuse a force
	// whose acceleration would overflow, not just one that does.
	maxInvI := maxf(b.invInertia.x, maxf(b.invInertia.y, b.invInertia.z))
	if !isFinite3(scale(nf, b.invMass)) || !isFinite3(scale(nt, maxInvI)) {
		w.stats.RejectedInputs++
		return ErrNonFinite
	}
	if b.force == (vec3{}) && b.torque == (vec3{}) {
		w.forced = append(w.forced, int32(id))
	}
	b.force, b.torque = nf, nt
	w.wake(b)
	return nil
}

// applyLinearImpulse changes the body's velocity at once by j/m (j in
// N·s) and wakes it; the result is clamped to the body's speed limit. The
// game pushes with forces (ApplyForce): the tests kick bodies with it.
func (w *World) applyLinearImpulse(id BodyID, j mgl64.Vec3) error {
	b := w.get(id)
	if b == nil {
		return ErrInvalidBody
	}
	lin := toVec(j)
	if !isFinite3(lin) {
		w.stats.RejectedInputs++
		return ErrNonFinite
	}
	if lin == (vec3{}) {
		return nil
	}
	v := madd(b.v, b.invMass, lin)
	if !isFinite3(v) {
		w.stats.RejectedInputs++
		return ErrNonFinite
	}
	b.v = clampLength(v, b.maxLin)
	w.touched(int32(id))
	w.wake(b)
	return nil
}

// wake wakes b's sleeping island, if it is asleep.
func (w *World) wake(b *body) {
	if !b.awake {
		w.wakeIsland(b.island)
	}
}

// SetContactSoftness changes, live, what makes contacts soft: the springs'
// frequency and damping ratio (ContactHertz, ContactDampingRatio) and the
// push-out cap (MaxPushOutSpeed), as Validate would check them. State
// synchronization's "softer contacts" setting turns them down on a running
// world, as the original sync demo softened ODE's ERP, CFM and maximum
// correcting velocity. A save taken before the change no longer restores
// (it is of another configuration: ErrSavedMismatch).
func (w *World) SetContactSoftness(hertz, dampingRatio, maxPushOut float64) error {
	c := w.cfg
	c.ContactHertz, c.ContactDampingRatio, c.MaxPushOutSpeed = hertz, dampingRatio, maxPushOut
	if err := c.Validate(); err != nil {
		return err
	}
	w.cfg = c
	return nil
}
