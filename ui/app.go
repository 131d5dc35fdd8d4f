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
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/control"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/render"
	"netcubes/strategy"
	"netcubes/talk"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Options configure the app; main fills them from flags.
type Options struct {
	// Session is the session's configuration; its Strategies are the menu
	// (the number keys), built by the caller (catalog.All) with the
	// command line's settings. Session.Start is the entry to start with.
	Session game.Config
	// Fresh builds new instances of the menu's strategies (nil:
	// catalog.All); every session the app builds gets fresh ones with the
	// settings copied over (package track).
	Fresh func() []strategy.Strategy
	// Preset is the name shown for the starting link conditions ("" =
	// custom numbers); Custom says they were adjusted away from Preset;
	// Presets, when set, are each client's (-preset a,b,c).
	Preset  string
	Custom  bool
	Presets []string
	// Settings are the strategy flags the command line gave (a
	// recording's header repeats them).
	Settings []control.Setting
	// Track is played from frame 0 when not nil: a script of keys, or a
	// talk track with commands and captions.
	Track *talk.Track
	// RecordPath is where the run is recorded, as a track: saved every
	// second as the run goes and once more on exit (cubes.SaveText
	// replaces the file atomically).
	RecordPath string
	// Stop, when closed, ends the run at the next tick as Ctrl+Q does
	// (main closes it on SIGINT, SIGTERM and SIGHUP).
	Stop       <-chan struct{}
	Fullscreen bool
	Screenshot string // PNG written after Frames ticks, then exit
	Frames     int    // ticks to run (0 = until closed, or with a capture until the track ends)
	// Capture renders every tick to numbered PNGs, a video or a GIF
	// (capture.go); Width and Height are then the size drawn, whatever
	// the window's.
	Capture       Capture
	Width, Height int
	NoAudio       bool
	TextScale     float64
	// NoAntiAlias draws hard edges: much cheaper on software OpenGL.
	NoAntiAlias bool
	// Show is what the presenter sees at start (the -show flag): the
	// overlays and the help. Zero value: the ghost only (see ParseShow).
	Show Show
	// Connect is the left's address a right process connects to (shown on
	// the HUD); Session.Role and Session.Net set up the two-process mode.
	Connect string
	// NetLog, when set, gets the two-process connection's events too (the
	// app passes stderr): a refusal is read whole in the terminal.
	NetLog io.Writer
	// Room is the classroom this process hosts or joined (room.go).
	Room Room
}

// Show is the starting state of the toggles G, T, E, H and F3.
type Show struct {
	NoGhost bool
	Tint    render.TintMode
	Offsets bool
	Help    bool
	Chart   bool
	Grid    bool
}

// showWords are the words of -show, in the order the usage lists them.
var showWords = []string{"help", "priority", "updated", "offsets", "no-ghost", "chart", "grid"}

// ParseShow reads a comma-separated -show list: help (the key list),
// priority or updated (the T tints), offsets (E), no-ghost (G off), chart
// (the comparison chart, F3), grid (the server and up to four clients at
// once, 0).
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
		case "grid":
			sh.Grid = true
		default:
			return sh, UsageError(fmt.Sprintf("unknown -show item %q (items: %s)", w, strings.Join(showWords, ", ")))
		}
	}
	return sh, nil
}

