package physics

// Design note: the contact solver, in the "soft step" style of Box2D v3
// (Erin Catto, "Solver2D", box2d.org/posts/2024/02/solver2d, and Box2D
// v3's solver). One Step of dt is cut into n substeps of h = dt/n, and
// each substep runs:
//
//  1. integrate velocities: v += h·(g + F/m), ω += h·I⁻¹·τ, then clamp;
//  2. warm start: apply the impulses each contact ended the previous
//     substep (or step) with, so the solver starts near the answer;
//  3. solve with bias: for each contact point, compute the impulse that
//     makes the approach speed along the normal zero, plus a "soft" push
//     that removes overlap like a damped spring, and clamp the accumulated
//     impulse to be non-negative (contacts push, never pull);
//  4. integrate positions: x += h·v, q += ½·h·ω⊗q;
//  5. relax: solve again without the push-out bias. The bias added speed
//     only to move bodies apart; relaxing removes that speed again, so
//     push-out does not launch bodies. Friction is solved here (as in
//     Box2D v3), once the substep's normal impulses are known.
//
// After the substeps: restitution (if any), then the impulses are stored
// in the manifolds for the next step's warm start.
//
// Positions change only in step 4, and collision is not re-run per
// substep. So the separation of a contact point during the substeps is
// updated from the bodies' motion since the step began:
//
//	s = s0 + n·(Δp_B + ΔR_B·r_B − Δp_A − ΔR_A·r_A) − n·(r_B − r_A)
//
// where s0 is the separation the narrowphase measured, r the anchors at
// the start of the step and Δp, ΔR the change of position and rotation.
//
// Speculative contacts: when s > 0 (a gap), the point lets the bodies
// approach at up to s/h this substep: exactly closing the gap, never
// passing through. That is the whole anti-tunnelling mechanism, and it is
// rigid (no softness), because it describes a collision that has not
// happened yet.
//
// Soft contacts: for s ≤ 0 the constraint is a spring-damper with natural
// frequency ω = 2π·hertz and damping ratio ζ, solved implicitly. The
// coefficients come from Erin Catto's soft step derivation (Box2D v3's
// b2MakeSoft; "Solver2D" post, section "Soft Step"):
//
//	biasRate     = ω / (2ζ + hω)
//	massScale    = hω(2ζ + hω) / (1 + hω(2ζ + hω))
//	impulseScale = 1 / (1 + hω(2ζ + hω))
//
// and the impulse at a point is
//
//	Δλ = −m_eff · massScale · (v_n + biasRate·s) − impulseScale · λ.
//
// With massScale = 1 and impulseScale = 0 this is the rigid constraint
// v_n = −biasRate·s; the two scales make it compliant, which is what keeps
// a 53:1 mass ratio from exploding: the light cube's constraint cannot
// demand an arbitrarily large correction in one iteration. Because the
// spring is a frequency, it behaves the same for any mass. The price is
// sag: a resting contact sinks until the spring holds its load, by about
// a/ω² (a: load per unit effective mass). Small cubes under 20 m/s²
// gravity need a stiff spring, hence 90 Hz and 8 substeps by default.
//
// Friction acts at the centre of the contact points ("patch friction",
// as in many 3D engines): one 2D tangential impulse, limited to μ times
// the sum of the points' normal impulses (Coulomb's cone), plus a twist
// impulse about the normal that resists spinning, limited to μ times the
// normal impulse times the patch's mean radius. It costs three rows per
// contact instead of eight for per-point friction, and the 2D impulse is
// solved with the exact 2×2 effective mass, so both tangent directions
// converge together.
//
// How the work is organised, for speed:
//
//   - Within one contact, the points' normal speeds are linear in the
//     points' impulses: v_i = v_i⁰ + Σ_j k_ij·δ_j, with k = J·M⁻¹·Jᵀ (a
//     4×4 matrix computed once per step). So the sequential sweep over
//     the points runs on these scalars, and the bodies' velocities are read
//     and written once per contact instead of once per point. It is the
//     same Gauss–Seidel sweep, just without the memory round trips.
//   - Warm starting only adds impulses, it reads no velocity, so its sum
//     per body does not depend on the order of the contacts. The relax
//     pass, which fixes a substep's impulses, adds each contact's impulses
//     to its bodies' sums as it finishes, and the next substep applies the
//     sums with gravity. That saves a pass over the contacts per substep.
//   - Body–body constraints are ordered by a greedy graph colouring, so
//     consecutive constraints share no body: each constraint then does not
//     wait for the previous one's results, and the CPU overlaps them (the
//     order Box2D v3 uses for SIMD). Ground constraints come last, in a
//     loop without the ground's (zero) terms (see solveContacts for why
//     not one loop); a body has one ground contact at most, so they are
//     independent too, and the floor gets the last word in each pass. The
//     order depends only on the contact list, so it is deterministic.
//
// Determinism: every product that is followed by an addition is written
// float64(x*y) to forbid FMA fusion, and only +, −, ×, ÷ and sqrt are
// used.

import (
	"math"
	"math/bits"
)

// softness holds the soft constraint coefficients for one substep length.
type softness struct {
	biasRate     float64 // 1/s: bias velocity per metre of overlap
	massScale    float64 // fraction of the rigid impulse applied
	impulseScale float64 // fraction of the accumulated impulse relaxed
}

