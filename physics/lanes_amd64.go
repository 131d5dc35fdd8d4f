//go:build amd64 && !purego

package physics

import "unsafe"

// haveLaneKernel reports whether the body–body contact passes run the
// assembly kernel (lanes_amd64.s): the processor has AVX (256-bit
// registers of four float64 lanes) and the operating system saves them.
var haveLaneKernel = hasAVX()

// laneKernel runs one contact pass over the lane groups (lanes.go), with
// bodies the solver's body array.
//
//go:noescape
func laneKernel(groups []laneGroup, bodies *solverBody, p *laneParams, s *laneScratch)

// transposeRun is transposeRunGo in assembly (lanes_amd64.s).
//
//go:noescape
func transposeRun(dst *lane4, src *[4]unsafe.Pointer, n int)

// cpuid is the CPUID instruction: leaf and subleaf in, EAX to EDX out.
//
//go:noescape
func cpuid(leaf, sub uint32) (a, b, c, d uint32)

// xgetbv0 is XGETBV with ECX 0: the register state the OS saves.
func xgetbv0() (eax, edx uint32)

func hasAVX() bool {
	if max, _, _, _ := cpuid(0, 0); max < 1 {
		return false
	}
	_, _, c, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c&osxsave == 0 || c&avx == 0 {
		return false
	}
	eax, _ := xgetbv0()
	return eax&6 == 6 // the OS saves the XMM and YMM state
}
