package statesync

import (
	"strings"
	"testing"
)

// TestStateSyncStageWords: what the presenter reads after a key is true
// and reads right (the stage report: "sync off: off"; V and A with
// compression off said "on" and changed a hidden setting; "[" from custom
// jumped to step 1; step 1's lesson, the cubes never sent, was cut off the
// end of the facts line).
func TestStateSyncStageWords(t *testing.T) {
	st := New(DefaultConfig())
	st.SetStep(4) // not compressed
	if got := findControl(t, st, "V").Press(1); got != "positions relative to the player: on (acts with compressed updates only: C)" {
		t.Errorf("V at step 4: %q", got)
	}
	if got := findControl(t, st, "A").Press(1); got != "delta encoding: on (acts with compressed updates only: C)" {
		t.Errorf("A at step 4: %q", got)
	}
	st.SetStep(8)
	if got := findControl(t, st, "A").Press(1); got != "delta encoding: off" {
		t.Errorf("A at step 8: %q", got)
	}
	st.SetStep(8)
	o := findControl(t, st, "O")
	if got := o.Press(1); got != "sync: off, the right runs on its own" {
		t.Errorf("O: %q", got)
	}
	// Step 8 with sync off is custom: "[" goes to step 7, "]" back to 8.
	if st.Step() != 0 {
		t.Fatalf("step 8 with sync off is step %d", st.Step())
	}
	if msg := st.SubMode(-1); st.Step() != 7 || !strings.HasPrefix(msg, "step 7: adaptive smoothing") {
		t.Errorf("[ from custom (8 + sync off): step %d, %q", st.Step(), msg)
	}
	if got := o.Press(1); got != "sync: off, the right runs on its own" {
		t.Errorf("O: %q", got)
	}
	if msg := st.SubMode(+1); st.Step() != 8 || msg != "step 8: delta, relative, rest commit" {
		t.Errorf("] from custom (7 + sync off): step %d, %q", st.Step(), msg)
	}
	if !st.RestartsAfter(-1) || st.RestartsAfter(+1) {
		t.Error("only a step down restarts the right")
	}
	// Step 1's lesson leads its facts.
	st.stats.NeverSent, st.stats.UpdatesPerPacket, st.stats.BitsPerUpdate = 773, 64, 339
	if f := st.Facts(); !strings.HasPrefix(f, "773 cubes never sent · ") {
		t.Errorf("facts %q", f)
	}
	st.stats.NeverSent = 1
	if f := st.Facts(); !strings.HasPrefix(f, "1 cube never sent · ") {
		t.Errorf("facts %q", f)
	}
}
