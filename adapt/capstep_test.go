package adapt

import (
	"math"
	"testing"

	"netcubes/link"
)

// TestCapTimeline: the whole step is the bottleneck preset as it is; a
// squeezed one keeps the phases in order and in proportion, and its link
// caps the path at each phase's cap during that phase.
func TestCapTimeline(t *testing.T) {
	full := FullCapTimeline()
	for _, n := range []int{0, -5, full.End, full.End + 1} {
		if got := CapTimelineIn(n); got != full || got.Squeezed() {
			t.Errorf("CapTimelineIn(%d) = %+v, want the whole step", n, got)
		}
	}
	if full.Link() != link.PresetBottleneck.Config() {
		t.Error("the whole step's link is not the bottleneck preset")
	}
	for _, n := range []int{3, 120, 300, full.End - 1} {
		tl := CapTimelineIn(n)
		if !tl.Squeezed() || tl.End != n || !(0 < tl.Drop && tl.Drop < tl.Rise && tl.Rise < tl.End) || tl.Tail < 1 {
			t.Errorf("CapTimelineIn(%d) = %+v", n, tl)
			continue
		}
		sched := tl.Link().CapSchedule
		for _, ph := range tl.Phases() {
			for _, k := range []int{ph.From, ph.To - 1} {
				if got, _ := sched.At(k); got != ph.Cap {
					t.Errorf("n %d: cap at tick %d = %v, want %v (phase %s)", n, k, got, ph.Cap, ph.Name)
				}
				if tl.Phases()[tl.Phase(k)] != ph {
					t.Errorf("n %d: tick %d in phase %d, want %s", n, k, tl.Phase(k), ph.Name)
				}
			}
		}
	}
}

// TestCapPhaseFigures: a trace with a 100 ms queue over the first half of
// the low phase; each phase's figures as the adaptation sections print
// them.
func TestCapPhaseFigures(t *testing.T) {
	tl := CapTimeline{Drop: 300, Rise: 600, End: 900, Tail: 60}
	var tr Trace
	for k := range tl.End {
		rtt := int64(3)
		if k >= 300 && k < 450 {
			rtt = 9 // 6 ticks of queue: 100 ms
		}
		s := Sample{AckedBytes: 125} // 60 kbit/s
		if k%2 == 0 {
			s.RTTs, s.RTTSum = 1, rtt
		}
		tr.Add(s)
		tr.SetValue(float64(k))
	}
	base := tr.BaseRTT(0, tl.End)
	want := []CapPhaseFigures{
		{Value: 149.5, Goodput: 60, Settled: 0},
		// Tick 449 had no ack, so nothing holds the queue against it.
		{Value: 449.5, WholeP95: 100, SecondsOver: 1.25, Goodput: 60, Settled: 449},
		{Value: 749.5, Goodput: 60, Settled: 600},
	}
	for i, ph := range tl.Phases() {
		if got := tl.Figures(&tr, ph, base); got != want[i] {
			t.Errorf("phase %s: %+v, want %+v", ph.Name, got, want[i])
		}
	}
	var e PhaseErrors
	e.Add(1, 3)
	e.Add(1, 4)
	if got := e.RMS(1); math.Abs(got-math.Sqrt(12.5)) > 1e-12 {
		t.Errorf("RMS of 3 and 4 = %v", got)
	}
	if got := e.RMS(0); got != 0 {
		t.Errorf("RMS of nothing = %v", got)
	}
	for _, tt := range []struct {
		at, from int
		want     string
	}{{-1, 5, "never"}, {90, 0, "1.5"}, {700, 600, "1.7"}} {
		if got := SecondsAfter(tt.at, tt.from); got != tt.want {
			t.Errorf("SecondsAfter(%d, %d) = %q, want %q", tt.at, tt.from, got, tt.want)
		}
	}
}
