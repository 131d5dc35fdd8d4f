package ui

// The HUD draws about a hundred runs of text a frame, and most of them say
// the same as in the frame before. Drawing a run with text/v2 shapes it
// (HarfBuzz, bidi) and draws each glyph: a quarter of a millisecond of CPU
// for the HUD natively, four times that in a browser, and hundreds of
// small allocations a frame. So a run seen in several frames in a row is
// drawn once into an image of its own and from then on copied whole: one
// draw call. A run that changes every tick (a figure) is drawn glyph by
// glyph from the glyphs each face keeps (glyphs.go): no shaping either.
// Widths come from the same glyphs. Runs unused for a while are forgotten,
// and their images are kept for the next runs of about their size, so a
// frame allocates nothing once the HUD's texts have been seen.
//
// The run is drawn into its image in white, at the fractional part of its
// position, and the image is drawn at a whole-pixel offset scaled by the
// run's colour: each pixel goes through the same arithmetic as a glyph
// drawn directly (the glyph's coverage times the colour, then blended), so
// the picture is the same, but where two glyphs of a run overlap (their
// edges touching) the pixel may differ by one level of 255. A screenshot
// or a capture draws every run with text/v2 (Off), so a capture's frame
// and a screenshot of the same tick stay identical whatever was cached.
//
// The runs are found by a hash of their text, font, size and position's
// fraction, not by the text itself: the HUD's texts may live in a buffer
// reused next frame (frametext.go), and a map keeping them would need a
// copy of each, an allocation per new figure. A run with an image keeps
// a copy of its text (made once), compared before the image is used.
//
// The cache lives in the one goroutine that draws (Ebitengine's), like
// every image; tests that lay the HUD out without drawing only measure.

