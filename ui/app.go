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

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/net"
	"netcubes/render"
)

// Options configure the app; main fills them from flags.
type Options struct {
	Session game.Config
	// Entry is the strategy menu entry to start with (see entries).
	Entry int
	// Setup, when not nil, adjusts the session after each (re)start, e.g.
	// the compression level given on the command line.
	Setup func(*game.Session) error
	// Preset is the name shown for the starting link conditions ("" =
	// custom).
	Preset     string
	Script     *cubes.Script // played from frame 0 when not nil
	RecordPath string        // the inputs of the run are written here on exit
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
}

// Show is the starting state of the toggles G, T, E and H.
type Show struct {
	NoGhost bool
	Tint    render.TintMode
	Offsets bool
	Help    bool
}

// showWords are the words of -show, in the order the usage lists them.
var showWords = []string{"help", "priority", "updated", "offsets", "no-ghost"}

// ParseShow reads a comma-separated -show list: help (the key list),
// priority or updated (the T tints), offsets (E), no-ghost (G off).
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
	entry    int

	paused, slow bool
	stepOnce     bool
	slowPhase    int
	help         bool

	scriptOn    bool
	scriptStart int // session frame at which the script's frame 0 played
	recorder    *cubes.Recorder

	preset      int  // index into the link presets
	custom      bool // link numbers adjusted away from the preset
	outageStart int  // tick the outage key went down, −1 when up

	ticks    int // Update calls
	shotDone bool
	err      error
	quit     bool

	note      string // transient message after a key ("level 9: delta position")
	noteTicks int
	timeline  []game.PacketRecord
	lastBlow  bool
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
		kbps:        newSeries(10 * net.TicksPerSecond),
		entry:       o.Entry,
		outageStart: -1,
		overlays:    render.Overlays{Ghost: !o.Show.NoGhost, Tint: o.Show.Tint, ErrorOffsets: o.Show.Offsets},
		help:        o.Show.Help,
	}
	a.setAntiAlias(!o.NoAntiAlias)
	a.preset = -1
	for p := net.LinkPreset(0); p < net.NumLinkPresets; p++ {
		if p.String() == o.Preset {
			a.preset = int(p)
		}
	}
	a.custom = a.preset < 0
	if a.preset < 0 {
		a.preset = 0
	}
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
func (a *App) restart() error {
	cfg := a.opts.Session
	if a.sess != nil {
		cfg.Link = a.sess.Link()
	}
	s, err := game.New(cfg)
	if err != nil {
		return err
	}
	a.sess = s
	if err := entries[a.entry].apply(s); err != nil {
		return err
	}
	if a.opts.Setup != nil {
		if err := a.opts.Setup(s); err != nil {
			return err
		}
	}
	a.scriptOn = a.opts.Script != nil
	a.scriptStart = 0
	a.left.Reset()
	a.right.Reset()
	a.kbps.clear()
	return nil
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

// say shows a short message for two seconds.
func (a *App) say(format string, args ...any) {
	a.note = fmt.Sprintf(format, args...)
	a.noteTicks = 2 * net.TicksPerSecond
	a.snd.clickSound()
}

// Update runs one 1/60 s tick: keys, then at most one session step.
func (a *App) Update() error {
	if a.err != nil {
		return a.err
	}
	if a.quit {
		return ebiten.Termination
	}
	if a.opts.Frames > 0 && a.ticks >= a.opts.Frames {
		// Wait for Draw to have saved the screenshot of exactly this tick.
		if a.opts.Screenshot == "" || a.shotDone {
			return ebiten.Termination
		}
		return nil
	}
	a.ticks++
	a.handleKeys()
	if a.noteTicks > 0 {
		a.noteTicks--
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
	in := live
	if a.scriptOn {
		f := a.sess.Frame() - a.scriptStart
		in = a.opts.Script.InputAt(f)
		if f >= a.opts.Script.Length {
			a.scriptOn = false
		}
	}
	a.sess.Step(in)
	if a.recorder != nil {
		a.recorder.Add(in)
	}
	if in.Blow && !a.lastBlow {
		a.snd.blowSound()
	}
	a.lastBlow = in.Blow
	a.snd.tick(a.sess.Left())
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

func (a *App) handleKeys() {
	for _, b := range bindings() {
		if b.hold != nil {
			for _, k := range b.keys {
				if inpututil.IsKeyJustPressed(k) {
					b.hold(a, true)
				}
				if inpututil.IsKeyJustReleased(k) {
					b.hold(a, false)
				}
			}
			continue
		}
		if b.do != nil && b.matches() {
			b.do(a)
		}
	}
}

// Layout uses the window's size in device-independent pixels.
func (a *App) Layout(w, h int) (int, int) { return w, h }

// Draw renders the frame. It reads the session and never changes it.
func (a *App) Draw(screen *ebiten.Image) {
	screen.Fill(colBackdrop)
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	l := a.layout(w, h)
	gap := max(4, w/300)
	lr := image.Rect(0, l.topH, w/2-gap/2, h-l.botH)
	rr := image.Rect(w/2+gap/2, l.topH, w, h-l.botH)
	a.left.Draw(screen, lr, a.sess.LeftView(), nil, render.Overlays{})
	a.right.Draw(screen, rr, a.sess.RightView(), a.sess.GhostView(), a.overlays)
	a.drawHUD(screen, l, lr, rr)
	if a.help {
		a.drawHelp(screen)
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
	if err := ebiten.RunGame(a); err != nil && !errors.Is(err, ebiten.Termination) {
		return a, err
	}
	return a, a.err
}
