package ui

// Every key the app understands is one row of this table: the help overlay
// is drawn from it and a test checks the README's keys table against it, so
// the three can never disagree. Keys that adjust a number repeat while held.

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"netcubes/catalog"
)

// shiftMode says how a binding treats the Shift key.
type shiftMode int8

const (
	anyShift  shiftMode = iota // Shift does not matter
	noShift                    // only without Shift
	withShift                  // only with Shift
)

// binding is one row of the key table.
type binding struct {
	group  string       // heading in the help overlay
	keys   []ebiten.Key // any of these
	shift  shiftMode
	ctrl   bool   // needs Ctrl (the quit chord)
	alt    bool   // needs Alt
	label  string // how the key is written in the help ("Shift+L")
	help   string // what it does
	repeat bool   // repeats while held
	do     func(a *App)
	hold   func(a *App, down bool) // instead of do: called on press and on release
}

// KeyHelp is one row of the keys table, for the README test and docs.
type KeyHelp struct{ Group, Key, Help string }

// KeyTable lists every key binding in help order, with the strategies of
// the catalog.
func KeyTable() []KeyHelp { return keyTable(buildBindings(catalog.All())) }

func keyTable(bs []binding) []KeyHelp {
	var t []KeyHelp
	for _, b := range bs {
		t = append(t, KeyHelp{b.group, b.label, b.help})
	}
	return t
}

// Key repeat: after repeatDelay ticks held, act every repeatEvery ticks.
const (
	repeatDelay = 24
	repeatEvery = 4
)

// keyState is what the bindings read of the keyboard in one tick. The app
// reads Ebitengine's; tests play presses and releases through a fake.
type keyState interface {
	Pressed(k ebiten.Key) bool
	// JustPressed is true in the tick a press arrived, even when the key
	// was released again before the tick ran (a quick tap: Ebitengine
	// v2.10 keeps the press time, so the tap is not lost).
	JustPressed(k ebiten.Key) bool
	JustReleased(k ebiten.Key) bool
	// Duration is how many ticks the key has been held (0 when not held).
	Duration(k ebiten.Key) int
}

// ebitenKeys is the real keyboard.
type ebitenKeys struct{}

func (ebitenKeys) Pressed(k ebiten.Key) bool      { return ebiten.IsKeyPressed(k) }
func (ebitenKeys) JustPressed(k ebiten.Key) bool  { return inpututil.IsKeyJustPressed(k) }
func (ebitenKeys) JustReleased(k ebiten.Key) bool { return inpututil.IsKeyJustReleased(k) }
func (ebitenKeys) Duration(k ebiten.Key) int      { return inpututil.KeyPressDuration(k) }

// pressedWithRepeat fires once per press (a tap released within the tick
// included: its duration may already be 0, so the press itself counts) and
// then, while the key is held, every repeatEvery ticks after repeatDelay.
func pressedWithRepeat(ks keyState, k ebiten.Key) bool {
	if ks.JustPressed(k) {
		return true
	}
	d := ks.Duration(k)
	return d > repeatDelay && (d-repeatDelay)%repeatEvery == 0
}

// matches reports whether b fires this tick.
func (b *binding) matches(ks keyState) bool {
	shift := ks.Pressed(ebiten.KeyShift)
	ctrl := ks.Pressed(ebiten.KeyControl) || ks.Pressed(ebiten.KeyMeta)
	alt := ks.Pressed(ebiten.KeyAlt)
	if (b.shift == noShift && shift) || (b.shift == withShift && !shift) || b.ctrl != ctrl || (b.alt && !alt) {
		return false
	}
	for _, k := range b.keys {
		if b.repeat && pressedWithRepeat(ks, k) || !b.repeat && ks.JustPressed(k) {
			return true
		}
	}
	return false
}

func keys(k ...ebiten.Key) []ebiten.Key { return k }
