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
	"text/tabwriter"

	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// BenchSections implements strategy.Benched.
func (st *Strategy) BenchSections() []strategy.BenchSection {
	return []strategy.BenchSection{{Name: "prediction (2004)", Run: benchSteps}, {Name: "other players", Run: benchOthers}}
}

func benchSteps(b strategy.Bench) error {
	w := tabwriter.NewWriter(b.Out(), 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "step\treplay\tkbit/s\tback kbit/s\tcorrections\tframes/correction\treplay µs/tick p95\treplay µs/tick max\tplayer err RMS cm\tplayer err max cm\tlate inputs\tframes twice\t")
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
		fmt.Fprintf(w, "%d %s\t%s\t%.1f\t%.1f\t%d (%.1f/s)\t%.1f\t%.0f\t%.0f\t%.2f\t%.1f\t%d\t%d\t\n", int(r.mode), r.mode, r.scope,
			s.Metrics().SentKbps, back/float64(max(ticks, 1)), ss.Corrections, float64(ss.Corrections)/math.Max(sec, 1e-9), perCorr,
			p95, worst, math.Sqrt(errSq/math.Max(float64(errN), 1)), errMax, ss.LateInputs, ss.SimulatedTwice)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(b.Out(), "Intercontinental link; the script's inputs go to the client (the right owns the player). kbit/s: the last second, server → client, headers included;")
	fmt.Fprintln(b.Out(), "back: client → server (its inputs and the acks). player err: the client's predicted player against the server's at the same frame, per second")
	fmt.Fprintln(b.Out(), "(steps 2+; step 1 draws the server's state). replay µs/tick: wall-clock time spent rewinding and replaying in one tick.")
	return nil
}
