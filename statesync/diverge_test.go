package statesync

import (
	"testing"

	"netcubes/diverge"
	"netcubes/link"
)

// TestStateSyncDivergence: at step 8 (quantize both sides) on a perfect
// link, a right on the same machine is never corrected: every update
// finds the cube already there. On another machine the updates correct
// it, and some corrections are pops; float noise, which the quantization
// absorbs for a while, corrects less than another solver. The 145-cube
// world of adaptSession, the ball scenario's first 10 s.
func TestStateSyncDivergence(t *testing.T) {
	sc := scenario(t, ballScenario)
	run := func(m diverge.Mode) Stats {
		sess, st := adaptSession(t, link.Config{}, 256, false, false)
		set := StepSettings(8)
		set.Divergence = m
		st.SetSettings(set)
		for f := range 600 {
			sess.Step(sc.InputAt(f))
		}
		return st.Stats()
	}
	got := map[diverge.Mode]Stats{}
	for m := diverge.Off; m < diverge.NumModes; m++ {
		got[m] = run(m)
		t.Logf("%-16s %5d updates applied, %5d corrections, %4d pops", m, got[m].AppliedUpdates, got[m].Corrections, got[m].Pops)
	}
	if s := got[diverge.Off]; s.Corrections != 0 || s.AppliedUpdates == 0 {
		t.Errorf("the same machine: %d corrections of %d updates, want none", s.Corrections, s.AppliedUpdates)
	}
	if s := got[diverge.Machine]; s.Corrections == 0 || s.Pops == 0 {
		t.Errorf("another machine: %d corrections, %d pops, want some", s.Corrections, s.Pops)
	}
	if n, m := got[diverge.Noise].Corrections, got[diverge.Machine].Corrections; n == 0 || n >= m {
		t.Errorf("float noise: %d corrections, another machine %d: want some, fewer", n, m)
	}
}
