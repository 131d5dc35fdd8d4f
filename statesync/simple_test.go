package statesync

import (
	"strings"
	"testing"

	"netcubes/wire"
)

// TestStateSyncSimpleCongestion: the articles' two modes over capStep():
// bad mode (a third of the budget) at first, the whole budget after 4 s of
// a clear path, and back to a third once the queue under the 256 kbit/s
// cap pushes the round trip past 250 ms; the estimator's figures are not
// the budget then, and the HUD says which rule and why.
func TestStateSyncSimpleCongestion(t *testing.T) {
	const s = wire.TicksPerSecond
	sess, st := adaptSession(t, capStep(), 512, true, false)
	set := st.Settings()
	set.SimpleCongestion = true
	st.SetSettings(set)
	var at2, at6, late float64
	for f := range 14 * s {
		sess.Step(cubesIdle)
		switch f {
		case 2 * s:
			at2, _ = st.BudgetKbps()
		case 6 * s:
			at6, _ = st.BudgetKbps()
		}
	}
	late, _ = st.BudgetKbps()
	expl, mode, facts := st.Explain(), st.Mode(), st.Facts()
	t.Logf("budget %v at 2 s, %v at 6 s, %v at 14 s\n%s\n%s\n%s", at2, at6, late, expl, mode, facts)
	if at2 != 170 || at6 != 512 || late != 170 {
		t.Errorf("budget %v at 2 s (want 170: bad mode), %v at 6 s (want 512: good), %v at 14 s (want 170: bad again)", at2, at6, late)
	}
	if !strings.HasPrefix(expl, "Simple congestion avoidance") || !strings.Contains(mode, "simple congestion avoidance") ||
		!strings.HasPrefix(facts, "simple: bad mode") {
		t.Errorf("HUD: explain %q, mode %q, facts %q", expl, mode, facts)
	}
}
