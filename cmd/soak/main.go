// Command soak runs the demo headless for a long time, the way a long
// rehearsal or a day at a booth would, and watches for what a short test
// cannot see: a NaN that creeps in after an hour, memory that grows, a
// panic after a rare sequence of key presses.
//
//	go run ./cmd/soak -duration 20m        # make soak SOAK=20m
//
// One session holds every strategy of the catalog. The katamari script
// plays, and at its end the world starts over (F5), settings kept; every
// -rotate ticks the soak does one thing a presenter
// does, chosen by a seeded generator: switches strategy, presses one of the
// active strategy's own keys (either way), steps its sub-mode, picks the
// next network preset, steps the bandwidth cap, toggles the TCP-like link,
// cuts the link for a second, or resets the right side. Every -every
// (wall clock) it prints the ticks run, the NaN count (ticks whose right
// view or figures held a NaN or an infinity), the largest position error
// and where it was seen, and the memory: Go's heap and the process's
// resident set. It exits 1 if any NaN was seen, and a panic ends it with
// the tick and the last action.
//
// With -mem each report first forces a garbage collection, so that its
// heap figure is the live heap (what the session really holds, not what
// waits for the collector), and names the strategy active at that moment;
// at the end a table gives, per strategy, the live heap and the resident
// set at the reports it was active in, and the whole run's resident set
// from the first report on, which must stay flat. -memprofile writes a
// heap profile at the end (after a collection): `go tool pprof -top` it.
//
// With -torture it plays the script once per strategy under each of a few
// hostile networks (terrible, the DSL and congested bottlenecks, TCP-like
// over a 256 kbit/s cap, a 5 s outage) and prints one line per run
// (torture.go).
//
// With -track NAME it plays a talk track to its end (the built-in tour:
// -track tour, make tour) and prints a line per caption (track.go).
//
// The wall clock only decides when to print and when to stop; the session
// itself runs in ticks from the seed, as everywhere else.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"netcubes/assets"
	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/cliutil"
	"netcubes/link"
	"netcubes/talk"
	"netcubes/wire"
)

// capSteps are the bandwidth caps the soak steps through (kbit/s, 0 =
// none), as the app's F7 does.
var capSteps = []float64{0, 2048, 1024, 512, 256, 128, 64}

type usageError string

func (e usageError) Error() string { return string(e) }

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr, time.Now)
	var u usageError
	switch {
	case err == nil:
	case errors.As(err, &u):
		fmt.Fprintln(os.Stderr, "soak:", cliutil.OneLine(err.Error()))
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

// options are the command line's.
type options struct {
	duration, every time.Duration
	ticks           int // stop after this many ticks instead (0: duration)
	torture         bool
	mem             bool   // collect before each report, and a table per strategy at the end
	memProfile      string // a heap profile at the end

	rotate int
	seed   uint64
	script *cubes.Script
	track  *talk.Track // -track: play it to its end instead
}

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.DurationVar(&o.duration, "duration", 20*time.Minute, "how long to run (wall clock)")
	fs.DurationVar(&o.every, "every", 30*time.Second, "how often to print a report line (wall clock)")
	fs.IntVar(&o.ticks, "ticks", 0, "stop after this many ticks instead of -duration (0: use -duration)")
	fs.IntVar(&o.rotate, "rotate", 300, "ticks between two presenter actions (key presses, presets, ...)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the links and of the choice of actions")
	fs.BoolVar(&o.torture, "torture", false, "instead: play the script once per strategy under each hostile network and print a table")
	fs.BoolVar(&o.mem, "mem", false, "collect garbage before each report (the heap is then the live heap) and print the memory per strategy at the end")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a heap profile to this file at the end (after a collection)")
	trackName := fs.String("track", "", "instead: play a talk track to its end, headless (a built-in name such as tour, or a file) and print a line per caption")
	name := fs.String("script", "katamari", "input played in a loop: a built-in name ("+strings.Join(assets.ScriptNames(), ", ")+") or a file")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: soak [flags]")
			fs.PrintDefaults()
		}
		return o, usageErrorOf(err)
	}
	switch {
	case fs.NArg() > 0:
		return o, usageError(fmt.Sprintf("unexpected argument %s", cliutil.Quote(fs.Arg(0))))
	case o.duration <= 0 && o.ticks <= 0:
		return o, usageError(fmt.Sprintf("-duration must be > 0, got %v", o.duration))
	case o.every <= 0:
		return o, usageError(fmt.Sprintf("-every must be > 0, got %v", o.every))
	case o.ticks < 0:
		return o, usageError(fmt.Sprintf("-ticks must be >= 0, got %d", o.ticks))
	case o.rotate < 1:
		return o, usageError(fmt.Sprintf("-rotate must be >= 1, got %d", o.rotate))
	}
	if *trackName != "" {
		tr, err := talk.Load(*trackName)
		if err != nil {
			return o, usageError(err.Error())
		}
		o.track = tr
		return o, nil
	}
	sc, err := cubes.LoadScript(*name)
	if err != nil {
		return o, usageError(err.Error())
	}
	o.script = sc
	return o, nil
}

