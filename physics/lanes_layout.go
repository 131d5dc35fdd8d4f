package physics

//lint:file-ignore U1000 most of these fields are read and written by lanes_amd64.s only

// The lanes' layout (see lanes.go): what the kernel reads and writes.

// lanePoint is point j of the four constraints of a lane group: the
// constraintPoint fields the passes read, one lane per constraint. mask
// is all ones in the lanes whose constraint has a point j.
type lanePoint struct {
	// The fields of constraintPoint in its order, so that the copy in is
	// a transpose of 27 doubles (transposeRun).
	rA, rB, rnA, rnB       [3]lane4
	iA, iB                 [3]lane4
	baseSep, sep, normMass lane4
	k                      [maxManifoldPoints]lane4 // the sweep never reads k[3]
	impulse, total         lane4                    // normalImpulse, totalNormalImpulse
	mask                   [4]uint64
}

// laneGroup is up to four body–body constraints solved side by side: the
// contactConstraint and patchFriction fields the passes read, one lane
// per constraint. A lane without a constraint (pad) has no points, its
// bodies are the ground stand-in (index 0, which no body–body constraint
// touches) and it is always idle, so the kernel writes nothing for it.
type laneGroup struct {
	a, b [4]int64 // the bodies' byte offsets in the solver's body array
	npts int64    // the largest point count of the four
	con  [4]int32 // the constraints' indices (-1: pad)
	// From n to mB, contactConstraint's fields from normal in its order;
	// from t1 to twist, patchFriction's (each run one transposeRun).
	n        [3]lane4
	biasRate lane4
	massSc   lane4
	impSc    lane4
	mA, mB   lane4
	t1, t2   [3]lane4
	ctA0     [3]lane4
	ctA1     [3]lane4
	ctB0     [3]lane4
	ctB1     [3]lane4
	itA0     [3]lane4
	itA1     [3]lane4
	itB0     [3]lane4
	itB1     [3]lane4
	inA, inB [3]lane4
	tk11     lane4
	tk12     lane4
	tk22     lane4
	twMass   lane4
	twLever  lane4
	f1, f2   lane4 // friction[0], friction[1]
	twist    lane4
	p        [maxManifoldPoints]lanePoint
}

// laneScratch is the kernel's working memory (one per world: the kernel
// keeps its vectors here rather than on a stack frame).
type laneScratch struct {
	vA, wA, vB, wB [3]lane4
	nA, nB         [3]lane4
	dpA            [3]lane4
	dpn, vnLin     lane4
	t              [maxManifoldPoints]lane4 // each point's vn before the sweep's impulses
	tmp            [12]lane4
	wpA, wpB       [6]lane4 // warmP, warmL of A and B
	lA, lB         [3]lane4
	dt             lane4
	d1, d2         lane4
	maxF           lane4
	active         lane4      // all ones in the lanes that are not idle
	sign           lane4      // −0 in every lane: XOR with it negates
	dummy          solverBody // where an idle lane's stores go
}
