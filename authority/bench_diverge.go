package authority

import (
	"fmt"
	"math"

	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// benchDiverge: the players' machines on the host's machine, with float
// noise and on another solver (package diverge), two players pushing the
// same pile at step 5, on LAN and intercontinental links. Every machine
// simulates the whole world, so a machine that is not the host's gets
// every cube it does not own a little wrong between updates, and the
// updates pull them back.
func benchDiverge(b strategy.Bench) error {
	pb, ok := b.(strategy.PlayersBench)
	if !ok {
		_, err := fmt.Fprintln(b.Out(), "(the authority divergence section needs a bench of several players)")
		return err
	}
	frames := benchTicks
	if l := b.FrameLimit(); l > 0 {
		frames = max(min(l, frames), benchPress+60)
	}
	t := strategy.NewTable(
		strategy.Column{Head: "link"},
		strategy.Column{Head: "players' machines"},
		strategy.Column{Head: "corrections/s", Unit: "1/s"},
		strategy.Column{Head: "pops/s", Unit: "1/s"},
		strategy.Column{Head: "largest pop cm", Unit: "cm"},
		strategy.Column{Head: "err P1 cm", Unit: "cm"},
		strategy.Column{Head: "err P2 cm", Unit: "cm"},
	)
	for _, pr := range []link.Preset{link.PresetLAN, link.PresetIntercontinental} {
		for m := diverge.Off; m < diverge.NumModes; m++ {
			auth := New(DefaultConfig())
			x := auth.Settings()
			x.Step, x.Divergence = StepReturn, m
			auth.SetSettings(x)
			run, err := pb.NewPlayersRun(strategy.PlayersConfig{Players: 2, Links: []link.Config{pr.Config()}}, auth)
			if err != nil {
				return err
			}
			var e1, e2 float64
			n := 0
			pb.PlayPlayers("authority divergence", fmt.Sprintf("%s, %s", pr, m), run, frames,
				func(f int, ins *cubes.Inputs) uint8 { return benchInput(f, 2, true, ins) },
				func() {
					if run.Frame() > benchPress {
						e1 += sq(machineErr(auth.room.machines[0], run.Left()))
						e2 += sq(machineErr(auth.room.machines[1], run.Left()))
						n++
					}
				})
			var corr, pops uint64
			largest := 0.0
			for _, mc := range auth.room.machines[:2] {
				corr += mc.stats.Corrections
				pops += mc.stats.Pops
				largest = max(largest, mc.stats.pops.largest())
			}
			secs := float64(frames) / wire.TicksPerSecond
			t.Add(strategy.Text(pr.String()), strategy.Text(m.String()),
				strategy.Num(float64(corr)/secs, "%.1f"), strategy.Num(float64(pops)/secs, "%.1f"), strategy.Num(largest*100, "%.0f"),
				strategy.Num(100*math.Sqrt(e1/float64(max(n, 1))), "%.1f"), strategy.Num(100*math.Sqrt(e2/float64(max(n, 1))), "%.1f"))
		}
	}
	t.Note(fmt.Sprintf("Two players pushing the same pile at step 5 (return at rest), relay, %d ticks (%d to land). The players' machines: the host's", frames, benchPress))
	t.Note("(off), float noise (moving cubes' positions rounded to float32 after each step), another machine (one solver substep fewer); the host's")
	t.Note("world is exact. corrections: states heard about cubes a machine does not own that moved one more than 1 cm (both machines, per")
	t.Note("second); pops: more than 5 cm; largest pop of the last 5 s; err: each machine's drawn world against the host's, RMS over the cubes, cm.")
	t.Charts = []strategy.Chart{{
		File: "authority-diverge", Title: "Distributed authority with the players on other machines: the corrections grow",
		X: []string{"players' machines"}, Series: "link", Bars: true,
		Panels: []strategy.Panel{
			{Y: "corrections/s", Label: "corrections"},
			{Y: "err P1 cm", Label: "P1 screen vs host"},
		},
	}}
	return b.Print(t)
}
