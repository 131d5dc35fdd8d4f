package ui

// The app's share of the stage's requests: the text scale that says what
// it gives, the fence at the field's edge for the presenter's keys, the
// scene a strategy starts from (Home), and the link restored after a
// strategy that chose its own. What decides (the fence's rule, the
// captions, when a figure is "measuring…") is in package game, tested
// without a display; this file only binds it to keys and notes.

import (
	"fmt"
	"math"
)

// Text scale limits of `=` and `-` (and of -text-scale).
const (
	minTextScale = 0.6
	maxTextScale = 2.0
)

// textScale steps the text scale up (dir +1) or down and says what it
// gives.
func (a *App) textScale(dir int) {
	old := a.fonts.scale
	oldShown := a.shownNow()
	if dir > 0 {
		a.fonts.scale = math.Min(maxTextScale, old*1.1)
	} else {
		a.fonts.scale = math.Max(minTextScale, old/1.1)
	}
	a.say("%s", scaleNote(old, a.fonts.scale, oldShown, a.shownNow()))
}

// shownNow is the text scale the HUD is drawn at in the window as it was
// last laid out (the asked one before the first layout).
func (a *App) shownNow() float64 {
	if a.winW <= 0 || a.winH <= 0 || a.sess == nil {
		return a.fonts.scale
	}
	return a.shownScale(a.winW, a.winH)
}

// scaleNote is the note after `=` or `-`: the scale asked and, when the
// bars' cap (half the window) holds it back, the scale shown; at either
// end of the range, or when the window allows no larger text, it says so.
func scaleNote(old, asked, oldShown, shown float64) string {
	capped := ""
	if shown < asked*0.98 {
		capped = fmt.Sprintf(", shown ×%.2g (the bars may take half the window)", shown)
	}
	switch {
	case asked == old && asked >= maxTextScale:
		return fmt.Sprintf("text at its largest: ×%.2g%s", asked, capped)
	case asked == old:
		return fmt.Sprintf("text at its smallest: ×%.2g", asked)
	case asked > old && shown <= oldShown+0.005:
		return fmt.Sprintf("text as large as this window allows: ×%.2g shown (×%.2g asked; the bars may take half the window)", shown, asked)
	}
	return fmt.Sprintf("text ×%.2g%s", asked, capped)
}

// sayShownScale says once, when the window is first laid out, that the
// -text-scale asked for is more than the window allows.
func (a *App) sayShownScale() {
	if a.scaleSaid || a.winH <= 0 || a.opts.TextScale <= 0 {
		return
	}
	a.scaleSaid = true
	if shown := a.shownNow(); shown < a.fonts.scale*0.98 {
		a.say("-text-scale %.2g: shown ×%.2g in this window (the bars may take half of it)", a.fonts.scale, shown)
		a.noteTicks = 5 * 60
	}
}
