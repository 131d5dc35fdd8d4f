// Command bench runs the demo headless and prints honest numbers: for each
// strategy and setting, the bandwidth it needs and the error it leaves,
// under a scripted scenario and named network conditions, from a seed.
//
// It imports nothing from Ebitengine, so it runs on servers and in CI
// without a display:
//
//	go run ./cmd/bench                          # every section, katamari, intercontinental
//	go run ./cmd/bench -only snapshot -preset perfect
//	go run ./cmd/bench -csv frames.csv          # one row per frame per run
//	go run ./cmd/bench -plots docs/bench        # the tables, and their charts as SVG and PNG (plots.go)
//	go run ./cmd/bench -physics -ode tools/odebench/odebench  # step time vs ODE (physics.go)
//	go run ./cmd/bench -export-challenge k.bin  # the script's run in the 2015 challenge layout
//	go run ./cmd/bench -challenge k.bin         # levels 8-14 on such a file
//
// The tables are the strategies' own (strategy.Benched, in each strategy's
// bench.go): the bench runs the sections of every strategy in the catalog,
// in menu order, once per section name, and offers them the scenario, the
// progress bar and the CSV through strategy.Bench.
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"netcubes/assets"
	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/cliutil"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// sections are the tables of every strategy in the catalog, in menu order,
// each name once, then the bench's own "worlds per tick" (worlds.go) and
// "joining mid-session" (join.go).
func sections() []strategy.BenchSection {
	var out []strategy.BenchSection
	seen := map[string]bool{}
	for _, st := range catalog.All() {
		b, ok := st.(strategy.Benched)
		if !ok {
			continue
		}
		for _, sec := range b.BenchSections() {
			if !seen[sec.Name] {
				seen[sec.Name] = true
				out = append(out, sec)
			}
		}
	}
	return append(out, worldsSection(), joinSection())
}

// bench holds the options and the outputs shared by every section.
type bench struct {
	script   *cubes.Script
	preset   link.Preset
	seed     uint64
	frames   int // ticks per run: the script's length unless -frames is set
	limit    int // -frames: 0, or the ticks every run is held to
	out      io.Writer
	csv      *csv.Writer
	progress *progress
	section  string   // the section running
	tables   []tabled // every table printed, for -plots
}

// tabled is a table as the bench printed it, with its section.
type tabled struct {
	section string
	t       *strategy.Table
}

// A bad command line prints one line (the value quoted, control characters
// escaped, cut short: cliutil) and exits with code 2, as the app does; -h
// prints the flags.
func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintln(os.Stderr, "bench:", cliutil.OneLine(err.Error()))
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type usageError string

func (e usageError) Error() string { return string(e) }

func run(args []string, stdout, stderr io.Writer) error {
	_, err := runTables(args, stdout, stderr)
	return err
}

