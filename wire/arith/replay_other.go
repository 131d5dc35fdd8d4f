//go:build !amd64 || purego

package arith

import "unsafe"

// haveReplayKernel: no assembly replay here; Replay runs replayGo.
const haveReplayKernel = false

// replayKernel is never called where haveReplayKernel is false; it is the
// Go loop, so that the tests comparing the two compile everywhere.
func replayKernel(e *Encoder, base unsafe.Pointer, steps []Step, classes *[256]uint8) {
	e.replayGo(base, steps, classes)
}
