package predict

import (
	"runtime"
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
)

// radiusRun plays the ball script for 600 ticks on a 145-cube world with
// players players over a 50 ms link, the client on another machine (so
// every scope mispredicts), step 4 with the given scope; check runs after
// every tick.
func radiusRun(t *testing.T, players int, scope Scope, check func(st *Strategy)) Stats {
	t.Helper()
	sc, err := cubes.ParseScript("ball", strings.NewReader("0-59 -\n60-239 up katamari\n240-419 left katamari\n420-479 blow\nend 600\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.DefaultConfig()
	cfg.World.GridSide = 12
	cfg.World.Players = players
	cfg.Thin = true
	st := New(DefaultConfig())
	st.SetMode(ReplaySmooth)
	s := st.Settings()
	s.Scope, s.Divergence = scope, diverge.Machine
	st.SetSettings(s)
	cfg.Strategies = []strategy.Strategy{st}
	cfg.Link = link.Config{LatencyMs: 50}
	sess, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for f := range 600 {
		sess.Step(sc.InputAt(f))
		if check != nil {
			check(st)
		}
	}
	return st.Stats()
}

// The radius scope predicts the cubes near the player, and only those:
// every cube its world holds is within the radius (and the hysteresis) of
// the predicted player, it holds some while the ball forms and far fewer
// than the world, and the HUD says how many. Its corrections fall between
// the player alone (which mispredicts every push) and the whole world.
func TestRadiusScope(t *testing.T) {
	most := 0
	var corr [numScopes]uint64
	for _, scope := range scopeOrder {
		ss := radiusRun(t, 1, scope, func(st *Strategy) {
			c := &st.cli
			if scope != ScopeRadius {
				return
			}
			p := c.rw.w.Cube(c.rw.me).Position
			for i, in := range c.rw.in {
				if !in {
					continue
				}
				if d := c.rw.w.Cube(i).Position.Sub(p).Len(); d > st.cfg.RadiusM+radiusHysteresis+0.5 {
					t.Fatalf("frame %d: cube %d predicted %.1f m from the player", c.ct, i, d)
				}
			}
			most = max(most, st.Stats().RadiusCubes)
			if f := st.Facts(); !strings.Contains(f, "predicted within 4 m") {
				t.Fatalf("facts %q: no count of the cubes predicted", f)
			}
		})
		corr[scope] = ss.Corrections
		t.Logf("%-18s %3d corrections, %4d frames replayed", scope, ss.Corrections, ss.ReplayedFrames)
	}
	if most < 5 || most > 145/2 {
		t.Errorf("the radius world predicted at most %d cubes, want a ball's worth and far fewer than the world's 145", most)
	}
	if !(corr[ScopePlayer] > corr[ScopeRadius]) {
		t.Errorf("corrections: player only %d, radius %d, whole world %d; want fewer within the radius than for the player alone",
			corr[ScopePlayer], corr[ScopeRadius], corr[ScopeWorld])
	}
}

// The radius scope repeats bit for bit whatever GOMAXPROCS, with other
// players (their cubes proxies in its world).
func TestRadiusDeterministic(t *testing.T) {
	run := func(procs int) []uint64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out []uint64
		radiusRun(t, 2, ScopeRadius, func(st *Strategy) {
			c := &st.cli
			out = append(out, c.rw.w.StateHash()^uint64(st.Stats().Corrections)<<40^uint64(c.rw.Predicted())<<50)
		})
		return out
	}
	a, b := run(1), run(4)
	for f := range a {
		if a[f] != b[f] {
			t.Fatalf("tick %d: radius world hash %x with GOMAXPROCS 1, %x with 4", f, a[f], b[f])
		}
	}
}

// What the radius saves: with other players pushing cubes elsewhere (two
// push bots 9 m away, in a 400-cube world), the whole world predicts every
// cube they move, the radius only those near the player: fewer bodies for
// the solver in each predicted step (counted, not timed).
func TestRadiusCostsLessWithOthersAway(t *testing.T) {
	run := func(scope Scope) Stats {
		cfg := game.DefaultConfig()
		cfg.World.GridSide = 20
		cfg.World.Players = 3
		cfg.Bots = []cubes.BotKind{cubes.BotPush, cubes.BotPush}
		cfg.Thin = true
		cfg.Link = link.Config{LatencyMs: 50}
		st := New(DefaultConfig())
		st.SetMode(ReplaySmooth)
		s := st.Settings()
		s.Scope = scope
		st.SetSettings(s)
		cfg.Strategies = []strategy.Strategy{st}
		sess, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for f := range 360 {
			sess.Step(cubes.Input{Katamari: f > 60, Up: f%120 < 60, Left: f%120 >= 60})
		}
		return st.Stats()
	}
	world, radius := run(ScopeWorld), run(ScopeRadius)
	t.Logf("bodies per predicted tick: whole world %d, radius %d (its mirror %d); replayed: %d, %d",
		world.PredictBodies/360, radius.PredictBodies/360, radius.MirrorBodies/360, world.ReplayBodies, radius.ReplayBodies)
	if radius.PredictBodies*100 >= world.PredictBodies*85 {
		t.Errorf("the radius stepped %d bodies, the whole world %d: want fewer (under 85 %%)", radius.PredictBodies, world.PredictBodies)
	}
}