func usageErrorOf(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usageError(err.Error())
}

// soak is the run's state.
type soak struct {
	o       options
	s       *game.Session
	rng     wire.RNG
	preset  link.Preset
	capStep int
	last    string // the last action, for a panic's report
	tick    int    // ticks run

	restarts  int     // the script's end reached: the world started over
	nan       int     // ticks with a non-finite value
	maxErr    float64 // cm, over the run
	maxErrAt  string
	intErr    float64 // cm, since the last report
	actions   int
	firstRSS  float64
	peakRSS   float64
	lastHeap  float64
	startWall time.Time
	// With -mem: the figures of the reports, per strategy active at each.
	mem map[string]*memFigures
}

// memFigures are one strategy's memory figures over the reports it was
// active in (-mem).
type memFigures struct {
	reports          int
	heapMin, heapMax float64 // live heap, MB
	rssMin, rssMax   float64 // resident set, MB
}

func run(args []string, stdout, stderr io.Writer, now func() time.Time) (err error) {
	o, err := parse(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if o.track != nil {
		return playTrack(stdout, o.track, o.seed)
	}
	if o.torture {
		return torture(stdout, o.script, o.seed)
	}
	cfg := game.DefaultConfig()
	cfg.Seed = o.seed
	cfg.Strategies = catalog.All()
	s, err := game.New(cfg)
	if err != nil {
		return err
	}
	k := &soak{o: o, s: s, rng: wire.NewRNG(o.seed ^ 0x50a6), startWall: now(), last: "start", mem: map[string]*memFigures{}}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic at tick %d after %q: %v", k.tick, k.last, r)
		}
	}()
	fmt.Fprintf(stdout, "soak: %d strategies (%s), script %s in a loop, an action every %d ticks, seed %d, for %s\n",
		len(cfg.Strategies), strings.Join(catalog.IDs(), ", "), o.script.Name, o.rotate, o.seed, k.limit())
	fmt.Fprintln(stdout, "  wall     ticks  ticks/s  NaN  max err cm (this period / run)  heap MB  RSS MB  GCs  now")
	nextReport := k.startWall.Add(o.every)
	for {
		k.step()
		byTicks := o.ticks > 0 && k.tick >= o.ticks
		if k.tick%64 != 0 && !byTicks {
			continue // read the clock every 64 ticks only
		}
		t := now()
		done := byTicks || (o.ticks == 0 && t.Sub(k.startWall) >= o.duration)
		if t.After(nextReport) || done {
			k.report(stdout, t)
			nextReport = nextReport.Add(o.every)
		}
		if done {
			break
		}
	}
	fmt.Fprintf(stdout, "soak: %d ticks, %d actions, %d restarts, %d NaN, largest error %.1f cm (%s), RSS %.0f MB at the first report, %.0f MB at the peak\n",
		k.tick, k.actions, k.restarts, k.nan, k.maxErr, k.maxErrAt, k.firstRSS, k.peakRSS)
	if o.mem {
		k.memTable(stdout)
	}
	if o.memProfile != "" {
		if err := writeHeapProfile(o.memProfile); err != nil {
			return err
		}
	}
	if k.nan > 0 {
		return fmt.Errorf("%d ticks held a NaN or an infinity", k.nan)
	}
	return nil
}

func (k *soak) limit() string {
	if k.o.ticks > 0 {
		return strconv.Itoa(k.o.ticks) + " ticks"
	}
	return k.o.duration.String()
}

// step runs one tick, an action first when one is due, and checks it.
// When the script ends the world starts over, as a presenter's F5 does
// (looping the script on the same world would walk the player off the
// grid, hundreds of metres, far beyond any stage).
func (k *soak) step() {
	if k.tick > 0 && k.tick%k.o.rotate == 0 {
		k.act()
	}
	sc := k.o.script
	if k.s.Frame() >= sc.Length {
		k.restart()
	}
	k.s.Step(sc.InputAt(k.s.Frame()))
	k.tick++
	m := k.s.Metrics()
	if hasNaN(k.s, m) {
		k.nan++
	}
	if m.Valid && m.PosMaxCm > k.intErr {
		k.intErr = m.PosMaxCm
	}
	if m.Valid && m.PosMaxCm > k.maxErr {
		st := k.s.Strategy()
		k.maxErr = m.PosMaxCm
		k.maxErrAt = fmt.Sprintf("%s, %s, %s, tick %d", st.ID(), st.Mode(), k.linkName(), k.tick)
	}
}

// restart builds a new session on the same strategies (settings kept),
// the current link and the active strategy, as the app's F5 does.
func (k *soak) restart() {
	cfg := game.DefaultConfig()
	cfg.Seed = k.o.seed
	cfg.Strategies = k.s.Strategies()
	cfg.Start = k.s.StrategyIndex()
	cfg.Link = k.s.Link()
	s, err := game.New(cfg)
	if err != nil {
		panic(err)
	}
	k.s = s
	k.restarts++
}

