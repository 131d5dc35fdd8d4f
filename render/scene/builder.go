package scene

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// Builder fills the meshes of one view for one frame. The layers are drawn
// in this order: Ground (tiles with fog, then grid lines), Shadows (into an
// offscreen layer at full strength, composited with Style.ShadowAlpha so
// overlapping shadows do not darken twice), Cubes (depth-sorted faces) and
// Lines (wireframes and overlay segments, on top of everything).
type Builder struct {
	Style Style

	Ground, Shadows, Cubes, Lines Mesh

	proj     Projector
	order    []uint64     // faceKey values
	sortTmp  []uint64     // the radix sort's second buffer
	faceBase uint32       // the Cubes vertex of the first face queued this frame
	poly     []mgl64.Vec4 // scratch for clipping
	// ground grid scratch: clip-space corners and their mesh vertex (−1 = behind)
	gridClip []mgl64.Vec4
	gridVert []int32 // a corner's vertex, or cornerBehind or cornerUnwritten
	gridPts  []Point // a corner's point on screen (when in front)
	gridCode []uint8 // a corner's outcode (Projector.outcode), or outBehind
	clip     []mgl64.Vec4
	pts      []Point
	// a cube's corners in clip space, and its shadow's (addCube)
	corners, groundCorners [8]mgl64.Vec4
	vis                    [3]visibleFace // a cube's faces that face the eye (addFaces)
	fogSpan                float64        // Style.FogEnd − Style.FogStart (Begin)
}

// Style holds the look: light, colours, fog and tiling.
type Style struct {
	// LightDir is the direction the light travels (toward the ground); the
	// same direction shades faces and throws shadows.
	LightDir mgl64.Vec3
	Ambient  float64 // brightness of a face turned away from the light, 0..1
	Diffuse  float64 // extra brightness of a face facing the light squarely

	Fog              RGBA    // colour far geometry fades into (the horizon colour)
	FogStart, FogEnd float64 // metres from the eye where fog begins and is complete

	GroundColor    RGBA
	GroundTile     float64 // ground tile edge, metres (fog is interpolated per tile corner)
	GroundExtent   float64 // ground drawn this far around the camera target, metres
	GridColor      RGBA
	GridSpacing    float64 // metres between grid lines
	GridExtent     float64 // grid lines drawn this far around the target, metres
	GridLineWidth  float32 // pixels
	ShadowAlpha    float32 // opacity of the shadow layer
	MaxShadowAbove float64 // cubes higher than this (metres) cast no shadow

	// FaceTile is the largest face tile edge the depth sort sees, metres.
	// Bigger faces are cut into tiles; see the package comment.
	FaceTile float64
}

// DefaultStyle is a soft studio look that reads well on a projector.
func DefaultStyle() Style {
	return Style{
		LightDir:       mgl64.Vec3{-0.35, 0.55, -1}.Normalize(),
		Ambient:        0.42,
		Diffuse:        0.62,
		Fog:            RGBA{0.80, 0.84, 0.90, 1},
		FogStart:       25,
		FogEnd:         90,
		GroundColor:    RGBA{0.60, 0.64, 0.68, 1},
		GroundTile:     5,
		GroundExtent:   80,
		GridColor:      RGBA{0.47, 0.51, 0.56, 0.55},
		GridSpacing:    2,
		GridExtent:     40,
		GridLineWidth:  1.2,
		ShadowAlpha:    0.32,
		MaxShadowAbove: 30,
		FaceTile:       0.5,
	}
}

// Cube is one cube to draw: its pose, size and unlit colour.
type Cube struct {
	Position    mgl64.Vec3
	Orientation mgl64.Quat
	HalfExtent  float64
	Color       RGBA
}

// A face's sort key packs the squared distance from the eye to the face
// centre (as float32 bits, which order like unsigned integers for positive
// numbers) above the face's index. Sorting plain uint64s is several times
// faster than sorting structs with a comparison function, and the index
// breaks ties in insertion order so the picture does not flicker.
func faceKey(dist2 float64, index int) uint64 {
	return uint64(math.Float32bits(float32(dist2)))<<32 | uint64(uint32(index))
}

