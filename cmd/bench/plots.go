package main

// -plots DIR: every figure of chartdata.go drawn with gonum.org/v1/plot as
// DIR/NAME.svg and DIR/NAME.png. A figure is sized as a 16:9 slide
// (13.33 × 7.5 in, the PNG 1920 × 1080 pixels), its text large enough to
// read when pasted into a 1280 × 720 slide: the smallest text, the points'
// labels, is 10.5 pt, 14 pixels there.
//
// The marks are drawn by this file's own plotters rather than gonum's bar
// and scatter plotters: the figures span decades (17 Mbit/s uncompressed
// against 15 kbit/s at rest; 0 cm with both sides quantized against a
// metre extrapolating), so the axes are logarithmic, with exact zeros
// drawn on a row of their own below the smallest decade, which gonum's log
// scale refuses; and the points' labels are placed clear of each other
// (internal/chartlabel).

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"netcubes/internal/chartlabel"
)

// The figure's size and type sizes, in points (1/72 in).
const (
	figW, figH   = 960, 540 // a 16:9 slide
	pngDPI       = 144      // 1920 × 1080 pixels
	titleSize    = 17
	axisSize     = 13
	tickSize     = 12
	legendSize   = 12
	pointSize    = 10.5
	valueSize    = 10
	markerRadius = 4.5
	margin       = 14
)

// palette: the Okabe-Ito colours, told apart with every common colour
// vision deficiency; one per series, in order.
var palette = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xe6, 0x9f, 0x00, 0xff}, // orange
	{0x00, 0x9e, 0x73, 0xff}, // green
	{0xcc, 0x79, 0xa7, 0xff}, // purple
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	{0x00, 0x00, 0x00, 0xff},
}

// glyphs tell series apart on the tradeoff charts without colour.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}

var (
	colInk       = color.RGBA{0x22, 0x22, 0x22, 0xff}
	colDim       = color.RGBA{0x66, 0x66, 0x66, 0xff}
	colGrid      = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	colReference = color.RGBA{0xc0, 0x1c, 0x28, 0xff}
)

func seriesColour(i int) color.RGBA { return palette[i%len(palette)] }

// style is a text style in Liberation Sans.
func style(size float64, bold bool, c color.Color) text.Style {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: font.Length(size)}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{Color: c, Font: f, Handler: plot.DefaultTextHandler}
}

// writePlots draws every figure of the tables printed into dir (nothing
// when dir is "") and says on log what it wrote.
func writePlots(b *bench, dir string, log io.Writer) error {
	if dir == "" {
		return nil
	}
	figs, err := buildFigures(b.tables)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range figs {
		svg := vgsvg.New(figW, figH)
		drawFigure(draw.New(svg), f)
		var buf bytes.Buffer
		if _, err := svg.WriteTo(&buf); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.file+".svg"), portableFonts(buf.Bytes()), 0o644); err != nil {
			return err
		}
		img := vgimg.NewWith(vgimg.UseWH(figW, figH), vgimg.UseDPI(pngDPI))
		drawFigure(draw.New(img), f)
		buf.Reset()
		if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.file+".png"), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "bench: %d charts in %s (SVG and PNG)\n", len(figs), dir)
	return nil
}

// portableFonts gives the SVG's font a fallback: the file names Liberation
// Sans without embedding it (embedding costs about 400 kB a chart), and a
// viewer without it should use a sans-serif of the same metrics.
func portableFonts(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
}

// drawFigure draws f onto c: the title, the legend under it, then the
// panels stacked.
func drawFigure(c draw.Canvas, f figure) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	area := draw.Crop(c, margin, -margin, margin, -margin)
	title := style(titleSize, true, colInk)
	title.XAlign, title.YAlign = draw.XLeft, draw.YTop
	area.FillText(title, vg.Point{X: area.Min.X, Y: area.Max.Y}, f.title)
	area.Max.Y -= title.Height(f.title) + 6
	area.Max.Y -= drawLegend(area, f)
	var plots [][]*plot.Plot
	for i := range f.panels {
		plots = append(plots, []*plot.Plot{panelPlot(f, i)})
	}
	cs := plot.Align(plots, draw.Tiles{Rows: len(plots), Cols: 1, PadY: 8}, area)
	for i := range plots {
		plots[i][0].Draw(cs[i][0])
	}
}

// legendEntry is one series as the legend shows it.
type legendEntry struct {
	name  string
	glyph draw.GlyphDrawer // nil: a filled square (bars) or a line (lines)
	col   color.Color
}

