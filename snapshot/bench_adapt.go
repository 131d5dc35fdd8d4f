package snapshot

// The adaptation sections of the snapshot strategies (package adapt):
//
//   - the cap step: the "bottleneck" preset's cap, 1,000 kbit/s for 10 s,
//     256 for 20 s, 1,000 again (measured to 45 s: the script is played
//     twice in a row), for both articles' setups, with the send rate fixed
//     and with congestion avoidance. Per phase: the rate in force, the
//     queueing delay (each tick's round trip less the lowest of the first
//     phase's) over the phase's last 5 s, what got through against the
//     cap, the right's error, and how long each step took to recover
//     from. A snapshot sender's demand follows the world: the compression
//     demo needs 150-700 kbit/s while the katamari ball rolls and 16 once
//     everything rests (from 21 s into the script).
//   - the delay: every preset, both setups, the articles' fixed delay (3
//     send intervals and a margin) and the adaptive one: the latency the
//     right shows and the share of ticks starved (nothing to interpolate
//     toward).

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
		{Name: "adaptation: congestion avoidance, the send rate", Run: benchCapStep},
		{Name: "adaptation: playout delay, the render delay", Run: benchAdaptiveDelay},
	}
}

// benchSetup is one of the articles' setups.
type benchSetup struct {
	name string
	set  func(c *Config)
}

func benchSetups() []benchSetup {
	return []benchSetup{
		{"interpolation (10 Hz, uncompressed, hermite)", (*Config).UseInterpolationDemo},
		{"compression (60 Hz, level 11, linear)", (*Config).UseCompressionDemo},
	}
}

// capStepRun is one run: the trace (the send rate in force as its value)
// and the right's error per phase.
type capStepRun struct {
	tr       adapt.Trace
	err      adapt.PhaseErrors
	demand   [3]float64 // kbit/s the sender sent, mean over the phase's tail
	sentBits [3]float64
}

// capMode is how a cap-step run's rate is set: fixed, by the estimator, or
// by the articles' simple two modes.
type capMode int

const (
	capFixed capMode = iota
	capAdaptive
	capSimple
)

var capModeNames = [...]string{"fixed", "adaptive", "simple"}

func runCapStep(b strategy.Bench, setup benchSetup, mode capMode) (*capStepRun, error) {
	c := DefaultConfig()
	setup.set(&c)
	c.CongestionAvoidance, c.SimpleCongestion = mode != capFixed, mode == capSimple
	st := New(c)
	tl := adapt.CapTimelineIn(b.FrameLimit())
	s, err := b.NewRun(tl.Link(), st)
	if err != nil {
		return nil, err
	}
	r := &capStepRun{}
	st.adapt.observe = func(smp adapt.Sample) {
		if r.tr.Len() < tl.End {
			r.tr.Add(smp)
			k := r.tr.Len() - 1
			for i, ph := range tl.Phases() {
				if k >= max(ph.From, ph.To-tl.Tail) && k < ph.To {
					r.sentBits[i] += float64(8 * smp.SentBytes)
				}
			}
		}
	}
	for pass := 0; r.tr.Len() < tl.End; pass++ {
		b.Play("adaptation: snapshots cap step", fmt.Sprintf("%s, %s, pass %d", setup.name, capModeNames[mode], pass+1), s, func() {
			k := r.tr.Len() - 1
			if k < 0 || k >= tl.End || s.Frame() > tl.End {
				return
			}
			r.tr.SetValue(float64(st.rate()))
			if m := s.Metrics(); m.Valid {
				r.err.Add(tl.Phase(k), m.PosRMSCm)
			}
		})
	}
	for i := range r.demand {
		r.demand[i] = r.sentBits[i] / (float64(tl.Tail) / wire.TicksPerSecond) / 1000
	}
	return r, nil
}

