// Package chartlabel places the labels of a chart's points so that they
// stay readable: beside their point when there is room, further out with a
// leader line when the points crowd, never over another label or another
// point's marker when it can be helped, always inside the plot. The bench's
// charts (cmd/bench) and the app's comparison chart (ui) both use it, so a
// crowded cluster of compression levels reads the same on a slide and on
// stage.
//
// Placement is greedy, in the order the labels are given (put the ones
// that matter most first), and deterministic: the same points always get
// the same places.
package chartlabel

import "math"

// Rect is an axis-aligned rectangle, y growing downwards (screen pixels).
type Rect struct{ X0, Y0, X1, Y1 float64 }

// W and H are the rectangle's width and height.
func (r Rect) W() float64 { return r.X1 - r.X0 }
func (r Rect) H() float64 { return r.Y1 - r.Y0 }

// overlap is the area r and o share.
func (r Rect) overlap(o Rect) float64 {
	w := math.Min(r.X1, o.X1) - math.Max(r.X0, o.X0)
	h := math.Min(r.Y1, o.Y1) - math.Max(r.Y0, o.Y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// outside is the area of r that lies outside b.
func (r Rect) outside(b Rect) float64 {
	return r.W()*r.H() - r.overlap(b)
}

// Label is one point and the size of its label.
type Label struct {
	X, Y float64 // the point
	R    float64 // its marker's radius: other labels keep clear of it
	W, H float64 // the label's size
}

// Placed is where a label goes.
type Placed struct {
	Rect
	// Far is true when the label had to move away from its point: draw a
	// leader line from the point to the label.
	Far bool
}

// rings is how many steps outwards a crowded label may move, each about
// one label height.
const rings = 8

// Place returns a place for each label, inside bounds, gap away from its
// point's marker at least, clear of the obstacles (the chart's own texts)
// where it can.
func Place(ls []Label, obstacles []Rect, bounds Rect, gap float64) []Placed {
	marks := make([]Rect, len(ls))
	for i, l := range ls {
		marks[i] = Rect{l.X - l.R, l.Y - l.R, l.X + l.R, l.Y + l.R}
	}
	out := make([]Placed, len(ls))
	placed := append([]Rect(nil), obstacles...)
	for i, l := range ls {
		best, bestCost := Placed{}, math.Inf(1)
		for k := 0; k < rings && bestCost > 0; k++ {
			d := l.R + gap + float64(k)*l.H*1.2
			for _, c := range candidates(l, d) {
				cost := 1000 * c.outside(bounds)
				for _, p := range placed {
					cost += 10 * c.overlap(p)
				}
				for j, m := range marks {
					if j != i {
						cost += c.overlap(m)
					}
				}
				if cost < bestCost {
					best, bestCost = Placed{Rect: c, Far: k > 0}, cost
				}
				if cost == 0 {
					break
				}
			}
		}
		out[i] = best
		placed = append(placed, best.Rect)
	}
	return out
}

// candidates are the places for l at distance d from its point, in order
// of preference: right, left, above, below, then the four diagonals.
func candidates(l Label, d float64) [8]Rect {
	w, h := l.W, l.H
	at := func(x0, y0 float64) Rect { return Rect{x0, y0, x0 + w, y0 + h} }
	diag := d * math.Sqrt2 / 2
	return [8]Rect{
		at(l.X+d, l.Y-h/2),
		at(l.X-d-w, l.Y-h/2),
		at(l.X-w/2, l.Y-d-h),
		at(l.X-w/2, l.Y+d),
		at(l.X+diag, l.Y-diag-h),
		at(l.X-diag-w, l.Y-diag-h),
		at(l.X+diag, l.Y+diag),
		at(l.X-diag-w, l.Y+diag),
	}
}

// Anchor is the point of r nearest to (x, y): where a leader line from
// the point meets its label.
func (r Rect) Anchor(x, y float64) (float64, float64) {
	return math.Min(math.Max(x, r.X0), r.X1), math.Min(math.Max(y, r.Y0), r.Y1)
}
