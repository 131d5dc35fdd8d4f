// Command netcubes shows how to network a physics simulation: a 901-cube
// world runs on a "left" sender and is rebuilt on a "right" receiver only
// from packets that crossed a simulated lossy link. Keys switch strategies
// live; H shows them all.
//
// This file stays thin: it parses flags, sets up the window and hands over
// to package ui.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/assets"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/net"
	"netcubes/ui"
)

// A bad command line is a ui.UsageError: main prints it on one line and
// exits with code 2, so a typo on stage gives a clear message, not a wall of
// text.
func usagef(format string, args ...any) error { return ui.UsageError(fmt.Sprintf(format, args...)) }

// options are the command-line settings.
type options struct {
	ui            ui.Options
	width, height int
}

// parseFlags reads the command line. -h prints the flag list to help and
// returns flag.ErrHelp.
func parseFlags(args []string, help io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("netcubes", flag.ContinueOnError)
	// The flag package prints its error followed by the whole usage; keep
	// errors to one line and show the usage only when asked for.
	fs.SetOutput(io.Discard)
	strategy := fs.String("strategy", ui.EntryNames()[0], "strategy to start with: "+strings.Join(ui.EntryNames(), ", "))
	preset := fs.String("preset", "perfect", "network preset: "+presetNames())
	latency := fs.Float64("latency", -1, "one-way latency in ms (-1 keeps the preset's)")
	jitter := fs.Float64("jitter", -1, "jitter in ms, ± around the latency (-1 keeps the preset's)")
	loss := fs.Float64("loss", -1, "packet loss in percent (-1 keeps the preset's)")
	seed := fs.Uint64("seed", 1, "seed of the simulated link: the same seed and inputs repeat a run exactly")
	script := fs.String("script", "", "play a scripted input: a built-in name ("+strings.Join(assets.ScriptNames(), ", ")+") or a file")
	fs.StringVar(&o.ui.RecordPath, "record", "", "write the run's input to `FILE` on exit, in the script format")
	fs.BoolVar(&o.ui.Fullscreen, "fullscreen", false, "start fullscreen")
	fs.StringVar(&o.ui.Screenshot, "screenshot", "", "write a PNG of the screen to `FILE` after -frames ticks, then exit")
	fs.IntVar(&o.ui.Frames, "frames", 0, "number of 1/60 s ticks to run (with -screenshot, or to exit after)")
	fs.IntVar(&o.width, "width", 1600, "window width in pixels")
	fs.IntVar(&o.height, "height", 900, "window height in pixels")
	fs.BoolVar(&o.ui.NoAudio, "mute", false, "no sound at all (the sound device is not even opened)")
	fs.Float64Var(&o.ui.TextScale, "text-scale", 1, "HUD text size factor (0.6 to 2)")
	show := fs.String("show", "", "start with overlays on: a comma-separated list of help, priority, updated, offsets, no-ghost")
	antiAlias := fs.Bool("antialias", true, "smooth edges; -antialias=false is far cheaper on software OpenGL (virtual displays)")
	setup := ui.StrategyFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(help)
			fmt.Fprintln(help, "usage: netcubes [flags]")
			fs.PrintDefaults()
			return o, err
		}
		return o, ui.UsageError(err.Error())
	}
	switch {
	case fs.NArg() > 0:
		return o, usagef("unexpected argument %q", fs.Arg(0))
	case o.ui.Frames < 0:
		return o, usagef("-frames must be >= 0, got %d", o.ui.Frames)
	case o.ui.Screenshot != "" && o.ui.Frames == 0:
		return o, usagef("-screenshot needs -frames N with N > 0")
	case o.width < 320 || o.height < 240:
		return o, usagef("window must be at least 320x240, got %dx%d", o.width, o.height)
	case o.ui.TextScale < 0.6 || o.ui.TextScale > 2:
		return o, usagef("-text-scale must be in 0.6..2, got %g", o.ui.TextScale)
	}
	o.ui.NoAntiAlias = !*antiAlias
	var err error
	if o.ui.Show, err = ui.ParseShow(*show); err != nil {
		return o, err
	}
	entry, ok := ui.EntryByName(*strategy)
	if !ok {
		return o, usagef("unknown -strategy %q (strategies: %s)", *strategy, strings.Join(ui.EntryNames(), ", "))
	}
	o.ui.Entry = entry
	p, ok := net.LinkPresetByName(*preset)
	if !ok {
		return o, usagef("unknown -preset %q (presets: %s)", *preset, presetNames())
	}
	cfg := game.DefaultConfig()
	cfg.Seed = *seed
	cfg.Link = p.Config()
	o.ui.Preset = p.String()
	for _, k := range []struct {
		name     string
		v        float64
		max      float64
		dst      *float64
		isSetMsg string
	}{
		{"latency", *latency, 5000, &cfg.Link.LatencyMs, "ms"},
		{"jitter", *jitter, 5000, &cfg.Link.JitterMs, "ms"},
		{"loss", *loss, 100, &cfg.Link.LossPercent, "%"},
	} {
		if k.v == -1 {
			continue
		}
		if math.IsNaN(k.v) || k.v < 0 || k.v > k.max {
			return o, usagef("-%s must be in 0..%g %s, got %g", k.name, k.max, k.isSetMsg, k.v)
		}
		*k.dst = k.v
		o.ui.Preset = "" // custom numbers
	}
	o.ui.Session = cfg
	if *script != "" {
		sc, err := cubes.LoadScript(*script)
		if err != nil {
			return o, ui.UsageError(err.Error())
		}
		o.ui.Script = sc
	}
	if o.ui.Setup, err = setup(); err != nil {
		return o, err
	}
	return o, nil
}

func presetNames() string {
	var names []string
	for p := net.LinkPreset(0); p < net.NumLinkPresets; p++ {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

func main() {
	ui.RunAudioProbe() // returns at once unless this process is the audio probe
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "netcubes:", err)
		var u ui.UsageError
		if errors.As(err, &u) {
			os.Exit(2)
		}
		os.Exit(1)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "netcubes:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	ebiten.SetWindowSize(o.width, o.height)
	app, err := ui.Run(o.ui)
	if app != nil && o.ui.RecordPath != "" {
		if rec := app.Recording(); rec != nil {
			if werr := writeScript(o.ui.RecordPath, rec); werr != nil && err == nil {
				err = werr
			}
		}
	}
	return err
}

func writeScript(path string, s *cubes.Script) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := s.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