// legendEntries are f's series (those of its first panel: every panel has
// the same), none when there is only one unnamed series.
func legendEntries(f figure) []legendEntry {
	var es []legendEntry
	for i, s := range f.panels[0].series {
		if s.name == "" {
			continue
		}
		e := legendEntry{name: s.name, col: seriesColour(i)}
		if f.tradeoff {
			e.glyph = glyphs[i%len(glyphs)]
		}
		es = append(es, e)
	}
	return es
}

// drawLegend writes the series' names in a band at the top of area,
// wrapping to as many lines as they need, and returns the band's height.
func drawLegend(area draw.Canvas, f figure) vg.Length {
	es := legendEntries(f)
	if len(es) == 0 {
		return 0
	}
	sty := style(legendSize, false, colInk)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	lineH := sty.Height("Ag") * 1.35
	swatch := vg.Length(22)
	x, y := area.Min.X, area.Max.Y-lineH/2
	for _, e := range es {
		w := swatch + 6 + sty.Width(e.name) + 36 // room for a wider fallback font in an SVG viewer
		if x > area.Min.X && x+w > area.Max.X {
			x, y = area.Min.X, y-lineH
		}
		mid := vg.Point{X: x + swatch/2, Y: y}
		switch {
		case e.glyph != nil:
			area.DrawGlyph(draw.GlyphStyle{Color: e.col, Radius: markerRadius, Shape: e.glyph}, mid)
		case f.bars:
			area.FillPolygon(e.col, []vg.Point{{X: x, Y: y - 6}, {X: x + swatch, Y: y - 6}, {X: x + swatch, Y: y + 6}, {X: x, Y: y + 6}})
		default:
			area.StrokeLine2(draw.LineStyle{Color: e.col, Width: 2.5}, x, y, x+swatch, y)
			area.DrawGlyph(draw.GlyphStyle{Color: e.col, Radius: markerRadius, Shape: draw.CircleGlyph{}}, mid)
		}
		area.FillText(sty, vg.Point{X: x + swatch + 6, Y: y}, e.name)
		x += w
	}
	return area.Max.Y - y + lineH/2 + 4
}

// scale maps a panel's figures to the axis: as they are, or their
// logarithm, exact zeros (and below) on a row of their own under the
// smallest decade.
type scale struct {
	log      bool
	zero     float64 // where 0 is drawn on a log axis
	hasZero  bool
	min, max float64 // the axis' range, mapped
}

func (s scale) at(v float64) float64 {
	if !s.log {
		return v
	}
	if v <= 0 {
		return s.zero
	}
	return math.Log10(v)
}

// newScale fits an axis to vs (and to the reference lines' values).
func newScale(log bool, vs []float64) scale {
	s := scale{log: log}
	if !log {
		hi := 0.0
		for _, v := range vs {
			hi = math.Max(hi, v)
		}
		s.min, s.max = 0, niceCeil(hi*1.08)
		return s
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v <= 0 {
			s.hasZero = true
			continue
		}
		lo, hi = math.Min(lo, math.Log10(v)), math.Max(hi, math.Log10(v))
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	lo, hi = math.Floor(lo), math.Ceil(hi+0.04)
	if hi <= lo {
		hi = lo + 1
	}
	s.min, s.max = lo, hi
	if s.hasZero {
		s.zero = lo - 0.6
		s.min = s.zero - 0.25
	}
	return s
}

// niceCeil rounds up to a multiple of a round step (linearStep).
func niceCeil(x float64) float64 {
	if x <= 0 {
		return 1
	}
	st := linearStep(x)
	return math.Ceil(x/st-1e-9) * st
}

// linearStep is the tick step for an axis from 0 to hi: 1, 2 or 5 times
// a power of ten, four to eight ticks.
func linearStep(hi float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(hi)))
	for _, m := range []float64{0.1, 0.2, 0.5, 1, 2, 5} {
		if hi/(m*p) <= 8 {
			return m * p
		}
	}
	return 10 * p
}

