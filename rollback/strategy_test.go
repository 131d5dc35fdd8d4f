package rollback

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/strategy/strategytest"
	"netcubes/wire"
)

// TestConformance: rollback passes the checks every strategy must.
func TestConformance(t *testing.T) {
	strategytest.Conformance(t, func() strategy.Strategy { return New(DefaultConfig()) })
}

// FuzzRollbackReceive hands packets of any sequence and bytes, either
// way, to a session of three players (each input reaching one of the
// clients), at any build-up step: decoding may fail, nothing panics, and
// every machine's world stays finite.
func FuzzRollbackReceive(f *testing.F) {
	setup := func(s strategy.Strategy, mode uint8) { s.(*Strategy).SetStep(int(mode) % len(Steps)) }
	h := strategytest.New(f, strategytest.Config{Strategies: []strategy.Strategy{New(DefaultConfig())}, Setup: setup, Players: 3})
	h.Fuzz(f)
}

// TestSyncTest: the sync test rolls back 8 frames every frame and finds
// every resimulated frame equal to its first run; with the nudge (the
// player moved 1 nm on one frame's first run, not on its runs again) it
// names the first frame that differs: the one after the nudge.
func TestSyncTest(t *testing.T) {
	t.Parallel()
	for _, nudge := range []bool{false, true} {
		s, st := newSession(t, setup{side: 4, players: 2, step: 4, delay: -1, lc: link.PresetLAN.Config()})
		for _, m := range machines(s) {
			m.setNudge(nudge)
		}
		play(t, s, 150, 0)
		for k, m := range machines(s) {
			f := &m.m.fig
			want := -1
			if nudge {
				want = m.start + m.cfg.NudgeAfterFrames + 1
			}
			if f.SyncFail != want || f.SyncChecked < 100*m.cfg.SyncTestFrames {
				t.Errorf("nudge %v: client %d: sync test failed at %d (want %d), %d frames checked", nudge, k+1, f.SyncFail, want, f.SyncChecked)
			}
		}
		if nudge && st.Alarm() == "" {
			t.Error("the failed sync test raised no alarm")
		}
	}
}

// TestStepOneWaits: the build-up's first step is lockstep: no prediction,
// no rollback, and it waits (stalls) for the inputs on a mobile link; step
// 2 rolls back instead, and steps 3-4 (input delay 2, tuned) roll back
// less.
func TestStepOneWaits(t *testing.T) {
	t.Parallel()
	var res [4]figures
	for step := range 4 {
		s, _ := newSession(t, setup{side: 4, players: 2, step: step, delay: -1, lc: link.PresetMobile.Config()})
		left := play(t, s, 300, 60)
		converged(t, Steps[step].Name, s, left)
		res[step] = machines(s)[0].m.fig
		t.Logf("step %d: %d rollbacks, %d frames resimulated, %d stall ticks, delay %d", step+1, res[step].Rollbacks, res[step].Resimulated, res[step].StallTicks, machines(s)[0].delay())
	}
	if res[0].Rollbacks != 0 || res[0].Predicted != 0 || res[0].StallTicks == 0 {
		t.Errorf("step 1: %d rollbacks, %d predictions, %d stall ticks", res[0].Rollbacks, res[0].Predicted, res[0].StallTicks)
	}
	if res[1].Rollbacks == 0 || res[2].Resimulated >= res[1].Resimulated || res[3].Resimulated >= res[2].Resimulated {
		t.Errorf("frames resimulated by step 2-4: %d, %d, %d: want fewer with more delay", res[1].Resimulated, res[2].Resimulated, res[3].Resimulated)
	}
}

// TestSpectatorsNeverRollBack: a client beyond the players simulates
// confirmed inputs only: no prediction, no rollback, and it converges.
func TestSpectatorsNeverRollBack(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, setup{side: 3, players: 2, clients: 3, step: 1, delay: -1, lc: link.PresetMobile.Config()})
	left := play(t, s, 240, 60)
	converged(t, "spectator", s, left)
	spec := machines(s)[2]
	if f := &spec.m.fig; f.Rollbacks != 0 || f.Predicted != 0 || spec.m.world.Frame() > s.Frame()-spec.cfg.SpectatorDelay {
		t.Errorf("spectator: %d rollbacks, %d predictions, at frame %d of %d", f.Rollbacks, f.Predicted, spec.m.world.Frame(), s.Frame())
	}
	if f := &machines(s)[0].m.fig; f.Rollbacks == 0 {
		t.Error("the players' machines never rolled back: the test shows nothing")
	}
}

