package predict

import (
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
)

// TestPredictDivergence: whole-world replay with smoothing (step 4) over a
// 50 ms link, the player gathering a ball in a 145-cube world. On the
// server's own machine the client never mispredicts; on another machine
// it does (the article's corrections, rewinds and replays appear), and
// the HUD's mode line says which machine.
func TestPredictDivergence(t *testing.T) {
	sc, err := cubes.ParseScript("ball", strings.NewReader("0-59 -\n60-239 up katamari\n240-419 left katamari\n420-479 blow\nend 600\n"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(m diverge.Mode) (Stats, string) {
		cfg := game.DefaultConfig()
		cfg.World.GridSide = 12
		st := New(DefaultConfig())
		st.SetMode(ReplaySmooth)
		s := st.Settings()
		s.Scope, s.Divergence = ScopeWorld, m
		st.SetSettings(s)
		cfg.Strategies = []strategy.Strategy{st}
		cfg.Link = link.Config{LatencyMs: 50}
		sess, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for f := range 600 {
			sess.Step(sc.InputAt(f))
		}
		return st.Stats(), st.Mode()
	}
	var corr [diverge.NumModes]uint64
	for m := diverge.Off; m < diverge.NumModes; m++ {
		ss, mode := run(m)
		corr[m] = ss.Corrections
		t.Logf("%-16s %4d corrections, %5d frames replayed · %s", m, ss.Corrections, ss.ReplayedFrames, mode)
		if (m != diverge.Off) != strings.Contains(mode, "client: "+m.String()) {
			t.Errorf("%s: mode line %q", m, mode)
		}
	}
	if corr[diverge.Off] != 0 || corr[diverge.Machine] == 0 {
		t.Errorf("corrections: %d on the same machine (want 0), %d on another (want some)", corr[diverge.Off], corr[diverge.Machine])
	}
}
