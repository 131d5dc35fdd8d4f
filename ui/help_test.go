package ui

import (
	"reflect"
	"testing"
)

// TestSplitColumns: whole groups are dealt in order so that the tallest
// column is as short as possible.
func TestSplitColumns(t *testing.T) {
	tests := []struct {
		hs      []float64
		cols    int
		starts  []int
		tallest float64
	}{
		{[]float64{1, 1}, 2, []int{0, 1}, 1},
		{[]float64{3, 1, 1, 1}, 2, []int{0, 1}, 3},
		{[]float64{1, 1, 1, 3}, 2, []int{0, 3}, 3},
		{[]float64{2, 2, 2, 2}, 2, []int{0, 2}, 4},
		{[]float64{4, 4, 2, 2, 2, 2}, 3, []int{0, 1, 3}, 6},
		{[]float64{3, 10, 5, 9, 4, 7}, 2, []int{0, 3}, 20},
		{[]float64{3, 10, 5, 9, 4, 7}, 3, []int{0, 2, 4}, 14},
	}
	for _, tt := range tests {
		starts, tallest := splitColumns(tt.hs, tt.cols)
		if !reflect.DeepEqual(starts, tt.starts) || tallest != tt.tallest {
			t.Errorf("splitColumns(%v, %d) = %v, %v; want %v, %v", tt.hs, tt.cols, starts, tallest, tt.starts, tt.tallest)
		}
	}
}

// TestHelpGroupsCoverKeyTable: the help overlay shows every key once, in
// the key table's order.
func TestHelpGroupsCoverKeyTable(t *testing.T) {
	var got []KeyHelp
	for _, g := range helpGroups() {
		if len(g.rows) == 0 {
			t.Errorf("empty group %q", g.name)
		}
		for _, k := range g.rows {
			if k.Group != g.name {
				t.Errorf("%q under %q", k.Key, g.name)
			}
			got = append(got, k)
		}
	}
	var want []KeyHelp
	for _, k := range KeyTable() {
		if k.Key != "" {
			want = append(want, k)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("help shows %d keys, key table has %d", len(got), len(want))
	}
}
