package ui

// Design note: the HUD is read from the back of a hall, so its key figures
// (kbit/s, the error, RTT and loss, the strategy's settings) are drawn large
// (at least 1/25 of the window height at text scale 1) and are never cut:
// when a line of them does not fit its column, it wraps between its parts
// ("0.3 cm RMS · 3.3 cm max · 14.3°" becomes two lines). Secondary text
// (explanations, counters) may be cut with "…".
//
// Every column is written through a colWriter, once without an image to
// measure how tall it is (the bars' heights follow) and once to draw, so
// the measured layout and the drawn one cannot disagree; a test writes the
// HUD at three window sizes and three text scales and fails if a key
// figure was cut.

import (
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// wrapParts packs parts, joined by sep, into lines no wider than firstW
// (the first line) and restW (the others). A part wider than its line gets
// a line of its own (and is then reported by the caller as cut).
func wrapParts(parts []string, sep string, face text.Face, firstW, restW float64) []string {
	ft := &frameTexts
	// The lines go to a frame list; measuring in between writes only texts.
	lines := ft.listStart()
	cur := ""
	width := firstW
	for _, p := range parts {
		if p == "" {
			continue
		}
		try := p
		if cur != "" {
			try = ft.join(cur, sep, p)
		}
		if cur == "" || measure(try, face) <= width {
			cur = try
			continue
		}
		ft.add(cur)
		cur, width = p, restW
	}
	if cur != "" || len(ft.list) == lines {
		ft.add(cur)
	}
	return ft.listDone(lines)
}

// splitParts splits a HUD line at its " · " separators.
func splitParts(s string) []string { return frameTexts.split(s, " · ") }

// colWriter writes lines top-down in a column: onto dst, or only measuring
// when dst is nil.
type colWriter struct {
	dst  *ebiten.Image
	x, y float64 // the next line's top-left
	w    float64 // the column's width
	cut  []string
	// texts is every piece of text written, as written, when record is
	// set (tests read what a column says without drawing it).
	texts  []string
	record bool
}

// line writes s on one line; a key line that does not fit is recorded (a
// secondary one is cut with "…").
func (c *colWriter) line(s string, face *text.GoTextFace, col color.RGBA, key bool) {
	c.lineAt(0, s, face, col, key)
	c.y += lineHeight(face)
}

// lineAt writes s at x offset dx on the current line without advancing.
func (c *colWriter) lineAt(dx float64, s string, face *text.GoTextFace, col color.RGBA, key bool) float64 {
	if measure(s, face) > c.w-dx {
		if key {
			c.cut = append(c.cut, s)
		}
		s = fit(s, face, c.w-dx)
	}
	if c.record {
		c.texts = append(c.texts, strings.Clone(s))
	}
	if c.dst != nil {
		return label(c.dst, s, face, c.x+dx, c.y, col)
	}
	return measure(s, face)
}

// figures writes a lead-in (dim) followed by key parts joined by " · ",
// wrapped between parts so that no figure is cut.
func (c *colWriter) figures(lead string, parts []string, face *text.GoTextFace, col color.RGBA) {
	c.figuresLed(lead, face, parts, face, col)
}

// figuresLed is figures with the lead-in in a face of its own (smaller
// words before large figures: "shows the left as it was" and "250 ms
// ago"), on the figures' baseline. When the first figure does not fit
// after the lead, the figures start on the next line.
func (c *colWriter) figuresLed(lead string, leadFace *text.GoTextFace, parts []string, face *text.GoTextFace, col color.RGBA) {
	lw := measure(lead, leadFace)
	first := c.w - lw
	if len(parts) > 0 && measure(parts[0], face) > first && lead != "" {
		c.lineAt(0, lead, leadFace, colDim, false)
		c.y += lineHeight(leadFace)
		lead, lw, first = "", 0, c.w
	}
	for i, ln := range wrapParts(parts, " · ", face, first, c.w) {
		dx := 0.0
		if i == 0 && lead != "" {
			y := c.y
			c.y += (face.Size - leadFace.Size) * 0.8
			c.lineAt(0, lead, leadFace, colDim, false)
			c.y = y
			dx = lw
		}
		// A single part wider than the column (a long fact, a player's
		// swatch before it) wraps between its words rather than be cut.
		for j, sub := range wrapParts(frameTexts.fields(ln), " ", face, c.w-dx, c.w) {
			if j > 0 {
				dx = 0
			}
			c.lineAt(dx, sub, face, col, true)
			c.y += lineHeight(face)
		}
	}
}

// lesson writes a line whose lesson (key) is never cut: it wraps between
// words onto further lines, each recorded as key text; the explanatory
// tail follows on the last line when it fits there and is dropped when it
// does not ("RTT = 2 × 100 ms on the link + 2 ticks" keeps its figures,
// "(packets and acks leave once a tick)" goes first).
func (c *colWriter) lesson(key, tail string, face *text.GoTextFace, col color.RGBA) {
	lines := wrapParts(frameTexts.fields(key), " ", face, c.w, c.w)
	if tail != "" {
		if last := frameTexts.join(lines[len(lines)-1], " ", tail); measure(last, face) <= c.w {
			lines[len(lines)-1] = last
		}
	}
	for _, ln := range lines {
		c.lineAt(0, ln, face, col, true)
		c.y += lineHeight(face)
	}
}

// wrapWords packs s into lines no wider than width, breaking between words
// (a transient note: "step 1: state updates · the right restarts from the
// left's state"). A word wider than width gets a line of its own.
func wrapWords(s string, face text.Face, width float64) []string {
	return wrapParts(frameTexts.fields(s), " ", face, width, width)
}
