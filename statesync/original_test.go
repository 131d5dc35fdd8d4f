package statesync

import (
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/wire"
)

// The original demo's six modes: F2 switches [ ] to them, each sets its
// switches and chooses its link (10 % loss from mode 4), every step
// restarts the right; F2 again gives back the settings from before; mode
// 5 says on screen why basic smoothing is 0.9, not the original's 0.975.
func TestOriginalModes(t *testing.T) {
	st := New(DefaultConfig())
	st.SetStep(2)
	before := st.Settings()
	f2 := findControl(t, st, OriginalKey)
	f2.Press(+1)
	if st.original() != 1 || st.Settings() != OriginalModes[0].Settings || st.Step() != 3 {
		t.Fatalf("after F2: original %d, step %d, %s", st.original(), st.Step(), st.Mode())
	}
	for n := 2; n <= len(OriginalModes); n++ {
		st.SubMode(+1)
		c, name, ok := st.ChosenLink()
		om := OriginalModes[n-1]
		if st.original() != n || !ok || c != om.Link || st.Settings() != om.Settings || !st.RestartsAfter(+1) {
			t.Errorf("mode %d: original %d, link %+v (%q, %v), %s", n, st.original(), c, name, ok, st.Mode())
		}
		if wantLoss := n >= 4; (c.LossPercent == 10) != wantLoss {
			t.Errorf("mode %d: %v %% loss", n, c.LossPercent)
		}
		if n == 5 && (st.Settings().Smoothing != replication.SmoothingBasic || !strings.Contains(st.Explain(), "0.975")) {
			t.Errorf("mode 5: smoothing %v, explain %q", st.Settings().Smoothing, st.Explain())
		}
	}
	if got := st.Mode(); !strings.HasPrefix(got, "original mode 6: adaptive smoothing · ") {
		t.Errorf("mode line %q", got)
	}
	findControl(t, st, "J").Press(+1)
	if got := st.Mode(); !strings.HasPrefix(got, "original mode 6: adaptive smoothing (changed by hand)") {
		t.Errorf("after J: %q", got)
	}
	f2.Press(+1)
	if st.original() != 0 || st.Settings() != before || st.RestartsAfter(+1) {
		t.Errorf("after F2 again: original %d, %s (want step 2 as before)", st.original(), st.Mode())
	}
	if _, _, ok := st.ChosenLink(); ok {
		t.Error("back on the build-up, a link is chosen")
	}
}

// In a session: mode 4's 10 % loss replaces the presenter's link, shows
// as lost packets, and the presenter's link is back after F2.
func TestOriginalModesLinkInSession(t *testing.T) {
	cfg := game.DefaultConfig()
	lan := link.PresetLAN.Config()
	cfg.Link = lan
	st := New(DefaultConfig())
	cfg.Strategies = []strategy.Strategy{st}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	findControl(t, st, OriginalKey).Press(+1)
	s.SettingsChanged()
	for range 3 {
		s.SubMode(+1)
	}
	if s.Link() != tenPercent || s.LinkSource() != "state sync demo mode 4" {
		t.Fatalf("mode 4: link %+v from %q", s.Link(), s.LinkSource())
	}
	for range 3 * wire.TicksPerSecond {
		s.Step(cubes.Input{Up: true})
	}
	if m := s.Metrics(); m.Loss <= 0 {
		t.Errorf("mode 4: no loss measured (%+v)", m.Loss)
	}
	findControl(t, st, OriginalKey).Press(+1)
	s.SettingsChanged()
	if s.Link() != lan {
		t.Errorf("after F2 again: link %+v, want the presenter's LAN %+v", s.Link(), lan)
	}
}

// TestOriginalFlag: -original N starts state sync in the sync demo's mode
// N with its link; a number past the list is refused unchanged.
func TestOriginalFlag(t *testing.T) {
	st := New(DefaultConfig())
	var set func(string) error
	for _, f := range st.Flags() {
		if f.Name == strategy.OriginalFlagName {
			set = f.Set
		}
	}
	if set == nil {
		t.Fatalf("no -%s flag", strategy.OriginalFlagName)
	}
	if err := set("0"); err == nil || st.original() != 0 {
		t.Errorf("-original 0 accepted (mode %d)", st.original())
	}
	if err := set("4"); err != nil {
		t.Fatal(err)
	}
	if c, _, ok := st.ChosenLink(); st.original() != 4 || st.Settings() != OriginalModes[3].Settings || !ok || c != OriginalModes[3].Link {
		t.Errorf("-original 4: mode %d, %s, link %+v (%v)", st.original(), st.Mode(), c, ok)
	}
}
