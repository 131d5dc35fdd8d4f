// Command bench runs the demo headless and prints honest numbers: for each
// strategy and setting, the bandwidth it needs and the error it leaves,
// under a scripted scenario and named network conditions, from a seed.
//
// It is its own main package and imports nothing from Ebitengine (with
// Ebitengine v2.9 a binary that imports it panics at start-up without a
// display), so it runs on servers and in CI:
//
//	go run ./cmd/bench                          # every section, katamari, intercontinental
//	go run ./cmd/bench -only snapshot -preset perfect
//	go run ./cmd/bench -csv frames.csv          # one row per frame per run
//
// Each strategy contributes a section from its own file (snapshot.go,
// statesync.go) by calling register in an init function.
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
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/net"
)

// section is one table of the report.
type section struct {
	name string
	run  func(b *bench) error
}

var sections []section

// register adds a section; sections print in registration order (file
// name order, as Go runs init functions).
func register(name string, run func(b *bench) error) {
	sections = append(sections, section{name, run})
}

// bench holds the options and the outputs shared by every section.
type bench struct {
	script   *cubes.Script
	preset   net.LinkPreset
	seed     uint64
	frames   int // ticks per run: the script's length unless -frames is set
	out      io.Writer
	csv      *csv.Writer
	progress *progress
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type usageError string

func (e usageError) Error() string { return string(e) }

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	scriptName := fs.String("script", "katamari", "input script: a built-in name ("+strings.Join(assets.ScriptNames(), ", ")+") or a file")
	presetName := fs.String("preset", "intercontinental", "network conditions: "+presetNames())
	seed := fs.Uint64("seed", 1, "seed of the simulated links")
	frames := fs.Int("frames", 0, "ticks per run (0: the script's length)")
	csvPath := fs.String("csv", "", "write one row per frame of every run to this CSV file")
	only := fs.String("only", "", "run only the sections whose name contains this")
	noProgress := fs.Bool("quiet", false, "no progress bar")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError(err.Error())
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	sc, err := cubes.LoadScript(*scriptName)
	if err != nil {
		return usageError(err.Error())
	}
	preset, ok := net.LinkPresetByName(*presetName)
	if !ok {
		return usageError(fmt.Sprintf("unknown preset %q (presets: %s)", *presetName, presetNames()))
	}
	if *frames < 0 {
		return usageError("-frames must be >= 0")
	}
	b := &bench{script: sc, preset: preset, seed: *seed, frames: sc.Length, out: stdout}
	if *frames > 0 {
		b.frames = *frames
	}
	if *csvPath != "" {
		f, err := os.Create(*csvPath)
		if err != nil {
			return err
		}
		defer f.Close()
		b.csv = csv.NewWriter(f)
		defer b.csv.Flush()
		b.csv.Write(csvHeader)
	}
	b.progress = newProgress(stderr, !*noProgress)
	fmt.Fprintf(stdout, "netcubes bench: script %s (%d frames, %.1f s), preset %s, seed %d\n",
		sc.Name, b.frames, float64(b.frames)/net.TicksPerSecond, preset, *seed)
	ran := 0
	for _, s := range sections {
		if *only != "" && !strings.Contains(s.name, *only) {
			continue
		}
		ran++
		fmt.Fprintf(stdout, "\n== %s ==\n", s.name)
		if err := s.run(b); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	b.progress.done()
	if ran == 0 {
		return usageError(fmt.Sprintf("no section matches -only %q", *only))
	}
	if b.csv != nil {
		b.csv.Flush()
		return b.csv.Error()
	}
	return nil
}

func presetNames() string {
	var names []string
	for p := net.LinkPreset(0); p < net.NumLinkPresets; p++ {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

// summary accumulates the figures of one run.
type summary struct {
	frames                         int
	kbpsSum, kbpsPeak              float64
	errFrames                      int
	rmsSum, rmsMax, posMax, rotMax float64
	popMax                         float64
	packets, packetBytes           int
	lastFrame                      game.Metrics
	changedCubes, changedCubeBits  int // filled by sections that know them
}

// add records one tick's metrics. Bandwidth is averaged from the second
// frame on (the one-second meter needs a second of history, so the first
// 60 ticks are counted as they come: the average is over all ticks).
func (s *summary) add(m *game.Metrics) {
	s.frames++
	s.kbpsSum += m.SentKbps
	s.kbpsPeak = max(s.kbpsPeak, m.SentKbps)
	if m.LastPacketFrame == m.Frame {
		s.packets++
		s.packetBytes += m.LastPacketBytes
	}
	if m.Valid {
		s.errFrames++
		s.rmsSum += m.PosRMSCm
		s.rmsMax = max(s.rmsMax, m.PosRMSCm)
		s.posMax = max(s.posMax, m.PosMaxCm)
		s.rotMax = max(s.rotMax, m.OrientMaxDeg)
		s.popMax = max(s.popMax, m.MaxPopCm)
	}
	s.lastFrame = *m
}

// avgWireKbps is the exact average bandwidth over the run: every packet's
// bytes plus 28 bytes of IP and UDP header, over the run's duration.
func (s *summary) avgWireKbps() float64 {
	bits := float64(s.packetBytes+s.packets*net.PacketHeaderBytes) * 8
	return bits / (float64(max(1, s.frames)) / net.TicksPerSecond) / 1000
}

var csvHeader = []string{"section", "run", "frame", "sent_kbps", "packet_bytes", "rtt_ms", "loss", "valid", "pos_rms_cm", "pos_max_cm", "orient_max_deg", "max_pop_cm"}

// runSession steps a session through the script, calling perFrame (may be
// nil) after every tick, writing CSV rows and advancing the progress bar.
func (b *bench) runSession(sectionName, runName string, s *game.Session, perFrame func(s *game.Session)) summary {
	var sum summary
	b.progress.start(sectionName+": "+runName, b.frames)
	for f := 0; f < b.frames; f++ {
		s.Step(b.script.InputAt(f))
		m := s.Metrics()
		sum.add(m)
		if perFrame != nil {
			perFrame(s)
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

// newSession builds a session on the bench's preset and seed.
func (b *bench) newSession(id game.StrategyID) (*game.Session, error) {
	cfg := game.DefaultConfig()
	cfg.Seed = b.seed
	cfg.Link = b.preset.Config()
	cfg.Strategy = id
	return game.New(cfg)
}
