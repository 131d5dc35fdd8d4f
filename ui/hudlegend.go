package ui

import (
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/render/scene"
)

// The legend of player colours: wherever the HUD names one player (a
// view's label, a client's strip, a line of figures, "waiting for player
// 3", a caption, the chart), a swatch of that player's cube colour goes
// before the name, so "player 3" and the green cube on the field are read
// as the same player. label and measure do it for every text, so what is
// measured and what is drawn agree.

// legendPalette is the cubes' colours the swatches take.
var legendPalette = scene.DefaultPalette()

// maxPlayerNamed is the largest player number a swatch is drawn for.
const maxPlayerNamed = 8

// nextPlayer finds the next player named in s at or after byte from:
// "player N" (N 1..8, a whole number) or a figure's short "PN" ("owned P1
// 12 P2 20"), its start and N (at −1: none).
func nextPlayer(s string, from int) (at, n int) {
	if strings.IndexByte(s[from:], 'P') < 0 && !strings.Contains(s[from:], "player ") {
		return -1, 0 // most texts name no one: no byte by byte search
	}
	for i := from; i < len(s); i++ {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		d := -1
		switch {
		case strings.HasPrefix(s[i:], "player "):
			d = i + len("player ")
		case s[i] == 'P':
			d = i + 1
		default:
			continue
		}
		if d >= len(s) || s[d] < '1' || s[d] > '0'+maxPlayerNamed {
			continue
		}
		if d+1 < len(s) && isWordByte(s[d+1]) {
			continue // "player 12", "P2P": no such player
		}
		return i, int(s[d] - '0')
	}
	return -1, 0
}

// isWordByte is a letter or a digit (an ASCII one: the names are).
func isWordByte(b byte) bool { return isLetter(b) || b >= '0' && b <= '9' }

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// playerMentions counts the players named in s.
func playerMentions(s string) int {
	n := 0
	for at, _ := nextPlayer(s, 0); at >= 0; at, _ = nextPlayer(s, at+1) {
		n++
	}
	return n
}

// swatchSize is the width a swatch takes before a name in face, the gap
// after it included.
func swatchSize(face text.Face) float64 {
	if gf, ok := face.(*text.GoTextFace); ok {
		return gf.Size * 1.1
	}
	return 0
}

// labelWithSwatches draws s as label does, a swatch before every player
// it names, and returns its width.
func labelWithSwatches(dst *ebiten.Image, s string, face text.Face, x, y float64, c color.RGBA) float64 {
	x0 := x
	from, search := 0, 0
	for {
		at, n := nextPlayer(s, search)
		if at < 0 {
			break
		}
		if at > from {
			texts.draw(dst, s[from:at], face, x, y, c)
			x += texts.width(s[from:at], face)
		}
		x += drawSwatch(dst, face, x, y, n)
		from, search = at, at+1
	}
	texts.draw(dst, s[from:], face, x, y, c)
	return x + texts.width(s[from:], face) - x0
}

// drawSwatch draws player's swatch at (x, y), the top of a line of face,
// and returns the width it took (swatchSize).
func drawSwatch(dst *ebiten.Image, face text.Face, x, y float64, player int) float64 {
	w := swatchSize(face)
	if w == 0 || player <= 0 || dst == nil {
		return w
	}
	gf := face.(*text.GoTextFace)
	side := gf.Size * 0.75
	top := y + (gf.Size*1.2-side)/2
	c := legendPalette.PlayerColor(uint8(player))
	if layer.recording(dst) {
		layer.rect(float32(x), float32(top), float32(side), float32(side),
			color.RGBA{uint8(c.R * 255), uint8(c.G * 255), uint8(c.B * 255), 255})
		return w
	}
	vector.FillRect(dst, float32(x), float32(top), float32(side), float32(side),
		color.RGBA{uint8(c.R * 255), uint8(c.G * 255), uint8(c.B * 255), 255}, false)
	return w
}
