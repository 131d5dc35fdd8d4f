package main

// Design note: the physics comparison (-physics). The katamari gather
// phase (cubes.Spiral: the player drops, then steers a spiral through the
// grid with katamari held, then holds it standing still) is run by several
// engines, each round of each engine in a fresh process, the engines taking
// turns round by round (and in a rotated order each round), so that a
// noisy shared machine hurts them all alike.
//
// A pile of cubes is chaotic: the last bit of a rounding change sends the
// ball along another path, with more or fewer cubes awake, and one run's
// median says as much about that path as about the engine. So round r
// uses another presenter, one who decides every 5 + r mod 8 ticks instead
// of 8 (cubes.Spiral.Every), and every engine meets the same presenters;
// the table pools the steps of all rounds and gives the ball's mean and
// range over them.
//
// Each process prints the time of every gather step and the ball size at
// its end in a small text protocol, which any engine can speak; it is
// given the presenter's reaction time in ticks as its only argument:
//
//	engine <one line describing the engine and its settings>
//	ms <time of gather step 1> <step 2> ...   (milliseconds of the thread's CPU time)
//	ball <cubes within 2.5 m of the player's centre at the end>
//
// This bench's own binary speaks it under -physics-child N (netcubes as it is
// built), tools/odebench speaks it for ODE 0.16, and -engine NAME=COMMAND
// adds any other program, for example this bench built from an older
// commit (the README says how), to compare before and after in one run.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"netcubes/cubes"
	"netcubes/internal/stepcost"
	"netcubes/physics"
)

// engine is one program in the comparison.
type engine struct {
	name string
	argv []string
	// filled in by the rounds
	desc  string
	times []float64 // ms per gather step, all rounds together
	balls []int     // ball size per round
}

// engineList collects -engine NAME=COMMAND flags.
type engineList []engine

func (l *engineList) String() string { return "" }

func (l *engineList) Set(v string) error {
	name, cmd, ok := strings.Cut(v, "=")
	argv := strings.Fields(cmd)
	if !ok || name == "" || len(argv) == 0 {
		return fmt.Errorf("want NAME=COMMAND, got %q", v)
	}
	*l = append(*l, engine{name: name, argv: argv})
	return nil
}

// physicsChild runs the gather phase once with the physics compiled into
// this binary and prints it in the protocol.
func physicsChild(out io.Writer, every int) error {
	pcfg := physics.DefaultConfig()
	w, err := cubes.NewWorld(cubes.DefaultConfig(), pcfg)
	if err != nil {
		return err
	}
	sp := cubes.DefaultSpiral()
	sp.Every = every
	times := make([]float64, 0, sp.Gather+sp.Hold)
	// The thread's CPU time, not the wall clock: on a machine shared with
	// other work a step's wall time includes the time the process waited
	// for a core (tools/odebench measures the same way).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for f := 0; f < sp.Length(); f++ {
		in := sp.Input(f, w.Cube(cubes.Player).Position)
		t0 := threadClock()
		w.Step(in)
		if f >= sp.Drop {
			times = append(times, float64((threadClock()-t0).Nanoseconds())/1e6)
		}
	}
	fmt.Fprintf(out, "engine netcubes physics (%d substeps, contacts %g Hz, friction %g)\n",
		pcfg.Substeps, pcfg.ContactHertz, pcfg.Friction)
	fmt.Fprint(out, "ms")
	for _, t := range times {
		fmt.Fprintf(out, " %.4f", t)
	}
	fmt.Fprintf(out, "\nball %d\n", w.BallSize())
	return nil
}

// runRound runs one engine once and adds its figures.
func (e *engine) runRound(every int) error {
	cmd := exec.Command(e.argv[0], append(e.argv[1:], strconv.Itoa(every))...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s: %v", e.name, err)
	}
	return e.parse(out)
}

