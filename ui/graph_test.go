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
