// Package cputime reads the processor time the calling thread has used,
// for benchmarks that must report a cost in CPU rather than wall time: on
// a shared machine the wall time of a tick grows with every other process
// that runs, the thread's own CPU time does not. Lock the goroutine to its
// thread (runtime.LockOSThread) around what is measured.
package cputime

import "time"

// Thread is the CPU time the calling thread has used so far, and whether
// this platform can measure it (elsewhere it is the wall clock's time, so
// differences are still durations, only noisier).
func Thread() (time.Duration, bool) {
	if d, ok := threadCPU(); ok {
		return d, true
	}
	return time.Duration(time.Now().UnixNano()), false
}
