package snapshot

import (
	"strings"
	"testing"

	"netcubes/adapt"
	"netcubes/wire"
)

// TestSnapshotSimpleCongestion: the articles' two modes over the cap step
// of TestSnapshotCongestionAvoidance. It starts in bad mode (10 Hz), goes
// good (30 Hz, never the presenter's 60) after 4 s of a clear path, drops
// to 10 Hz when the queue under the 200 kbit/s cap pushes the round trip
// past 250 ms, and the HUD says which mode and why. F8 walks off → on →
// simple → off.
func TestSnapshotSimpleCongestion(t *testing.T) {
	const s = wire.TicksPerSecond
	sc := loadScript(t, "katamari")
	sess, st := smallSession(t, threeSteps(), func(st *Strategy) {
		st.cfg.CongestionAvoidance, st.cfg.SimpleCongestion = true, true
	})
	var at2, at5, highest, lowLate Rate
	var expl, facts, mode string
	lowLate = Rate60
	for f := range 15 * s {
		sess.Step(sc.InputAt(f))
		switch {
		case f == 2*s:
			at2 = st.rate()
		case f == 5*s:
			at5 = st.rate()
		case f >= 12*s:
			lowLate = min(lowLate, st.rate())
		}
		highest = max(highest, st.rate())
		if f == 14*s {
			expl, facts, mode = st.Explain(), st.Facts(), st.Mode()
		}
	}
	t.Logf("2 s: %s, 5 s: %s, highest %s, late in the low cap %s\n%s\n%s\n%s", at2, at5, highest, lowLate, mode, expl, facts)
	if at2 != Rate10 || at5 != Rate30 || highest != Rate30 {
		t.Errorf("rates: %s at 2 s (want 10: bad mode first), %s at 5 s (want 30), highest %s (want 30)", at2, at5, highest)
	}
	if lowLate != Rate10 {
		t.Errorf("under the 200 kbit/s cap: lowest rate %s, want 10 Hz (bad mode)", lowLate)
	}
	if !strings.HasPrefix(expl, "Simple congestion avoidance") || !strings.Contains(mode, "simple congestion avoidance") ||
		!strings.Contains(facts, "mode") {
		t.Errorf("HUD: mode %q, explain %q, facts %q", mode, expl, facts)
	}
	k := findKey(t, st, adapt.CongestionKey)
	st.cfg.CongestionAvoidance, st.cfg.SimpleCongestion = false, false
	for _, want := range []string{"on (the estimator)", "simple (the articles' two modes)", "off"} {
		if got := k.Press(1); got != "congestion avoidance: "+want {
			t.Errorf("F8: %q, want %q", got, want)
		}
	}
}
