package game_test

import (
	"strings"
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/lockstep"
)

// fourOnOwnLinks is a four-player session on lan, intercontinental,
// mobile and terrible (the README's lockstep command), small world.
func fourOnOwnLinks(t *testing.T, start int) *game.Session {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.Strategies = catalog.All()
	cfg.World.GridSide = 6
	cfg.World.Players = 4
	cfg.Start = start
	cfg.Link = link.PresetLAN.Config()
	for _, p := range []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetMobile, link.PresetTerrible} {
		cfg.ClientLinks = append(cfg.ClientLinks, p.Pair())
	}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLockstepByKeyKeepsOwnLinks: with a link per client, pressing 4 is
// starting in lockstep with them: the links stay, no mode names them, and
// the server waits for the same player (the one on the terrible link) as
// in a session that started in lockstep.
func TestLockstepByKeyKeepsOwnLinks(t *testing.T) {
	byKey := fourOnOwnLinks(t, entryInterpolation)
	want := byKey.ClientLinks()
	if err := byKey.SetStrategy(entryLockstep); err != nil {
		t.Fatal(err)
	}
	started := fourOnOwnLinks(t, entryLockstep)
	for k, l := range byKey.ClientLinks() {
		if l != want[k] {
			t.Errorf("client %d's link after 4: %+v, want %+v", k+1, l, want[k])
		}
	}
	// Nobody pressed a link key (the stage report: "mode 1:
	// deterministic, link changed by hand" on the README's command).
	started.Step(cubes.Input{})
	byKey.Step(cubes.Input{})
	if m := started.Strategy().Mode(); strings.Contains(m, "by hand") {
		t.Errorf("started with per-client links, the mode reads %q", m)
	}
	if src := byKey.LinkSource(); src != "" {
		t.Errorf("the link is said to be set by %q", src)
	}
	sc := katamari(t)
	blamed := map[string]int{}
	for f := range 420 {
		byKey.Step(sc.InputAt(f))
		started.Step(sc.InputAt(f))
		a := byKey.Strategy().(*lockstep.Strategy).RightFacts()
		b := started.Strategy().(*lockstep.Strategy).RightFacts()
		if a != b {
			t.Fatalf("frame %d: by key %q, started in lockstep %q", byKey.Frame(), a, b)
		}
		for _, p := range []string{"player 2", "player 4"} {
			if strings.Contains(a, p) {
				blamed[p]++
			}
		}
	}
	if blamed["player 4"] < 10*max(blamed["player 2"], 1) {
		t.Errorf("ticks naming each player: %v; want player 4 (terrible) named most", blamed)
	}
	// A key of lockstep's that leaves its choice as it was leaves them.
	for _, s := range []*game.Session{byKey, started} {
		s.SettingsChanged()
		if got := s.ClientLinks(); got[3] != want[3] || got[1] != want[1] {
			t.Errorf("a lockstep key replaced the links: %+v", got)
		}
	}
}

// TestRestoredLinkIsNeverAChosenOne: mobile, 4, mode 5, a link figure
// edited by hand, 3 (the edit stays), 4, 2: the link restored is mobile,
// never the lockstep mode's link the edit was made from.
func TestRestoredLinkIsNeverAChosenOne(t *testing.T) {
	mobile := link.PresetMobile.Config()
	s := stageSession(t, entryInterpolation, mobile)
	if err := s.SetStrategy(entryLockstep); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		s.SubMode(+1)
	}
	edited := s.Link()
	edited.LossPercent++
	s.SetClientLink(0, edited)
	if err := s.SetStrategy(entryStateSync); err != nil {
		t.Fatal(err)
	}
	if s.Link() != edited {
		t.Errorf("the link edited in lockstep did not stay: %+v", s.Link())
	}
	if err := s.SetStrategy(entryLockstep); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStrategy(entryCompression); err != nil {
		t.Fatal(err)
	}
	if !s.LinksRestored() || s.Link() != mobile || s.LinkSource() != "" {
		t.Errorf("after 4 then 2: restored %v, link %+v set by %q; want mobile back", s.LinksRestored(), s.Link(), s.LinkSource())
	}
	// A preset chosen by hand in lockstep is the presenter's own.
	if err := s.SetStrategy(entryLockstep); err != nil {
		t.Fatal(err)
	}
	terrible := link.PresetTerrible.Pair()
	s.SetClientLinks(0, terrible)
	for _, e := range []int{entryStateSync, entryLockstep, entryPredict} {
		if err := s.SetStrategy(e); err != nil {
			t.Fatal(err)
		}
	}
	if s.LinksOf(s.Shown()) != terrible {
		t.Errorf("a preset chosen in lockstep, then 3, 4, 5: %+v, want terrible", s.LinksOf(s.Shown()))
	}
}
