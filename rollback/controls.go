package rollback

import (
	"fmt"

	"netcubes/strategy"
	"netcubes/wire"
)

// The presenter's handles on rollback: `[`/`]` walk the build-up, D steps
// the input delay, O arms the nudge; the flags;
// the settings a right process takes from the left.

func (st *Strategy) buildControls() []strategy.Control {
	return []strategy.Control{
		{Key: "D", Label: "input delay", Help: fmt.Sprintf("input delay +1 / −1 frame, 0-%d (rollback)", MaxInputDelay), Action: strategy.Adjust,
			Value: func() string { return fmt.Sprintf("%d frames", st.cfg.InputDelay) },
			Do: func(dir int) {
				if Steps[st.step].Tuned {
					st.SetStep(st.step - 1) // a delay set by hand is no longer the tuned one
				}
				st.SetInputDelay(st.cfg.InputDelay + dir)
			}},
		strategy.ToggleControl("O", "nudge", "nudge the player 1 nm once (the sync test finds it)", &st.nudge),
	}
}

// Controls implements strategy.Strategy.
func (st *Strategy) Controls() []strategy.Control { return st.controls }

// Flags implements strategy.Flagged.
func (st *Strategy) Flags() []strategy.Flag {
	return []strategy.Flag{
		strategy.IntFlag("rollback-step", "rollback build-up step 1-5 (lockstep, delay 0, delay 2, delay tuned from the RTT, sync test)", 1, len(Steps), func(n int) { st.SetStep(n - 1) }),
		strategy.IntFlag("rollback-delay", fmt.Sprintf("rollback input delay in frames, 0-%d (default: the step's)", MaxInputDelay), 0, MaxInputDelay, func(n int) { st.SetInputDelay(n) }),
		strategy.ChoiceFlag("rollback-timesync", "rollback time sync: on (default) or off", []string{"off", "on"}, func(i int) { st.cfg.TimeSync = i == 1 }),
		strategy.IntFlag("rollback-window", fmt.Sprintf("rollback prediction window in frames, 0-%d (0: wait as lockstep; default: the step's)", MaxPredictionWindow), 0, MaxPredictionWindow, func(n int) { st.SetWindow(n) }),
	}
}

// SerializeSettings implements strategy.Shared: the step, the delay, the
// window, the nudge and the frame the left started at (a right process
// that learns a new start starts its machine over there).
func (st *Strategy) SerializeSettings(s wire.Stream) error {
	step, delay, window := int32(st.step), int32(st.cfg.InputDelay), int32(st.cfg.PredictionWindow)
	// The session's start: the relay's (a joined machine's own start is
	// its transfer's, which its packets carry).
	start := uint32(max(st.relay.start, 0))
	nudge, sync := st.nudge, st.cfg.TimeSync
	if err := wire.SerializeInt(s, &step, 0, int32(len(Steps)-1)); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &delay, 0, MaxInputDelay); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &window, 0, MaxPredictionWindow); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &nudge); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &sync); err != nil {
		return err
	}
	if err := wire.SerializeUint32(s, &start); err != nil {
		return err
	}
	if s.IsReading() {
		st.step, st.cfg.InputDelay, st.cfg.PredictionWindow, st.nudge = int(step), int(delay), int(window), nudge
		st.cfg.TimeSync = sync
		changed := int(start) != st.shared
		st.shared = int(start)
		if st.fresh.Valid() && changed {
			st.relay.reset(int(start), st.players)
			st.restartRight(int(start))
		}
	}
	return nil
}
