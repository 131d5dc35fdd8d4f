// Package ui is the desktop app: an ebiten.Game that turns keys into
// session settings, steps the session once per tick, and draws both views,
// the HUD, the graphs and the help overlay; it also plays the sounds.
//
// The simulation lives in package game and knows nothing of this package;
// the app only calls its setters between ticks and reads its views and
// metrics, so Draw can never change the simulation.
package ui

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/render"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Options configure the app; main fills them from flags.
type Options struct {
	// Session is the session's configuration; its Strategies are the menu
	// (the number keys), built once by the caller (catalog.All) and kept,
	// settings and all, across restarts (F5). Session.Start is the entry
	// to start with.
	Session game.Config
	// Preset is the name shown for the starting link conditions ("" =
	// custom); Presets, when set, are each client's (-preset a,b,c).
	Preset  string
	Presets []string
	Script  *cubes.Script // played from frame 0 when not nil
	// RecordPath is where the run's inputs are recorded, in the script
	// format: saved every second as the run goes and once more on exit
	// (cubes.SaveScript replaces the file atomically).
	RecordPath string
	// Stop, when closed, ends the run at the next tick as Ctrl+Q does
	// (main closes it on SIGINT, SIGTERM and SIGHUP).
	Stop       <-chan struct{}
	Fullscreen bool
	Screenshot string // PNG written after Frames ticks, then exit
	Frames     int    // ticks to run (0 = until closed)
	NoAudio    bool
	TextScale  float64
	// NoAntiAlias draws hard edges: much cheaper on software OpenGL.
	NoAntiAlias bool
	// Show is what the presenter sees at start (the -show flag): the
	// overlays and the help. Zero value: the ghost only (see ParseShow).
	Show Show
	// Connect is the left's address a right process connects to (shown on
	// the HUD); Session.Role and Session.Net set up the two-process mode.
	Connect string
}

// Show is the starting state of the toggles G, T, E, H and F3.
type Show struct {
	NoGhost bool
	Tint    render.TintMode
	Offsets bool
	Help    bool
	Chart   bool
}

// showWords are the words of -show, in the order the usage lists them.
var showWords = []string{"help", "priority", "updated", "offsets", "no-ghost", "chart"}

// ParseShow reads a comma-separated -show list: help (the key list),
// priority or updated (the T tints), offsets (E), no-ghost (G off), chart
// (the comparison chart, F3).
func ParseShow(list string) (Show, error) {
	var sh Show
	if list == "" {
		return sh, nil
	}
	for _, w := range strings.Split(list, ",") {
		switch strings.TrimSpace(w) {
		case "help":
			sh.Help = true
		case "priority":
			sh.Tint = render.TintPriority
		case "updated":
			sh.Tint = render.TintUpdated
		case "offsets":
			sh.Offsets = true
		case "no-ghost":
			sh.NoGhost = true
		case "chart":
			sh.Chart = true
		default:
			return sh, UsageError(fmt.Sprintf("unknown -show item %q (items: %s)", w, strings.Join(showWords, ", ")))
		}
	}
	return sh, nil
}

// App is the ebiten.Game.
type App struct {
	opts     Options
	sess     *game.Session
	left     *render.View
	right    *render.View
	fonts    *fonts
	snd      *sounds
	mesh     meshDrawer
	kbps     *series
	overlays render.Overlays
	entry    int       // the active strategy's index in the list
	binds    []binding // the key table

	paused, slow bool
	stepOnce     bool
	slowPhase    int
	help         bool

	// The comparison chart (chart.go): the points of what was shown, and
	// whether the chart is on screen (F3).
	compare *viewmodel.Comparison
	chart   bool

	scriptOn    bool
	scriptStart int // session frame at which the script's frame 0 played
	recorder    *cubes.Recorder
	recSaved    int  // frames in the last saved recording
	recFailed   bool // the last save failed (said once)

	links       []linkChoice // each client's link conditions, as chosen
	outageStart int          // tick the outage key went down, −1 when up

	epoch uint32 // sessions started (a left's restart starts its right over)
	ticks int    // Update calls

	// Slow drawing (slowdraw.go): ticks reached per second of wall time.
	slowW       slowWatch
	sampleAt    time.Time
	sampleTicks int

	shotDone bool
	err      error
	quit     bool

	note      string // transient message after a key ("level 9: delta position")
	noteTicks int
	timeline  []viewmodel.PacketRecord
	lastBlow  bool

	// The stage (stage.go): the caption of what just happened, the links
	// restored after leaving a strategy that chose its own, the fence at
	// the field's edge, the scene each strategy starts from (Home).
	captions      game.Captions
	restoredTicks int
	fenced        bool
	start         []strategy.Strategy // each entry's settings at start, to clone from
	startLinks    []linkChoice
	winW, winH    int // the window's size at the last Layout
	scaleSaid     bool
	laidOut       laidOut // the size a shrunk HUD layout found (hud.go)
}

