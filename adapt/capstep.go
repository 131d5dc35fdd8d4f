package adapt

import (
	"fmt"

	"netcubes/link"
	"netcubes/wire"
)

// CapTimeline is the cap step the bench's adaptation sections measure
// congestion avoidance on, in ticks from the first: link's "bottleneck"
// preset caps the path at 1,000 kbit/s until Drop, at 256 until Rise,
// then at 1,000 again; the sections measure it to End. A bench run held to
// fewer ticks (its -frames) squeezes the phases into them, in the same
// proportions: the tables and charts keep their shape, but a sender that
// needs seconds to settle has no time to, so those figures are not the
// cap step's (the sections say so under their tables).
type CapTimeline struct {
	Drop, Rise, End int
	// Tail is the span at the end of a phase its queue and goodput figures
	// are taken over (the phase's settled state).
	Tail int
}

// FullCapTimeline is the whole cap step: 10 s at 1,000 kbit/s, 20 s at
// 256, then 15 s at 1,000 again, each phase's figures over its last 5 s.
func FullCapTimeline() CapTimeline {
	const s = wire.TicksPerSecond
	return CapTimeline{Drop: 10 * s, Rise: 30 * s, End: 45 * s, Tail: 5 * s}
}

// CapTimelineIn is the cap step squeezed into n ticks; n ≤ 0, or at least
// the whole step's length, is the whole step.
func CapTimelineIn(n int) CapTimeline {
	full := FullCapTimeline()
	if n <= 0 || n >= full.End {
		return full
	}
	scale := func(t int) int { return max(1, t*n/full.End) }
	return CapTimeline{Drop: scale(full.Drop), Rise: scale(full.Rise), End: n, Tail: scale(full.Tail)}
}

// Squeezed reports whether the timeline is shorter than the whole step.
func (c CapTimeline) Squeezed() bool { return c != FullCapTimeline() }

// CapPhase is one phase of the cap step.
type CapPhase struct {
	Name     string
	From, To int // ticks
	Cap      float64
}

// Phases are the cap step's three phases, in order.
func (c CapTimeline) Phases() []CapPhase {
	return []CapPhase{
		{"1000 kbit/s", 0, c.Drop, 1000},
		{"256 kbit/s", c.Drop, c.Rise, 256},
		{"1000 again", c.Rise, c.End, 1000},
	}
}

// Phase is the index of the phase tick k is in.
func (c CapTimeline) Phase(k int) int {
	switch {
	case k >= c.Rise:
		return 2
	case k >= c.Drop:
		return 1
	}
	return 0
}

// Link is the path of the cap step: link's "bottleneck" preset, its
// schedule squeezed with the timeline.
func (c CapTimeline) Link() link.Config {
	l := link.PresetBottleneck.Config()
	if c.Squeezed() {
		l.CapSchedule = link.CapSchedule{Repeat: true}
		for i, ph := range c.Phases() {
			l.CapSchedule.Steps[i] = link.CapStep{Kbps: ph.Cap, Ticks: ph.To - ph.From}
		}
	}
	return l
}

// SqueezedNote is the line the sections print under a table of a
// squeezed cap step.
func (c CapTimeline) SqueezedNote() string {
	return fmt.Sprintf("The cap step squeezed into %d ticks (-frames): its phases are too short to settle in; these figures are not the 45 s step's.", c.End)
}