// runTables is run, returning the tables the sections printed (the
// charts' data, for the tests).
func runTables(args []string, stdout, stderr io.Writer) (tables []tabled, err error) {
	var b *bench
	defer func() {
		if b != nil {
			tables = b.tables
		}
	}()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	// The flag package prints its error and then every flag; keep errors
	// to one line and print the flags only when asked (-h).
	fs.SetOutput(io.Discard)
	scriptName := fs.String("script", "katamari", "input script: a built-in name ("+strings.Join(assets.ScriptNames(), ", ")+") or a file")
	presetName := fs.String("preset", "intercontinental", "network conditions: "+presetNames())
	seed := fs.Uint64("seed", 1, "seed of the simulated links")
	frames := fs.Int("frames", 0, "ticks per run (0: the script's length); the cap step and the other players' scenarios are squeezed into them")
	csvPath := fs.String("csv", "", "write one row per frame of every run to this CSV file")
	plotDir := fs.String("plots", "", "draw every section's charts into this directory, as SVG and PNG (created if missing)")
	only := fs.String("only", "", "run only the sections whose name contains this")
	noProgress := fs.Bool("quiet", false, "no progress bar")
	physicsMode := fs.Bool("physics", false, "compare the physics engines' step time on the katamari gather phase instead (see -rounds, -ode, -engine)")
	rounds := fs.Int("rounds", 8, "with -physics: runs of the gather phase per engine (each with another presenter, see physics.go)")
	ode := fs.String("ode", "", "with -physics: the ODE harness to compare with (build it: make -C tools/odebench; then -ode tools/odebench/odebench)")
	var engines engineList
	fs.Var(&engines, "engine", "with -physics: another engine speaking the protocol, NAME=COMMAND (repeatable)")
	child := fs.Bool("physics-child", false, "run the gather phase once, the presenter deciding every N ticks (the argument), and print its step times (what -physics runs)")
	challenge := fs.String("challenge", "", "code this file in the 2015 snapshot challenge layout at levels 8-14 (no other section runs)")
	export := fs.String("export-challenge", "", "write the script's run in the 2015 snapshot challenge layout to this file (no other section runs)")
	clients := fs.String("clients", "", "measure the server's cost per client instead: every strategy with each number of thin clients in this list (1,2,4,8,16,32,64); -frames sets the ticks measured (default 600), -only the strategies (rows whose name contains it, e.g. \"compression 1\")")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: bench [flags]")
			fs.PrintDefaults()
			return nil, nil
		}
		return nil, usageError(err.Error())
	}
	if *child {
		every, err := strconv.Atoi(fs.Arg(0))
		if fs.NArg() != 1 || err != nil || every < 1 {
			return nil, usageError("-physics-child wants one argument, the presenter's ticks between decisions")
		}
		return nil, physicsChild(stdout, every)
	}
	if fs.NArg() > 0 {
		return nil, usageError(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if *physicsMode {
		if *rounds < 1 {
			return nil, usageError(errNoRounds.Error())
		}
		return nil, runPhysics(stdout, *rounds, *ode, engines)
	}
	sc, err := cubes.LoadScript(*scriptName)
	if err != nil {
		return nil, usageError(err.Error())
	}
	preset, ok := link.PresetByName(*presetName)
	if !ok {
		return nil, usageError(fmt.Sprintf("unknown preset %q (presets: %s)", *presetName, presetNames()))
	}
	if *frames < 0 {
		return nil, usageError(fmt.Sprintf("-frames must be >= 0, got %d", *frames))
	}
	b = &bench{script: sc, preset: preset, seed: *seed, frames: sc.Length, limit: *frames, out: stdout}
	if *frames > 0 {
		b.frames = *frames
	}
	if *csvPath != "" {
		f, err := os.Create(*csvPath)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		b.csv = csv.NewWriter(f)
		defer b.csv.Flush()
		b.csv.Write(csvHeader)
	}
	b.progress = newProgress(stderr, !*noProgress)
	if *clients != "" {
		counts, err := parseClients(*clients)
		if err != nil {
			return nil, usageError(err.Error())
		}
		if *frames == 0 {
			b.frames = 600
		}
		if err := runScale(b, counts, *only, b.progress); err != nil {
			return nil, err
		}
		return nil, writePlots(b, *plotDir, stderr)
	}
	if *challenge != "" || *export != "" {
		if err := runChallenge(b, *export, *challenge); err != nil {
			return nil, err
		}
		return nil, writePlots(b, *plotDir, stderr)
	}
	fmt.Fprintf(stdout, "netcubes bench: script %s (%d frames, %.1f s), preset %s, seed %d\n",
		sc.Name, b.frames, float64(b.frames)/wire.TicksPerSecond, preset, *seed)
	return nil, runSections(b, *only, *plotDir, stderr)
}

// runSections runs the sections whose name contains only (all when it is
// empty), each under its heading, then writes the plots and the CSV.
func runSections(b *bench, only, plotDir string, stderr io.Writer) error {
	ran := 0
	for _, s := range sections() {
		if only != "" && !strings.Contains(s.Name, only) {
			continue
		}
		ran++
		b.section = s.Name
		fmt.Fprintf(b.out, "\n== %s ==\n", s.Name)
		if err := s.Run(b); err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	b.progress.done()
	if ran == 0 {
		return usageError(fmt.Sprintf("no section matches -only %q", only))
	}
	if err := writePlots(b, plotDir, stderr); err != nil {
		return err
	}
	if b.csv != nil {
		b.csv.Flush()
		return b.csv.Error()
	}
	return nil
}

func presetNames() string {
	var names []string
	for p := link.Preset(0); p < link.NumPresets; p++ {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

var csvHeader = []string{"section", "run", "frame", "sent_kbps", "packet_bytes", "rtt_ms", "loss", "valid", "pos_rms_cm", "pos_max_cm", "orient_max_deg", "max_pop_cm"}

// Out implements strategy.Bench.
func (b *bench) Out() io.Writer { return b.out }

// Print implements strategy.Bench: it prints t and keeps it for -plots.
func (b *bench) Print(t *strategy.Table) error {
	if err := t.Write(b.out); err != nil {
		return err
	}
	b.tables = append(b.tables, tabled{section: b.section, t: t})
	return nil
}

// Preset implements strategy.Bench.
func (b *bench) Preset() link.Preset { return b.preset }

// FrameLimit implements strategy.Bench.
func (b *bench) FrameLimit() int { return b.limit }

// NewRun implements strategy.Bench: a session on the bench's seed.
func (b *bench) NewRun(c link.Config, st strategy.Strategy) (strategy.Run, error) {
	cfg := game.DefaultConfig()
	cfg.Seed = b.seed
	cfg.Link = c
	cfg.Strategies = []strategy.Strategy{st}
	return game.New(cfg)
}

// Play implements strategy.Bench: it steps r through the script, calling
// tick (may be nil) after every step, writing CSV rows and advancing the
// progress bar.
func (b *bench) Play(sectionName, runName string, s strategy.Run, tick func()) strategy.Summary {
	var sum strategy.Summary
	b.progress.start(sectionName+": "+runName, b.frames)
	for f := 0; f < b.frames; f++ {
		s.Step(b.script.InputAt(f))
		m := s.Metrics()
		sum.Add(m)
		if tick != nil {
			tick()
		}
		if b.csv != nil {
			pb := 0
			if m.LastPacketFrame == m.Frame {
				pb = m.LastPacketBytes
			}
			b.csv.Write([]string{sectionName, runName, strconv.Itoa(m.Frame),
				ff(m.SentKbps), strconv.Itoa(pb), ff(m.RTTms), ff(m.Loss), strconv.FormatBool(m.Valid),
				ff(m.PosRMSCm), ff(m.PosMaxCm), ff(m.OrientMaxDeg), ff(m.MaxPopCm)})
		}
		b.progress.step(f + 1)
	}
	return sum
}

func ff(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
