package chartlabel

import (
	"reflect"
	"testing"
)

// TestPlaceBesideWhenRoom: a lone point's label sits right of it, gap
// away; at the right edge it goes left; at the top-right corner it stays
// inside.
func TestPlaceBesideWhenRoom(t *testing.T) {
	b := Rect{0, 0, 200, 100}
	tests := []struct {
		l    Label
		want Rect
	}{
		{Label{X: 50, Y: 50, R: 3, W: 40, H: 10}, Rect{55, 45, 95, 55}},
		{Label{X: 190, Y: 50, R: 3, W: 40, H: 10}, Rect{145, 45, 185, 55}},
	}
	for _, tt := range tests {
		p := Place([]Label{tt.l}, nil, b, 2)
		if p[0].Rect != tt.want || p[0].Far {
			t.Errorf("%+v: placed %+v, want %+v", tt.l, p[0], tt.want)
		}
	}
	p := Place([]Label{{X: 199, Y: 1, R: 3, W: 40, H: 10}}, nil, b, 2)
	if p[0].outside(b) != 0 {
		t.Errorf("corner label leaves the bounds: %+v", p[0])
	}
}

// TestPlaceCrowd: a row of points closer than their labels are wide (the
// compression levels on the tradeoff chart) get labels that overlap
// neither each other nor any marker, inside the bounds, the crowded ones
// with a leader line; the same points always give the same places.
func TestPlaceCrowd(t *testing.T) {
	b := Rect{0, 0, 400, 300}
	var ls []Label
	for i := range 12 {
		ls = append(ls, Label{X: 150 + float64(i)*8, Y: 150, R: 4, W: 50, H: 12})
	}
	p := Place(ls, nil, b, 2)
	far := 0
	for i := range p {
		if p[i].outside(b) != 0 {
			t.Errorf("label %d outside: %+v", i, p[i])
		}
		for j := range p {
			if i != j && p[i].overlap(p[j].Rect) > 0 {
				t.Errorf("labels %d and %d overlap: %+v %+v", i, j, p[i], p[j])
			}
		}
		for j, l := range ls {
			if p[i].overlap(Rect{l.X - l.R, l.Y - l.R, l.X + l.R, l.Y + l.R}) > 0 && i != j {
				t.Errorf("label %d covers point %d", i, j)
			}
		}
		if p[i].Far {
			far++
		}
	}
	if far == 0 {
		t.Error("no label moved out: the crowd fits beside itself?")
	}
	if !reflect.DeepEqual(p, Place(ls, nil, b, 2)) {
		t.Error("two placements of the same points differ")
	}
}

// TestPlaceAvoidsObstacles: a label goes round a text already on the
// chart (the target line's name) rather than over it.
func TestPlaceAvoidsObstacles(t *testing.T) {
	b := Rect{0, 0, 200, 100}
	obstacle := Rect{55, 40, 150, 60} // where the label would go, right of the point
	p := Place([]Label{{X: 50, Y: 50, R: 3, W: 40, H: 10}}, []Rect{obstacle}, b, 2)
	if p[0].overlap(obstacle) > 0 {
		t.Errorf("label %+v over the obstacle", p[0])
	}
	if p[0].Rect != (Rect{5, 45, 45, 55}) {
		t.Errorf("label %+v, want it left of the point", p[0])
	}
}

// TestAnchor: a leader line meets its label at the label's nearest point.
func TestAnchor(t *testing.T) {
	r := Rect{10, 10, 20, 20}
	for _, c := range [][4]float64{{0, 15, 10, 15}, {15, 30, 15, 20}, {25, 5, 20, 10}, {12, 12, 12, 12}} {
		if x, y := r.Anchor(c[0], c[1]); x != c[2] || y != c[3] {
			t.Errorf("Anchor(%v, %v) = %v, %v", c[0], c[1], x, y)
		}
	}
}
