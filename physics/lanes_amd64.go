//go:build amd64 && !purego

package physics

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveLaneKernel reports whether the body–body contact passes run the
// assembly kernel (lanes_amd64.s): the processor has AVX (256-bit
// registers of four float64 lanes) and the operating system saves them.
var haveLaneKernel = cpu.X86.HasAVX // (x/sys/cpu: set only when the OS saves the YMM state)

// laneKernel runs one contact pass over the lane groups (lanes.go), with
// bodies the solver's body array.
//
//go:noescape
func laneKernel(groups []laneGroup, bodies *solverBody, p *laneParams, s *laneScratch)

// transposeRun is transposeRunGo in assembly (lanes_amd64.s).
//
//go:noescape
func transposeRun(dst *lane4, src *[4]unsafe.Pointer, n int)
