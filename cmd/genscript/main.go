// Command genscript regenerates the standard katamari input script. A
// steering controller drives the player along a spiral through the grid
// with katamari held, then stands still, blows the ball apart and waits for
// everything to settle; the inputs it chose are recorded in the script
// format. The world is deterministic, so replaying the script reproduces
// the run exactly, as a presenter's recorded run would.
//
//	go run ./cmd/genscript > assets/scripts/katamari.txt.new
//
// (then keep the phase comments of the existing file at the top). Rerun it
// when the physics or the player's forces change.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/physics"
)

func main() {
	gather := flag.Int("gather", 1080, "ticks of steering with katamari held")
	r0 := flag.Float64("r0", 2, "spiral start radius, m")
	r1 := flag.Float64("r1", 10, "spiral end radius, m")
	laps := flag.Float64("laps", 2, "spiral turns")
	every := flag.Int("every", 8, "ticks between steering decisions (fewer script lines when larger)")
	hold := flag.Int("hold", 60, "ticks of katamari held standing still before the blow")
	blow := flag.Int("blow", 45, "ticks of blow")
	settle := flag.Int("settle", 720, "ticks of nothing at the end")
	cfg := cubes.DefaultConfig()
	flag.Float64Var(&cfg.PullMax, "pullmax", cfg.PullMax, "katamari reach, m (to try other worlds; the standard script uses the default)")
	flag.Parse()

	w, err := cubes.NewWorld(cfg, physics.DefaultConfig())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rec := cubes.NewRecorder("katamari")
	step := func(in cubes.Input) { rec.Add(in); w.Step(in) }
	for f := 0; f < 60; f++ { // the drop
		step(cubes.Input{})
	}
	var cur cubes.Input
	for f := 0; f < *gather; f++ {
		if f%*every == 0 {
			// The next waypoint on an Archimedean spiral around the origin.
			u := float64(f) / float64(*gather)
			ang := u * *laps * 2 * math.Pi
			r := *r0 + (*r1-*r0)*u
			target := mgl64.Vec3{r * math.Sin(ang), -r * math.Cos(ang), 0}
			p := w.Cube(cubes.Player).Position
			d := target.Sub(mgl64.Vec3{p[0], p[1], 0})
			cur = cubes.Input{Katamari: true}
			if d.Len() > 0.3 {
				// Steer with the arrow combination closest to the bearing.
				oct := (int(math.Round(math.Atan2(d[1], d[0])/(math.Pi/4))) + 8) % 8
				dx := [8]int{1, 1, 0, -1, -1, -1, 0, 1}[oct]
				dy := [8]int{0, 1, 1, 1, 0, -1, -1, -1}[oct]
				cur.Right, cur.Left, cur.Up, cur.Down = dx > 0, dx < 0, dy > 0, dy < 0
			}
		}
		step(cur)
	}
	for f := 0; f < *hold; f++ {
		step(cubes.Input{Katamari: true})
	}
	centre := w.Cube(cubes.Player).Position
	near := 0
	for i := 1; i < w.NumCubes(); i++ {
		if w.Cube(i).Position.Sub(centre).Len() < 2.5 {
			near++
		}
	}
	fmt.Fprintf(os.Stderr, "genscript: %d cubes within 2.5 m of the player at the end of the gather (frame %d)\n", near, w.Frame())
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
