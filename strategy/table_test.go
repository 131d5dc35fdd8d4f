package strategy

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"text/tabwriter"
)

// TestTableWrite: a table prints exactly as the bench's tables printed
// before they were data (a tabwriter, right-aligned, two spaces, every
// cell closed by a tab), a joined column inside the cell before it, then
// the notes.
func TestTableWrite(t *testing.T) {
	tb := NewTable(Column{Head: "step"}, Column{Head: "kbit/s", Unit: "kbit/s"},
		Column{Head: "corrections"}, Column{Head: "corrections/s", Unit: "1/s", Join: true}, Column{Head: "first desync"})
	tb.Add(Textf("%d %s", 1, "no prediction"), Num(255.94, "%.1f"), Int(0), Num(0, " (%.1f/s)"), Text("none"))
	tb.Add(Text("5 katamari: the limit"), Num(17368.25, "%.1f"), Uint(350), Num(10.66, " (%.1f/s)"), Textf("frame %d", 61))
	tb.Note("kbit/s: headers included.")
	tb.Notef("%d frames", 1965)

	var want bytes.Buffer
	w := tabwriter.NewWriter(&want, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "step\tkbit/s\tcorrections\tfirst desync\t")
	fmt.Fprintf(w, "%d %s\t%.1f\t%d (%.1f/s)\t%s\t\n", 1, "no prediction", 255.94, 0, 0.0, "none")
	fmt.Fprintf(w, "%s\t%.1f\t%d (%.1f/s)\t%s\t\n", "5 katamari: the limit", 17368.25, 350, 10.66, "frame 61")
	w.Flush()
	fmt.Fprintln(&want, "kbit/s: headers included.")
	fmt.Fprintf(&want, "%d frames\n", 1965)

	var got bytes.Buffer
	if err := tb.Write(&got); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
	if !strings.Contains(got.String(), "350 (10.7/s)") {
		t.Errorf("joined cell missing:\n%s", got.String())
	}
}

// TestTableCells: a cell keeps its figure beside its text; a text cell
// has none; columns are found by their head.
func TestTableCells(t *testing.T) {
	for _, c := range []struct {
		cell Cell
		v    float64
		text string
	}{
		{Num(0.08449, "%.3f"), 0.08449, "0.084"},
		{Num(17.368, "%.1f Mbit/s"), 17.368, "17.4 Mbit/s"},
		{Int(-3), -3, "-3"},
		{Uint(7), 7, "7"},
		{Text("-"), math.NaN(), "-"},
	} {
		if c.cell.Text != c.text || !(c.cell.Value == c.v || math.IsNaN(c.v) && math.IsNaN(c.cell.Value)) {
			t.Errorf("cell %+v, want %v %q", c.cell, c.v, c.text)
		}
	}
	tb := NewTable(Column{Head: "a"}, Column{Head: "b"})
	if tb.Col("b") != 1 || tb.Col("c") != -1 {
		t.Errorf("Col: %d %d", tb.Col("b"), tb.Col("c"))
	}
	tb.Add(Int(1))
	if err := tb.Write(&bytes.Buffer{}); err == nil {
		t.Error("a row with a missing cell printed")
	}
}
