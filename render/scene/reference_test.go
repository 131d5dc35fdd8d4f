package scene

// The builder's hot paths are written in scalars, skip work that cannot
// show and write only the vertices a triangle uses. This file keeps the
// straightforward vector code they replaced (mgl64's methods, every tile
// corner written, every grid end divided by w) as a reference:
// TestBuilderMatchesReference checks that both give the same triangles,
// bit for bit, in the same order.

import (
	"math/rand/v2"
	"testing"

	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

func (b *Builder) refFogged(c RGBA, w mgl64.Vec3) RGBA {
	return b.fogAt(c, w.Sub(b.proj.eye).Len())
}

func (b *Builder) refAddGround(target mgl64.Vec3) {
	s := &b.Style
	// Tiles and grid lines are anchored to world multiples of their size,
	// so they stay put on the ground as the camera moves.
	t := s.GroundTile
	x0 := math.Floor((target[0]-s.GroundExtent)/t) * t
	y0 := math.Floor((target[1]-s.GroundExtent)/t) * t
	n := int(math.Ceil(2 * s.GroundExtent / t))
	stride := n + 1
	b.gridClip = b.gridClip[:0]
	b.gridVert = b.gridVert[:0]
	m := &b.Ground
	// Room for the most a frame can need (every tile corner, four
	// vertices a grid piece, a few for clipped tiles), reserved at once
	// so the mesh does not grow a little every time the view turns.
	pieces := 2 * (int(2*s.GridExtent/s.GridSpacing) + 1) * gridPieces
	m.Vertices = slices.Grow(m.Vertices, (n+1)*(n+1)+4*pieces+6*n)
	m.Indices = slices.Grow(m.Indices, 6*n*n+6*pieces+12*n)
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			w := mgl64.Vec3{x0 + float64(i)*t, y0 + float64(j)*t, 0}
			c := b.proj.Clip(w)
			b.gridClip = append(b.gridClip, c)
			idx := int32(-1)
			if b.proj.InFront(c) {
				idx = int32(len(m.Vertices))
				m.vertex(b.proj.ToScreen(c), b.refFogged(s.GroundColor, w))
			}
			b.gridVert = append(b.gridVert, idx)
		}
	}
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			k := [4]int{j*stride + i, j*stride + i + 1, (j+1)*stride + i + 1, (j+1)*stride + i}
			v := [4]int32{b.gridVert[k[0]], b.gridVert[k[1]], b.gridVert[k[2]], b.gridVert[k[3]]}
			if v[0] >= 0 && v[1] >= 0 && v[2] >= 0 && v[3] >= 0 {
				if !b.refTileOffscreen(m, v) {
					m.Indices = append(m.Indices, uint32(v[0]), uint32(v[1]), uint32(v[2]), uint32(v[0]), uint32(v[2]), uint32(v[3]))
				}
				continue
			}
			if v[0] < 0 && v[1] < 0 && v[2] < 0 && v[3] < 0 {
				continue // wholly behind the eye: clipping would leave nothing
			}
			b.poly = append(b.poly[:0], b.gridClip[k[0]], b.gridClip[k[1]], b.gridClip[k[2]], b.gridClip[k[3]])
			mid := mgl64.Vec3{x0 + (float64(i)+0.5)*t, y0 + (float64(j)+0.5)*t, 0}
			b.addClipped(m, b.poly, b.refFogged(s.GroundColor, mid))
		}
	}
	g := s.GridSpacing
	lo := func(v float64) float64 { return math.Floor((v-s.GridExtent)/g) * g }
	gx0, gy0 := lo(target[0]), lo(target[1])
	lines := int(2 * s.GridExtent / g)
	for i := 0; i <= lines; i++ {
		x := gx0 + float64(i)*g
		y := gy0 + float64(i)*g
		b.refAddGridLine(mgl64.Vec3{x, gy0, 0}, mgl64.Vec3{x, gy0 + 2*s.GridExtent, 0}, target)
		b.refAddGridLine(mgl64.Vec3{gx0, y, 0}, mgl64.Vec3{gx0 + 2*s.GridExtent, y, 0}, target)
	}
}

func (b *Builder) refTileOffscreen(m *Mesh, v [4]int32) bool {
	var pts [4]Point
	for i, k := range v {
		pts[i] = Point{m.Vertices[k].DstX, m.Vertices[k].DstY}
	}
	return b.proj.refAllOffscreen(pts[:], 0)
}

