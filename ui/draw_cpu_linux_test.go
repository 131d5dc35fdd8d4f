package ui

import (
	"syscall"
	"unsafe"
)

// threadCPU is the CPU time the calling thread has used, from the
// kernel's per-thread clock (CLOCK_THREAD_CPUTIME_ID, which the scheduler
// keeps in nanoseconds): unlike the wall clock it does not count the time
// other work on a busy machine holds the CPU, and unlike getrusage's
// per-thread figure it is not rounded to the scheduler's ticks (a
// millisecond frame read by ticks is mostly 0 or 4 ms). ok is false when
// it cannot be read.
func threadCPU() (ns int64, ok bool) {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID (Linux)
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return ts.Nano(), true
}