// App is the ebiten.Game.
type App struct {
	opts  Options
	d     *control.Director
	left  *render.View
	right *render.View
	// reportV draws, on a classroom's host, the view the shown client
	// reported (room.go); made when first drawn.
	reportV *render.View
	fonts   *fonts
	snd     *sounds
	mesh    meshDrawer
	binds   []binding // the key table

	// What the director shows, taken once a tick after the keys and the
	// step (sync), so Draw reads one consistent state.
	sess      *game.Session
	overlays  render.Overlays
	help      bool
	helpPage  int            // the help's page shown (help.go)
	helpCache helpPagesCache // its pages, dealt once per window size
	// captionStrips are the grid's figure strips and cell labels as this
	// frame draws them: the track's caption keeps clear of them (none: no
	// grid).
	captionStrips []image.Rectangle
	chart         bool
	gridS         gridState // the grid view (grid.go)
	compare       *viewmodel.Comparison
	captions      *game.Captions
	kbps          *control.Series
	gen           int // the director's generation the views were reset for

	// roomTable and roomReported are the room host's table and reported
	// view as this frame lays them out, which the captions keep clear of
	// (empty elsewhere).
	roomTable, roomReported image.Rectangle
	roomCaptioned           bool // a track's caption took the reported view's place

	recSaved  int  // the log's changes at the last save
	recFailed bool // the last save failed (said once)

	ticks int // Update calls
	// stamp counts the Updates and the changes of session (sync): the
	// views' render.View.Stamp, so a frame drawn between two ticks reuses
	// their triangles.
	stamp uint64

	// Slow drawing (slowdraw.go): ticks reached per second of wall time.
	slowW       slowWatch
	sampleAt    time.Time
	sampleTicks int

	shotDone bool
	cap      *capturer // capture.go; nil without -capture or -video
	err      error
	quit     bool

	note      string // transient message after a key ("level 9: delta position")
	noteTicks int
	lastBlow  bool

	// topKey holds the top bar's key (topBarKey), kept from frame to frame.
	topKey []byte

	// split, when set, times the parts of each Draw (the benchmarks).
	split *drawSplit

	winW, winH int // the window's size at the last Layout
	scaleSaid  bool
	laidOut    laidOut // the size a shrunk HUD layout found (hud.go)

	// The HUD of this tick (hudmodel.go), and the facts it was worded
	// from (kept for their arrays).
	facts viewmodel.Facts
	hud   viewmodel.HUD
	// The grid's strips, one per client of the page (empty: no grid).
	strips    []viewmodel.Strip
	gridFacts viewmodel.Facts
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
		opts:  o,
		left:  render.NewView(),
		right: render.NewView(),
		fonts: f,
		snd:   newSounds(o.NoAudio),
		binds: buildBindings(o.Session.Strategies),
		gen:   -1,
	}
	a.setAntiAlias(!o.NoAntiAlias)
	d, err := control.New(control.Options{
		Config: o.Session, Fresh: o.Fresh,
		Preset: o.Preset, Custom: o.Custom, Presets: o.Presets,
		Settings: o.Settings, Track: o.Track,
		View: control.View{NoGhost: o.Show.NoGhost, Tint: int(o.Show.Tint), Offsets: o.Show.Offsets,
			Chart: o.Show.Chart, Help: o.Show.Help, Grid: o.Show.Grid},
		Unattended: o.Capture.On(),
		Say:        func(s string) { a.say("%s", s) },
	})
	if err != nil {
		return nil, err
	}
	a.d = d
	d.OnStep = a.stepped
	d.SetWorkBudget(jumpBudget)
	a.recSaved = -1
	a.sync()
	return a, nil
}

// jumpBudget is the time a tick spends re-simulating when the presenter
// goes back in time: the app keeps drawing (the old frame and the
// progress) at about 20 frames a second meanwhile.
const jumpBudget = 40 * time.Millisecond

// sync takes what the director shows now, and starts the views over when
// the director says they must (a new session, another strategy or client,
// a jump in time).
func (a *App) sync() {
	a.stamp++
	d := a.d
	a.sess = d.Session()
	v := d.View()
	a.overlays = render.Overlays{Ghost: !v.NoGhost, Tint: render.TintMode(v.Tint), ErrorOffsets: v.Offsets}
	a.help, a.chart, a.gridS.on = v.Help, v.Chart, v.Grid
	if !a.help {
		a.helpPage = 0
	}
	a.compare, a.captions, a.kbps = d.Compare(), d.Captions(), d.Kbps()
	if g := d.Generation(); g != a.gen {
		a.gen = g
		a.resetViews()
		a.gridS.sess = nil // the grid's views start over too
	}
	a.syncGrid()
	a.buildHUD()
}

// resetViews starts both views' easing over on the session's views as
// they are now, so a reset, a switch or a scene drawn while paused shows
// the world at once rather than an empty field until the next step.
func (a *App) resetViews() {
	a.left.Reset()
	a.right.Reset()
	a.left.Tick(a.sess.LeftView())
	a.right.Tick(a.sess.RightView())
}

