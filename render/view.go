package render

import (
	"cmp"
	"image"
	"math"
	"slices"
	"unsafe"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/render/scene"
	"netcubes/viewmodel"
)

// TintMode chooses what cube colours mean on the right view.
type TintMode int

const (
	TintNone     TintMode = iota // player blue, interacting red, resting grey
	TintPriority                 // heat scale of the priority accumulator
	TintUpdated                  // flash cubes whose state update was applied this tick
)

// String names the mode for the HUD.
func (t TintMode) String() string {
	switch t {
	case TintPriority:
		return "priority"
	case TintUpdated:
		return "updated this tick"
	}
	return "interacting"
}

// Overlays are the presenter's visual aids; they only change what is drawn.
type Overlays struct {
	Ghost        bool     // draw the left's true pose as a wireframe over the right view
	Tint         TintMode // what cube colours encode
	ErrorOffsets bool     // draw each cube's visual smoothing offset as a line
}

var whiteSrc *ebiten.Image

// shadowLayer is the offscreen image the views draw their shadows into
// (drawShadows).
var shadowLayer *ebiten.Image

// white returns the centre texel of a 3×3 white image: a source for
// DrawTriangles whose colour comes entirely from the vertices, with no
// filtering bleed from the image edge.
func white() *ebiten.Image {
	if whiteSrc == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(image.White)
		whiteSrc = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	return whiteSrc
}

// View renders one side. Call Tick once per simulation tick and Draw once
// per frame.
type View struct {
	Camera       scene.Camera
	CameraConfig scene.CameraConfig
	Palette      scene.Palette
	// AntiAlias smooths the edges of faces and lines. It costs little on a
	// GPU but a lot on software OpenGL (a virtual display in CI), where
	// turning it off makes frames about ten times cheaper.
	AntiAlias bool
	// Stamp names the state of the view models the caller hands to Draw:
	// the caller changes it whenever they may have changed (the app counts
	// its ticks, keys and commands), and 0 says "unknown". A Draw with the
	// same non-zero stamp, view models, rectangle and overlays as the last
	// one, the camera and colours untouched since (Tick and Reset), draws
	// the last frame's triangles again instead of building them: a display
	// faster than the simulation's 60 ticks a second draws frames between
	// two ticks, and those are the same picture.
	Stamp uint64

	builder *scene.Builder
	built   builtKey
	easer   scene.Easer
	cubes   []scene.Cube
	ghost   []scene.Cube
	// ghostIdx lists the cubes that differ; ghostOff and ghostDrawn count
	// them and the outlined ones at the last Draw (for the legend).
	ghostIdx             []int
	ghostOff, ghostDrawn int
	sky                  [4]ebiten.Vertex
	// The sub-images drawn into, kept from frame to frame (see sub).
	target, layer subImage
	meshOpts      ebiten.DrawTrianglesOptions
	// room and indexRoom are how many vertices and indices each image
	// drawn onto was handed at most (widen).
	room, indexRoom map[*ebiten.Image]int
	layerOpts       ebiten.DrawImageOptions
	// prep is a build started by Prepare on another core.
	prep preparedBuild
}

// builtKey is what the builder's triangles were built from (View.Stamp).
type builtKey struct {
	stamp     uint64
	m, ghost  *viewmodel.View
	rect      image.Rectangle
	ov        Overlays
	camera    scene.Camera
	cameraCfg scene.CameraConfig
	palette   scene.Palette
}

// subImage is a sub-image of a parent image kept between frames. Each
// SubImage call makes a new *ebiten.Image, and each new image grows its
// own vertex and index buffers on its first DrawTriangles: for the two
// views, their shadow layers and the katamari's triangles, about a
// quarter of a megabyte of garbage a frame.
type subImage struct {
	parent *ebiten.Image
	rect   image.Rectangle
	img    *ebiten.Image
}

// of returns parent's sub-image for r, the kept one when neither changed.
func (s *subImage) of(parent *ebiten.Image, r image.Rectangle) *ebiten.Image {
	if s.img == nil || s.parent != parent || s.rect != r {
		s.parent, s.rect = parent, r
		s.img = parent.SubImage(r).(*ebiten.Image)
	}
	return s.img
}

// NewView returns a renderer with the default camera, palette and style.
func NewView() *View {
	return &View{
		CameraConfig: scene.DefaultCameraConfig(),
		AntiAlias:    true,
		Palette:      scene.DefaultPalette(),
		builder:      scene.NewBuilder(scene.DefaultStyle()),
	}
}

