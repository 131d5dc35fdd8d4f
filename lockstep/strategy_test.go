package lockstep

import (
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/testutil"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// session returns a session running lockstep in mode (0-based) on link lc.
func session(t testing.TB, mode int, lc link.Config) (*game.Session, *Strategy) {
	t.Helper()
	return sessionGrid(t, 0, mode, lc)
}

// sessionGrid is session on a world of side×side cubes (0: the default
// world), for tests of what does not depend on the world's size.
func sessionGrid(t testing.TB, side, mode int, lc link.Config) (*game.Session, *Strategy) {
	t.Helper()
	st := New(DefaultConfig())
	st.SetMode(mode)
	cfg := game.DefaultConfig()
	if side > 0 {
		cfg.World.GridSide = side
	}
	cfg.Strategies = []strategy.Strategy{st}
	cfg.Link = lc
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

func katamari(t testing.TB) *cubes.Script { return testutil.Katamari(t) }

// run plays frames of sc and checks, every tick, that the right world's
// hash at its frame equals the left's at the same frame (recorded as the
// left went). It returns the peak kbit/s the left sent.
func run(t *testing.T, s *game.Session, st *Strategy, sc *cubes.Script, frames int) (peakKbps float64) {
	t.Helper()
	left := map[int]uint64{0: s.Left().StateHash()}
	for f := 0; f < frames; f++ {
		s.Step(sc.InputAt(f))
		left[s.Left().Frame()] = s.Left().StateHash()
		r := st.World()
		want, ok := left[r.Frame()]
		if !ok {
			t.Fatalf("tick %d: the right is at frame %d, which the left never reached", f, r.Frame())
		}
		if r.StateHash() != want {
			t.Fatalf("tick %d: the right's frame %d differs from the left's", f, r.Frame())
		}
		peakKbps = max(peakKbps, s.Metrics().SentKbps)
	}
	return peakKbps
}

// TestLockstepPerfectLinkIsExact: mode 1 (a perfect TCP-like link, 100 ms
// playout delay) over the whole katamari script: the right equals the left
// bit for bit at every frame it reaches, the hashes agree on every frame
// compared, the right trails by the delay, the error is exactly zero, and
// the inputs cost a few kbit/s (most of it the packets' IP/UDP headers).
func TestLockstepPerfectLinkIsExact(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	sc := katamari(t)
	s, st := session(t, 0, Modes[0].Link)
	peak := run(t, s, st, sc, sc.Length)
	ss := st.Stats()
	m := s.Metrics()
	t.Logf("%d frames: %d hashes compared, peak %.1f kbit/s, right %d frames behind", sc.Length, ss.Checked, peak, s.Frame()-ss.Frame)
	if ss.Desync >= 0 || ss.Checked < sc.Length-20 {
		t.Errorf("desync at %d, %d frames checked", ss.Desync, ss.Checked)
	}
	// The playout clock starts when the first input arrives (the tick it
	// was sent, on this link): the right trails by exactly the delay.
	if d := s.Frame() - ss.Frame; d != st.delayTicks() {
		t.Errorf("the right trails by %d frames, want the delay's %d", d, st.delayTicks())
	}
	if !m.Valid || m.PosMaxCm != 0 || m.OrientMaxDeg != 0 {
		t.Errorf("error %v cm / %v°, want exactly 0", m.PosMaxCm, m.OrientMaxDeg)
	}
	if peak > 25 || ss.StallTicks != 0 {
		t.Errorf("peak %.1f kbit/s, %d stall ticks", peak, ss.StallTicks)
	}
}

// TestLockstepLossRedundancyBeatsHeadOfLineBlocking: at 25 % and 50 %
// loss, UDP with every unacked input in each packet keeps the right exact
// (it never simulates a frame without its input: the hashes match every
// frame) and stalls far less than a TCP-like link at the same loss and
// latency, where one loss holds back everything behind it until it is
// sent again.
func TestLockstepLossRedundancyBeatsHeadOfLineBlocking(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	sc := katamari(t)
	const frames = 20 * wire.TicksPerSecond
	for _, loss := range []float64{25, 50} {
		stalls := map[bool]int{}
		for _, tcp := range []bool{false, true} {
			lc := link.Config{LatencyMs: 125, JitterMs: jitterTick, LossPercent: loss, TCPLike: tcp}
			mode := 5
			if loss == 50 {
				mode = 6
			}
			// Stalls come from the inputs' packets alone: a small
			// world (37 cubes) stalls the same at a tenth of the cost.
			s, st := sessionGrid(t, 6, mode, lc)
			run(t, s, st, sc, frames)
			ss := st.Stats()
			if ss.Desync >= 0 {
				t.Errorf("%.0f %% loss, TCP-like %v: desync at frame %d", loss, tcp, ss.Desync)
			}
			stalls[tcp] = ss.StallTicks
			t.Logf("%.0f %% loss, TCP-like %v: %d stall ticks in %d, longest %d, %d hashes compared", loss, tcp, ss.StallTicks, frames, ss.LongestStall, ss.Checked)
		}
		if stalls[false] >= stalls[true] {
			t.Errorf("%.0f %% loss: UDP with redundant inputs stalled %d ticks, TCP-like %d", loss, stalls[false], stalls[true])
		}
	}
}

// TestLockstepNonDeterministicDesync: mode 2 nudges the right's player by
// one unit in the last place of x, 1 s in. The hashes differ from that
// frame on and the desync is flagged there, within a few ticks of the
// right simulating it; the error, invisible at first, grows.
func TestLockstepNonDeterministicDesync(t *testing.T) {
	sc := katamari(t)
	s, st := session(t, 1, Modes[1].Link)
	perturbAt := st.cfg.PerturbAfterFrames
	flaggedTick, reachedTick := -1, -1
	var errAt []float64
	for f := 0; f < 900; f++ {
		s.Step(sc.InputAt(f))
		ss := st.Stats()
		if reachedTick < 0 && ss.Frame > perturbAt {
			reachedTick = f
		}
		if flaggedTick < 0 && ss.Desync >= 0 {
			flaggedTick = f
		}
		if f%60 == 0 && s.Metrics().Valid {
			errAt = append(errAt, s.Metrics().PosMaxCm)
		}
	}
	ss := st.Stats()
	t.Logf("perturbed at frame %d: desync flagged at frame %d, %d ticks after the right simulated it; max error per second: %.3g", perturbAt, ss.Desync, flaggedTick-reachedTick, errAt)
	if ss.Desync != perturbAt+1 {
		t.Errorf("first differing frame %d, want %d", ss.Desync, perturbAt+1)
	}
	if flaggedTick < 0 || flaggedTick-reachedTick > 3 {
		t.Errorf("desync flagged %d ticks after the right reached it", flaggedTick-reachedTick)
	}
	last := errAt[len(errAt)-1]
	if last < 1 {
		t.Errorf("15 s in, the worlds differ by %.3g cm only: the perturbation did not grow", last)
	}
}

// TestLockstepSubModesSetTheLink: `]` walks the seven modes, each setting
// the link and the delay; the HUD says the mode set the link.
func TestLockstepSubModesSetTheLink(t *testing.T) {
	s, st := session(t, 0, link.Config{})
	for i := 1; i <= len(Modes); i++ {
		s.SubMode(+1)
		want := Modes[i%len(Modes)]
		if s.Link() != want.Link || st.delayMs != want.DelayMs {
			t.Errorf("after %d presses: link %+v delay %v, want mode %q", i, s.Link(), st.delayMs, want.Name)
		}
		if s.LinkSource() == "" {
			t.Errorf("mode %q: the HUD does not say the mode set the link", want.Name)
		}
	}
	lc := s.Link()
	lc.LatencyMs += 10
	s.SetLink(lc)
	if s.LinkSource() != "" {
		t.Error("a link key after the mode still says the mode set it")
	}
}

// TestLockstepModeNameFollowsTheLink: a mode's name describes the link it
// chose ("UDP 125 ms, 25 % loss"); once the presenter changes the link by
// hand (a preset, a link key), the title says the link is not the mode's
// (not "by hand": the command line's links are not) instead of naming a link
// that is no longer on the wire, and the next mode names its own again.
func TestLockstepModeNameFollowsTheLink(t *testing.T) {
	s, st := session(t, 0, link.Config{})
	for range 5 {
		s.SubMode(+1)
	}
	s.Step(cubes.Input{})
	if want := Modes[5].Name; !strings.Contains(st.Mode(), want) {
		t.Fatalf("mode 6 on its own link: %q, want it to name %q", st.Mode(), want)
	}
	s.SetLink(link.PresetIntercontinental.Config())
	s.Step(cubes.Input{})
	if m := st.Mode(); strings.Contains(m, Modes[5].Name) || !strings.Contains(m, "on a link other than the mode's") {
		t.Errorf("mode 6 on the intercontinental preset: %q", m)
	}
	s.SubMode(+1)
	if want := Modes[6].Name; !strings.Contains(st.Mode(), want) {
		t.Errorf("after the next mode: %q, want it to name %q", st.Mode(), want)
	}
}