// linkName names the link conditions now.
func (k *soak) linkName() string {
	c := k.s.Link()
	s := k.preset.String()
	if c.BandwidthKbps > 0 {
		s += fmt.Sprintf(" cap %.0f", c.BandwidthKbps)
	}
	if c.TCPLike {
		s += " TCP-like"
	}
	return s
}

// act does one presenter action, chosen by the seeded generator.
func (k *soak) act() {
	k.actions++
	st := k.s.Strategy()
	switch k.rng.Uint64n(8) {
	case 0:
		i := (k.s.StrategyIndex() + 1) % len(k.s.Strategies())
		if err := k.s.SetStrategy(i); err != nil {
			panic(err)
		}
		k.last = "strategy " + k.s.Strategy().ID()
	case 1, 2:
		cs := st.Controls()
		if len(cs) == 0 {
			k.last = "no control"
			return
		}
		c := &cs[k.rng.Uint64n(uint64(len(cs)))]
		dir := 1
		if k.rng.Uint64n(2) == 0 {
			dir = -1
		}
		k.last = st.ID() + " " + c.Key + ": " + c.Press(dir)
		// As the app does after a strategy key: a key that switches the
		// original demo's modes on or off changes the link they choose.
		k.s.SettingsChanged()
	case 3:
		dir := 1
		if k.rng.Uint64n(3) == 0 {
			dir = -1
		}
		k.last = st.ID() + " sub-mode: " + k.s.SubMode(dir)
	case 4:
		k.preset = (k.preset + 1) % link.NumPresets
		k.s.SetLink(k.preset.Config())
		k.capStep = 0
		k.last = "preset " + k.preset.String()
	case 5:
		k.capStep = (k.capStep + 1) % len(capSteps)
		c := k.s.Link()
		c.BandwidthKbps = capSteps[k.capStep]
		k.s.SetLink(c)
		k.last = "cap " + strconv.FormatFloat(c.BandwidthKbps, 'f', 0, 64)
	case 6:
		c := k.s.Link()
		c.TCPLike = !c.TCPLike
		k.s.SetLink(c)
		k.last = "TCP-like " + strconv.FormatBool(c.TCPLike)
	case 7:
		if k.rng.Uint64n(2) == 0 {
			k.s.Outage(wire.TicksPerSecond)
			k.last = "outage 1 s"
		} else {
			k.s.Restart()
			k.last = "restart the right"
		}
	}
}

// rssMB is the process's resident set in MB (Linux), or NaN.
func rssMB() float64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return math.NaN()
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return math.NaN()
	}
	pages, err := strconv.ParseFloat(f[1], 64)
	if err != nil {
		return math.NaN()
	}
	return pages * float64(os.Getpagesize()) / (1 << 20)
}

func (k *soak) report(w io.Writer, t time.Time) {
	if k.o.mem {
		runtime.GC()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss := rssMB()
	if k.o.mem {
		k.recordMem(float64(ms.HeapAlloc)/(1<<20), rss)
	}
	if k.firstRSS == 0 {
		k.firstRSS = rss
	}
	k.peakRSS = math.Max(k.peakRSS, rss)
	k.lastHeap = float64(ms.HeapAlloc) / (1 << 20)
	elapsed := t.Sub(k.startWall)
	fmt.Fprintf(w, "%6.0fs %9d %8.0f %4d  %10.1f / %-10.1f           %7.1f %7.0f %4d  %s · %s\n",
		elapsed.Seconds(), k.tick, float64(k.tick)/math.Max(elapsed.Seconds(), 1e-3), k.nan,
		k.intErr, k.maxErr, k.lastHeap, rss, ms.NumGC, k.s.Strategy().ID(), k.linkName())
	k.intErr = 0
}

// recordMem adds a report's live heap and resident set (MB) to the active
// strategy's figures.
func (k *soak) recordMem(heap, rss float64) {
	id := k.s.Strategy().ID()
	f := k.mem[id]
	if f == nil {
		f = &memFigures{heapMin: heap, heapMax: heap, rssMin: rss, rssMax: rss}
		k.mem[id] = f
	}
	f.reports++
	f.heapMin, f.heapMax = math.Min(f.heapMin, heap), math.Max(f.heapMax, heap)
	f.rssMin, f.rssMax = math.Min(f.rssMin, rss), math.Max(f.rssMax, rss)
}

// memTable prints the -mem table: per strategy of the catalog, in menu
// order, the live heap and the resident set over the reports it was
// active in.
func (k *soak) memTable(w io.Writer) {
	fmt.Fprintln(w, "memory per strategy active at a report (after a forced collection):")
	fmt.Fprintln(w, "  strategy       reports  live heap MB  resident MB")
	for _, st := range k.s.Strategies() {
		f := k.mem[st.ID()]
		if f == nil {
			fmt.Fprintf(w, "  %-13s  %7d  %12s  %11s\n", st.ID(), 0, "-", "-")
			continue
		}
		fmt.Fprintf(w, "  %-13s  %7d  %5.0f - %-4.0f  %4.0f - %-4.0f\n", st.ID(), f.reports, f.heapMin, f.heapMax, f.rssMin, f.rssMax)
	}
}

// writeHeapProfile writes a heap profile of the live objects to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
