package ui

// The HUD draws about a hundred runs of text a frame, and most of them say
// the same as in the frame before. Drawing a run with text/v2 shapes it
// (HarfBuzz, bidi) and draws each glyph: a quarter of a millisecond of CPU
// for the HUD natively, four times that in a browser, and hundreds of
// small allocations a frame. So a run seen in two frames in a row is drawn
// once into an image of its own and from then on copied whole: one draw
// call, no shaping. Its width is kept too (the layout measures runs to
// wrap and place them). Runs unused for a while are forgotten.
//
// The run is drawn into its image in white, at the fractional part of its
// position, and the image is drawn at a whole-pixel offset scaled by the
// run's colour: each pixel goes through the same arithmetic as a glyph
// drawn directly (the glyph's coverage times the colour, then blended), so
// the picture is the same, but where two glyphs of a run overlap (their
// edges touching) the pixel may differ by one level of 255. A screenshot
// or a capture draws every run directly (Off), so a capture's frame and
// a screenshot of the same tick stay identical whatever was cached.
//
// The cache lives in the one goroutine that draws (Ebitengine's), like
// every image; tests that lay the HUD out without drawing only measure.

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// textKey names a drawn run: the text, its font and size, and the
// fractional part of its position (in 1/64 px).
type textKey struct {
	s      string
	src    *text.GoTextFaceSource
	size   float64
	fx, fy uint8
}

type textRun struct {
	img  *ebiten.Image // nil until the run has been seen twice
	used int           // the frame it was last drawn in
}

// widthKey names a measured run.
type widthKey struct {
	s    string
	src  *text.GoTextFaceSource
	size float64
}

type widthEntry struct {
	w    float64
	used int
}

// textCacheKeep is how many frames an unused run is kept; a second's
// worth, so figures that change every tick do not pile up.
const textCacheKeep = 60

// textMargin is the room around a run in its image, pixels: glyphs reach
// a little past the advance and the line box (italics, accents).
const textMargin = 4

type textCache struct {
	// Off draws every run directly (screenshots and captures).
	Off    bool
	frame  int
	runs   map[textKey]*textRun
	widths map[widthKey]widthEntry
	op     ebiten.DrawImageOptions
	top    text.DrawOptions
}

var texts textCache

// nextFrame starts a frame: every 60 frames, what was not used in the
// last 60 is dropped.
func (c *textCache) nextFrame() {
	c.frame++
	if c.frame%textCacheKeep != 0 {
		return
	}
	for k, r := range c.runs {
		if c.frame-r.used > textCacheKeep {
			if r.img != nil {
				r.img.Deallocate()
			}
			delete(c.runs, k)
		}
	}
	for k, w := range c.widths {
		if c.frame-w.used > textCacheKeep {
			delete(c.widths, k)
		}
	}
}

// width is text.Measure's width of s, remembered.
func (c *textCache) width(s string, face text.Face) float64 {
	gf, ok := face.(*text.GoTextFace)
	if !ok || gf.Direction != text.DirectionLeftToRight {
		w, _ := text.Measure(s, face, 0)
		return w
	}
	k := widthKey{s, gf.Source, gf.Size}
	if e, ok := c.widths[k]; ok {
		if e.used != c.frame {
			e.used = c.frame
			c.widths[k] = e
		}
		return e.w
	}
	w, _ := text.Measure(s, face, 0)
	if c.widths == nil {
		c.widths = map[widthKey]widthEntry{}
	}
	c.widths[k] = widthEntry{w, c.frame}
	return w
}

// draw draws s with its top-left at (x, y) in colour col.
func (c *textCache) draw(dst *ebiten.Image, s string, face text.Face, x, y float64, col color.Color) {
	gf, ok := face.(*text.GoTextFace)
	if !ok || c.Off || s == "" || gf.Direction != text.DirectionLeftToRight {
		c.direct(dst, s, face, x, y, col)
		return
	}
	ix, iy := math.Floor(x), math.Floor(y)
	k := textKey{s: s, src: gf.Source, size: gf.Size, fx: uint8((x - ix) * 64), fy: uint8((y - iy) * 64)}
	run := c.runs[k]
	switch {
	case run == nil:
		// First sight: a figure that changes every tick never makes an image.
		if c.runs == nil {
			c.runs = map[textKey]*textRun{}
		}
		c.runs[k] = &textRun{used: c.frame}
		c.direct(dst, s, face, x, y, col)
		return
	case run.img == nil:
		if run.used != c.frame-1 && run.used != c.frame {
			run.used = c.frame
			c.direct(dst, s, face, x, y, col)
			return
		}
		m := gf.Metrics()
		w := int(math.Ceil(c.width(s, face))) + 2*textMargin + 1
		h := int(math.Ceil(m.HAscent+m.HDescent)) + 2*textMargin + 1
		run.img = ebiten.NewImage(w, h)
		c.direct(run.img, s, face, textMargin+x-ix, textMargin+y-iy, color.White)
	}
	run.used = c.frame
	c.op = ebiten.DrawImageOptions{}
	c.op.GeoM.Translate(ix-textMargin, iy-textMargin)
	c.op.ColorScale.ScaleWithColor(col)
	dst.DrawImage(run.img, &c.op)
}

// direct draws s with text/v2, as the cache's images are drawn.
func (c *textCache) direct(dst *ebiten.Image, s string, face text.Face, x, y float64, col color.Color) {
	c.top = text.DrawOptions{}
	c.top.GeoM.Translate(x, y)
	c.top.ColorScale.ScaleWithColor(col)
	text.Draw(dst, s, face, &c.top)
}
