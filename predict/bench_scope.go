package predict

import (
	"fmt"
	"math"
	"slices"

	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// benchScope compares what the client predicts (the whole world, the cubes
// within a radius of its player, the player alone) on cost and corrections:
// one player on the bench's script, and four (three bots pushing cubes
// elsewhere, which the whole world predicts and the radius does not), on
// the server's machine and on another (where every scope mispredicts).
func benchScope(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "players"},
		strategy.Column{Head: "client's machine"},
		strategy.Column{Head: "predicts"},
		strategy.Column{Head: "cubes predicted"},
		strategy.Column{Head: "predict µs/tick", Unit: "µs"},
		strategy.Column{Head: "replay µs/tick", Unit: "µs"},
		strategy.Column{Head: "replay µs/tick p95", Unit: "µs"},
		strategy.Column{Head: "corrections/s", Unit: "1/s"},
		strategy.Column{Head: "frames/correction", Unit: "frames"},
		strategy.Column{Head: "player err RMS cm", Unit: "cm"},
	)
	pb, several := b.(strategy.PlayersBench)
	for _, players := range []int{1, 4} {
		if players > 1 && !several {
			continue
		}
		for _, m := range []diverge.Mode{diverge.Off, diverge.Machine} {
			for _, scope := range scopeOrder {
				r, err := scopeRun(b, pb, players, m, scope)
				if err != nil {
					return err
				}
				t.Add(strategy.Int(players), strategy.Text(m.String()), strategy.Text(scope.String()),
					strategy.Num(r.cubes, "%.0f"), strategy.Num(r.predictUs, "%.0f"), strategy.Num(r.replayUs, "%.0f"),
					strategy.Num(r.replayP95, "%.0f"), strategy.Num(r.corrPerSec, "%.1f"), strategy.Num(r.perCorr, "%.1f"),
					strategy.Num(r.errRMS, "%.2f"))
			}
		}
	}
	t.Note("Step 4 (replay + smoothing), intercontinental link. 1 player: the bench's script; 4 players: the katamari spiral for player 1, bots")
	t.Note("for 2-4 (pushing cubes elsewhere), players 2-4's clients thin. cubes predicted: the cubes the client's predicting world steps (mean;")
	t.Note("the whole world: all of them; within the radius: those within 4 m of the player). predict/replay µs/tick: wall-clock time of the")
	t.Note("predicted steps and of the rewinds and replays per tick (mean; p95 of replay), on the shared development machine: read them as ratios.")
	t.Charts = []strategy.Chart{{
		File: "prediction-scope", Title: "Networked Physics (2004): what the client predicts, its cost and its corrections",
		X: []string{"players", "client's machine"}, Series: "predicts", Bars: true,
		Panels: []strategy.Panel{
			{Y: "replay µs/tick", Label: "replay µs per tick"},
			{Y: "corrections/s", Label: "corrections"},
			{Y: "player err RMS cm", Label: "player error, RMS"},
		},
	}}
	return b.Print(t)
}

// scopeRow is one run's figures.
type scopeRow struct {
	cubes, predictUs, replayUs, replayP95, corrPerSec, perCorr, errRMS float64
}

// scopeRun plays one row: players players, the client's machine m, what
// it predicts scope.
func scopeRun(b strategy.Bench, pb strategy.PlayersBench, players int, m diverge.Mode, scope Scope) (scopeRow, error) {
	st := New(DefaultConfig())
	set := ModeSettings(ReplaySmooth)
	set.Scope, set.Divergence = scope, m
	st.SetSettings(set)
	var row scopeRow
	var ticks, errN int
	var cubesSum, errSq float64
	var tickNs []float64
	var lastNs int64
	tick := func(left *cubes.World) {
		ticks++
		ss := st.Stats()
		tickNs = append(tickNs, float64(ss.ReplayNs-lastNs))
		lastNs = ss.ReplayNs
		switch scope {
		case ScopeWorld:
			cubesSum += float64(left.NumCubes())
		case ScopeRadius:
			cubesSum += float64(ss.RadiusCubes + 1)
		default:
			cubesSum++
		}
		if ss.PredictionErrors > 0 {
			errSq += ss.PredictionErrorRMSCm * ss.PredictionErrorRMSCm
			errN++
		}
	}
	name := fmt.Sprintf("%d players, %s, %s", players, m, scope)
	if players == 1 {
		r, err := b.NewRun(link.PresetIntercontinental.Config(), st)
		if err != nil {
			return row, err
		}
		b.Play("prediction scope", name, r, func() { tick(r.Left()) })
	} else {
		r, err := pb.NewPlayersRun(strategy.PlayersConfig{Players: players, Links: []link.Config{link.PresetIntercontinental.Config()}, Thin: true}, st)
		if err != nil {
			return row, err
		}
		sp := cubes.DefaultSpiral()
		frames := sp.Length()
		if b.FrameLimit() > 0 {
			frames = min(frames, b.FrameLimit())
		}
		left := r.Left()
		pb.PlayPlayers("prediction scope", name, r, frames, func(f int, ins *cubes.Inputs) uint8 {
			ins[0] = sp.Input(f, left.Cube(cubes.Player).Position)
			return 1
		}, func() { tick(left) })
	}
	ss := st.Stats()
	n := float64(max(ticks, 1))
	slices.Sort(tickNs)
	if len(tickNs) > 0 {
		row.replayP95 = tickNs[len(tickNs)*95/100] / 1000
	}
	row.cubes = cubesSum / n
	row.predictUs = float64(ss.PredictNs) / 1000 / n
	row.replayUs = float64(ss.ReplayNs) / 1000 / n
	row.corrPerSec = float64(ss.Corrections) * wire.TicksPerSecond / n
	row.perCorr = float64(ss.ReplayedFrames) / math.Max(float64(ss.Corrections), 1)
	row.errRMS = math.Sqrt(errSq / math.Max(float64(errN), 1))
	return row, nil
}
