package snapshot

import "testing"

// TestSnapshotStageWords: the toasts and the settings line read right
// aloud (the stage report: "D" read "(+1 ticks)"; "F" at level 1 said
// "player prediction: off" without saying it only acts at levels 9-14).
func TestSnapshotStageWords(t *testing.T) {
	st := NewCompression()
	for _, c := range []struct {
		nudge int
		want  string
	}{{1, " (+1 tick)"}, {2, " (+2 ticks)"}, {-1, " (−1 tick)"}, {-3, " (−3 ticks)"}} {
		st.SetDelayNudge(c.nudge)
		if got := st.cfg.DelayString(); len(got) < len(c.want) || got[len(got)-len(c.want):] != c.want {
			t.Errorf("nudge %+d: %q, want it to end in %q", c.nudge, got, c.want)
		}
	}
	for _, c := range st.Controls() {
		if c.Key != "F" {
			continue
		}
		st.SetLevel(1)
		st.SetPlayerPrediction(true)
		if got := c.Press(1); got != "player prediction: off (acts at levels 9-14 only; now level 1)" {
			t.Errorf("F at level 1: %q", got)
		}
		st.SetLevel(11)
		if got := c.Press(1); got != "player prediction: on" {
			t.Errorf("F at level 11: %q", got)
		}
	}
}