// makeSoft computes the soft constraint coefficients for a spring of
// natural frequency hertz and damping ratio zeta, for substep h (see the
// file comment for the formulas' origin). 2π is a constant; nothing here
// is transcendental.
func makeSoft(hertz, zeta, h float64) softness {
	if hertz == 0 {
		return softness{0, 1, 0}
	}
	omega := 2 * math.Pi * hertz
	a1 := 2*zeta + float64(h*omega)
	a2 := float64(float64(h*omega) * a1)
	a3 := 1 / (1 + a2)
	return softness{
		biasRate:     omega / a1,
		massScale:    float64(a2 * a3),
		impulseScale: a3,
	}
}

// solverBody is an awake body's state during the substeps, kept compact so
// the constraint loops touch little memory. Index 0 of the solver's body
// array is a static body (zero inverse mass) that stands for the ground.
type solverBody struct {
	// What the contact loops read and write comes first, so that one
	// body's share of a constraint touches as few cache lines as possible.
	// (The lane kernel, lanes_amd64.s, reads v, w, warmP and warmL as one
	// run of twelve doubles, and dp and dR as another.)
	v, w vec3
	// warmP and warmL are the linear and angular impulses of the next warm
	// start, summed over the body's contacts (see warmStart).
	warmP, warmL vec3
	dp           vec3 // displacement since the start of the step
	dR           mat3 // dq as a matrix, for rotating anchors

	dq      quat // rotation since the start of the step
	invMass float64
	invI    mat3 // world inverse inertia, fixed for the step
	dv, dw  vec3 // velocity change per substep from gravity, force, torque
	maxLin  float64
	maxAng  float64
}

// The constraint data is split by when the loops need it, so that each
// pass over the contacts streams through as little memory as possible (one
// struct per contact with room for four points filled most of a core's L2
// cache on the katamari pile, and every pass reads it: 16 a step).
// contactConstraint holds what every pass reads, patchFriction what only
// the relax pass reads, and the points of all constraints sit one after
// the other in solver.cpoints, in constraint order, so that a contact with
// two points takes the room of two, not of four. The loops over a
// contact's points then range over a slice of exactly its points, which
// also spares them bounds checks.

// constraintPoint is a contact point prepared for the solver.
type constraintPoint struct {
	rA, rB   vec3 // anchors (fixed for the step)
	rnA, rnB vec3 // r × n: the angular part of the normal Jacobian
	iA, iB   vec3 // I⁻¹·(r × n): the angular velocity a unit impulse gives
	baseSep  float64
	// sep is the point's separation as the last pass that moved bodies
	// left it: the relax pass computes it after the substep's move, and
	// the next substep's push-out, which comes before any other move,
	// reads it instead of computing it again (see normalSweep.fresh).
	sep        float64
	normalMass float64 // effective mass along the normal

	// k[j] is the change of this point's normal speed per unit impulse at
	// point j of the same contact: J_i·M⁻¹·J_jᵀ (zero past the contact's
	// point count). Within one contact the points' speeds are linear in
	// their impulses, so the solver sweeps the points on these numbers
	// alone and touches the bodies' velocities once per contact.
	k [maxManifoldPoints]float64

	normalImpulse      float64 // accumulated over the current substep
	totalNormalImpulse float64 // applied over the whole step
}

// contactConstraint is what every solver pass reads of a contact.
type contactConstraint struct {
	a, b   int32 // solver body indices; b is 0 for the ground
	first  int32 // index of the first point in solver.cpoints
	count  int32
	normal vec3
	soft   softness
	mA, mB float64 // the bodies' inverse masses (0 for the ground)
}

// patchFriction is the part of a contact that only the relax pass (and
// the warm start) reads: friction at the points' centre c. It holds the
// angular Jacobians of the two tangents on each body (c×t), the inverse of
// the 2×2 tangential effective mass (tk11, tk12, tk22), the twist's
// effective mass and lever (the patch's mean radius), and the accumulated
// impulses.
type patchFriction struct {
	t1, t2     vec3
	ctA, ctB   [2]vec3
	itA, itB   [2]vec3 // I⁻¹·(c × t): angular velocity per unit friction impulse
	inA, inB   vec3    // I⁻¹·n: angular velocity per unit twist impulse
	tk11, tk12 float64
	tk22       float64
	twistMass  float64
	twistLever float64
	friction   [2]float64
	twist      float64
	contact    int32 // the contact's index in the pool, to store results
}

type solver struct {
	bodies      []solverBody
	constraints []contactConstraint
	friction    []patchFriction // parallel to constraints
	cpoints     []constraintPoint
	// relativeVelocity is each point's approach speed before solving,
	// for restitution (parallel to cpoints; only filled, and only read by
	// applyRestitution, when Restitution is not 0).
	relativeVelocity []float64
	points           int
	// dynamic is how many constraints, at the front, join two bodies;
	// the rest touch the ground.
	dynamic int
	// colouring scratch
	pending []pendingConstraint
	masks   []uint64
	counts  [66]int32
	// lanes: the body–body constraints laid out for the lane kernel
	// (lanes.go), when there is one.
	lanes lanes
}

