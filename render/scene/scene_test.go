package scene

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// testProjector frames the origin the way the demo frames the player.
func testProjector() Projector {
	cfg := DefaultCameraConfig()
	cfg.AutoFrame = false
	var c Camera
	c.Follow(mgl64.Vec3{}, 0, cfg)
	return NewProjector(c, cfg, Viewport{X: 100, Y: 50, W: 800, H: 900})
}

func TestProject(t *testing.T) {
	p := testProjector()
	centre, ok := p.project(mgl64.Vec3{0, 0, 0.5})
	if !ok || math.Abs(float64(centre.X)-500) > 1e-3 || math.Abs(float64(centre.Y)-500) > 1e-3 {
		t.Fatalf("look-at point projects to %v (ok=%v), want viewport centre (500, 500)", centre, ok)
	}
	tests := []struct {
		name  string
		world mgl64.Vec3
		check func(Point) bool
	}{
		{"right of target is right on screen", mgl64.Vec3{2, 0, 0.5}, func(q Point) bool { return q.X > centre.X+10 }},
		{"left of target is left on screen", mgl64.Vec3{-2, 0, 0.5}, func(q Point) bool { return q.X < centre.X-10 }},
		{"above target is higher on screen", mgl64.Vec3{0, 0, 2.5}, func(q Point) bool { return q.Y < centre.Y-10 }},
		{"nearer the camera on the ground is lower on screen", mgl64.Vec3{0, -3, 0}, func(q Point) bool { return q.Y > centre.Y+10 }},
		{"farther away converges to the horizon", mgl64.Vec3{0, 1000, 0}, func(q Point) bool { return q.Y < centre.Y && q.Y > 50 }},
	}
	for _, tt := range tests {
		q, ok := p.project(tt.world)
		if !ok || !tt.check(q) {
			t.Errorf("%s: %v projects to %v (ok=%v)", tt.name, tt.world, q, ok)
		}
	}
	if _, ok := p.project(mgl64.Vec3{0, -20, 5}); ok {
		t.Error("a point behind the camera projected as visible")
	}
}

func TestCameraEases(t *testing.T) {
	cfg := DefaultCameraConfig()
	cfg.AutoFrame = false // the original's fixed framing
	var c Camera
	c.Follow(mgl64.Vec3{}, 0, cfg)
	if want := cfg.Offset; c.Eye != want {
		t.Fatalf("first Follow should snap: eye %v, want %v", c.Eye, want)
	}
	c.Follow(mgl64.Vec3{10, 0, 0}, 0, cfg)
	if got := c.Eye[0]; math.Abs(got-10*cfg.Ease) > 1e-12 {
		t.Errorf("after one tick the eye moved %v in x, want %v", got, 10*cfg.Ease)
	}
	for i := 0; i < 600; i++ {
		c.Follow(mgl64.Vec3{10, 0, 0}, 0, cfg)
	}
	if d := c.Eye.Sub(mgl64.Vec3{10, 0, 0}.Add(cfg.Offset)).Len(); d > 1e-6 {
		t.Errorf("camera did not settle behind the player: %v m away", d)
	}
}

// TestCameraFramesTheBall: the distance follows the ball's radius and the
// player's speed, clamped, and eases slowly (a change of goal moves it 2 %
// a tick); a larger ball is framed from farther, so it keeps its share of
// the view.
func TestCameraFramesTheBall(t *testing.T) {
	cfg := DefaultCameraConfig()
	for _, tt := range []struct {
		radius, speed, want float64
	}{
		{0.75, 0, cfg.MinDistance},
		{2.5, 0, 3.4 * 2.5},
		{2.5, 4, 3.4*2.5 + 2},
		{3, 40, cfg.MaxDistance},
	} {
		if got := FrameDistance(tt.radius, tt.speed, cfg); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("FrameDistance(%v m, %v m/s) = %v, want %v", tt.radius, tt.speed, got, tt.want)
		}
	}
	var c Camera
	c.Follow(mgl64.Vec3{}, 0.75, cfg)
	if c.Distance != cfg.MinDistance || math.Abs(c.Eye.Len()-cfg.MinDistance) > 1e-9 {
		t.Fatalf("first frame: distance %v, eye %v", c.Distance, c.Eye)
	}
	c.Follow(mgl64.Vec3{}, 2.5, cfg)
	if step := c.Distance - cfg.MinDistance; math.Abs(step-(8.5-7)*cfg.DistanceEase) > 1e-12 {
		t.Errorf("one tick toward a larger ball moved the distance %v m", step)
	}
	for range 600 {
		c.Follow(mgl64.Vec3{}, 2.5, cfg)
	}
	if math.Abs(c.Distance-8.5) > 0.01 {
		t.Errorf("after 10 s the distance is %v, want 8.5", c.Distance)
	}
}