// NewBuilder returns a builder with the given style.
func NewBuilder(s Style) *Builder { return &Builder{Style: s} }

// Begin starts a frame seen through p and empties every layer.
func (b *Builder) Begin(p Projector) {
	b.proj = p
	b.fogSpan = b.Style.FogEnd - b.Style.FogStart
	b.Ground.Reset()
	b.Shadows.Reset()
	b.Cubes.Reset()
	b.Lines.Reset()
}

// fogged blends c toward the fog colour by the distance of w from the eye.
func (b *Builder) fogged(c RGBA, w mgl64.Vec3) RGBA {
	e := &b.proj.eye
	dx, dy, dz := w[0]-e[0], w[1]-e[1], w[2]-e[2]
	return b.fogAt(c, math.Sqrt(dx*dx+dy*dy+dz*dz)) // |w − eye|
}

// fogAt blends c toward the fog colour for a distance d from the eye.
// (The fog's span is the builder's, taken from the style when a frame
// begins: fogAt is then small enough for the compiler to inline.)
func (b *Builder) fogAt(c RGBA, d float64) RGBA {
	fog := &b.Style.Fog
	f := float32(clamp01((d - b.Style.FogStart) / b.fogSpan))
	c.R += (fog.R - c.R) * f
	c.G += (fog.G - c.G) * f
	c.B += (fog.B - c.B) * f
	return c
}

