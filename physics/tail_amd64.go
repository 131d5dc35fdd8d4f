//go:build amd64 && !purego

package physics

import "golang.org/x/sys/cpu"

// haveTailKernel reports whether the lanes' tail runs the assembly kernel
// (tail_amd64.s): it needs AVX2 (a broadcast from a register) besides
// the lane kernel's AVX.
var haveTailKernel = haveLaneKernel && cpu.X86.HasAVX2

// tailKernel runs one contact pass over the n constraints from cons (and
// their friction from fric), one after the other, as solveDynamic does.
//
//go:noescape
func tailKernel(cons *contactConstraint, fric *patchFriction, n int, pts *constraintPoint, bodies *solverBody, p *laneParams)
