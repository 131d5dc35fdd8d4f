package ui

import (
	"image"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/control"
	"netcubes/render/scene"
)

// TestGraphMeshKeptUntilItsSeriesChanges: the kbit/s graph's mesh is
// built again only when a sample arrives, the series is cleared or
// replaced, or its place or scale changes; drawn again in between, it is
// the same mesh.
func TestGraphMeshKeptUntilItsSeriesChanges(t *testing.T) {
	dst := ebiten.NewImage(200, 100)
	s := control.NewSeries(20)
	for i := range 10 {
		s.Push(float64(i * 10))
	}
	r, yMax, budget := image.Rect(10, 10, 190, 90), 200.0, 150.0
	cases := []struct {
		name   string
		change func()
		reuse  bool
	}{
		{"nothing", func() {}, true},
		{"a sample", func() { s.Push(42) }, false},
		{"cleared", func() { s.Clear() }, false},
		{"another series", func() { s = control.NewSeries(20) }, false},
		{"place", func() { r.Max.Y-- }, false},
		{"scale", func() { yMax *= 2 }, false},
		{"budget", func() { budget = 0 }, false},
	}
	var m meshDrawer
	for _, tc := range cases {
		m.graph(dst, r, s, yMax, budget)
		// A mark a build would clear.
		m.graphMesh.Vertices = append(m.graphMesh.Vertices, scene.Vertex{DstX: -1})
		n := len(m.graphMesh.Vertices)
		tc.change()
		m.graph(dst, r, s, yMax, budget)
		if reused := len(m.graphMesh.Vertices) == n; reused != tc.reuse {
			t.Errorf("%s: reused %v, want %v", tc.name, reused, tc.reuse)
		}
		m.graphKey = graphKey{}
	}
}

// TestGraphHandsOverAFixedVertexCount: Ebitengine grows a destination's
// vertex buffer to exactly the count it is handed, so a graph that
// handed over one segment more as its samples filled allocated a frame
// in every few for its first ten seconds. Its mesh has the full graph's
// vertex count however many samples it has, with or without the budget
// line, and the padding draws nothing (no index names it).
func TestGraphHandsOverAFixedVertexCount(t *testing.T) {
	r := image.Rect(10, 10, 190, 90)
	const capacity = 50
	want := -1
	for _, budget := range []float64{150, 0} {
		for _, samples := range []int{0, 1, 2, 17, capacity, 2 * capacity} {
			s := control.NewSeries(capacity)
			for i := range samples {
				s.Push(float64(i))
			}
			var me scene.Mesh
			buildGraph(&me, r, s, 200, budget)
			if want < 0 {
				want = len(me.Vertices)
			}
			if len(me.Vertices) != want {
				t.Errorf("budget %v, %d samples: %d vertices, want %d", budget, samples, len(me.Vertices), want)
			}
			drawn := 0
			for _, ix := range me.Indices {
				drawn = max(drawn, int(ix)+1)
			}
			if lines := 3 + min(samples, capacity) - 1 + map[bool]int{true: 1}[budget > 0]; samples > 0 && drawn != 4*lines {
				t.Errorf("budget %v, %d samples: indices name %d vertices, want the %d of %d lines", budget, samples, drawn, 4*lines, lines)
			}
		}
	}
}