// AddGround adds the ground tiles around the camera target and the grid.
// Tile corners are shared: each is projected once, and fogged and written
// once when a tile that is drawn first uses it (a corner of tiles that
// all lie off the view costs no vertex). A tile that lies wholly in front
// of the near plane is two triangles over shared vertices. Only tiles
// crossing the near plane are clipped on their own.
func (b *Builder) AddGround(target mgl64.Vec3) {
	s := &b.Style
	// Tiles and grid lines are anchored to world multiples of their size,
	// so they stay put on the ground as the camera moves.
	t := s.GroundTile
	x0 := math.Floor((target[0]-s.GroundExtent)/t) * t
	y0 := math.Floor((target[1]-s.GroundExtent)/t) * t
	n := int(math.Ceil(2 * s.GroundExtent / t))
	stride := n + 1
	m := &b.Ground
	// Room for the most a frame can need (every tile corner, four
	// vertices a grid piece, a few for clipped tiles), reserved at once
	// so the mesh does not grow a little every time the view turns.
	pieces := 2 * (int(2*s.GridExtent/s.GridSpacing) + 1) * gridPieces
	m.Vertices = slices.Grow(m.Vertices, (n+1)*(n+1)+4*pieces+6*n)
	m.Indices = slices.Grow(m.Indices, 6*n*n+6*pieces+12*n)
	corners := (n + 1) * (n + 1)
	b.gridClip = slices.Grow(b.gridClip[:0], corners)[:corners]
	b.gridVert = slices.Grow(b.gridVert[:0], corners)[:corners]
	b.gridPts = slices.Grow(b.gridPts[:0], corners)[:corners]
	b.gridCode = slices.Grow(b.gridCode[:0], corners)[:corners]
	vp := &b.proj.viewProj
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			k := j*stride + i
			x, y, z := x0+float64(i)*t, y0+float64(j)*t, 0.0
			c := &b.gridClip[k]
			// clipPoint, written out: a thousand corners a view, and in
			// WebAssembly a call costs more than these sums.
			c[0] = vp[0]*x + vp[4]*y + vp[8]*z + vp[12]
			c[1] = vp[1]*x + vp[5]*y + vp[9]*z + vp[13]
			c[2] = vp[2]*x + vp[6]*y + vp[10]*z + vp[14]
			c[3] = vp[3]*x + vp[7]*y + vp[11]*z + vp[15]
			b.gridVert[k] = cornerBehind
			b.gridCode[k] = outBehind
			if c[3] >= b.proj.near { // InFront
				b.gridVert[k] = cornerUnwritten
				q := b.proj.screenOf(c)
				b.gridPts[k] = q
				b.gridCode[k] = b.proj.outcode(q)
			}
		}
	}
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			k0 := j*stride + i
			k := [4]int{k0, k0 + 1, k0 + stride + 1, k0 + stride}
			c0, c1, c2, c3 := b.gridCode[k[0]], b.gridCode[k[1]], b.gridCode[k[2]], b.gridCode[k[3]]
			all, any := c0&c1&c2&c3, c0|c1|c2|c3
			if any&outBehind == 0 {
				// Every corner in front: the tile is drawn unless every
				// corner lies past the same edge of the view (it would
				// draw nothing; quadOffscreen's test, from the corners'
				// codes).
				if all != 0 {
					continue
				}
				var v [4]int32
				for c := range v {
					v[c] = b.gridVert[k[c]]
					if v[c] == cornerUnwritten {
						v[c] = b.groundCorner(k[c], x0, y0, t, stride)
					}
				}
				m.Indices = append(m.Indices, uint32(v[0]), uint32(v[1]), uint32(v[2]), uint32(v[0]), uint32(v[2]), uint32(v[3]))
				continue
			}
			if all&outBehind != 0 {
				continue // wholly behind the eye: clipping would leave nothing
			}
			b.poly = append(b.poly[:0], b.gridClip[k[0]], b.gridClip[k[1]], b.gridClip[k[2]], b.gridClip[k[3]])
			mid := mgl64.Vec3{x0 + (float64(i)+0.5)*t, y0 + (float64(j)+0.5)*t, 0}
			b.addClipped(m, b.poly, b.fogged(s.GroundColor, mid))
		}
	}
	g := s.GridSpacing
	lo := func(v float64) float64 { return math.Floor((v-s.GridExtent)/g) * g }
	gx0, gy0 := lo(target[0]), lo(target[1])
	lines := int(2 * s.GridExtent / g)
	for i := 0; i <= lines; i++ {
		x := gx0 + float64(i)*g
		y := gy0 + float64(i)*g
		b.addGridLine(mgl64.Vec3{x, gy0, 0}, mgl64.Vec3{x, gy0 + 2*s.GridExtent, 0}, target)
		b.addGridLine(mgl64.Vec3{gx0, y, 0}, mgl64.Vec3{gx0 + 2*s.GridExtent, y, 0}, target)
	}
}

// What gridVert holds for a tile corner that has no vertex: behind the
// eye, or in front and not written yet (no tile drawn so far uses it).
const (
	cornerBehind    = -1
	cornerUnwritten = -2
)

// groundCorner writes the vertex of tile corner k (its screen point is
// b.gridPts[k]), fogged by its distance from the eye, and returns it.
func (b *Builder) groundCorner(k int, x0, y0, t float64, stride int) int32 {
	m := &b.Ground
	i, j := k%stride, k/stride
	w := mgl64.Vec3{x0 + float64(i)*t, y0 + float64(j)*t, 0}
	v := len(m.Vertices)
	m.Vertices = grow(m.Vertices, 1)
	m.Vertices[v].set(b.gridPts[k], b.fogged(b.Style.GroundColor, w))
	b.gridVert[k] = int32(v)
	return int32(v)
}

// gridPieces is how many pieces a grid line is drawn in.
const gridPieces = 16