func TestCulling(t *testing.T) {
	tests := []struct {
		name  string
		cube  Cube
		faces int
	}{
		{"cube straight ahead shows front and top", Cube{Position: mgl64.Vec3{0, 0, 0.2}, Orientation: mgl64.QuatIdent(), HalfExtent: 0.2}, 2},
		{"cube to the right also shows its left side", Cube{Position: mgl64.Vec3{3, 0, 0.2}, Orientation: mgl64.QuatIdent(), HalfExtent: 0.2}, 3},
		{"turned 45° about z shows two sides and top", Cube{Position: mgl64.Vec3{0, 0, 0.2}, Orientation: mgl64.QuatRotate(math.Pi/4, mgl64.Vec3{0, 0, 1}), HalfExtent: 0.2}, 3},
		{"player faces are cut into 3×3 tiles", Cube{Position: mgl64.Vec3{0, 0, 0.75}, Orientation: mgl64.QuatIdent(), HalfExtent: 0.75}, 2 * 9},
	}
	for _, tt := range tests {
		b := NewBuilder(DefaultStyle())
		b.Begin(testProjector())
		b.AddCubes([]Cube{tt.cube})
		if got := b.Cubes.triangles() / 2; got != tt.faces {
			t.Errorf("%s: %d quads drawn, want %d", tt.name, got, tt.faces)
		}
	}
}

func TestPainterOrder(t *testing.T) {
	near := Cube{Position: mgl64.Vec3{0, -3, 0.2}, Orientation: mgl64.QuatIdent(), HalfExtent: 0.2, Color: RGBA{1, 0, 0, 1}}
	far := Cube{Position: mgl64.Vec3{0, 3, 0.2}, Orientation: mgl64.QuatIdent(), HalfExtent: 0.2, Color: RGBA{0, 0, 1, 1}}
	for _, order := range [][]Cube{{near, far}, {far, near}} {
		b := NewBuilder(DefaultStyle())
		b.Begin(testProjector())
		b.AddCubes(order)
		m := &b.Cubes
		if len(m.Indices) != 4*6 {
			t.Fatalf("want 4 quads, got %d indices", len(m.Indices))
		}
		// The GPU draws triangles in the order of the indices: far (blue)
		// faces must come first so the near (red) cube paints over them.
		for i, k := range m.Indices {
			v := m.Vertices[k]
			wantBlue := i < 12
			if isBlue := v.ColorB > v.ColorR; isBlue != wantBlue {
				t.Fatalf("index %d: blue=%v, want %v (far cube first)", i, isBlue, wantBlue)
			}
		}
	}
}

func TestClipNear(t *testing.T) {
	p := testProjector()
	// A ground quad that reaches behind the camera is cut at the near plane.
	quad := []mgl64.Vec4{
		p.Clip(mgl64.Vec3{-1, -20, 0}), p.Clip(mgl64.Vec3{1, -20, 0}),
		p.Clip(mgl64.Vec3{1, 5, 0}), p.Clip(mgl64.Vec3{-1, 5, 0}),
	}
	out := p.clipNear(nil, quad)
	if len(out) != 4 {
		t.Fatalf("clipped quad has %d vertices, want 4", len(out))
	}
	for _, v := range out {
		if v[3] < p.near-1e-9 {
			t.Errorf("vertex %v is behind the near plane", v)
		}
	}
	if got := p.clipNear(nil, quad[:0]); len(got) != 0 {
		t.Errorf("empty polygon clipped to %d vertices", len(got))
	}
}

