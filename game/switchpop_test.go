package game_test

import (
	"testing"

	"netcubes/catalog"
	"netcubes/game"
	"netcubes/link"
)

// TestSwitchIsNoPop: the app refreshes the views right after a switch of
// strategy (so that a paused screen shows the new one); the next tick's
// picture must not be measured as a pop against that refresh. Four
// players on links of their own, as on stage: switching to distributed
// authority once captioned "a cube jumped 1225 cm in one tick" on its
// first tick, while its own largest pop was 0.
func TestSwitchIsNoPop(t *testing.T) {
	sc := katamari(t)
	cfg := game.DefaultConfig()
	cfg.Strategies = catalog.All()
	cfg.Start = entryCompression
	cfg.Link = link.PresetLAN.Config()
	cfg.World.Players = 4
	for _, p := range []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetMobile, link.PresetTerrible} {
		cfg.ClientLinks = append(cfg.ClientLinks, link.Symmetric(p.Config()))
	}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := 0
	for ; f < 120; f++ {
		s.Step(sc.InputAt(f))
	}
	for i := range catalog.All() {
		if err := s.SetStrategy(i); err != nil {
			t.Fatal(err)
		}
		s.Refresh()
		for end := f + 2; f < end; f++ {
			s.Step(sc.InputAt(f))
			if m := s.Metrics(); m.MaxPopCm >= game.PopCaptionCm {
				t.Errorf("into %s: a pop of %.0f cm on tick %d after the switch", s.Strategy().Name(), m.MaxPopCm, f-end+2)
			}
		}
		for end := f + 30; f < end; f++ {
			s.Step(sc.InputAt(f))
		}
	}
}