// addGridLine draws a grid line in short pieces, each fading with its
// distance from the target, so the grid dissolves softly at its edge.
// The pieces share their ends: each end is projected once, and divided
// by w only when a piece it ends is drawn. Pieces wholly off one side of
// the view are left out: they would draw nothing. Written in scalars (the
// same operations as mgl64's vector methods, in the same order): it runs
// for two thousand pieces a view.
func (b *Builder) addGridLine(a, c, target mgl64.Vec3) {
	s := &b.Style
	pr := &b.proj
	const pieces = gridPieces
	step := c.Sub(a).Mul(1.0 / pieces)
	dx, dy, dz := c[0]-a[0], c[1]-a[1], c[2]-a[2]
	p := a
	var cp mgl64.Vec4
	pr.clipPoint(&cp, &a)
	dp := pr.ClipDir(step)
	inp := cp[3] >= pr.near // InFront
	var sp Point
	spOK := false // sp is cp on screen
	fadeFrom, fadeOver := 0.6*s.GridExtent, 0.4*s.GridExtent
	for k := 0; k < pieces; k++ {
		f := float64(k+1) / pieces
		q := mgl64.Vec3{a[0] + dx*f, a[1] + dy*f, a[2] + dz*f}
		cq := mgl64.Vec4{cp[0] + dp[0], cp[1] + dp[1], cp[2] + dp[2], cp[3] + dp[3]}
		inq := cq[3] >= pr.near
		if !inp && !inq {
			// Wholly behind the eye: nothing to draw, and no need of its
			// fade (about a third of the grid lies behind the camera).
			p, cp, inp, spOK = q, cq, inq, false
			continue
		}
		mid := mgl64.Vec3{(p[0] + q[0]) * 0.5, (p[1] + q[1]) * 0.5, (p[2] + q[2]) * 0.5}
		mx, my, mz := mid[0]-target[0], mid[1]-target[1], mid[2]-target[2]
		fade := 1 - clamp01((math.Sqrt(mx*mx+my*my+mz*mz)-fadeFrom)/fadeOver)
		var sq Point
		sqOK := false
		switch {
		case fade <= 0:
		case inp && inq:
			if !spOK {
				sp = pr.screenOf(&cp)
			}
			sq, sqOK = pr.screenOf(&cq), true
			if !pr.offscreen(sp, sq, s.GridLineWidth) {
				b.Ground.Line(sp, sq, s.GridLineWidth, b.gridColor(mid, fade))
			}
		default:
			b.clipSegment(&b.Ground, cp, cq, s.GridLineWidth, b.gridColor(mid, fade))
		}
		p, cp, inp, sp, spOK = q, cq, inq, sq, sqOK
	}
}

// gridColor is the grid's colour at w, fogged and faded.
func (b *Builder) gridColor(w mgl64.Vec3, fade float64) RGBA {
	col := b.fogged(b.Style.GridColor, w)
	col.A *= float32(fade)
	return col
}

// AddSegment adds a 3D line segment to the Lines layer (overlays).
func (b *Builder) AddSegment(p, q mgl64.Vec3, width float32, c RGBA) {
	b.segment(&b.Lines, p, q, width, c)
}

func (b *Builder) segment(m *Mesh, p, q mgl64.Vec3, width float32, c RGBA) {
	b.clipSegment(m, b.proj.Clip(p), b.proj.Clip(q), width, c)
}

// clipSegment is segment with its ends already in clip space.
func (b *Builder) clipSegment(m *Mesh, cp, cq mgl64.Vec4, width float32, c RGBA) {
	inp, inq := b.proj.InFront(cp), b.proj.InFront(cq)
	switch {
	case !inp && !inq:
		return
	case !inp:
		cp = cp.Add(cq.Sub(cp).Mul((b.proj.near - cp[3]) / (cq[3] - cp[3])))
	case !inq:
		cq = cq.Add(cp.Sub(cq).Mul((b.proj.near - cq[3]) / (cp[3] - cq[3])))
	}
	m.Line(b.proj.ToScreen(cp), b.proj.ToScreen(cq), width, c)
}

// addClipped clips a clip-space polygon at the near plane and adds it.
func (b *Builder) addClipped(m *Mesh, poly []mgl64.Vec4, c RGBA) {
	b.clip = b.proj.clipNear(b.clip[:0], poly)
	if len(b.clip) < 3 {
		return
	}
	b.pts = b.pts[:0]
	for _, v := range b.clip {
		b.pts = append(b.pts, b.proj.ToScreen(v))
	}
	m.Polygon(b.pts, c)
}

