package snapshot

import (
	"testing"

	"netcubes/strategy"
	"netcubes/strategy/strategytest"
)

// FuzzSnapshotReceive hands packets of any sequence and bytes to the right
// of both snapshot entries, at any frame of the session (across the 16-bit
// wrap), after 0-3 ticks of real packets, and under any level, render mode,
// send rate, prediction and at-rest flag (the mode byte): the right must reject them or
// take them, never panic, and keep showing the world at finite poses
// (strategy/strategytest runs it; each input costs a Warp and a few ticks, not a
// new world).
func FuzzSnapshotReceive(f *testing.F) {
	setup := func(s strategy.Strategy, mode uint8) {
		st := s.(*Strategy)
		st.SetLevel(MinLevel + Level(mode%uint8(MaxLevel)))
		st.SetRender(RenderMode(mode / uint8(MaxLevel) % NumRenderModes))
		st.SetRate(Rates[mode/(uint8(MaxLevel)*NumRenderModes)%uint8(len(Rates))])
		st.SetPlayerPrediction(mode&0x80 != 0)
		st.cfg.AtRestFlag = mode&0x40 == 0 // level 3 without the flag too
	}
	h := strategytest.New(f, strategytest.Config{
		Strategies: []strategy.Strategy{NewInterpolation(), NewCompression()},
		Setup:      setup,
		Direction:  strategytest.ToRightOnly,
	})
	h.Fuzz(f)
}
