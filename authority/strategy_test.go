package authority

import (
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/strategy/strategytest"
)

// TestConformance: distributed authority passes the checks every
// strategy must (package strategytest).
func TestConformance(t *testing.T) {
	strategytest.Conformance(t, func() strategy.Strategy { return New(DefaultConfig()) })
}

// session is a small world (37 cubes) of players players on lc, at step.
var gridSide = 6

func session(t testing.TB, players int, lc link.Config, set func(*Settings), bots ...cubes.BotKind) (*game.Session, *Strategy) {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.World.Players = players
	if gridSide > 0 {
		cfg.World.GridSide = gridSide
	}
	cfg.Link = lc
	if len(bots) > 0 {
		cfg.Bots = bots
	}
	st := New(DefaultConfig())
	s := st.Settings()
	set(&s)
	st.SetSettings(s)
	cfg.Strategies = append(cfg.Strategies, st)
	sess, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sess, st
}

func TestSmoke(t *testing.T) {
	for step := StepHost; step <= StepReturn; step++ {
		for _, p2p := range []bool{false, true} {
			s, st := session(t, 3, link.PresetLAN.Config(), func(x *Settings) { x.Step = step; x.P2P = p2p; x.Cheat = true })
			for f := range 600 {
				in := cubes.Input{Right: f%200 < 100, Up: f%300 < 150, Katamari: f%120 < 60}
				s.Step(in)
			}
			t.Logf("step %d p2p %v: %s · host %+v", step, p2p, st.Facts(), st.room.host.stats.Claims)
		}
	}
}
