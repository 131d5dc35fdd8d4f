package ui

// The comparison chart (F3): bandwidth against error of every strategy,
// level and step the presenter has shown in this run, one point each, the
// lag the right shows as the point's size. The points and their labels are
// viewmodel.Comparison's; this file only draws them, over the left view
// (the truth the audience has already seen), below its label, so the
// strategy line, the figures of the bottom panel and the right view stay
// in sight.

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/internal/chartlabel"
	"netcubes/viewmodel"
)

// entryColours tell the strategies apart on the dark panel, by menu entry.
var entryColours = []color.RGBA{
	{0x5c, 0xb8, 0xff, 0xff}, // blue
	{0xff, 0xd1, 0x4a, 0xff}, // yellow
	{0x6c, 0xe0, 0x7a, 0xff}, // green
	{0xff, 0x7a, 0xb6, 0xff}, // pink
	{0xff, 0x93, 0x4a, 0xff}, // orange
	{0xb0, 0x8c, 0xff, 0xff}, // violet
	{0x4f, 0xd1, 0xc5, 0xff}, // teal
}

func entryColour(entry int) color.RGBA { return entryColours[entry%len(entryColours)] }

// shown is what the right is showing, as the comparison tells showings
// apart.
func (a *App) shown() viewmodel.Shown { return a.d.Shown() }

// chartRect is where the chart goes: the left view below its label, or
// the left half of the only view a process has; empty when there is no
// room for a readable chart.
func chartRect(l hudLayout, lr, rr image.Rectangle) image.Rectangle {
	v := lr
	if v.Empty() {
		v = rr
		v.Max.X = v.Min.X + v.Dx()/2
	}
	pad := int(l.pad)
	r := image.Rect(v.Min.X+pad, v.Min.Y+int(lineHeight(l.smallBold)+l.pad*2.5), v.Max.X-pad, v.Max.Y-pad)
	if r.Dx() < int(l.small.Size*16) || r.Dy() < int(l.small.Size*10) {
		return image.Rectangle{}
	}
	return r
}

// chartAxis maps figures that span decades to pixels: log10, with the
// figures under a floor (exact zeros at least) on a row of their own under
// the smallest decade.
type chartAxis struct {
	lo, hi   float64 // decades, log10
	floor    float64 // figures below it go on the bottom row
	hasZero  bool    // some do
	onlyZero bool    // and all of those are exactly 0
	p0, p1   float64 // pixels of lo (or of the bottom row) and hi
}

// errFloor is the smallest error the chart tells from none: 10 µm, a
// thousandth of a small cube's edge (a numerical trace after quantizing
// both sides is not a figure to spread decades for).
const errFloor = 0.001

// newChartAxis fits decades around vs (NaN left out).
func newChartAxis(vs []float64, floor, p0, p1 float64) chartAxis {
	ax := chartAxis{lo: math.Inf(1), hi: math.Inf(-1), floor: floor, onlyZero: true, p0: p0, p1: p1}
	for _, v := range vs {
		switch {
		case math.IsNaN(v):
		case v <= 0 || v < floor:
			ax.hasZero = true
			ax.onlyZero = ax.onlyZero && v <= 0
		default:
			ax.lo, ax.hi = math.Min(ax.lo, math.Log10(v)), math.Max(ax.hi, math.Log10(v))
		}
	}
	if math.IsInf(ax.lo, 1) {
		ax.lo, ax.hi = 0, 1
	}
	ax.lo, ax.hi = math.Floor(ax.lo), math.Ceil(ax.hi+0.05)
	if ax.hi <= ax.lo {
		ax.hi = ax.lo + 1
	}
	return ax
}

// at is the pixel of v.
func (ax chartAxis) at(v float64) float64 {
	lo := ax.lo
	if ax.hasZero {
		lo -= 0.7 // the zero row
	}
	d := lo
	if v > 0 && v >= ax.floor {
		d = math.Log10(v)
	}
	return ax.p0 + (ax.p1-ax.p0)*(d-lo)/(ax.hi-lo)
}

// pointRadius is a point's size for a lag: the area grows with the lag,
// 300 ms twice the radius of none.
func pointRadius(base, lagMs float64) float64 {
	if math.IsNaN(lagMs) {
		return base
	}
	return base * (1 + math.Sqrt(math.Max(0, lagMs)/300))
}