// stepped is called after every frame the director steps: the sounds, the
// views' easing, the connection's notes, the recording. Frames
// re-simulated to go back in time are not heard or seen (the views start
// over when the jump is done).
func (a *App) stepped(resim bool) {
	if resim {
		return
	}
	s := a.d.Session()
	a.sess = s
	a.netEvents()
	in := s.PlayerInputs()[0]
	if in.Blow && !a.lastBlow {
		a.snd.blowSound()
	}
	a.lastBlow = in.Blow
	a.snd.tick(s)
	a.left.Tick(s.LeftView())
	a.right.Tick(s.RightView())
	if a.reportV != nil {
		if v, ok := s.ReportView(s.Shown()); ok {
			a.reportV.Tick(v)
		}
	}
	a.tickGrid()
	a.saveAsWeGo()
}

// setAntiAlias turns edge smoothing on or off for every drawing.
func (a *App) setAntiAlias(on bool) {
	a.left.AntiAlias, a.right.AntiAlias, a.mesh.antiAlias = on, on, on
	for _, v := range a.gridS.views {
		if v != nil {
			v.AntiAlias = on
		}
	}
}

// Recording returns the run recorded so far as a track (nil without
// -record).
func (a *App) Recording() *talk.Track {
	if a.opts.RecordPath == "" {
		return nil
	}
	return a.d.Recording(filepath.Base(a.opts.RecordPath))
}

// recordSaveTicks is how often the recording is saved as the run goes: a
// kill loses at most this much of it.
const recordSaveTicks = wire.TicksPerSecond

// SaveRecording saves the recording to Options.RecordPath if anything was
// recorded since the last save, and returns the number of frames saved
// (0 without -record).
func (a *App) SaveRecording() (frames int, err error) {
	if a.opts.RecordPath == "" {
		return 0, nil
	}
	n := a.d.Log().Frames()
	if ch := a.d.Log().Changes(); ch != a.recSaved {
		if err := saveScript(a.opts.RecordPath, a.Recording()); err != nil {
			return 0, err
		}
		a.recSaved = ch
	}
	return n, nil
}

