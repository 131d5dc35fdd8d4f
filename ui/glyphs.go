package ui

// Drawing a run of text glyph by glyph, without shaping it.
//
// The HUD's figures change every tick ("0.3 cm RMS", "212 kbit/s"), and
// text/v2 shapes every string it has not seen (HarfBuzz, bidi): some
// twenty heap allocations and a few microseconds each, a few hundred
// allocations a frame. The Go fonts the HUD uses have no kerning and no
// ligatures (no GSUB, GPOS or kern table), so a run's glyphs are its
// runes' glyphs, one each, each placed at the sum of the advances before
// it. text/v2 picks a glyph's image by the fractional part of that pen
// position (2 to 8 variants a pixel, by the face's size) and draws it at
// a whole pixel. So a rune's advance, and for each variant its image and
// where the image goes relative to the pen, learnt once from text/v2
// (text.AppendGlyphs of the run's own prefix, the first time the rune is
// met at that variant), draw any later run exactly as text.Draw would:
// the same images at the same pixels in the same colour, with no
// shaping and no allocation. TestGlyphRunsMatchText checks it against
// text.AppendGlyphs for every text the HUD writes.
//
// A rune that does not map to one glyph of its own (a combining accent, a
// line break) marks its run as one for text/v2.

import (
	"image"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// glyphVariant is one rune's glyph at one fractional pen position.
type glyphVariant struct {
	known bool
	img   *ebiten.Image // nil: nothing to draw (a space)
	dx    int           // the image's left minus the pen's whole pixels
	y     int           // the image's top, from the line's top
}

// maxGlyphVariants is text/v2's largest number of variants a pixel.
const maxGlyphVariants = 8

// runeGlyph is what is known of one rune in one face.
type runeGlyph struct {
	known   bool  // adv is known
	complex bool  // not one glyph of its own: runs with it go to text/v2
	adv     int32 // the advance, 1/64 px
	v       [maxGlyphVariants]glyphVariant
}

// faceGlyphs is what is known of one face's runes.
type faceGlyphs struct {
	gran  int32 // 64 / the number of variants a pixel
	ascii [128]runeGlyph
	other map[rune]*runeGlyph
	buf   []text.Glyph
}

// glyphSets holds every face's glyphs (one draw goroutine, like texts).
var glyphSets = map[faceKey]*faceGlyphs{}

// glyphsOf is face's glyph set.
func glyphsOf(face *text.GoTextFace) *faceGlyphs {
	k := faceKey{face.Source, face.Size}
	if fg := glyphSets[k]; fg != nil {
		return fg
	}
	fg := &faceGlyphs{gran: 64 / int32(variationCount(face)), other: map[rune]*runeGlyph{}}
	glyphSets[k] = fg
	return fg
}

// variationCount is text/v2's number of glyph images a pixel for face
// (its glyphVariationCount): finer for small text.
func variationCount(face *text.GoTextFace) int {
	m := face.Metrics()
	switch s := m.HAscent + m.HDescent; {
	case s < 20:
		return 8
	case s < 40:
		return 4
	case s < 80:
		return 2
	}
	return 1
}

// rune is r's entry, made when first asked for.
func (fg *faceGlyphs) rune(r rune) *runeGlyph {
	if r >= 0 && r < 128 {
		return &fg.ascii[r]
	}
	g := fg.other[r]
	if g == nil {
		g = &runeGlyph{}
		fg.other[r] = g
	}
	return g
}

// variant is the index of the image for a glyph at pen (1/64 px), and the
// pen's whole pixels once snapped to the variants, as text/v2 does.
func (fg *faceGlyphs) variant(pen int32) (v int, px int) {
	adj := pen / fg.gran * fg.gran
	return int(adj&63) / int(fg.gran), int(adj >> 6)
}

// learn asks text/v2 for the glyphs of prefix (a run up to and including
// the rune being learnt) and keeps every rune's advance and image. It
// reports false when the prefix's glyphs are not one per rune.
func (fg *faceGlyphs) learn(prefix string, face *text.GoTextFace) bool {
	// text/v2 keeps the strings it shapes: the HUD's may live in a buffer
	// reused next frame (frametext.go).
	prefix = strings.Clone(prefix)
	fg.buf = text.AppendGlyphs(fg.buf[:0], prefix, face, nil)
	if len(fg.buf) != utf8.RuneCountInString(prefix) {
		r, _ := utf8.DecodeLastRuneInString(prefix)
		fg.rune(r).complex = true
		return false
	}
	for _, gl := range fg.buf {
		r, n := utf8.DecodeRuneInString(prefix[gl.StartIndexInBytes:])
		g := fg.rune(r)
		adv := int32(math.Round(gl.AdvanceX * 64))
		if gl.EndIndexInBytes-gl.StartIndexInBytes != n || gl.OriginOffsetX != 0 || gl.OriginOffsetY != 0 ||
			g.known && g.adv != adv {
			g.complex = true
			return false
		}
		g.known, g.adv = true, adv
		v, px := fg.variant(int32(math.Round(gl.OriginX * 64)))
		g.v[v] = glyphVariant{known: true, img: gl.Image, dx: int(gl.X) - px, y: int(gl.Y)}
	}
	return true
}

// prepare makes sure every rune of s is known at the variant it is met at,
// learning what is not. It reports false when s is for text/v2.
func (fg *faceGlyphs) prepare(s string, face *text.GoTextFace) bool {
	pen := int32(0)
	for i, r := range s {
		g := fg.rune(r)
		if g.complex || r < ' ' {
			return false
		}
		v, _ := fg.variant(pen)
		if !g.known || !g.v[v].known {
			if !fg.learn(s[:i+utf8.RuneLen(r)], face) {
				return false
			}
			if !g.v[v].known {
				return false // text/v2 placed it differently
			}
		}
		pen += g.adv
	}
	return true
}

// width is s's advance in face (text.Measure's width): ok is false when s
// is for text/v2.
func (fg *faceGlyphs) width(s string, face *text.GoTextFace) (w float64, ok bool) {
	pen := int32(0)
	for i, r := range s {
		g := fg.rune(r)
		if g.complex || r < ' ' {
			return 0, false
		}
		if !g.known && !fg.learn(s[:i+utf8.RuneLen(r)], face) {
			return 0, false
		}
		pen += g.adv
	}
	return float64(pen) / 64, true
}

// draw draws s (prepared) with its top-left at (x, y), each glyph as
// text.Draw draws it: the glyph's image translated to its pixel, then by
// (x, y), scaled by the colour.
func (fg *faceGlyphs) draw(dst *ebiten.Image, s string, x, y float64, op *ebiten.DrawImageOptions, colour ebiten.ColorScale) {
	fg.drawAt(dst, s, 0, x, y, op, colour)
}

// drawAt draws s as the part of a run at (x, y) that starts at pen (1/64
// px from the run's start): its glyphs, as drawing the whole run draws
// them.
func (fg *faceGlyphs) drawAt(dst *ebiten.Image, s string, pen int32, x, y float64, op *ebiten.DrawImageOptions, colour ebiten.ColorScale) {
	var at ebiten.GeoM
	at.Translate(x, y)
	for _, r := range s {
		g := fg.rune(r)
		v, px := fg.variant(pen)
		pen += g.adv
		gv := &g.v[v]
		if gv.img == nil {
			continue
		}
		*op = ebiten.DrawImageOptions{ColorScale: colour}
		op.GeoM.Translate(float64(px+gv.dx), float64(gv.y))
		op.GeoM.Concat(at)
		dst.DrawImage(gv.img, op)
	}
}

// boundsAt is the pixels s (prepared) touches drawn as the part of a run
// at (x, y) that starts at pen (drawAt): its glyphs' images, moved by
// (x, y) (a pixel is drawn when its centre lies in an image, so the
// fractions of x and y reach at most one pixel further), and a pixel more
// on each side.
func (fg *faceGlyphs) boundsAt(s string, pen int32, x, y float64) image.Rectangle {
	var r image.Rectangle
	for _, ru := range s {
		g := fg.rune(ru)
		v, px := fg.variant(pen)
		pen += g.adv
		gv := &g.v[v]
		if gv.img == nil {
			continue
		}
		b := gv.img.Bounds()
		r = r.Union(image.Rect(px+gv.dx, gv.y, px+gv.dx+b.Dx(), gv.y+b.Dy()))
	}
	if r.Empty() {
		return r
	}
	ix, iy := int(math.Floor(x)), int(math.Floor(y))
	return image.Rect(r.Min.X+ix-1, r.Min.Y+iy-1, r.Max.X+ix+2, r.Max.Y+iy+2)
}
