package game_test

import (
	"testing"

	"netcubes/game"
	"netcubes/link"
)

// TestRenderSwitchIsNoPop: stepping strategy 1's render modes (hermite
// +0.2 s → latest, …) changes how the right is drawn, not where its cubes
// are: the tick after a step reports no pop. And after a switch to 1
// mid-run the right shows nothing until its first snapshot, not the
// fresh grid.
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
	waited := 0
	for ; f < 240 && !s.Metrics().Valid; f++ {
		s.Step(sc.InputAt(f))
		if n := len(s.RightView().Cubes); !s.Metrics().Valid && n != 0 {
			t.Fatalf("before its first snapshot the right shows %d cubes (the fresh grid)", n)
		}
		waited++
	}
	if waited < 2 {
		t.Fatalf("the first snapshot came after %d ticks: the test needs a wait", waited)
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
