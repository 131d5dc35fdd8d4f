package main

// The charts' data, built from the tables the sections printed and from
// nothing else (plots.go draws it): every point of a picture is a cell of a
// table, its figure as the table holds it, so a chart cannot disagree with
// the text. A section asks for a chart by filling Table.Charts (its rows
// along the x axis, one panel per column drawn) or Table.Tradeoff (its rows
// on the bandwidth against error chart of their preset); nothing here knows
// a section by name.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"netcubes/strategy"
)

// figure is one picture: one or more panels stacked, sharing the x axis.
type figure struct {
	file, title string
	tradeoff    bool     // x is bandwidth (log), points labelled; else x is categories
	numericX    bool     // x is a column's figures (a series over time)
	categories  []string // the x axis' names, in order (category charts)
	bars        bool
	xLabel      string // tradeoff and numeric-x charts
	panels      []panelData
}

// panelData is one plot: its y axis and its series.
type panelData struct {
	yLabel string // "bits per changed cube (bits)"
	log    bool
	lines  []strategy.Line // horizontal; on a tradeoff chart, vertical (kbit/s)
	series []seriesData
}

// seriesData is one series: a table's rows, or those of one value of the
// chart's Series column.
type seriesData struct {
	name   string
	points []point
}

// point is one row of a table: its coordinates are two of its cells'
// figures (on a category chart, x is the category's index).
type point struct {
	X, Y  float64
	Label string // tradeoff charts: what the point is
	Text  string // category charts: the figure as the table printed it
	Row   int    // the row in its table
}

// axisLabel is an axis' name followed by the column's unit.
func axisLabel(name, unit string) string {
	if unit == "" {
		return name
	}
	return name + " (" + unit + ")"
}

// cellTexts joins the texts of cols of row r with spaces.
func cellTexts(t *strategy.Table, r int, cols []int) string {
	var parts []string
	for _, c := range cols {
		parts = append(parts, t.Rows[r][c].Text)
	}
	return strings.Join(parts, " ")
}

// columns finds each head in t, or says which is missing.
func columns(t *strategy.Table, where string, heads ...string) ([]int, error) {
	var out []int
	for _, h := range heads {
		i := t.Col(h)
		if i < 0 {
			return nil, fmt.Errorf("%s: no column %q", where, h)
		}
		out = append(out, i)
	}
	return out, nil
}

// buildFigures returns the pictures of every chart the tables ask for, in
// table order, then the bandwidth against error charts, one per preset.
func buildFigures(tables []tabled) ([]figure, error) {
	var figs []figure
	files := map[string]bool{}
	for _, tb := range tables {
		for _, c := range tb.t.Charts {
			f, err := chartFigure(tb, c)
			if err != nil {
				return nil, err
			}
			if files[f.file] {
				return nil, fmt.Errorf("%s: a second chart named %q", tb.section, f.file)
			}
			files[f.file] = true
			figs = append(figs, f)
		}
	}
	trade, err := tradeoffFigures(tables)
	if err != nil {
		return nil, err
	}
	figs = append(figs, trade...)
	for _, f := range figs {
		if n := len(f.panels[0].series); n > maxSeries(f) {
			return nil, fmt.Errorf("chart %s: %d series, more than its kind of chart tells apart (%d)", f.file, n, maxSeries(f))
		}
	}
	return figs, nil
}

// chartFigure builds the picture of chart c of table tb.
func chartFigure(tb tabled, c strategy.Chart) (figure, error) {
	t := tb.t
	where := tb.section + ": chart " + c.File
	f := figure{file: c.File, title: c.Title, bars: c.Bars && !c.XFigures, numericX: c.XFigures}
	if c.File == "" || len(c.X) == 0 || len(c.Panels) == 0 || c.XFigures && len(c.X) != 1 {
		return f, fmt.Errorf("%s: a chart needs a file name, x columns (one for XFigures) and panels", where)
	}
	xs, err := columns(t, where, c.X...)
	if err != nil {
		return f, err
	}
	if c.XFigures {
		f.xLabel = axisLabel(c.XLabel, t.Columns[xs[0]].Unit)
	}
	series := -1
	if c.Series != "" {
		s, err := columns(t, where, c.Series)
		if err != nil {
			return f, err
		}
		series = s[0]
	}
	// Categories and series in order of first appearance.
	var seriesNames []string
	cat := make([]int, len(t.Rows))
	ser := make([]int, len(t.Rows))
	for r := range t.Rows {
		name := cellTexts(t, r, xs)
		k := slices.Index(f.categories, name)
		if k < 0 {
			f.categories = append(f.categories, name)
			k = len(f.categories) - 1
		}
		cat[r] = k
		if series >= 0 {
			s := t.Rows[r][series].Text
			if ser[r] = slices.Index(seriesNames, s); ser[r] < 0 {
				seriesNames = append(seriesNames, s)
				ser[r] = len(seriesNames) - 1
			}
		}
	}
	if series < 0 {
		seriesNames = []string{""}
	}
	if len(c.Names) > 0 && series >= 0 {
		return f, fmt.Errorf("%s: a chart names its series by a column or by Names, not both", where)
	}
	for _, p := range c.Panels {
		pd, err := panelFigure(t, where, c, p, f.categories, cat, ser, seriesNames)
		if err != nil {
			return f, err
		}
		f.panels = append(f.panels, pd)
	}
	return f, nil
}

