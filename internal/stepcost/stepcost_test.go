package stepcost

import (
	"testing"
	"time"
)

// tickClock is a clock that advances by one millisecond at every reading,
// so each timed call measures exactly 1 ms.
func tickClock() Clock {
	var t time.Duration
	return func() time.Duration {
		t += time.Millisecond
		return t
	}
}

// TestRunGather checks the bookkeeping on a short run with a clock that
// makes every timed call 1 ms: one time per gather step, the saves' and
// restores' medians, a save's size, and a world that went on unchanged
// through the restores (the ball as a run without them).
func TestRunGather(t *testing.T) {
	const limit = 75 // 60 ticks of drop, 15 of gather
	g, err := RunGather(tickClock(), 8, 5, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Steps) != 15 {
		t.Fatalf("%d steps timed, want 15", len(g.Steps))
	}
	if g.Median() != 1 || g.P95() != 1 || g.SaveMs != 1 || g.RestMs != 1 {
		t.Errorf("median %v p95 %v save %v restore %v, want 1 ms each", g.Median(), g.P95(), g.SaveMs, g.RestMs)
	}
	if g.SaveSize <= 0 {
		t.Errorf("save size %d", g.SaveSize)
	}
	plain, err := RunGather(tickClock(), 8, 0, limit)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Ball != g.Ball || plain.SaveSize != 0 {
		t.Errorf("ball %d with saves and restores, %d without (save size %d)", g.Ball, plain.Ball, plain.SaveSize)
	}
}

// TestRunAsleep checks that the dropped player and the cubes it knocked
// fall asleep and that the costs come out per step.
func TestRunAsleep(t *testing.T) {
	a, err := RunAsleep(tickClock(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if a.Awake != 0 || a.Settled < 60 || a.Settled >= 1200 {
		t.Errorf("%d awake after %d ticks", a.Awake, a.Settled)
	}
	// One reading before and one after each 10 steps: 1 ms apart, so
	// 0.1 ms a step.
	if a.PhysicsNs != 1e5 || a.WorldNs != 1e5 {
		t.Errorf("physics %v ns, world %v ns a step", a.PhysicsNs, a.WorldNs)
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	for _, tt := range []struct{ p, want float64 }{{0.5, 3}, {1, 5}, {0, 1}, {0.95, 5}} {
		if got := Percentile(xs, tt.p); got != tt.want {
			t.Errorf("Percentile(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if Percentile(nil, 0.5) != 0 {
		t.Error("empty: want 0")
	}
}