func (b *Builder) refAddGridLine(a, c, target mgl64.Vec3) {
	s := &b.Style
	const pieces = gridPieces
	step := c.Sub(a).Mul(1.0 / pieces)
	p, cp := a, b.proj.Clip(a)
	dp := b.proj.ClipDir(step)
	inp := b.proj.InFront(cp)
	var sp Point
	if inp {
		sp = b.proj.ToScreen(cp)
	}
	for k := 0; k < pieces; k++ {
		q := a.Add(c.Sub(a).Mul(float64(k+1) / pieces))
		cq := cp.Add(dp)
		inq := b.proj.InFront(cq)
		var sq Point
		if inq {
			sq = b.proj.ToScreen(cq)
		}
		mid := p.Add(q).Mul(0.5)
		fade := 1 - clamp01((mid.Sub(target).Len()-0.6*s.GridExtent)/(0.4*s.GridExtent))
		switch {
		case fade <= 0:
		case inp && inq:
			if !b.proj.refOffscreen(sp, sq, s.GridLineWidth) {
				b.Ground.Line(sp, sq, s.GridLineWidth, b.refGridColor(mid, fade))
			}
		default:
			b.clipSegment(&b.Ground, cp, cq, s.GridLineWidth, b.refGridColor(mid, fade))
		}
		p, cp, inp, sp = q, cq, inq, sq
	}
}

func (b *Builder) refGridColor(w mgl64.Vec3, fade float64) RGBA {
	col := b.refFogged(b.Style.GridColor, w)
	col.A *= float32(fade)
	return col
}

func (b *Builder) refAddCubes(cubes []Cube) {
	b.order = b.order[:0]
	b.faceBase = uint32(len(b.Cubes.Vertices))
	// Room for the most a frame can need (three faces and a hexagon a
	// cube, and the big cubes' tiles), so that a ball growing over a
	// few seconds does not grow the slices a frame at a time.
	n := len(cubes) + 4*27
	b.Cubes.Vertices = slices.Grow(b.Cubes.Vertices, 3*4*n)
	b.Shadows.Vertices = slices.Grow(b.Shadows.Vertices, 6*n)
	b.Shadows.Indices = slices.Grow(b.Shadows.Indices, 12*n)
	b.order = slices.Grow(b.order, 3*n)
	for ci := range cubes {
		b.refAddCube(&cubes[ci])
	}
	// Ascending keys are near to far; the painter draws far faces first.
	b.order = sortKeys(b.order, &b.sortTmp)
	m := &b.Cubes
	m.Indices = slices.Grow(m.Indices, 6*len(b.order))
	for i := len(b.order) - 1; i >= 0; i-- {
		v := b.faceBase + 4*uint32(b.order[i])
		m.Indices = append(m.Indices, v, v+1, v+2, v, v+2, v+3)
	}
}

func (b *Builder) refAddCube(c *Cube) {
	centre := b.proj.Clip(c.Position)
	// A cube fits in a sphere of radius √3·h around its centre.
	if b.proj.sphereOffscreen(centre, 1.7321*c.HalfExtent, 0.25) {
		return
	}
	ax := cubeAxes(c)
	axClip := [3]mgl64.Vec4{b.proj.ClipDir(ax[0]), b.proj.ClipDir(ax[1]), b.proj.ClipDir(ax[2])}
	var clip [8]mgl64.Vec4
	cornersOf(&clip, centre, &axClip)
	for i := range clip {
		if !b.proj.InFront(clip[i]) {
			return // reaches behind the near plane; the camera never gets that close
		}
	}
	light := b.Style.LightDir
	if c.Position[2] < b.Style.MaxShadowAbove {
		// A point w falls along the light to the ground at
		// w − l·(w.z / l.z), which is linear in w, so the shadow's
		// corners are also centre ± axes, each pushed along the light.
		down := func(w mgl64.Vec3) mgl64.Vec3 { return w.Sub(light.Mul(w[2] / light[2])) }
		g := b.proj.Clip(down(c.Position))
		gax := [3]mgl64.Vec4{b.proj.ClipDir(down(ax[0])), b.proj.ClipDir(down(ax[1])), b.proj.ClipDir(down(ax[2]))}
		var ground [8]mgl64.Vec4
		cornersOf(&ground, g, &gax)
		b.refAddShadow(&ground, &ax, light)
	}
	// Back-face culling first: keep faces whose outward normal points
	// toward the eye, and divide by w only the corners they use (at most
	// seven of the eight). Of two opposite faces at most one faces the eye.
	eye := b.proj.eye
	var vis [3]refVisibleFace
	nv := 0
	var need uint8 // bit i: corner i is used
	for axis := 0; axis < 3; axis++ {
		for s := 0; s < 2; s++ {
			n := ax[axis]
			if s == 1 {
				n = mgl64.Vec3{-n[0], -n[1], -n[2]}
			}
			centre := c.Position.Add(n) // of the face
			if n.Dot(eye.Sub(centre)) <= 0 {
				continue
			}
			vis[nv] = refVisibleFace{axis: axis, s: s, n: n, centre: centre}
			nv++
			fc := &faceCorners[axis][s]
			need |= 1<<fc[0] | 1<<fc[1] | 1<<fc[2] | 1<<fc[3]
			break
		}
	}
	var screen [8]Point
	for i := range clip {
		if need&(1<<i) != 0 {
			screen[i] = b.proj.ToScreen(clip[i])
		}
	}
	tiles := max(1, int(math.Round(2*c.HalfExtent/b.Style.FaceTile)))
	for _, f := range vis[:nv] {
		lit := -f.n.Dot(light) / c.HalfExtent
		shade := b.Style.Ambient + b.Style.Diffuse*atLeast0(lit)
		col := RGBA{
			R: float32(atMost1(float64(c.Color.R) * shade)),
			G: float32(atMost1(float64(c.Color.G) * shade)),
			B: float32(atMost1(float64(c.Color.B) * shade)),
			A: c.Color.A,
		}
		if tiles == 1 {
			fc := &faceCorners[f.axis][f.s]
			pts := [4]Point{screen[fc[0]], screen[fc[1]], screen[fc[2]], screen[fc[3]]}
			if b.proj.refAllOffscreen(pts[:], 0) {
				continue // wholly past one edge of the view: it would draw nothing
			}
			d2 := f.centre.Sub(eye).LenSqr()
			b.refQueueFace(&pts, b.fogAt(col, math.Sqrt(d2)), d2)
			continue
		}
		u, v := ax[(f.axis+1)%3], ax[(f.axis+2)%3]
		b.addFaceTiles(f.centre, u, v, tiles, b.refFogged(col, f.centre))
	}
}

