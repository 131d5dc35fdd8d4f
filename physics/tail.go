package physics

// Design note: the lanes' tail in one chain. The constraints past the
// lanes' split (lanes.go) are the player cube's last contacts, one after
// the other on the same body, and the overflow colour: a Gauss–Seidel
// chain in which every constraint waits for the one before, so vector
// lanes cannot shorten it. On amd64 an assembly kernel (tail_amd64.s)
// solves them one at a time with exactly the Go loop's operations and
// order, with fewer instructions than the compiled loop: the bodies'
// velocities stay in registers for the whole constraint (a vec3 in the
// lanes of one YMM register), and the body two consecutive constraints
// share (the player) from one constraint to the next; the points'
// separations and speeds are computed before the Gauss–Seidel sweep;
// nothing is spilled on the chain, and the clamp of each point's
// impulse is a branch, as Go compiles it (a predicted branch costs the
// chain nothing, a max instruction four cycles a point). What was
// measured: docs/design/physics-many-worlds.md, "Ninth round". The Go
// loop (solveDynamic) stays the reference and the portable path
// (TestTailKernelAgainstGo, FuzzTailKernel).
//
// The kernel expects what prepareSolver makes: every constraint with 1
// to 4 points (colourContacts leaves out the contacts without one) and
// two distinct bodies.

// useTail says whether solveLanes runs the tail kernel where there is
// one (tests turn it off to run the Go loop).
var useTail = haveTailKernel

// solveTail is solveDynamic over the constraints from index from on (the
// lanes' tail), by the kernel when there is one.
func (w *World) solveTail(sw normalSweep, mu float64, warm bool, p *laneParams, from int) {
	s := &w.sol
	n := s.dynamic - from
	if !useTail || n <= 0 {
		w.solveDynamic(sw, mu, warm, from)
		return
	}
	tailKernel(&s.constraints[from], &s.friction[from], n, &s.cpoints[0], &s.bodies[0], p)
}
