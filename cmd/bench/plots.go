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
// vision deficiency (its eighth, yellow, is left out: it does not read on
// white); one per series, in order, then again with another style (look).
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

// lineDashes and lineGlyphs are the line charts' styles, one per round of
// the palette: the first seven series solid with round markers, the next
// seven dashed with square ones, then dotted with triangles.
var (
	lineDashes = [][]vg.Length{nil, {9, 4}, {2.5, 3}}
	lineGlyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}
)

var (
	colInk       = color.RGBA{0x22, 0x22, 0x22, 0xff}
	colDim       = color.RGBA{0x66, 0x66, 0x66, 0xff}
	colGrid      = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	colReference = color.RGBA{0xc0, 0x1c, 0x28, 0xff}
)

// look is how a series is drawn: its colour, and what tells it from the
// series of the same colour a round of the palette before or after it.
type look struct {
	col     color.RGBA
	dashes  []vg.Length      // line charts: nil is solid
	glyph   draw.GlyphDrawer // line charts' markers; tradeoff charts' points
	striped bool             // bar charts: white stripes across the bar
}

// seriesLook is series i's look on a chart of kind f (line, bar or
// tradeoff). The colour goes round the palette; each round changes the
// line's dashes and marker, the bars' stripes, or (tradeoff charts, whose
// points already have a glyph each) shifts the glyphs by one, so two
// series share a colour only with another style, up to maxSeries(f).
func seriesLook(f figure, i int) look {
	n := len(palette)
	round := i / n
	l := look{col: palette[i%n]}
	switch {
	case f.tradeoff:
		l.glyph = glyphs[(i%n+round)%len(glyphs)]
	case f.bars:
		l.striped = round%2 == 1
	default:
		l.dashes = lineDashes[round%len(lineDashes)]
		l.glyph = lineGlyphs[round%len(lineGlyphs)]
	}
	return l
}

// maxSeries is the most series a chart of f's kind tells apart.
func maxSeries(f figure) int {
	switch {
	case f.tradeoff:
		return len(palette) * len(glyphs)
	case f.bars:
		return 2 * len(palette)
	}
	return len(palette) * len(lineDashes)
}

// seriesLooks are the looks of a chart's first n series.
func seriesLooks(f figure, n int) []look {
	var ls []look
	for i := range n {
		ls = append(ls, seriesLook(f, i))
	}
	return ls
}

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
// panels stacked (figureLayout).
func drawFigure(c draw.Canvas, f figure) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	lay := layoutFigure(c, f)
	title := style(titleSize, true, colInk)
	title.XAlign, title.YAlign = draw.XLeft, draw.YTop
	c.FillText(title, lay.title, f.title)
	drawLegend(c, f, lay.legend)
	for i, p := range lay.plots {
		p.Draw(lay.panels[i])
	}
}

// figureLayout is where a figure's parts go, in points on its canvas.
type figureLayout struct {
	title     vg.Point      // the title's top left
	legend    []legendPlace // each legend entry
	legendBox vg.Rectangle  // the band the legend's rows fill
	plots     []*plot.Plot  // one per panel
	panels    []draw.Canvas // each panel's whole area: axes, labels and data
	yLabels   []vg.Rectangle
}

// layoutFigure places f on c: the title at the top, the legend's rows
// under it (as many as its names need: the band is taken from the panels'
// height, never drawn over them), the panels stacked in what remains with
// their x axes aligned. A y axis' name is drawn along its panel, centred
// on the data; a name longer than the panel is tall would run into the
// next panel's, so it is wrapped onto lines that fit.
func layoutFigure(c draw.Canvas, f figure) figureLayout {
	var lay figureLayout
	area := draw.Crop(c, margin, -margin, margin, -margin)
	title := style(titleSize, true, colInk)
	lay.title = vg.Point{X: area.Min.X, Y: area.Max.Y}
	area.Max.Y -= title.Height(f.title) + 6
	lay.legend, lay.legendBox = layoutLegend(area, f)
	if len(lay.legend) > 0 {
		area.Max.Y = lay.legendBox.Min.Y - 8
	}
	var grid [][]*plot.Plot
	for i := range f.panels {
		p := panelPlot(f, i)
		lay.plots = append(lay.plots, p)
		grid = append(grid, []*plot.Plot{p})
	}
	tiles := draw.Tiles{Rows: len(grid), Cols: 1, PadY: 8}
	cs := plot.Align(grid, tiles, area)
	// Wrapping a name makes its axis wider, not its panel shorter: the
	// panels' heights and data areas stay where the first pass put them.
	for i, p := range lay.plots {
		room := yLabelRoom(cs[i][0], p)
		p.Y.Label.Text = wrap(p.Y.Label.Text, p.Y.Label.TextStyle, room)
	}
	cs = plot.Align(grid, tiles, area)
	for i, p := range lay.plots {
		lay.panels = append(lay.panels, cs[i][0])
		lay.yLabels = append(lay.yLabels, yLabelBox(cs[i][0], p))
	}
	return lay
}