func (b *Builder) refAddShadow(ground *[8]mgl64.Vec4, ax *[3]mgl64.Vec3, light mgl64.Vec3) {
	near := 0 // the corner nearest the light: +ax[a] where ax[a] faces it
	for a := range ax {
		if ax[a].Dot(light) < 0 {
			near |= 1 << a
		}
	}
	var q [6]Point
	for k, e := range silhouette {
		g := ground[near^e]
		if !b.proj.InFront(g) {
			b.poly = b.poly[:0]
			for _, e := range silhouette {
				b.poly = append(b.poly, ground[near^e])
			}
			b.addClipped(&b.Shadows, b.poly, RGBA{0, 0, 0, 1})
			return
		}
		q[k] = b.proj.ToScreen(g)
	}
	if b.proj.refAllOffscreen(q[:], 0) {
		return // wholly past one edge of the view: it would draw nothing
	}
	b.Shadows.hexagon(&q)
}

func (b *Builder) refQueueFace(pts *[4]Point, col RGBA, dist2 float64) {
	m := &b.Cubes
	n := len(m.Vertices)
	b.order = append(b.order, faceKey(dist2, (n-int(b.faceBase))/4))
	m.Vertices = slices.Grow(m.Vertices, 4)[:n+4]
	for i := range pts {
		m.Vertices[n+i] = Vertex{
			DstX: pts[i].X, DstY: pts[i].Y, SrcX: 1, SrcY: 1,
			ColorR: col.R, ColorG: col.G, ColorB: col.B, ColorA: col.A,
		}
	}
}

func (p *Projector) refAllOffscreen(pts []Point, margin float32) bool {
	x0, y0 := float32(p.vp.X)-margin, float32(p.vp.Y)-margin
	x1, y1 := float32(p.vp.X+p.vp.W)+margin, float32(p.vp.Y+p.vp.H)+margin
	left, right, above, below := true, true, true, true
	for _, q := range pts {
		left = left && q.X < x0
		right = right && q.X > x1
		above = above && q.Y < y0
		below = below && q.Y > y1
	}
	return left || right || above || below
}

func (p *Projector) refOffscreen(a, b Point, width float32) bool {
	pts := [2]Point{a, b}
	return p.refAllOffscreen(pts[:], width)
}

type refVisibleFace struct {
	axis, s   int
	n, centre mgl64.Vec3
}

