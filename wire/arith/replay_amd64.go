//go:build amd64 && !purego

package arith

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Design note: why Replay has an assembly kernel on amd64. The replay
// loop is most of a server's sending time, and it is bound by the number
// of instructions it issues, not by waiting: a mixed decision needs about
// twenty values at once (the coder's state, three models, six stretched
// inputs, six weights), and Go keeps about fourteen in registers on amd64,
// so a sixth of the compiled loop moved values to and from the stack. The
// kernel (replay_amd64.s) keeps every value in a register and does the
// six weights' products, their sum, their update and clamp, and the three
// models' settled update four lanes at a time in SSE registers (SSE4.1:
// 32-bit lane products, signed min and max, sign extension to 64 bits).
// It does exactly what replayGo does, operation for operation, in the same
// order (TestReplayKernelAgainstGo, FuzzReplayKernel); the Go loop stays
// the portable implementation and the reference.

// haveReplayKernel reports whether Replay runs the assembly kernel: the
// processor has SSSE3 and SSE4.1 (every amd64 processor since about 2008;
// the kernel's vector instructions need them).
var haveReplayKernel = cpu.X86.HasSSSE3 && cpu.X86.HasSSE41

// replayKernel is Encoder.Replay in assembly (replay_amd64.s).
//
//go:noescape
func replayKernel(e *Encoder, base unsafe.Pointer, steps []Step, classes *[256]uint8)

// kernelTables are the tables the kernel reads, in one block so that one
// register addresses them all: copies of the Go loop's (filled at init
// from them, TestKernelTables) and the kernel's vector constants.
type kernelTables struct {
	stretch [probOne]int32        // stretch32
	squash  [probOne]uint16       // squashTable, [x+2047]; the last is unused
	cost    [probOne >> 4]uint32  // costTable
	rates   [adaptSteps][4]uint32 // adaptRates: fast, slow, step, unused
	flipUp  [2][2][4]uint32       // [bit]: Prob.moved's flip and up, in four lanes
	wmax    [4]int32              // clampWeight's bounds, in four lanes
	wmin    [4]int32
	fast    [4]uint32    // probMask, in four lanes
	bcast   [16]uint8    // PSHUFB: bytes 0-1 into each lane's low half, 0 above
	errE    [2][8]uint32 // [bit]: 4095 after a 0, 0 after a 1, in four lanes (and 16 bytes unused, for the stride)
}

var kernelTab kernelTables

// This init runs after mix.go's and coder.go's, which fill the tables it
// copies (a package's init functions run in the order of its files'
// names).
func init() {
	t := &kernelTab
	t.stretch = stretch32
	copy(t.squash[:], squashTable[:])
	t.cost = costTable
	for n, r := range adaptRates {
		t.rates[n] = [4]uint32{r.fast, r.slow, r.step, 0}
	}
	for i := range 4 {
		t.flipUp[0][0][i], t.flipUp[0][1][i] = 0xFFFF0FFF, 1
		t.wmax[i], t.wmin[i] = 1<<20, -1<<20
		t.fast[i] = probMask
		t.bcast[4*i], t.bcast[4*i+1], t.bcast[4*i+2], t.bcast[4*i+3] = 0, 1, 0x80, 0x80
		t.errE[0][i] = probMask
	}
}
