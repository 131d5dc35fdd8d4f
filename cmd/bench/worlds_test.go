package main

import (
	"bytes"
	"strings"
	"testing"

	"netcubes/catalog"
)

// TestWorldsSection runs the "worlds per tick" section briefly: the one
// world's rows, and a row per whole-world strategy of the catalog and
// number of players.
func TestWorldsSection(t *testing.T) {
	var out, errb bytes.Buffer
	tables, err := runTables([]string{"-only", "worlds per tick", "-frames", "70", "-quiet"}, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if len(tables) != 2 {
		t.Fatalf("%d tables, want 2\n%s", len(tables), out.String())
	}
	for _, row := range []string{"gather step, median", "save", "restore", "8-frame rollback", "physics step, all asleep"} {
		if !strings.Contains(out.String(), row) {
			t.Errorf("no row %q\n%s", row, out.String())
		}
	}
	want := (len(catalog.All()) - firstWholeWorld) * len(worldsPlayers)
	if n := len(tables[1].t.Rows); n != want || want == 0 {
		t.Errorf("%d strategy rows, want %d", n, want)
	}
	// A tick's critical path is at most its CPU on every core, tick by
	// tick, so at every percentile too.
	col := func(head string) int {
		for i, c := range tables[1].t.Columns {
			if c.Head == head {
				return i
			}
		}
		t.Fatalf("no column %q", head)
		return -1
	}
	for _, pair := range [][2]string{{"median ms", "CPU median ms"}, {"p95 ms", "CPU p95 ms"}} {
		crit, cpu := col(pair[0]), col(pair[1])
		for _, row := range tables[1].t.Rows {
			if c, all := row[crit].Value, row[cpu].Value; !(c > 0 && c <= all) {
				t.Errorf("%s, %s players: %s %g, %s %g", row[0].Text, row[1].Text, pair[0], c, pair[1], all)
			}
		}
	}
}
