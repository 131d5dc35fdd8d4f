package ui

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/render"
	"netcubes/viewmodel"
)

// The grid's layout and drawing: the server's view on the left, the page's
// clients in up to two columns and two rows on the right, each cell with
// its label (the player's swatch, whose screen) at the top and its strip
// of figures (viewmodel.Strip) at the bottom. The strips' figures are key
// figures: they wrap between parts and are never cut (a test lays the
// grid out at the three stage sizes and fails on a cut one).

// gridCell is one client's cell, laid out.
type gridCell struct {
	r     image.Rectangle // the whole cell
	strip stripLayout
}

// stripLayout is a strip's figures placed in lines.
type stripLayout struct {
	face  *text.GoTextFace
	lines [][]viewmodel.Span // each line's figures, joined by " · "
	h     float64            // the strip's height, padding included
}

// gridRects splits the views' area (top to h−bottom) into the server's
// view and n client cells: the server takes half the width beside one or
// two clients and a third beside three or four (two columns of cells).
func gridRects(w, h, top, bottom, n int) (server image.Rectangle, cells []image.Rectangle) {
	gap := max(4, w/300)
	y0, y1 := top, h-bottom
	sw := w / 2
	cols, rows := 1, max(1, n)
	if n >= 3 {
		sw, cols, rows = w/3, 2, 2
	}
	server = image.Rect(0, y0, sw-gap/2, y1)
	x0 := sw + gap/2
	cw := (w - x0 - gap*(cols-1)) / cols
	ch := (y1 - y0 - gap*(rows-1)) / rows
	for i := range n {
		c, r := i%cols, i/cols
		x := x0 + c*(cw+gap)
		y := y0 + r*(ch+gap)
		cells = append(cells, image.Rect(x, y, x+cw, y+ch))
	}
	return server, cells
}

// layoutStrip wraps a strip's figures into lines of width in face,
// recording in cut a figure wider than a line.
func layoutStrip(st *viewmodel.Strip, face *text.GoTextFace, width, pad float64, cut []string) (stripLayout, []string) {
	sl := stripLayout{face: face}
	var cur []viewmodel.Span
	x := 0.0
	sep := measure(" · ", face)
	for _, f := range st.Figures {
		if f.Text == "" {
			continue
		}
		fw := measure(f.Text, face)
		if fw > width {
			cut = append(cut, f.Text)
		}
		if len(cur) > 0 && x+sep+fw > width {
			sl.lines = append(sl.lines, cur)
			cur, x = nil, 0
		}
		if len(cur) > 0 {
			x += sep
		}
		cur = append(cur, f)
		x += fw
	}
	if len(cur) > 0 {
		sl.lines = append(sl.lines, cur)
	}
	sl.h = lineHeight(face)*float64(len(sl.lines)) + pad
	return sl, cut
}

// gridLayout lays out the grid's cells in the views' area; cut lists the
// key figures that did not fit. The strip's figures take the large face
// when it leaves the view at least half the cell, else the body face.
func (a *App) gridLayout(l hudLayout, w, h int) (server image.Rectangle, cells []gridCell, cut []string) {
	server, rects := gridRects(w, h, l.topH, l.botH, len(a.strips))
	for i, r := range rects {
		st := &a.strips[i]
		width := float64(r.Dx()) - l.pad*2
		sl, c := layoutStrip(st, l.big, width, l.pad, nil)
		labelH := lineHeight(l.smallBold) + l.pad*1.5
		if sl.h+labelH > float64(r.Dy())*0.5 {
			sl, c = layoutStrip(st, l.bold, width, l.pad, nil)
		}
		if sl.h+labelH > float64(r.Dy()) {
			c = append(c, "the strip of "+st.Title+" is taller than its cell")
		}
		cut = append(cut, c...)
		cells = append(cells, gridCell{r: r, strip: sl})
	}
	return server, cells, cut
}

// drawGridViews draws the server's view and every cell's view (Draw, before
// the HUD); it returns the server's rectangle and the cells.
func (a *App) drawGridViews(screen *ebiten.Image, l hudLayout) (image.Rectangle, []gridCell) {
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	server, cells, _ := a.gridLayout(l, w, h)
	a.left.Draw(screen, server, a.sess.LeftView(), nil, render.Overlays{})
	g := &a.gridS
	for i, c := range cells {
		if i >= len(g.ks) || g.views[i] == nil {
			continue
		}
		k := g.ks[i]
		if k == a.sess.Shown() {
			// The shown client is the right view: its ghost and overlays.
			g.views[i].Draw(screen, c.r, a.sess.RightView(), a.sess.GhostView(), a.overlays)
			continue
		}
		if v := a.sess.ClientView(k); v != nil {
			g.views[i].Draw(screen, c.r, v, nil, render.Overlays{})
		}
	}
	return server, cells
}

// stripRect is where the cell's strip of figures is drawn.
func (c gridCell) stripRect() image.Rectangle {
	return image.Rect(c.r.Min.X, c.r.Max.Y-int(c.strip.h), c.r.Max.X, c.r.Max.Y)
}

// labelRect is the band at the cell's top its label takes (drawViewLabel),
// the cell's whole width.
func (c gridCell) labelRect(l hudLayout) image.Rectangle {
	return image.Rect(c.r.Min.X, c.r.Min.Y, c.r.Max.X, c.r.Min.Y+int(math.Ceil(l.pad*1.5+lineHeight(l.smallBold))))
}

// captionKeepOut is what the track's caption must not cover in the grid:
// every cell's strip of figures and label.
func captionKeepOut(l hudLayout, cells []gridCell) []image.Rectangle {
	var out []image.Rectangle
	for _, c := range cells {
		out = append(out, c.stripRect(), c.labelRect(l))
	}
	return out
}

// drawGridHUD draws each cell's label and strip, and a frame around the
// cell whose figures the bottom panel shows.
func (a *App) drawGridHUD(dst *ebiten.Image, l hudLayout, cells []gridCell) {
	for i, c := range cells {
		st := &a.strips[i]
		a.drawViewLabel(dst, l, c.r, viewmodel.ViewLabel{Title: st.Title, Sub: st.Sub, Player: st.Player})
		sl := c.strip
		y := float64(c.r.Max.Y) - sl.h
		panel(dst, c.stripRect())
		y += l.pad * 0.5
		for _, ln := range sl.lines {
			x := float64(c.r.Min.X) + l.pad
			for j, f := range ln {
				if j > 0 {
					x += label(dst, " · ", sl.face, x, y, colDim)
				}
				x += label(dst, f.Text, sl.face, x, y, roleColour(f.Role))
			}
			y += lineHeight(sl.face)
		}
		if st.Shown {
			r := c.r
			t := float32(math.Max(2, l.pad*0.25))
			x0, y0, x1, y1 := float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y)
			vector.StrokeRect(dst, x0+t/2, y0+t/2, x1-x0-t, y1-y0-t, t, colAccent, false)
		}
	}
}
