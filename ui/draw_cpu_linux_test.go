package ui

import "syscall"

// threadCPU is the CPU time the calling thread has used, from the
// kernel's accounting (RUSAGE_THREAD): unlike the wall clock it does not
// count the time other work on a busy machine holds the CPU. ok is false
// when it cannot be read.
func threadCPU() (ns int64, ok bool) {
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
