package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"netcubes/strategy"
)

// TestPlots runs the whole bench on a short stretch of the script with
// -plots and checks the pictures: one SVG and one PNG per chart a table
// asks for and per preset of the bandwidth against error charts, each
// decoding (PNG at 1920 × 1080, SVG as XML with text in it), and every
// point of every chart a figure of a printed table: its coordinates are
// the cells' figures, the text printed for them rounds them, and no row
// with a figure is left out.
func TestPlots(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every section for 300 ticks")
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	tables, err := runTables([]string{"-frames", "120", "-quiet", "-plots", dir}, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	// Every table was printed as its own text.
	for _, tb := range tables {
		var txt bytes.Buffer
		if err := tb.t.Write(&txt); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), txt.String()) {
			t.Errorf("%s: the table's text is not in the output", tb.section)
		}
	}
	figs, err := buildFigures(tables)
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]figure{}
	for _, f := range figs {
		byFile[f.file] = f
		checkFiles(t, dir, f.file)
		checkLayout(t, f)
	}
	for _, want := range []string{"compression", "interpolation", "statesync-buildup", "statesync-switched", "lockstep", "prediction", "challenge",
		"tradeoff-intercontinental", "tradeoff-perfect", "tradeoff-terrible",
		"adaptation-statesync-cap", "adaptation-statesync-jitter", "adaptation-snapshot-cap",
		"adaptation-snapshot-delay-interpolation", "adaptation-snapshot-delay-compression",
		"other-players", "other-players-tags"} {
		if _, ok := byFile[want]; !ok {
			t.Errorf("no chart %q", want)
		}
	}
	if n, _ := filepath.Glob(filepath.Join(dir, "*")); len(n) != 2*len(figs) {
		t.Errorf("%d files for %d charts", len(n), len(figs))
	}
	tradeoffPoints := map[string]int{}
	for _, tb := range tables {
		for _, c := range tb.t.Charts {
			checkChart(t, tb, c, byFile[c.File])
		}
		if tb.t.Tradeoff != nil {
			tradeoffPoints[tb.section] = checkTradeoff(t, tb, byFile)
		}
	}
	for _, sec := range []string{"snapshot compression", "snapshot interpolation", "state sync build-up", "prediction (2004)"} {
		if tradeoffPoints[sec] == 0 {
			t.Errorf("%s has no point on the bandwidth against error charts", sec)
		}
	}
}

// checkFiles decodes dir/name.png and dir/name.svg.
func checkFiles(t *testing.T, dir, name string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s.png: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() != 1920 || b.Dy() != 1080 {
		t.Errorf("%s.png is %v", name, b)
	}
	svg, err := os.ReadFile(filepath.Join(dir, name+".svg"))
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(svg))
	root, texts := "", 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s.svg: %v", name, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
			}
			if se.Name.Local == "text" {
				texts++
			}
		}
	}
	if root != "svg" || texts < 5 {
		t.Errorf("%s.svg: root %q, %d texts", name, root, texts)
	}
}

