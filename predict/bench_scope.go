package predict

import (
	"fmt"
	"math"

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
		strategy.Column{Head: "bodies predicted/tick"},
		strategy.Column{Head: "bodies replayed/tick"},
		strategy.Column{Head: "mirror bodies/tick"},
		strategy.Column{Head: "replay µs/tick", Unit: "µs"},
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
					strategy.Num(r.cubes, "%.0f"), strategy.Num(r.predicted, "%.0f"), strategy.Num(r.replayed, "%.0f"),
					strategy.Num(r.mirror, "%.0f"), strategy.Num(r.replayUs, "%.0f"), strategy.Num(r.corrPerSec, "%.1f"), strategy.Num(r.perCorr, "%.1f"),
					strategy.Num(r.errRMS, "%.2f"))
			}
		}
	}
	t.Note("Step 4 (replay + smoothing), intercontinental link. 1 player: the bench's script; 4 players: the katamari spiral for player 1, bots")
	t.Note("for 2-4 (pushing cubes elsewhere), players 2-4's clients thin. cubes predicted: the cubes the client's predicting world steps (mean;")
	t.Note("the whole world: all of them; within the radius: those within 4 m of the player). bodies/tick: the bodies the solver moved (awake) per")
	t.Note("tick in the predicted steps, in the replays and in the mirror of the server's world the radius and player scopes step besides: the")
	t.Note("work, counted. replay µs/tick: wall-clock time of the rewinds and replays per tick (mean), on a shared machine: read it as a ratio.")
	t.Charts = []strategy.Chart{{
		File: "prediction-scope", Title: "Networked Physics (2004): what the client predicts, its cost and its corrections",
		X: []string{"players", "client's machine"}, Series: "predicts", Bars: true,
		Panels: []strategy.Panel{
			{Y: "bodies replayed/tick", Label: "bodies replayed per tick"},
			{Y: "corrections/s", Label: "corrections"},
			{Y: "player err RMS cm", Label: "player error, RMS"},
		},
	}}
	return b.Print(t)
}

// scopeRow is one run's figures.
type scopeRow struct {
	cubes, predicted, replayed, mirror, replayUs, corrPerSec, perCorr, errRMS float64
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
	tick := func(left *cubes.World) {
		ticks++
		ss := st.Stats()
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
	row.cubes = cubesSum / n
	row.predicted = float64(ss.PredictBodies) / n
	row.replayed = float64(ss.ReplayBodies) / n
	row.mirror = float64(ss.MirrorBodies) / n
	row.replayUs = float64(ss.ReplayNs) / 1000 / n
	row.corrPerSec = float64(ss.Corrections) * wire.TicksPerSecond / n
	row.perCorr = float64(ss.ReplayedFrames) / math.Max(float64(ss.Corrections), 1)
	row.errRMS = math.Sqrt(errSq / math.Max(float64(errN), 1))
	return row, nil
}