// Reset forgets camera and colour easing, e.g. after the world is reset.
func (v *View) Reset() {
	v.wait()
	v.built = builtKey{}
	v.Camera.Snap()
	v.easer.Reset()
}

// Tick advances the camera and colour easing by one simulation tick.
func (v *View) Tick(m *viewmodel.View) {
	v.wait()
	v.built = builtKey{}
	if len(m.Cubes) == 0 {
		return
	}
	v.Camera.Follow(m.Cubes[m.Player].Position, BallRadius(m), v.CameraConfig)
	v.easer.Advance(&v.Palette, len(m.Cubes),
		func(i int) bool { return m.Cubes[i].Interacting || m.Cubes[i].Player },
		func(i int) bool { return m.Cubes[i].Updated })
}

// cubeColor is the unlit colour of cube i under the tint mode.
func (v *View) cubeColor(m *viewmodel.View, i int, tint TintMode) scene.RGBA {
	c := &m.Cubes[i]
	p := &v.Palette
	// Most cubes have never been touched: Mix at 0 is the resting
	// colour itself (a + (b − a)·0 = a for finite colours), spared.
	base := p.Resting
	if red := v.easer.Red(i); red != 0 {
		base = scene.Mix(p.Resting, p.Interacting, red)
	}
	if c.Player {
		base = p.PlayerColor(c.PlayerNum)
	} else if m.HasOwners {
		base = ownerColor(p, c, base)
	}
	switch tint {
	case TintPriority:
		if m.HasPriority && !c.Player {
			return scene.Mix(p.PriorityLow, p.PriorityHigh, float32(min(1, max(0, c.Priority))))
		}
	case TintUpdated:
		dim := scene.Mix(base, scene.RGBA{R: 0.45, G: 0.47, B: 0.5, A: 1}, 0.6)
		return scene.Mix(dim, p.Updated, v.easer.Flash(i))
	}
	return base
}

// ownerColor tints a cube by the player whose machine simulates it
// (distributed authority): the default authority keeps the usual colours,
// a player's cubes take its colour, and a cube that just changed hands
// flashes toward white.
func ownerColor(p *scene.Palette, c *viewmodel.CubeView, base scene.RGBA) scene.RGBA {
	if c.Owner > 0 {
		base = scene.Mix(p.Resting, p.PlayerColor(c.Owner), 0.8)
	}
	if c.HandOff {
		base = scene.Mix(base, scene.RGBA{R: 1, G: 1, B: 1, A: 1}, 0.6)
	}
	return base
}

// Draw renders the view model m into rect of dst. ghost, when not nil and
// ov.Ghost is set, is drawn as a wireframe on top (the left's true pose).
func (v *View) Draw(dst *ebiten.Image, rect image.Rectangle, m *viewmodel.View, ghost *viewmodel.View, ov Overlays) {
	if rect.Empty() {
		return
	}
	target := v.target.of(dst, rect)
	v.drawSky(target, rect)
	if len(m.Cubes) == 0 {
		return
	}
	b := v.frame(rect, m, ghost, ov)
	opts := &v.meshOpts
	*opts = ebiten.DrawTrianglesOptions{AntiAlias: v.AntiAlias}
	v.drawMesh(target, &b.Ground, opts)
	v.drawShadows(target, rect, &b.Shadows)
	v.drawMesh(target, &b.Cubes, opts)
	v.drawMesh(target, &b.Lines, opts)
}

// frame is Build's triangles for Draw: the ones Prepare started when
// they were built from the same, the last frame's when nothing they were
// built from has changed since (Stamp).
func (v *View) frame(rect image.Rectangle, m *viewmodel.View, ghost *viewmodel.View, ov Overlays) *scene.Builder {
	key := v.keyOf(rect, m, ghost, ov)
	if v.wait() && v.prep.key == key {
		v.built = key
		return v.builder
	}
	if v.Stamp != 0 && key == v.built {
		return v.builder
	}
	b := v.build(rect, m, ghost, ov)
	v.built = key
	return b
}

// keyOf is what a build for these arguments is built from.
func (v *View) keyOf(rect image.Rectangle, m *viewmodel.View, ghost *viewmodel.View, ov Overlays) builtKey {
	return builtKey{stamp: v.Stamp, m: m, ghost: ghost, rect: rect, ov: ov,
		camera: v.Camera, cameraCfg: v.CameraConfig, palette: v.Palette}
}