// figureOf checks that v is the figure of cell c, whose text prints it
// rounded (a number in the text, to its last decimal).
func figureOf(t *testing.T, where string, v float64, c strategy.Cell) {
	t.Helper()
	if v != c.Value {
		t.Errorf("%s: point at %v, the table's figure is %v (%q)", where, v, c.Value, c.Text)
		return
	}
	m := regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?`).FindString(c.Text)
	printed, err := strconv.ParseFloat(m, 64)
	if err != nil {
		t.Errorf("%s: no number in %q", where, c.Text)
		return
	}
	decimals := 0
	if i := strings.IndexByte(m, '.'); i >= 0 {
		decimals = len(m) - i - 1
	}
	if math.Abs(printed-v) > 0.5*math.Pow(10, -float64(decimals))+1e-9 {
		t.Errorf("%s: printed %q for %v", where, c.Text, v)
	}
}

// checkChart: every row with a figure in each panel's column (or
// columns, Ys) is one point of its series, at its category or, on a chart
// along a column, at that column's figure, at the figure.
func checkChart(t *testing.T, tb tabled, c strategy.Chart, f figure) {
	t.Helper()
	tab := tb.t
	if len(f.panels) != len(c.Panels) {
		t.Fatalf("%s: %d panels, want %d", c.File, len(f.panels), len(c.Panels))
	}
	for i, p := range c.Panels {
		heads := p.Ys
		if len(heads) == 0 {
			heads = []string{p.Y}
		}
		want, got := map[string]int{}, map[string]int{}
		for _, h := range heads {
			for _, row := range tab.Rows {
				if !math.IsNaN(row[tab.Col(h)].Value) && (!c.XFigures || !math.IsNaN(row[tab.Col(c.X[0])].Value)) {
					want[h]++
				}
			}
		}
		for k, s := range f.panels[i].series {
			h := heads[0]
			if len(c.Names) > 0 {
				h = heads[k]
				if s.name != c.Names[k] {
					t.Errorf("%s: series %d named %q, want %q", c.File, k, s.name, c.Names[k])
				}
			}
			y := tab.Col(h)
			for _, pt := range s.points {
				got[h]++
				row := tab.Rows[pt.Row]
				if c.XFigures {
					figureOf(t, c.File+" "+c.X[0], pt.X, row[tab.Col(c.X[0])])
				} else {
					var names []string
					for _, x := range c.X {
						names = append(names, row[tab.Col(x)].Text)
					}
					if f.categories[int(pt.X)] != strings.Join(names, " ") {
						t.Errorf("%s: row %d at category %q", c.File, pt.Row, f.categories[int(pt.X)])
					}
				}
				if c.Series != "" && s.name != row[tab.Col(c.Series)].Text {
					t.Errorf("%s: row %d in series %q", c.File, pt.Row, s.name)
				}
				figureOf(t, c.File+" "+h, pt.Y, row[y])
			}
		}
		for _, h := range heads {
			if got[h] != want[h] || want[h] == 0 {
				t.Errorf("%s %s: %d points for %d figures", c.File, h, got[h], want[h])
			}
		}
	}
}

// checkTradeoff: every row of tb is a point of its preset's bandwidth
// against error chart, at its bandwidth and error, labelled.
func checkTradeoff(t *testing.T, tb tabled, byFile map[string]figure) int {
	t.Helper()
	to, tab := tb.t.Tradeoff, tb.t
	n := 0
	for r, row := range tab.Rows {
		preset := to.Preset
		if to.PresetColumn != "" {
			preset = row[tab.Col(to.PresetColumn)].Text
		}
		f, ok := byFile["tradeoff-"+preset]
		if !ok {
			t.Errorf("%s: no chart for preset %q", tb.section, preset)
			continue
		}
		var found *point
		for _, s := range f.panels[0].series {
			for i := range s.points {
				if s.name == to.Name && s.points[i].Row == r {
					found = &s.points[i]
				}
			}
		}
		if found == nil {
			t.Errorf("%s: row %d is not on %s", tb.section, r, f.file)
			continue
		}
		n++
		figureOf(t, f.file+" kbit/s", found.X, row[tab.Col(to.Kbps)])
		figureOf(t, f.file+" cm", found.Y, row[tab.Col(to.ErrCm)])
		var names []string
		for _, l := range to.Label {
			names = append(names, row[tab.Col(l)].Text)
		}
		if found.Label != strings.Join(names, " ") {
			t.Errorf("%s: row %d labelled %q", tb.section, r, found.Label)
		}
	}
	return n
}

// TestFigureErrors: a chart naming a column the table lacks, or a
// tradeoff whose columns are in other units, is an error, not a picture.
func TestFigureErrors(t *testing.T) {
	tab := func() *strategy.Table {
		tb := strategy.NewTable(strategy.Column{Head: "level"}, strategy.Column{Head: "avg kbit/s", Unit: "kbit/s"}, strategy.Column{Head: "err mm", Unit: "mm"})
		tb.Add(strategy.Text("1"), strategy.Num(17368.3, "%.1f"), strategy.Num(0.2, "%.1f"))
		return tb
	}
	noCol := tab()
	noCol.Charts = []strategy.Chart{{File: "x", X: []string{"level"}, Panels: []strategy.Panel{{Y: "bits"}}}}
	badUnit := tab()
	badUnit.Tradeoff = &strategy.Tradeoff{Name: "n", Kbps: "avg kbit/s", ErrCm: "err mm", Label: []string{"level"}, Preset: "perfect"}
	twice := tab()
	twice.Charts = []strategy.Chart{{File: "x", X: []string{"level"}, Panels: []strategy.Panel{{Y: "avg kbit/s"}}}, {File: "x", X: []string{"level"}, Panels: []strategy.Panel{{Y: "avg kbit/s"}}}}
	ysNoNames := tab()
	ysNoNames.Charts = []strategy.Chart{{File: "x", X: []string{"level"}, Panels: []strategy.Panel{{Ys: []string{"avg kbit/s"}}}}}
	namesAndSeries := tab()
	namesAndSeries.Charts = []strategy.Chart{{File: "x", X: []string{"level"}, Series: "level", Names: []string{"a"}, Panels: []strategy.Panel{{Ys: []string{"avg kbit/s"}}}}}
	units := tab()
	units.Charts = []strategy.Chart{{File: "x", X: []string{"level"}, Names: []string{"a", "b"}, Panels: []strategy.Panel{{Ys: []string{"avg kbit/s", "err mm"}}}}}
	names := tab()
	names.Charts = []strategy.Chart{{File: "x", X: []string{"level"}, Names: []string{"a", "b"}, Panels: []strategy.Panel{{Ys: []string{"avg kbit/s"}}}}}
	for _, c := range []struct {
		tb   *strategy.Table
		want string
	}{
		{noCol, `s: chart x: no column "bits"`},
		{ysNoNames, `s: chart x: a panel draws columns as series (Ys) only on a chart naming them (Names)`},
		{namesAndSeries, `s: chart x: a chart names its series by a column or by Names, not both`},
		{units, `s: chart x: columns "avg kbit/s" and "err mm" on one axis are in "kbit/s" and "mm"`},
		{names, `s: chart x: a panel of a chart with Names draws one column (Ys) per name`},
		{badUnit, `s: tradeoff: error column "err mm" is in "mm", not cm`},
		{twice, `s: a second chart named "x"`},
	} {
		_, err := buildFigures([]tabled{{section: "s", t: c.tb}})
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// TestSeriesOverTime: a chart along a column's figures (a series over
// time), its series split by a column's texts, puts each row at its time
// and draws.
func TestSeriesOverTime(t *testing.T) {
	tb := strategy.NewTable(strategy.Column{Head: "cap"}, strategy.Column{Head: "t s", Unit: "s"}, strategy.Column{Head: "queue ms", Unit: "ms"})
	for i := range 20 {
		for _, c := range []string{"256", "128"} {
			tb.Add(strategy.Text(c), strategy.Num(float64(i)*0.5, "%.1f"), strategy.Num(float64(i*i)/float64(len(c)), "%.0f"))
		}
	}
	tb.Charts = []strategy.Chart{{File: "queue", Title: "Queueing delay over time", X: []string{"t s"}, XFigures: true, XLabel: "time",
		Series: "cap", Panels: []strategy.Panel{{Y: "queue ms", Label: "queueing delay"}}}}
	b := &bench{tables: []tabled{{section: "adaptation", t: tb}}}
	figs, err := buildFigures(b.tables)
	if err != nil {
		t.Fatal(err)
	}
	pd := figs[0].panels[0]
	if len(pd.series) != 2 || len(pd.series[0].points) != 20 || figs[0].xLabel != "time (s)" {
		t.Fatalf("figure %+v", figs[0])
	}
	for _, s := range pd.series {
		for _, p := range s.points {
			figureOf(t, "t", p.X, tb.Rows[p.Row][1])
			figureOf(t, "queue", p.Y, tb.Rows[p.Row][2])
		}
	}
	dir := t.TempDir()
	if err := writePlots(b, dir, io.Discard); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, "queue")
}

// TestColumnsAsSeries: a table with one row per second and a column per
// run (Names, Ys) gives one series per column, each row at its time, a
// cell with no figure left out; a cap that steps (Line.From, To) is kept
// with its span; and the chart draws.
func TestColumnsAsSeries(t *testing.T) {
	tb := strategy.NewTable(strategy.Column{Head: "t s", Unit: "s"}, strategy.Column{Head: "fixed ms", Unit: "ms"}, strategy.Column{Head: "adaptive ms", Unit: "ms"})
	for i := range 45 {
		fixed := strategy.Num(float64(i*7%250), "%.0f")
		if i == 3 {
			fixed = strategy.Text("-")
		}
		tb.Add(strategy.Int(i), fixed, strategy.Num(float64(i%20)+0.25, "%.2f"))
	}
	caps := []strategy.Line{{Value: 1000, Label: "cap 1000", From: 0, To: 10}, {Value: 256, Label: "cap 256", From: 10, To: 30}}
	tb.Charts = []strategy.Chart{{File: "cap", Title: "Queue", X: []string{"t s"}, XFigures: true, XLabel: "time",
		Names: []string{"fixed", "adaptive"}, Panels: []strategy.Panel{{Ys: []string{"fixed ms", "adaptive ms"}, Label: "queueing delay", Lines: caps}}}}
	b := &bench{tables: []tabled{{section: "adaptation", t: tb}}}
	figs, err := buildFigures(b.tables)
	if err != nil {
		t.Fatal(err)
	}
	pd := figs[0].panels[0]
	if len(pd.series) != 2 || pd.series[0].name != "fixed" || pd.series[1].name != "adaptive" ||
		len(pd.series[0].points) != 44 || len(pd.series[1].points) != 45 {
		t.Fatalf("series %+v", pd.series)
	}
	if len(pd.lines) != 2 || pd.lines[1].From != 10 || pd.lines[1].To != 30 {
		t.Errorf("lines %+v", pd.lines)
	}
	checkChart(t, b.tables[0], tb.Charts[0], figs[0])
	for k, s := range pd.series {
		for _, p := range s.points {
			if p.Row == 3 && k == 0 {
				t.Errorf("the row with no figure is a point")
			}
		}
	}
	dir := t.TempDir()
	if err := writePlots(b, dir, io.Discard); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, "cap")
}

// TestSeriesLooks: on each kind of chart, as many series as it may have
// (maxSeries), no two share both their colour and their style (dashes and
// marker, stripes, or glyph).
func TestSeriesLooks(t *testing.T) {
	for _, f := range []figure{{file: "lines"}, {file: "bars", bars: true}, {file: "tradeoff", tradeoff: true}} {
		seen := map[string]int{}
		for i := range maxSeries(f) {
			l := seriesLook(f, i)
			key := fmt.Sprintf("%v %v %T %v", l.col, l.dashes, l.glyph, l.striped)
			if j, ok := seen[key]; ok {
				t.Errorf("%s: series %d and %d look the same (%s)", f.file, j, i, key)
			}
			seen[key] = i
		}
	}
}

// TestScaleLayout: the scale chart of every strategy the bench measures
// (made-up figures: the layout does not depend on them) has one series a
// strategy, each told apart, its legend on more than one row, and the
// legend and the panels' labels clear of each other (checkLayout).
func TestScaleLayout(t *testing.T) {
	var rows []scaleRow
	for k, e := range scaleEntries() {
		for _, n := range []int{1, 2, 4, 8, 16, 32, 64} {
			f := float64(n * (k + 1))
			rows = append(rows, scaleRow{strategy: e.name, clients: n, medianUs: 100 * f, p95Us: 200 * f, cpuUs: 150 * f, bytesTick: 500 * f, heapKB: 4000 * f, perClientKB: 900})
		}
	}
	figs, err := buildFigures([]tabled{{section: "scale", t: scaleTable(rows)}})
	if err != nil {
		t.Fatal(err)
	}
	f := figs[0]
	if got, want := len(f.panels[0].series), len(scaleEntries()); got != want {
		t.Fatalf("%d series, want one a strategy (%d)", got, want)
	}
	lay := checkLayout(t, f)
	rowsY := map[vg.Length]bool{}
	for _, e := range lay.legend {
		rowsY[e.at.Y] = true
	}
	if len(rowsY) < 2 {
		t.Errorf("the legend of %d series fits one row: the test no longer checks a second row", len(lay.legend))
	}
}

// checkLayout lays f out on a slide-sized canvas and checks the computed
// rectangles: the legend's band under the title and above every panel;
// the panels stacked without overlapping; each y axis' name inside its own
// panel's height, so clear of the legend and of the other panels' names.
func checkLayout(t *testing.T, f figure) figureLayout {
	t.Helper()
	c := draw.New(vgimg.NewWith(vgimg.UseWH(figW, figH), vgimg.UseDPI(pngDPI)))
	lay := layoutFigure(c, f)
	overlap := func(a, b vg.Rectangle) bool {
		return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
	}
	if lay.legendBox.Min.Y < c.Min.Y || lay.legendBox.Max.Y > lay.title.Y {
		t.Errorf("%s: legend %v outside the figure or above the title", f.file, lay.legendBox)
	}
	for _, e := range lay.legend {
		if e.at.Y < lay.legendBox.Min.Y || e.at.Y > lay.legendBox.Max.Y || e.at.X < c.Min.X || e.at.X > c.Max.X {
			t.Errorf("%s: legend entry %q at %v outside its band %v", f.file, e.name, e.at, lay.legendBox)
		}
	}
	for i, p := range lay.panels {
		if overlap(lay.legendBox, p.Rectangle) {
			t.Errorf("%s: the legend %v overlaps panel %d %v", f.file, lay.legendBox, i, p.Rectangle)
		}
		yl := lay.yLabels[i]
		if yl.Min.Y < p.Min.Y || yl.Max.Y > p.Max.Y {
			t.Errorf("%s: panel %d's y axis name %q spans %v-%v, the panel %v-%v", f.file, i, lay.plots[i].Y.Label.Text, yl.Min.Y, yl.Max.Y, p.Min.Y, p.Max.Y)
		}
		if overlap(lay.legendBox, yl) {
			t.Errorf("%s: the legend overlaps panel %d's y axis name", f.file, i)
		}
		for j := range i {
			if overlap(lay.panels[j].Rectangle, p.Rectangle) {
				t.Errorf("%s: panels %d and %d overlap", f.file, j, i)
			}
			if overlap(lay.yLabels[j], yl) {
				t.Errorf("%s: the y axis names of panels %d and %d overlap", f.file, j, i)
			}
		}
	}
	return lay
}
