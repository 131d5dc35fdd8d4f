package snapshot

import (
	"netcubes/adapt"
	"strings"
	"testing"

	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// smallSession is snapSession on a world of 145 cubes (the tests are
// about the link, not the physics) at level 5 (80 bits a cube, whatever
// moves: 1,477 bytes a packet, 722 kbit/s at 60 Hz, 361 at 30, 241 at 20,
// 120 at 10).
func smallSession(t testing.TB, lc link.Config, set func(st *Strategy)) (*game.Session, *Strategy) {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.Link = lc
	cfg.World.GridSide = 12
	st := New(DefaultConfig())
	cfg.Strategies = []strategy.Strategy{st}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st.SetLevel(BoundedPosition)
	if set != nil {
		set(st)
	}
	return s, st
}

// threeSteps is a clean path whose cap is 1,000 kbit/s for 5 s, 200 for
// 10 s, then 1,000 again: level 5 at 60 Hz fits, then only at 10 Hz, then
// at 60 again.
func threeSteps() link.Config {
	const s = wire.TicksPerSecond
	c := link.PresetBottleneck.Config()
	c.CapSchedule = link.CapSchedule{Steps: [link.MaxCapSteps]link.CapStep{{Kbps: 1000, Ticks: 5 * s}, {Kbps: 200, Ticks: 10 * s}, {Kbps: 1000, Ticks: 1 << 30}}}
	return c
}

// TestSnapshotCongestionAvoidance: over that path, without congestion
// avoidance the queue holds a quarter of a second; with it the left drops
// its rate when the cap falls (the queue drains: the round trip is back
// nearer the path's: probes of the next rate up, which does not fit,
// still build some), the HUD says so, and once the cap
// rises it probes its way back up to the presenter's 60 Hz.
func TestSnapshotCongestionAvoidance(t *testing.T) {
	const s = wire.TicksPerSecond
	sc := loadScript(t, "katamari")
	type result struct {
		base, late float64 // round trip before the fall; worst in the last 4 s of the low cap
		lowRate    Rate
		mode, expl string
		rateAtEnd  Rate
		backAt     int // first frame after the rise at the presenter's rate again
		rejected   uint64
		facts      string
	}
	run := func(ca bool) result {
		sess, st := smallSession(t, threeSteps(), func(st *Strategy) { st.cfg.CongestionAvoidance = ca })
		r := result{backAt: -1, lowRate: Rate60}
		for f := range 30 * s {
			sess.Step(sc.InputAt(f))
			m := sess.Metrics()
			if f == 4*s {
				r.base = m.RTTms
			}
			if f >= 11*s && f < 15*s {
				r.late = max(r.late, m.RTTms)
				r.lowRate = min(r.lowRate, st.rate())
			}
			if f == 14*s {
				r.mode, r.expl, r.facts = st.Mode(), st.Explain(), st.Facts()
			}
			if f >= 15*s && r.backAt < 0 && st.rate() == Rate60 {
				r.backAt = f
			}
		}
		r.rateAtEnd = st.rate()
		r.rejected = sess.Metrics().Rejected
		return r
	}
	off, on := run(false), run(true)
	t.Logf("off: round trip %.0f → %.0f ms; on: %.0f → %.0f ms, lowest rate %s, back at 60 Hz %.1f s after the rise\n%s\n%s\n%s",
		off.base, off.late, on.base, on.late, on.lowRate, float64(on.backAt-15*s)/s, on.mode, on.expl, on.facts)
	if off.late-off.base < 150 {
		t.Errorf("without congestion avoidance the queue added only %.0f ms", off.late-off.base)
	}
	if on.late-on.base > 150 || on.lowRate != Rate10 {
		t.Errorf("with congestion avoidance: round trip %.0f → %.0f ms, lowest rate %s", on.base, on.late, on.lowRate)
	}
	if !strings.Contains(on.mode, "of 60 Hz") || !strings.HasPrefix(on.expl, "Congestion avoidance: ") || !strings.HasPrefix(on.facts, "adaptive: ") {
		t.Errorf("HUD: mode %q, explain %q, facts %q", on.mode, on.expl, on.facts)
	}
	if on.backAt < 0 || on.backAt > 25*s || on.rateAtEnd != Rate60 {
		t.Errorf("after the rise: back at 60 Hz at frame %d, %s at the end", on.backAt, on.rateAtEnd)
	}
	if off.rejected+on.rejected != 0 {
		t.Errorf("rejected %d, %d", off.rejected, on.rejected)
	}
	// The presenter's rate is the ceiling, and turning the setting off
	// gives it back.
	sess, st := smallSession(t, threeSteps(), func(st *Strategy) { st.cfg.CongestionAvoidance = true; st.SetRate(Rate30) })
	for f := range 10 * s {
		sess.Step(sc.InputAt(f))
	}
	if st.chosenRate() != Rate30 || st.rate() > Rate30 {
		t.Errorf("chosen %s, in force %s", st.chosenRate(), st.rate())
	}
	findKey(t, st, adapt.CongestionKey).Press(-1) // on (the estimator) → off
	sess.Step(sc.InputAt(10 * s))
	if st.rate() != Rate30 || strings.Contains(st.Mode(), "congestion") {
		t.Errorf("after turning it off: %s, mode %q", st.rate(), st.Mode())
	}
}

// TestSnapshotAdaptiveDelay: at 60 Hz the adaptive delay is shorter than
// the fixed 5 ticks on a steady link (and starves no more), longer on a
// jittery one, where it starves no more; it settles and does not hunt.
func TestSnapshotAdaptiveDelay(t *testing.T) {
	const s = wire.TicksPerSecond
	sc := loadScript(t, "katamari")
	type result struct {
		starved, changes int
		delayMs          float64
		mode, facts      string
	}
	run := func(lc link.Config, ad bool) result {
		sess, st := smallSession(t, lc, func(st *Strategy) { st.cfg.AdaptiveDelay = ad })
		var r result
		prev := -1.0
		for f := range 12 * s {
			sess.Step(sc.InputAt(f))
			d := st.Stats().TargetDelayMs
			if f >= 5*s && prev >= 0 && d != prev {
				r.changes++
			}
			prev = d
		}
		ss := st.Stats()
		r.starved, r.delayMs, r.mode, r.facts = ss.StarvedTicks, ss.TargetDelayMs, st.Mode(), st.Facts()
		return r
	}
	lanFixed, lan := run(link.PresetLAN.Config(), false), run(link.PresetLAN.Config(), true)
	mobFixed, mob := run(link.PresetMobile.Config(), false), run(link.PresetMobile.Config(), true)
	t.Logf("LAN: fixed %.0f ms, starved %d; adaptive %.0f ms, starved %d\nmobile: fixed %.0f ms, starved %d; adaptive %.0f ms, starved %d, %d changes\n%s\n%s",
		lanFixed.delayMs, lanFixed.starved, lan.delayMs, lan.starved, mobFixed.delayMs, mobFixed.starved, mob.delayMs, mob.starved, mob.changes, mob.mode, mob.facts)
	if lan.delayMs >= lanFixed.delayMs || lan.starved > lanFixed.starved {
		t.Errorf("LAN: adaptive %.0f ms (starved %d), fixed %.0f ms (starved %d)", lan.delayMs, lan.starved, lanFixed.delayMs, lanFixed.starved)
	}
	if mob.delayMs <= mobFixed.delayMs || mob.starved > mobFixed.starved {
		t.Errorf("mobile: adaptive %.0f ms (starved %d), fixed %.0f ms (starved %d)", mob.delayMs, mob.starved, mobFixed.delayMs, mobFixed.starved)
	}
	if mob.changes > 8 {
		t.Errorf("the delay changed %d times after settling", mob.changes)
	}
	if !strings.Contains(mob.mode, "(adaptive)") || !strings.Contains(mob.facts, "jitter ±") {
		t.Errorf("HUD: mode %q, facts %q", mob.mode, mob.facts)
	}
}

// TestSnapshotAdaptiveDeterministic: with both adaptations on, two runs
// over the bottleneck and over the terrible link are the same to the bit.
func TestSnapshotAdaptiveDeterministic(t *testing.T) {
	sc := loadScript(t, "katamari")
	for _, lc := range []link.Config{threeSteps(), link.PresetTerrible.Config()} {
		run := func() (Stats, uint64, Rate) {
			s, st := smallSession(t, lc, func(st *Strategy) { st.cfg.CongestionAvoidance, st.cfg.AdaptiveDelay = true, true })
			var h uint64
			for f := range 8 * wire.TicksPerSecond {
				s.Step(sc.InputAt(f))
				h = h*31 + viewHash(s.RightView())
			}
			return st.Stats(), h, st.rate()
		}
		s1, h1, r1 := run()
		s2, h2, r2 := run()
		if s1 != s2 || h1 != h2 || r1 != r2 {
			t.Errorf("two runs differ: %x/%x, %s/%s", h1, h2, r1, r2)
		}
	}
}

// TestSnapshotAdaptiveAllocs: adapting allocates nothing per tick (the
// HUD's strings, made on a change of rate, aside).
func TestSnapshotAdaptiveAllocs(t *testing.T) {
	sc := loadScript(t, "katamari")
	s, _ := smallSession(t, link.PresetMobile.Config(), func(st *Strategy) { st.cfg.CongestionAvoidance, st.cfg.AdaptiveDelay = true, true })
	for f := 0; f < 400; f++ {
		s.Step(sc.InputAt(f))
	}
	if n := testing.AllocsPerRun(30, func() { s.Step(sc.InputAt(s.Frame())) }); n > 0 {
		t.Errorf("%v allocations per tick", n)
	}
}

// TestSnapshotSharedAdaptive: the two settings cross to a right process.
func TestSnapshotSharedAdaptive(t *testing.T) {
	a, b := New(DefaultConfig()), New(DefaultConfig())
	a.cfg.CongestionAvoidance, a.cfg.AdaptiveDelay = true, true
	buf := make([]byte, 64)
	w := wire.NewWriteStream(buf)
	if err := a.SerializeSettings(w); err != nil {
		t.Fatal(err)
	}
	if err := b.SerializeSettings(wire.NewReadStream(w.Bytes())); err != nil {
		t.Fatal(err)
	}
	if !b.cfg.CongestionAvoidance || !b.cfg.AdaptiveDelay {
		t.Errorf("read %+v", b.cfg)
	}
}

func findKey(t *testing.T, st *Strategy, key string) *strategy.Control {
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
