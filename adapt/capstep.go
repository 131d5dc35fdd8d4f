package adapt

import (
	"fmt"
	"math"

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

// The cap step's queue goal: the queueing delay back under QueueLimitMs,
// and held there for SettleTicks, counts as recovered.
const (
	QueueLimitMs = 100
	SettleTicks  = 2 * wire.TicksPerSecond
)

// CapPhaseFigures are the figures the adaptation sections print for one
// phase of one cap-step run. The tail is the phase's last Tail ticks: its
// settled state.
type CapPhaseFigures struct {
	Value       float64 // the trace's value (the rate or budget in force), mean over the phase
	QueueMedian float64 // ms of queueing delay, median over the tail
	QueueP95    float64 // ms, p95 over the tail
	WholeP95    float64 // ms, p95 over the whole phase (the spike a step causes)
	SecondsOver float64 // s the queue spent at QueueLimitMs or more in the phase
	Goodput     float64 // kbit/s acked, with headers, over the tail
	Settled     int     // the tick from which the queue stayed under QueueLimitMs for SettleTicks; −1 never
}

// CapPhaseHead heads the columns Row prints, tab-separated: the queue,
// the goodput and the error of one phase, which the adaptation sections of
// snapshots and state sync both print.
const CapPhaseHead = "queue median ms\tqueue p95 ms\twhole phase p95\ts over 100 ms\tgoodput kbit/s\tof the cap\tRMS err cm\tqueue < 100 ms after s"

// Row prints the figures under CapPhaseHead: the goodput's share of
// bound (the cap, or the sender's own budget when lower), the right's
// error errRMS, the settling counted from the phase's start.
func (f CapPhaseFigures) Row(bound, errRMS float64, ph CapPhase) string {
	return fmt.Sprintf("%.0f\t%.0f\t%.0f\t%.1f\t%.0f\t%.0f %%\t%.2f\t%s", f.QueueMedian, f.QueueP95, f.WholeP95, f.SecondsOver,
		f.Goodput, 100*f.Goodput/bound, errRMS, SecondsAfter(f.Settled, ph.From))
}

// Figures are tr's figures over phase ph of the timeline, the queueing
// delay measured against the round trip base (Trace.BaseRTT).
func (c CapTimeline) Figures(tr *Trace, ph CapPhase, base float64) CapPhaseFigures {
	tail := max(ph.From, ph.To-c.Tail)
	q := tr.QueueMs(tail, ph.To, base)
	return CapPhaseFigures{
		Value:       tr.MeanValue(ph.From, ph.To),
		QueueMedian: Quantile(q, 0.5),
		QueueP95:    Quantile(q, 0.95),
		WholeP95:    Quantile(tr.QueueMs(ph.From, ph.To, base), 0.95),
		SecondsOver: float64(tr.TicksAbove(ph.From, ph.To, base, QueueLimitMs)) / wire.TicksPerSecond,
		Goodput:     tr.GoodputKbps(tail, ph.To),
		Settled:     tr.QueueSettled(ph.From, ph.To, base, QueueLimitMs, SettleTicks),
	}
}

// PhaseErrors gathers the right's position error (cm RMS, one figure a
// tick) per phase of the cap step.
type PhaseErrors struct {
	sq, n [3]float64
}

// Add counts one tick's error in phase i.
func (e *PhaseErrors) Add(i int, cm float64) {
	e.sq[i] += cm * cm
	e.n[i]++
}

// RMS is phase i's error over its ticks (0 when none was counted).
func (e *PhaseErrors) RMS(i int) float64 {
	return math.Sqrt(e.sq[i] / math.Max(e.n[i], 1))
}

// SecondsAfter writes the time from tick from to tick at in seconds, or
// "never" for at < 0 (what the recovery searches return when the goal
// was not reached).
func SecondsAfter(at, from int) string {
	if at < 0 {
		return "never"
	}
	return fmt.Sprintf("%.1f", float64(at-from)/wire.TicksPerSecond)
}
