package physics

// Design note: Step reads as the list of the solver's phases, in order;
// each phase is a method in its own file. See doc.go for the tour.

import "math"

// Stats describes the work of the last Step. Counters let tests (and the
// curious) check that sleeping bodies really cost nothing.
type Stats struct {
	Steps           uint64 // Steps taken so far
	Bodies          int    // bodies in the world
	AwakeBodies     int    // bodies simulated in the last step
	Pairs           int    // broadphase pairs (body–body and body–ground) found
	Contacts        int    // contacts alive, sleeping ones included
	ActiveContacts  int    // contacts updated by the narrowphase (an awake body)
	Constraints     int    // contacts with points, solved
	ContactPoints   int    // points in those
	SleepingIslands int    // islands asleep after the step
	RejectedInputs  uint64 // NaN/Inf or overflowing inputs rejected so far
}

// Stats returns the counters of the last Step.
func (w *World) Stats() Stats {
	s := w.stats
	s.Bodies = len(w.bodies)
	s.Contacts = len(w.cs.ids)
	s.SleepingIslands = w.isl.sleeping
	return s
}

// Step advances the world by Config.TimeStep seconds. Forces and torques
// applied since the last Step act during it and are then cleared. Step
// never allocates once the world has warmed up to its largest number of
// contacts.
func (w *World) Step() {
	w.stats.Steps++
	w.clearEvents()
	if w.awakeDirty {
		w.rebuildAwake()
	}
	w.stats.AwakeBodies = 0
	w.stats.Pairs = 0
	w.stats.ActiveContacts = 0
	w.stats.Constraints = 0
	w.stats.ContactPoints = 0
	if len(w.awake) == 0 {
		// Everything sleeps: there is nothing to do, not even to look.
		w.cs.active = w.cs.active[:0]
		return
	}

	dt := w.cfg.TimeStep
	h := dt / float64(w.cfg.Substeps)

	// 1. Broadphase: which pairs might touch this step.
	w.findPairs()
	// 2. Contacts: keep, create and destroy contacts to match the pairs.
	w.updateContacts()
	w.stats.Pairs = len(w.bp.pairs)
	// 3. Narrowphase: exact manifolds, impulses carried over by feature id.
	w.narrowphase()
	// 4. Wake sleeping islands that an awake body now touches, so they take
	//    part in this step. Repeat in case a woken body touches another
	//    sleeping island.
	for w.wakeTouched() {
		w.rebuildAwake()
		w.rebuildActive()
	}
	w.stats.ActiveContacts = len(w.cs.active)

	// 5. Solver: prepare, then the substep loop.
	w.prepareSolver(h)
	w.warmStart()      // sums last step's impulses; applied with the velocities
	w.sol.buildLanes() // the body–body constraints in vector lanes (lanes.go)
	for i := 0; i < w.cfg.Substeps; i++ {
		w.integrateVelocities(h)                // gravity, forces, and the warm start
		w.solveContacts(h, true, false, i == 0) // soft push-out
		w.integratePositions(h)
		w.solveContacts(h, false, i+1 < w.cfg.Substeps, false) // relax, friction, next warm start
	}
	// 6. Restitution, then keep the impulses for next step's warm start.
	w.sol.lanesBack()
	w.applyRestitution()
	w.storeImpulses()

	// 7. Write the new states back to the bodies.
	w.finalizeBodies(dt)
	w.stats.AwakeBodies = len(w.awake)
	w.stats.Constraints = len(w.sol.constraints)
	w.stats.ContactPoints = w.sol.points

	// 8. Islands and sleep.
	w.updateSleep()

	// Every body the step moved, woke or put to sleep was awake during it:
	// their saved state changed (see save.go). The forces are spent.
	for _, i := range w.awake {
		w.touched(i)
	}
	for _, i := range w.forced {
		w.bodies[i].force, w.bodies[i].torque = vec3{}, vec3{}
	}
	w.forced = w.forced[:0]
}

// clearEvents resets the per-step outputs (impulse, "began") of the
// contacts simulated in the previous step. Contacts that are not
// simulated this step (their bodies fell asleep) then report no impulse
// and no beginning, but keep their touching flag.
func (w *World) clearEvents() {
	for _, ci := range w.cs.active {
		c := &w.cs.pool[ci]
		c.flags &^= flagBegan
		c.impulse = 0
		if c.m.count == 0 {
			c.flags &^= flagTouching
		}
	}
}

// rebuildAwake lists the awake bodies in index order.
func (w *World) rebuildAwake() {
	w.awake = w.awake[:0]
	for i := range w.bodies {
		if w.bodies[i].awake {
			w.awake = append(w.awake, int32(i))
		} else {
			w.bodies[i].solverIndex = 0
		}
	}
	w.awakeDirty = false
}

// finalizeBodies writes the solver's results back: new position and
// orientation, clamped velocities, cleared forces, and the sleep timer.
func (w *World) finalizeBodies(dt float64) {
	sleepSpeed := w.cfg.SleepSpeed
	for k := 1; k < len(w.sol.bodies); k++ {
		sb := &w.sol.bodies[k]
		b := &w.bodies[w.awake[k-1]]
		b.pos = add(b.pos, sb.dp)
		b.q = qnormalize(qmul(sb.dq, b.q))
		b.rot = rotationMatrix(b.q)
		b.v = clampLength(sb.v, b.maxLin)
		b.w = clampLength(sb.w, b.maxAng)
		b.force, b.torque = vec3{}, vec3{}

		// A body is still when its fastest point is slower than SleepSpeed.
		// Its motion over the step counts too (at half weight, as in
		// Box2D), because the relax pass can leave a body with almost no
		// velocity while push-out still moves it.
		speed := length(b.v) + float64(length(b.w)*b.radius)
		// The rotation angle of dq is about 2·|dq.xyz| for small angles.
		turn := float64(float64(2*math.Sqrt(float64(sb.dq.x*sb.dq.x)+float64(sb.dq.y*sb.dq.y)+float64(sb.dq.z*sb.dq.z))) * b.radius)
		moved := 0.5 * (length(sb.dp) + turn) / dt
		if moved > speed {
			speed = moved
		}
		if speed > sleepSpeed {
			b.sleepTime = 0
		} else {
			b.sleepTime += dt
		}
	}
}