import (
	"hash/maphash"
	"image/color"
	"math"
	"strings"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

type textRun struct {
	img   *ebiten.Image // nil until the run has been seen textImageAfter frames in a row
	s     string        // the run's text, with img
	since int           // the first frame of its current streak
	used  int           // the frame it was last drawn in
}

// textCacheKeep is how many frames an unused run is kept; a second's
// worth, so figures that change every tick do not pile up.
const textCacheKeep = 60

// textImageAfter is how many frames in a row a run is drawn before it gets
// an image: a figure that changes within a quarter of a second is drawn
// glyph by glyph and never costs an image.
const textImageAfter = 15

// textMargin is the room around a run in its image, pixels: glyphs reach
// a little past the advance and the line box (italics, accents).
const textMargin = 4

// imageSize is a pooled image's size: widths rounded up to 32 pixels, so
// an image is reused by the next run of about its size.
type imageSize struct{ w, h int }

type textCache struct {
	// Off draws every run with text/v2 (screenshots and captures).
	Off   bool
	frame int
	seed  maphash.Seed
	runs  map[uint64]textRun
	spare map[uint64]textRun // the next runs map, emptied
	free  map[imageSize][]*ebiten.Image
	op    ebiten.DrawImageOptions
	top   text.DrawOptions
}

var texts textCache

// nextFrame starts a frame: every 60 frames, what was not used in the
// last 60 is dropped (its image kept for another run).
func (c *textCache) nextFrame() {
	c.frame++
	if c.frame%textCacheKeep != 0 {
		return
	}
	// The kept runs move to the spare map and the maps swap: a map whose
	// entries are deleted one by one fills with tombstones and grows,
	// while one emptied whole keeps its room.
	if c.spare == nil {
		c.spare = map[uint64]textRun{}
	}
	for k, r := range c.runs {
		if c.frame-r.used > textCacheKeep {
			if r.img != nil {
				sz := imageSize{r.img.Bounds().Dx(), r.img.Bounds().Dy()}
				c.free[sz] = append(c.free[sz], r.img)
			}
			continue
		}
		c.spare[k] = r
	}
	clear(c.runs)
	c.runs, c.spare = c.spare, c.runs
}

// key is the hash naming a run.
func (c *textCache) key(s string, gf *text.GoTextFace, fx, fy uint8) uint64 {
	if c.runs == nil {
		c.seed = maphash.MakeSeed()
		c.runs = map[uint64]textRun{}
		c.free = map[imageSize][]*ebiten.Image{}
	}
	h := maphash.String(c.seed, s)
	h ^= uint64(uintptr(unsafe.Pointer(gf.Source))) * 0x9e3779b97f4a7c15
	h ^= math.Float64bits(gf.Size) * 0xc2b2ae3d27d4eb4f
	h ^= uint64(fx)<<56 | uint64(fy)<<48
	return h
}

// width is text.Measure's width of s.
func (c *textCache) width(s string, face text.Face) float64 {
	gf, ok := face.(*text.GoTextFace)
	if ok && !c.Off && gf.Direction == text.DirectionLeftToRight {
		if w, ok := glyphsOf(gf).width(s, gf); ok {
			return w
		}
	}
	// text/v2 keeps the strings it measures.
	w, _ := text.Measure(strings.Clone(s), face, 0)
	return w
}

// draw draws s with its top-left at (x, y) in colour col.
func (c *textCache) draw(dst *ebiten.Image, s string, face text.Face, x, y float64, col color.RGBA) {
	if layer.recording(dst) {
		layer.text(s, face, x, y, col)
		return
	}
	gf, ok := face.(*text.GoTextFace)
	if !ok || c.Off || s == "" || gf.Direction != text.DirectionLeftToRight {
		c.direct(dst, s, face, x, y, col)
		return
	}
	ix, iy := math.Floor(x), math.Floor(y)
	fx, fy := uint8((x-ix)*64), uint8((y-iy)*64)
	k := c.key(s, gf, fx, fy)
	run, seen := c.runs[k]
	if seen && run.img != nil && run.s == s {
		c.runs[k] = textRun{img: run.img, s: run.s, since: run.since, used: c.frame}
		c.op = ebiten.DrawImageOptions{}
		c.op.GeoM.Translate(ix-textMargin, iy-textMargin)
		c.op.ColorScale = colourScale(col)
		dst.DrawImage(run.img, &c.op)
		return
	}
	if !seen || run.used < c.frame-1 {
		run.since = c.frame // a new streak
	}
	run.used = c.frame
	fg := glyphsOf(gf)
	if !fg.prepare(s, gf) {
		c.runs[k] = run
		c.direct(dst, s, face, x, y, col)
		return
	}
	if c.frame-run.since+1 >= textImageAfter && run.img == nil {
		run.img, run.s = c.image(s, gf, fg), strings.Clone(s)
		fg.draw(run.img, s, textMargin+x-ix, textMargin+y-iy, &c.op, ebiten.ColorScale{})
		c.runs[k] = run
		c.draw(dst, run.s, face, x, y, col)
		return
	}
	c.runs[k] = run
	fg.draw(dst, s, x, y, &c.op, colourScale(col))
}

// drawGlyphs draws s with its top-left at (x, y) in colour col glyph by
// glyph, as text/v2 draws it (or with text/v2 when s is for it), never
// from a run's image (hudlayer.go).
func (c *textCache) drawGlyphs(dst *ebiten.Image, s string, face text.Face, x, y float64, col color.RGBA) {
	gf, ok := face.(*text.GoTextFace)
	if !ok || s == "" || gf.Direction != text.DirectionLeftToRight || !glyphsOf(gf).prepare(s, gf) {
		c.direct(dst, s, face, x, y, col)
		return
	}
	glyphsOf(gf).draw(dst, s, x, y, &c.op, colourScale(col))
}

// image is a cleared image for s, from the pool when one is free.
func (c *textCache) image(s string, gf *text.GoTextFace, fg *faceGlyphs) *ebiten.Image {
	m := gf.Metrics()
	w, _ := fg.width(s, gf)
	sz := imageSize{
		w: (int(math.Ceil(w)) + 2*textMargin + 1 + 31) / 32 * 32,
		h: int(math.Ceil(m.HAscent+m.HDescent)) + 2*textMargin + 1,
	}
	if imgs := c.free[sz]; len(imgs) > 0 {
		img := imgs[len(imgs)-1]
		c.free[sz] = imgs[:len(imgs)-1]
		img.Clear()
		return img
	}
	return ebiten.NewImage(sz.w, sz.h)
}

// direct draws s with text/v2, as the cache's images are drawn.
func (c *textCache) direct(dst *ebiten.Image, s string, face text.Face, x, y float64, col color.RGBA) {
	c.top = text.DrawOptions{}
	c.top.GeoM.Translate(x, y)
	c.top.ColorScale = colourScale(col)
	// text/v2 keeps the strings it draws.
	text.Draw(dst, strings.Clone(s), face, &c.top)
}

// colourScale is ColorScale.ScaleWithColor(c) of the identity, without
// making c an interface (which would allocate at every call).
func colourScale(c color.RGBA) (cs ebiten.ColorScale) {
	cs.Scale(float32(uint32(c.R)*0x101)/0xffff, float32(uint32(c.G)*0x101)/0xffff,
		float32(uint32(c.B)*0x101)/0xffff, float32(uint32(c.A)*0x101)/0xffff)
	return cs
}
