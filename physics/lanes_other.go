//go:build !amd64 || purego

package physics

import "unsafe"

// haveLaneKernel: no lane kernel here; the passes run solveDynamic.
const haveLaneKernel = false

// laneKernel is never called where haveLaneKernel is false (buildLanes
// leaves the lanes off); it exists so that the package compiles.
func laneKernel(groups []laneGroup, bodies *solverBody, p *laneParams, s *laneScratch) {
	panic("physics: no lane kernel on this platform")
}

// transposeRun is transposeRunGo (the tests build lanes everywhere).
func transposeRun(dst *lane4, src *[4]unsafe.Pointer, n int) { transposeRunGo(dst, src, n) }