func benchCapStep(b strategy.Bench) error {
	tl := adapt.CapTimelineIn(b.FrameLimit())
	out := b.Out()
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "setup\trate\tphase\trate Hz\tsent kbit/s\t"+adapt.CapPhaseHead+"\tback at the chosen rate after s\t")
	var notes []string
	var compression [2]*capStepRun // the compression setup's runs, fixed and adaptive
	for si, setup := range benchSetups() {
		for k, mode := range []capMode{capFixed, capAdaptive, capSimple} {
			r, err := runCapStep(b, setup, mode)
			if err != nil {
				return err
			}
			if si == 1 && k < len(compression) {
				compression[k] = r
			}
			base := r.tr.BaseRTT(wire.TicksPerSecond, tl.End)
			chosen := r.tr.MeanValue(0, 1) // the rate of the first tick: the presenter's
			name := capModeNames[mode]
			var settled [3]int
			for i, ph := range tl.Phases() {
				f := tl.Figures(&r.tr, ph, base)
				settled[i] = f.Settled
				back := r.tr.ValueReached(ph.From, ph.To, chosen)
				fmt.Fprintf(w, "%s\t%s\t%s\t%.0f\t%.0f\t%s\t%s\t\n", setup.name, name, ph.Name,
					f.Value, r.demand[i], f.Row(ph.Cap, r.err.RMS(i), ph), adapt.SecondsAfter(back, ph.From))
			}
			if mode != capFixed {
				drop := settled[1] // the low phase's
				rise := r.tr.ValueReached(tl.Rise, tl.End, chosen)
				what := "congestion avoidance"
				if mode == capSimple {
					what = "the simple two modes"
				}
				notes = append(notes, fmt.Sprintf("%s with %s: queue under 100 ms %s s after the drop; back at %.0f Hz %s s after the rise.",
					setup.name, what, adapt.SecondsAfter(drop, tl.Drop), chosen, adapt.SecondsAfter(rise, tl.Rise)))
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out, "The \"bottleneck\" preset: 20 ms each way, a 250 ms queue; the cap steps at 10 s and 30 s. Rate Hz: the mean send rate in force. Sent,")
	fmt.Fprintln(out, "queue and goodput over the last 5 s of the phase, and the queue's p95 and the time it spent over 100 ms over the whole phase (the queue: each tick's round trip less")
	fmt.Fprintln(out, "the run's lowest; goodput: bytes acked, with headers). Recovery from the phase's start: until the queue stays under 100 ms for 2 s,")
	fmt.Fprintln(out, "and until the rate is the chosen one. A snapshot sender's demand follows the world: the compression setup needs more than 256 kbit/s")
	fmt.Fprintln(out, "only while the ball rolls (about 12-21 s into the script), and 16 once everything rests (the last 5 s of the low phase). The")
	fmt.Fprintln(out, "interpolation setup sends 2.9 Mbit/s at 10 Hz, its lowest rate: above both caps, nothing a rate can fix (its level is the")
	fmt.Fprintln(out, "article's lesson and stays the presenter's); its round trips all include clocking a 36 kB snapshot out, so its queue reads low.")
	fmt.Fprintln(out, "Simple: the articles' two modes, 30 snapshots a second (never above the chosen rate), 10 once the averaged round trip passes")
	fmt.Fprintln(out, "250 ms, back after the recovery time of good (4 s at first, doubled by a relapse within 10 s, halved by 10 s of good).")
	for _, n := range notes {
		fmt.Fprintln(out, n)
	}
	if tl.Squeezed() {
		fmt.Fprintln(out, tl.SqueezedNote())
	}
	return b.Print(strategy.CapStepSeconds(capStepChart, tl, &compression[0].tr, &compression[1].tr))
}

func benchAdaptiveDelay(b strategy.Bench) error {
	better, total := 0, 0
	files := []string{"adaptation-snapshot-delay-interpolation", "adaptation-snapshot-delay-compression"}
	for si, setup := range benchSetups() {
		fa := strategy.NewFixedVsAdaptive("starved", strategy.Column{Head: "delay at the end ms", Unit: "ms"}, "starves less", "starves more")
		for p := link.Preset(0); p < link.NumPresets; p++ {
			var lat, starved [2]float64
			var endDelay, sigma float64
			for k, adaptive := range []bool{false, true} {
				c := DefaultConfig()
				setup.set(&c)
				c.AdaptiveDelay = adaptive
				st := New(c)
				s, err := b.NewRun(p.Config(), st)
				if err != nil {
					return err
				}
				var sum float64
				n, playing := 0, 0
				b.Play("adaptation: snapshot delay", fmt.Sprintf("%s, %s, adaptive %v", setup.name, p, adaptive), s, func() {
					if m := s.Metrics(); m.Valid && s.Frame() >= 2*wire.TicksPerSecond {
						sum += m.DelayMs
						n++
					}
					if st.recv.showing {
						playing++
					}
				})
				ss := st.Stats()
				lat[k] = sum / math.Max(float64(n), 1)
				starved[k] = float64(ss.StarvedTicks) / math.Max(float64(playing), 1)
				if adaptive {
					endDelay, sigma = ss.TargetDelayMs, st.recv.ad.jit.SigmaMs()
				}
			}
			fa.Add(p.String(), lat, starved, strategy.Num(endDelay, "%.0f"), sigma)
		}
		n, of := fa.Better()
		better, total = better+n, total+of
		t := fa.Table()
		t.Notef("Setup: %s.", setup.name)
		if si == len(benchSetups())-1 {
			t.Note("The script once per run. Latency: how far behind the left the right shows (network and interpolation delay), mean from 2 s on.")
			t.Note("Starved: share of the ticks shown with nothing to interpolate toward. Fixed: 3 send intervals + a margin (83 ms at 60 Hz, 350 ms")
			t.Note("at 10 Hz); adaptive: (1 + n) × interval + 2σ + 1 tick, n the lost snapshots in a row ridden out at the loss measured.")
			t.Notef("Adaptive is at least as good on both figures in %d of %d runs.", better, total)
		}
		t.Charts = []strategy.Chart{fa.Chart(files[si], "Snapshots' playout delay on every preset, "+setup.name+": fixed against adaptive",
			[]string{"fixed delay", "adaptive delay"}, "ticks starved")}
		if err := b.Print(t); err != nil {
			return err
		}
	}
	return nil
}

// capStepChart is the compression setup's cap step second by second.
// (The interpolation setup sends more than either cap at its lowest rate:
// nothing a rate can fix.)
var capStepChart = strategy.CapStep{
	Value: "rate Hz", Unit: "Hz", ValueLabel: "send rate in force", QueueLine: "under 100 ms",
	Notes: []string{
		"The compression setup's cap step second by second (each row: the second from t): the queueing delay (median of the second's ticks),",
		"what got through (bytes acked, with headers) and the send rate in force, with the rate fixed and with congestion avoidance.",
	},
	File:  "adaptation-snapshot-cap",
	Title: "Snapshots at 60 Hz under a cap step (1000 → 256 → 1000 kbit/s): fixed rate against congestion avoidance",
	Names: [2]string{"rate fixed at 60 Hz", "congestion avoidance"},
}
