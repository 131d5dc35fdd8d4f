package statesync

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"netcubes/adapt"
	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/game"
	"netcubes/internal/testutil"
	"netcubes/link"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/strategy/strategytest"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// The tests run the strategy inside a real session, on the built-in
// katamari script where the brief asks for it, and on scenarios of their own
// where a test needs something to happen whatever the script's current tuning:
//
//   - ballScenario rolls back and forth through the grid while pulling, so a
//     ball of about 50 red cubes forms, then blows it apart (150 cubes fly);
//   - nudgeScenario forms a ball, holds it, and nudges it during the frames an
//     outage test cuts the link, so the right guesses its input wrong.
//
// Measured figures are logged (go test -v -run Strategy ./game/).

const ballScenario = `
0-59 -
60-119 up katamari
120-179 down katamari
180-239 up katamari
240-299 down katamari
300-359 left katamari
360-419 right katamari
420-479 left katamari
480-539 right katamari
540-599 katamari
600-639 blow
end 900
`

const nudgeScenario = `
0-59 -
60-179 up katamari
180-299 left katamari
300-419 katamari
420-434 up katamari
435-719 katamari
720-779 blow
end 1100
`

func scenario(t testing.TB, text string) *cubes.Script {
	t.Helper()
	sc, err := cubes.ParseScript("test", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func katamari(t testing.TB) *cubes.Script { return testutil.Katamari(t) }

// stateSyncSession starts a session with state sync at build-up step `step`.
func stateSyncSession(t testing.TB, lc link.Config, step int) (*game.Session, *Strategy) {
	t.Helper()
	return stateSyncSessionWith(t, DefaultConfig(), lc, step)
}

// catchUpSession is stateSyncSession whose right, switched on mid-run,
// starts from the initial world and catches up (Config.JoinFromInitial):
// for the tests that need something to correct.
func catchUpSession(t testing.TB, lc link.Config, step int) (*game.Session, *Strategy) {
	t.Helper()
	c := DefaultConfig()
	c.JoinFromInitial = true
	return stateSyncSessionWith(t, c, lc, step)
}

// stateSyncSessionWith starts a session with state sync configured by c.
func stateSyncSessionWith(t testing.TB, c Config, lc link.Config, step int) (*game.Session, *Strategy) {
	t.Helper()
	cfg := game.DefaultConfig()
	st := New(c)
	cfg.Strategies = []strategy.Strategy{st}
	cfg.Link = lc
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st.SetStep(step)
	return s, st
}

// sentThisTick returns the cubes of the packet the left sent this tick.
func sentThisTick(s *game.Session, st *Strategy) ([]int32, bool) {
	m := s.Metrics()
	if m.LastPacketFrame != s.Frame() {
		return nil, false
	}
	idx, _, _, ok := st.snd.hist.Entries(uint16(s.Frame()))
	return idx, ok
}

func TestStateSyncSettings(t *testing.T) {
	st := New(DefaultConfig())
	if st.Step() != 8 || st.Mode() != "step 8 · 256 kbit/s · jitter 5 · compressed · quantize · adaptive smoothing · relative · delta · rest commit" {
		t.Fatalf("initial: step %d, mode %q", st.Step(), st.Mode())
	}
	for n := 1; n <= Steps; n++ {
		st.SetStep(n)
		if st.Step() != n || st.Settings() != StepSettings(n) {
			t.Errorf("SetStep(%d): step %d, %+v", n, st.Step(), st.Settings())
		}
		if !strings.HasPrefix(st.Mode(), "step ") || st.Explain() == "" || StepName(n) == "custom" {
			t.Errorf("step %d: mode %q, explain %q", n, st.Mode(), st.Explain())
		}
		// The HUD draws the budget line from BudgetKbps; only step 1
		// ignores it.
		if kbps, kept := st.BudgetKbps(); kbps != 256 || kept != (n >= 2) {
			t.Errorf("step %d: BudgetKbps %v, %v", n, kbps, kept)
		}
		t.Logf("step %d %-28s %s", n, StepName(n), st.Mode())
	}
	// Walking with [ and ] stops at the ends.
	st.SetStep(1)
	st.PrevStep()
	if st.Step() != 1 {
		t.Errorf("before step 1: %d", st.Step())
	}
	for range 10 {
		st.NextStep()
	}
	if st.Step() != 8 {
		t.Errorf("after step 8: %d", st.Step())
	}
	// Bandwidth and jitter are kept while walking; a toggle makes it custom.
	st.BandwidthDown()
	st.BandwidthDown()
	st.SetJitterFrames(8)
	st.PrevStep()
	if s := st.Settings(); s.BandwidthKbps != 128 || s.JitterFrames != 8 || st.Step() != 7 {
		t.Errorf("after bandwidth down ×2, jitter 8, step back: %+v (step %d)", s, st.Step())
	}
	if c := findControl(t, st, "A"); c.Press(1) != "delta encoding: on" || st.Step() != 0 || !strings.HasPrefix(st.Mode(), "custom") {
		t.Errorf("a toggle should make the settings custom: %q", st.Mode())
	}
	// Settings out of range are refused by name, the current ones kept.
	before := st.Settings()
	for _, tc := range []struct {
		edit func(*Settings)
		name string
	}{
		{func(s *Settings) { s.BandwidthKbps = 1 }, "BandwidthKbps"},
		{func(s *Settings) { s.JitterFrames = 99 }, "JitterFrames"},
		{func(s *Settings) { s.Smoothing = 7 }, "Smoothing"},
	} {
		s := before
		tc.edit(&s)
		if err := st.SetSettings(s); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tc.name) || st.Settings() != before {
			t.Errorf("%s: %v, settings %+v", tc.name, err, st.Settings())
		}
	}
	for range 20 {
		st.BandwidthUp()
	}
	if st.Settings().BandwidthKbps != BandwidthSteps[len(BandwidthSteps)-1] {
		t.Errorf("bandwidth up stops at %d", st.Settings().BandwidthKbps)
	}
	st.SetSmoothing(replication.SmoothingBasic)
	findControl(t, st, "S").Press(1)
	if st.Settings().Smoothing != replication.SmoothingAdaptive {
		t.Errorf("cycle from basic: %v", st.Settings().Smoothing)
	}
}

// TestStateSyncBudget: at every bandwidth setting and build-up step, every
// packet fits the byte budget, the 1-second bandwidth (headers included)
// never exceeds the limit, the player is in every packet, and the packet is
// exactly as big as the sender measured.
func TestStateSyncBudget(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	sc := scenario(t, ballScenario)
	for _, step := range []int{2, 5, 8} {
		for _, kbps := range []int{32, 64, 256, 1024} {
			s, st := stateSyncSession(t, link.PresetIntercontinental.Config(), step)
			set := st.Settings()
			set.BandwidthKbps = kbps
			st.SetSettings(set)
			budget := replication.BudgetBytes(kbps)
			peak, maxBytes, maxUpd, packets, withPlayer := 0.0, 0, 0, 0, 0
			for f := 0; f < 500; f++ {
				s.Step(sc.InputAt(f))
				m := s.Metrics()
				peak = max(peak, m.SentKbps)
				if m.SentKbps > float64(kbps) {
					t.Fatalf("step %d, %d kbit/s: %.2f kbit/s over the last second at frame %d", step, kbps, m.SentKbps, s.Frame())
				}
				idx, ok := sentThisTick(s, st)
				if !ok {
					t.Fatalf("no packet at frame %d", s.Frame())
				}
				packets++
				if m.LastPacketBytes > budget {
					t.Fatalf("step %d: packet of %d bytes, budget %d", step, m.LastPacketBytes, budget)
				}
				if want := (st.Stats().LastBits + 7) / 8; m.LastPacketBytes != want {
					t.Fatalf("packet of %d bytes, the sender measured %d", m.LastPacketBytes, want)
				}
				maxBytes = max(maxBytes, m.LastPacketBytes)
				maxUpd = max(maxUpd, len(idx))
				if len(idx) > 0 && idx[0] == cubes.Player {
					withPlayer++
				}
			}
			t.Logf("step %d at %4d kbit/s: budget %3d B, largest packet %3d B, peak %.1f kbit/s, ≤ %d updates, player in %d/%d packets",
				step, kbps, budget, maxBytes, peak, maxUpd, withPlayer, packets)
			// At 32 kbit/s no update fits a 38-byte packet next to the
			// inputs (see MinKbps); above, the player always does.
			if kbps >= 64 && withPlayer != packets {
				t.Errorf("step %d, %d kbit/s: the player is in %d of %d packets", step, kbps, withPlayer, packets)
			}
		}
	}
	// Step 1 has no limit but at most 64 updates.
	s, _ := stateSyncSession(t, link.Config{}, 1)
	for f := 0; f < 120; f++ {
		s.Step(sc.InputAt(f))
	}
	if m := s.Metrics(); m.LastPacketBytes < 64*235/8 {
		t.Errorf("step 1 sends %d bytes, want 64 uncompressed updates", m.LastPacketBytes)
	}
}

// maxGaps runs a session and returns, per cube, the longest run of packets
// without it (counted from warmup on), and the fewest grid cubes any packet
// carried.
func maxGaps(t *testing.T, s *game.Session, st *Strategy, sc *cubes.Script, frames, warmup int) (gaps []int, fewest int) {
	t.Helper()
	n := s.Left().NumCubes()
	last := make([]int, n)
	gaps = make([]int, n)
	fewest = math.MaxInt
	for f := 0; f < frames; f++ {
		s.Step(sc.InputAt(f))
		if f < warmup {
			continue
		}
		if f == warmup {
			for i := range last {
				last[i] = s.Frame()
			}
		}
		idx, _ := sentThisTick(s, st)
		grid := 0
		for _, i := range idx {
			gaps[i] = max(gaps[i], s.Frame()-last[i])
			last[i] = s.Frame()
			if i != cubes.Player {
				grid++
			}
		}
		fewest = min(fewest, grid)
	}
	for i := range last {
		gaps[i] = max(gaps[i], s.Frame()-last[i])
	}
	return gaps, fewest
}

// TestStateSyncCoversRestingWorld: with every cube at rest and room for N
// grid updates per packet, every cube is sent within ceil(900/N)+1 packets.
func TestStateSyncCoversRestingWorld(t *testing.T) {
	for _, tc := range []struct {
		step, kbps int
	}{{5, 64}, {5, 256}, {8, 256}} {
		// (Step 8 at 64 kbit/s is left out: with delta encoding a cube
		// with a base costs 19 bits and one without 118, so there is no
		// single N per packet.)
		s, st := stateSyncSession(t, link.Config{}, tc.step)
		set := st.Settings()
		set.BandwidthKbps = tc.kbps
		st.SetSettings(set)
		// The idle script: the player lands, everything falls asleep and
		// the cubes it touched turn grey within about 10 seconds (the
		// player may balance on a cube's edge for a while before it
		// sleeps); measure over the next 10 seconds.
		idle := scenario(t, "0-0 -\nend 1300")
		gaps, n := maxGaps(t, s, st, idle, 1300, 700)
		worst := 0
		for i := 1; i < len(gaps); i++ {
			worst = max(worst, gaps[i])
		}
		limit := (900+n-1)/n + 1
		t.Logf("step %d at %d kbit/s: %d grid updates per packet, longest wait %d packets (limit ceil(900/%d)+1 = %d), the player's %d",
			tc.step, tc.kbps, n, worst, n, limit, gaps[0])
		if worst > limit || gaps[0] != 1 {
			t.Errorf("step %d at %d kbit/s: longest wait %d (limit %d), player %d", tc.step, tc.kbps, worst, limit, gaps[0])
		}
	}
}

// TestStateSyncPrioritizes: during a run no cube waits more than 10 s for
// an update, and red (interacting) cubes are sent far more often than grey
// ones.
func TestStateSyncPrioritizes(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	for _, tc := range []struct {
		name string
		sc   *cubes.Script
	}{{"katamari", katamari(t)}, {"ball", scenario(t, ballScenario)}} {
		s, st := stateSyncSession(t, link.PresetIntercontinental.Config(), 8)
		oldest := 0
		var redSends, redTicks, greySends, greyTicks float64
		for f := 0; f < tc.sc.Length; f++ {
			s.Step(tc.sc.InputAt(f))
			oldest = max(oldest, st.Stats().OldestUnsentTicks)
			left := s.Left()
			sent := make(map[int32]bool)
			idx, _ := sentThisTick(s, st)
			for _, i := range idx {
				sent[i] = true
			}
			for i := 1; i < left.NumCubes(); i++ {
				if left.Interacting(i) {
					redTicks++
					if sent[int32(i)] {
						redSends++
					}
				} else {
					greyTicks++
					if sent[int32(i)] {
						greySends++
					}
				}
			}
		}
		ratio := (redSends / math.Max(redTicks, 1)) / (greySends / math.Max(greyTicks, 1))
		t.Logf("%s: longest wait %d ticks; red cubes sent %.3f per tick (%v cube-ticks), grey %.4f per tick: %.0f× as often",
			tc.name, oldest, redSends/math.Max(redTicks, 1), redTicks, greySends/math.Max(greyTicks, 1), ratio)
		if oldest > 10*wire.TicksPerSecond {
			t.Errorf("%s: a cube waited %d ticks", tc.name, oldest)
		}
		if redTicks >= 100 && ratio < 5 {
			t.Errorf("%s: red cubes sent only %.1f× as often as grey ones", tc.name, ratio)
		}
	}
}

// perSecondRMS runs a session and returns the RMS position error of each
// second (the root mean square of the per-tick RMS figures), from the
// second `from` on, and the largest single-tick figures.
type errorRun struct {
	seconds        []float64
	maxRMS, maxPos float64
	maxPop         float64
}

func runError(t *testing.T, s *game.Session, sc *cubes.Script, each func(f int)) errorRun {
	t.Helper()
	var r errorRun
	var sq float64
	var n int
	for f := 0; f < sc.Length; f++ {
		if each != nil {
			each(f)
		}
		s.Step(sc.InputAt(f))
		m := s.Metrics()
		if m.Valid {
			sq += m.PosRMSCm * m.PosRMSCm
			n++
			r.maxRMS = max(r.maxRMS, m.PosRMSCm)
			r.maxPos = max(r.maxPos, m.PosMaxCm)
			r.maxPop = max(r.maxPop, m.MaxPopCm)
		}
		if s.Frame()%wire.TicksPerSecond == 0 {
			r.seconds = append(r.seconds, math.Sqrt(sq/float64(max(n, 1))))
			sq, n = 0, 0
		}
	}
	return r
}

func worstFrom(sec []float64, from int) (w float64, at int) {
	for k := from; k < len(sec); k++ {
		if sec[k] > w {
			w, at = sec[k], k
		}
	}
	return w, at
}

// TestStateSyncPerfectLinkError: on a perfect link with both sides
// quantizing (step 8, 256 kbit/s), the RMS position error over all cubes,
// compared at the frame the right shows, stays under 2 cm in every second.
//
// Started together, both worlds quantize identically and the physics is
// deterministic, so the right is an exact copy (the article: "the result is
// perfect once again"). The real test is a strategy switched on mid-run: the
// right starts from the initial world while the left has moved on, and its
// solver's internal state (contact impulses, sleep timers) differs from the
// left's, so only the updates keep it in sync. With sync off it never
// catches up.
func TestStateSyncPerfectLinkError(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	for _, tc := range []struct {
		name    string
		sc      *cubes.Script
		switch_ int
		syncOff bool // also run with sync off
	}{
		{"katamari, from the start", katamari(t), 0, false},
		{"katamari, switched on at 2 s", katamari(t), 120, true},
		{"ball, switched on at 2 s", scenario(t, ballScenario), 120, false},
	} {
		var res [2]errorRun
		for k, off := range []bool{false, true} {
			if off && !tc.syncOff {
				continue
			}
			s, st := catchUpSession(t, link.Config{}, 8)
			res[k] = runError(t, s, tc.sc, func(f int) {
				if f == tc.switch_ && f > 0 {
					if err := s.SetStrategy(0); err != nil {
						t.Fatal(err)
					}
					set := st.Settings()
					set.SyncOff = off
					st.SetSettings(set)
				}
			})
		}
		// Give a switched-on right 2 s to converge.
		from := 0
		if tc.switch_ > 0 {
			from = tc.switch_/wire.TicksPerSecond + 2
		}
		on, at := worstFrom(res[0].seconds, from)
		t.Logf("%s: worst second RMS %.3f cm (second %d), worst tick RMS %.3f cm, max error %.2f cm",
			tc.name, on, at, res[0].maxRMS, res[0].maxPos)
		if on >= 2 {
			t.Errorf("%s: RMS error %.2f cm in second %d", tc.name, on, at)
		}
		if tc.syncOff {
			off, _ := worstFrom(res[1].seconds, from)
			t.Logf("%s, sync off: worst second RMS %.1f cm, max error %.0f cm", tc.name, off, res[1].maxPos)
			if off < 10*on+10 {
				t.Errorf("%s: with sync off the error is only %.2f cm (on: %.2f)", tc.name, off, on)
			}
		}
	}
}

// TestStateSyncOutageSmoothing: intercontinental link, a 1 s outage while
// the presenter nudges the ball, so the right extrapolates with the wrong
// input and is decimetres off when packets return. With adaptive smoothing no
// cube's drawn motion jumps more than 25 cm in one tick (|Δright − Δleft|,
// the session's MaxPopCm) and the RMS error is back under 5 cm within 3 s;
// without smoothing the correction is one big jump.
//
// How far the right drifts depends on the physics' chaotic details, which
// are still being tuned, so the test tries nudges of increasing length and
// uses the first whose correction, unsmoothed, is a jump of 50 to 160 cm:
// the range the article's adaptive factors are made for (0.85 per tick from
// 1 m up, so an error of 1.67 m moves 25 cm in the first tick).
func TestStateSyncOutageSmoothing(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	const switchAt, outageAt, outage, nudgeAt = 100, 400, 60, 420
	type result struct {
		pop, maxErr, errAfter, maxAfter float64
		back                            int
	}
	run := func(sc *cubes.Script, mode replication.SmoothingMode) (r result) {
		s, st := catchUpSession(t, link.PresetIntercontinental.Config(), 8)
		st.SetSmoothing(mode)
		r.back = -1
		for f := 0; f < sc.Length; f++ {
			switch f {
			case switchAt:
				_ = s.SetStrategy(0)
			case outageAt:
				s.Outage(outage)
			}
			s.Step(sc.InputAt(f))
			m := s.Metrics()
			if f < outageAt || !m.Valid {
				continue
			}
			r.pop = max(r.pop, m.MaxPopCm)
			r.maxErr = max(r.maxErr, m.PosMaxCm)
			if f >= outageAt+outage {
				if m.PosRMSCm >= 5 {
					r.back = -1
				} else if r.back < 0 {
					r.back = f
				}
			}
			if f == outageAt+outage+3*wire.TicksPerSecond {
				r.errAfter, r.maxAfter = m.PosRMSCm, m.PosMaxCm
			}
		}
		return r
	}
	var tried []string
	for _, nudge := range []int{10, 15, 20, 25, 30, 40} {
		text := strings.Replace(nudgeScenario, "420-434 up katamari\n435-719 katamari",
			fmt.Sprintf("420-%d up katamari\n%d-719 katamari", nudgeAt+nudge-1, nudgeAt+nudge), 1)
		sc := scenario(t, text)
		none := run(sc, replication.SmoothingNone)
		tried = append(tried, fmt.Sprintf("%d ticks: %.0f cm jump", nudge, none.pop))
		if none.pop < 50 || none.pop > 160 {
			continue
		}
		a := run(sc, replication.SmoothingAdaptive)
		t.Logf("nudge of %d ticks during the outage (tried %s)", nudge, strings.Join(tried, ", "))
		t.Logf("adaptive: largest jump %.1f cm, largest error %.0f cm, RMS under 5 cm %.2f s after the outage; 3 s after: RMS %.2f cm, max %.2f cm",
			a.pop, a.maxErr, float64(a.back-outageAt-outage)/wire.TicksPerSecond, a.errAfter, a.maxAfter)
		t.Logf("no smoothing: largest jump %.1f cm, largest error %.0f cm; 3 s after: RMS %.2f cm", none.pop, none.maxErr, none.errAfter)
		if a.pop > 25 {
			t.Errorf("adaptive smoothing: a cube jumped %.1f cm in one tick", a.pop)
		}
		if a.back < 0 || a.back > outageAt+outage+3*wire.TicksPerSecond {
			t.Errorf("adaptive smoothing: RMS error not back under 5 cm within 3 s (frame %d)", a.back)
		}
		return
	}
	t.Fatalf("no nudge made an unsmoothed jump of 50..160 cm (%s): the scenario needs retuning", strings.Join(tried, ", "))
}

// TestStateSyncInputsSurviveLoss: with 30 % of the packets lost, every frame
// the right simulates is stepped with the left's own input. Each packet
// repeats the last 32 inputs, so a frame's input is lost only if 32 packets
// in a row are; the log shows how many inputs arrived only through those
// copies.
func TestStateSyncInputsSurviveLoss(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	sc := katamari(t)
	s, st := stateSyncSession(t, link.Config{LossPercent: 30}, 8)
	st.rcv.recordInputs = true
	for f := 0; f < sc.Length; f++ {
		s.Step(sc.InputAt(f))
	}
	used := st.rcv.usedInputs
	wrong := 0
	for k, u := range used {
		if k > 0 && u.frame != used[k-1].frame+1 {
			t.Fatalf("the right stepped frame %d after %d", u.frame, used[k-1].frame)
		}
		if u.bits[0] != sc.InputAt(u.frame).Bits() {
			wrong++
		}
	}
	ss := st.Stats()
	m := s.Metrics()
	lost := float64(m.PacketsLost) / float64(m.PacketsSent)
	t.Logf("%.1f %% of packets lost; %d frames stepped: %d with their own input, %d before it arrived (reusing the latest), %d with a wrong input; %d inputs (%.0f %%) arrived only as redundant copies",
		100*lost, len(used), ss.InputsExact, ss.InputsGuessed, wrong, ss.InputsRecovered, 100*float64(ss.InputsRecovered)/float64(len(used)))
	if len(used) < sc.Length-wire.TicksPerSecond {
		t.Errorf("only %d frames stepped", len(used))
	}
	if wrong != 0 {
		t.Errorf("%d frames stepped with the wrong input", wrong)
	}
	if float64(ss.InputsGuessed) > 0.01*float64(len(used)) {
		t.Errorf("%d frames stepped before their input arrived", ss.InputsGuessed)
	}
	if lost < 0.25 || float64(ss.InputsRecovered) < 0.2*float64(len(used)) {
		t.Errorf("loss %.2f, %d inputs recovered: redundancy not exercised", lost, ss.InputsRecovered)
	}
}

// TestStateSyncDeltaAndTerribleLink: under the terrible preset (20 % loss,
// duplicates, reordering, 250 ± 100 ms) with delta encoding, the receiver
// never lacks a base the sender used (no packet rejected), and a delta-encoded
// resting world costs a fraction of the bits.
func TestStateSyncDeltaAndTerribleLink(t *testing.T) {
	sc := scenario(t, ballScenario)
	s, st := stateSyncSession(t, link.PresetTerrible.Config(), 8)
	late := uint64(0)
	for f := 0; f < sc.Length; f++ {
		s.Step(sc.InputAt(f))
	}
	m := s.Metrics()
	ss := st.Stats()
	late = ss.LatePackets
	t.Logf("terrible link: %d packets received, %d late (applied after their frame), %d rejected, %d stale updates skipped; delay %d ticks",
		ss.Packets, late, m.Rejected, ss.StaleUpdates, ss.PlayoutDelayTicks)
	if m.Rejected != 0 {
		t.Errorf("%d packets rejected", m.Rejected)
	}
	if ss.Packets < 500 {
		t.Errorf("only %d packets received", ss.Packets)
	}
}

// TestStateSyncBitsPerUpdate: the cost of a resting cube at each stage, in
// a world at rest (the figures the README quotes), and what relative
// positions save in a katamari ball.
func TestStateSyncBitsPerUpdate(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	// The player lands and everything sleeps within about 10 s (565
	// ticks in this session since the 8-substep solver; 400 before).
	idle := scenario(t, "0-0 -\nend 700")
	for _, tc := range []struct {
		step int
		want float64
	}{{4, 235}, {5, 117}, {8, 19}} {
		s, st := stateSyncSession(t, link.Config{}, tc.step)
		for f := 0; f < idle.Length; f++ {
			s.Step(idle.InputAt(f))
		}
		ss := st.Stats()
		t.Logf("step %d, all at rest: %.1f bits per update, %.1f updates per packet, %.0f kbit/s", tc.step, ss.BitsPerUpdate, ss.UpdatesPerPacket, s.Metrics().SentKbps)
		// The player (awake or not) is part of the average: allow 10 %.
		if ss.BitsPerUpdate < tc.want || ss.BitsPerUpdate > 1.1*tc.want {
			t.Errorf("step %d: %.1f bits per update, want about %.0f", tc.step, ss.BitsPerUpdate, tc.want)
		}
	}
	ball := scenario(t, ballScenario)
	for _, step := range []int{5, 8} {
		var bits [2]float64
		for k, rel := range []bool{false, true} {
			s, st := stateSyncSession(t, link.Config{}, step)
			set := st.Settings()
			set.RelativeToPlayer = rel
			set.LimitBandwidth = false // the same cubes in both runs
			st.SetSettings(set)
			var sum, n float64
			for f := 0; f < 600; f++ {
				s.Step(ball.InputAt(f))
				if f >= 300 {
					sum += float64(st.Stats().LastUpdateBits)
					n += float64(st.Stats().LastUpdates)
				}
			}
			bits[k] = sum / n
		}
		t.Logf("katamari ball, step %d: %.1f bits per update with absolute positions, %.1f relative to the player", step, bits[0], bits[1])
		if bits[1] >= bits[0] {
			t.Errorf("step %d: relative positions do not save bits: %.1f vs %.1f", step, bits[1], bits[0])
		}
	}
}

// TestStateSyncRestCommit: under 20 % loss, cubes that come to rest after
// the blow are committed (their resting state acked) quickly with the rest
// commit, and can wait seconds without it.
func TestStateSyncRestCommit(t *testing.T) {
	sc := scenario(t, ballScenario)
	var worst [2]int
	for k, on := range []bool{false, true} {
		s, st := stateSyncSession(t, link.Config{LatencyMs: 50, LossPercent: 20}, 8)
		set := st.Settings()
		set.RestCommit = on
		st.SetSettings(set)
		for f := 0; f < sc.Length; f++ {
			s.Step(sc.InputAt(f))
			for i, p := range st.snd.pending {
				if p {
					worst[k] = max(worst[k], s.Frame()-st.snd.since[i])
				}
			}
		}
	}
	t.Logf("longest wait for an at-rest commit: %d ticks without the rest commit, %d with it", worst[0], worst[1])
	if worst[1] >= worst[0] || worst[1] > wire.TicksPerSecond {
		t.Errorf("rest commit: %d ticks, without: %d", worst[1], worst[0])
	}
}

// TestStateSyncLiveChanges flips every setting while a lossy, jittery run
// goes on: packets in flight in the old format stay readable, nothing is
// rejected, and once the settings return to step 8 the right converges.
func TestStateSyncLiveChanges(t *testing.T) {
	sc := scenario(t, ballScenario)
	s, st := stateSyncSession(t, link.PresetMobile.Config(), 8)
	var toggles []strategy.Control
	for _, c := range st.Controls() {
		if c.Action == strategy.Toggle {
			toggles = append(toggles, c)
		}
	}
	for f := 0; f < sc.Length; f++ {
		if f%25 == 0 && f < 700 {
			k := f / 25
			toggles[k%len(toggles)].Press(1)
			st.SetJitterFrames(k % 11)
			st.CycleSmoothing()
			if k%3 == 0 {
				st.BandwidthDown()
			} else {
				st.BandwidthUp()
			}
		}
		if f == 700 {
			st.SetSettings(StepSettings(8))
		}
		s.Step(sc.InputAt(f))
	}
	m := s.Metrics()
	t.Logf("after live changes: %d rejected, RMS error %.3f cm, max %.2f cm at the end", m.Rejected, m.PosRMSCm, m.PosMaxCm)
	if m.Rejected != 0 {
		t.Errorf("%d packets rejected", m.Rejected)
	}
	if !m.Valid || m.PosRMSCm > 2 {
		t.Errorf("did not converge: %+v", m)
	}
}

// TestStateSyncDeterministic: two runs on the terrible link give the same
// left and right worlds and the same figures.
func TestStateSyncDeterministic(t *testing.T) {
	sc := scenario(t, ballScenario)
	run := func() (uint64, uint64, viewmodel.Metrics, Stats) {
		s, st := stateSyncSession(t, link.PresetTerrible.Config(), 8)
		for f := 0; f < 700; f++ {
			if f == 300 {
				s.Outage(30)
			}
			s.Step(sc.InputAt(f))
		}
		return s.Left().StateHash(), st.rcv.world.StateHash(), *s.Metrics(), st.Stats()
	}
	l1, r1, m1, s1 := run()
	l2, r2, m2, s2 := run()
	if l1 != l2 || r1 != r2 || m1 != m2 || s1 != s2 {
		t.Errorf("two runs differ: left %x/%x right %x/%x\n%+v\n%+v", l1, l2, r1, r2, s1, s2)
	}
}

// TestStateSyncStepAllocs: a session step with state sync allocates nothing
// once warmed up, with a moving player, a jittery lossy link and every
// feature on.
func TestStateSyncStepAllocs(t *testing.T) {
	s, _ := stateSyncSession(t, link.PresetIntercontinental.Config(), 8)
	sc := scenario(t, ballScenario)
	for f := 0; f < 400; f++ {
		s.Step(sc.InputAt(f))
	}
	f := 400
	if n := testing.AllocsPerRun(50, func() { s.Step(sc.InputAt(f)); f++ }); n > 0 {
		t.Errorf("a state sync step allocates %v times", n)
	}
}

// FuzzStateSyncReceive hands packets of any sequence and bytes to the right
// of state sync, at any frame of the session (across the 16-bit wrap),
// after 0-3 ticks of real packets, at any build-up step (the mode byte; its
// top bit turns sync off): decoding may fail, but nothing panics and the
// right's world stays finite (strategy/strategytest runs it: each input costs a
// Warp and a few ticks of a small world, not a new session). The sequence
// once was pinned to the current frame, which hid a panic for any sequence
// ahead of it.
func FuzzStateSyncReceive(f *testing.F) {
	setup := func(s strategy.Strategy, mode uint8) {
		set := StepSettings(1 + int(mode%Steps))
		set.SyncOff = mode&0x80 != 0
		s.(*Strategy).SetSettings(set)
	}
	st := New(DefaultConfig())
	h := strategytest.New(f, strategytest.Config{Strategies: []strategy.Strategy{st}, Setup: setup, Direction: strategytest.ToRightOnly})
	h.Fuzz(f)
}

func findControl(t *testing.T, st *Strategy, key string) *strategy.Control {
	t.Helper()
	cs := st.Controls()
	for i := range cs {
		if cs[i].Key == key {
			return &cs[i]
		}
	}
	t.Fatalf("no control on %s", key)
	return nil
}

// TestStateSyncControlsShowRealValues presses every control of state sync
// in both directions, several times, from every build-up step: after each
// press the toast shows the value the setting really has (read from the
// settings, not assumed from the press), and a toggle pressed twice is
// back where it was. (Pressing Q, C, V, A, W or O to turn a setting off
// once showed "on".)
func TestStateSyncControlsShowRealValues(t *testing.T) {
	st := New(DefaultConfig())
	truth := map[string]func(s Settings) string{
		OriginalKey: func(Settings) string {
			if st.Original() > 0 {
				return fmt.Sprintf("the original demo's modes (now %d of %d)", st.Original(), len(OriginalModes))
			}
			return "the build-up"
		},
		"B": func(s Settings) string { return s.BandwidthString() },
		"J": func(s Settings) string { return fmt.Sprintf("%d frames", s.JitterFrames) },
		"Q": func(s Settings) string { return strategy.OnOff(s.Quantize) },
		"S": func(s Settings) string { return s.Smoothing.String() },
		"C": func(s Settings) string { return strategy.OnOff(s.Compressed) },
		"V": func(s Settings) string { return strategy.OnOff(s.RelativeToPlayer) + needsC(s) },
		"A": func(s Settings) string { return strategy.OnOff(s.DeltaEncoding) + needsC(s) },
		"W": func(s Settings) string { return strategy.OnOff(s.RestCommit) },
		"O": func(s Settings) string {
			if s.SyncOff {
				return "off, the right runs on its own"
			}
			return "on"
		},
		adapt.CongestionKey: func(s Settings) string {
			switch {
			case !s.CongestionAvoidance:
				return "off"
			case s.SimpleCongestion:
				return "simple (the articles' two modes)"
			}
			return "on (the estimator)"
		},
		adapt.PlayoutKey: func(s Settings) string { return strategy.OnOff(s.AdaptiveJitter) },
		diverge.Key:      func(s Settings) string { return s.Divergence.String() },
		RelevanceKey:     func(s Settings) string { return strategy.OnOff(s.Relevance) },
		ContactsKey: func(s Settings) string {
			if s.SoftContacts {
				return "the sync demo's softer (34 Hz, ζ 1.8, push-out 1 m/s)"
			}
			return "netcubes' (90 Hz, ζ 5.0, push-out 3 m/s)"
		},
		PrecisionKey: func(s Settings) string {
			if !s.Compressed && !s.Quantize {
				return precisionName(s.Coarse) + precisionIdle
			}
			return precisionName(s.Coarse)
		},
	}
	if len(st.Controls()) != len(truth) {
		t.Fatalf("%d controls, %d checked", len(st.Controls()), len(truth))
	}
	for step := 1; step <= Steps; step++ {
		for _, c := range st.Controls() {
			want, ok := truth[c.Key]
			if !ok {
				t.Fatalf("control %s not checked", c.Key)
			}
			st.SetStep(step)
			for press, dir := range []int{1, 1, -1, 1, -1, -1, 1} {
				got := c.Press(dir)
				if w := c.Label + ": " + want(st.Settings()); got != w {
					t.Fatalf("step %d, %s press %d (%+d): toast %q, the setting is %q", step, c.Key, press, dir, got, w)
				}
			}
			if c.Action == strategy.Toggle {
				before := want(st.Settings())
				c.Press(1)
				c.Press(1)
				if after := want(st.Settings()); after != before {
					t.Errorf("step %d: %s twice went from %s to %s", step, c.Key, before, after)
				}
			}
		}
	}
}

// needsC is what V and A add while compression is off: the press changes
// a setting that acts only on compressed updates.
func needsC(s Settings) string {
	if s.Compressed {
		return ""
	}
	return " (acts with compressed updates only: C)"
}

// TestStateSyncOldFirstPacket: a packet 30,000 frames old (hostile: no
// network delays a packet 8 minutes) arriving first does not set the
// playout clock, so the right starts with the real packets after it, a few
// frames behind the left, instead of 30,000 frames back.
func TestStateSyncOldFirstPacket(t *testing.T) {
	// Step 5: compressed, no delta, so the packet decodes on its own; 100 ms
	// of latency, so it arrives alone, a tick before the real ones.
	s, st := stateSyncSession(t, link.Config{LatencyMs: 100}, 5)
	for range 10 {
		s.Step(cubes.Input{})
	}
	w := wire.NewWriteStream(make([]byte, 8192))
	if err := st.snd.pkt.Serialize(w); err != nil {
		t.Fatal(err)
	}
	_ = w.SerializeAlign()
	body := append([]byte(nil), w.Bytes()...)
	if err := s.Warp(70000); err != nil {
		t.Fatal(err)
	}
	head := wire.NewWriteStream(make([]byte, 2))
	seq := uint16(70000 - 30000)
	_ = wire.SerializeUint16(head, &seq)
	s.InjectPacket(true, append(head.Bytes(), body...))
	for range 6 {
		s.Step(cubes.Input{})
	}
	if m := s.Metrics(); m.Rejected != 0 || st.Stats().Packets != 1 {
		t.Fatalf("the old packet was not taken alone: %d rejected, %d packets", m.Rejected, st.Stats().Packets)
	}
	for range 120 {
		s.Step(cubes.Input{})
	}
	if ss := st.Stats(); !ss.Started || ss.PlayoutDelayTicks > 30 {
		t.Errorf("the right is %d ticks behind the left (started %v)", ss.PlayoutDelayTicks, ss.Started)
	}
}

// TestStateSyncColoursFollowTheLeft: a cube's colour (red while
// interacting) is part of what it looks like, so each update carries the
// left's flag, a cube whose colour changed is news for the priority
// accumulator, and the right draws the colour the left last sent. After a
// 2 s outage in the middle of the gather (the right guesses, its pile
// drifts, and the game's own rule on the right turns cubes red that the
// left never touched), every cube the right shows within 1 cm of the truth
// has the left's colour within half a second. Before, a cube in place
// stayed red for 105 ticks with the error at 0.0 cm (the stage report).
func TestStateSyncColoursFollowTheLeft(t *testing.T) {
	sc := katamari(t)
	s, _ := stateSyncSession(t, link.PresetIntercontinental.Config(), 8)
	const outageAt, outage = 500, 2 * wire.TicksPerSecond
	end := min(sc.Length, outageAt+outage+12*wire.TicksPerSecond)
	flags := make([][]bool, end+1) // the left's interacting flags per frame
	settled, checked, worst, total := -1, 0, 0, 0
	run := make([]int, 901) // ticks in a row each cube has been wrong
	longest := 0
	for f := 0; f < end; f++ {
		if f == outageAt {
			s.Outage(outage)
		}
		s.Step(sc.InputAt(f))
		left := s.Left()
		flags[left.Frame()] = make([]bool, left.NumCubes())
		for i := range flags[left.Frame()] {
			flags[left.Frame()][i] = left.Interacting(i)
		}
		m := s.Metrics()
		if f < outageAt+outage || !m.Valid {
			continue
		}
		if settled < 0 && m.PosRMSCm < 1 {
			settled = f
		}
		shown := int(m.ShownFrame)
		if float64(shown) != m.ShownFrame || flags[shown] == nil {
			t.Fatalf("frame %d: the right shows frame %v", f, m.ShownFrame)
		}
		wrong := 0
		truth := s.GhostView().Cubes
		for i, c := range s.RightView().Cubes {
			if c.Position.Sub(truth[i].Position).Len() < 0.01 && c.Interacting != flags[shown][i] {
				wrong++
				run[i]++
				longest = max(longest, run[i])
			} else {
				run[i] = 0
			}
		}
		worst = max(worst, wrong)
		total += wrong
		checked++
	}
	t.Logf("RMS error under 1 cm %.2f s after the outage; then over %d ticks at most %d cubes within 1 cm of the truth coloured differently (%d cube-ticks, longest %d ticks)", float64(settled-outageAt-outage)/wire.TicksPerSecond, checked, worst, total, longest)
	if settled < 0 {
		t.Errorf("the RMS error never settled under 1 cm after the outage")
	}
	if longest > wire.TicksPerSecond/2 {
		t.Errorf("a cube in place kept another colour than on the left for %d ticks", longest)
	}
}
