package rollback

// The bench's "rollback" section: two and four players on four links, each
// in the build-up's first four steps (lockstep's wait, input delay 0, 2,
// tuned), client 1's machine measured; and the cost of a rollback by its
// depth on the 901-cube world in the gather phase.

import (
	"errors"
	"fmt"
	"runtime"
	"slices"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/physics"
	"netcubes/strategy"
	"netcubes/wire"
)

// BenchSections implements strategy.Benched.
func (st *Strategy) BenchSections() []strategy.BenchSection {
	return []strategy.BenchSection{{Name: "rollback", Run: benchRollback}}
}

var benchPresets = []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetMobile, link.PresetTerrible}

func benchRollback(b strategy.Bench) error {
	// The resimulation is timed on the thread's CPU clock: the goroutine
	// stays on its thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pb, ok := b.(strategy.PlayersBench)
	if !ok {
		return errors.New("rollback: the bench cannot run several players")
	}
	t := strategy.NewTable(
		strategy.Column{Head: "players"},
		strategy.Column{Head: "link"},
		strategy.Column{Head: "step"},
		strategy.Column{Head: "delay", Unit: "frames"},
		strategy.Column{Head: "rollbacks/s", Unit: "1/s"},
		strategy.Column{Head: "mean frames", Unit: "frames"},
		strategy.Column{Head: "longest", Unit: "frames"},
		strategy.Column{Head: "resim ms median", Unit: "ms"},
		strategy.Column{Head: "resim ms p95", Unit: "ms"},
		strategy.Column{Head: "stall ticks", Unit: "ticks"},
		strategy.Column{Head: "predicted right %", Unit: "%"},
		strategy.Column{Head: "largest pop cm", Unit: "cm"},
		strategy.Column{Head: "kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "back kbit/s", Unit: "kbit/s"},
	)
	for _, n := range []int{2, 4} {
		for _, p := range benchPresets {
			for step := range 4 {
				if err := benchRun(b, pb, t, n, p, step); err != nil {
					return err
				}
			}
		}
	}
	t.Note("Client 1's machine (it makes no input: every player's input crosses the links, up the other player's, down its own); the others send their inputs and simulate nothing.")
	t.Note("step: waits = the build-up's step 1, lockstep's wait (no prediction: the stall ticks to compare); delay 0 / 2 / tuned roll back (delay: the input delay at the end, frames).")
	t.Note("mean frames: frames resimulated per rollback; resim ms: CPU time of the ticks that rolled back (restore + resimulation), median and p95;")
	t.Note("stall ticks: ticks the machine did not move while it should have; predicted right: the other players' inputs used before they arrived that proved right;")
	t.Note("pop: how far a rollback moved a cube the machine showed. kbit/s: server → client 1 with IP/UDP headers; back: client 1's acks.")
	t.Charts = []strategy.Chart{{
		File: "rollback", Title: "Rollback: what not waiting costs, by link and input delay (2 and 4 players)",
		X: []string{"players", "link"}, Series: "step", Bars: true,
		Panels: []strategy.Panel{
			{Y: "stall ticks", Label: "time stalled"},
			{Y: "rollbacks/s", Label: "rollbacks per second"},
			{Y: "resim ms p95", Label: "resimulation, p95"},
		},
	}}
	if err := b.Print(t); err != nil {
		return err
	}
	return benchDepth(b)
}

// benchRun plays one row.
func benchRun(b strategy.Bench, pb strategy.PlayersBench, t *strategy.Table, players int, p link.Preset, step int) error {
	st := New(DefaultConfig())
	st.SetStep(step)
	r, err := pb.NewPlayersRun(strategy.PlayersConfig{Players: players, Links: []link.Config{p.Config()}, Thin: true}, st)
	if err != nil {
		return err
	}
	var ns []float64
	var back float64
	ticks := 0
	sum := b.Play("rollback", fmt.Sprintf("%d players, %s, step %d", players, p, step+1), r, func() {
		ticks++
		back += r.Metrics().AckKbps
		if st.m.fig.rolled {
			ns = append(ns, float64(st.m.fig.lastResimNs)/1e6)
		}
	})
	f := &st.m.fig
	name := []string{"waits", "delay 0", "delay 2", "tuned"}[step]
	hit := strategy.Text("–") // nothing was predicted
	if f.Predicted > 0 {
		hit = strategy.Num(100*float64(f.PredictedHit)/float64(f.Predicted), "%.0f")
	}
	secs := float64(max(ticks, 1)) / wire.TicksPerSecond
	t.Add(strategy.Int(players), strategy.Text(p.String()), strategy.Text(name), strategy.Int(st.delay()),
		strategy.Num(float64(f.Rollbacks)/secs, "%.1f"),
		strategy.Num(float64(f.Resimulated)/float64(max(f.Rollbacks, 1)), "%.1f"),
		strategy.Int(f.LongestRoll),
		strategy.Num(quantile(ns, 0.5), "%.2f"), strategy.Num(quantile(ns, 0.95), "%.2f"),
		strategy.Int(f.StallTicks), hit, strategy.Num(f.MaxPopCm, "%.1f"),
		strategy.Num(sum.AvgWireKbps(), "%.1f"), strategy.Num(back/float64(max(ticks, 1)), "%.1f"))
	if f.Desync >= 0 {
		return fmt.Errorf("rollback bench: %d players, %s, step %d: desync at frame %d", players, p, step+1, f.Desync)
	}
	return nil
}

// quantile is the q-quantile of xs (0 for none), by the nearest rank.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}

// benchDepth times a rollback of 1, 2, 4 and 8 frames (restore the save,
// resimulate) on the 901-cube world in the gather phase, every tick for 2 s:
// what the step budget must hold inside a 16.7 ms tick.
func benchDepth(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "frames rolled back"},
		strategy.Column{Head: "ms median", Unit: "ms"},
		strategy.Column{Head: "ms p95", Unit: "ms"},
		strategy.Column{Head: "ms worst", Unit: "ms"},
		strategy.Column{Head: "share of a tick p95", Unit: "%"},
	)
	// 5 s in (the gather phase), 2 s of rollbacks; -frames squeezes both
	// into its ticks.
	from, samples := 5*wire.TicksPerSecond, 2*wire.TicksPerSecond
	if lim := b.FrameLimit(); lim > 0 && lim < from+samples {
		from, samples = lim/2, max(lim-lim/2, 1)
	}
	for _, depth := range []int{1, 2, 4, 8} {
		ms, err := timeDepth(depth, from, samples)
		if err != nil {
			return err
		}
		p95 := quantile(ms, 0.95)
		t.Add(strategy.Int(depth), strategy.Num(quantile(ms, 0.5), "%.2f"), strategy.Num(p95, "%.2f"),
			strategy.Num(quantile(ms, 1), "%.2f"), strategy.Num(100*p95/(1000.0/wire.TicksPerSecond), "%.0f"))
	}
	t.Notef("The spiral presenter's run (cubes.Spiral; its gather phase from 1 s), from %.1f s in, %d rollbacks each: restore the save, step the frames again, save each;",
		float64(from)/wire.TicksPerSecond, samples)
	if from < 5*wire.TicksPerSecond {
		t.Notef("Squeezed into -frames %d: the rollbacks start before the gather phase, in a world mostly at rest.", b.FrameLimit())
	}
	t.Note("CPU time of the thread, on this machine's one core. The native step budget is 9 steps a tick (a window of 8 and the step forward); the browser's, about 3× slower, 3.")
	return b.Print(t)
}

// timeDepth runs the gather phase and, each tick from frame from on, rolls back
// depth frames and resimulates them, timing it.
func timeDepth(depth, from, samples int) ([]float64, error) {
	w, err := cubes.NewWorld(cubes.DefaultConfig(), physics.DefaultConfig())
	if err != nil {
		return nil, err
	}
	sp := cubes.DefaultSpiral()
	var saves [saveRing]cubes.Saved
	var ins [ring]cubes.Inputs
	out := make([]float64, 0, samples)
	for f := 0; f < from+samples; f++ {
		w.Save(&saves[f%saveRing])
		ins[f%ring] = cubes.Inputs{sp.Input(f, w.Cube(cubes.Player).Position)}
		w.StepAll(&ins[f%ring])
		if f+1 < from {
			continue
		}
		t0 := cpuNow()
		back := f + 1 - depth
		if err := w.Restore(&saves[back%saveRing]); err != nil {
			return nil, err
		}
		for g := back; g <= f; g++ {
			w.Save(&saves[g%saveRing])
			w.StepAll(&ins[g%ring])
		}
		out = append(out, float64(cpuSince(t0))/1e6)
	}
	return out, nil
}