// prepareSolver builds the solver bodies (from the awake list) and the
// constraints (from the active contacts that have points).
func (w *World) prepareSolver(h float64) {
	s := &w.sol
	cfg := &w.cfg
	s.bodies = s.bodies[:0]
	s.bodies = append(s.bodies, solverBody{dq: quatIdentity, dR: mat3Identity})
	for _, i := range w.awake {
		b := &w.bodies[i]
		b.solverIndex = int32(len(s.bodies))
		invI := worldInverseInertia(&b.rot, b.invInertia)
		acc := madd(w.gravity, b.invMass, b.force)
		s.bodies = append(s.bodies, solverBody{
			v:       b.v,
			w:       b.w,
			dq:      quatIdentity,
			dR:      mat3Identity,
			invMass: b.invMass,
			invI:    invI,
			dv:      scale(acc, h),
			dw:      scale(mulMV(&invI, b.torque), h),
			maxLin:  b.maxLin,
			maxAng:  b.maxAng,
		})
	}

	// Stiffness is capped at a quarter of the substep rate (Box2D v3's
	// limit): a stiffer spring than the substeps can follow makes the
	// solver overshoot and jitter.
	hertz := minf(cfg.ContactHertz, 0.25/h)
	dynSoft := makeSoft(hertz, cfg.ContactDampingRatio, h)
	groundSoft := makeSoft(2*hertz, cfg.ContactDampingRatio, h)

	// Colour the contacts first, then prepare each constraint straight
	// into its place in colour order.
	s.colourContacts(w)
	// Lay the points out in constraint order: a first pass finds each
	// constraint's slot (as the loop below does) and its point count, and
	// a prefix sum gives each constraint its first point.
	slot := s.counts
	for _, p := range s.pending {
		s.constraints[slot[p.colour]].count = p.count
		slot[p.colour]++
	}
	first := int32(0)
	for i := range s.constraints {
		s.constraints[i].first = first
		first += s.constraints[i].count
	}
	s.points = int(first)
	s.friction = resize(s.friction, len(s.constraints))
	s.cpoints = resize(s.cpoints, s.points)
	s.relativeVelocity = resize(s.relativeVelocity, s.points)
	for _, p := range s.pending {
		soft := dynSoft
		if p.ground {
			soft = groundSoft
		}
		i := s.counts[p.colour]
		s.counts[p.colour]++
		w.prepareConstraint(i, &w.cs.pool[p.ci], p.ci, p.a, p.b, soft)
	}
}

// resize returns s with length n, reusing its storage when it is large
// enough (the contents are then stale and must be overwritten).
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, 2*n)
	}
	return s[:n]
}

// colourContacts decides the constraints' order: first the body–body
// constraints sorted by a greedy graph colouring (each takes the lowest
// colour not yet used by either of its bodies, and constraints are listed
// colour by colour, in contact order within a colour; past 64 colours they
// share a last one), then the ground constraints in contact order. A body
// has at most one ground contact, so consecutive ground constraints are
// always independent, and solving them last gives the floor the last word
// in each pass. It leaves in s.pending the contacts with points, in
// contact order, each with its solver bodies and colour, in s.counts the
// first slot of each colour, and sizes s.constraints. (prepareSolver then
// reads s.pending instead of the pool entries and the bodies again: two
// more passes of scattered reads, which cost three times the time of
// their instructions.)
func (s *solver) colourContacts(w *World) {
	if cap(s.masks) < len(s.bodies) {
		s.masks = make([]uint64, len(s.bodies), 2*len(s.bodies))
	}
	s.masks = s.masks[:len(s.bodies)]
	clear(s.masks)
	s.pending = s.pending[:0]
	s.counts = [66]int32{}
	const groundColour = 65
	for _, ci := range w.cs.active {
		c := &w.cs.pool[ci]
		if c.m.count == 0 {
			continue
		}
		p := pendingConstraint{ci: ci, a: w.bodies[c.a].solverIndex, count: c.m.count, colour: groundColour, ground: c.b < 0}
		if !p.ground {
			p.b = w.bodies[c.b].solverIndex
			used := s.masks[p.a] | s.masks[p.b]
			p.colour = 64
			if used != math.MaxUint64 {
				p.colour = uint8(bits.TrailingZeros64(^used)) // lowest free colour
				bit := uint64(1) << p.colour
				s.masks[p.a] |= bit
				s.masks[p.b] |= bit
			}
		}
		s.pending = append(s.pending, p)
		s.counts[p.colour]++
	}
	n := len(s.pending)
	s.dynamic = n - int(s.counts[groundColour])
	start := int32(0)
	for k := range s.counts {
		c := s.counts[k]
		s.counts[k] = start
		start += c
	}
	if cap(s.constraints) < n {
		s.constraints = make([]contactConstraint, n, 2*n)
	}
	s.constraints = s.constraints[:n]
}

// pendingConstraint is a contact with points on its way to the solver:
// its pool index, its bodies' solver indices (b 0 for the ground), its
// point count and its colour.
type pendingConstraint struct {
	ci, a, b int32
	count    int32
	colour   uint8
	ground   bool
}

