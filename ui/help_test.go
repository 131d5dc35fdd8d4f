package ui

import (
	"image"
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

// TestHelpNeverCoversTheHUD: at the three projector sizes and the three
// text scales, the help panel lies inside the band between the top bar and
// the bottom HUD (it used to be centred on the whole window, over the
// network column), and its text stays at least 9 px.
func TestHelpNeverCoversTheHUD(t *testing.T) {
	f, sess := newTestApp(t, "statesync")
	for _, sz := range [][2]int{{1920, 1080}, {1600, 900}, {1280, 720}} {
		for _, scale := range []float64{1, 1.5, 2} {
			f.scale = scale
			a := &App{fonts: f, sess: sess}
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			p, ok := a.helpLayout(w, h, l)
			if !ok {
				t.Errorf("%dx%d scale %v: no help panel", w, h, scale)
				continue
			}
			band := image.Rect(0, l.topH, w, h-l.botH)
			if !p.rect.In(band) {
				t.Errorf("%dx%d scale %v: help %v outside the views' band %v", w, h, scale, p.rect, band)
			}
			if p.size < 9 {
				t.Errorf("%dx%d scale %v: help text %.1f px", w, h, scale, p.size)
			}
		}
	}
}