// Ticks implements plot.Ticker: decades (and their 2× and 5× as minor
// ticks) on a log axis, "0" on the zero row; gonum's own ticks on a linear
// one.
func (s scale) Ticks(lo, hi float64) []plot.Tick {
	if !s.log {
		st := linearStep(s.max)
		var ts []plot.Tick
		decimals := max(0, int(-math.Floor(math.Log10(st)+1e-9)))
		for k := 0.0; k*st <= s.max*(1+1e-9); k++ {
			ts = append(ts, plot.Tick{Value: k * st, Label: strconv.FormatFloat(k*st, 'f', decimals, 64)})
		}
		return ts
	}
	var ts []plot.Tick
	if s.hasZero {
		ts = append(ts, plot.Tick{Value: s.zero, Label: "0"})
	}
	for d := math.Ceil(s.min - 1e-9); d <= s.max+1e-9; d++ {
		ts = append(ts, plot.Tick{Value: d, Label: formatFigure(math.Pow(10, d))})
		for _, m := range []float64{2, 5} {
			if v := d + math.Log10(m); v < s.max {
				ts = append(ts, plot.Tick{Value: v})
			}
		}
	}
	return ts
}

// formatFigure writes a tick's value: 0.001, 0.5, 20, 10 000.
func formatFigure(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if v >= 10000 && !strings.Contains(s, ".") {
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + " " + s[i:]
		}
	}
	return s
}

// categoryTicks label the category axis (the bottom panel only), each name
// wrapped to the room a category has.
type categoryTicks struct {
	names []string
	width vg.Length // room per category
	shown bool
}

func (ct categoryTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	sty := style(tickSize, false, colInk)
	for i, n := range ct.names {
		t := plot.Tick{Value: float64(i)}
		if ct.shown {
			t.Label = wrap(n, sty, ct.width)
		}
		ts = append(ts, t)
	}
	return ts
}

// wrap breaks s at spaces into lines no wider than w where it can; a word
// too wide on its own breaks before a '+' ("10" over "+pred").
func wrap(s string, sty text.Style, w vg.Length) string {
	var words []string
	for _, wd := range strings.Fields(s) {
		if wd == "%" && len(words) > 0 { // "1 %" stays on one line
			words[len(words)-1] += " " + wd
			continue
		}
		if i := strings.Index(wd, "+"); i > 0 && sty.Width(wd) > w {
			words = append(words, wd[:i], wd[i:])
			continue
		}
		words = append(words, wd)
	}
	var lines []string
	cur := ""
	for _, wd := range words {
		if cur != "" && sty.Width(cur+" "+wd) > w {
			lines = append(lines, cur)
			cur = wd
			continue
		}
		if cur != "" {
			cur += " "
		}
		cur += wd
	}
	return strings.Join(append(lines, cur), "\n")
}

// panelValues are every figure of a panel, reference lines included.
func panelValues(pd panelData, x bool) []float64 {
	var vs []float64
	for _, s := range pd.series {
		for _, p := range s.points {
			if x {
				vs = append(vs, p.X)
			} else {
				vs = append(vs, p.Y)
			}
		}
	}
	return vs
}

// panelPlot is the gonum plot of panel i of f, its axes set up and its
// marks added.
func panelPlot(f figure, i int) *plot.Plot {
	pd := f.panels[i]
	p := plot.New()
	p.BackgroundColor = nil
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		// Keep gonum's alignments, change the faces.
		a.Label.TextStyle.Font = style(axisSize, false, colInk).Font
		a.Tick.Label.Font = style(tickSize, false, colInk).Font
		a.Color = colDim
		a.Tick.Color = colDim
		a.Padding = 0
	}
	p.Y.Label.Text = pd.yLabel
	ys := pd.lines
	yvals := panelValues(pd, false)
	if !f.tradeoff {
		for _, l := range ys {
			yvals = append(yvals, l.Value)
		}
	}
	sy := newScale(pd.log, yvals)
	p.Y.Min, p.Y.Max = sy.min, sy.max
	p.Y.Tick.Marker = sy
	grid := plotter.NewGrid()
	grid.Horizontal = draw.LineStyle{Color: colGrid, Width: 0.8}
	grid.Vertical.Color = nil
	var sx scale
	switch {
	case f.numericX:
		sx = newScale(false, panelValues(pd, true))
		p.X.Min, p.X.Max = sx.min, sx.max
		p.X.Tick.Marker = sx
		if i == len(f.panels)-1 {
			p.X.Label.Text = f.xLabel
		}
	case f.tradeoff:
		xvals := panelValues(pd, true)
		for _, l := range pd.lines {
			xvals = append(xvals, l.Value)
		}
		sx = newScale(true, xvals)
		p.X.Min, p.X.Max = sx.min, sx.max
		p.X.Tick.Marker = sx
		p.X.Label.Text = f.xLabel
		grid.Vertical = draw.LineStyle{Color: colGrid, Width: 0.8}
	default:
		n := len(f.categories)
		p.X.Min, p.X.Max = -0.5, float64(n)-0.5
		p.X.Tick.Marker = categoryTicks{names: f.categories, width: (figW-2*margin-100)/vg.Length(n) - 8, shown: i == len(f.panels)-1}
		p.X.Tick.Length = 0
	}
	p.Add(grid)
	switch {
	case f.tradeoff:
		p.Add(&tradeoffMarks{pd: pd, sx: sx, sy: sy})
	case f.bars:
		p.Add(&barMarks{pd: pd, sy: sy, n: len(f.categories)})
	default:
		p.Add(&lineMarks{pd: pd, sy: sy})
	}
	return p
}

