package physics

//lint:file-ignore U1000 the scratch's fields are read and written by lanes_amd64.s only

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
