package rollback

import (
	"fmt"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/testutil"
	"netcubes/link"
	"netcubes/strategy"
)

// setup is one test session: players players on a world of side×side
// cubes (0: the default world), every client on lc, the strategy at step
// (0-based) with input delay delay (−1: the step's).
type setup struct {
	side, players, clients, step, delay int
	lc                                  link.Config
	links                               []link.Config // each client's, when given
}

func newSession(t testing.TB, su setup) (*game.Session, *Strategy) {
	t.Helper()
	st := New(DefaultConfig())
	st.SetStep(su.step)
	if su.delay >= 0 {
		st.SetInputDelay(su.delay)
	}
	cfg := game.DefaultConfig()
	if su.side > 0 {
		cfg.World.GridSide = su.side
	}
	cfg.World.Players = max(su.players, 1)
	cfg.Clients = su.clients
	cfg.Strategies = []strategy.Strategy{st}
	cfg.Link = su.lc
	for _, l := range su.links {
		cfg.ClientLinks = append(cfg.ClientLinks, link.Symmetric(l))
	}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// machines are every client's instance.
func machines(s *game.Session) []*Strategy {
	var out []*Strategy
	for k := range s.NumClients() {
		out = append(out, s.ClientStrategy(k).(*Strategy))
	}
	return out
}

func katamari(t testing.TB) *cubes.Script { return testutil.Katamari(t) }

// play steps the katamari script's first frames, then idle ticks until
// every input has arrived everywhere, recording the left's hash at every
// frame; it returns them.
func play(t testing.TB, s *game.Session, frames, settle int) map[int]uint64 {
	t.Helper()
	sc := testutil.Katamari(t)
	left := map[int]uint64{s.Frame(): s.Left().StateHash()}
	for f := range frames + settle {
		in := cubes.Input{}
		if f < frames {
			in = sc.InputAt(f)
		}
		s.Step(in)
		left[s.Frame()] = s.Left().StateHash()
	}
	return left
}

// converged checks that every machine's world, at the newest frame whose
// inputs it holds from every player, equals the left's at that frame bit
// for bit (the bots never stop, so the frames after it are predicted), that
// it is at most a window behind the left, and that no machine saw a
// desync.
func converged(t *testing.T, name string, s *game.Session, left map[int]uint64) {
	t.Helper()
	for k, st := range machines(s) {
		m := &st.m
		f := &m.fig
		if f.Desync >= 0 {
			t.Errorf("%s: client %d: desync at frame %d", name, k+1, f.Desync)
		}
		c := min(m.confirmed(), m.world.Frame())
		if s.Frame()-c > MaxPredictionWindow+st.cfg.SpectatorDelay+MaxInputDelay {
			t.Errorf("%s: client %d holds every input only up to frame %d, the left is at %d", name, k+1, c, s.Frame())
		}
		if h := m.mine[c%ring]; h.frame != c || h.hash != uint32(left[c]) {
			t.Errorf("%s: client %d at frame %d differs from the left's", name, k+1, c)
		}
		if f.Checked == 0 {
			t.Errorf("%s: client %d compared no frame with the left", name, k+1)
		}
	}
}

// TestConvergesToEveryInputKnown: once every input has arrived, every
// machine's world is, bit for bit, the left's (the run where every input
// was known at once) at the same frame: over every preset, 2-8 players and
// input delays 0-8. Small worlds and short runs: the wide sweep is the
// bench's.
func TestConvergesToEveryInputKnown(t *testing.T) {
	t.Parallel()
	var cases []setup
	for p := link.Preset(0); p < link.NumPresets; p++ {
		cases = append(cases, setup{side: 3, players: 2, step: 1, delay: 0, lc: p.Config()})
	}
	for n := 2; n <= cubes.MaxPlayers; n++ {
		cases = append(cases, setup{side: 3, players: n, step: 1, delay: 2, lc: link.PresetIntercontinental.Config()})
	}
	for d := 0; d <= MaxInputDelay; d++ {
		cases = append(cases, setup{side: 3, players: 3, step: 1, delay: d, lc: link.PresetMobile.Config()})
	}
	for i, su := range cases {
		name := fmt.Sprintf("case %d: %d players, delay %d", i, su.players, su.delay)
		s, _ := newSession(t, su)
		left := play(t, s, 240, 90)
		converged(t, name, s, left)
		f := &machines(s)[0].m.fig
		t.Logf("%s: client 1: %d rollbacks, %d frames resimulated, longest %d, %d/%d predictions right, %d stall ticks, %d frames checked",
			name, f.Rollbacks, f.Resimulated, f.LongestRoll, f.PredictedHit, f.Predicted, f.StallTicks, f.Checked)
	}
}
