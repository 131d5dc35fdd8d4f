package ui

import (
	"image"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
)

// joiningPrefix starts a strategy's facts while its right waits for the
// left's world to cross the link (state sync's block, the 2004 strategy's
// save): "joining: 3/14 pieces, 533 ms".
const joiningPrefix = "joining: "

// drawJoining writes that line large across the middle of the right view,
// which has nothing else to show meanwhile (blank sky otherwise).
func (a *App) drawJoining(dst *ebiten.Image, r image.Rectangle) {
	s := a.facts.StrategyFacts // worded once a tick (buildHUD): Draw builds no string
	if !strings.HasPrefix(s, joiningPrefix) || r.Dx() < 40 || r.Dy() < 40 {
		return
	}
	if i := strings.Index(s, " · "); i >= 0 {
		s = s[:i]
	}
	px := math.Round(float64(r.Dy()) / 12)
	face := a.fonts.face(a.fonts.bold, px)
	w := measure(s, face)
	for w > 0.9*float64(r.Dx()) && px > 8 {
		px = math.Max(8, math.Floor(px*0.9))
		face = a.fonts.face(a.fonts.bold, px)
		w = measure(s, face)
	}
	h := lineHeight(face)
	x := float64(r.Min.X) + (float64(r.Dx())-w)/2
	y := float64(r.Min.Y) + (float64(r.Dy())-h)/2
	pad := px / 2
	panel(dst, image.Rect(int(x-pad), int(y-pad/2), int(x+w+pad), int(y+h+pad/2)))
	label(dst, s, face, x, y, colText)
}
