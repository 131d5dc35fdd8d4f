package lockstep

import (
	"fmt"

	"netcubes/strategy"
)

// What lockstep tells the stage beyond its figures: a mode switch starts
// both sides over (a desync of the non-deterministic mode must not stay on
// screen under the next mode's "the error is exactly 0"), a desync is an
// alarm in red, and a stall or a desync is an event for the caption.

// RestartsAfter implements strategy.Restarter: every mode step starts over.
func (st *Strategy) RestartsAfter(int) bool { return true }

// Restart implements strategy.Restarter: both sides from one freshly built
// world at this frame, exactly as a switch to lockstep (Reset).
func (st *Strategy) Restart(ctx strategy.Context) { st.Reset(ctx) }

// Alarm implements strategy.Alarm: the first desynced frame.
func (st *Strategy) Alarm() string {
	if st.desync < 0 {
		return ""
	}
	return fmt.Sprintf("DESYNC at frame %d", st.desync)
}

// stallCaptionTicks is how long the right must have been frozen before a
// stall is worth a caption: 0.1 s, a freeze the hall sees (a tick or two
// of waiting on a jittery link is not).
const stallCaptionTicks = 6

// Event implements strategy.Eventful: a desync once, on the tick it is
// found; a stall on every tick it lasts, naming what the right waits for
// (with several players, the player whose input the server lacks).
func (st *Strategy) Event() (strategy.Event, bool) {
	if st.desync >= 0 && !st.desyncSaid {
		st.desyncSaid = true
		return strategy.Event{Kind: strategy.EventDesync,
			Text: fmt.Sprintf("DESYNC at frame %d: the worlds differ from here", st.desync)}, true
	}
	if st.stallRun < stallCaptionTicks {
		return strategy.Event{}, false
	}
	e := strategy.Event{Kind: strategy.EventStall, Size: float64(st.stallRun)}
	if st.stuck > 0 {
		e.Text = fmt.Sprintf("right frozen: waiting for player %d", st.stuck)
	} else {
		e.Text = fmt.Sprintf("right frozen: waiting for input %d", st.next)
	}
	return e, true
}