// yLabelRoom is the longest y axis name that fits panel c centred on its
// data, as gonum draws it, with a gap either end.
func yLabelRoom(c draw.Canvas, p *plot.Plot) vg.Length {
	data := p.DataCanvas(c)
	mid := data.Center().Y
	return 2*min(mid-c.Min.Y, c.Max.Y-mid) - 8
}

// yLabelBox is where gonum draws panel c's y axis name: along its left
// edge, a line high per line of the name, centred on the data.
func yLabelBox(c draw.Canvas, p *plot.Plot) vg.Rectangle {
	sty := p.Y.Label.TextStyle
	data := p.DataCanvas(c)
	mid := data.Center().Y
	w := sty.Width(p.Y.Label.Text)
	return vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: mid - w/2}, Max: vg.Point{X: c.Min.X + sty.Height(p.Y.Label.Text), Y: mid + w/2}}
}

// legendEntry is one series as the legend shows it.
type legendEntry struct {
	name string
	look look
}

// legendEntries are f's series (those of its first panel: every panel has
// the same), none when there is only one unnamed series.
func legendEntries(f figure) []legendEntry {
	var es []legendEntry
	for i, s := range f.panels[0].series {
		if s.name == "" {
			continue
		}
		es = append(es, legendEntry{name: s.name, look: seriesLook(f, i)})
	}
	return es
}

// legendPlace is a legend entry and where it goes: its swatch's left end,
// at the middle of its row.
type legendPlace struct {
	legendEntry
	at vg.Point
}

const legendSwatch = vg.Length(22)

// layoutLegend places the series' names in rows at the top of area,
// wrapping to as many rows as they need, and returns them with the band
// they fill (empty when there is no legend).
func layoutLegend(area draw.Canvas, f figure) ([]legendPlace, vg.Rectangle) {
	es := legendEntries(f)
	if len(es) == 0 {
		return nil, vg.Rectangle{Min: vg.Point{X: area.Min.X, Y: area.Max.Y}, Max: area.Max}
	}
	sty := style(legendSize, false, colInk)
	lineH := sty.Height("Ag") * 1.35
	x, y := area.Min.X, area.Max.Y-lineH/2
	var out []legendPlace
	for _, e := range es {
		w := legendSwatch + 6 + sty.Width(e.name) + 36 // room for a wider fallback font in an SVG viewer
		if x > area.Min.X && x+w > area.Max.X {
			x, y = area.Min.X, y-lineH
		}
		out = append(out, legendPlace{legendEntry: e, at: vg.Point{X: x, Y: y}})
		x += w
	}
	return out, vg.Rectangle{Min: vg.Point{X: area.Min.X, Y: y - lineH/2}, Max: area.Max}
}

// drawLegend draws the legend's entries where layoutLegend placed them:
// each series' swatch (its line and marker, its bar, or its point) and its
// name.
func drawLegend(c draw.Canvas, f figure, places []legendPlace) {
	sty := style(legendSize, false, colInk)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	for _, e := range places {
		x, y := e.at.X, e.at.Y
		mid := vg.Point{X: x + legendSwatch/2, Y: y}
		l := e.look
		switch {
		case f.tradeoff:
			c.DrawGlyph(draw.GlyphStyle{Color: l.col, Radius: markerRadius, Shape: l.glyph}, mid)
		case f.bars:
			fillBar(c, l, x, y-6, x+legendSwatch, y+6)
		default:
			c.StrokeLine2(draw.LineStyle{Color: l.col, Width: 2.5, Dashes: l.dashes}, x, y, x+legendSwatch, y)
			c.DrawGlyph(draw.GlyphStyle{Color: l.col, Radius: markerRadius, Shape: l.glyph}, mid)
		}
		c.FillText(sty, vg.Point{X: x + legendSwatch + 6, Y: y}, e.name)
	}
}

