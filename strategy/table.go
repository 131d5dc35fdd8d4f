package strategy

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// A bench table is data before it is text: columns with their units, rows
// of cells that keep the figure beside the text printed for it. The bench
// prints the text (Table.Write) and, with -plots, draws the same figures
// (Table.Charts, Table.Tradeoff), so a chart can never show a number the
// table does not.

// Table is one table of a bench section.
type Table struct {
	Columns []Column
	Rows    [][]Cell
	// Notes are printed under the table, one line each: what the columns
	// measure and on which conditions.
	Notes []string
	// Charts are the pictures the bench draws from this table (-plots).
	Charts []Chart
	// Tradeoff, when set, places every row on the bench's bandwidth against
	// error chart, beside the other strategies' rows.
	Tradeoff *Tradeoff
}

// Column is one column of a table.
type Column struct {
	// Head is printed at the top of the column ("avg kbit/s") and names
	// the column for charts.
	Head string
	// Unit is the unit of the column's figures ("kbit/s", "cm"); a chart
	// writes it after its axis' name. "" for text and plain counts.
	Unit string
	// Join prints this column's cells at the end of the previous column's
	// (with no header of its own): "350 (10.7/s)" is two figures, the
	// count and the rate, in one printed cell.
	Join bool
}

// Cell is one figure of a table and how it is printed.
type Cell struct {
	Value float64 // the figure; NaN for a cell that is only text
	Text  string  // as printed
}

// Num is the figure v printed with format ("%.1f", "%.1f Mbit/s").
func Num(v float64, format string) Cell { return Cell{Value: v, Text: fmt.Sprintf(format, v)} }

// Int is a count.
func Int(n int) Cell { return Cell{Value: float64(n), Text: fmt.Sprintf("%d", n)} }

// Uint is a count.
func Uint(n uint64) Cell { return Cell{Value: float64(n), Text: fmt.Sprintf("%d", n)} }

// Text is a cell with no figure: a name, a stage, "none".
func Text(s string) Cell { return Cell{Value: math.NaN(), Text: s} }

// Textf is Text(fmt.Sprintf(format, args...)).
func Textf(format string, args ...any) Cell { return Text(fmt.Sprintf(format, args...)) }

// NewTable starts a table with these columns.
func NewTable(cols ...Column) *Table { return &Table{Columns: cols} }

// Add appends a row, one cell per column.
func (t *Table) Add(cells ...Cell) { t.Rows = append(t.Rows, cells) }

// Note appends a line under the table.
func (t *Table) Note(line string) { t.Notes = append(t.Notes, line) }

// Notef appends a formatted line under the table.
func (t *Table) Notef(format string, args ...any) { t.Note(fmt.Sprintf(format, args...)) }

// Col is the index of the column headed head, or −1.
func (t *Table) Col(head string) int {
	for i, c := range t.Columns {
		if c.Head == head {
			return i
		}
	}
	return -1
}

// Write prints the table as the bench always has: columns aligned right,
// two spaces apart, then the notes.
func (t *Table) Write(out io.Writer) error {
	for i, r := range t.Rows {
		if len(r) != len(t.Columns) {
			return fmt.Errorf("table row %d has %d cells for %d columns", i, len(r), len(t.Columns))
		}
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	heads := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		heads[i] = c.Head
	}
	fmt.Fprint(w, t.line(heads, true))
	for _, r := range t.Rows {
		texts := make([]string, len(r))
		for i, c := range r {
			texts[i] = c.Text
		}
		fmt.Fprint(w, t.line(texts, false))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, n := range t.Notes {
		if _, err := fmt.Fprintln(out, n); err != nil {
			return err
		}
	}
	return nil
}

// line is one row for the tabwriter: every cell closed by a tab, a joined
// column's text appended to the cell before it (its head is not printed).
func (t *Table) line(texts []string, header bool) string {
	var b strings.Builder
	for i, s := range texts {
		join := i > 0 && t.Columns[i].Join
		if join && header {
			continue
		}
		if i > 0 && !join {
			b.WriteByte('\t')
		}
		b.WriteString(s)
	}
	b.WriteString("\t\n")
	return b.String()
}

// Chart is a picture of a table: its rows along the x axis, in order, one
// panel per figure drawn, the panels stacked and sharing the x axis.
type Chart struct {
	// File names the chart's files (File.svg, File.png); unique in a run.
	File  string
	Title string
	// X lists the columns whose texts, joined by a space, name each row
	// on the x axis ("level"; "step", "replay").
	X []string
	// XFigures puts the rows along a linear axis at the figures of the one
	// X column instead (a series over time: "t s"), named XLabel; the
	// series are drawn as lines.
	XFigures bool
	XLabel   string
	// Series is the column whose text splits the rows into series, one
	// per value in order of first appearance ("preset"); "" for one.
	Series string
	// Bars draws bars (grouped by series); otherwise lines with points.
	Bars   bool
	Panels []Panel
	// Names, for a chart whose panels draw several columns each (Ys), are
	// the series' names, one per column in order ("fixed", "adaptive"):
	// a table with one row per second and a column per run reads better
	// as text than one row per run and second.
	Names []string
}

// Panel is one plot of a chart: one column's figures.
type Panel struct {
	Y string // the column drawn
	// Ys, instead of Y, are columns drawn as series on this panel, named
	// by the chart's Names (and then the chart has no Series column).
	Ys []string
	// Label is the axis' name ("bits per changed cube"); the column's
	// unit follows it in brackets.
	Label string
	Log   bool   // a logarithmic axis (the figures span decades)
	Lines []Line // reference lines: the articles' figures and targets
}

// Line is a horizontal (on a Tradeoff chart: vertical) reference line.
type Line struct {
	Value float64
	Label string
	// From and To, on a chart along a column's figures (XFigures), draw
	// the line over that span of x only (a link's cap that steps); both 0:
	// across the whole chart.
	From, To float64
}

// Tradeoff places a table's rows on the bench's chart of bandwidth
// against error, one chart per network preset, every strategy's rows on
// it: the trade-off every strategy makes, in one picture.
type Tradeoff struct {
	// Name is the rows' entry in the legend ("snapshot compression,
	// by level").
	Name string
	// Kbps and ErrCm are the columns of the point's coordinates, in
	// kbit/s and cm.
	Kbps, ErrCm string
	// Label lists the columns whose texts, joined by a space, label each
	// point.
	Label []string
	// PresetColumn names the column holding each row's network preset;
	// when "", every row ran on Preset.
	PresetColumn string
	Preset       string
	// Lines are the articles' targets on the bandwidth axis (kbit/s).
	Lines []Line
}
