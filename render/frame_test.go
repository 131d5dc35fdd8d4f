package render

import (
	"image"
	"runtime"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/render/scene"
	"netcubes/viewmodel"
)

// TestFrameReusesOnlyWhatIsUnchanged: a frame drawn with the same stamp,
// view models, rectangle and overlays, the camera and colours untouched,
// reuses the last frame's triangles; any change builds them again, and a
// reused frame holds what a fresh build gives.
func TestFrameReusesOnlyWhatIsUnchanged(t *testing.T) {
	m := &viewmodel.View{Player: 0}
	for i := range 40 {
		m.Cubes = append(m.Cubes, viewmodel.CubeView{
			Position: mgl64.Vec3{float64(i%7) - 3, float64(i/7) - 2, 0.2}, Orientation: mgl64.QuatIdent(), HalfExtent: 0.2})
	}
	other := &viewmodel.View{Player: 0, Cubes: slices.Clone(m.Cubes)}
	rect := image.Rect(0, 0, 320, 200)
	cases := []struct {
		name   string
		change func(v *View, rect *image.Rectangle, m **viewmodel.View, ov *Overlays)
		reuse  bool
	}{
		{"nothing", func(*View, *image.Rectangle, **viewmodel.View, *Overlays) {}, true},
		{"stamp", func(v *View, _ *image.Rectangle, _ **viewmodel.View, _ *Overlays) { v.Stamp++ }, false},
		{"no stamp", func(v *View, _ *image.Rectangle, _ **viewmodel.View, _ *Overlays) { v.Stamp = 0 }, false},
		{"tick", func(v *View, _ *image.Rectangle, m **viewmodel.View, _ *Overlays) { v.Tick(*m) }, false},
		{"reset", func(v *View, _ *image.Rectangle, _ **viewmodel.View, _ *Overlays) { v.Reset() }, false},
		{"rectangle", func(_ *View, r *image.Rectangle, _ **viewmodel.View, _ *Overlays) { r.Max.X-- }, false},
		{"view model", func(_ *View, _ *image.Rectangle, m **viewmodel.View, _ *Overlays) { *m = other }, false},
		{"overlays", func(_ *View, _ *image.Rectangle, _ **viewmodel.View, ov *Overlays) { ov.Tint = TintUpdated }, false},
		{"camera", func(v *View, _ *image.Rectangle, _ **viewmodel.View, _ *Overlays) { v.Camera.Eye[2] += 0.1 }, false},
		{"camera settings", func(v *View, _ *image.Rectangle, _ **viewmodel.View, _ *Overlays) { v.CameraConfig.FovYDeg++ }, false},
		{"palette", func(v *View, _ *image.Rectangle, _ **viewmodel.View, _ *Overlays) { v.Palette.Resting.R /= 2 }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := NewView()
			v.Stamp = 7
			v.Tick(m)
			r, mm, ov := rect, m, Overlays{}
			b := v.frame(r, mm, nil, ov)
			// A mark a build would clear.
			b.Lines.Vertices = append(b.Lines.Vertices, scene.Vertex{DstX: -1})
			tc.change(v, &r, &mm, &ov)
			b = v.frame(r, mm, nil, ov)
			if reused := len(b.Lines.Vertices) == 1; reused != tc.reuse {
				t.Fatalf("reused %v, want %v", reused, tc.reuse)
			}
			if !tc.reuse {
				return
			}
			b.Lines.Vertices = b.Lines.Vertices[:0]
			fresh := NewView()
			fresh.Tick(m)
			f := fresh.Build(r, mm, nil, ov)
			if len(f.Cubes.Indices) == 0 || len(f.Shadows.Indices) == 0 {
				t.Fatal("the scene shows no cube: the comparison would say nothing")
			}
			for _, p := range [][2]*scene.Mesh{{&b.Ground, &f.Ground}, {&b.Shadows, &f.Shadows}, {&b.Cubes, &f.Cubes}} {
				if !slices.Equal(p[0].Vertices, p[1].Vertices) || !slices.Equal(p[0].Indices, p[1].Indices) {
					t.Fatal("a reused frame differs from a fresh build")
				}
			}
		})
	}
}

// TestPreparedFrameIsAFreshBuild: a view prepared on another core (Prepare
// before Draw) hands Draw the triangles a fresh build gives, bit for bit;
// a Draw with other arguments than the prepared ones builds its own, and
// Tick and Reset wait for a prepared build before touching the view. Run
// with -race, it also checks that nothing is shared unguarded.
func TestPreparedFrameIsAFreshBuild(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	m := &viewmodel.View{Player: 0}
	for i := range 40 {
		m.Cubes = append(m.Cubes, viewmodel.CubeView{
			Position: mgl64.Vec3{float64(i%7) - 3, float64(i/7) - 2, 0.2}, Orientation: mgl64.QuatIdent(), HalfExtent: 0.2})
	}
	rect := image.Rect(0, 0, 320, 200)
	same := func(t *testing.T, b, f *scene.Builder) {
		t.Helper()
		if len(f.Cubes.Indices) == 0 || len(f.Shadows.Indices) == 0 {
			t.Fatal("the scene shows no cube: the comparison would say nothing")
		}
		for _, p := range [][2]*scene.Mesh{{&b.Ground, &f.Ground}, {&b.Shadows, &f.Shadows}, {&b.Cubes, &f.Cubes}, {&b.Lines, &f.Lines}} {
			if !slices.Equal(p[0].Vertices, p[1].Vertices) || !slices.Equal(p[0].Indices, p[1].Indices) {
				t.Fatal("a prepared frame differs from a fresh build")
			}
		}
	}
	for _, tc := range []struct {
		name  string
		stamp uint64
		other bool // Draw asks for another rectangle than prepared
	}{{"stamp", 5, false}, {"no stamp", 0, false}, {"other rectangle", 5, true}} {
		t.Run(tc.name, func(t *testing.T) {
			v, fresh := NewView(), NewView()
			v.Stamp = tc.stamp
			for range 3 {
				m.Cubes[3].Position[2] += 0.1 // a cube moves every tick
				v.Tick(m)
				fresh.Tick(m)
				r := rect
				v.Prepare(r, m, nil, Overlays{})
				if v.prep.state.Load() == prepIdle {
					t.Fatal("nothing was prepared")
				}
				if tc.other {
					r.Max.X -= 10
				}
				same(t, v.frame(r, m, nil, Overlays{}), fresh.Build(r, m, nil, Overlays{}))
			}
			v.Prepare(rect, m, nil, Overlays{Tint: TintUpdated})
			v.Reset() // waits
			v.Prepare(rect, m, nil, Overlays{})
			v.Tick(m) // waits
			if v.prep.state.Load() != prepIdle {
				t.Fatal("Tick left a prepared build pending")
			}
		})
	}
}
