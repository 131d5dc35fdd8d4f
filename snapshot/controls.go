package snapshot

import (
	"fmt"
	"math"
	"netcubes/adapt"

	"netcubes/strategy"
	"netcubes/viewmodel"
)

// The presenter's handles on the snapshot strategies: four keys, the
// sub-mode keys, four flags and the HUD's facts line. Both instances (the
// interpolation and the compression entries) have the same keys, so the
// help lists them once under "Snapshots (1, 2)".

func (st *Strategy) buildControls() []strategy.Control {
	return []strategy.Control{
		{Key: "R", Label: "send rate", Help: "send rate: 60 / 30 / 20 / 10 snapshots per second", Action: strategy.Cycle,
			Value: func() string { return st.cfg.Rate.String() },
			Do: func(dir int) {
				if dir < 0 {
					st.SetRate(st.cfg.Rate.Prev())
				} else {
					st.SetRate(st.cfg.Rate.Next())
				}
			}},
		{Key: "I", Label: "render mode", Help: "render mode: latest / linear / hermite / extrapolate / hermite +0.2 s", Action: strategy.Cycle,
			Value: func() string { return st.cfg.Render.String() },
			Do:    func(dir int) { st.SetRender(st.cfg.Render.Step(dir)) }},
		{Key: "D", Label: "interpolation delay", Help: "interpolation delay +1 / −1 tick", Action: strategy.Adjust,
			Value: func() string { return st.cfg.DelayString() },
			Do:    func(dir int) { st.NudgeDelay(dir) }},
		{Key: "F", Label: "player prediction", Help: "player prediction of delta baselines on / off (levels 9-14)",
			Action: strategy.Toggle,
			Value: func() string {
				v := strategy.OnOff(st.cfg.PlayerPrediction)
				if st.cfg.Level < DeltaPosition {
					// The setting changes, but nothing does until a level
					// that sends position deltas.
					v += fmt.Sprintf(" (acts at levels 9-14 only; now %s)", st.cfg.Level)
				}
				return v
			},
			Do: func(int) { st.SetPlayerPrediction(!st.cfg.PlayerPrediction) }},
		st.congestionControl(),
		strategy.ToggleControl(adapt.PlayoutKey, "adaptive delay", "interpolation delay sized from measured jitter / fixed", &st.cfg.AdaptiveDelay),
	}
}

// Controls implements strategy.Strategy.
func (st *Strategy) Controls() []strategy.Control { return st.controls }

// SubMode implements strategy.Strategy: the interpolation entry steps the
// render mode, the compression entry the level, or either its original
// demo's modes once OriginalKey switched to them.
func (st *Strategy) SubMode(dir int) string {
	if st.orig.Shown > 0 {
		return st.stepOriginal(dir)
	}
	if st.sub == subLevel {
		if dir < 0 {
			st.SetLevel(st.cfg.Level.Prev())
		} else {
			st.SetLevel(st.cfg.Level.Next())
		}
		return st.LevelExplain()
	}
	st.SetRender(st.cfg.Render.Step(dir))
	return "render: " + st.cfg.Render.String()
}

// renderFlagNames are the -render values, in RenderMode order.
var renderFlagNames = []string{"latest", "linear", "hermite", "extrapolate", "hermite-ahead"}

// rateFlagNames are the -rate values, in Rates order.
var rateFlagNames = []string{"60", "30", "20", "10"}

// Flags implements strategy.Flagged.
func (st *Strategy) Flags() []strategy.Flag {
	out := []strategy.Flag{
		strategy.IntFlag("level", "snapshot compression level 1-14 (default: 1 for interpolation, 11 for compression; 12-14 range-coded, beyond the article)",
			int(MinLevel), int(MaxLevel), func(n int) { st.SetLevel(Level(n)) }),
		strategy.ChoiceFlag("rate", "snapshots per second: 60, 30, 20 or 10", rateFlagNames,
			func(i int) { st.SetRate(Rates[i]) }),
		strategy.ChoiceFlag("render", "snapshot render mode: latest, linear, hermite, extrapolate or hermite-ahead (the original's 0.2 s)", renderFlagNames,
			func(i int) { st.SetRender(RenderMode(i)) }),
		strategy.ChoiceFlag("predict", "player prediction of delta baselines (levels 9-14): on or off", []string{"on", "off"},
			func(i int) { st.SetPlayerPrediction(i == 0) }),
		st.orig.Flag(st.SetOriginal),
		st.congestionFlag(),
	}
	if st.sub == subLevel {
		// The delta demo's modes follow the compression demo's six on
		// the compression entry's list; -original is shared with the
		// entries whose lists hold six, so they have a flag of their own.
		out = append(out, strategy.IntFlag("delta-mode", "snapshot compression: start in the original delta demo's mode N, 1-5 (not changed, changed index, relative index, relative position, relative orientation; live: F2, then [ ] past the compression demo's six)",
			1, len(DeltaModes), func(n int) { st.SetOriginal(len(CompressionModes) + n) }))
	}
	return out
}

// Facts implements strategy.Facts: what a packet holds, so the presenter
// can point at the number the article talks about (bits per changed cube)
// while it changes. Averages over the last second.
func (st *Strategy) Facts() string {
	ss := st.Stats()
	if !ss.HasLast {
		return "no snapshot sent yet"
	}
	sec := ss.Second
	out := st.adapt.facts(st)
	cubes := int(math.Round(sec.ChangedPerPacket()))
	if st.Level().IsDelta() {
		out += fmt.Sprintf("%s/packet × %.1f bits · baseline %s old",
			viewmodel.Plural(cubes, "changed cube"), sec.BitsPerChanged(), viewmodel.Plural(int(math.Round(sec.MeanBaselineAge())), "tick"))
	} else {
		out += fmt.Sprintf("%s/packet × %.0f bits", viewmodel.Plural(cubes, "cube"), sec.BitsPerChanged())
	}
	if ss.StarvedTicks > 0 {
		out += " · starved " + viewmodel.Plural(ss.StarvedTicks, "tick")
	}
	return out
}
