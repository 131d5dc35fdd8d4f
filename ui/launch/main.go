// Package launch is the app's command line and its wiring: the flags
// (this file; the players' in main_players.go, the two-process mode's in
// twoproc.go), the options they make for package ui, and the run. What
// differs between the desktop and the browser (where the arguments come
// from, where messages go, signals, what a web page cannot do) is in
// main_desktop.go and main_js.go, web.go. package main only calls Main, so
// the tests drive all of it (main_*_test.go: they run the app through
// TestMain as the binary would).
package launch

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"netcubes/catalog"
	"netcubes/control"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/cliutil"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/talk"
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
	loadTrack       = talk.Load
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

// parseArgs defines the flags, parses args, and runs the steps that check
// and apply them in order (each a usage error of its own).
func parseArgs(args []string, help io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("netcubes", flag.ContinueOnError)
	// The flag package prints its error followed by the whole usage; keep
	// errors to one line and show the usage only when asked for.
	fs.SetOutput(io.Discard)
	f := defineFlags(fs, &o)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(help)
			fmt.Fprintln(help, "usage: netcubes [flags]")
			fs.PrintDefaults()
			return o, err
		}
		return o, ui.UsageError(err.Error())
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q", fs.Arg(0))
	}
	for _, step := range []func(*options, *flags) error{
		checkRun, applyShow, applyNetwork, applyPlayers, checkFiles, applyScript, applyStrategy, checkNet,
	} {
		if err := step(&o, f); err != nil {
			return o, err
		}
	}
	return o, nil
}

// flags are the values of the flags that are not set straight into the
// options, and the functions that apply the groups defined elsewhere.
type flags struct {
	fs                             *flag.FlagSet
	list                           []strategy.Strategy
	strategy, preset, script, show *string
	seed                           *uint64
	checksum, antiAlias            *bool
	link                           []linkFlag
	strategyFlags                  func() ([]control.Setting, error)
	players                        func(o *options, presets string) error
	net                            func() (netOptions, error)
}

// defineFlags defines every flag on fs: the app's own into o, the link's
// figures from the link's table, the strategies' from their descriptions.
func defineFlags(fs *flag.FlagSet, o *options) *flags {
	ids := catalog.IDs()
	f := &flags{fs: fs, list: catalog.All()}
	f.strategy = fs.String("strategy", ids[0], "strategy to start with: "+strings.Join(ids, ", ")+" (or its number key)")
	f.preset = fs.String("preset", "perfect", "network preset: "+presetNames()+"; a comma-separated list gives each client its own (lan,mobile,terrible)")
	f.link = linkFlags(fs)
	f.checksum = fs.Bool("checksum", false, "a CRC-32C on every packet: a damaged packet is dropped instead of decoded")
	f.seed = fs.Uint64("seed", 1, "seed of the simulated link: the same seed and inputs repeat a run exactly")
	f.script = fs.String("script", "", "play a script or a talk track: a built-in name ("+strings.Join(talk.Names(), ", ")+") or a file")
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
	f.show = fs.String("show", "", "start with overlays on: a comma-separated list of help, priority, updated, offsets, no-ghost, chart, grid")
	f.antiAlias = fs.Bool("antialias", true, "smooth edges; -antialias=false is far cheaper on software OpenGL (virtual displays)")
	f.strategyFlags = ui.StrategyFlags(fs, f.list)
	f.players = playersFlags(fs)
	f.net = netFlags(fs)
	return f
}

// checkRun refuses a run the window and the capture cannot make.
func checkRun(o *options, f *flags) error {
	switch {
	case o.ui.Frames < 0:
		return usagef("-frames must be >= 0, got %d", o.ui.Frames)
	case o.ui.Screenshot != "" && o.ui.Frames == 0:
		return usagef("-screenshot needs -frames N with N > 0")
	case o.ui.Capture.On() && o.ui.Frames == 0 && *f.script == "":
		return usagef("-capture and -video need -script (captured to its end) or -frames N")
	case o.width < minWidth || o.height < minHeight || o.width > maxWindowSide || o.height > maxWindowSide:
		return usagef("window must be %dx%d to %dx%d pixels, got %dx%d",
			minWidth, minHeight, maxWindowSide, maxWindowSide, o.width, o.height)
	case !(o.ui.TextScale >= 0.6 && o.ui.TextScale <= 2): // also NaN
		return usagef("-text-scale must be in 0.6..2, got %g", o.ui.TextScale)
	}
	return nil
}

// applyShow sets the drawing options: anti-aliasing and the overlays.
func applyShow(o *options, f *flags) error {
	o.ui.NoAntiAlias = !*f.antiAlias
	var err error
	o.ui.Show, err = ui.ParseShow(*f.show)
	return err
}