// NewApp creates the app and its first session.
func NewApp(o Options) (*App, error) {
	f, err := loadFonts()
	if err != nil {
		return nil, err
	}
	if o.TextScale > 0 {
		f.scale = o.TextScale
	}
	a := &App{
		opts:        o,
		left:        render.NewView(),
		right:       render.NewView(),
		fonts:       f,
		snd:         newSounds(o.NoAudio),
		kbps:        newSeries(10 * wire.TicksPerSecond),
		entry:       o.Session.Start,
		binds:       buildBindings(o.Session.Strategies),
		outageStart: -1,
		overlays:    render.Overlays{Ghost: !o.Show.NoGhost, Tint: o.Show.Tint, ErrorOffsets: o.Show.Offsets},
		help:        o.Show.Help,
		compare:     viewmodel.NewComparison(viewmodel.DefaultCompareConfig()),
		chart:       o.Show.Chart,
	}
	for _, st := range o.Session.Strategies {
		// The scene each entry starts from (Home): its settings now, the
		// defaults and the command line's flags.
		a.start = append(a.start, st.Clone())
	}
	a.setAntiAlias(!o.NoAntiAlias)
	a.links = []linkChoice{choiceOf(o.Preset)}
	for k, name := range o.Presets {
		if k == 0 {
			a.links[0] = choiceOf(name)
			continue
		}
		a.links = append(a.links, choiceOf(name))
	}
	a.startLinks = append([]linkChoice(nil), a.links...)
	if o.RecordPath != "" {
		a.recorder = cubes.NewRecorder("recorded")
	}
	if err := a.restart(); err != nil {
		return nil, err
	}
	return a, nil
}

// restart builds a fresh session: the left world back at frame 0, the
// script from its start, the current strategy entry and link conditions.
func (a *App) restart() error { return a.newSession(false) }

// newSession builds a fresh session (restart); fromStart puts the links
// back to those the app started with, a strategy's own link chosen over
// them (the scene, Home).
func (a *App) newSession(fromStart bool) error {
	cfg := a.opts.Session
	cfg.Start = a.entry
	a.epoch++
	cfg.Epoch = a.epoch
	if fromStart {
		cfg.World.Players = a.sess.NumPlayers()
		cfg.ChosenLink = true
	} else if a.sess != nil {
		// The players and every client's link carry over a reset; a link a
		// strategy chose (lockstep's modes), still as it chose it, is
		// chosen again over the presenter's own, which leaving the
		// strategy brings back.
		cfg.Link, cfg.Up = a.sess.Link(), nil
		if l := a.sess.Links(); !l.IsSymmetric() {
			cfg.Up = &l.Up
		}
		cfg.ClientLinks = a.sess.ClientLinks()
		if before := a.sess.LinksBefore(); before != nil && a.sess.LinkSource() != "" {
			cfg.Link, cfg.Up, cfg.ClientLinks, cfg.ChosenLink = before[0].Down, nil, before[1:], true
			if !before[0].IsSymmetric() {
				cfg.Up = &before[0].Up
			}
		}
		cfg.World.Players = a.sess.NumPlayers()
	}
	s, err := game.New(cfg)
	if err != nil {
		return err
	}
	if a.recorder != nil && a.sess != nil {
		// A recording replays the world on screen from frame 0, so it
		// starts over with the world (the file keeps the previous run
		// until the next save).
		a.recorder = cubes.NewRecorder("recorded")
		a.recSaved = -1
	}
	a.sess = s
	a.compare.Break() // the world starts over: a new showing
	a.scriptOn = a.opts.Script != nil
	a.scriptStart = 0
	a.captions.Reset()
	a.restoredTicks = 0
	a.resetViews()
	return nil
}

// resetViews starts both views' easing over on the session's views as
// they are now, so a reset, a switch or a scene drawn while paused shows
// the world at once rather than an empty field until the next step.
func (a *App) resetViews() {
	a.sess.Refresh()
	a.left.Reset()
	a.right.Reset()
	a.left.Tick(a.sess.LeftView())
	a.right.Tick(a.sess.RightView())
	a.kbps.clear()
}

