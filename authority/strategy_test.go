package authority

import (
	"runtime"
	"testing"

	"netcubes/cubes"
	"netcubes/diverge"
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

// FuzzAuthorityReceive: hostile packets reach every machine and the host,
// under every step and topology, from every player.
func FuzzAuthorityReceive(f *testing.F) {
	setup := func(s strategy.Strategy, mode uint8) {
		x := s.(*Strategy).Settings()
		x.Step = Step(1 + int(mode%5))
		x.P2P = mode&8 != 0
		x.Divergence = diverge.Mode(mode / 16 % uint8(diverge.NumModes))
		s.(*Strategy).SetSettings(x)
	}
	h := strategytest.New(f, strategytest.Config{Strategies: []strategy.Strategy{New(DefaultConfig())}, Setup: setup, Players: 3})
	h.Fuzz(f)
}

// session is a world of side×side grid cubes and players players on lc,
// every client simulating (none thin), with set applied.
func session(t testing.TB, side, players int, lc link.Config, set func(*Settings)) (*game.Session, *Strategy) {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.World.Players = players
	if side > 0 {
		cfg.World.GridSide = side
	}
	cfg.Link = lc
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

// drive steps s for n ticks, every player under its own input from in.
func drive(s *game.Session, n int, in func(f, p int) cubes.Input, each func(f int)) {
	all := uint8(1<<s.NumPlayers() - 1)
	for range n {
		var ins cubes.Inputs
		f := s.Frame()
		for p := range s.NumPlayers() {
			ins[p] = in(f, p)
		}
		s.StepPlayers(&ins, all)
		if each != nil {
			each(f)
		}
	}
}

// converged checks every machine's world against the host's, cube by
// cube, within tol metres.
func converged(t *testing.T, s *game.Session, st *Strategy, tol float64) {
	t.Helper()
	left := s.Left()
	for p, m := range st.room.machines[:s.NumPlayers()] {
		worst, at := 0.0, -1
		for i := range left.NumCubes() {
			if d := m.w.Cube(i).Position.Sub(left.Cube(i).Position).Len(); d > worst {
				worst, at = d, i
			}
		}
		if worst > tol {
			t.Errorf("player %d's machine: cube %d is %.4f m from the host's (tolerance %.4f)", p+1, at, worst, tol)
		}
	}
}

// Separate piles: player 1 pushes into the grid from its centre toward
// −x, player 2 from the +x edge toward +x's cubes; they never meet. No
// conflict, no lost claim, nothing a machine owns is ever overwritten
// (its drawn pose never carries an error offset: zero error on its own
// cubes), and once everything rests every machine holds the host's world.
func TestSeparatePiles(t *testing.T) {
	for _, pr := range []link.Preset{link.PresetLAN, link.PresetIntercontinental} {
		s, st := session(t, 12, 2, pr.Config(), func(x *Settings) { x.Step = StepSequences })
		in := func(f, p int) cubes.Input {
			if f >= 200 {
				return cubes.Input{}
			}
			return cubes.Input{Left: p == 0 || f < 60}
		}
		var was [2][]float64
		var owned [2][]bool
		drive(s, 900, in, func(int) {
			for p, m := range st.room.machines[:2] {
				if was[p] == nil {
					was[p], owned[p] = make([]float64, len(m.t.owner)), make([]bool, len(m.t.owner))
				}
				for i, o := range m.t.owner {
					off := m.smooth.Offset(i).Len()
					mine := owned[p][i] && o == m.me
					owned[p][i] = o == m.me
					if mine && off > was[p][i] {
						t.Fatalf("%s: player %d's own cube %d was corrected (drawn %.4f m off its simulation); host %+v, machine %+v", pr, p+1, i, off, st.room.host.stats, m.stats)
					}
					was[p][i] = off
				}
			}
		})
		h := st.room.host.stats
		if h.Conflicts != 0 || h.Lost != 0 || h.Claims == 0 {
			t.Errorf("%s: claims %d, conflicts %d, lost %d: want claims and no dispute", pr, h.Claims, h.Conflicts, h.Lost)
		}
		if h.Flags != 0 {
			t.Errorf("%s: an honest player flagged %d times", pr, h.Flags)
		}
		for p, m := range st.room.machines[:2] {
			if m.stats.Lost != 0 {
				t.Errorf("%s: player %d lost %d cubes", pr, p+1, m.stats.Lost)
			}
		}
		converged(t, s, st, 0.002)
	}
}

// The same pile, claimed at once: players 1 and 2 drive into each other
// through the grid. Where both claimed, the lower id wins on every
// machine (the tables agree with the host's, and no cube is player 2's
// that player 1 also held at the end of the push); once everything rests
// every machine converges to the host's world and, at step 5, every cube
// is back with the default authority.
func TestSamePile(t *testing.T) {
	for _, step := range []Step{StepLowestID, StepSequences, StepReturn} {
		s, st := session(t, 12, 2, link.PresetIntercontinental.Config(), func(x *Settings) { x.Step = step })
		in := func(f, p int) cubes.Input {
			if f >= 150 {
				return cubes.Input{}
			}
			return cubes.Input{Right: p == 0, Left: p == 1}
		}
		drive(s, 150, in, nil)
		h := &st.room.host
		disputes := h.stats.Conflicts + h.stats.Lost + h.stats.Stale
		for _, m := range st.room.machines[:2] {
			disputes += m.stats.Lost
		}
		if disputes == 0 {
			t.Errorf("step %d: no conflict and no lost claim: the players never claimed the same cube", step)
		}
		drive(s, 1200, in, nil)
		if h.stats.Flags != 0 {
			t.Errorf("step %d: an honest player flagged %d times", step, h.stats.Flags)
		}
		for i, o := range h.t.owner {
			for p, m := range st.room.machines[:2] {
				if m.t.owner[i] != o {
					t.Errorf("step %d: cube %d: host says owner %d, player %d's machine %d", step, i, o, p+1, m.t.owner[i])
				}
			}
			if step == StepReturn && !s.Left().IsPlayer(i) && s.Left().AtRest(i) && o != h.t.def {
				t.Errorf("step 5: cube %d still owned by %d at rest (rest %d ticks on the host, %v on its machine); host %+v", i, o, h.t.rest[i], st.room.machines[o-1].w.AtRest(i), h.stats.Returns)
			}
		}
		converged(t, s, st, 0.002)
	}
}

// The same seed and inputs give bit-identical runs, whatever GOMAXPROCS:
// the host's world and every machine's, hash for hash.
func TestDeterminism(t *testing.T) {
	run := func(procs int) []uint64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		s, st := session(t, 6, 3, link.PresetMobile.Config(), func(x *Settings) { x.Step = StepReturn; x.P2P = true; x.Cheat = true })
		drive(s, 400, func(f, p int) cubes.Input {
			return cubes.Input{Right: (f/40+p)%3 == 0, Up: (f/30+p)%2 == 0, Katamari: f%90 < 40}
		}, nil)
		out := []uint64{s.Left().StateHash()}
		for _, m := range st.room.machines[:3] {
			out = append(out, m.w.StateHash())
		}
		return out
	}
	a, b := run(1), run(4)
	for k := range a {
		if a[k] != b[k] {
			t.Errorf("world %d (0: the host): hash %x with GOMAXPROCS 1, %x with 4", k, a[k], b[k])
		}
	}
}

// The cheat: player 2's machine lies about the cubes it owns (beyond
// physics); the host flags player 2, and only player 2, and takes its
// cubes back.
func TestCheatIsFlagged(t *testing.T) {
	s, st := session(t, 12, 2, link.PresetLAN.Config(), func(x *Settings) { x.Step = StepReturn; x.Cheat = true })
	drive(s, 400, func(f, p int) cubes.Input {
		return cubes.Input{Left: p == 1 && f < 200, Right: p == 0 && f%100 < 30}
	}, nil)
	h := &st.room.host
	if st.room.machines[1].stats.Cheats == 0 {
		t.Fatal("the cheat never lied: player 2 owned no cube")
	}
	if h.flagged[1] == 0 || h.flagged[0] != 0 {
		t.Errorf("flags: player 1 %d, player 2 %d; want only player 2 (it lied %d times)", h.flagged[0], h.flagged[1], st.room.machines[1].stats.Cheats)
	}
}
