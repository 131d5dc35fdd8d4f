package statesync

// The adaptation sections of state synchronization (package adapt):
//
//   - the cap step: the "bottleneck" preset's cap, 1,000 kbit/s for 10 s,
//     256 for 20 s, 1,000 again (measured to 45 s), under a budget of 512
//     kbit/s, with the budget fixed and with congestion avoidance. Per
//     phase: the budget in force, the queueing delay (each tick's round
//     trip less the lowest of the first phase's) over the phase's last
//     5 s, what got through against the cap, the right's error, and how
//     long each step took to recover from. The script is played twice in
//     a row to cover the 45 s. Two senders: build-up step 7, whose packets
//     fill the budget whatever the world does (a resting cube costs 117
//     bits: 64 of them are 470 kbit/s), on which the goals are judged; and
//     step 8, the default, whose delta encoding sends a resting world in
//     about 110 kbit/s: from 21 s into the script, when everything rests,
//     it no longer fills a 256 kbit/s path, and its figures say what the
//     adaptation does for a sender that only sometimes needs the path.
//   - the jitter buffer: every preset, the article's fixed 5 frames and
//     the adaptive buffer: the latency the right shows (how far its world
//     is behind the left) and the share of packets that arrived after
//     their frame (a jitter buffer underrun: applied late, out of phase).

