package lockstep

import (
	"fmt"

	"netcubes/strategy"
	"netcubes/wire"
)

// The presenter's handles on lockstep: `[`/`]` walk the eight modes (each
// sets the link and the playout delay; the link keys still change the link
// afterwards), D steps the playout delay, two flags, the facts line, and
// the settings a right process takes from the left.

// delayStepMs is one press of D.
const delayStepMs = 50

func (st *Strategy) buildControls() []strategy.Control {
	return []strategy.Control{
		{Key: "D", Label: "playout delay", Help: fmt.Sprintf("playout delay +%d / −%d ms (lockstep)", delayStepMs, delayStepMs), Action: strategy.Adjust,
			Value: func() string { return fmt.Sprintf("%.0f ms", st.delayMs) },
			Do:    func(dir int) { st.SetDelayMs(min(max(st.delayMs+float64(dir*delayStepMs), 0), MaxDelayMs)) }}, // the key stops at the ends
	}
}

// Controls implements strategy.Strategy.
func (st *Strategy) Controls() []strategy.Control { return st.controls }

// Flags implements strategy.Flagged.
func (st *Strategy) Flags() []strategy.Flag {
	return []strategy.Flag{
		strategy.IntFlag("lockstep-mode", "lockstep network mode 1-8 (deterministic, non-deterministic, TCP-like 50/100/125 ms, UDP 25 %/50 % loss, UDP 2 s/25 % as the article's video)", 1, len(Modes), func(n int) { st.SetMode(n - 1) }),
		strategy.IntFlag("lockstep-delay", "lockstep playout delay in ms, 0-1000 (default: the mode's)", 0, MaxDelayMs, func(n int) { st.SetDelayMs(float64(n)) }),
	}
}

// SerializeSettings implements strategy.Shared: the mode, the delay and
// the frame the left's lockstep started at. A right process that learns a
// new start starts its world over there (both sides start from a freshly
// built world at that frame: see Reset).
func (st *Strategy) SerializeSettings(s wire.Stream) error {
	// The session's start: the relay's (a joined right's own start is
	// its transfer's, which its packets carry).
	mode, delay, start := int32(st.mode), int32(st.delayMs), uint32(max(st.relay.start, 0))
	if err := wire.SerializeInt(s, &mode, 0, int32(len(Modes)-1)); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &delay, 0, 1000); err != nil {
		return err
	}
	if err := wire.SerializeUint32(s, &start); err != nil {
		return err
	}
	if s.IsReading() {
		st.mode = int(mode)
		st.delayMs = float64(delay)
		changed := int(start) != st.shared
		st.shared = int(start)
		if st.fresh.Valid() && changed {
			st.restartRight(int(start))
			st.relay.reset(int(start), st.players)
		}
	}
	return nil
}

// String names a mode for the bench: "3 TCP-like 50 ms, 1 % loss".
func (m Mode) String() string { return m.Name }
