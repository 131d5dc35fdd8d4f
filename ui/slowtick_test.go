package ui

import (
	"strings"
	"testing"
)

// TestSlowTickWatch: the page says once, after three slow seconds in a
// row, that ticks (not drawing) hold the simulation back, and again only
// for another strategy setting.
func TestSlowTickWatch(t *testing.T) {
	var w slowTickWatch
	steps := []struct {
		tps, tickMs float64
		setting     string
		say         bool
	}{
		{60, 20, "predict world", false}, // real time: nothing to say
		{40, 20, "predict world", false},
		{40, 20, "predict world", false},
		{40, 20, "predict world", true},
		{40, 20, "predict world", false}, // said once
		{40, 20, "predict player", false},
		{40, 20, "predict player", false},
		{40, 20, "predict player", true}, // another setting
		{20, 5, "statesync", false},      // slow, but not the ticks: drawing
		{20, 5, "statesync", false},
		{20, 5, "statesync", false},
		{20, 5, "statesync", false},
		{45, 13, "lockstep", false},
		{45, 13, "lockstep", false},
		{55, 13, "lockstep", false}, // recovered: the count starts over
		{45, 13, "lockstep", false},
		{45, 13, "lockstep", false},
	}
	for i, s := range steps {
		note := w.observe(s.tps, s.tickMs, s.setting)
		if (note != "") != s.say {
			t.Fatalf("step %d (%+v): note %q", i, s, note)
		}
		if note != "" && !strings.Contains(note, "costs 20 ms") {
			t.Errorf("note %q lacks the tick's cost", note)
		}
	}
}
