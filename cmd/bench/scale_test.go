package main

import (
	"bytes"
	"testing"
)

// TestScaleSection: -clients runs every strategy of the catalog and
// compression at levels 12 and 13 with each number of clients, and the
// table has a row for each with the server's time, the bytes per client
// and, past one client, the heap per client.
func TestScaleSection(t *testing.T) {
	var out, errb bytes.Buffer
	tables, err := runTables([]string{"-clients", "1,3", "-frames", "30", "-quiet"}, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if len(tables) != 1 || tables[0].section != "scale" {
		t.Fatalf("tables %+v, want the scale table alone", tables)
	}
	tb := tables[0].t
	name, clients, median, perClient := tb.Col("strategy"), tb.Col("clients"), tb.Col("median ms"), tb.Col("bytes/client")
	seen := map[string]int{}
	for _, row := range tb.Rows {
		seen[row[name].Text]++
		if row[median].Value <= 0 || row[perClient].Value <= 0 {
			t.Errorf("%s, %s clients: median %v ms, %v bytes per client", row[name].Text, row[clients].Text, row[median].Value, row[perClient].Value)
		}
	}
	for _, want := range []string{"interpolation", "compression", "compression 12", "compression 13", "statesync", "lockstep", "predict"} {
		if seen[want] != 2 {
			t.Errorf("%s: %d rows, want one for 1 and one for 3 clients", want, seen[want])
		}
	}
}
