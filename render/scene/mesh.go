package scene

import "slices"

// Mesh is a triangle list in screen pixels with per-vertex colours, laid out
// like ebiten.Vertex so package render can pass it straight to
// DrawTriangles32. Meshes are reset and refilled every frame; their slices
// keep their capacity, so steady-state building does not allocate.

// Vertex has the same fields, in the same order, as ebiten.Vertex.
type Vertex struct {
	DstX, DstY                     float32
	SrcX, SrcY                     float32
	ColorR, ColorG, ColorB, ColorA float32
	Custom0, Custom1               float32
	Custom2, Custom3               float32
}

// RGBA is a straight-alpha colour with components in 0..1.
type RGBA struct{ R, G, B, A float32 }

// Point is a position on screen, in pixels.
type Point struct{ X, Y float32 }

// Mesh holds triangles: every three indices are one triangle.
type Mesh struct {
	Vertices []Vertex
	Indices  []uint32
}

// Reset empties the mesh but keeps its storage.
func (m *Mesh) Reset() {
	m.Vertices = m.Vertices[:0]
	m.Indices = m.Indices[:0]
}

// set fills every field of v: a vertex at p of colour c. Written field
// by field: a composite literal is built aside and copied, which in
// WebAssembly is as many loads and stores again.
func (v *Vertex) set(p Point, c RGBA) {
	v.DstX, v.DstY = p.X, p.Y
	v.SrcX, v.SrcY = 1, 1 // the centre texel of render's white source
	v.ColorR, v.ColorG, v.ColorB, v.ColorA = c.R, c.G, c.B, c.A
	v.Custom0, v.Custom1, v.Custom2, v.Custom3 = 0, 0, 0, 0
}

// grow lengthens vs by n, keeping its storage when it has the room.
func grow(vs []Vertex, n int) []Vertex {
	if cap(vs)-len(vs) < n {
		vs = slices.Grow(vs, n)
	}
	return vs[:len(vs)+n]
}

func (m *Mesh) vertex(p Point, c RGBA) {
	m.Vertices = grow(m.Vertices, 1)
	m.Vertices[len(m.Vertices)-1].set(p, c)
}

// Polygon adds a convex polygon as a triangle fan.
func (m *Mesh) Polygon(pts []Point, c RGBA) {
	if len(pts) < 3 {
		return
	}
	base := uint32(len(m.Vertices))
	for _, p := range pts {
		m.vertex(p, c)
	}
	for i := 1; i+1 < len(pts); i++ {
		m.Indices = append(m.Indices, base, base+uint32(i), base+uint32(i+1))
	}
}

// hexagon adds a convex hexagon in opaque black as a fan of four
// triangles: Polygon for a cube's shadow, written in place.
func (m *Mesh) hexagon(p *[6]Point) {
	base := len(m.Vertices)
	m.Vertices = grow(m.Vertices, 6)
	vs := m.Vertices[base : base+6 : base+6]
	for i := range vs {
		vs[i].set(p[i], RGBA{A: 1})
	}
	b := uint32(base)
	m.Indices = append(m.Indices, b, b+1, b+2, b, b+2, b+3, b, b+3, b+4, b, b+4, b+5)
}

// Line adds a segment of the given width in pixels as a thin quad.
func (m *Mesh) Line(a, b Point, width float32, c RGBA) {
	dx, dy := b.X-a.X, b.Y-a.Y
	l2 := dx*dx + dy*dy
	if l2 < 1e-6 {
		return
	}
	// The quad's half-width vector is the segment's normal scaled to width/2.
	s := width / 2 / sqrt32(l2)
	nx, ny := -dy*s, dx*s
	// The four corners written in place (a grid draws two thousand
	// pieces a frame: one room check instead of four calls).
	n := len(m.Vertices)
	m.Vertices = grow(m.Vertices, 4)
	vs := m.Vertices[n : n+4 : n+4]
	vs[0].set(Point{a.X + nx, a.Y + ny}, c)
	vs[1].set(Point{b.X + nx, b.Y + ny}, c)
	vs[2].set(Point{b.X - nx, b.Y - ny}, c)
	vs[3].set(Point{a.X - nx, a.Y - ny}, c)
	base := uint32(n)
	m.Indices = append(m.Indices, base, base+1, base+2, base, base+2, base+3)
}

// triangles is the number of triangles in the mesh.
func (m *Mesh) triangles() int { return len(m.Indices) / 3 }