// prepareConstraint fills constraint i (its count and first point already
// set) from contact c: anchors, effective masses and warm-start impulses.
func (w *World) prepareConstraint(i int32, c *contact, ci, ai, bi int32, soft softness) {
	s := &w.sol
	cc, fc := &s.constraints[i], &s.friction[i]
	points := s.cpoints[cc.first : cc.first+cc.count]
	relVel := s.relativeVelocity[cc.first : cc.first+cc.count]
	A, B := &s.bodies[ai], &s.bodies[bi]
	n := c.m.normal
	t1, t2 := tangentBasis(n)
	cc.a, cc.b = ai, bi
	fc.contact = ci
	cc.normal = n
	fc.t1, fc.t2 = t1, t2
	cc.soft = soft
	mA, mB := A.invMass, B.invMass
	cc.mA, cc.mB = mA, mB
	warm := w.cfg.WarmStarting
	bounce := w.cfg.Restitution != 0
	var sumA, sumB vec3
	var inA, inB [maxManifoldPoints]vec3 // I⁻¹·(r × n) per point
	mps := c.m.points[:len(points)]
	for j := range mps {
		mp, cp := &mps[j], &points[j]
		rA, rB := mp.anchorA, mp.anchorB
		sumA, sumB = add(sumA, rA), add(sumB, rB)
		cp.rA, cp.rB = rA, rB
		// The constant part of the separation formula (file comment).
		cp.baseSep = mp.separation - dot(sub(rB, rA), n)
		rnA, rnB := cross(rA, n), cross(rB, n)
		iA, iB := mulMV(&A.invI, rnA), mulMV(&B.invI, rnB)
		cp.rnA, cp.rnB, cp.iA, cp.iB = rnA, rnB, iA, iB
		inA[j&3], inB[j&3] = iA, iB
		// Effective mass along direction d at anchor r:
		// 1/m_eff = 1/m_A + 1/m_B + (r_A×d)·I_A⁻¹(r_A×d) + (r_B×d)·I_B⁻¹(r_B×d)
		k := mA + mB + dot(rnA, iA) + dot(rnB, iB)
		cp.normalMass = 1 / k
		cp.normalImpulse = 0
		if warm {
			cp.normalImpulse = mp.normalImpulse
		}
		cp.totalNormalImpulse = 0
		if bounce {
			// Approach speed before solving, for restitution (only
			// applyRestitution reads it, and only when bodies bounce).
			dv := sub(add(B.v, cross(B.w, rB)), add(A.v, cross(A.w, rA)))
			relVel[j] = dot(dv, n)
		}
	}

	// Coupling between the points' normal speeds.
	for i := range points {
		pi := &points[i]
		pi.k = [maxManifoldPoints]float64{}
		for j := 0; j <= i; j++ {
			kij := mA + mB + dot(pi.rnA, inA[j]) + dot(pi.rnB, inB[j])
			pi.k[j], points[j].k[i] = kij, kij
		}
	}

	// Patch friction at the mean of the anchors.
	inv := 1 / float64(c.m.count)
	cA, cB := scale(sumA, inv), scale(sumB, inv)
	fc.ctA = [2]vec3{cross(cA, t1), cross(cA, t2)}
	fc.ctB = [2]vec3{cross(cB, t1), cross(cB, t2)}
	itA0, itA1 := mulMV(&A.invI, fc.ctA[0]), mulMV(&A.invI, fc.ctA[1])
	itB0, itB1 := mulMV(&B.invI, fc.ctB[0]), mulMV(&B.invI, fc.ctB[1])
	fc.itA = [2]vec3{itA0, itA1}
	fc.itB = [2]vec3{itB0, itB1}
	// 2×2 tangential effective mass matrix K (the 1/m_eff formula above
	// with d = t_i on one side and t_j on the other), inverted.
	k11 := mA + mB + dot(fc.ctA[0], itA0) + dot(fc.ctB[0], itB0)
	k12 := dot(fc.ctA[0], itA1) + dot(fc.ctB[0], itB1)
	k22 := mA + mB + dot(fc.ctA[1], itA1) + dot(fc.ctB[1], itB1)
	det := float64(k11*k22) - float64(k12*k12)
	if det > 0 {
		id := 1 / det
		fc.tk11, fc.tk12, fc.tk22 = k22*id, -k12*id, k11*id
	} else {
		fc.tk11, fc.tk12, fc.tk22 = 0, 0, 0
	}
	// Twist: a pure rotation about n on each body.
	fc.inA, fc.inB = mulMV(&A.invI, n), mulMV(&B.invI, n)
	kt := dot(n, fc.inA) + dot(n, fc.inB)
	fc.twistMass = 0
	if kt > 0 {
		fc.twistMass = 1 / kt
	}
	// Mean distance of the points from the patch centre: the lever arm
	// through which friction resists twisting.
	radius := 0.0
	for j := int32(0); j < c.m.count; j++ {
		d := sub(c.m.points[j].anchorA, cA)
		d = msub(d, dot(d, n), n)
		radius += length(d)
	}
	fc.twistLever = radius * inv
	if warm {
		fc.friction = [2]float64{dot(c.m.frictionImpulse, t1), dot(c.m.frictionImpulse, t2)}
		fc.twist = c.m.twistImpulse
	} else {
		fc.friction = [2]float64{}
		fc.twist = 0
	}
}