// TestBudgetStallsRatherThanDrops: with fewer steps a tick than a rollback
// needs, the machine stalls (and says so) and still converges.
func TestBudgetStallsRatherThanDrops(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	cfg.MaxStepsPerTick = 2
	st := New(cfg)
	s, _ := newSession(t, setup{side: 3, players: 3, step: 1, delay: -1, lc: link.PresetIntercontinental.Config()})
	_ = st
	for _, m := range machines(s) {
		m.cfg.MaxStepsPerTick = 2
	}
	left := play(t, s, 240, 60)
	converged(t, "2 steps a tick", s, left)
	f := &machines(s)[0].m.fig
	if f.Rollbacks == 0 || f.StallTicks == 0 {
		t.Errorf("%d rollbacks, %d stall ticks", f.Rollbacks, f.StallTicks)
	}
}

// TestDeterminismAcrossGOMAXPROCS: the same seed gives every machine the
// same worlds and figures, bit for bit, with 1 or 4 threads.
func TestDeterminismAcrossGOMAXPROCS(t *testing.T) {
	run := func(procs int) (hashes []uint64, figs []figures) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		s, _ := newSession(t, setup{side: 4, players: 4, step: 1, delay: -1, lc: link.PresetTerrible.Config()})
		sc := katamari(t)
		for f := range 200 {
			s.Step(sc.InputAt(f))
			for _, m := range machines(s) {
				hashes = append(hashes, m.world().StateHash())
			}
		}
		for _, m := range machines(s) {
			f := m.m.fig
			f.ticksNs, f.lastResimNs, f.ResimNsMax = [figureWindow]int64{}, 0, 0 // wall-clock figures
			figs = append(figs, f)
		}
		return hashes, figs
	}
	h1, f1 := run(1)
	h4, f4 := run(4)
	for i := range h1 {
		if h1[i] != h4[i] {
			t.Fatalf("tick %d, client %d: the worlds differ with 1 and 4 threads", i/4, i%4+1)
		}
	}
	for k := range f1 {
		if f1[k] != f4[k] {
			t.Errorf("client %d: the figures differ with 1 and 4 threads", k+1)
		}
	}
}

// TestSteadyStateNoAllocations: three players rolling back on a lossy
// link: once warm, a tick of the session allocates nothing (the saves
// ring is reused).
func TestSteadyStateNoAllocations(t *testing.T) {
	s, _ := newSession(t, setup{side: 4, players: 3, step: 1, delay: -1, lc: link.PresetMobile.Config()})
	sc := katamari(t)
	// Past the script's blow: the arrays the world's contacts need have
	// reached their largest (before, they grow, amortized).
	for s.Frame() < 1560 {
		s.Step(sc.InputAt(s.Frame()))
	}
	before := machines(s)[0].m.fig.Rollbacks
	per := testing.AllocsPerRun(120, func() { s.Step(sc.InputAt(s.Frame())) })
	if per != 0 {
		t.Errorf("%v allocations per tick, want 0", per)
	}
	if machines(s)[0].m.fig.Rollbacks == before {
		t.Error("no rollback while measuring: the test shows nothing")
	}
}

// TestHostileInputs: inputs for frames far in the future or the past, for
// a player out of range, or another value for a frame already held (a
// flood forcing rollbacks) are refused or bounded, counted, and never
// panic; the relay keeps the first value of every frame.
func TestHostileInputs(t *testing.T) {
	s, _ := newSession(t, setup{side: 3, players: 3, step: 1, delay: -1, lc: link.Config{}})
	play(t, s, 60, 0)
	st := machines(s)[1] // client 2 owns player 2
	m := &st.m
	next := m.next[0]
	m.take(0, next+5, cubes.Input{Up: true}) // a gap: refused
	m.take(0, next+ring*4, cubes.Input{Up: true})
	m.take(0, -5, cubes.Input{Up: true})
	m.take(-1, next, cubes.Input{Up: true})
	m.take(cubes.MaxPlayers, next, cubes.Input{Up: true})
	if m.next[0] != next {
		t.Errorf("a hostile input moved the held inputs from %d to %d", next, m.next[0])
	}
	held := m.inputs[(next-1)%ring][0]
	flip := held
	flip.Left = !flip.Left
	m.take(0, next-1, flip) // another value for a held frame
	if m.inputs[(next-1)%ring][0] != held || m.fig.Refused != 1 || m.rollFrom >= 0 {
		t.Errorf("another value for a held frame: refused %d, rollback from %d", m.fig.Refused, m.rollFrom)
	}
	r := st.relay
	f := r.next[1] - 1
	v := r.in[1][f%ring]
	r.put(1, f, v^1)
	r.put(1, r.next[1]+ring, 1)
	r.put(7, r.next[1], 1)
	if r.in[1][f%ring] != v || r.refused != 3 {
		t.Errorf("relay: %d refused, frame %d now %d (was %d)", r.refused, f, r.in[1][f%ring], v)
	}
	// An ack from a client claiming frames the left has not reached.
	a := AckPacket{Players: 3, Own: 1, OwnFirst: uint32(s.Frame()), OwnCount: 5}
	data := writePacket(t, &a)
	if err := st.ReceiveBack(frameCtx{f: s.Frame()}, wire.NewReadStream(data)); err == nil {
		t.Error("an ack of inputs from the future was taken")
	}
}

// frameCtx is a Context that knows only the frame (ReceiveBack reads no
// more).
type frameCtx struct {
	strategy.Context
	f int
}

func (c frameCtx) Frame() int { return c.f }

// TestTimeSync: three players, player 2's machine on a LAN and player 3's
// on a mobile link. Player 2's machine holds player 3's inputs late: its
// frame advantage over player 3 is larger than player 3's over it, so it
// waits (skips ticks) and rolls back less than with the time sync off;
// player 3's machine does not wait. Both converge either way.
func TestTimeSync(t *testing.T) {
	t.Parallel()
	lan, mobile := link.PresetLAN.Config(), link.PresetMobile.Config()
	var resim [2]int
	for i, on := range []bool{false, true} {
		s, _ := newSession(t, setup{side: 3, players: 3, step: 1, delay: -1, lc: lan, links: []link.Config{lan, lan, mobile}})
		for _, m := range machines(s) {
			m.cfg.TimeSync = on
		}
		left := play(t, s, 600, 60)
		converged(t, fmt.Sprintf("time sync %v", on), s, left)
		ms := machines(s)
		near, far := ms[1], ms[2]
		t.Logf("time sync %v: player 2's machine: advantage %+d, waited %d ticks, %d frames resimulated; player 3's: advantage %+d, waited %d",
			on, near.Advantage(), near.ts.skipped, near.m.fig.Resimulated, far.Advantage(), far.ts.skipped)
		resim[i] = near.m.fig.Resimulated
		if on && (near.ts.skipped == 0 || far.ts.skipped != 0) {
			t.Errorf("time sync: the machine ahead waited %d ticks, the one behind %d", near.ts.skipped, far.ts.skipped)
		}
	}
	if resim[1] >= resim[0] {
		t.Errorf("player 2's machine resimulated %d frames with the time sync, %d without", resim[1], resim[0])
	}
}

// TestConfigValidate: the defaults are valid; a value out of range is
// refused naming its field.
func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"InputDelay", func(c *Config) { c.InputDelay = MaxInputDelay + 1 }},
		{"PredictionWindow", func(c *Config) { c.PredictionWindow = -1 }},
		{"MaxStepsPerTick", func(c *Config) { c.MaxStepsPerTick = 0 }},
		{"SyncTestFrames", func(c *Config) { c.SyncTestFrames = MaxPredictionWindow + 1 }},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s out of range: %v", tc.field, err)
		}
	}
}

// TestFrameLane: the timeline's lane marks predicted frames where a
// player's machine runs ahead of the inputs it holds (a mobile link,
// delay 0), none on a spectator's, which waits for every input.
func TestFrameLane(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, setup{side: 3, players: 2, clients: 3, step: 1, delay: -1, lc: link.PresetMobile.Config()})
	sc := katamari(t)
	ahead := 0
	for f := range 240 {
		s.Step(sc.InputAt(f))
		final, present, ok := machines(s)[0].FrameLane()
		if ok && present > final {
			ahead++
		}
		if final, present, ok := machines(s)[2].FrameLane(); ok && present > final {
			t.Fatalf("frame %d: the spectator shows predicted frames %d-%d", f, final, present)
		}
	}
	if ahead == 0 {
		t.Error("player 1's machine never showed a predicted frame on a mobile link")
	}
}