// setAntiAlias turns edge smoothing on or off for every drawing.
func (a *App) setAntiAlias(on bool) {
	a.left.AntiAlias, a.right.AntiAlias, a.mesh.antiAlias = on, on, on
}

// Err returns the first error that stopped the app.
func (a *App) Err() error { return a.err }

// Recording returns the inputs recorded so far (nil without -record).
func (a *App) Recording() *cubes.Script {
	if a.recorder == nil {
		return nil
	}
	return a.recorder.Script()
}

// recordSaveTicks is how often the recording is saved as the run goes: a
// kill loses at most this much of it.
const recordSaveTicks = wire.TicksPerSecond

// SaveRecording saves the recording to Options.RecordPath if anything was
// recorded since the last save, and returns the number of frames saved
// (0 without -record).
func (a *App) SaveRecording() (frames int, err error) {
	if a.recorder == nil {
		return 0, nil
	}
	n := a.recorder.Frames()
	if n == a.recSaved {
		return n, nil
	}
	if err := saveScript(a.opts.RecordPath, a.recorder.Script()); err != nil {
		return a.recSaved, err
	}
	a.recSaved = n
	return n, nil
}

// saveAsWeGo saves the recording every recordSaveTicks recorded frames; a
// failure is said once on the HUD (the talk goes on) and retried.
func (a *App) saveAsWeGo() {
	if a.recorder == nil || a.recorder.Frames()%recordSaveTicks != 0 {
		return
	}
	_, err := a.SaveRecording()
	if err != nil && !a.recFailed {
		a.say("recording: cannot save: %v", err)
	}
	a.recFailed = err != nil
}

// say shows a short message for two seconds.
func (a *App) say(format string, args ...any) {
	a.note = fmt.Sprintf(format, args...)
	a.noteTicks = 2 * wire.TicksPerSecond
	a.snd.clickSound()
}

// watchDrawing measures, once a second of wall time, how many ticks the
// app reached, and takes the cheaper drawing path when drawing holds the
// simulation back (slowdraw.go). It changes how the app draws, never what
// it simulates.
func (a *App) watchDrawing() {
	now := time.Now()
	if a.sampleAt.IsZero() {
		a.sampleAt, a.sampleTicks = now, a.ticks
		return
	}
	dt := now.Sub(a.sampleAt).Seconds()
	if dt < 1 {
		return
	}
	tps := float64(a.ticks-a.sampleTicks) / dt
	a.sampleAt, a.sampleTicks = now, a.ticks
	act := a.slowW.observe(tps, a.left.AntiAlias)
	if act == slowAntiAliasOff {
		a.setAntiAlias(false)
	}
	if n := slowNote(act, tps); n != "" {
		a.say("%s", n)
		a.noteTicks = 5 * wire.TicksPerSecond
	}
}

// Update runs one 1/60 s tick: keys, then at most one session step.
func (a *App) Update() error {
	defer func() {
		// A crash keeps what was recorded up to it.
		if r := recover(); r != nil {
			_, _ = a.SaveRecording()
			panic(r)
		}
	}()
	if a.err != nil {
		return a.err
	}
	if a.quit {
		return ebiten.Termination
	}
	select {
	case <-a.opts.Stop:
		return ebiten.Termination
	default:
	}
	if a.opts.Frames > 0 && a.ticks >= a.opts.Frames {
		// Wait for Draw to have saved the screenshot of exactly this tick.
		if a.opts.Screenshot == "" || a.shotDone {
			return ebiten.Termination
		}
		return nil
	}
	a.ticks++
	if a.opts.Screenshot == "" {
		// A screenshot's ticks run as fast as the machine draws, not in
		// real time: its pace says nothing about the stage, and the
		// picture must not depend on the machine's load.
		a.watchDrawing()
	}
	a.sayShownScale()
	a.handleKeys()
	if a.noteTicks > 0 {
		a.noteTicks--
	}
	if a.restoredTicks > 0 {
		a.restoredTicks--
	}
	if a.err != nil {
		return a.err
	}
	if a.paused && !a.stepOnce {
		return nil
	}
	if a.slow && !a.stepOnce {
		// Slow motion: one simulation tick every four.
		a.slowPhase = (a.slowPhase + 1) % 4
		if a.slowPhase != 0 {
			return nil
		}
	}
	a.stepOnce = false
	a.step()
	return nil
}

