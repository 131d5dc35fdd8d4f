package ui

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// The legend of player colours: wherever the HUD names one player (a
// view's label, a client's strip), a swatch of that player's cube colour
// goes before the name, so "client 3" and the orange cube on the field are
// read as the same player.

// swatchWidth is the width a swatch takes before text in face, gap
// included (0 for player 0: no swatch).
func (a *App) swatchWidth(face *text.GoTextFace, player int) float64 {
	if player <= 0 {
		return 0
	}
	return face.Size * 1.1
}

// drawSwatch draws player's swatch at (x, y), the top of a line of face,
// and returns the width it took (swatchWidth).
func (a *App) drawSwatch(dst *ebiten.Image, face *text.GoTextFace, x, y float64, player int) float64 {
	w := a.swatchWidth(face, player)
	if w == 0 || dst == nil {
		return w
	}
	side := face.Size * 0.75
	top := y + (face.Size*1.2-side)/2
	c := a.left.Palette.PlayerColor(uint8(player))
	vector.FillRect(dst, float32(x), float32(top), float32(side), float32(side),
		color.RGBA{uint8(c.R * 255), uint8(c.G * 255), uint8(c.B * 255), 255}, false)
	return w
}