// applyNetwork builds the session's configuration: the strategy to start
// with, the preset, the link's figures, the seed and the checksum.
func applyNetwork(o *options, f *flags) error {
	entry, ok := catalog.Find(f.list, *f.strategy)
	if !ok {
		return usagef("unknown -strategy %q (strategies: %s)", *f.strategy, strings.Join(catalog.IDs(), ", "))
	}
	first, _, _ := strings.Cut(*f.preset, ",") // a list gives each client its own: main_players.go
	p, ok := link.PresetByName(strings.TrimSpace(first))
	if !ok {
		return usagef("unknown -preset %q (presets: %s)", *f.preset, presetNames())
	}
	cfg := game.DefaultConfig()
	cfg.Strategies, cfg.Start = f.list, entry
	cfg.Seed = *f.seed
	cfg.Link = p.Config()
	if pair := p.Pair(); !pair.IsSymmetric() {
		cfg.Up = &pair.Up // the right → left direction differs ("asymmetric")
	}
	o.ui.Preset = p.String()
	o.ui.Fresh = catalog.All
	for _, k := range f.link {
		v := *k.v
		if v == -1 {
			continue
		}
		in := k.f.Info()
		if k.f.Check(v) != nil { // also NaN and the infinities
			return usagef("-%s must be in %g..%g %s, got %g", in.Name, in.Lo, in.Hi, in.Unit, v)
		}
		cfg.Link.Set(k.f, v)
		o.ui.Custom = true // numbers adjusted away from the preset
		cfg.Up = nil       // the numbers set both directions
	}
	cfg.Checksum = *f.checksum
	o.ui.Session = cfg
	return nil
}

// applyPlayers applies -players, -bots and a list of presets.
func applyPlayers(o *options, f *flags) error { return f.players(o, *f.preset) }

// checkFiles refuses now, not after the talk, a recording or a capture
// that could not be written.
func checkFiles(o *options, _ *flags) error {
	if o.ui.RecordPath != "" {
		if err := checkRecordPath(o.ui.RecordPath); err != nil {
			return usagef("-record: %v", err)
		}
	}
	if o.ui.Capture.On() {
		if err := checkCapture(o.ui.Capture); err != nil {
			return ui.UsageError(err.Error())
		}
		o.ui.Width, o.ui.Height = o.width, o.height
	}
	return nil
}

// applyScript loads -script.
func applyScript(o *options, f *flags) error {
	if *f.script == "" {
		return nil
	}
	t, err := loadTrack(*f.script)
	if err != nil {
		return ui.UsageError(err.Error())
	}
	o.ui.Track = t
	return nil
}

// applyStrategy applies the strategies' own flags; a strategy whose modes
// are network conditions (lockstep) starts on its mode's link, unless the
// command line chose the network.
func applyStrategy(o *options, f *flags) error {
	var err error
	if o.ui.Settings, err = f.strategyFlags(); err != nil {
		return err
	}
	netFlag, playersFlag := false, false
	f.fs.Visit(func(fl *flag.Flag) {
		if _, ok := link.FieldByName(fl.Name); ok || fl.Name == "preset" {
			netFlag = true
		}
		if fl.Name == "players" {
			playersFlag = true
		}
	})
	// A strategy about several players (distributed authority) starts
	// with them, unless the command line said how many.
	if mp, ok := f.list[o.ui.Session.Start].(strategy.Multiplayer); ok && !playersFlag {
		w := &o.ui.Session.World
		w.Players = max(w.Players, mp.MinPlayers())
	}
	if _, ok := f.list[o.ui.Session.Start].(strategy.LinkChooser); ok && !netFlag {
		o.ui.Session.ChosenLink = true
	}
	return nil
}

// checkNet checks the two-process flags, and refuses a talk track with
// commands where no presenter could play it.
func checkNet(o *options, f *flags) error {
	var err error
	if o.net, err = f.net(); err != nil {
		return err
	}
	if t := o.ui.Track; t != nil && t.HasCommands() && (o.net.role == game.RoleRight || o.net.headless) {
		return usagef("-script %s has commands (strategies, network, captions): play it in one process or on the left with a window", *f.script)
	}
	return nil
}

// linkFlag is a flag that sets a figure of the link, both directions; its
// name, unit and range are the link's own (link.FieldInfo).
type linkFlag struct {
	f link.Field
	v *float64
}

// linkFlags defines a flag per figure of the link the command line sets.
func linkFlags(fs *flag.FlagSet) []linkFlag {
	var out []linkFlag
	for _, d := range []struct {
		f     link.Field
		usage string
	}{
		{link.FieldLatency, "one-way latency in ms (-1 keeps the preset's)"},
		{link.FieldJitter, "jitter in ms, ± around the latency (-1 keeps the preset's)"},
		{link.FieldLoss, "packet loss in percent (-1 keeps the preset's)"},
		{link.FieldCap, "bandwidth cap of both directions in kbit/s, a bottleneck with a queue (0: none; -1 keeps the preset's)"},
		{link.FieldCorrupt, "percent of packets with a bit flipped, both directions (-1 keeps the preset's)"},
	} {
		out = append(out, linkFlag{d.f, fs.Float64(d.f.String(), -1, d.usage)})
	}
	return out
}

func presetNames() string {
	var names []string
	for p := link.Preset(0); p < link.NumPresets; p++ {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

// Main runs the app with the process's command line and exits.
func Main() {
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
