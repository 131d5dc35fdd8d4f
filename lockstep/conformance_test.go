package lockstep

import (
	"testing"

	"netcubes/strategy"
	"netcubes/strategy/strategytest"
)

// TestConformance: lockstep passes the checks every strategy must
// (package strategytest).
func TestConformance(t *testing.T) {
	strategytest.Conformance(t, func() strategy.Strategy { return New(DefaultConfig()) })
}

// TestModesJitter: as in the original demo, every lossy mode (3-7) has
// ±1/60 s of jitter, and the two perfect ones none.
func TestModesJitter(t *testing.T) {
	for i, m := range Modes {
		want := 0.0
		if m.Link.LossPercent > 0 {
			want = 1000.0 / 60
		}
		if m.Link.JitterMs != want {
			t.Errorf("mode %d (%s): jitter ±%v ms, want ±%v", i+1, m.Name, m.Link.JitterMs, want)
		}
	}
}