// step advances the session by one tick with the script's or the
// keyboard's input.
func (a *App) step() {
	live := keyboardInput()
	if a.scriptOn && live != (cubes.Input{}) {
		// The presenter takes over from the script.
		a.scriptOn = false
		a.say("script stopped: you have the controls")
	}
	ins := cubes.Inputs{live}
	given := uint8(1)
	if a.scriptOn {
		// The script drives player 1 and every player it has lines for;
		// the bots drive the rest.
		sc := a.opts.Script
		f := a.sess.Frame() - a.scriptStart
		for p := range a.sess.NumPlayers() {
			if sc.Drives(p) {
				ins[p] = sc.PlayerInputAt(p, f)
				given |= 1 << p
			}
		}
		if f >= sc.Length {
			a.scriptOn = false
		}
	}
	if given&1 != 0 && !a.scriptOn {
		// The presenter's own keys stop at the field's edge.
		ins[0] = a.keepOnField(ins[0])
	}
	in := ins[0]
	a.sess.StepPlayers(&ins, given)
	a.compare.Add(a.shown(), a.sess.Metrics())
	a.captions.Observe(a.sess)
	a.netEvents()
	if a.recorder != nil {
		used := a.sess.PlayerInputs()
		a.recorder.AddAll(&used, a.sess.NumPlayers())
		a.saveAsWeGo()
	}
	if in.Blow && !a.lastBlow {
		a.snd.blowSound()
	}
	a.lastBlow = in.Blow
	a.snd.tick(a.sess)
	a.left.Tick(a.sess.LeftView())
	a.right.Tick(a.sess.RightView())
	a.kbps.push(a.sess.Metrics().SentKbps)
}

// keyboardInput reads the movement keys (arrows, Space, Z as in the
// original demo).
func keyboardInput() cubes.Input {
	p := ebiten.IsKeyPressed
	return cubes.Input{
		Left:     p(ebiten.KeyArrowLeft),
		Right:    p(ebiten.KeyArrowRight),
		Up:       p(ebiten.KeyArrowUp),
		Down:     p(ebiten.KeyArrowDown),
		Blow:     p(ebiten.KeySpace),
		Katamari: p(ebiten.KeyZ),
	}
}

func (a *App) handleKeys() { a.handleKeysFrom(ebitenKeys{}) }

// handleKeysFrom runs every binding that fires in ks this tick.
func (a *App) handleKeysFrom(ks keyState) {
	for _, b := range a.binds {
		if b.hold != nil {
			for _, k := range b.keys {
				if ks.JustPressed(k) {
					b.hold(a, true)
				}
				if ks.JustReleased(k) {
					b.hold(a, false)
				}
			}
			continue
		}
		if b.do != nil && b.matches(ks) && !a.refuseOnRight(&b) {
			b.do(a)
		}
	}
}

// Layout uses the window's size in device-independent pixels (and keeps it
// for the notes that say what text scale it allows).
func (a *App) Layout(w, h int) (int, int) {
	a.winW, a.winH = w, h
	return w, h
}

// Draw renders the frame. It reads the session and never changes it.
func (a *App) Draw(screen *ebiten.Image) {
	screen.Fill(colBackdrop)
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	l := a.layout(w, h)
	lr, rr := a.viewRects(w, h, l.topH, l.botH)
	if !lr.Empty() {
		a.left.Draw(screen, lr, a.sess.LeftView(), nil, render.Overlays{})
	}
	if !rr.Empty() {
		a.right.Draw(screen, rr, a.sess.RightView(), a.sess.GhostView(), a.overlays)
	}
	a.drawHUD(screen, l, lr, rr)
	if a.chart {
		a.drawChart(screen, l, chartRect(l, lr, rr))
	}
	if a.help {
		a.drawHelp(screen, l)
	}
	if a.opts.Screenshot != "" && a.ticks == a.opts.Frames && !a.shotDone {
		if err := savePNG(screen, a.opts.Screenshot); err != nil {
			a.err = err
		}
		a.shotDone = true
	}
}

// savePNG writes the screen's pixels to path.
func savePNG(screen *ebiten.Image, path string) error {
	img := image.NewRGBA(screen.Bounds())
	screen.ReadPixels(img.Pix)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Run opens the window and runs the app until it is closed or quit.
func Run(o Options) (*App, error) {
	a, err := NewApp(o)
	if err != nil {
		return nil, err
	}
	ebiten.SetWindowTitle("netcubes: networked physics, side by side")
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetFullscreen(o.Fullscreen)
	ebiten.SetScreenClearedEveryFrame(false)
	if err := ebiten.RunGame(platformGame(a)); err != nil && !errors.Is(err, ebiten.Termination) {
		return a, err
	}
	return a, a.err
}