// integrateVelocities applies gravity, forces, damping and the speed
// clamps for one substep.
func (w *World) integrateVelocities(h float64) {
	cfg := &w.cfg
	damp := cfg.LinearDamping != 0 || cfg.AngularDamping != 0
	linDamp := 1 / (1 + float64(h*cfg.LinearDamping))
	angDamp := 1 / (1 + float64(h*cfg.AngularDamping))
	bodies := w.sol.bodies
	for k := 1; k < len(bodies); k++ {
		b := &bodies[k]
		// Gravity and forces, then the warm start impulses summed for
		// this body (see warmStart).
		v := madd(add(b.v, b.dv), b.invMass, b.warmP)
		av := add(add(b.w, b.dw), mulMV(&b.invI, b.warmL))
		b.warmP, b.warmL = vec3{}, vec3{}
		if damp {
			v = scale(v, linDamp)
			av = scale(av, angDamp)
		}
		b.v = clampLength(v, b.maxLin)
		b.w = clampLength(av, b.maxAng)
	}
}

// integratePositions moves every awake body by its velocity for one
// substep. Only the change since the start of the step is tracked; the
// bodies' real positions are written once, after the last substep.
func (w *World) integratePositions(h float64) {
	bodies := w.sol.bodies
	for k := 1; k < len(bodies); k++ {
		b := &bodies[k]
		b.dp = madd(b.dp, h, b.v)
		b.dq = qintegrate(b.dq, b.w, h)
		b.dR = rotationMatrix(b.dq)
	}
}

// warmStart prepares the first substep's warm start: it sums, per body,
// the impulses every contact ended the last step with. integrateVelocities
// applies the sums.
//
// Warm starting applies impulses without reading any velocity, so the sum
// does not depend on the order of the contacts, and it can be collected
// anywhere once the impulses are known. The later substeps' warm starts are
// therefore collected by the relax pass of the substep before, as each
// contact finishes (see addWarmStart), which saves a pass over the
// contacts per substep.
func (w *World) warmStart() {
	s := &w.sol
	fric := s.friction[:len(s.constraints)]
	for ci := range s.constraints {
		w.addWarmStart(&s.constraints[ci], &fric[ci])
	}
}

// addWarmStart adds the impulses that contact c (with friction f) holds
// now to its bodies' warm-start sums.
func (w *World) addWarmStart(c *contactConstraint, f *patchFriction) {
	bodies := w.sol.bodies
	A, B := &bodies[c.a], &bodies[c.b]
	var total float64
	var angA, angB vec3
	cps := w.sol.cpoints[c.first : c.first+c.count]
	for j := range cps {
		cp := &cps[j]
		l := cp.normalImpulse
		total += l
		angA = madd(angA, l, cp.rnA)
		angB = madd(angB, l, cp.rnB)
	}
	f1, f2 := f.friction[0], f.friction[1]
	lin := madd(madd(scale(c.normal, total), f1, f.t1), f2, f.t2)
	angA = madd(madd(madd(angA, f1, f.ctA[0]), f2, f.ctA[1]), f.twist, c.normal)
	angB = madd(madd(madd(angB, f1, f.ctB[0]), f2, f.ctB[1]), f.twist, c.normal)
	A.warmP = sub(A.warmP, lin)
	A.warmL = sub(A.warmL, angA)
	if c.b != 0 {
		B.warmP = add(B.warmP, lin)
		B.warmL = add(B.warmL, angB)
	}
}

// solveContacts runs one pass over all constraints: the body–body ones
// here, then the ground ones (solveGround). With useBias it is the "solve"
// stage (soft push-out); without, the "relax" stage, which also solves
// friction, and, if warm, collects the next substep's warm start (the last
// substep has none to prepare: the next step starts afresh from the
// impulses stored in the contacts).
//
// Each contact goes through the same phases in both loops, on its bodies'
// velocities held in registers (read once, written once):
//
//	normal    a Gauss–Seidel sweep over its points on scalars (pointImpulse,
//	          accumulate)
//	apply     the sweep's impulses pushed into the bodies' velocities
//	friction  relax only: patch friction (tangentTarget, setTangent) and
//	          twist (twistImpulse)
//	store     relax only: the substep's impulses added to the step's
//	          totals and to the next substep's warm start
//
// Why two loops: Box2D v3 solves a ground contact in the same loop, its
// body B a static stand-in with zero velocity and inverse mass. Folded that
// way the results here are the same to the bit, but every ground contact
// then computes body B's terms for nothing, and most contacts are with the
// ground: about 15 % more instructions per step with every cube awake
// (docs/design/contact-solver.md). So the ground loop keeps body A's terms
// only, and both loops share the kernels that do the work, inlined in each.
func (w *World) solveContacts(h float64, useBias, warm, first bool) {
	sw := normalSweep{invH: 1 / h, maxPush: w.cfg.MaxPushOutSpeed, useBias: useBias, fresh: first || !useBias}
	mu := w.cfg.Friction
	if w.sol.lanes.on {
		w.solveLanes(sw, mu, warm)
	} else {
		w.solveDynamic(sw, mu, warm, 0)
	}
	w.solveGround(sw, mu, warm)
}