import (
	"fmt"
	"math"
	"text/tabwriter"

	"netcubes/adapt"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// adaptBenchSections are the adaptation sections (BenchSections lists
// them). Their names avoid the words of the other sections' names ("state
// sync", "snapshot", "interpolation", "compression"), which -only selects
// by: `-only adaptation` runs these, `-only snapshot` what it ran before.
func adaptBenchSections() []strategy.BenchSection {
	return []strategy.BenchSection{
		{Name: "adaptation: congestion avoidance, the budget", Run: benchCapStep},
		{Name: "adaptation: playout delay, the jitter buffer", Run: benchJitterBuffer},
	}
}

// The cap step's budget (the phases: adapt.CapPhases).
const capBudget = 512

// capStepRun is one run of the cap step: the trace (each tick's sample,
// the budget in force as its value) and the right's error per phase.
type capStepRun struct {
	tr             adapt.Trace
	err            adapt.PhaseErrors
	backOffs       int
	drops          int // the simple rule's drops to bad mode
	recovery       int // its recovery time at the end, ticks
	rejected, late uint64
}

// capMode is how a cap-step run's budget is set: fixed, by the estimator,
// or by the articles' simple two modes.
type capMode int

const (
	capFixed capMode = iota
	capAdaptive
	capSimple
)

var capModeNames = [...]string{"fixed 512", "adaptive", "simple"}

func runCapStep(b strategy.Bench, step int, mode capMode) (*capStepRun, error) {
	st := New(DefaultConfig())
	tl := adapt.CapTimelineIn(b.FrameLimit())
	s, err := b.NewRun(tl.Link(), st)
	if err != nil {
		return nil, err
	}
	st.SetStep(step)
	set := st.Settings()
	set.BandwidthKbps, set.CongestionAvoidance, set.SimpleCongestion = capBudget, mode != capFixed, mode == capSimple
	st.SetSettings(set)
	r := &capStepRun{}
	st.adapt.observe = func(smp adapt.Sample) {
		if r.tr.Len() < tl.End {
			r.tr.Add(smp)
		}
	}
	name := [...]string{"fixed 512", "congestion avoidance", "simple"}[mode]
	good := false
	for pass := 0; r.tr.Len() < tl.End; pass++ {
		b.Play("adaptation: state sync cap step", fmt.Sprintf("step %d, %s, pass %d", step, name, pass+1), s, func() {
			k := r.tr.Len() - 1
			if k < 0 || k >= tl.End || s.Frame() > tl.End {
				return
			}
			kbps, _ := st.BudgetKbps()
			r.tr.SetValue(kbps)
			if st.Estimator().State() == adapt.StateBackOff {
				r.backOffs++
			}
			if g := st.adapt.simple.Rule().Good(); g != good {
				if !g {
					r.drops++
				}
				good = g
			}
			if m := s.Metrics(); m.Valid {
				r.err.Add(tl.Phase(k), m.PosRMSCm)
			}
		})
	}
	r.rejected, r.late = s.Metrics().Rejected, st.Stats().LatePackets
	r.recovery = st.adapt.simple.Rule().RecoveryTicks()
	return r, nil
}

func benchCapStep(b strategy.Bench) error {
	tl := adapt.CapTimelineIn(b.FrameLimit())
	out := b.Out()
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "step\tbudget\tphase\tbudget kbit/s\t"+adapt.CapPhaseHead+"\tbudget ≥ 410 after s\t")
	type key struct {
		step int
		mode capMode
	}
	runs := map[key]*capStepRun{}
	for _, step := range []int{7, 8} {
		for _, mode := range []capMode{capFixed, capAdaptive, capSimple} {
			r, err := runCapStep(b, step, mode)
			if err != nil {
				return err
			}
			runs[key{step, mode}] = r
			base := r.tr.BaseRTT(wire.TicksPerSecond, tl.End)
			name := capModeNames[mode]
			for i, ph := range tl.Phases() {
				f := tl.Figures(&r.tr, ph, base)
				reached := r.tr.ValueReached(ph.From, ph.To, 0.8*capBudget)
				fmt.Fprintf(w, "%d\t%s\t%s\t%.0f\t%s\t%s\t\n", step, name, ph.Name,
					f.Value, f.Row(min(ph.Cap, capBudget), r.err.RMS(i), ph), adapt.SecondsAfter(reached, ph.From))
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out, "The \"bottleneck\" preset: 20 ms each way, a 250 ms queue; the cap steps at 10 s and 30 s. Budget 512 kbit/s. Queue: each tick's round")
	fmt.Fprintln(out, "trip less the run's lowest, over the last 5 s of the phase (and its p95 and time over 100 ms over the whole phase); goodput: bytes acked, with headers, over the last 5 s, against")
	fmt.Fprintln(out, "the cap (or the budget, when lower). Recovery: from the phase's start, until the queue stays under 100 ms for 2 s, and until the")
	fmt.Fprintln(out, "budget in force is back at 80 % of 512. Step 7 fills its budget whatever the world does; step 8 (delta encoding) needs about")
	fmt.Fprintln(out, "110 kbit/s once the world rests (from 21 s into the script, which starts again at 32.8 s). Simple: the articles' two modes, the")
	fmt.Fprintln(out, "whole budget or a third of it (their 10 of 30 packets a second) once the averaged round trip passes 250 ms, back after the")
	fmt.Fprintln(out, "recovery time of good (4 s at first, doubled by a relapse within 10 s, halved by 10 s of good).")
	if tl.Squeezed() {
		fmt.Fprintln(out, tl.SqueezedNote())
	}
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	for _, step := range []int{7, 8} {
		a, f := runs[key{step, capAdaptive}], runs[key{step, capFixed}]
		base := a.tr.BaseRTT(wire.TicksPerSecond, tl.End)
		drop := tl.Figures(&a.tr, tl.Phases()[1], base).Settled // the low phase's
		lowTail := a.tr.GoodputKbps(tl.Rise-tl.Tail, tl.Rise)
		fixedTail := f.tr.GoodputKbps(tl.Rise-tl.Tail, tl.Rise)
		rise := a.tr.ValueReached(tl.Rise, tl.End, 0.8*capBudget)
		good := verdict(lowTail >= 0.8*256)
		if fixedTail < 0.8*256 {
			good += fmt.Sprintf(", but the sender needs only %.0f kbit/s there (fixed: %.0f %%)", fixedTail, 100*fixedTail/256)
		}
		fmt.Fprintf(out, "Goals, step %d with congestion avoidance: queue under 100 ms within 2 s of the drop: %s (%s s); goodput ≥ 80 %% of the cap in the\n",
			step, verdict(drop >= 0 && drop-tl.Drop <= 2*wire.TicksPerSecond), adapt.SecondsAfter(drop, tl.Drop))
		fmt.Fprintf(out, "  low phase: %s (%.0f %%); budget ≥ 80 %% of 512 within 5 s of the rise: %s (%s s). %d back-offs in %.0f s; packets applied late: %d (fixed: %d).\n",
			good, 100*lowTail/256, verdict(rise >= 0 && rise-tl.Rise <= 5*wire.TicksPerSecond), adapt.SecondsAfter(rise, tl.Rise),
			a.backOffs, float64(tl.End)/wire.TicksPerSecond, a.late, f.late)
	}
	for _, step := range []int{7, 8} {
		r := runs[key{step, capSimple}]
		fmt.Fprintf(out, "Simple, step %d: %d drops to bad mode in %.0f s, recovery time %.0f s at the end; goodput in the low phase's tail %.0f kbit/s.\n",
			step, r.drops, float64(tl.End)/wire.TicksPerSecond, float64(r.recovery)/wire.TicksPerSecond, r.tr.GoodputKbps(tl.Rise-tl.Tail, tl.Rise))
	}
	return b.Print(strategy.CapStepSeconds(capStepChart, tl, &runs[key{7, capFixed}].tr, &runs[key{7, capAdaptive}].tr))
}

func benchJitterBuffer(b strategy.Bench) error {
	fa := strategy.NewFixedVsAdaptive("late packets", strategy.Column{Head: "frames at the end"}, "fewer late", "more late")
	for p := link.Preset(0); p < link.NumPresets; p++ {
		var lat, late [2]float64
		var frames int
		var sigma float64
		for k, adaptive := range []bool{false, true} {
			st := New(DefaultConfig())
			s, err := b.NewRun(p.Config(), st)
			if err != nil {
				return err
			}
			set := st.Settings()
			set.AdaptiveJitter = adaptive
			st.SetSettings(set)
			var sum float64
			n := 0
			b.Play("adaptation: state sync jitter buffer", fmt.Sprintf("%s, adaptive %v", p, adaptive), s, func() {
				if m := s.Metrics(); m.Valid && s.Frame() >= 2*wire.TicksPerSecond {
					sum += m.DelayMs
					n++
				}
			})
			ss := st.Stats()
			lat[k] = sum / math.Max(float64(n), 1)
			late[k] = float64(ss.LatePackets) / math.Max(float64(ss.Packets), 1)
			if adaptive {
				frames, sigma = st.JitterBufferFrames(), st.adapt.jit.SigmaMs()
			}
		}
		fa.Add(p.String(), lat, late, strategy.Int(frames), sigma)
	}
	t := fa.Table()
	better, _ := fa.Better()
	t.Note("Step 8 at 256 kbit/s, the script once per run. Latency: how far behind the left the right's world is (network and jitter buffer), mean")
	t.Note("from 2 s on. Late packets: share of the packets received that were applied after their frame (a jitter buffer underrun). Fixed: the")
	t.Note("article's 5 frames; adaptive: (mean − fastest transit) + 2σ + 1 frames, up at once, down after 3 s.")
	t.Notef("Adaptive is at least as good on both figures on %d of %d presets.", better, link.NumPresets)
	t.Charts = []strategy.Chart{fa.Chart("adaptation-statesync-jitter",
		"State sync's jitter buffer on every preset: the article's fixed 5 frames against the adaptive buffer",
		[]string{"fixed 5 frames", "adaptive"}, "packets applied late")}
	return b.Print(t)
}

// capStepChart is step 7's cap step second by second.
var capStepChart = strategy.CapStep{
	Value: "budget kbit/s", Unit: "kbit/s", ValueLabel: "budget in force", ValueCaps: true, QueueLine: "goal: under 100 ms",
	Notes: []string{
		"Step 7's cap step second by second (each row: the second from t): the queueing delay (median of the second's ticks), what got",
		"through (bytes acked, with headers) and the budget in force, with the budget fixed at 512 kbit/s and with congestion avoidance.",
	},
	File:  "adaptation-statesync-cap",
	Title: "State sync under a cap step (1000 → 256 → 1000 kbit/s): budget fixed at 512 against congestion avoidance",
	Names: [2]string{"budget fixed at 512 kbit/s", "congestion avoidance"},
}