// cubeAxes returns the cube's three half-edge vectors in world space: the
// columns of its rotation matrix scaled by the half extent. (Rotating the
// three unit vectors with quaternion products would cost three times more.)
func cubeAxes(c *Cube) [3]mgl64.Vec3 {
	h := c.HalfExtent
	w, x, y, z := c.Orientation.W, c.Orientation.V[0], c.Orientation.V[1], c.Orientation.V[2]
	return [3]mgl64.Vec3{
		{h * (1 - 2*(y*y+z*z)), h * 2 * (x*y + w*z), h * 2 * (x*z - w*y)},
		{h * 2 * (x*y - w*z), h * (1 - 2*(x*x+z*z)), h * 2 * (y*z + w*x)},
		{h * 2 * (x*z + w*y), h * 2 * (y*z - w*x), h * (1 - 2*(x*x+y*y))},
	}
}

// cubeAxesInto is cubeAxes written into out.
func cubeAxesInto(out *[3]mgl64.Vec3, c *Cube) {
	h := c.HalfExtent
	w, x, y, z := c.Orientation.W, c.Orientation.V[0], c.Orientation.V[1], c.Orientation.V[2]
	out[0] = mgl64.Vec3{h * (1 - 2*(y*y+z*z)), h * 2 * (x*y + w*z), h * 2 * (x*z - w*y)}
	out[1] = mgl64.Vec3{h * 2 * (x*y - w*z), h * (1 - 2*(x*x+z*z)), h * 2 * (y*z + w*x)}
	out[2] = mgl64.Vec3{h * 2 * (x*z + w*y), h * 2 * (y*z - w*x), h * (1 - 2*(x*x+y*y))}
}

// cubeCorners returns the eight corners; corner i has +ax[a] where bit a of
// i is set and −ax[a] where it is clear.
func cubeCorners(p mgl64.Vec3, ax [3]mgl64.Vec3) [8]mgl64.Vec3 {
	var cs [8]mgl64.Vec3
	for i := range cs {
		w := p
		for a := 0; a < 3; a++ {
			if i&(1<<a) != 0 {
				w = w.Add(ax[a])
			} else {
				w = w.Sub(ax[a])
			}
		}
		cs[i] = w
	}
	return cs
}

// cornersOf is cubeCorners in homogeneous clip space, written out by hand
// into out: it runs for every cube twice a frame (body and shadow), and
// sharing the partial sums halves the additions of the generic loop
// (each corner is c ± ax[2] ± (ax[0] ± ax[1])).
func cornersOf(out *[8]mgl64.Vec4, c mgl64.Vec4, ax *[3]mgl64.Vec4) {
	for k := 0; k < 4; k++ {
		pp, pm := ax[0][k]+ax[1][k], ax[0][k]-ax[1][k]
		lo, hi := c[k]-ax[2][k], c[k]+ax[2][k] // bit 2 clear / set
		out[0][k], out[1][k], out[2][k], out[3][k] = lo-pp, lo+pm, lo-pm, lo+pp
		out[4][k], out[5][k], out[6][k], out[7][k] = hi-pp, hi+pm, hi-pm, hi+pp
	}
}

// faceCorners[a][s] lists, in order around the face, the corners of the
// face whose outward normal is +ax[a] (s = 0) or −ax[a] (s = 1).
var faceCorners = func() (t [3][2][4]int) {
	for a := 0; a < 3; a++ {
		u, v := 1<<((a+1)%3), 1<<((a+2)%3)
		for s := 0; s < 2; s++ {
			base := 0
			if s == 0 {
				base = 1 << a
			}
			t[a][s] = [4]int{base, base | u, base | u | v, base | v}
		}
	}
	return t
}()

