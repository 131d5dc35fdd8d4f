// Command netcubes shows how to network a physics simulation: a 901-cube
// world runs on a "left" sender and is rebuilt on a "right" receiver only
// from packets that crossed a simulated lossy link. Keys switch strategies
// live; H shows them all.
//
// This file stays thin: it parses flags and hands over to package ui. What
// differs between the desktop and the browser (where the arguments come
// from, where messages go, signals, what a web page cannot do) is in
// main_desktop.go and main_js.go.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/cliutil"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/track"
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
	net           netOptions
}

// Window size bounds. Below the minimum the HUD cannot be laid out; above
// the maximum the screen no longer fits the GPU's largest texture (8,192
// pixels on many integrated GPUs, 16,384 on most others; Ebitengine panics
// beyond it) and X refuses windows wider than 32,767 pixels.
const (
	minWidth, minHeight = 320, 240
	maxWindowSide       = 8192
	// The window's size unless -width and -height say otherwise.
	defaultWidth, defaultHeight = 1600, 900
)

// The files the flags name are reached through these, so the fuzz target
// of the flag parser can keep it off the file system.
var (
	loadTrack       = track.Load
	checkRecordPath = cubes.CheckRecordPath
	checkCapture    = ui.CheckCapture
)

// parseFlags reads the command line. -h prints the flag list to help and
// returns flag.ErrHelp. Every other error is a ui.UsageError of one line
// (at most cliutil.MaxMessageBytes, control characters escaped), whatever
// the arguments hold.
func parseFlags(args []string, help io.Writer) (options, error) {
	o, err := parseArgs(args, help)
	var u ui.UsageError
	if errors.As(err, &u) {
		err = ui.UsageError(cliutil.OneLine(u.Error()))
	}
	return o, err
}

