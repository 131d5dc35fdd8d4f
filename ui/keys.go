package ui

// Every key the app understands is one row of this table: the help overlay
// is drawn from it and a test checks the README's keys table against it, so
// the three can never disagree. Keys that adjust a number repeat while held.

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
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

// KeyTable lists every key binding in help order.
func KeyTable() []KeyHelp {
	var t []KeyHelp
	for _, b := range bindings() {
		t = append(t, KeyHelp{b.group, b.label, b.help})
	}
	return t
}

// Key repeat: after repeatDelay ticks held, act every repeatEvery ticks.
const (
	repeatDelay = 24
	repeatEvery = 4
)

func pressedWithRepeat(k ebiten.Key) bool {
	d := inpututil.KeyPressDuration(k)
	return d == 1 || (d > repeatDelay && (d-repeatDelay)%repeatEvery == 0)
}

// matches reports whether b fires this tick.
func (b *binding) matches() bool {
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	ctrl := ebiten.IsKeyPressed(ebiten.KeyControl) || ebiten.IsKeyPressed(ebiten.KeyMeta)
	alt := ebiten.IsKeyPressed(ebiten.KeyAlt)
	if (b.shift == noShift && shift) || (b.shift == withShift && !shift) || b.ctrl != ctrl || (b.alt && !alt) {
		return false
	}
	for _, k := range b.keys {
		if b.repeat && pressedWithRepeat(k) || !b.repeat && inpututil.IsKeyJustPressed(k) {
			return true
		}
	}
	return false
}

func keys(k ...ebiten.Key) []ebiten.Key { return k }