// refLines draws a panel's reference lines: horizontal across the data
// area with their label above the right end, or vertical (tradeoff
// charts) with their label at the top, left of the line.
func refLines(c draw.Canvas, lines []lineAt, vertical bool) {
	ls := draw.LineStyle{Color: colReference, Width: 1.6, Dashes: []vg.Length{7, 4}}
	sty := style(pointSize, true, colReference)
	for _, l := range lines {
		if vertical {
			if l.at < c.Min.X || l.at > c.Max.X {
				continue
			}
			c.StrokeLine2(ls, l.at, c.Min.Y, l.at, c.Max.Y)
			x0, _ := vLineLabel(c, l, sty)
			sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
			backedText(c, sty, vg.Point{X: x0, Y: c.Max.Y - 2}, l.label)
			continue
		}
		if l.at < c.Min.Y || l.at > c.Max.Y {
			continue
		}
		x0, x1 := c.Min.X, c.Max.X
		if l.spanned {
			x0, x1 = max(l.x0, c.Min.X), min(l.x1, c.Max.X)
		}
		c.StrokeLine2(ls, x0, l.at, x1, l.at)
		sty.XAlign, sty.YAlign = draw.XRight, draw.YBottom
		backedText(c, sty, vg.Point{X: x1 - 4, Y: l.at + 3}, l.label)
	}
}

// vLineLabel is where a vertical line's label goes, from x0 to x1: left
// of the line, or right of it when the line is too near the left edge.
func vLineLabel(c draw.Canvas, l lineAt, sty text.Style) (x0, x1 vg.Length) {
	w := sty.Width(l.label)
	if l.at-4-w >= c.Min.X {
		return l.at - 4 - w, l.at - 4
	}
	return l.at + 4, l.at + 4 + w
}

// backedText writes s with a white box behind it, so a label stays
// readable over bars and grid lines.
func backedText(c draw.Canvas, sty text.Style, pt vg.Point, s string) {
	r := sty.Rectangle(s).Add(pt)
	pad := vg.Length(2)
	c.FillPolygon(color.NRGBA{0xff, 0xff, 0xff, 0xe0}, []vg.Point{{X: r.Min.X - pad, Y: r.Min.Y - pad}, {X: r.Max.X + pad, Y: r.Min.Y - pad},
		{X: r.Max.X + pad, Y: r.Max.Y + pad}, {X: r.Min.X - pad, Y: r.Max.Y + pad}})
	c.FillText(sty, pt, s)
}

// lineAt is a reference line at a canvas coordinate.
type lineAt struct {
	at    vg.Length
	label string
	// spanned: a horizontal line drawn from x0 to x1 only (Line.From, To).
	spanned bool
	x0, x1  vg.Length
}

// barMarks draws a category chart's bars, the series side by side in each
// category, each bar with its figure as the table printed it on top when
// it fits.
type barMarks struct {
	pd panelData
	sy scale
	n  int
}

func (b *barMarks) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	ns := len(b.pd.series)
	group := trX(0.82) - trX(0)
	bw := group / vg.Length(ns)
	val := style(valueSize, false, colInk)
	val.XAlign, val.YAlign = draw.XCenter, draw.YBottom
	for s, se := range b.pd.series {
		col := seriesColour(s)
		if ns == 1 {
			col = palette[0]
		}
		for _, p := range se.points {
			x0 := trX(p.X) - group/2 + vg.Length(s)*bw
			top := trY(b.sy.at(p.Y))
			bottom := c.Min.Y
			c.FillPolygon(col, []vg.Point{{X: x0 + 1, Y: bottom}, {X: x0 + bw - 1, Y: bottom}, {X: x0 + bw - 1, Y: top}, {X: x0 + 1, Y: top}})
			if p.Text != "" && val.Width(p.Text) <= bw+4 {
				c.FillText(val, vg.Point{X: x0 + bw/2, Y: top + 2}, p.Text)
			}
		}
	}
	var ls []lineAt
	for _, l := range b.pd.lines {
		ls = append(ls, lineAt{at: trY(b.sy.at(l.Value)), label: l.Label})
	}
	refLines(c, ls, false)
}

