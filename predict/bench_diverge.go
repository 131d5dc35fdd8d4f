package predict

import (
	"fmt"
	"math"

	"netcubes/diverge"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// benchDiverge: the client on the server's machine, with float noise and on
// another solver (package diverge), at step 4 (replay + smoothing) with
// both replay scopes, on the intercontinental link, the bench's script.
// On the server's machine the whole-world client never mispredicts; on
// another machine the article's corrections, rewinds and replays appear.
func benchDiverge(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "replay"},
		strategy.Column{Head: "client's machine"},
		strategy.Column{Head: "corrections"},
		strategy.Column{Head: "corrections/s", Unit: "1/s", Join: true},
		strategy.Column{Head: "frames replayed"},
		strategy.Column{Head: "player err RMS cm", Unit: "cm"},
		strategy.Column{Head: "player err max cm", Unit: "cm"},
	)
	for _, scope := range []Scope{ScopeWorld, ScopePlayer} {
		for m := diverge.Off; m < diverge.NumModes; m++ {
			st := New(DefaultConfig())
			s, err := b.NewRun(link.PresetIntercontinental.Config(), st)
			if err != nil {
				return err
			}
			set := ModeSettings(ReplaySmooth)
			set.Scope, set.Divergence = scope, m
			st.SetSettings(set)
			var errSq, errMax float64
			var ticks, errN int
			b.Play("prediction divergence", fmt.Sprintf("%s %s", scope, m), s, func() {
				ticks++
				ss := st.Stats()
				if ss.PredictionErrorRMSCm > 0 || ss.PredictionErrorMaxCm > 0 {
					errSq += ss.PredictionErrorRMSCm * ss.PredictionErrorRMSCm
					errN++
					errMax = math.Max(errMax, ss.PredictionErrorMaxCm)
				}
			})
			ss := st.Stats()
			sec := float64(ticks) / wire.TicksPerSecond
			t.Add(strategy.Textf("%s", scope), strategy.Text(m.String()),
				strategy.Uint(ss.Corrections), strategy.Num(float64(ss.Corrections)/math.Max(sec, 1e-9), " (%.1f/s)"),
				strategy.Int(ss.ReplayedFrames),
				strategy.Num(math.Sqrt(errSq/math.Max(float64(errN), 1)), "%.2f"), strategy.Num(errMax, "%.1f"))
		}
	}
	t.Note("Step 4 (replay + smoothing), intercontinental link, the script's inputs on the client. The client's machine: the server's (off), float")
	t.Note("noise (moving cubes' positions rounded to float32 after each step, about 1 µm), another machine (one solver substep fewer).")
	t.Note("A correction: the server's player differs from the prediction by more than 2 cm or 3°, and the client rewinds and replays.")
	t.Charts = []strategy.Chart{{
		File: "prediction-diverge", Title: "Networked Physics (2004) with the client on another machine: the corrections appear",
		X: []string{"client's machine"}, Series: "replay", Bars: true,
		Panels: []strategy.Panel{
			{Y: "corrections/s", Label: "corrections"},
			{Y: "player err RMS cm", Label: "player error, RMS"},
		},
	}}
	return b.Print(t)
}