// Build fills the view's triangles for one frame, as Draw draws them into
// rect (ground, shadows, cubes, the overlays' lines), and returns the
// builder holding them: Draw's work on the CPU before Ebitengine takes
// the vertices, which a benchmark can measure without a display.
func (v *View) Build(rect image.Rectangle, m *viewmodel.View, ghost *viewmodel.View, ov Overlays) *scene.Builder {
	v.wait()
	return v.build(rect, m, ghost, ov)
}

// build is Build, once no prepared build is pending.
func (v *View) build(rect image.Rectangle, m *viewmodel.View, ghost *viewmodel.View, ov Overlays) *scene.Builder {
	v.built = builtKey{} // Draw sets it when it is Draw's own build
	vp := scene.Viewport{X: float64(rect.Min.X), Y: float64(rect.Min.Y), W: float64(rect.Dx()), H: float64(rect.Dy())}
	proj := scene.NewProjector(v.Camera, v.CameraConfig, vp)
	b := v.builder
	b.Begin(proj)
	b.AddGround(v.Camera.Target)

	v.cubes = slices.Grow(v.cubes[:0], len(m.Cubes))
	for i := range m.Cubes {
		c := &m.Cubes[i]
		v.cubes = append(v.cubes, scene.Cube{
			Position:    c.Position,
			Orientation: c.Orientation,
			HalfExtent:  c.HalfExtent,
			Color:       v.cubeColor(m, i, ov.Tint),
		})
	}
	b.AddCubes(v.cubes)
	v.ghostOff, v.ghostDrawn = 0, 0
	if ov.Ghost && ghost != nil {
		// Outline only the cubes whose true pose differs visibly from the
		// drawn one: in sync the view stays clean, and divergence, pops and
		// lag stand out in green. When many differ, only the MaxGhosts
		// farthest are outlined (and the player): beyond that the ball
		// turns into a green mesh that hides what it should show.
		// Room for every cube at once: the buffers do not grow a frame
		// at a time as the views drift apart.
		v.ghostIdx, v.ghostOff = pickGhosts(m, ghost, slices.Grow(v.ghostIdx[:0], len(ghost.Cubes)))
		v.ghost = slices.Grow(v.ghost[:0], max(len(v.ghostIdx), MaxGhosts))
		for _, i := range v.ghostIdx {
			c := &ghost.Cubes[i]
			v.ghost = append(v.ghost, scene.Cube{Position: c.Position, Orientation: c.Orientation, HalfExtent: c.HalfExtent})
		}
		v.ghostDrawn = len(v.ghost)
		// Room for the most ghosts and a few marks at once, as above.
		b.ReserveWireframes(MaxGhosts + 8)
		b.AddWireframe(v.ghost, 1.3, scene.RGBA{R: 0.05, G: 0.75, B: 0.35, A: 0.9})
	}
	if ov.ErrorOffsets && m.HasErrorOffsets {
		// After the ghosts, so they are drawn on top; magnified, since a
		// smoothing offset is millimetres to centimetres: from where the
		// simulation has the cube, OffsetScale times the offset, with a
		// dot at the simulation's end.
		for i := range m.Cubes {
			c := &m.Cubes[i]
			if c.ErrorOffset.LenSqr() > 1e-6 {
				from := c.Position.Sub(c.ErrorOffset)
				to := from.Add(c.ErrorOffset.Mul(OffsetScale))
				b.AddSegment(from, to, 4, scene.RGBA{R: 1, G: 0.6, B: 0.1, A: 1})
				b.AddSegment(from, from.Add(mgl64.Vec3{0, 0, 0.06}), 7, scene.RGBA{R: 1, G: 0.85, B: 0.2, A: 1})
			}
		}
	}
	if ov.Ghost {
		v.drawMarks(b, m.Marks)
	}
	return b
}

// drawMarks outlines a strategy's marks: the server's last known pose in
// cyan, a replay's jump in magenta (the pose it left, and a line to where
// it went; orange is the smoothing offsets' colour), another player's true
// pose in the ghost's green, a disputed tag in red (a line to where the
// server judged it).
func (v *View) drawMarks(b *scene.Builder, marks []viewmodel.Mark) {
	for k := range marks {
		mk := &marks[k]
		c := []scene.Cube{{Position: mk.Position, Orientation: mk.Orientation, HalfExtent: mk.HalfExtent}}
		switch mk.Kind {
		case viewmodel.MarkServer:
			b.AddWireframe(c, 1.6, scene.RGBA{R: 0.1, G: 0.85, B: 0.95, A: 0.95})
		case viewmodel.MarkReplay:
			magenta := scene.RGBA{R: 0.95, G: 0.2, B: 0.95, A: 0.95}
			b.AddWireframe(c, 1.6, magenta)
			b.AddSegment(mk.Position, mk.To, 3, magenta)
		case viewmodel.MarkTruth:
			b.AddWireframe(c, 1.3, scene.RGBA{R: 0.05, G: 0.75, B: 0.35, A: 0.9})
		case viewmodel.MarkContested:
			b.AddWireframe(c, 2.2, scene.RGBA{R: 1, G: 0.55, B: 0.05, A: 0.95})
		case viewmodel.MarkDisputed:
			red := scene.RGBA{R: 0.95, G: 0.1, B: 0.1, A: 0.95}
			b.AddWireframe(c, 2.2, red)
			b.AddSegment(mk.Position, mk.To, 4, red)
		}
	}
}

