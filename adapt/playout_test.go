package adapt

import (
	"math"
	"testing"

	"netcubes/wire"
	"netcubes/wire/wiretest"
)

func TestJitterMeasuresSpread(t *testing.T) {
	rng := wire.NewRNG(3)
	var j Jitter
	const base, spread = 20, 6 // transit 20 ± 6 ticks, uniform
	sum := 0.0
	n := 0
	for k := range 20000 {
		j.Add(base + int(wiretest.Int64Range(&rng, -spread, spread)))
		if k > 1000 {
			sum += float64(j.SigmaMilli()) / milli
			n++
		}
	}
	// A discrete uniform on −6..6 has σ = √((13² − 1)/12) = 3.74 ticks.
	want := math.Sqrt((13*13 - 1) / 12.0)
	if got := sum / float64(n); math.Abs(got-want) > 0.25 {
		t.Errorf("σ %.2f ticks, want %.2f", got, want)
	}
	if math.Abs(j.meanTicks()-base) > 1.5 {
		t.Errorf("mean %.2f ticks", j.meanTicks())
	}
	j.Reset()
	for range 100 {
		j.Add(7)
	}
	if j.SigmaMilli() != 0 || j.meanTicks() != 7 || j.Count() != 100 {
		t.Errorf("constant transit: σ %d, mean %.2f", j.SigmaMilli(), j.meanTicks())
	}
}

func TestRunsToCover(t *testing.T) {
	for _, tc := range []struct{ permille, n int }{
		{0, 0}, {1, 0}, {2, 1}, {10, 1}, {44, 1}, {45, 2}, {50, 2}, {125, 2}, {126, 3}, {200, 3}, {300, 4}, {1000, 4},
	} {
		if got := RunsToCover(tc.permille); got != tc.n {
			t.Errorf("RunsToCover(%d ‰) = %d, want %d", tc.permille, got, tc.n)
		}
	}
}

func TestLosses(t *testing.T) {
	var l Losses
	// Every 4th packet of a 30 Hz sender (interval 2) lost: 25 %.
	for k := range 2000 {
		if k%4 != 3 {
			l.Arrived(2*k, 2)
		}
	}
	if got := l.Permille(); got < 220 || got > 280 {
		t.Errorf("loss %d ‰, want about 250", got)
	}
	l.reset()
	for k := range 500 {
		l.Arrived(k, 1)
		l.Arrived(k, 1) // a duplicate is not a packet
	}
	if l.Permille() != 0 {
		t.Errorf("loss %d ‰ without loss", l.Permille())
	}
}

// TestHold: up at once, down only after 3 s of wanting less, a tick per
// second; a brief calm in a jittery stream does not bring it down.
func TestHold(t *testing.T) {
	var h Hold
	if got := h.Update(5); got != 5 {
		t.Fatalf("first: %d", got)
	}
	if got := h.Update(9); got != 9 {
		t.Fatalf("up: %d", got)
	}
	for k := 1; k < HoldTicks; k++ {
		if got := h.Update(4); got != 9 {
			t.Fatalf("tick %d of wanting less: %d", k, got)
		}
	}
	if got := h.Update(4); got != 8 {
		t.Fatalf("after 3 s: %d", got)
	}
	for k := 1; k < wire.TicksPerSecond; k++ {
		h.Update(4)
	}
	if got := h.Update(4); got != 7 {
		t.Fatalf("a second later: %d", got)
	}
	// Calm for 2 s, then jitter again: no change.
	for range 2 * wire.TicksPerSecond {
		h.Update(3)
	}
	h.Update(7)
	for range 2 * wire.TicksPerSecond {
		h.Update(3)
	}
	if h.ticks() != 7 {
		t.Fatalf("hunted down to %d", h.ticks())
	}
}

func TestDelayFormulas(t *testing.T) {
	// 60 Hz, no jitter, no loss: one interval and the rounding tick.
	if got := SnapshotDelay(1, 0, 0); got != 2 {
		t.Errorf("clean 60 Hz: %d", got)
	}
	// 10 Hz, σ = 1.5 ticks, 5 % loss: 3 × 6 + 3 + 1.
	if got := SnapshotDelay(6, 1500, 50); got != 22 {
		t.Errorf("10 Hz jittery: %d", got)
	}
	if got := JitterFrames(12_400, 10, 800); got != 5 {
		t.Errorf("state sync: %d, want 2.4 + 2 × 0.8 + 1", got)
	}
	if got := JitterFrames(10_000, 10, 0); got != 1 {
		t.Errorf("no jitter: %d", got)
	}
}