// fillBar fills a bar from (x0, y0) to (x1, y1) in l's colour, striped
// across in white when l says so.
func fillBar(c draw.Canvas, l look, x0, y0, x1, y1 vg.Length) {
	c.FillPolygon(l.col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	if !l.striped {
		return
	}
	stripe := draw.LineStyle{Color: color.White, Width: 1.5}
	for y := y0 + 3; y < y1-1; y += 5 {
		c.StrokeLine2(stripe, x0, y, x1, y)
	}
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
	looks := seriesLooks(f, len(pd.series))
	switch {
	case f.tradeoff:
		p.Add(&tradeoffMarks{pd: pd, sx: sx, sy: sy, looks: looks})
	case f.bars:
		p.Add(&barMarks{pd: pd, sy: sy, n: len(f.categories), looks: looks})
	default:
		p.Add(&lineMarks{pd: pd, sy: sy, looks: looks})
	}
	return p
}

// refLines draws a panel's reference lines: horizontal across the data
// area with their label above the right end, or vertical (tradeoff
// charts) with their label at the top, left of the line.
func refLines(c draw.Canvas, lines []lineAt, vertical bool) {
	refLineParts(c, lines, vertical, true, true)
}

// refLineParts draws the reference lines' strokes, their labels, or both:
// a line chart draws its strokes under the series and the labels over
// them, so that no series hides what a line is.
func refLineParts(c draw.Canvas, lines []lineAt, vertical, strokes, labels bool) {
	ls := draw.LineStyle{Color: colReference, Width: 1.6, Dashes: []vg.Length{7, 4}}
	sty := style(pointSize, true, colReference)
	for _, l := range lines {
		if vertical {
			if l.at < c.Min.X || l.at > c.Max.X {
				continue
			}
			if strokes {
				c.StrokeLine2(ls, l.at, c.Min.Y, l.at, c.Max.Y)
			}
			if labels {
				x0, _ := vLineLabel(c, l, sty)
				sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
				backedText(c, sty, vg.Point{X: x0, Y: c.Max.Y - 2}, l.label)
			}
			continue
		}
		if l.at < c.Min.Y || l.at > c.Max.Y {
			continue
		}
		x0, x1 := c.Min.X, c.Max.X
		if l.spanned {
			x0, x1 = max(l.x0, c.Min.X), min(l.x1, c.Max.X)
		}
		if strokes {
			c.StrokeLine2(ls, x0, l.at, x1, l.at)
		}
		if labels {
			sty.XAlign, sty.YAlign = draw.XRight, draw.YBottom
			backedText(c, sty, vg.Point{X: x1 - 4, Y: l.at + 3}, l.label)
		}
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
	pd    panelData
	sy    scale
	n     int
	looks []look // one per series
}

func (b *barMarks) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	ns := len(b.pd.series)
	group := trX(0.82) - trX(0)
	bw := group / vg.Length(ns)
	val := style(valueSize, false, colInk)
	val.XAlign, val.YAlign = draw.XCenter, draw.YBottom
	for s, se := range b.pd.series {
		for _, p := range se.points {
			x0 := trX(p.X) - group/2 + vg.Length(s)*bw
			top := trY(b.sy.at(p.Y))
			fillBar(c, b.looks[s], x0+1, c.Min.Y, x0+bw-1, top)
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
	pd    panelData
	sy    scale
	looks []look // one per series
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
	refLineParts(c, ls, false, true, false)
	defer refLineParts(c, ls, false, false, true)
	for s, se := range l.pd.series {
		lk := l.looks[s]
		var pts []vg.Point
		for _, p := range se.points {
			pts = append(pts, vg.Point{X: trX(p.X), Y: trY(l.sy.at(p.Y))})
		}
		c.StrokeLines(draw.LineStyle{Color: lk.col, Width: 2.5, Dashes: lk.dashes}, pts)
		// A series over time has a point a second: the line is the figure,
		// markers would only blot it.
		if len(pts) > denseSeries {
			continue
		}
		for _, pt := range pts {
			c.DrawGlyph(draw.GlyphStyle{Color: lk.col, Radius: markerRadius, Shape: lk.glyph}, pt)
		}
	}
}

// tradeoffMarks draws the bandwidth against error points, each labelled,
// and the articles' target lines.
type tradeoffMarks struct {
	pd     panelData
	sx, sy scale
	looks  []look // one per series
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
		lk := t.looks[m.series]
		c.DrawGlyph(draw.GlyphStyle{Color: lk.col, Radius: markerRadius, Shape: lk.glyph}, m.pt)
		// The label in its series' colour, darkened to read as text.
		sc := lk.col
		sty.Color = color.RGBA{sc.R * 3 / 4, sc.G * 3 / 4, sc.B * 3 / 4, 0xff}
		r := placed[i]
		box := sty.Rectangle(m.text)
		c.FillText(sty, vg.Point{X: vg.Length(r.X0) - box.Min.X, Y: vg.Length(-r.Y1) - box.Min.Y}, m.text)
	}
}
