package ui

import (
	"image"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestSplitRows: rows are dealt in order into at most the columns asked
// for, the tallest as short as can be, a column that starts inside a
// group paying for the repeated heading.
func TestSplitRows(t *testing.T) {
	m := helpMetrics{row: 1, head: 2, gap: 0.5}
	group := func(name string, n int) []helpRow {
		var rs []helpRow
		for k := range n {
			rs = append(rs, helpRow{group: name, first: k == 0, last: k == n-1})
		}
		return rs
	}
	rows := append(group("a", 4), group("b", 4)...)
	tests := []struct {
		cols    int
		starts  []int
		tallest float64
	}{
		{1, []int{0}, 2 + 4 + 0.5 + 2 + 4 + 0.5},
		{2, []int{0, 4}, 6.5},
		// A third column does not help: a column starting inside a
		// group pays for its heading again.
		{3, []int{0, 4}, 6.5},
	}
	for _, tt := range tests {
		starts, tallest := splitRows(rows, m, tt.cols)
		if !reflect.DeepEqual(starts, tt.starts) || math.Abs(tallest-tt.tallest) > 0.05 {
			t.Errorf("splitRows(%d cols) = %v, %.2f; want %v, %.2f", tt.cols, starts, tallest, tt.starts, tt.tallest)
		}
		// No column may be taller than the height found.
		for c, from := range starts {
			to := len(rows)
			if c+1 < len(starts) {
				to = starts[c+1]
			}
			h := 0.0
			for i := from; i < to; i++ {
				h += m.rowHeight(rows[i], i == from)
			}
			if h > tallest+1e-9 {
				t.Errorf("%d cols: column %d is %.2f tall, more than %.2f", tt.cols, c, h, tallest)
			}
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
			a := layoutApp(t, f, sess)
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

// TestHelpKeepsTheActiveStrategysKeys: the help's first page has the
// active strategy's keys; where every key does not fit at a readable size
// the others follow on further pages, and together the pages show every
// key once.
func TestHelpKeepsTheActiveStrategysKeys(t *testing.T) {
	f, sess := newTestApp(t, "statesync")
	active := sess.Strategy().Family()
	for _, c := range []struct {
		w, h  int
		scale float64
	}{{1920, 1080, 1}, {1280, 720, 1}, {1280, 720, 2}} {
		f.scale = c.scale
		a := layoutApp(t, f, sess)
		l := a.layout(c.w, c.h)
		pages := a.helpPages(c.w, c.h, l)
		groups := map[string]bool{}
		for _, r := range pages[0] {
			groups[r.group] = true
		}
		hasActive := false
		for g := range groups {
			if strings.HasPrefix(g, active+" (") {
				hasActive = true
			}
		}
		if !hasActive {
			t.Errorf("%dx%d scale %v: the help's first page lost the active strategy's keys (%s)", c.w, c.h, c.scale, active)
		}
		seen := map[string]int{}
		for _, p := range pages {
			for _, r := range p {
				seen[r.group+"|"+r.Key]++
			}
		}
		for _, r := range helpRows() {
			if n := seen[r.group+"|"+r.Key]; n != 1 {
				t.Errorf("%dx%d scale %v: %s %q on %d pages", c.w, c.h, c.scale, r.group, r.Key, n)
			}
		}
	}
	f.scale = 1
}

// TestHelpReadableAt720p: at 1280×720 (and the other projector sizes)
// every page of the help is drawn at least readableHelp(h) high (14.4 px
// at 720p, about the HUD's small text; it was 10 px), and paging with H
// keeps one text size on every page.
func TestHelpReadableAt720p(t *testing.T) {
	f, sess := newTestApp(t, "predict")
	for _, sz := range [][2]int{{1920, 1080}, {1600, 900}, {1280, 720}} {
		for _, scale := range []float64{1, 1.5, 2} {
			f.scale = scale
			a := layoutApp(t, f, sess)
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			n := len(a.helpPages(w, h, l))
			first := 0.0
			for a.helpPage = 0; a.helpPage < n; a.helpPage++ {
				p, ok := a.helpLayout(w, h, l)
				if !ok {
					t.Fatalf("%dx%d scale %v page %d: no help", w, h, scale, a.helpPage+1)
				}
				if a.helpPage == 0 {
					first = p.size
				} else if math.Abs(p.size-first) > 0.5 {
					t.Errorf("%dx%d scale %v: page %d at %.1f px, page 1 at %.1f: H made the text jump", w, h, scale, a.helpPage+1, p.size, first)
				}
				if p.size < readableHelp(h) {
					t.Errorf("%dx%d scale %v page %d of %d: help text %.1f px, below %.1f", w, h, scale, a.helpPage+1, n, p.size, readableHelp(h))
				}
			}
		}
	}
	f.scale = 1
}

// TestHelpLinesInsideThePanel: every row's help ends inside the panel
// drawn (at 1080p the longest rows ran past its edge: the widths were
// scaled from another size), and with a note showing the panel ends above
// the note (it covered the last rows).
func TestHelpLinesInsideThePanel(t *testing.T) {
	f, sess := newTestApp(t, "statesync")
	for _, sz := range [][2]int{{1920, 1080}, {1600, 900}, {1280, 720}} {
		for _, scale := range []float64{1, 1.5, 2} {
			f.scale = scale
			a := layoutApp(t, f, sess)
			a.note, a.noteTicks = "drawing is slow here: smooth edges off (F9 turns them back on)", 60
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			for a.helpPage = 0; a.helpPage < len(a.helpPages(w, h, l)); a.helpPage++ {
				checkHelpPage(t, a, w, h, l, scale)
			}
		}
	}
	f.scale = 1
}

// checkHelpPage: every row of the shown page ends inside the panel, and the
// panel ends above the note.
func checkHelpPage(t *testing.T, a *App, w, h int, l hudLayout, scale float64) {
	t.Helper()
	p, ok := a.helpLayout(w, h, l)
	if !ok {
		t.Fatalf("%dx%d scale %v: no help", w, h, scale)
	}
	txt := a.fonts.face(a.fonts.regular, p.size)
	col := -1
	for i, r := range p.rows {
		if col+1 < len(p.starts) && i == p.starts[col+1] {
			col++
		}
		end := float64(p.rect.Min.X) + p.pad + p.colX[col] + p.keyW[col] + p.keyGap + measure(r.Help, txt)
		if end > float64(p.rect.Max.X)+0.5 {
			t.Errorf("%dx%d scale %v: %q ends at %.0f, past the panel's %d", w, h, scale, r.Key, end, p.rect.Max.X)
		}
	}
	if noteTop := a.helpBottom(h, l); p.rect.Max.Y > noteTop || noteTop >= h-l.botH {
		t.Errorf("%dx%d scale %v: the panel ends at %d, the note's room starts at %d", w, h, scale, p.rect.Max.Y, noteTop)
	}
	if bottom := p.rect.Min.Y + int(p.pad+p.titleH); bottom > p.rect.Max.Y {
		t.Errorf("%dx%d scale %v: the title runs past the panel", w, h, scale)
	}
}
