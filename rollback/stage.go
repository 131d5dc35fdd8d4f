package rollback

import (
	"fmt"
	"math"

	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// What rollback tells the stage: its figures (the price of not waiting),
// a desync or a failed sync test in red, and events for the caption.

// Facts implements strategy.Facts.
func (st *Strategy) Facts() string {
	f := &st.m.fig
	rb, _, _ := f.perSecond()
	parts := []string{
		viewmodel.Plural(rb, "rollback") + "/s",
		fmt.Sprintf("longest %s", viewmodel.Plural(f.LongestRoll, "frame")),
		st.hitLine(),
		fmt.Sprintf("pop %.1f cm (max %.1f)", f.PopCm, f.MaxPopCm),
		st.framesLine(),
		st.advantageLine(),
		st.stallLine(),
		st.syncLine(),
	}
	out := parts[0]
	for _, p := range parts[1:] {
		out += " · " + p
	}
	return out
}

// RightFacts implements strategy.RightFacts: the machine's figures are
// the right's own.
func (st *Strategy) RightFacts() string {
	if st.xj.Waiting() {
		return st.xj.Line()
	}
	return st.Facts()
}

// Advantage is the machine's frame advantage (GGPO's): its largest lead,
// averaged, over where another player's machine probably is (timesync.go).
func (st *Strategy) Advantage() int {
	if st.m.world == nil || !st.predicting() {
		return 0
	}
	return int(st.ts.local(&st.m))
}

// FrameLane implements strategy.FrameLane: the machine's frames, final up
// to the first one some player's input is missing for, predicted after.
func (st *Strategy) FrameLane() (final, present int, ok bool) {
	if st.m.world == nil || st.thin {
		return 0, 0, false
	}
	present = st.m.world.Frame()
	return min(st.m.confirmed(), present), present, true
}

// framesLine says which frames are final and which predicted.
func (st *Strategy) framesLine() string {
	if st.m.world == nil {
		return ""
	}
	f, c := st.m.world.Frame(), min(st.m.confirmed(), st.m.world.Frame())
	if c >= f {
		return "every input in hand"
	}
	return fmt.Sprintf("predicting %s (final to %d)", viewmodel.Plural(f-c, "frame"), c)
}

// advantageLine is the advantage, the others' and what the time sync did.
func (st *Strategy) advantageLine() string {
	s := fmt.Sprintf("frame advantage %+d", st.Advantage())
	others := math.MinInt
	for p := range st.players {
		if p != st.own {
			others = max(others, int(st.ts.remote[p]))
		}
	}
	if others > math.MinInt {
		s += fmt.Sprintf(" (others %+d)", others)
	}
	if st.cfg.TimeSync && st.predicting() {
		s += fmt.Sprintf(" · waited %s", viewmodel.Plural(st.ts.skipped, "tick"))
	}
	return s
}

func (st *Strategy) hitLine() string {
	f := &st.m.fig
	if f.Predicted == 0 {
		return "no prediction needed yet"
	}
	return fmt.Sprintf("predictions right %.0f %%", 100*float64(f.PredictedHit)/float64(f.Predicted))
}

func (st *Strategy) stallLine() string {
	f := &st.m.fig
	s := fmt.Sprintf("stalled %.1f s of the last 10", float64(f.stalledTicks())/wire.TicksPerSecond)
	if f.Behind > 0 && f.Stall == NoStall {
		s += fmt.Sprintf(" · %s behind", viewmodel.Plural(f.Behind, "frame"))
	}
	switch f.Stall {
	case StallWindow:
		s += fmt.Sprintf(" · STALL: window of %d full", st.cfg.PredictionWindow)
	case StallBudget:
		s += fmt.Sprintf(" · STALL: over %d steps a tick", st.cfg.MaxStepsPerTick)
	}
	return s
}

func (st *Strategy) syncLine() string {
	f, ss := &st.m.fig, st.Stats()
	s := fmt.Sprintf("in sync, %d frames checked", ss.Checked)
	if ss.Desync >= 0 {
		s = fmt.Sprintf("DESYNC at frame %d (%d checked)", ss.Desync, ss.Checked)
	}
	if Steps[st.step].SyncTest {
		if f.SyncFail >= 0 {
			s += fmt.Sprintf(" · sync test: frame %d differs", f.SyncFail)
		} else {
			s += fmt.Sprintf(" · sync test: %d frames equal", f.SyncChecked)
		}
	}
	return s
}

// Alarm implements strategy.Alarm.
func (st *Strategy) Alarm() string {
	f := &st.m.fig
	switch {
	case f.SyncFail >= 0:
		return fmt.Sprintf("SYNC TEST FAILED at frame %d", f.SyncFail)
	case f.Desync >= 0:
		return fmt.Sprintf("DESYNC at frame %d", f.Desync)
	}
	return ""
}

// stallCaptionTicks is how long the machine must have stalled before the
// caption says so: 0.1 s, a freeze the hall sees.
const stallCaptionTicks = 6

// popCaptionCm is the smallest pop worth a caption.
const popCaptionCm = 5

// Event implements strategy.Eventful.
func (st *Strategy) Event() (strategy.Event, bool) {
	f := &st.m.fig
	switch {
	case f.SyncFail >= 0 && !f.syncSaid:
		f.syncSaid = true
		return strategy.Event{Kind: strategy.EventDesync,
			Text: fmt.Sprintf("sync test: frame %d simulated again differs from its first run", f.SyncFail)}, true
	case f.Desync >= 0 && !f.desyncSaid:
		f.desyncSaid = true
		return strategy.Event{Kind: strategy.EventDesync,
			Text: fmt.Sprintf("DESYNC at frame %d: the machine differs from the left from here", f.Desync)}, true
	case f.stallRun >= stallCaptionTicks && f.Stall == StallWindow:
		return strategy.Event{Kind: strategy.EventStall, Size: float64(f.stallRun),
			Text: fmt.Sprintf("right frozen: %d frames predicted, the window is full", st.cfg.PredictionWindow)}, true
	case f.stallRun >= stallCaptionTicks && f.Stall == StallBudget:
		return strategy.Event{Kind: strategy.EventStall, Size: float64(f.stallRun),
			Text: "right frozen: the resimulation does not fit in the tick"}, true
	case f.PopCm >= popCaptionCm && !f.popSaid:
		f.popSaid = true
		return strategy.Event{Kind: strategy.EventPop, Size: f.PopCm,
			Text: fmt.Sprintf("rollback: %s resimulated, cubes jumped %.0f cm", viewmodel.Plural(f.lastResim, "frame"), f.PopCm)}, true
	}
	return strategy.Event{}, false
}

// KeyFigures implements strategy.KeyFigures: the price of not waiting,
// frames resimulated per tick and their cost over the last second; when
// the machine waits instead (the lockstep step, a spectator), its stall
// time.
func (st *Strategy) KeyFigures() (string, []string) {
	f := &st.m.fig
	if st.cfg.PredictionWindow == 0 || st.spectator {
		return "stalled", []string{fmt.Sprintf("%.1f s of the last 10", float64(f.stalledTicks())/wire.TicksPerSecond)}
	}
	_, frames, ms := f.perSecond()
	return "resimulating", []string{fmt.Sprintf("%.1f frames/tick", frames), fmt.Sprintf("%.2f ms", ms)}
}
