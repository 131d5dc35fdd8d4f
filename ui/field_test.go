package ui

import (
	"image"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestOffField(t *testing.T) {
	for _, c := range []struct {
		pos  mgl64.Vec3
		want string
	}{
		{mgl64.Vec3{0, 0, 1}, ""},
		{mgl64.Vec3{15.5, 3, 1}, ""},
		{mgl64.Vec3{0, -27, 1}, "off the field: the grid is 12 m ahead · F5 starts over"},
		{mgl64.Vec3{0, 22, 1}, "off the field: the grid is 7 m behind · F5 starts over"},
		{mgl64.Vec3{25, 0, 1}, "off the field: the grid is 10 m to the left · F5 starts over"},
		{mgl64.Vec3{-20, -20, 1}, "off the field: the grid is 7 m ahead and to the right · F5 starts over"},
	} {
		got, ok := offField(c.pos)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("offField(%v) = %q, %v; want %q", c.pos, got, ok, c.want)
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