// saveAsWeGo saves the recording every recordSaveTicks frames; a failure
// is said once on the HUD (the talk goes on) and retried.
func (a *App) saveAsWeGo() {
	if a.opts.RecordPath == "" || a.d.Log().Frames()%recordSaveTicks != 0 {
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
// it simulates; a run drawn off line (a screenshot, a capture) is not
// watched, so it draws the same whatever the machine's pace.
func (a *App) watchDrawing() {
	if a.opts.Screenshot != "" || a.cap != nil {
		return
	}
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

// Update runs one 1/60 s tick: keys, then the director's tick (at most one
// session step).
func (a *App) Update() error {
	defer func() {
		// A crash keeps what was recorded up to it.
		if r := recover(); r != nil {
			_, _ = a.SaveRecording()
			panic(r)
		}
	}()
	// Whatever an Update does may change what the views show.
	a.stamp++
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
	if a.cap != nil {
		// A capture draws every tick: wait for Draw to have taken the last.
		if a.cap.taken < a.ticks {
			return nil
		}
		if a.captureDone() {
			return ebiten.Termination
		}
	}
	if a.opts.Frames > 0 && a.ticks >= a.opts.Frames {
		// Wait for Draw to have saved the screenshot of exactly this tick.
		if a.opts.Screenshot == "" || a.shotDone {
			return ebiten.Termination
		}
		return nil
	}
	a.tick()
	return a.err
}

// tick is one tick of the app: the keys, then the director's.
func (a *App) tick() {
	a.ticks++
	if a.opts.Screenshot == "" && !a.opts.Capture.On() {
		// A screenshot's or a capture's ticks run as fast as the machine draws, not in
		// real time: its pace says nothing about the stage, and the
		// picture must not depend on the machine's load.
		a.watchDrawing()
		// A right process reports its machine's pace to its left (the
		// host's table); nothing simulated reads it.
		if a.sess != nil {
			a.sess.SetLocalRates(ebiten.ActualTPS(), ebiten.ActualFPS())
		}
	}
	a.sayShownScale()
	a.handleKeys()
	if a.noteTicks > 0 {
		a.noteTicks--
	}
	if a.err != nil {
		return
	}
	a.d.Tick(keyboardInput())
	a.sync()
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
	if a.d != nil {
		a.sync()
	}
}

// Layout uses the window's size in device-independent pixels (and keeps it
// for the notes that say what text scale it allows).
func (a *App) Layout(w, h int) (int, int) {
	if a.cap != nil {
		// A capture draws at its own size, whatever the window's.
		w, h = a.opts.Width, a.opts.Height
	}
	a.winW, a.winH = w, h
	return w, h
}

// Draw renders the frame. It reads the session and never changes it.
func (a *App) Draw(screen *ebiten.Image) {
	// A picture the app writes draws its text directly: a capture's frame
	// and a screenshot of the same tick must be the same pixels, whatever
	// runs the text cache held (textcache.go).
	texts.Off = a.opts.Screenshot != "" || a.opts.Capture.On()
	texts.nextFrame()
	frameTexts.reset()
	a.split.start()
	screen.Fill(backdrop)
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	l := a.layout(w, h)
	a.split.lap(splitHUD)
	var avoid image.Rectangle
	lr, rr := a.viewRects(w, h, l.topH, l.botH)
	// Between two Updates nothing the views show changes: a frame drawn
	// then reuses their triangles (render.View.Stamp).
	a.left.Stamp, a.right.Stamp = a.stamp, a.stamp
	if len(a.strips) > 0 {
		// The grid: the server and the page's clients, each with its strip.
		var cells []gridCell
		lr, cells = a.drawGridViews(screen, l)
		rr = image.Rectangle{}
		for _, c := range cells {
			rr = rr.Union(c.r) // the captions run across every view
		}
		a.captionStrips = captionKeepOut(l, cells)
		a.roomTable, a.roomReported = a.roomKeepOut(l, roomView(lr, rr))
		a.roomCaptioned = false
		avoid = a.drawHUD(screen, l, lr, rr)
		a.drawGridHUD(screen, l, cells)
		for _, c := range cells {
			if c.r.Max.Y == rr.Max.Y {
				// The note, above the bottom panel, keeps clear of the
				// bottom row's strips.
				avoid = avoid.Union(c.stripRect())
			}
		}
	} else {
		a.captionStrips = a.captionStrips[:0]
		if !rr.Empty() {
			// On another core while the left view is drawn.
			a.right.Prepare(rr, a.sess.RightView(), a.sess.GhostView(), a.overlays)
		}
		if !lr.Empty() {
			a.left.Draw(screen, lr, a.sess.LeftView(), nil, render.Overlays{})
		}
		if !rr.Empty() {
			a.right.Draw(screen, rr, a.sess.RightView(), a.sess.GhostView(), a.overlays)
			a.drawJoining(screen, rr)
		}
		a.split.lap(splitViews)
		a.roomTable, a.roomReported = a.roomKeepOut(l, roomView(lr, rr))
		a.roomCaptioned = false
		avoid = a.drawHUD(screen, l, lr, rr)
		a.split.lap(splitHUD)
	}
	a.drawRoom(screen, l, roomView(lr, rr))
	if a.chart {
		a.drawChart(screen, l, chartRect(l, lr, rr))
	}
	if a.help {
		a.drawHelp(screen, l)
	}
	// The note last: a key pressed while the help is open still says what
	// it did.
	a.drawNote(screen, l, avoid)
	a.split.lap(splitRest)
	if a.opts.Screenshot != "" && a.ticks == a.opts.Frames && !a.shotDone {
		if err := savePNG(screen, a.opts.Screenshot); err != nil {
			a.err = err
		}
		a.shotDone = true
	}
	if a.cap != nil && a.cap.taken < a.ticks {
		a.captureFrame(screen)
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
	if err := a.startCapture(); err != nil {
		return a, err
	}
	if err := ebiten.RunGame(platformGame(a)); err != nil && !errors.Is(err, ebiten.Termination) {
		return a, err
	}
	return a, a.err
}

// drawSplit is the time of one Draw's parts, for the benchmarks' share of
// each: the two views (their triangles and their handing to Ebitengine),
// the HUD (the backdrop's fill, the layout, the bars, the views' labels,
// captions and legend),
// and the rest (the chart, the help, the note, a screenshot). Nil: not
// timed.
type drawSplit struct {
	parts [numSplits]time.Duration
	t     time.Time
}

// The parts of a Draw.
const (
	splitViews = iota
	splitHUD
	splitRest
	numSplits
)

// start starts a Draw's timing.
func (s *drawSplit) start() {
	if s != nil {
		*s = drawSplit{t: time.Now()}
	}
}

// lap adds the time since the last lap to part.
func (s *drawSplit) lap(part int) {
	if s != nil {
		now := time.Now()
		s.parts[part] += now.Sub(s.t)
		s.t = now
	}
}
