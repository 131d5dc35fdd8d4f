package predict

// The prediction section of the bench: one row per step of the article's
// build-up (and both replay scopes at the katamari step), on the
// intercontinental link, with the bench's script given to the client (the
// right owns the player). Times are wall-clock measurements of the replay
// work, as the HUD shows them: read them as ratios on a shared machine.

import (
	"fmt"
	"math"
	"slices"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// BenchSections implements strategy.Benched.
func (st *Strategy) BenchSections() []strategy.BenchSection {
	return []strategy.BenchSection{{Name: "prediction (2004)", Run: benchSteps}, {Name: "other players", Run: benchOthers},
		{Name: "prediction (2004): the client on another machine", Run: benchDiverge},
		{Name: "prediction (2004): what the client predicts", Run: benchScope},
		{Name: "prediction (2004): the article's own server", Run: benchStream}}
}

// stepsTable is the prediction table's columns.
func stepsTable() *strategy.Table {
	return strategy.NewTable(
		strategy.Column{Head: "step"},
		strategy.Column{Head: "replay"},
		strategy.Column{Head: "kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "back kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "corrections"},
		strategy.Column{Head: "corrections/s", Unit: "1/s", Join: true},
		strategy.Column{Head: "frames/correction", Unit: "frames"},
		strategy.Column{Head: "replay µs/tick p95", Unit: "µs"},
		strategy.Column{Head: "replay µs/tick max", Unit: "µs"},
		strategy.Column{Head: "player err RMS cm", Unit: "cm"},
		strategy.Column{Head: "player err max cm", Unit: "cm"},
		strategy.Column{Head: "late inputs"},
		strategy.Column{Head: "frames twice"},
		strategy.Column{Head: "input→motion ms", Unit: "ms"},
		strategy.Column{Head: "at RTT 17 ms", Unit: "ms"},
	)
}

// pressOnPerfectLink measures one key press's input-to-motion delay under
// set on a perfect link (a round trip of 17 ms: a tick each way and the
// ack's tick); NaN if the press never showed.
func pressOnPerfectLink(b strategy.Bench, set Settings) (float64, error) {
	st := New(DefaultConfig())
	r, err := b.NewRun(link.Config{}, st)
	if err != nil {
		return 0, err
	}
	st.SetSettings(set)
	return pressDelay(r, st), nil
}

// pressDelay idles the player of r (whose strategy is st) for a second,
// then holds Up until the drawn player moves with it, and returns the
// delay st measured (ms), or NaN after 3 s without.
func pressDelay(r interface{ Step(cubes.Input) }, st *Strategy) float64 {
	const press, most = wire.TicksPerSecond, 3 * wire.TicksPerSecond
	for f := 0; f < most; f++ {
		r.Step(cubes.Input{Up: f >= press})
		if ss := st.Stats(); ss.HasInputDelay {
			return ss.InputDelayMs
		}
	}
	return math.NaN()
}

// msCell is a delay in ms, or "none" when nothing was measured.
func msCell(ms float64, measured bool) strategy.Cell {
	if !measured || math.IsNaN(ms) {
		return strategy.Text("none")
	}
	return strategy.Num(ms, "%.0f")
}

func benchSteps(b strategy.Bench) error {
	t := stepsTable()
	type row struct {
		mode  Mode
		scope Scope
	}
	rows := []row{{NoPrediction, ScopeWorld}, {PredictOnly, ScopeWorld}, {Replay, ScopeWorld}, {ReplaySmooth, ScopeWorld},
		{Katamari, ScopeWorld}, {Katamari, ScopePlayer}}
	for _, r := range rows {
		st := New(DefaultConfig())
		s, err := b.NewRun(link.PresetIntercontinental.Config(), st)
		if err != nil {
			return err
		}
		set := ModeSettings(r.mode)
		set.Scope = r.scope
		st.SetSettings(set)
		var back, errSq, errMax float64
		var ticks, errN int
		var tickNs []float64
		lastNs := int64(0)
		b.Play("prediction", fmt.Sprintf("step %d %s", int(r.mode), r.scope), s, func() {
			ticks++
			back += s.Metrics().AckKbps
			ss := st.Stats()
			tickNs = append(tickNs, float64(ss.ReplayNs-lastNs))
			lastNs = ss.ReplayNs
			if ss.PredictionErrorRMSCm > 0 || ss.PredictionErrorMaxCm > 0 {
				errSq += ss.PredictionErrorRMSCm * ss.PredictionErrorRMSCm
				errN++
				errMax = math.Max(errMax, ss.PredictionErrorMaxCm)
			}
		})
		ss := st.Stats()
		slices.Sort(tickNs)
		p95, worst := 0.0, 0.0
		if len(tickNs) > 0 {
			p95, worst = tickNs[len(tickNs)*95/100]/1000, tickNs[len(tickNs)-1]/1000
		}
		perCorr := 0.0
		if ss.Corrections > 0 {
			perCorr = float64(ss.ReplayedFrames) / float64(ss.Corrections)
		}
		sec := float64(ticks) / wire.TicksPerSecond
		perfect, err := pressOnPerfectLink(b, set)
		if err != nil {
			return err
		}
		t.Add(strategy.Textf("%d %s", int(r.mode), r.mode), strategy.Textf("%s", r.scope),
			strategy.Num(s.Metrics().SentKbps, "%.1f"), strategy.Num(back/float64(max(ticks, 1)), "%.1f"),
			strategy.Uint(ss.Corrections), strategy.Num(float64(ss.Corrections)/math.Max(sec, 1e-9), " (%.1f/s)"), strategy.Num(perCorr, "%.1f"),
			strategy.Num(p95, "%.0f"), strategy.Num(worst, "%.0f"), strategy.Num(math.Sqrt(errSq/math.Max(float64(errN), 1)), "%.2f"), strategy.Num(errMax, "%.1f"),
			strategy.Uint(ss.LateInputs), strategy.Uint(ss.SimulatedTwice),
			msCell(ss.InputDelaySumMs/math.Max(float64(ss.InputPresses), 1), ss.InputPresses > 0), msCell(perfect, true))
	}
	t.Note("Intercontinental link; the script's inputs go to the client (the right owns the player). kbit/s: the last second, server → client, headers included;")
	t.Note("back: client → server (its inputs and the acks). player err: the client's predicted player against the server's at the same frame, per second")
	t.Note("(steps 2+; step 1 draws the server's state). replay µs/tick: wall-clock time spent rewinding and replaying in one tick.")
	t.Note("input→motion: from a key press on the client to the first drawn frame that moves with it, mean over the script's presses; at RTT 17 ms:")
	t.Note("one press on a perfect link (one tick each way), the figure step 1 exists to show: without prediction the player answers a round trip late.")
	t.Charts = []strategy.Chart{{
		File: "prediction", Title: "Networked Physics (2004): input → motion, corrections and the predicted player's error, by step",
		X: []string{"step", "replay"}, Bars: true,
		Panels: []strategy.Panel{
			{Y: "input→motion ms", Label: "input → motion"},
			{Y: "corrections/s", Label: "corrections"},
			{Y: "player err RMS cm", Label: "player error, RMS", Log: true},
		},
	}}
	t.Tradeoff = &strategy.Tradeoff{Name: "2004 prediction, by step (error: the player only)", Kbps: "kbit/s", ErrCm: "player err RMS cm",
		Label: []string{"step"}, Preset: link.PresetIntercontinental.String()}
	return b.Print(t)
}