// solveDynamic is solveContacts' pass over the body–body constraints from
// index from on, in Go: the portable implementation, and the lane
// kernel's reference.
func (w *World) solveDynamic(sw normalSweep, mu float64, warm bool, from int) {
	useBias := sw.useBias
	sol := &w.sol
	bodies := sol.bodies
	cons := sol.constraints[from:sol.dynamic]
	fric := sol.friction[from:sol.dynamic]
	fric = fric[:len(cons)]
	pts := sol.cpoints
	for ci := range cons {
		c := &cons[ci]
		A, B := &bodies[c.a], &bodies[c.b]
		cps := pts[c.first : c.first+c.count]
		vA, wA, vB, wB := A.v, A.w, B.v, B.w
		n := c.normal

		// Normal. Separation update terms shared by the points:
		// n·(Δp_B − Δp_A), and n in each body's rotated frame, so that
		// n·(ΔR·r) = (ΔRᵀn)·r. (d is delta cut to the point count:
		// indexing it needs no bounds check once the compiler knows j <
		// len(cps) = len(d).)
		var dpn float64
		var nA, nB vec3
		if sw.fresh {
			dpn = dot(sub(B.dp, A.dp), n)
			// mulMTV written out: too large for the inliner, and a call
			// per contact in nine passes of sixteen.
			nA = vec3{dot(A.dR.c[0], n), dot(A.dR.c[1], n), dot(A.dR.c[2], n)}
			nB = vec3{dot(B.dR.c[0], n), dot(B.dR.c[1], n), dot(B.dR.c[2], n)}
		}
		vnLinear := dot(n, sub(vB, vA))
		var delta [maxManifoldPoints]float64
		d := delta[:len(cps)]
		var total, sum float64
		for j := range cps {
			cp := &cps[j]
			s := cp.sep
			if sw.fresh {
				s = cp.baseSep + dpn + dot(nB, cp.rB) - dot(nA, cp.rA)
				cp.sep = s
			}
			vn := vnLinear + dot(wB, cp.rnB) - dot(wA, cp.rnA) + cp.coupled(&delta, j)
			d[j] = cp.accumulate(sw.pointImpulse(cp, s, vn, &c.soft))
			total += cp.normalImpulse
			sum += d[j]
		}
		if total == 0 && sum == 0 && (useBias || fric[ci].idle()) {
			// Idle: no point pushes, none did, and no friction is held
			// (see idle).
			continue
		}

		// Apply: the linear impulse n·Σδ and the angular ones Σ δ·(r × n).
		for j := range cps {
			cp := &cps[j]
			wA = msub(wA, d[j], cp.iA)
			wB = madd(wB, d[j], cp.iB)
		}
		vA = msub(vA, float64(c.mA*sum), n)
		vB = madd(vB, float64(c.mB*sum), n)

		if !useBias {
			// Relax: this pass ends the substep, so the impulses found
			// now are the substep's. Solve friction with them, then add
			// them to the step's totals and to the next warm start.
			f := &fric[ci]
			if mu > 0 {
				maxF := mu * total
				dv := sub(vB, vA)
				l1, l2 := f.tangentTarget(
					dot(dv, f.t1)+dot(wB, f.ctB[0])-dot(wA, f.ctA[0]),
					dot(dv, f.t2)+dot(wB, f.ctB[1])-dot(wA, f.ctA[1]))
				d1, d2 := f.setTangent(l1, l2, maxF)
				dt := f.twistImpulse(dot(sub(wB, wA), n), maxF)
				p := madd(scale(f.t1, d1), d2, f.t2)
				vA = msub(vA, c.mA, p)
				vB = madd(vB, c.mB, p)
				wA = sub(wA, madd(madd(scale(f.itA[0], d1), d2, f.itA[1]), dt, f.inA))
				wB = add(wB, madd(madd(scale(f.itB[0], d1), d2, f.itB[1]), dt, f.inB))
			}
			if !warm {
				// The last substep: no substep follows to warm start.
				for j := range cps {
					cps[j].totalNormalImpulse += cps[j].normalImpulse
				}
			} else {
				// The same sums as addWarmStart, fused with the totals.
				var lA, lB vec3
				for j := range cps {
					cp := &cps[j]
					l := cp.normalImpulse
					cp.totalNormalImpulse += l
					lA = madd(lA, l, cp.rnA)
					lB = madd(lB, l, cp.rnB)
				}
				f1, f2 := f.friction[0], f.friction[1]
				lin := madd(madd(scale(n, total), f1, f.t1), f2, f.t2)
				A.warmP = sub(A.warmP, lin)
				A.warmL = sub(A.warmL, madd(madd(madd(lA, f1, f.ctA[0]), f2, f.ctA[1]), f.twist, n))
				B.warmP = add(B.warmP, lin)
				B.warmL = add(B.warmL, madd(madd(madd(lB, f1, f.ctB[0]), f2, f.ctB[1]), f.twist, n))
			}
		}

		A.v, A.w = vA, wA
		B.v, B.w = vB, wB
	}
}

