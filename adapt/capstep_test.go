package adapt

import (
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