// drawSky fills the rectangle with a vertical gradient toward the fog
// colour, so the far ground melts into the horizon.
func (v *View) drawSky(dst *ebiten.Image, r image.Rectangle) {
	top := scene.RGBA{R: 0.50, G: 0.62, B: 0.80, A: 1}
	bottom := v.builder.Style.Fog
	x0, y0, x1, y1 := float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y)
	set := func(i int, x, y float32, c scene.RGBA) {
		v.sky[i] = ebiten.Vertex{DstX: x, DstY: y, SrcX: 1, SrcY: 1, ColorR: c.R, ColorG: c.G, ColorB: c.B, ColorA: 1}
	}
	set(0, x0, y0, top)
	set(1, x1, y0, top)
	set(2, x1, y1, bottom)
	set(3, x0, y1, bottom)
	dst.DrawTriangles(v.sky[:], skyIndices, white(), nil)
}

// skyIndices are the sky quad's two triangles (a variable: a literal
// handed to DrawTriangles is allocated each call).
var skyIndices = []uint16{0, 1, 2, 0, 2, 3}

// drawShadows draws the shadow mesh at full strength into an offscreen
// layer and then blends the layer at the shadow alpha: where the shadows of
// two cubes overlap, the ground is darkened once, as under a real light.
func (v *View) drawShadows(dst *ebiten.Image, r image.Rectangle, m *scene.Mesh) {
	// The layer is made at the first view's first frame, shadows or not:
	// made when the first shadow appears, it would cost that frame. One
	// layer serves every view (they draw one after another, and
	// Ebitengine runs its commands in order: a view's shadows are blended
	// before the next view clears the layer), as large as the image drawn
	// onto, so a view changing size within it (the panel below changing
	// height) makes no new layer: a new image is some thirty allocations,
	// Ebitengine's and the atlas's, and the grid of clients' views would
	// otherwise hold a screen-sized layer each.
	full := v.target.parent.Bounds() // dst is the view's own sub-image
	if shadowLayer == nil || shadowLayer.Bounds().Dx() < r.Max.X || shadowLayer.Bounds().Dy() < r.Max.Y {
		if shadowLayer != nil {
			shadowLayer.Deallocate()
		}
		shadowLayer = ebiten.NewImage(max(r.Max.X, full.Max.X), max(r.Max.Y, full.Max.Y))
	}
	layer := v.layer.of(shadowLayer, r)
	layer.Clear()
	v.drawMesh(layer, m, &v.meshOpts)
	op := &v.layerOpts
	*op = ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	op.ColorScale.ScaleAlpha(v.builder.Style.ShadowAlpha)
	dst.DrawImage(layer, op)
}

func (v *View) drawMesh(dst *ebiten.Image, m *scene.Mesh, opts *ebiten.DrawTrianglesOptions) {
	if len(m.Indices) == 0 {
		return
	}
	vs, is := m.Vertices, m.Indices
	if len(vs) > v.room[dst] || len(is) > v.indexRoom[dst] {
		vs, is = v.widen(dst, m)
	}
	dst.DrawTriangles32(EbitenVertices(vs), is, white(), opts)
}