// panelFigure builds panel p of chart c of table t: each row's figure in
// the panel's column, in its series (ser: the Series column's) at its
// category (cat), or at its x figure on a chart along a column; with Ys,
// each column's figures are a series of their own, named by c.Names.
func panelFigure(t *strategy.Table, where string, c strategy.Chart, p strategy.Panel, categories []string, cat, ser []int, seriesNames []string) (panelData, error) {
	heads := []string{p.Y}
	if len(c.Names) > 0 {
		if p.Y != "" || len(p.Ys) != len(c.Names) {
			return panelData{}, fmt.Errorf("%s: a panel of a chart with Names draws one column (Ys) per name", where)
		}
		heads, seriesNames = p.Ys, c.Names
	} else if len(p.Ys) > 0 {
		return panelData{}, fmt.Errorf("%s: a panel draws columns as series (Ys) only on a chart naming them (Names)", where)
	}
	ys, err := columns(t, where, heads...)
	if err != nil {
		return panelData{}, err
	}
	unit := t.Columns[ys[0]].Unit
	for _, y := range ys[1:] {
		if t.Columns[y].Unit != unit {
			return panelData{}, fmt.Errorf("%s: columns %q and %q on one axis are in %q and %q", where, heads[0], t.Columns[y].Head, unit, t.Columns[y].Unit)
		}
	}
	xcol := -1
	if c.XFigures {
		xcol = t.Col(c.X[0])
	}
	pd := panelData{yLabel: axisLabel(p.Label, unit), log: p.Log, lines: p.Lines}
	for _, n := range seriesNames {
		pd.series = append(pd.series, seriesData{name: n})
	}
	for j, y := range ys {
		seen := map[[2]int]bool{}
		for r, row := range t.Rows {
			v := row[y].Value
			if math.IsNaN(v) {
				continue // no figure ("-"): nothing to draw
			}
			s := ser[r]
			if len(c.Names) > 0 {
				s = j
			}
			pt := point{X: float64(cat[r]), Y: v, Text: strings.Trim(row[y].Text, " ()"), Row: r}
			if xcol >= 0 {
				if pt.X = row[xcol].Value; math.IsNaN(pt.X) {
					continue
				}
			} else if seen[[2]int{s, cat[r]}] {
				return pd, fmt.Errorf("%s: two rows named %q in one series", where, categories[cat[r]])
			}
			seen[[2]int{s, cat[r]}] = true
			pd.series[s].points = append(pd.series[s].points, pt)
		}
	}
	return pd, nil
}

// tradeoffFigures builds the bandwidth against error charts: one per
// preset, every table with a Tradeoff a series on the charts of the
// presets its rows ran on.
func tradeoffFigures(tables []tabled) ([]figure, error) {
	var figs []figure
	byPreset := map[string]int{} // index in figs
	for _, tb := range tables {
		to := tb.t.Tradeoff
		if to == nil {
			continue
		}
		t := tb.t
		where := tb.section + ": tradeoff"
		cols, err := columns(t, where, to.Kbps, to.ErrCm)
		if err != nil {
			return nil, err
		}
		if u := t.Columns[cols[0]].Unit; u != "kbit/s" {
			return nil, fmt.Errorf("%s: bandwidth column %q is in %q, not kbit/s", where, to.Kbps, u)
		}
		if u := t.Columns[cols[1]].Unit; u != "cm" {
			return nil, fmt.Errorf("%s: error column %q is in %q, not cm", where, to.ErrCm, u)
		}
		labels, err := columns(t, where, to.Label...)
		if err != nil {
			return nil, err
		}
		presetCol := -1
		if to.PresetColumn != "" {
			pc, err := columns(t, where, to.PresetColumn)
			if err != nil {
				return nil, err
			}
			presetCol = pc[0]
		}
		for r, row := range t.Rows {
			preset := to.Preset
			if presetCol >= 0 {
				preset = row[presetCol].Text
			}
			if preset == "" {
				return nil, fmt.Errorf("%s: row %d has no preset", where, r)
			}
			x, y := row[cols[0]].Value, row[cols[1]].Value
			if math.IsNaN(x) || math.IsNaN(y) {
				continue
			}
			k, ok := byPreset[preset]
			if !ok {
				k = len(figs)
				byPreset[preset] = k
				figs = append(figs, figure{
					file:     "tradeoff-" + preset,
					title:    "Bandwidth against error, every strategy and setting: " + preset,
					tradeoff: true,
					xLabel:   axisLabel("bandwidth", "kbit/s"),
					panels:   []panelData{{yLabel: axisLabel("position error, RMS", "cm"), log: true}},
				})
			}
			pd := &figs[k].panels[0]
			s := slices.IndexFunc(pd.series, func(s seriesData) bool { return s.name == to.Name })
			if s < 0 {
				pd.series = append(pd.series, seriesData{name: to.Name})
				s = len(pd.series) - 1
			}
			pd.series[s].points = append(pd.series[s].points, point{X: x, Y: y, Label: cellTexts(t, r, labels), Row: r})
			for _, l := range to.Lines {
				addLine(&pd.lines, l)
			}
		}
	}
	return figs, nil
}

// addLine adds l to lines; two tables' lines at one value become one line
// carrying both labels.
func addLine(lines *[]strategy.Line, l strategy.Line) {
	for i := range *lines {
		m := &(*lines)[i]
		if m.Value == l.Value {
			if !strings.Contains(m.Label, l.Label) {
				m.Label += " · " + l.Label
			}
			return
		}
	}
	*lines = append(*lines, l)
}