// drawChart draws the comparison chart in r.
func (a *App) drawChart(dst *ebiten.Image, l hudLayout, r image.Rectangle) {
	if r.Empty() {
		return
	}
	small, bold, pad := l.small, l.smallBold, l.pad
	vector.FillRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), colHelp, false)
	vector.StrokeRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), 1, colGridDim, false)
	x0, y0 := float64(r.Min.X)+pad, float64(r.Min.Y)+pad*0.6
	label(dst, "Compared: what you showed (F3 hides, Shift+F3 clears)", bold, x0, y0, colText)
	y0 += lineHeight(bold)
	label(dst, fmt.Sprintf("each point: the last %.0f s it was on screen · circle size: the lag the right shows",
		float64(viewmodel.DefaultCompareConfig().WindowTicks)/60), small, x0, y0, colDim)
	y0 += lineHeight(small)
	if s, ticks, ok := a.compare.Showing(); ok && ticks < a.compare.MinTicks() {
		left := float64(a.compare.MinTicks()-ticks) / 60
		label(dst, fmt.Sprintf("now showing %d %s: a point in %.0f s", s.Entry+1, s.Name, math.Ceil(left)), small, x0, y0, colAccent)
	}
	y0 += lineHeight(small) + pad*0.3

	var shown []viewmodel.ComparePoint
	missing := 0
	for _, p := range a.compare.Points() {
		if math.IsNaN(p.ErrCm) {
			missing++ // no error figure (a left process): nowhere to put it
			continue
		}
		shown = append(shown, p)
	}
	// The plot area, the error's figures and name left of it, the
	// bandwidth's under it.
	var kbps, errs []float64
	for _, p := range shown {
		kbps, errs = append(kbps, p.Kbps), append(errs, p.ErrCm)
	}
	kbps = append(kbps, articleTargetKbps)
	ay := newChartAxis(errs, errFloor, 0, 0)
	tickW := math.Max(measure(trimFigure(math.Pow(10, ay.lo)), small), measure("<"+trimFigure(errFloor), small)) + pad*0.5
	plot := image.Rect(int(x0+lineHeight(small)+tickW), int(y0+small.Size*0.6), int(float64(r.Max.X)-pad*1.5), int(float64(r.Max.Y)-pad*0.5-2*lineHeight(small)))
	if plot.Dx() < 50 || plot.Dy() < 40 {
		return
	}
	ax := newChartAxis(kbps, 0, float64(plot.Min.X), float64(plot.Max.X))
	ay.p0, ay.p1 = float64(plot.Max.Y), float64(plot.Min.Y)
	a.chartAxes(dst, l, plot, ax, ay)
	if len(shown) == 0 {
		msg := "show a strategy for a few seconds and it appears here"
		label(dst, fit(msg, small, float64(plot.Dx())-pad), small, float64(plot.Min.X)+pad, float64(plot.Min.Y)+pad, colDim)
		return
	}
	// The points, the largest lag first so the small ones stay on top.
	base := math.Max(4, small.Size*0.35)
	ls := make([]chartlabel.Label, len(shown))
	for i, p := range shown {
		ls[i] = chartlabel.Label{X: ax.at(p.Kbps), Y: ay.at(p.ErrCm), R: pointRadius(base, p.LagMs),
			W: measure(p.Label, bold), H: lineHeight(bold) * 0.9}
	}
	bounds := chartlabel.Rect{X0: float64(plot.Min.X), Y0: float64(plot.Min.Y), X1: float64(plot.Max.X), Y1: float64(plot.Max.Y)}
	xt := ax.at(articleTargetKbps) + pad*0.3
	target := chartlabel.Rect{X0: xt, Y0: float64(plot.Min.Y), X1: xt + measure(targetName, small), Y1: float64(plot.Min.Y) + lineHeight(small)}
	placed := chartlabel.Place(ls, []chartlabel.Rect{target}, bounds, pad*0.3)
	cur := a.shown()
	for i, p := range shown {
		c := entryColour(p.Entry)
		x, y, rad := float32(ls[i].X), float32(ls[i].Y), float32(ls[i].R)
		if placed[i].Far {
			lx, ly := placed[i].Anchor(ls[i].X, ls[i].Y)
			vector.StrokeLine(dst, x, y, float32(lx), float32(ly), 1, colDim, true)
		}
		if math.IsNaN(p.LagMs) {
			vector.StrokeCircle(dst, x, y, rad, 2.5, c, true) // no lag figure: a ring
		} else {
			vector.FillCircle(dst, x, y, rad, color.RGBA{c.R / 2, c.G / 2, c.B / 2, 0xc0}, true)
			vector.StrokeCircle(dst, x, y, rad, 2, c, true)
		}
		if p.Shown == cur {
			vector.StrokeCircle(dst, x, y, rad+4, 2, colText, true) // on screen now
		}
	}
	for i, p := range shown {
		label(dst, p.Label, bold, placed[i].X0, placed[i].Y0, entryColour(p.Entry))
	}
	if missing > 0 {
		labelRight(dst, viewmodel.Plural(missing, "point")+" without an error figure", small, float64(plot.Max.X), float64(plot.Min.Y), colDim)
	}
}

