package ui

import (
	"image"
	"image/color"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/control"
	"netcubes/render"
	"netcubes/render/scene"
)

// Small drawing helpers for the HUD. They draw; they never decide what to
// show. Everything is positioned in screen pixels.

// panel draws a translucent rounded-looking backdrop.
func panel(dst *ebiten.Image, r image.Rectangle) {
	if layer.recording(dst) {
		layer.rect(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), colPanel)
		return
	}
	vector.FillRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), panelColour, false)
}

// backdrop and panelColour are colBackdrop and colPanel made interfaces
// once: a colour made one at each call is a heap allocation a frame.
var backdrop, panelColour color.Color = colBackdrop, colPanel

// label draws s with its top-left at (x, y) and returns its width. A
// player named in s ("waiting for player 3") gets its colour's swatch
// before the name (hudlegend.go).
func label(dst *ebiten.Image, s string, face text.Face, x, y float64, c color.RGBA) float64 {
	if at, _ := nextPlayer(s, 0); at >= 0 {
		return labelWithSwatches(dst, s, face, x, y, c)
	}
	texts.draw(dst, s, face, x, y, c)
	return texts.width(s, face)
}

// labelRight draws s with its top-right at (x, y).
func labelRight(dst *ebiten.Image, s string, face text.Face, x, y float64, c color.RGBA) {
	label(dst, s, face, x-measure(s, face), y, c)
}

// span is a run of text in one colour, for lines that mix values and labels.
type span struct {
	s string
	c color.RGBA
}

// spans draws runs one after the other and returns the total width.
func spans(dst *ebiten.Image, face text.Face, x, y float64, runs ...span) float64 {
	x0 := x
	for _, r := range runs {
		x += label(dst, r.s, face, x, y, r.c)
	}
	return x - x0
}

// lineHeight is the distance between lines of this face.
func lineHeight(face *text.GoTextFace) float64 { return face.Size * 1.3 }

// meshDrawer draws scene meshes (screen-space triangles) with Ebitengine.
type meshDrawer struct {
	antiAlias bool
	mesh      scene.Mesh
	white     *ebiten.Image
	// The graph's mesh, kept while what it was drawn from is the same
	// (graph): a display faster than the ticks draws it again unchanged.
	graphMesh scene.Mesh
	graphKey  graphKey
}

// graphKey is what a graph's mesh was built from.
type graphKey struct {
	s            *control.Series
	changes      uint64
	r            image.Rectangle
	yMax, budget float64
}

func (m *meshDrawer) flush(dst *ebiten.Image) {
	m.draw(dst, &m.mesh)
	m.mesh.Reset()
}

// draw hands me's triangles to Ebitengine.
func (m *meshDrawer) draw(dst *ebiten.Image, me *scene.Mesh) {
	if layer.recording(dst) {
		layer.mesh(me, m.antiAlias)
		return
	}
	if m.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		m.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	if len(me.Indices) > 0 {
		dst.DrawTriangles32(render.EbitenVertices(me.Vertices), me.Indices, m.white, &ebiten.DrawTrianglesOptions{AntiAlias: m.antiAlias})
	}
}

func rgba(c color.RGBA) scene.RGBA {
	return scene.RGBA{R: float32(c.R) / 255, G: float32(c.G) / 255, B: float32(c.B) / 255, A: float32(c.A) / 255}
}

// graph draws the series as a line inside r, scaled so yMax is the top,
// with an optional horizontal budget line (budget ≤ 0: none).
func (m *meshDrawer) graph(dst *ebiten.Image, r image.Rectangle, s *control.Series, yMax, budget float64) {
	k := graphKey{s: s, changes: s.Changes(), r: r, yMax: yMax, budget: budget}
	if k != m.graphKey {
		m.graphKey = k
		m.graphMesh.Reset()
		buildGraph(&m.graphMesh, r, s, yMax, budget)
	}
	if layer.recording(dst) {
		// Named by what it was built from, not by its 2,400 vertices
		// (which it keeps until that changes). Its lines are 2 pixels
		// wide (a pixel each side of r's edges) and smooth edges reach a
		// pixel further.
		layer.keyedMesh(&m.graphMesh, k, r.Inset(-2), m.antiAlias)
		return
	}
	m.draw(dst, &m.graphMesh)
}

// buildGraph writes graph's triangles into me.
func buildGraph(me *scene.Mesh, r image.Rectangle, s *control.Series, yMax, budget float64) {
	x0, y0 := float32(r.Min.X), float32(r.Max.Y)
	w, h := float32(r.Dx()), float32(r.Dy())
	y := func(v float64) float32 { return y0 - h*float32(min(1, v/yMax)) }
	// Faint quarter lines give the scale.
	for q := 1; q <= 3; q++ {
		yy := y0 - h*float32(q)/4
		me.Line(scene.Point{X: x0, Y: yy}, scene.Point{X: x0 + w, Y: yy}, 1, rgba(colGridDim))
	}
	if budget > 0 {
		yb := y(budget)
		me.Line(scene.Point{X: x0, Y: yb}, scene.Point{X: x0 + w, Y: yb}, 2, rgba(colBudget))
	}
	n := s.Cap()
	// Room for a full graph at once (a segment between each two samples
	// and the lines above, four vertices and six indices each), so the
	// mesh does not grow a little every tick while the samples fill it.
	me.Vertices = slices.Grow(me.Vertices, 4*(n+4))
	me.Indices = slices.Grow(me.Indices, 6*(n+4))
	// Samples fill the graph from the right, so "now" is always the right edge.
	for i := 1; i < s.Len(); i++ {
		xa := x0 + w*float32(n-s.Len()+i-1)/float32(n-1)
		xb := x0 + w*float32(n-s.Len()+i)/float32(n-1)
		me.Line(scene.Point{X: xa, Y: y(s.At(i - 1))}, scene.Point{X: xb, Y: y(s.At(i))}, 2, rgba(colGraph))
	}
	// Ebitengine copies a mesh's vertices into a buffer of the
	// destination image's, which it grows to exactly the size asked: a
	// graph one segment longer every few ticks while its samples fill it
	// would make it allocate that often. So the vertices are padded to the
	// full graph's count with copies of the last one, which no index names:
	// nothing more is drawn.
	if k := len(me.Vertices); k > 0 {
		for len(me.Vertices) < 4*(n+4) {
			me.Vertices = append(me.Vertices, me.Vertices[k-1])
		}
	}
}
