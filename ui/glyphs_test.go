package ui

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"netcubes/catalog"
)

// placedGlyph is a glyph's image and where it is drawn, from a run's
// top-left.
type placedGlyph struct {
	img  *ebiten.Image
	x, y int
}

// glyphRun is where faceGlyphs.draw puts s's glyphs.
func glyphRun(fg *faceGlyphs, s string) []placedGlyph {
	var out []placedGlyph
	pen := int32(0)
	for _, r := range s {
		g := fg.rune(r)
		v, px := fg.variant(pen)
		pen += g.adv
		if gv := &g.v[v]; gv.img != nil {
			out = append(out, placedGlyph{gv.img, px + gv.dx, gv.y})
		}
	}
	return out
}

// TestGlyphRunsMatchText checks the glyph-by-glyph drawing of runs
// (glyphs.go) against text/v2 for every text the HUD writes in every
// strategy, at the faces of three window sizes: the same glyph images at
// the same pixels, and the same widths as text.Measure. The glyphs are
// learnt from the texts in another order than they are checked, so a rune
// learnt in one run is checked in others.
func TestGlyphRunsMatchText(t *testing.T) {
	var all []string
	for _, s := range catalog.All() {
		a := newStageApp(t, s.ID(), "intercontinental")
		for range 30 {
			a.step()
		}
		a.buildHUD()
		l := a.layout(1920, 1080)
		_, _, cols := a.bottomColumns(nil, l, 1920, 0)
		for _, c := range cols {
			all = append(all, c...)
		}
		all = append(all, a.hud.Title, a.hud.Explain, a.hud.Left.Title, a.hud.Left.Sub, a.hud.Right.Sub)
		all = append(all, a.hud.Mode...)
	}
	all = append(all, "0123456789 · 3.27 cm RMS · 14.3° · 212 kbit/s · 1.02 Mbit/s", "■ header 12%  ", "ms…", "RTT ≈ 2 × 100 ms")
	f, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, h := range []int{720, 900, 1080} {
		body := f.size(h)
		for _, src := range []*text.GoTextFaceSource{f.regular, f.bold} {
			for _, px := range []float64{body, float64(int(body*0.8 + 0.5)), float64(int(body*1.6 + 0.5))} {
				face := &text.GoTextFace{Source: src, Size: px}
				clear(glyphSets)
				fg := glyphsOf(face)
				for i := len(all) - 1; i >= 0; i-- {
					fg.prepare(all[i], face)
				}
				for _, s := range all {
					if !fg.prepare(s, face) {
						t.Errorf("%q at %v px: drawn by text/v2, not glyph by glyph", s, px)
						continue
					}
					want := text.AppendGlyphs(nil, s, face, nil)
					got := glyphRun(fg, s)
					var placed []placedGlyph
					for _, g := range want {
						if g.Image != nil {
							placed = append(placed, placedGlyph{g.Image, int(g.X), int(g.Y)})
						}
					}
					if len(got) != len(placed) {
						t.Fatalf("%q at %v px: %d glyphs drawn, text/v2 draws %d", s, px, len(got), len(placed))
					}
					for i := range got {
						if got[i] != placed[i] {
							t.Fatalf("%q at %v px: glyph %d at (%d, %d), text/v2 at (%d, %d) (same image: %v)",
								s, px, i, got[i].x, got[i].y, placed[i].x, placed[i].y, got[i].img == placed[i].img)
						}
					}
					w, _ := fg.width(s, face)
					if tw, _ := text.Measure(s, face, 0); w != tw {
						t.Fatalf("%q at %v px: width %v, text.Measure %v", s, px, w, tw)
					}
					n++
				}
			}
		}
	}
	t.Logf("%d runs checked", n)
}
