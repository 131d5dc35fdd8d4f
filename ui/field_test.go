package ui

import (
	"image"
	"testing"

	"netcubes/viewmodel"

	"github.com/go-gl/mathgl/mgl64"
)

// TestOffField: the note names where the nearest cubes are once no cube
// but the player's own ball is within offFieldGap; a player past the
// grid's edge among cubes it carried or scattered is on the field (a run of
// the 2004 prediction over the intercontinental link said "off the field"
// with cubes all around).
func TestOffField(t *testing.T) {
	cube := func(x, y float64, red bool) viewmodel.CubeView {
		return viewmodel.CubeView{Position: mgl64.Vec3{x, y, 0.2}, HalfExtent: 0.2, Interacting: red}
	}
	player := viewmodel.CubeView{Position: mgl64.Vec3{0, -27, 0.75}, HalfExtent: 0.75, Player: true}
	grid := func(extra ...viewmodel.CubeView) *viewmodel.View {
		m := &viewmodel.View{Cubes: []viewmodel.CubeView{player}}
		for j := range 30 {
			for i := range 30 {
				m.Cubes = append(m.Cubes, cube(float64(i)-14.5, float64(j)-14.5, false))
			}
		}
		m.Cubes = append(m.Cubes, extra...)
		return m
	}
	at := func(m *viewmodel.View, x, y float64) *viewmodel.View {
		m.Cubes[0].Position = mgl64.Vec3{x, y, 0.75}
		return m
	}
	for _, c := range []struct {
		name string
		m    *viewmodel.View
		want string
	}{
		{"on the grid", at(grid(), 0, 0), ""},
		{"just past the edge", at(grid(), 18, 3), ""},
		{"far below the grid", at(grid(), 0, -27), "off the field: the nearest cubes are 13 m ahead · F5 starts over"},
		{"far above", at(grid(), 0, 22), "off the field: the nearest cubes are 8 m behind · F5 starts over"},
		{"far right", at(grid(), 25, 0), "off the field: the nearest cubes are 11 m to the left · F5 starts over"},
		{"far corner", at(grid(), -22, -22), "off the field: the nearest cubes are 11 m ahead and to the right · F5 starts over"},
		{"its ball does not count", at(grid(cube(0, -26, true), cube(1, -28, true)), 0, -27), "off the field: the nearest cubes are 13 m ahead · F5 starts over"},
		{"scattered cubes do", at(grid(cube(2, -30, false)), 0, -27), ""},
		{"a flying red cube beyond the ball does", at(grid(cube(4, -27, true)), 0, -27), ""},
		{"no cubes at all", &viewmodel.View{Cubes: []viewmodel.CubeView{player}}, ""},
	} {
		got, ok := offField(c.m)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: offField = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
}

// TestNoteAvoidsTheOverlayLegend: the transient note, centred above the
// bottom panel, moves above the right view's overlay legend when the two
// would overlap (a random-key run showed a key's note over the tint
// legend), and stays put otherwise.
func TestNoteAvoidsTheOverlayLegend(t *testing.T) {
	legend := image.Rect(810, 480, 1200, 560) // right view, bottom-left
	const th, pad = 30.0, 10.0
	for _, tc := range []struct {
		name   string
		x0, x1 float64
		legend image.Rectangle
		want   float64
	}{
		{"no legend", 500, 1100, image.Rectangle{}, 520},
		{"overlaps it", 500, 1100, legend, 480 - th - pad*1.5},
		{"left of it", 100, 800, legend, 520},
		{"right of it", 1250, 1500, legend, 520},
	} {
		if got := noteY(520, tc.x0, tc.x1, th, pad, tc.legend); got != tc.want {
			t.Errorf("%s: y %v, want %v", tc.name, got, tc.want)
		}
		y := noteY(520, tc.x0, tc.x1, th, pad, tc.legend)
		note := image.Rect(int(tc.x0), int(y-pad*0.5), int(tc.x1), int(y+th+pad*0.5))
		if note.Overlaps(tc.legend) {
			t.Errorf("%s: the note %v covers the legend %v", tc.name, note, tc.legend)
		}
	}
}