func parseArgs(args []string, help io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("netcubes", flag.ContinueOnError)
	// The flag package prints its error followed by the whole usage; keep
	// errors to one line and show the usage only when asked for.
	fs.SetOutput(io.Discard)
	list := catalog.All()
	ids := catalog.IDs()
	strategyName := fs.String("strategy", ids[0], "strategy to start with: "+strings.Join(ids, ", ")+" (or its number key)")
	preset := fs.String("preset", "perfect", "network preset: "+presetNames()+"; a comma-separated list gives each client its own (lan,mobile,terrible)")
	latency := fs.Float64("latency", -1, "one-way latency in ms (-1 keeps the preset's)")
	jitter := fs.Float64("jitter", -1, "jitter in ms, ± around the latency (-1 keeps the preset's)")
	loss := fs.Float64("loss", -1, "packet loss in percent (-1 keeps the preset's)")
	bwCap := fs.Float64("cap", -1, "bandwidth cap of both directions in kbit/s, a bottleneck with a queue (0: none; -1 keeps the preset's)")
	corrupt := fs.Float64("corrupt", -1, "percent of packets with a bit flipped, both directions (-1 keeps the preset's)")
	checksum := fs.Bool("checksum", false, "a CRC-32C on every packet: a damaged packet is dropped instead of decoded")
	seed := fs.Uint64("seed", 1, "seed of the simulated link: the same seed and inputs repeat a run exactly")
	script := fs.String("script", "", "play a script or a talk track: a built-in name ("+strings.Join(track.Names(), ", ")+") or a file")
	fs.StringVar(&o.ui.RecordPath, "record", "", "record the run (every key, the players' input, the settings) to `FILE` as a script that replays it (saved every second and on exit)")
	fs.StringVar(&o.ui.Capture.Dir, "capture", "", "draw every tick of the run to numbered PNGs in `DIR` (frame-exact, as fast as the machine draws)")
	fs.StringVar(&o.ui.Capture.Video, "video", "", "write the run as a video `FILE`: .gif by the app itself, .mp4 (or .webm, .mkv) through ffmpeg")
	fs.BoolVar(&o.ui.Fullscreen, "fullscreen", false, "start fullscreen")
	fs.StringVar(&o.ui.Screenshot, "screenshot", "", "write a PNG of the screen to `FILE` after -frames ticks, then exit")
	fs.IntVar(&o.ui.Frames, "frames", 0, "number of 1/60 s ticks to run (with -screenshot, or to exit after)")
	fs.IntVar(&o.width, "width", defaultWidth, "window width in pixels")
	fs.IntVar(&o.height, "height", defaultHeight, "window height in pixels")
	fs.BoolVar(&o.ui.NoAudio, "mute", false, "start muted: the sound device is not opened until M unmutes")
	fs.Float64Var(&o.ui.TextScale, "text-scale", 1, "HUD text size factor (0.6 to 2)")
	show := fs.String("show", "", "start with overlays on: a comma-separated list of help, priority, updated, offsets, no-ghost, chart")
	antiAlias := fs.Bool("antialias", true, "smooth edges; -antialias=false is far cheaper on software OpenGL (virtual displays)")
	applyStrategyFlags := ui.StrategyFlags(fs, list)
	applyPlayers := playersFlags(fs)
	checkNet := netFlags(fs)
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
	case o.ui.Capture.On() && o.ui.Frames == 0 && *script == "":
		return o, usagef("-capture and -video need -script (captured to its end) or -frames N")
	case o.width < minWidth || o.height < minHeight || o.width > maxWindowSide || o.height > maxWindowSide:
		return o, usagef("window must be %dx%d to %dx%d pixels, got %dx%d",
			minWidth, minHeight, maxWindowSide, maxWindowSide, o.width, o.height)
	case !(o.ui.TextScale >= 0.6 && o.ui.TextScale <= 2): // also NaN
		return o, usagef("-text-scale must be in 0.6..2, got %g", o.ui.TextScale)
	}
	o.ui.NoAntiAlias = !*antiAlias
	var err error
	if o.ui.Show, err = ui.ParseShow(*show); err != nil {
		return o, err
	}
	entry, ok := catalog.Find(list, *strategyName)
	if !ok {
		return o, usagef("unknown -strategy %q (strategies: %s)", *strategyName, strings.Join(ids, ", "))
	}
	first, _, _ := strings.Cut(*preset, ",") // a list gives each client its own: main_players.go
	p, ok := link.PresetByName(strings.TrimSpace(first))
	if !ok {
		return o, usagef("unknown -preset %q (presets: %s)", *preset, presetNames())
	}
	cfg := game.DefaultConfig()
	cfg.Strategies, cfg.Start = list, entry
	cfg.Seed = *seed
	cfg.Link = p.Config()
	if pair := p.Pair(); !pair.IsSymmetric() {
		cfg.Up = &pair.Up // the right → left direction differs ("asymmetric")
	}
	o.ui.Preset = p.String()
	o.ui.Fresh = catalog.All
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
		{"cap", *bwCap, 1e6, &cfg.Link.BandwidthKbps, "kbit/s"},
		{"corrupt", *corrupt, 100, &cfg.Link.CorruptPercent, "%"},
	} {
		if k.v == -1 {
			continue
		}
		if !(k.v >= 0 && k.v <= k.max) { // also NaN and the infinities
			return o, usagef("-%s must be in 0..%g %s, got %g", k.name, k.max, k.isSetMsg, k.v)
		}
		*k.dst = k.v
		o.ui.Custom = true // numbers adjusted away from the preset
		cfg.Up = nil       // the numbers set both directions
	}
	cfg.Checksum = *checksum
	o.ui.Session = cfg
	if err := applyPlayers(&o, *preset); err != nil {
		return o, err
	}
	if o.ui.RecordPath != "" {
		// Fail now, not after the talk.
		if err := checkRecordPath(o.ui.RecordPath); err != nil {
			return o, usagef("-record: %v", err)
		}
	}
	if o.ui.Capture.On() {
		if err := checkCapture(o.ui.Capture); err != nil {
			return o, ui.UsageError(err.Error())
		}
		o.ui.Width, o.ui.Height = o.width, o.height
	}
	if *script != "" {
		t, err := loadTrack(*script)
		if err != nil {
			return o, ui.UsageError(err.Error())
		}
		o.ui.Track = t
	}
	if o.ui.Settings, err = applyStrategyFlags(); err != nil {
		return o, err
	}
	// A strategy whose modes are network conditions (lockstep) starts on
	// its mode's link, unless the command line chose the network.
	netFlag, playersFlag := false, false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "preset", "latency", "jitter", "loss", "cap", "corrupt":
			netFlag = true
		case "players":
			playersFlag = true
		}
	})
	// A strategy about several players (distributed authority) starts
	// with them, unless the command line said how many.
	if mp, ok := list[entry].(strategy.Multiplayer); ok && !playersFlag {
		w := &o.ui.Session.World
		w.Players = max(w.Players, mp.MinPlayers())
	}
	if _, ok := list[entry].(strategy.LinkChooser); ok && !netFlag {
		o.ui.Session.ChosenLink = true
	}
	if o.net, err = checkNet(); err != nil {
		return o, err
	}
	if t := o.ui.Track; t != nil && t.HasCommands() && (o.net.role == game.RoleRight || o.net.headless) {
		return o, usagef("-script %s has commands (strategies, network, captions): play it in one process or on the left with a window", *script)
	}
	return o, nil
}

func presetNames() string {
	var names []string
	for p := link.Preset(0); p < link.NumPresets; p++ {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

func main() {
	ui.RunAudioProbe() // returns at once unless this process is the audio probe
	args, err := commandLine()
	var o options
	if err == nil {
		o, err = parseFlags(args, messages)
	}
	if err == nil {
		err = checkPlatform(o)
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(messages, "netcubes:", err)
		var u ui.UsageError
		if errors.As(err, &u) {
			os.Exit(2)
		}
		os.Exit(1)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(messages, "netcubes:", explainRunError(err))
		os.Exit(exitCode(err))
	}
}

// explainRunError turns Ebitengine's "no window system" (a server, an SSH
// session, a CI machine) into one line that says what to do instead,
// with a command to paste: this one again under a virtual display.
func explainRunError(err error) string {
	if strings.Contains(err.Error(), "no window system is available") {
		return "no display to open a window on: run it in a desktop session, or under a virtual display: " +
			rerunCommand(os.Args[0], os.Args[1:]) + " (the headless bench needs none: go run ./cmd/bench)"
	}
	return err.Error()
}

// rerunCommand is the command line that runs the app again under
// xvfb-run: make run's (or go run's) temporary binary cannot be run
// again, so from a build folder of the go command it is make run with the
// same flags, else the same binary.
func rerunCommand(exe string, args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	flags := strings.Join(quoted, " ")
	if strings.Contains(filepath.ToSlash(exe), "/go-build") {
		if flags == "" {
			return "xvfb-run -a make run"
		}
		return "xvfb-run -a make run ARGS=" + shellQuote(flags)
	}
	return strings.TrimSpace("xvfb-run -a " + shellQuote(exe) + " " + flags)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