func TestShadowFallsAlongLight(t *testing.T) {
	s := DefaultStyle()
	b := NewBuilder(s)
	p := testProjector()
	b.Begin(p)
	c := Cube{Position: mgl64.Vec3{0, 0, 3}, Orientation: mgl64.QuatIdent(), HalfExtent: 0.2}
	b.AddCubes([]Cube{c})
	if len(b.Shadows.Vertices) == 0 {
		t.Fatal("no shadow")
	}
	// The shadow of the cube centre lies where the light ray through it hits z = 0.
	g := c.Position.Add(s.LightDir.Mul(-c.Position[2] / s.LightDir[2]))
	want, _ := p.project(g)
	var cx, cy float32
	for _, v := range b.Shadows.Vertices {
		cx += v.DstX
		cy += v.DstY
	}
	n := float32(len(b.Shadows.Vertices))
	if d := math.Hypot(float64(cx/n-want.X), float64(cy/n-want.Y)); d > 15 {
		t.Errorf("shadow centre is %.1f px from where the light ray meets the ground", d)
	}
}

func TestEaser(t *testing.T) {
	p := DefaultPalette()
	var e Easer
	inter, upd := false, false
	adv := func() {
		e.Advance(&p, 1, func(int) bool { return inter }, func(int) bool { return upd })
	}
	adv()
	if e.Red(0) != 0 {
		t.Fatalf("a resting cube starts red %v", e.Red(0))
	}
	inter, upd = true, true
	adv()
	if e.Red(0) != p.RiseRate || e.Flash(0) != 1 {
		t.Errorf("after one interacting tick red=%v flash=%v, want %v and 1", e.Red(0), e.Flash(0), p.RiseRate)
	}
	upd = false
	for i := 0; i < 30; i++ {
		adv()
	}
	if e.Red(0) < 0.99 || e.Flash(0) > 0.01 {
		t.Errorf("after 30 ticks red=%v flash=%v, want ≈1 and ≈0", e.Red(0), e.Flash(0))
	}
	inter = false
	before := e.Red(0)
	adv()
	if r, want := e.Red(0), before*(1-p.FallRate); math.Abs(float64(r-want)) > 1e-6 {
		t.Errorf("fade back to grey should lose %v per tick: red=%v, want %v", p.FallRate, r, want)
	}
}

// demoCubes lays out the 901-cube scene: the 30×30 grid and the player with
// a pile of 200 cubes around it, so the benchmark sees a katamari moment.
func demoCubes() []Cube {
	cubes := []Cube{{Position: mgl64.Vec3{0, 0, 0.75}, Orientation: mgl64.QuatRotate(0.4, mgl64.Vec3{1, 0.3, 0}.Normalize()), HalfExtent: 0.75}}
	for j := 0; j < 30; j++ {
		for i := 0; i < 30; i++ {
			k := j*30 + i
			p := mgl64.Vec3{float64(i) - 14.5, float64(j) - 14.5, 0.2}
			q := mgl64.QuatIdent()
			if k < 200 {
				// Spread over a sphere of radius 1.2 m around the player.
				a := float64(k) * 2.399963 // golden angle
				z := 1 - 2*(float64(k)+0.5)/200
				r := math.Sqrt(1 - z*z)
				p = mgl64.Vec3{1.2 * r * math.Cos(a), 1.2 * r * math.Sin(a), 0.75 + 1.2*z}
				q = mgl64.QuatRotate(a, mgl64.Vec3{1, 1, 0}.Normalize())
			}
			cubes = append(cubes, Cube{Position: p, Orientation: q, HalfExtent: 0.2, Color: RGBA{0.9, 0.9, 0.9, 1}})
		}
	}
	return cubes
}

