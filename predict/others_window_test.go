package predict

import (
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/link"
)

// The other player's figures are averaged over a second; after I changes
// how the other player is drawn they start over, and the facts line says
// "measuring…" until half a second of the new mode is in: from 2004
// smoothing (drawn ahead of the server) to "as it arrives" (drawn in the
// past), the line used to read "44 ms ahead" for seconds after the key.
func TestOthersWindowRestartsOnModeChange(t *testing.T) {
	s, st := twoPlayers(t, link.Config{LatencyMs: 50}, Others2004, cubes.BotWander)
	for range 180 {
		s.Step(cubes.Input{Right: true})
	}
	if o := st.Stats().Others; o.PastMs >= 0 || o.Measuring {
		t.Fatalf("2004 pull: drawn %.0f ms in the past (measuring %v), want ahead of the server", o.PastMs, o.Measuring)
	}
	set := st.Settings()
	set.Others = OthersArrived
	st.SetSettings(set)
	for range 10 {
		s.Step(cubes.Input{Right: true})
	}
	o := st.Stats().Others
	if !o.Measuring || !strings.Contains(st.Facts(), "measuring") {
		t.Errorf("10 ticks after the switch: measuring %v, facts %q; want the new mode's figures said to be measuring", o.Measuring, st.Facts())
	}
	if o.PastMs <= 0 {
		t.Errorf("10 ticks as it arrives: drawn %.0f ms in the past: the window still holds the 2004 pull's lead", o.PastMs)
	}
	for range MeasureTicks {
		s.Step(cubes.Input{Right: true})
	}
	o = st.Stats().Others
	if o.Measuring || strings.Contains(st.Facts(), "measuring") || o.PastMs <= 0 {
		t.Errorf("after %d ticks: measuring %v, past %.0f ms, facts %q", 10+MeasureTicks, o.Measuring, o.PastMs, st.Facts())
	}
}

// The prediction's own window (error, corrections per second) starts over
// when the step changes: a step's figures are its own.
func TestPredictionWindowRestartsOnStep(t *testing.T) {
	s, st := twoPlayers(t, link.Config{LatencyMs: 50}, OthersInterpolate, cubes.BotWander)
	st.SetMode(PredictOnly)
	for range 180 {
		s.Step(cubes.Input{Right: true})
	}
	before := st.Stats().PredictionErrors
	st.SetMode(Replay)
	s.Step(cubes.Input{Right: true})
	if got := st.Stats(); !got.Measuring || got.PredictionErrors >= before {
		t.Errorf("a tick after the step changed: measuring %v, %d comparisons in the window (before: %d)", got.Measuring, got.PredictionErrors, before)
	}
}