// AddCubes adds the cubes' visible faces, depth-sorted, to the Cubes layer
// and their shadows to the Shadows layer. Cubes that reach behind the near
// plane are skipped (the camera never gets that close in practice).
//
// Each visible face's four vertices are written once, in the order the
// cubes come, and the depth sort orders only the faces' keys: the sorted
// keys then emit each face's six indices, far to near. The GPU draws the
// triangles in the order of the indices, so the picture is the painter's,
// without copying every vertex a second time into sorted order.
func (b *Builder) AddCubes(cubes []Cube) {
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
		b.addCube(&cubes[ci])
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

// addCube projects one cube, adds its shadow and queues its visible faces.
//
// It runs for every cube of both views every frame, so it is written out
// in scalars rather than with mgl64's vector methods (each of which
// copies its arrays in and out): the same operations in the same order,
// so the same bits, in fewer instructions.
func (b *Builder) addCube(c *Cube) {
	p := &b.proj
	var centre mgl64.Vec4
	p.clipPoint(&centre, &c.Position)
	// A cube whose centre lies behind the near plane has a corner behind
	// it too (its corners come in pairs around the centre), and such a
	// cube is skipped below once its corners are known: skip it now.
	// About a third of the cubes are behind the camera. The margin keeps
	// the rounding of the corners' sums out of the question.
	if centre[3] < p.near-behindMargin {
		return
	}
	// A cube fits in a sphere of radius √3·h around its centre.
	if p.sphereOffscreen(centre, 1.7321*c.HalfExtent, 0.25) {
		return
	}
	var ax [3]mgl64.Vec3
	cubeAxesInto(&ax, c)
	var axClip [3]mgl64.Vec4
	p.clipDirs(&axClip, &ax)
	// The corners go into the builder's scratch: a local array would be
	// zeroed first, 32 stores a cube for nothing (cornersOf writes every
	// element).
	clip := &b.corners
	cornersOf(clip, centre, &axClip)
	for i := range clip {
		if !(clip[i][3] >= p.near) { // !InFront
			return // reaches behind the near plane; the camera never gets that close
		}
	}
	light := &b.Style.LightDir
	if c.Position[2] < b.Style.MaxShadowAbove {
		// A point w falls along the light to the ground at
		// w − l·(w.z / l.z), which is linear in w, so the shadow's
		// corners are also centre ± axes, each pushed along the light.
		var down [4]mgl64.Vec3 // the centre, then the three axes
		down[0] = c.Position
		copy(down[1:], ax[:])
		for i := range down {
			w := &down[i]
			k := w[2] / light[2]
			w[0], w[1], w[2] = w[0]-light[0]*k, w[1]-light[1]*k, w[2]-light[2]*k
		}
		var g mgl64.Vec4
		p.clipPoint(&g, &down[0])
		var gax [3]mgl64.Vec4
		p.clipDirs(&gax, (*[3]mgl64.Vec3)(down[1:]))
		ground := &b.groundCorners
		cornersOf(ground, g, &gax)
		b.addShadow(ground, &ax, light)
	}
	b.addFaces(c, &ax, clip)
}

// behindMargin is how far behind the near plane (metres) a cube's centre
// must lie for addCube to skip the cube before computing its corners.
const behindMargin = 0.01

// addFaces queues the faces of a cube that face the eye. Back-face
// culling comes first: keep faces whose outward normal points toward the
// eye, and divide by w only the corners they use (at most seven of the
// eight). Of two opposite faces at most one faces the eye.
func (b *Builder) addFaces(c *Cube, ax *[3]mgl64.Vec3, clip *[8]mgl64.Vec4) {
	eye := &b.proj.eye
	px, py, pz := c.Position[0], c.Position[1], c.Position[2]
	vis := &b.vis // scratch: a local would be zeroed first
	nv := 0
	var need uint8 // bit i: corner i is used
	for axis := 0; axis < 3; axis++ {
		n := ax[axis]
		for s := 0; s < 2; s++ {
			if s == 1 {
				n = mgl64.Vec3{-n[0], -n[1], -n[2]}
			}
			// The face's centre, and its normal's dot product with the
			// way to the eye: n·(eye − centre).
			cx, cy, cz := px+n[0], py+n[1], pz+n[2]
			if n[0]*(eye[0]-cx)+n[1]*(eye[1]-cy)+n[2]*(eye[2]-cz) <= 0 {
				continue
			}
			vis[nv] = visibleFace{axis: axis, s: s, n: n, centre: mgl64.Vec3{cx, cy, cz}}
			nv++
			need |= faceMask[axis][s]
			break
		}
	}
	var screen [8]Point
	for i := range clip {
		if need&(1<<i) != 0 {
			screen[i] = b.proj.screenOf(&clip[i])
		}
	}
	tiles := 1
	if c.HalfExtent >= 0.7*b.Style.FaceTile { // else math.Round(2h/tile) ≤ 1
		tiles = max(1, int(math.Round(2*c.HalfExtent/b.Style.FaceTile)))
	}
	light := &b.Style.LightDir
	for k := range vis[:nv] {
		f := &vis[k]
		lit := -(f.n[0]*light[0] + f.n[1]*light[1] + f.n[2]*light[2]) / c.HalfExtent
		shade := b.Style.Ambient + b.Style.Diffuse*atLeast0(lit)
		col := RGBA{
			R: float32(atMost1(float64(c.Color.R) * shade)),
			G: float32(atMost1(float64(c.Color.G) * shade)),
			B: float32(atMost1(float64(c.Color.B) * shade)),
			A: c.Color.A,
		}
		if tiles == 1 {
			fc := &faceCorners[f.axis][f.s]
			// (&7: a corner's index is below 8, which spares the bounds checks)
			pts := [4]Point{screen[fc[0]&7], screen[fc[1]&7], screen[fc[2]&7], screen[fc[3]&7]}
			if b.proj.quadOffscreen(&pts) {
				continue // wholly past one edge of the view: it would draw nothing
			}
			dx, dy, dz := f.centre[0]-eye[0], f.centre[1]-eye[1], f.centre[2]-eye[2]
			d2 := dx*dx + dy*dy + dz*dz
			b.queueFace(&pts, b.fogAt(col, math.Sqrt(d2)), d2)
			continue
		}
		u, v := ax[(f.axis+1)%3], ax[(f.axis+2)%3]
		b.addFaceTiles(f.centre, u, v, tiles, b.fogged(col, f.centre))
	}
}

// faceMask[a][s] has bit i set for each corner i of face faceCorners[a][s].
var faceMask = func() (t [3][2]uint8) {
	for a := range faceCorners {
		for s, fc := range faceCorners[a] {
			for _, i := range fc {
				t[a][s] |= 1 << i
			}
		}
	}
	return t
}()

// visibleFace is a cube face that faces the eye: its axis and side (as in
// faceCorners), outward half-edge normal and centre.
type visibleFace struct {
	axis, s   int
	n, centre mgl64.Vec3
}

// silhouette lists, in order around it, the corners of a cube's outline
// as seen along the light, relative to the corner nearest the light: that
// corner with one, two, one, two... of its axis bits flipped. Each step
// flips one bit, so consecutive corners share an edge; the nearest and
// farthest corners lie inside the outline.
var silhouette = [6]int{1, 3, 2, 6, 4, 5}

// addShadow adds a cube's shadow: the ground projection of its outline
// seen from the light, one hexagon (four triangles over six vertices).
// It covers exactly what the projections of the light-facing faces
// would, with half the vertices and no edges inside.
func (b *Builder) addShadow(ground *[8]mgl64.Vec4, ax *[3]mgl64.Vec3, light *mgl64.Vec3) {
	near := 0 // the corner nearest the light: +ax[a] where ax[a] faces it
	for a := range ax {
		if ax[a][0]*light[0]+ax[a][1]*light[1]+ax[a][2]*light[2] < 0 { // ax[a]·light
			near |= 1 << a
		}
	}
	var q [6]Point
	for k, e := range silhouette {
		g := &ground[(near^e)&7]
		if !(g[3] >= b.proj.near) { // !InFront
			b.poly = b.poly[:0]
			for _, e := range silhouette {
				b.poly = append(b.poly, ground[near^e])
			}
			b.addClipped(&b.Shadows, b.poly, RGBA{0, 0, 0, 1})
			return
		}
		q[k] = b.proj.screenOf(g)
	}
	if b.proj.hexOffscreen(&q) {
		return // wholly past one edge of the view: it would draw nothing
	}
	b.Shadows.hexagon(&q)
}

// queueFace writes a face's vertices and its sort key; AddCubes emits
// its indices once the sort has placed it.
// dist2 is the squared distance from the eye to the face's centre.
func (b *Builder) queueFace(pts *[4]Point, col RGBA, dist2 float64) {
	m := &b.Cubes
	n := len(m.Vertices)
	b.order = append(b.order, faceKey(dist2, (n-int(b.faceBase))/4))
	m.Vertices = grow(m.Vertices, 4)
	vs := m.Vertices[n : n+4 : n+4]
	for i := range vs {
		vs[i].set(pts[i], col)
	}
}

// addFaceTiles cuts the face with the given centre and half-edge vectors u,
// v into tiles×tiles quads and queues each for sorting. The caller has
// checked that the whole cube is in front of the near plane.
func (b *Builder) addFaceTiles(centre, u, v mgl64.Vec3, tiles int, col RGBA) {
	inv := 2 / float64(tiles)
	du, dv := u.Mul(inv), v.Mul(inv)
	corner := centre.Sub(u).Sub(v)
	for j := 0; j < tiles; j++ {
		for i := 0; i < tiles; i++ {
			p00 := corner.Add(du.Mul(float64(i))).Add(dv.Mul(float64(j)))
			w := [4]mgl64.Vec3{p00, p00.Add(du), p00.Add(du).Add(dv), p00.Add(dv)}
			var pts [4]Point
			for k := range w {
				pts[k] = b.proj.ToScreen(b.proj.Clip(w[k]))
			}
			b.queueFace(&pts, col, p00.Add(du.Mul(0.5)).Add(dv.Mul(0.5)).Sub(b.proj.eye).LenSqr())
		}
	}
}

// ReserveWireframes makes room in the Lines layer for the edges of n
// cubes more (12 a cube, 4 vertices and 6 indices each): a caller whose
// wireframes vary in number from frame to frame reserves for the most, so
// the layer does not grow a little every frame.
func (b *Builder) ReserveWireframes(n int) {
	b.Lines.Vertices = slices.Grow(b.Lines.Vertices, 12*4*n)
	b.Lines.Indices = slices.Grow(b.Lines.Indices, 12*6*n)
}

// AddWireframe adds the twelve edges of each cube to the Lines layer.
func (b *Builder) AddWireframe(cubes []Cube, width float32, c RGBA) {
	// Room for every edge at once (12 a cube, 4 vertices and 6 indices
	// each), as AddCubes reserves its own.
	b.Lines.Vertices = slices.Grow(b.Lines.Vertices, 12*4*len(cubes))
	b.Lines.Indices = slices.Grow(b.Lines.Indices, 12*6*len(cubes))
	for ci := range cubes {
		cu := &cubes[ci]
		corners := cubeCorners(cu.Position, cubeAxes(cu))
		// Corners i and i|bit share an edge along axis bit.
		for i := 0; i < 8; i++ {
			for a := 0; a < 3; a++ {
				if i&(1<<a) == 0 {
					b.segment(&b.Lines, corners[i], corners[i|1<<a], width, c)
				}
			}
		}
	}
}

// clamp01 limits x to 0..1. It and the two below compare instead of
// calling math.Min and math.Max (calls that also sort out −0 and NaN,
// which never reach them here) or the built-in min and max (a runtime call
// in WebAssembly): they run several times per face.
func clamp01(x float64) float64 { return atLeast0(atMost1(x)) }

func atLeast0(x float64) float64 {
	if x < 0 {
		return 0
	}
	return x
}

func atMost1(x float64) float64 {
	if x > 1 {
		return 1
	}
	return x
}

func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }
