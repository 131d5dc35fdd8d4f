package predict

import (
	"math"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/testutil"
	"netcubes/link"
)

// katamari is the recorded katamari script: the presenter's inputs, here
// given to the right (the client).
func katamari(t testing.TB) *cubes.Script { return testutil.Katamari(t) }

// newSession is a session whose only strategy is the 2004 one at mode m.
func newSession(t testing.TB, lc link.Config, m Mode) (*game.Session, *Strategy) {
	t.Helper()
	cfg := game.DefaultConfig()
	st := New(DefaultConfig())
	st.SetMode(m)
	cfg.Strategies = append(cfg.Strategies, st)
	cfg.Link = lc
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// sameFrameError plays the script for frames ticks and returns the RMS and
// the largest distance (m) between the client's player and the server's at
// the same frame, from frame from on.
func sameFrameError(t *testing.T, s *game.Session, st *Strategy, sc *cubes.Script, from, frames int) (rms, worst float64) {
	t.Helper()
	var sq float64
	n := 0
	for f := 0; f < frames; f++ {
		s.Step(sc.InputAt(f))
		if f < from {
			continue
		}
		sf := s.Frame()
		c, ok := st.playerAt(sf)
		p, _, okL := s.LeftAt(float64(sf), cubes.Player)
		if !ok || !okL {
			t.Fatalf("frame %d: no prediction or no server state to compare", sf)
		}
		d := c.Position.Sub(p).Len()
		sq += d * d
		worst = math.Max(worst, d)
		n++
	}
	return math.Sqrt(sq / float64(max(n, 1))), worst
}

// On a perfect link, prediction with rewind and replay keeps the client's
// player on the server's at every frame, with no input delay; without
// prediction the same key press shows a round trip later.
//
// The issue asks for "equal within quantization after the first
// correction". It is better than that: equal bit for bit at every frame,
// with no correction at all. The client catches up from the world both
// sides built at frame 0 with the server's own inputs (catchUp) instead of
// a quantized snap, and every later input reaches the server in time, so
// the two deterministic worlds step identically through the whole script,
// ball and all. (Before catchUp, the quantized snap at the start left a
// 1.3 mm/s velocity error that grew to 2 cm by frame 125, and the ball's
// contacts amplified every later quantized correction: 2 cm RMS.)
func TestPerfectLink(t *testing.T) {
	sc := katamari(t)
	s, st := newSession(t, link.Config{}, Replay)
	rms, worst := sameFrameError(t, s, st, sc, 1, 420)
	ss := st.Stats()
	t.Logf("perfect link, replay: %.3f cm RMS, %.3f cm max, %d corrections, input→motion %.0f ms", 100*rms, 100*worst, ss.Corrections, ss.InputDelayMs)
	if worst != 0 || ss.Corrections != 0 {
		t.Errorf("same-frame error %.4f cm RMS, %.4f cm max, %d corrections: want the server's player exactly, no correction", 100*rms, 100*worst, ss.Corrections)
	}
	if !ss.HasInputDelay || ss.InputDelayMs != 0 {
		t.Errorf("input→motion with prediction: %.0f ms (measured %v), want 0", ss.InputDelayMs, ss.HasInputDelay)
	}
	if ss.LateInputs > 1 || ss.SimulatedTwice != 0 {
		t.Errorf("late inputs %d, frames simulated twice %d: want ≤ 1 (frame 0's) and 0", ss.LateInputs, ss.SimulatedTwice)
	}

	s1, st1 := newSession(t, link.Config{}, NoPrediction)
	for f := range 200 {
		s1.Step(sc.InputAt(f))
	}
	ss1 := st1.Stats()
	rtt, _ := s1.Context().RTT()
	t.Logf("no prediction: input→motion %.0f ms, RTT %.0f ms", ss1.InputDelayMs, rtt)
	if !ss1.HasInputDelay || ss1.InputDelayMs < rtt-1 {
		t.Errorf("input→motion without prediction %.0f ms, want at least the round trip %.0f ms", ss1.InputDelayMs, rtt)
	}
}

// Over an intercontinental link with the katamari inputs on the client,
// rewind and replay keeps the prediction within a few cm of the server at
// the same frame; without correction it drifts metres away.
func TestIntercontinentalKatamari(t *testing.T) {
	if testing.Short() {
		t.Skip("900 ticks of two worlds")
	}
	sc := katamari(t)
	lc := link.PresetIntercontinental.Config()
	s, st := newSession(t, lc, Replay)
	rms, worst := sameFrameError(t, s, st, sc, 120, 900)
	t.Logf("replay: %.2f cm RMS, %.1f cm max, %.0f corrections in all", 100*rms, 100*worst, float64(st.Stats().Corrections))
	if rms > 0.03 {
		t.Errorf("with replay: %.2f cm RMS, want under 3 cm", 100*rms)
	}
	s2, st2 := newSession(t, lc, PredictOnly)
	rms2, _ := sameFrameError(t, s2, st2, sc, 120, 900)
	t.Logf("prediction without correction: %.2f cm RMS", 100*rms2)
	if rms2 < 1 {
		t.Errorf("without correction: %.2f cm RMS, want over 1 m", 100*rms2)
	}
}

// An input that reached the server late (the server stepped that frame with
// the previous input) makes the client correct as soon as the server's
// packet says which input it used, whatever the position error then: the
// prediction is known to be wrong before it shows.
func TestLateInputForcesCorrection(t *testing.T) {
	sc := katamari(t)
	s, st := newSession(t, link.Config{LatencyMs: 50, JitterMs: 10, LossPercent: 20}, Replay)
	forced := 0
	for f := range 600 {
		before := st.Stats()
		s.Step(sc.InputAt(f))
		after := st.Stats()
		if after.InputMismatches > before.InputMismatches {
			forced++
			if after.Corrections == before.Corrections && after.TooOld == before.TooOld {
				t.Errorf("tick %d: the server used another input, and the client did not correct", f)
			}
		}
	}
	t.Logf("%d corrections forced by another input, %d corrections in all, %d late inputs", forced, st.Stats().Corrections, st.Stats().LateInputs)
	if forced == 0 {
		t.Errorf("no late input changed the server's steps: the test saw nothing")
	}
}

// With 20 % loss both ways, the redundant inputs lose none: every frame
// the server simulated after the clock settled had its input, or the input
// arrived late and was counted, never applied; no frame was simulated
// twice.
func TestLossLosesNoInput(t *testing.T) {
	sc := katamari(t)
	s, st := newSession(t, link.Config{LatencyMs: 50, JitterMs: 10, LossPercent: 20}, Replay)
	for f := range 300 {
		s.Step(sc.InputAt(f))
	}
	srv := &st.srv
	now := s.Frame()
	for f := now - 150; f < now; f++ {
		if srv.have[f%serverInputRing] != int32(f) {
			t.Fatalf("frame %d: input never reached the server", f)
		}
	}
	ss := st.Stats()
	t.Logf("received %d, late %d, on time %d, missing %d, twice %d", ss.ReceivedInputs, ss.LateInputs, ss.OnTimeFrames, ss.MissingFrames, ss.SimulatedTwice)
	if ss.SimulatedTwice != 0 {
		t.Errorf("%d frames simulated twice", ss.SimulatedTwice)
	}
	if ss.LateInputs == 0 || ss.LateInputs != ss.MissingFrames {
		// Every missing frame is an input that came late (while the clock
		// settles, or after a burst of loss) and was counted, not used.
		t.Errorf("late %d, missing %d: want the late ones (there are some while the clock settles) to be the missing frames after frame 0", ss.LateInputs, ss.MissingFrames)
	}
}

// Replaying the stored moves from a restored world reproduces the world
// bit for bit.
func TestReplayDeterminism(t *testing.T) {
	sc := katamari(t)
	s, st := newSession(t, link.PresetIntercontinental.Config(), Replay)
	for f := range 240 {
		s.Step(sc.InputAt(f))
	}
	c := &st.cli
	want := c.w.StateHash()
	from := c.ct - 12
	rg := &c.wr
	if err := c.w.Restore(rg.saved(from)); err != nil {
		t.Fatal(err)
	}
	for g := from; g < c.ct; g++ {
		m := rg.at(g)
		if m == nil {
			t.Fatalf("no move for frame %d", g)
		}
		c.w.Step(m.in)
		if got := c.w.Cube(cubes.Player); got != m.after {
			t.Fatalf("frame %d: replayed player differs from the saved move", g)
		}
	}
	if got := c.w.StateHash(); got != want {
		t.Fatalf("replayed world hash %x, want %x", got, want)
	}
}

// The client's clock settles ahead of the server, inside the ±25 % rule,
// with inputs arriving TargetEarly..TargetEarly+EarlyBand ticks early.
func TestClockRunsAhead(t *testing.T) {
	lc := link.PresetIntercontinental.Config()
	s, st := newSession(t, lc, ReplaySmooth)
	prev := st.clientFrame()
	for f := range 240 {
		s.Step(cubes.Input{Up: f%90 < 45})
		d := st.clientFrame() - prev
		prev = st.clientFrame()
		if d < 0 || d > 2 {
			t.Fatalf("tick %d: the client took %d steps", f, d)
		}
	}
	ss := st.Stats()
	cfg := st.config()
	// Half the round trip (100 ms ± 10 = 6 ticks, one more for the tick the
	// packet waits) plus the margin.
	if ss.Lead < 6 || ss.Lead > 6+cfg.TargetEarly+cfg.EarlyBand+2 {
		t.Errorf("lead %d ticks", ss.Lead)
	}
	if ss.Reported < cfg.TargetEarly-1 || ss.Reported > cfg.TargetEarly+cfg.EarlyBand+1 {
		t.Errorf("inputs arrive %d ticks early, want about %d", ss.Reported, cfg.TargetEarly)
	}
}

// The sub-mode keys cycle through the six steps and the controls change
// the settings they name.
func TestControls(t *testing.T) {
	st := New(DefaultConfig())
	for i := range NumModes {
		st.SubMode(+1)
		if want := Mode((int(ReplaySmooth)+i)%NumModes + 1); st.Settings().Mode != want {
			t.Fatalf("after %d presses: mode %d, want %d", i+1, st.Settings().Mode, want)
		}
	}
	c := st.Controls()
	if c[0].Press(+1); st.Settings().Smoothing != SmoothAdaptive {
		t.Errorf("S from 2004: %v", st.Settings().Smoothing)
	}
	// W walks the scopes from the whole world through the radius to the
	// player alone (the cycle starts where step 4 starts: the world).
	st.SetMode(ReplaySmooth)
	for _, want := range []Scope{ScopeRadius, ScopePlayer, ScopeWorld} {
		if c[1].Press(+1); st.Settings().Scope != want {
			t.Errorf("W: %v, want %v", st.Settings().Scope, want)
		}
	}
}

// The HUD's error column in the predicting sub-modes: the session takes
// the strategy's own same-frame figures (the drawn player is ahead of the
// server, so the whole-view comparison has no frame), says what they
// compare, and draws no ghosts; without prediction it measures the view.
func TestHUDErrorInEveryMode(t *testing.T) {
	sc := katamari(t)
	for m := NoPrediction; int(m) <= NumModes; m++ {
		s, st := newSession(t, link.PresetIntercontinental.Config(), m)
		for f := range 240 {
			s.Step(sc.InputAt(f))
		}
		mt, ss := s.Metrics(), st.Stats()
		if !mt.Valid {
			t.Errorf("mode %v: no error figure on the HUD after 4 s", m)
			continue
		}
		if !m.predicts() {
			if mt.ErrorOf != "" || s.GhostView() == nil {
				t.Errorf("mode %v: want the whole-view error with ghosts, got %q", m, mt.ErrorOf)
			}
			continue
		}
		if mt.ErrorOf == "" || s.GhostView() != nil {
			t.Errorf("mode %v: want the strategy's own figures without ghosts, got %q", m, mt.ErrorOf)
		}
		if mt.PosRMSCm != ss.PredictionErrorRMSCm || mt.PosMaxCm != ss.PredictionErrorMaxCm || mt.OrientMaxDeg != ss.PredictionErrorMaxDeg {
			t.Errorf("mode %v: HUD %.2f/%.2f cm %.1f°, strategy %.2f/%.2f cm %.1f°", m, mt.PosRMSCm, mt.PosMaxCm, mt.OrientMaxDeg,
				ss.PredictionErrorRMSCm, ss.PredictionErrorMaxCm, ss.PredictionErrorMaxDeg)
		}
		t.Logf("mode %v: %.2f cm RMS, %.2f cm max, %.2f° (%d comparisons in the last second)", m, mt.PosRMSCm, mt.PosMaxCm, mt.OrientMaxDeg, ss.PredictionErrors)
	}
}

// The saved worlds the client keeps follow the round trip: on each
// preset, after the clock settled, never more than a correction on that
// link can rewind to (the worst round trip the link's latency, jitter and
// reordering allow, plus the client's lead margin, with keepSaves' quarter
// and SaveMargin on top), and every correction still finds its save (none
// snapped at the present for being too old). Then the link turns perfect
// and the ring shrinks to what that needs within eight seconds (the clock
// takes about three to give up its lead, at the ±25 % rule, and the lag's
// window is four), the saves it drops released. The replays run in the player-only world (cheap);
// the ring is the same for the whole world.
func TestSavesFollowTheRoundTrip(t *testing.T) {
	sc := katamari(t)
	cfg := DefaultConfig()
	tick := 1000.0 / 60
	need := func(lc link.Config) int {
		reorder := 0.0
		if lc.ReorderPercent > 0 {
			reorder = lc.ReorderExtraMs
		}
		rtt := 2 * (lc.LatencyMs + lc.JitterMs + reorder)
		lag := int(math.Ceil(rtt/tick)) + 2 + cfg.TargetEarly + cfg.EarlyBand
		return max(lag+lag/4+cfg.SaveMargin, cfg.MinSaves)
	}
	for _, p := range []link.Preset{link.PresetPerfect, link.PresetIntercontinental, link.PresetTerrible} {
		t.Run(p.String(), func(t *testing.T) {
			s, st := newSession(t, p.Config(), Replay)
			st.SetSettings(Settings{Mode: Replay, Scope: ScopePlayer})
			most := 0
			for f := range 600 {
				s.Step(sc.InputAt(f))
				if f >= 240 {
					most = max(most, st.Stats().Saves)
				}
			}
			ss := st.Stats()
			t.Logf("%s: at most %d saves (depth now %d, bound %d), %d corrections, %d too old", p, most, ss.SaveDepth, need(p.Config()), ss.Corrections, ss.TooOld)
			if most > need(p.Config()) || most >= cfg.MoveRing {
				t.Errorf("%d saves held, the round trip needs at most %d", most, need(p.Config()))
			}
			if ss.TooOld != 0 {
				t.Errorf("%d corrections found no save", ss.TooOld)
			}
			if p != link.PresetTerrible {
				return
			}
			s.SetLink(link.PresetPerfect.Config())
			for f := 600; f < 1080; f++ {
				s.Step(sc.InputAt(f))
			}
			if n := st.Stats().Saves; n > need(link.Config{}) {
				t.Errorf("8 s after the link turned perfect: %d saves held, want ≤ %d", n, need(link.Config{}))
			}
			if n := len(st.cli.pr.saves); n != cfg.MoveRing {
				t.Fatalf("ring of %d slots", n)
			}
		})
	}
}

// TestPressDelayOnPerfectLink pins the bench's "at RTT 17 ms" column: one
// key press on a perfect link shows 50 ms late without prediction (the
// input crosses to the server, the server steps with it, its state crosses
// back: three ticks) and at once with it.
func TestPressDelayOnPerfectLink(t *testing.T) {
	for _, c := range []struct {
		m    Mode
		want float64
	}{{NoPrediction, 50}, {PredictOnly, 0}, {Replay, 0}} {
		s, st := newSession(t, link.Config{}, c.m)
		got := pressDelay(s, st)
		if math.Abs(got-c.want) > 0.5 {
			t.Errorf("step %d: input→motion %.1f ms on a perfect link, want %.0f", int(c.m), got, c.want)
		}
		rtt, _ := s.Context().RTT()
		t.Logf("step %d: input→motion %.1f ms, RTT %.1f ms", int(c.m), got, rtt)
	}
}
