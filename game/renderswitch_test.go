package game_test

import (
	"testing"

	"netcubes/game"
	"netcubes/link"
)

// TestRenderSwitchIsNoPop: stepping strategy 1's render modes (hermite
// +0.2 s → latest, …) changes how the right is drawn, not where its cubes
// are: the tick after a step reports no pop.
func TestRenderSwitchIsNoPop(t *testing.T) {
	sc := katamari(t)
	s := stageSession(t, entryStateSync, link.PresetIntercontinental.Config())
	f := 0
	for ; f < 120; f++ {
		s.Step(sc.InputAt(f))
	}
	if err := s.SetStrategy(entryInterpolation); err != nil {
		t.Fatal(err)
	}
	first := s.Strategy().Mode()
	for n := 0; n < 10; n++ {
		for end := f + 40; f < end; f++ {
			s.Step(sc.InputAt(f))
		}
		s.SubMode(+1)
		s.Step(sc.InputAt(f))
		f++
		if m := s.Metrics(); m.MaxPopCm >= game.PopCaptionCm {
			t.Errorf("into %q: a pop of %.0f cm", s.Strategy().Mode(), m.MaxPopCm)
		}
		if s.Strategy().Mode() == first {
			break
		}
	}
}
