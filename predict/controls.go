package predict

import (
	"fmt"
	"netcubes/diverge"
	"strings"

	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// The presenter's handles on the 2004 strategy: the sub-mode keys walk the
// article's build-up, S cycles the smoothing, W the replay scope; three
// flags; the HUD's facts line; the settings that cross to a right process.

func (st *Strategy) buildControls() []strategy.Control {
	return append([]strategy.Control{
		{Key: "S", Label: "smoothing", Help: "smoothing: none / 2004 / adaptive", Action: strategy.Cycle,
			Value: func() string { return st.set.Smoothing.String() },
			Do: func(dir int) {
				s := st.set
				n := int(numSmoothings)
				s.Smoothing = Smoothing((int(s.Smoothing) + dir + n) % n)
				st.SetSettings(s)
			}},
		{Key: "W", Label: "replay scope", Help: "predict: whole world / within a radius / player only", Action: strategy.Cycle,
			Value: func() string { return st.scopeText() },
			Do: func(dir int) {
				s := st.set
				s.Scope = s.Scope.next(dir)
				st.SetSettings(s)
			}},
		st.divergeControl(),
		{Key: SpeedKey, Label: "speed hack", Help: "step 6: honest / speed hack / hack + clamp / clamp", Action: strategy.Cycle,
			Value: func() string {
				if !st.set.Mode.streams() {
					return st.set.Speed.String() + " (acts in step 6: the fixed tick ignores the client's clock)"
				}
				return st.set.Speed.String()
			},
			Do: func(dir int) {
				s := st.set
				n := int(numSpeeds)
				s.Speed = Speed(((int(s.Speed)+dir)%n + n) % n)
				st.SetSettings(s)
			}},
	}, st.othersControls()...)
}

// Controls implements strategy.Strategy.
func (st *Strategy) Controls() []strategy.Control { return st.controls }

// SubMode implements strategy.Strategy: the steps of the article.
func (st *Strategy) SubMode(dir int) string {
	m := int(st.set.Mode) + dir
	if m < 1 {
		m = NumModes
	} else if m > NumModes {
		m = 1
	}
	st.serverChanged = Mode(m).streams() != st.set.Mode.streams()
	st.SetMode(Mode(m))
	// The step's name is the note; its explanation is the top bar's line.
	return fmt.Sprintf("step %d: %s", m, Mode(m))
}

// scopeNames are -predict-scope's values, in Scope order.
var scopeNames = []string{"world", "player", "radius"}

// scopeText is the scope as the HUD says it: the radius with its reach.
func (st *Strategy) scopeText() string {
	if st.set.Mode.streams() {
		// Step 6's client is the article's, whatever W says (client.go).
		return "player only (the article's client)"
	}
	if st.set.Scope == ScopeRadius {
		return fmt.Sprintf("within %g m", st.cfg.RadiusM)
	}
	return st.set.Scope.String()
}

// Flags implements strategy.Flagged.
func (st *Strategy) Flags() []strategy.Flag {
	return []strategy.Flag{
		strategy.IntFlag("predict-step", "prediction (2004) step 1-6 (default 4: replay + smoothing; 6: the article's own server)", 1, NumModes,
			func(n int) { st.SetMode(Mode(n)) }),
		strategy.ChoiceFlag("predict-smoothing", "prediction (2004) smoothing: none, 2004 or adaptive", smoothingNames,
			func(i int) { s := st.set; s.Smoothing = Smoothing(i); st.SetSettings(s) }),
		strategy.ChoiceFlag("predict-scope", "prediction (2004) what the client predicts and replays: world, radius (the cubes within 4 m of the player) or player", scopeNames,
			func(i int) { s := st.set; s.Scope = Scope(i); st.SetSettings(s) }),
		strategy.ChoiceFlag("predict-others", "prediction (2004) other players: arrived, interpolate, extrapolate, predict or 2004", othersFlagNames,
			func(i int) { s := st.set; s.Others = OthersMode(i + 1); st.SetSettings(s) }),
		strategy.IntFlag("predict-delay", "prediction (2004) other players' interpolation delay, ticks (default 5: 83 ms)", 0, maxDelayTicks,
			func(n int) { s := st.set; s.DelayNudge = n - st.cfg.Others.InterpDelayTicks; st.SetSettings(s) }),
		strategy.ChoiceFlag("predict-compensation", "prediction (2004) lag compensation of tags: on or off", []string{"off", "on"},
			func(i int) { s := st.set; s.Compensate = i == 1; st.SetSettings(s) }),
		strategy.ChoiceFlag("predict-autotag", "prediction (2004) clients that tag on their own: off, bots or all", autoTagNames,
			func(i int) { s := st.set; s.AutoTag = AutoTag(i); st.SetSettings(s) }),
		st.divergeFlag(),
		strategy.ChoiceFlag("predict-speed", "prediction (2004) step 6, the article's server: honest, hack (your client's clock +25 %), hack+clamp or clamp (the server clamps each player's time)", speedFlagNames,
			func(i int) { s := st.set; s.Speed = Speed(i); st.SetSettings(s) }),
	}
}

// SpeedKey cycles the speed hack and the clamp (C, as authority's cheat).
const SpeedKey = "C"

// Facts implements strategy.Facts: the figures the article's steps are
// about, the step's lesson first (the HUD wraps between the parts): the
// prediction's error from step 2 on, the corrections from step 3 on, the
// input's delay at step 1.
func (st *Strategy) Facts() string {
	s := &st.stats
	var parts []string
	if j := st.joinFacts(st.join.now); j != "" {
		parts = append(parts, j)
		if st.join.clientRuns && st.join.waiting() {
			return j // nothing else is measured yet
		}
	}
	if o := st.othersFacts(); o != "" {
		parts = append(parts, o) // with other players, how they are drawn is the lesson
	}
	switch {
	case s.Measuring && st.set.Mode.predicts():
		parts = append(parts, "error, corrections: measuring…")
	case st.set.Mode.predicts():
		parts = append(parts, fmt.Sprintf("error %.1f cm at the same frame", s.PredictionErrorRMSCm))
	}
	if st.set.Mode.corrects() && !s.Measuring {
		parts = append(parts, fmt.Sprintf("%.0f corr/s × %.1f frames", s.CorrectionsPerSec, s.FramesPerCorrection),
			fmt.Sprintf("replay %.0f µs/tick", s.ReplayUsPerTick))
	}
	if st.cli.radius {
		parts = append(parts, viewmodel.Plural(s.RadiusCubes, "cube")+fmt.Sprintf(" predicted within %g m", st.cfg.RadiusM))
	}
	if s.HasInputDelay {
		parts = append(parts, fmt.Sprintf("input→motion %.0f ms", s.InputDelayMs))
	} else {
		parts = append(parts, "input→motion: press a key")
	}
	if st.set.Mode.streams() {
		parts = append(parts, st.streamFacts()...)
	} else if s.HasEarly {
		// The server's report: how early the inputs reach it (late while
		// the client's clock has not yet moved ahead).
		if s.Reported >= 0 {
			parts = append(parts, "inputs "+viewmodel.Plural(s.Reported, "tick")+" early")
		} else {
			parts = append(parts, "inputs "+viewmodel.Plural(-s.Reported, "tick")+" late")
		}
	}
	if s.LateInputs > 0 {
		parts = append(parts, fmt.Sprintf("%d late", s.LateInputs))
	}
	if st.set.Mode.corrects() {
		parts = append(parts, viewmodel.Plural(s.MoveDepth, "move")+" kept")
	}
	return strings.Join(parts, " · ")
}

// SerializeSettings implements strategy.Shared: the mode, smoothing and
// scope reach a right process.
func (st *Strategy) SerializeSettings(s wire.Stream) error {
	m, sm, sc := int32(st.set.Mode), int32(st.set.Smoothing), int32(st.set.Scope)
	o := st.set.OthersSettings
	om, nudge, at, comp := int32(o.Others), int32(o.DelayNudge), int32(o.AutoTag), o.Compensate
	s.SetCategory(wire.CategoryOther)
	if err := wire.SerializeInt(s, &m, 1, int32(NumModes)); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &sm, 0, int32(numSmoothings)-1); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &sc, 0, int32(numScopes)-1); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &om, 1, int32(NumOthersModes)); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &nudge, -MaxDelayNudge, MaxDelayNudge); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &at, 0, int32(numAutoTags)-1); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &comp); err != nil {
		return err
	}
	div := int32(st.set.Divergence)
	if err := wire.SerializeInt(s, &div, 0, int32(diverge.NumModes)-1); err != nil {
		return err
	}
	speed := int32(st.set.Speed)
	if err := wire.SerializeInt(s, &speed, 0, int32(numSpeeds)-1); err != nil {
		return err
	}
	if s.IsReading() {
		st.SetSettings(Settings{Mode: Mode(m), Smoothing: Smoothing(sm), Scope: Scope(sc),
			OthersSettings: OthersSettings{Others: OthersMode(om), DelayNudge: int(nudge), AutoTag: AutoTag(at), Compensate: comp},
			Divergence:     diverge.Mode(div), Speed: Speed(speed)})
	}
	return nil
}
