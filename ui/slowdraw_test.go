package ui

import "testing"

// TestSlowWatch: three slow seconds in a row turn anti-aliasing off once;
// if it stays slow without it, the app says so once; a fast second resets
// the count; the presenter's F9 back on is not undone a second time.
func TestSlowWatch(t *testing.T) {
	var s slowWatch
	aa := true
	var got []slowAction
	for _, tps := range []float64{3, 3, 60, 3, 3, 3, 20, 20, 20, 20, 20, 20, 60, 3, 3, 3} {
		act := s.observe(tps, aa)
		if act != slowNothing {
			got = append(got, act)
		}
		if act == slowAntiAliasOff {
			aa = false
		}
		if len(got) == 2 {
			aa = true // the presenter presses F9 again
		}
	}
	want := []slowAction{slowAntiAliasOff, slowSay}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("actions %v, want %v", got, want)
	}
	if n := slowNote(slowAntiAliasOff, 3); n == "" || slowNote(slowNothing, 60) != "" {
		t.Errorf("notes: %q", n)
	}
}