func TestBuildSteadyStateDoesNotAllocate(t *testing.T) {
	b := NewBuilder(DefaultStyle())
	cubes := demoCubes()
	p := testProjector()
	build := func() {
		b.Begin(p)
		b.AddGround(mgl64.Vec3{})
		b.AddCubes(cubes)
		b.AddWireframe(cubes[:50], 1, RGBA{0, 1, 0, 1})
	}
	build()
	if n := testing.AllocsPerRun(5, build); n != 0 {
		t.Errorf("building a frame allocates %v times", n)
	}
}

// BenchmarkBuildView is the CPU cost of one view's triangles per frame:
// ground, 901 cubes with shadows, sorted. Goal ≤ 2 ms.
func BenchmarkBuildView(b *testing.B) {
	bl := NewBuilder(DefaultStyle())
	cubes := demoCubes()
	p := testProjector()
	b.ReportAllocs()
	for b.Loop() {
		bl.Begin(p)
		bl.AddGround(mgl64.Vec3{})
		bl.AddCubes(cubes)
	}
	b.ReportMetric(float64(bl.Cubes.triangles()+bl.Shadows.triangles()+bl.Ground.triangles()), "triangles")
}

func BenchmarkBuildGround(b *testing.B) {
	bl := NewBuilder(DefaultStyle())
	p := testProjector()
	b.ReportAllocs()
	for b.Loop() {
		bl.Begin(p)
		bl.AddGround(mgl64.Vec3{})
	}
}

func BenchmarkBuildCubes(b *testing.B) {
	bl := NewBuilder(DefaultStyle())
	cubes := demoCubes()
	p := testProjector()
	b.ReportAllocs()
	for b.Loop() {
		bl.Begin(p)
		bl.AddCubes(cubes)
	}
	b.ReportMetric(float64(len(bl.order)), "faces")
}

// TestAllOffscreen: a shape is left out only when all its points are past
// the same edge of the viewport; points past different edges may still
// cross it (a tile across a corner).
func TestAllOffscreen(t *testing.T) {
	var p Projector
	p.setViewport(Viewport{X: 100, Y: 50, W: 200, H: 100})
	for _, c := range []struct {
		name string
		pts  []Point
		want bool
	}{
		{"inside", []Point{{150, 80}, {160, 90}}, false},
		{"all left", []Point{{10, 0}, {94, 200}}, true},
		{"all below", []Point{{0, 156}, {500, 400}}, true},
		{"across the top-left corner", []Point{{90, 80}, {150, 40}}, false},
		{"left and right", []Point{{50, 80}, {350, 80}}, false},
		{"within the margin", []Point{{96, 80}, {97, 90}}, false},
	} {
		if got := p.allOffscreen(c.pts, 5); got != c.want {
			t.Errorf("%s: allOffscreen = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSortKeys: the radix sort orders face keys exactly as a comparison
// sort of the whole keys does, for keys queued in index order (ties in
// distance keep their queueing order), at sizes on both sides of the
// insertion sort's cut-off and with distances that share their top bytes.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tmp []uint64
	for _, tt := range []struct {
		n      int
		spread float64 // distances in [1, 1+spread)
	}{{0, 1}, {1, 1}, {10, 100}, {63, 5}, {64, 5}, {2000, 0.001}, {2000, 400}, {3000, 1e6}} {
		keys := make([]uint64, tt.n)
		for i := range keys {
			d := 1 + rng.Float64()*tt.spread
			if i%7 == 3 && i > 0 {
				d = float64(math.Float32frombits(uint32(keys[i-1] >> 32))) // a tie
			}
			keys[i] = faceKey(d, i)
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		if got := sortKeys(keys, &tmp); !slices.Equal(got, want) {
			t.Errorf("n=%d spread=%g: radix order differs from slices.Sort", tt.n, tt.spread)
		}
	}
}
