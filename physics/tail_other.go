//go:build !amd64 || purego

package physics

// haveTailKernel: no tail kernel here; the tail runs solveDynamic.
const haveTailKernel = false

// tailKernel is never called where haveTailKernel is false; it exists so
// that the package compiles.
func tailKernel(cons *contactConstraint, fric *patchFriction, n int, pts *constraintPoint, bodies *solverBody, p *laneParams) {
	panic("physics: no tail kernel on this platform")
}
