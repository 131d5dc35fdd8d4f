// Command genscript regenerates the standard katamari input script. A
// steering controller (cubes.Spiral) drives the player along a spiral through the grid
// with katamari held, then stands still, blows the ball apart and waits for
// everything to settle; the inputs it chose are recorded in the script
// format. The world is deterministic, so replaying the script reproduces
// the run exactly, as a presenter's recorded run would.
//
//	go run ./cmd/genscript > assets/scripts/katamari.txt.new
//	go run ./cmd/genscript -push > assets/scripts/push.txt  # two players (push.go)
//
// (then keep the phase comments of the existing file at the top). Rerun it
// when the physics or the player's forces change.
package main

import (
	"flag"
	"fmt"
	"os"

	"netcubes/cubes"
	"netcubes/physics"
)

func main() {
	sp := cubes.DefaultSpiral()
	flag.IntVar(&sp.Gather, "gather", sp.Gather, "ticks of steering with katamari held")
	flag.Float64Var(&sp.R0, "r0", sp.R0, "spiral start radius, m")
	flag.Float64Var(&sp.R1, "r1", sp.R1, "spiral end radius, m")
	flag.Float64Var(&sp.Laps, "laps", sp.Laps, "spiral turns")
	flag.IntVar(&sp.Every, "every", sp.Every, "ticks between steering decisions (fewer script lines when larger)")
	flag.IntVar(&sp.Hold, "hold", sp.Hold, "ticks of katamari held standing still before the blow")
	blow := flag.Int("blow", 45, "ticks of blow")
	settle := flag.Int("settle", 720, "ticks of nothing at the end")
	cfg := cubes.DefaultConfig()
	flag.Float64Var(&cfg.PullMax, "pullmax", cfg.PullMax, "katamari reach, m (to try other worlds; the standard script uses the default)")
	push := flag.Bool("push", false, "write the two-player push script instead (push.go)")
	flag.Parse()
	if *push {
		if err := writePush(os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}

	w, err := cubes.NewWorld(cfg, physics.DefaultConfig())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rec := cubes.NewRecorder("katamari")
	step := func(in cubes.Input) { rec.Add(in); w.Step(in) }
	// The drop, the gather along the spiral and the hold (cubes.Spiral).
	for f := 0; f < sp.Length(); f++ {
		step(sp.Input(f, w.Cube(cubes.Player).Position))
	}
	fmt.Fprintf(os.Stderr, "genscript: %d cubes within %.1f m of the player at the end of the gather (frame %d)\n", w.BallSize(), cubes.BallRadius, w.Frame())
	for f := 0; f < *blow; f++ {
		step(cubes.Input{Blow: true})
	}
	for f := 0; f < *settle; f++ {
		step(cubes.Input{})
	}
	if _, err := rec.Script().WriteTo(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