// solveGround is solveContacts for the contacts with the ground: the same
// phases with body B's terms removed, because the ground does not move
// (its velocity, displacement and inverse mass are zero, its rotation the
// identity).
func (w *World) solveGround(sw normalSweep, mu float64, warm bool) {
	sol := &w.sol
	bodies := sol.bodies
	cons := sol.constraints[sol.dynamic:]
	fric := sol.friction[sol.dynamic:]
	fric = fric[:len(cons)]
	pts := sol.cpoints
	for ci := range cons {
		c := &cons[ci]
		A := &bodies[c.a]
		cps := pts[c.first : c.first+c.count]
		vA, wA := A.v, A.w
		n := c.normal

		// Normal.
		var dpn float64
		var nA vec3
		if sw.fresh {
			dpn = -dot(A.dp, n)
			nA = vec3{dot(A.dR.c[0], n), dot(A.dR.c[1], n), dot(A.dR.c[2], n)} // mulMTV
		}
		vnLinear := -dot(n, vA)
		var delta [maxManifoldPoints]float64
		d := delta[:len(cps)]
		var total, sum float64
		for j := range cps {
			cp := &cps[j]
			s := cp.sep
			if sw.fresh {
				s = cp.baseSep + dpn + dot(n, cp.rB) - dot(nA, cp.rA)
				cp.sep = s
			}
			vn := vnLinear - dot(wA, cp.rnA) + cp.coupled(&delta, j)
			d[j] = cp.accumulate(sw.pointImpulse(cp, s, vn, &c.soft))
			total += cp.normalImpulse
			sum += d[j]
		}
		if total == 0 && sum == 0 && (sw.useBias || fric[ci].idle()) {
			continue // idle (see solveContacts)
		}

		// Apply.
		for j := range cps {
			wA = msub(wA, d[j], cps[j].iA)
		}
		vA = msub(vA, float64(c.mA*sum), n)

		if !sw.useBias {
			f := &fric[ci]
			if mu > 0 {
				maxF := mu * total
				l1, l2 := f.tangentTarget(-dot(vA, f.t1)-dot(wA, f.ctA[0]), -dot(vA, f.t2)-dot(wA, f.ctA[1]))
				d1, d2 := f.setTangent(l1, l2, maxF)
				dt := f.twistImpulse(-dot(wA, n), maxF)
				vA = msub(vA, c.mA, madd(scale(f.t1, d1), d2, f.t2))
				wA = sub(wA, madd(madd(scale(f.itA[0], d1), d2, f.itA[1]), dt, f.inA))
			}
			if !warm {
				for j := range cps {
					cps[j].totalNormalImpulse += cps[j].normalImpulse
				}
			} else {
				// Totals and the next warm start (addWarmStart for one body).
				var angW vec3
				for j := range cps {
					cp := &cps[j]
					cp.totalNormalImpulse += cp.normalImpulse
					angW = madd(angW, cp.normalImpulse, cp.rnA)
				}
				f1, f2 := f.friction[0], f.friction[1]
				A.warmP = sub(A.warmP, madd(madd(scale(n, total), f1, f.t1), f2, f.t2))
				A.warmL = sub(A.warmL, madd(madd(madd(angW, f1, f.ctA[0]), f2, f.ctA[1]), f.twist, n))
			}
		}
		A.v, A.w = vA, wA
	}
}

// normalSweep is what a pass's normal sweeps need.
type normalSweep struct {
	invH    float64 // 1/h: a gap of s may close at s/h this substep
	maxPush float64 // bound of the push-out bias, m/s
	useBias bool    // the solve stage (soft push-out), not the relax stage
	// fresh: the bodies moved since the points' separations were last
	// computed, so compute them (the relax passes, and the first
	// push-out); otherwise read them (constraintPoint.sep).
	fresh bool
}

// coupled is how much the impulses delta applied so far in this sweep
// changed point j's normal speed: Σ_{i<j} k[i]·δ_i. Within one contact the
// points' speeds are linear in their impulses, so the sweep runs on these
// scalars and touches the bodies' velocities once per contact. The points
// from j on have no impulse yet in this sweep, so their terms are left
// out rather than added as zeros (which could change only the sign of a
// zero speed, and accumulate clamps that away): fewer instructions, and
// a shorter chain from one point's impulse to the next point's speed.
func (cp *constraintPoint) coupled(delta *[maxManifoldPoints]float64, j int) float64 {
	if j == 0 {
		return 0
	}
	c := float64(cp.k[0] * delta[0])
	if j > 1 {
		c += float64(cp.k[1] * delta[1])
		if j > 2 {
			c += float64(cp.k[2] * delta[2])
		}
	}
	return c
}

// pointImpulse is the impulse that solves one point of a contact, given
// its separation s and its normal speed vn, before clamping (accumulate).
// A point with a gap (s > 0) may close it this substep and no more:
// speculative, rigid. A touching point is a soft spring in the solve stage
// (its bias pushing out at most maxPush) and rigid in the relax stage.
func (sw *normalSweep) pointImpulse(cp *constraintPoint, s, vn float64, soft *softness) float64 {
	switch {
	case s > 0:
		return -float64(cp.normalMass * (vn + float64(s*sw.invH)))
	case sw.useBias:
		bias := maxf(soft.biasRate*s, -sw.maxPush)
		return -float64(float64(cp.normalMass*soft.massScale)*(vn+bias)) - float64(soft.impulseScale*cp.normalImpulse)
	}
	return -float64(cp.normalMass * vn)
}

// accumulate adds impulse to the point's accumulated impulse, clamped at
// zero (contacts only push), and returns the change it made.
func (cp *constraintPoint) accumulate(impulse float64) float64 {
	old := cp.normalImpulse
	cp.normalImpulse = maxf(old+impulse, 0)
	return cp.normalImpulse - old
}