// widen hands Ebitengine a quarter more room than m needs, the first time
// m is larger than any mesh drawn onto dst before. Ebitengine keeps a
// buffer per destination image for the vertices and indices handed to
// it, grown to the exact size asked: a mesh growing a little every frame
// (the ball forming) would allocate a new buffer every frame. The vertices
// past the mesh's are whatever its slice holds there and drawn by no
// index; the indices past its are zeros, triangles of no area.
func (v *View) widen(dst *ebiten.Image, m *scene.Mesh) ([]scene.Vertex, []uint32) {
	if v.room == nil {
		v.room, v.indexRoom = map[*ebiten.Image]int{}, map[*ebiten.Image]int{}
	}
	nv := max(v.room[dst], len(m.Vertices)+len(m.Vertices)/4)
	ni := max(v.indexRoom[dst], (len(m.Indices)+len(m.Indices)/4)/3*3+3)
	m.Vertices = slices.Grow(m.Vertices, nv-len(m.Vertices))
	m.Indices = slices.Grow(m.Indices, ni-len(m.Indices))
	is := m.Indices[:ni]
	clear(is[len(m.Indices):])
	v.room[dst], v.indexRoom[dst] = nv, ni
	return m.Vertices[:nv], is
}

// EbitenVertices views a mesh's vertices as Ebitengine's, without copying
// them: scene.Vertex has ebiten.Vertex's fields in the same order (the
// conversion below would not compile otherwise), so the two share one
// memory layout. Copying ten thousands of vertices a view every frame cost
// as much as building some of them.
func EbitenVertices(vs []scene.Vertex) []ebiten.Vertex {
	if len(vs) == 0 {
		return nil
	}
	return unsafe.Slice((*ebiten.Vertex)(unsafe.Pointer(&vs[0])), len(vs))
}

// pickGhosts appends to dst the cubes whose drawn pose differs visibly
// from the truth, at most MaxGhosts of them: the player first, then the
// farthest. off is how many differ in all.
func pickGhosts(m, ghost *viewmodel.View, dst []int) (idx []int, off int) {
	for i := range ghost.Cubes {
		if i < len(m.Cubes) && !differs(&m.Cubes[i], &ghost.Cubes[i]) {
			continue
		}
		dst = append(dst, i)
	}
	off = len(dst)
	if len(dst) > MaxGhosts && len(m.Cubes) == len(ghost.Cubes) {
		dist := func(i int) float64 { return m.Cubes[i].Position.Sub(ghost.Cubes[i].Position).LenSqr() }
		slices.SortStableFunc(dst, func(a, b int) int {
			if pa, pb := a == m.Player, b == m.Player; pa != pb {
				if pa {
					return -1
				}
				return 1
			}
			return cmp.Compare(dist(b), dist(a))
		})
		dst = dst[:MaxGhosts]
	}
	return dst, off
}

// BallRadius is how far the katamari ball reaches from the player's centre:
// the player's own half size, or the farthest interacting cube within
// ballReach of it (plus that cube's half size), whichever is larger.
func BallRadius(m *viewmodel.View) float64 {
	if m.Player < 0 || m.Player >= len(m.Cubes) {
		return 0
	}
	p := &m.Cubes[m.Player]
	r := p.HalfExtent
	for i := range m.Cubes {
		c := &m.Cubes[i]
		if i == m.Player || !c.Interacting {
			continue
		}
		if d := c.Position.Sub(p.Position).Len(); d < ballReach {
			r = max(r, d+c.HalfExtent)
		}
	}
	return r
}

// ballReach bounds the ball: cubes farther from the player are flying, not
// stuck (the katamari pull reaches 1.8 m from the centre).
const ballReach = 3.0

// MaxGhosts is the most cubes outlined by the ghost at once (the
// farthest from the truth, the player first).
const MaxGhosts = 40

// OffsetScale magnifies the smoothing offsets E draws, so that offsets of
// a few millimetres show as lines; the legend says so.
const OffsetScale = 5

// GhostCounts is how many cubes differed from the truth at the last Draw
// and how many of them were outlined.
func (v *View) GhostCounts() (off, drawn int) { return v.ghostOff, v.ghostDrawn }

// Ghost thresholds: a cube is outlined when its drawn pose is this far from
// the truth. 2 cm is about a pixel and a half for a cube at the centre of a
// 1080p view; 3° tilts a 0.4 m cube's edge by 1 cm.
const (
	ghostMinOffset = 0.02              // m
	ghostMinDot    = 0.999657324975557 // cos(3°/2)
)

// differs reports whether the drawn cube is visibly away from the truth.
func differs(drawn, truth *viewmodel.CubeView) bool {
	if drawn.Position.Sub(truth.Position).LenSqr() > ghostMinOffset*ghostMinOffset {
		return true
	}
	// |q1·q2| = cos(θ/2) for the angle θ between the two rotations.
	return math.Abs(drawn.Orientation.Dot(truth.Orientation)) < ghostMinDot
}

// compile-time check that scene.Vertex converts to ebiten.Vertex.
var _ = ebiten.Vertex(scene.Vertex{})