// chartAxes draws the decades as grid lines with their figures, the zero
// rows, the article's 256 kbit/s target and the axes' names.
func (a *App) chartAxes(dst *ebiten.Image, l hudLayout, plot image.Rectangle, ax, ay chartAxis) {
	small, pad := l.small, l.pad
	x0, x1 := float32(plot.Min.X), float32(plot.Max.X)
	y0, y1 := float32(plot.Min.Y), float32(plot.Max.Y)
	for d := ax.lo; d <= ax.hi; d++ {
		x := float32(ax.at(math.Pow(10, d)))
		vector.StrokeLine(dst, x, y0, x, y1, 1, colGridDim, false)
		s := trimFigure(math.Pow(10, d))
		// Centred under its line; the last one ends at the plot's edge.
		lx := math.Min(float64(x)-measure(s, small)/2, float64(x1)-measure(s, small))
		label(dst, s, small, lx, float64(y1)+pad*0.2, colDim)
	}
	for d := ay.lo; d <= ay.hi; d++ {
		y := float32(ay.at(math.Pow(10, d)))
		vector.StrokeLine(dst, x0, y, x1, y, 1, colGridDim, false)
		labelRight(dst, trimFigure(math.Pow(10, d)), small, float64(x0)-pad*0.3, float64(y)-small.Size*0.6, colDim)
	}
	if ay.hasZero {
		y := float32(ay.at(0))
		vector.StrokeLine(dst, x0, y, x1, y, 1, colGridDim, false)
		name := "0"
		if !ay.onlyZero {
			name = "<" + trimFigure(ay.floor)
		}
		labelRight(dst, name, small, float64(x0)-pad*0.3, float64(y)-small.Size*0.6, colDim)
	}
	// The compression article's target, as the HUD's bandwidth graph
	// draws it.
	xt := float32(ax.at(articleTargetKbps))
	for y := y0; y < y1; y += 12 {
		vector.StrokeLine(dst, xt, y, xt, min(y+7, y1), 2, colBudget, false)
	}
	label(dst, targetName, small, float64(xt)+pad*0.3, float64(y0), colBudget)
	label(dst, "bandwidth (kbit/s, headers included) →", small, float64(x0), float64(y1)+lineHeight(small), colDim)
	// The y axis' name, along it, reading upwards.
	name := "error (cm RMS) →"
	op := &text.DrawOptions{}
	op.GeoM.Rotate(-math.Pi / 2)
	op.GeoM.Translate(float64(plot.Min.X)-math.Max(measure(trimFigure(math.Pow(10, ay.lo)), small), measure("<"+trimFigure(errFloor), small))-pad*0.5-lineHeight(small), float64(y1))
	op.ColorScale.ScaleWithColor(colDim)
	text.Draw(dst, name, small, op)
}

// targetName labels the 256 kbit/s line.
const targetName = "256 kbit/s target"

// trimFigure writes a decade: 0.01, 0.1, 1, 10, 100, 10 000.
func trimFigure(v float64) string {
	if v >= 10000 {
		return fmt.Sprintf("%.0f 000", v/1000)
	}
	if v >= 1 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.*f", int(math.Ceil(-math.Log10(v)-1e-9)), v)
}