// idle reports whether the contact holds no friction impulse. A contact
// that holds none, and whose points neither push nor pushed (a gap the
// bodies are not closing, most of a katamari ball's contacts), changes
// nothing in a pass: its impulses are zeros, friction is clamped to
// μ·0 = 0, and every sum it would add to its bodies is zero. So the passes
// skip it after its normal sweep. (Adding those zeros could only have
// turned a velocity component of −0 into +0.)
func (f *patchFriction) idle() bool {
	return f.friction[0] == 0 && f.friction[1] == 0 && f.twist == 0
}

// tangentTarget is patch friction's tangential impulse before the limit,
// given the bodies' relative speeds along the two tangents (v1, v2): the
// accumulated impulse minus the inverse 2×2 effective mass times the
// speeds, which stops the sliding at the patch centre along both tangent
// axes at once.
func (f *patchFriction) tangentTarget(v1, v2 float64) (l1, l2 float64) {
	l1 = f.friction[0] - (float64(f.tk11*v1) + float64(f.tk12*v2))
	l2 = f.friction[1] - (float64(f.tk12*v1) + float64(f.tk22*v2))
	return l1, l2
}

// setTangent clamps the tangential impulse (l1, l2) to Coulomb's cone,
// |λ_t| ≤ maxF (maxF = μ·Σλ_n, the friction limit), makes it the
// accumulated one and returns the changes.
func (f *patchFriction) setTangent(l1, l2, maxF float64) (d1, d2 float64) {
	if m2 := float64(l1*l1) + float64(l2*l2); m2 > float64(maxF*maxF) {
		k := maxF / math.Sqrt(m2)
		l1, l2 = l1*k, l2*k
	}
	d1, d2 = l1-f.friction[0], l2-f.friction[1]
	f.friction = [2]float64{l1, l2}
	return d1, d2
}

// twistImpulse solves the twist about the normal, given the bodies'
// relative spin about it (vt), and returns the change of the twist
// impulse, clamped to maxF times the patch's mean radius.
func (f *patchFriction) twistImpulse(vt, maxF float64) float64 {
	maxT := float64(maxF * f.twistLever)
	lt := maxf(-maxT, minf(maxT, f.twist-float64(f.twistMass*vt)))
	dt := lt - f.twist
	f.twist = lt
	return dt
}

// applyRestitution adds the bounce after the substeps: for points that
// were approaching faster than the threshold and actually pushed, it sets
// the separating speed to −restitution × the approach speed.
func (w *World) applyRestitution() {
	e := w.cfg.Restitution
	if e == 0 {
		return
	}
	threshold := w.cfg.RestitutionThreshold
	bodies := w.sol.bodies
	for ci := range w.sol.constraints {
		c := &w.sol.constraints[ci]
		A, B := &bodies[c.a], &bodies[c.b]
		vA, wA, vB, wB := A.v, A.w, B.v, B.w
		mA, mB := A.invMass, B.invMass
		n := c.normal
		cps := w.sol.cpoints[c.first : c.first+c.count]
		relVel := w.sol.relativeVelocity[c.first : c.first+c.count]
		for j := range cps {
			cp := &cps[j]
			if relVel[j] > -threshold || cp.totalNormalImpulse == 0 {
				continue
			}
			vn := dot(n, sub(vB, vA)) + dot(wB, cp.rnB) - dot(wA, cp.rnA)
			impulse := -float64(cp.normalMass * (vn + float64(e*relVel[j])))
			newImpulse := maxf(cp.normalImpulse+impulse, 0)
			impulse = newImpulse - cp.normalImpulse
			cp.normalImpulse = newImpulse
			cp.totalNormalImpulse += impulse
			vA = msub(vA, float64(mA*impulse), n)
			wA = sub(wA, mulMV(&A.invI, scale(cp.rnA, impulse)))
			vB = madd(vB, float64(mB*impulse), n)
			wB = add(wB, mulMV(&B.invI, scale(cp.rnB, impulse)))
		}
		A.v, A.w = vA, wA
		if c.b != 0 {
			B.v, B.w = vB, wB
		}
	}
}

// storeImpulses copies the impulses back into the manifolds (warm start
// for the next step), and decides, for the game, which contacts touched
// during the step and which began to.
func (w *World) storeImpulses() {
	slop := w.cfg.LinearSlop
	for ci := range w.sol.constraints {
		c, f := &w.sol.constraints[ci], &w.sol.friction[ci]
		ct := &w.cs.pool[f.contact]
		touching := false
		total := 0.0
		cps := w.sol.cpoints[c.first : c.first+c.count]
		for j := range cps {
			cp := &cps[j]
			mp := &ct.m.points[j]
			mp.normalImpulse = cp.normalImpulse
			total += cp.totalNormalImpulse
			// The last relax pass left the separation after the last
			// move (the ground's loop computes it without the ground's
			// zero terms, which can change only the sign of a zero).
			if cp.sep <= slop || cp.totalNormalImpulse > 0 {
				touching = true
			}
		}
		ct.m.frictionImpulse = madd(scale(f.t1, f.friction[0]), f.friction[1], f.t2)
		ct.m.twistImpulse = f.twist
		ct.impulse = total
		if touching {
			if ct.flags&flagTouching == 0 {
				ct.flags |= flagBegan
			}
			ct.flags |= flagTouching
		} else {
			ct.flags &^= flagTouching
		}
	}
}