// TestBuilderMatchesReference builds the demo scene and a scatter of
// cubes (turned every way, some behind the eye or across the near plane,
// some high enough to cast no shadow, big ones cut into tiles) from
// twelve camera poses around it, with the builder and with the reference
// code, and compares every triangle's vertices bit for bit, in draw
// order.
func TestBuilderMatchesReference(t *testing.T) {
	cubes := demoCubes()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		axis := mgl64.Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}.Normalize()
		cubes = append(cubes, Cube{
			Position:    mgl64.Vec3{rng.Float64()*60 - 30, rng.Float64()*60 - 30, rng.Float64() * 35},
			Orientation: mgl64.QuatRotate(rng.Float64()*2*math.Pi, axis),
			HalfExtent:  0.1 + rng.Float64()*rng.Float64()*1.2,
			Color:       RGBA{rng.Float32(), rng.Float32(), rng.Float32(), 1},
		})
	}
	cfg := DefaultCameraConfig()
	got, want := NewBuilder(DefaultStyle()), NewBuilder(DefaultStyle())
	for pose := range 12 {
		a := float64(pose) * 2 * math.Pi / 12
		player := mgl64.Vec3{6 * math.Cos(a), 6 * math.Sin(a), 0.5}
		cfg.Offset = mgl64.Vec3{11 * math.Sin(a), -11 * math.Cos(a), 2 + float64(pose%4)*2}
		var c Camera
		c.Follow(player, 0.5+float64(pose%3), cfg)
		vp := Viewport{X: 0, Y: 70, W: 638, H: 430}
		if pose%2 == 1 {
			vp = Viewport{X: 642, Y: 0, W: 1278, H: 1010}
		}
		p := NewProjector(c, cfg, vp)
		got.Begin(p)
		got.AddGround(c.Target)
		got.AddCubes(cubes)
		want.Begin(p)
		want.refAddGround(c.Target)
		want.refAddCubes(cubes)
		for _, l := range []struct {
			name      string
			got, want *Mesh
		}{{"ground", &got.Ground, &want.Ground}, {"shadows", &got.Shadows, &want.Shadows}, {"cubes", &got.Cubes, &want.Cubes}} {
			if len(l.got.Indices) != len(l.want.Indices) {
				t.Fatalf("pose %d, %s: %d indices, want %d", pose, l.name, len(l.got.Indices), len(l.want.Indices))
			}
			if len(l.got.Indices) == 0 {
				t.Fatalf("pose %d, %s: nothing drawn (the test would prove nothing)", pose, l.name)
			}
			for i := range l.got.Indices {
				g, w := l.got.Vertices[l.got.Indices[i]], l.want.Vertices[l.want.Indices[i]]
				if g != w {
					t.Fatalf("pose %d, %s, index %d: vertex %+v, want %+v", pose, l.name, i, g, w)
				}
			}
		}
	}
}

// TestGroundVerticesAllUsed: a tile corner gets a vertex only when a
// drawn tile uses it (a vertex no triangle uses still costs Ebitengine a
// copy every frame).
func TestGroundVerticesAllUsed(t *testing.T) {
	b := NewBuilder(DefaultStyle())
	b.Begin(testProjector())
	b.AddGround(mgl64.Vec3{})
	used := make([]bool, len(b.Ground.Vertices))
	for _, i := range b.Ground.Indices {
		used[i] = true
	}
	for i, u := range used {
		if !u {
			t.Fatalf("ground vertex %d of %d is used by no triangle", i, len(used))
		}
	}
}

// TestQuadOffscreen: the written-out test of four points, and the test
// of their outcodes, agree with allOffscreen's loop.
func TestQuadOffscreen(t *testing.T) {
	var p Projector
	p.setViewport(Viewport{X: 100, Y: 50, W: 200, H: 100})
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var q [4]Point
		for i := range q {
			q[i] = Point{rng.Float32()*500 - 50, rng.Float32()*300 - 50}
		}
		if got, want := p.quadOffscreen(&q), p.allOffscreen(q[:], 0); got != want {
			t.Fatalf("%v: quadOffscreen %v, allOffscreen %v", q, got, want)
		}
		// The ground's tiles test their corners' outcodes.
		if got, want := p.outcode(q[0])&p.outcode(q[1])&p.outcode(q[2])&p.outcode(q[3]) != 0, p.quadOffscreen(&q); got != want {
			t.Fatalf("%v: outcodes say %v, quadOffscreen %v", q, got, want)
		}
	}
}

// TestHexOffscreen: the written-out test of a shadow's six points agrees
// with allOffscreen's loop.
func TestHexOffscreen(t *testing.T) {
	var p Projector
	p.setViewport(Viewport{X: 100, Y: 50, W: 200, H: 100})
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		// Shadows near the edges: small hexagons around a random centre.
		var q [6]Point
		cx, cy := rng.Float32()*300+50, rng.Float32()*200
		for i := range q {
			q[i] = Point{cx + rng.Float32()*40 - 20, cy + rng.Float32()*40 - 20}
		}
		if got, want := p.hexOffscreen(&q), p.allOffscreen(q[:], 0); got != want {
			t.Fatalf("%v: hexOffscreen %v, allOffscreen %v", q, got, want)
		}
	}
}