// parse reads one round's output in the protocol and adds its figures.
func (e *engine) parse(out []byte) error {
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	var gotTimes, gotBall bool
	for sc.Scan() {
		key, rest, _ := strings.Cut(sc.Text(), " ")
		switch key {
		case "engine":
			e.desc = rest
		case "ms":
			for _, f := range strings.Fields(rest) {
				v, err := strconv.ParseFloat(f, 64)
				if err != nil {
					return fmt.Errorf("%s: bad step time %q", e.name, f)
				}
				e.times = append(e.times, v)
			}
			gotTimes = true
		case "ball":
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil {
				return fmt.Errorf("%s: bad ball size %q", e.name, rest)
			}
			e.balls = append(e.balls, n)
			gotBall = true
		}
	}
	if !gotTimes || !gotBall {
		return fmt.Errorf("%s: the output lacks the ms or ball line", e.name)
	}
	return nil
}

// runPhysics runs every engine rounds times, interleaved, and prints the
// table.
func runPhysics(out io.Writer, rounds int, ode string, extra []engine) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	engines := []engine{{name: "netcubes", argv: []string{self, "-physics-child"}}}
	engines = append(engines, extra...)
	if ode != "" {
		if _, err := os.Stat(ode); err != nil {
			return usageError(fmt.Sprintf("-ode %s: %v (build it: make -C tools/odebench)", ode, err))
		}
		engines = append(engines, engine{name: "ODE", argv: []string{ode}})
	}
	sp := cubes.DefaultSpiral()
	fmt.Fprintf(out, "physics: the katamari gather phase (frames %d-%d: a spiral steered with katamari held, then held still),\n",
		sp.Drop, sp.Length()-1)
	var ticks []string
	for r := 0; r < min(rounds, 8); r++ {
		ticks = append(ticks, strconv.Itoa(presenter(r)))
	}
	fmt.Fprintf(out, "%d rounds per engine, each a fresh process, the presenter deciding every %s ticks, engines interleaved;\n",
		rounds, strings.Join(ticks, ", "))
	fmt.Fprintf(out, "ms per step over all rounds; the ball (cubes within %.1f m of the player at the end): mean [min-max]\n\n", cubes.BallRadius)
	for r := 0; r < rounds; r++ {
		for k := range engines {
			e := &engines[(k+r)%len(engines)]
			if err := e.runRound(presenter(r)); err != nil {
				return err
			}
		}
	}
	ref := -1.0
	for _, e := range engines {
		if e.name == "ODE" {
			ref = stepcost.Percentile(e.times, 0.5)
		}
	}
	fmt.Fprintf(out, "%-12s %8s %8s %8s %8s  %-15s %s\n", "engine", "median", "p95", "p99", "worst", "ball", "median/ODE")
	for _, e := range engines {
		med := stepcost.Percentile(e.times, 0.5)
		ratio := "-"
		if ref > 0 {
			ratio = fmt.Sprintf("%.2f", med/ref)
		}
		fmt.Fprintf(out, "%-12s %8.3f %8.3f %8.3f %8.3f  %-15s %s\n", e.name, med,
			stepcost.Percentile(e.times, 0.95), stepcost.Percentile(e.times, 0.99), stepcost.Percentile(e.times, 1), ballRange(e.balls), ratio)
	}
	fmt.Fprintln(out)
	for _, e := range engines {
		fmt.Fprintf(out, "%-12s %s\n", e.name, e.desc)
	}
	return nil
}

// presenter is round r's reaction time in ticks: 8 (the katamari
// script's) first, then 9..12 and 5..7.
func presenter(r int) int { return 5 + (r+3)%8 }

// ballRange prints the ball sizes of the rounds: their mean, and the
// smallest and largest.
func ballRange(b []int) string {
	if len(b) == 0 {
		return "-"
	}
	sum := 0
	for _, n := range b {
		sum += n
	}
	return fmt.Sprintf("%.1f [%d-%d]", float64(sum)/float64(len(b)), slices.Min(b), slices.Max(b))
}

var errNoRounds = errors.New("-rounds must be at least 1")
