package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestThreadCountsWorkNotSleep: busy work adds CPU time, sleeping adds
// (almost) none.
func TestThreadCountsWorkNotSleep(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok := Thread()
	if !ok {
		t.Skip("no thread CPU clock on this platform")
	}
	x := 1.0
	for i := 0; i < 20_000_000; i++ {
		x = x*1.0000001 + 1e-9
	}
	t1, _ := Thread()
	time.Sleep(50 * time.Millisecond)
	t2, _ := Thread()
	if t1 <= t0 || x == 0 {
		t.Fatalf("busy work took %v of CPU", t1-t0)
	}
	if slept := t2 - t1; slept > 20*time.Millisecond {
		t.Errorf("sleeping 50 ms took %v of CPU", slept)
	}
}