// denseSeries is the most points a series has with a marker on each.
const denseSeries = 30

// lineMarks draws a chart's series as lines through points.
type lineMarks struct {
	pd panelData
	sy scale
}

func (l *lineMarks) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	var ls []lineAt
	for _, r := range l.pd.lines {
		la := lineAt{at: trY(l.sy.at(r.Value)), label: r.Label}
		if r.From != 0 || r.To != 0 {
			la.spanned, la.x0, la.x1 = true, trX(r.From), trX(r.To)
		}
		ls = append(ls, la)
	}
	refLines(c, ls, false)
	for s, se := range l.pd.series {
		col := seriesColour(s)
		var pts []vg.Point
		for _, p := range se.points {
			pts = append(pts, vg.Point{X: trX(p.X), Y: trY(l.sy.at(p.Y))})
		}
		c.StrokeLines(draw.LineStyle{Color: col, Width: 2.5}, pts)
		// A series over time has a point a second: the line is the figure,
		// markers would only blot it.
		if len(pts) > denseSeries {
			continue
		}
		for _, pt := range pts {
			c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: markerRadius, Shape: draw.CircleGlyph{}}, pt)
		}
	}
}

// tradeoffMarks draws the bandwidth against error points, each labelled,
// and the articles' target lines.
type tradeoffMarks struct {
	pd     panelData
	sx, sy scale
}

func (t *tradeoffMarks) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	var ls []lineAt
	for _, l := range t.pd.lines {
		ls = append(ls, lineAt{at: trX(t.sx.at(l.Value)), label: formatFigure(l.Value) + " kbit/s: " + l.Label})
	}
	refLines(c, ls, true)
	sty := style(pointSize, false, colInk)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	// Placement runs in a y-down space: y' = −y.
	var labels []chartlabel.Label
	type mark struct {
		pt     vg.Point
		series int
		text   string
	}
	var marks []mark
	for s, se := range t.pd.series {
		for _, p := range se.points {
			pt := vg.Point{X: trX(t.sx.at(p.X)), Y: trY(t.sy.at(p.Y))}
			marks = append(marks, mark{pt, s, p.Label})
			box := sty.Rectangle(p.Label).Size()
			labels = append(labels, chartlabel.Label{X: float64(pt.X), Y: -float64(pt.Y), R: markerRadius + 1, W: float64(box.X), H: float64(box.Y)})
		}
	}
	bounds := chartlabel.Rect{X0: float64(c.Min.X), Y0: -float64(c.Max.Y), X1: float64(c.Max.X), Y1: -float64(c.Min.Y)}
	// The target lines' names, drawn at the top left of their lines.
	var texts []chartlabel.Rect
	ref := style(pointSize, true, colReference)
	for _, l := range ls {
		x0, x1 := vLineLabel(c, l, ref)
		h := float64(ref.Height(l.label))
		texts = append(texts, chartlabel.Rect{X0: float64(x0), Y0: -float64(c.Max.Y) + 2, X1: float64(x1), Y1: -float64(c.Max.Y) + 2 + h})
	}
	placed := chartlabel.Place(labels, texts, bounds, 2)
	leader := draw.LineStyle{Color: colDim, Width: 0.6}
	for i, m := range marks {
		r := placed[i]
		if r.Far {
			ax, ay := r.Anchor(float64(m.pt.X), -float64(m.pt.Y))
			c.StrokeLine2(leader, m.pt.X, m.pt.Y, vg.Length(ax), vg.Length(-ay))
		}
	}
	for i, m := range marks {
		c.DrawGlyph(draw.GlyphStyle{Color: seriesColour(m.series), Radius: markerRadius, Shape: glyphs[m.series%len(glyphs)]}, m.pt)
		// The label in its series' colour, darkened to read as text.
		sc := seriesColour(m.series)
		sty.Color = color.RGBA{sc.R * 3 / 4, sc.G * 3 / 4, sc.B * 3 / 4, 0xff}
		r := placed[i]
		box := sty.Rectangle(m.text)
		c.FillText(sty, vg.Point{X: vg.Length(r.X0) - box.Min.X, Y: vg.Length(-r.Y1) - box.Min.Y}, m.text)
	}
}
