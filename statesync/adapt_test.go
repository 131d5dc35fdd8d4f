package statesync

import (
	"strings"

	"netcubes/cubes"
	"testing"

	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// adaptSession is a session with state sync on a smaller world (145 cubes:
// the tests are about the link, not the physics) at build-up step 7 (no
// delta encoding, so a packet fills its budget even when the world rests),
// with the budget and adaptive settings given.
func adaptSession(t testing.TB, lc link.Config, kbps int, ca, aj bool) (*game.Session, *Strategy) {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.World.GridSide = 12
	st := New(DefaultConfig())
	cfg.Strategies = []strategy.Strategy{st}
	cfg.Link = lc
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	set := StepSettings(7)
	set.BandwidthKbps = kbps
	set.CongestionAvoidance, set.AdaptiveJitter = ca, aj
	st.SetSettings(set)
	return s, st
}

// capStep is a cap of 1,000 kbit/s for 8 s, then 256: a shorter
// "bottleneck" preset.
func capStep() link.Config {
	c := link.PresetBottleneck.Config()
	c.CapSchedule = link.CapSchedule{Steps: [link.MaxCapSteps]link.CapStep{{Kbps: 1000, Ticks: 8 * wire.TicksPerSecond}, {Kbps: 256, Ticks: 1 << 30}}}
	return c
}

// TestStateSyncCongestionAvoidance: a 512 kbit/s budget over a path whose
// cap falls to 256 kbit/s at 8 s. Without congestion avoidance the budget
// stays and the bottleneck queue holds a quarter of a second of packets
// (and drops the rest); with it the budget falls below the cap, the queue
// drains, the HUD's budget line (BudgetKbps) and mode line follow, and
// Explain says why.
func TestStateSyncCongestionAvoidance(t *testing.T) {
	const s = wire.TicksPerSecond
	type result struct {
		budgetAt7, budgetAt13 float64
		queueMs               float64 // the worst round trip over the last 2 s, less the first seconds'
		explain, mode, facts  string
		rejected              uint64
	}
	run := func(ca bool) result {
		sess, st := adaptSession(t, capStep(), 512, ca, false)
		var r result
		base, worst := 0.0, 0.0
		for f := range 14 * s {
			sess.Step(cubesIdle)
			m := sess.Metrics()
			if f == 7*s {
				r.budgetAt7, _ = st.BudgetKbps()
				base = m.RTTms
			}
			if f >= 12*s {
				worst = max(worst, m.RTTms)
			}
		}
		r.budgetAt13, _ = st.BudgetKbps()
		r.queueMs = worst - base
		r.explain, r.mode, r.facts = st.Explain(), st.Mode(), st.Facts()
		r.rejected = sess.Metrics().Rejected
		return r
	}
	off, on := run(false), run(true)
	t.Logf("off: budget %v → %v, queue +%.0f ms; on: budget %v → %v, queue +%.0f ms\n%s\n%s\n%s",
		off.budgetAt7, off.budgetAt13, off.queueMs, on.budgetAt7, on.budgetAt13, on.queueMs, on.explain, on.mode, on.facts)
	if off.budgetAt13 != 512 || off.queueMs < 150 {
		t.Errorf("without congestion avoidance: budget %v, queue +%.0f ms", off.budgetAt13, off.queueMs)
	}
	if on.budgetAt7 != 512 {
		t.Errorf("with congestion avoidance, before the cap fell: budget %v", on.budgetAt7)
	}
	if on.budgetAt13 >= 256 || on.budgetAt13 < 128 || on.queueMs > 100 {
		t.Errorf("with congestion avoidance, after: budget %v, queue +%.0f ms", on.budgetAt13, on.queueMs)
	}
	if !strings.HasPrefix(on.explain, "Congestion avoidance: ") || !strings.Contains(on.mode, "of 512 kbit/s") ||
		!strings.HasPrefix(on.facts, "adaptive: ") || !strings.Contains(on.mode, "congestion avoidance") {
		t.Errorf("HUD: explain %q, mode %q, facts %q", on.explain, on.mode, on.facts)
	}
	if off.rejected+on.rejected != 0 {
		t.Errorf("rejected packets: %d, %d", off.rejected, on.rejected)
	}
}

var cubesIdle = cubes.Input{}

// TestStateSyncAdaptiveJitter: the adaptive jitter buffer is small on a
// steady link (1-2 frames against the article's 5) and larger on a jittery
// one, where it leaves fewer packets late than the fixed 5 frames; it
// settles within a few seconds and then does not hunt.
func TestStateSyncAdaptiveJitter(t *testing.T) {
	const s = wire.TicksPerSecond
	type result struct {
		late    uint64
		frames  []int // per second
		changes int   // changes of the buffer after 5 s
		facts   string
	}
	run := func(lc link.Config, aj bool) result {
		sess, st := adaptSession(t, lc, 256, false, aj)
		var r result
		prev := -1
		for f := range 20 * s {
			sess.Step(cubesIdle)
			n := st.JitterBufferFrames()
			if f%s == s-1 {
				r.frames = append(r.frames, n)
			}
			if f >= 5*s && prev >= 0 && n != prev {
				r.changes++
			}
			prev = n
		}
		r.late = st.Stats().LatePackets
		r.facts = st.Facts()
		return r
	}
	lan := run(link.PresetLAN.Config(), true)
	mobileFixed, mobile := run(link.PresetMobile.Config(), false), run(link.PresetMobile.Config(), true)
	t.Logf("LAN adaptive: frames %v, late %d\nmobile fixed 5: late %d; adaptive: frames %v, late %d, %d changes after 5 s\n%s",
		lan.frames, lan.late, mobileFixed.late, mobile.frames, mobile.late, mobile.changes, mobile.facts)
	if last := lan.frames[len(lan.frames)-1]; last > 2 || lan.late > 0 {
		t.Errorf("LAN: %d frames, %d late", last, lan.late)
	}
	if last := mobile.frames[len(mobile.frames)-1]; last <= 5 || mobile.late >= mobileFixed.late {
		t.Errorf("mobile: %d frames, %d late (fixed: %d late)", last, mobile.late, mobileFixed.late)
	}
	if mobile.changes > 6 {
		t.Errorf("the buffer changed %d times after settling", mobile.changes)
	}
	if !strings.Contains(mobile.facts, "jitter ±") {
		t.Errorf("facts %q", mobile.facts)
	}
	if fixed := run(link.PresetMobile.Config(), false); fixed.frames[len(fixed.frames)-1] != 5 {
		t.Errorf("fixed: %v", fixed.frames)
	}
}

// TestStateSyncAdaptiveDeterministic: with both adaptations on, over the
// bottleneck and over a jittery lossy link, two runs are bit for bit the
// same (both worlds' state hashes, every figure).
func TestStateSyncAdaptiveDeterministic(t *testing.T) {
	for _, lc := range []link.Config{capStep(), link.PresetTerrible.Config()} {
		run := func() (uint64, uint64, Stats, float64) {
			sess, st := adaptSession(t, lc, 512, true, true)
			sc := scenario(t, ballScenario)
			for f := range 10 * wire.TicksPerSecond {
				sess.Step(sc.InputAt(f))
			}
			kbps, _ := st.BudgetKbps()
			return sess.Left().StateHash(), st.rcv.world.StateHash(), st.Stats(), kbps
		}
		l1, r1, s1, k1 := run()
		l2, r2, s2, k2 := run()
		if l1 != l2 || r1 != r2 || s1 != s2 || k1 != k2 {
			t.Errorf("two runs differ: left %x/%x right %x/%x budget %v/%v", l1, l2, r1, r2, k1, k2)
		}
	}
}

// TestStateSyncAdaptiveAllocs: adapting allocates nothing per tick.
func TestStateSyncAdaptiveAllocs(t *testing.T) {
	sess, _ := adaptSession(t, capStep(), 512, true, true)
	for range 600 {
		sess.Step(cubesIdle)
	}
	if n := testing.AllocsPerRun(50, func() { sess.Step(cubesIdle) }); n > 0 {
		t.Errorf("a step allocates %v times", n)
	}
}
