package ui

import (
	"image"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/catalog"
	"netcubes/game"
	"netcubes/viewmodel"
)

// TestChartStaysInTheLeftView: at the three projector sizes and the three
// text scales, the comparison chart lies inside the left view below its
// label, so the top bar, the bottom panel's figures and the right view
// stay in sight; at 1280×720 it is there at every scale.
func TestChartStaysInTheLeftView(t *testing.T) {
	f, sess := newTestApp(t, "compression")
	for _, sz := range [][2]int{{1920, 1080}, {1600, 900}, {1280, 720}} {
		for _, scale := range []float64{1, 1.5, 2} {
			f.scale = scale
			a := layoutApp(t, f, sess)
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			lr, rr := a.viewRects(w, h, l.topH, l.botH)
			r := chartRect(l, lr, rr)
			if r.Empty() {
				t.Errorf("%dx%d scale %v: no room for the chart", w, h, scale)
				continue
			}
			below := lr
			below.Min.Y += int(lineHeight(l.smallBold) + l.pad*1.5) // the view's label
			if !r.In(below) {
				t.Errorf("%dx%d scale %v: chart %v outside the left view below its label %v", w, h, scale, r, below)
			}
			if r.Overlaps(rr) || r.Max.Y > h-l.botH || r.Min.Y < l.topH {
				t.Errorf("%dx%d scale %v: chart %v over the right view or the bars", w, h, scale, r)
			}
		}
	}
	// A process with one view (a left or a right) has it on its left half.
	l := layoutApp(t, f, sess).layout(1920, 1080)
	one := image.Rect(0, l.topH, 1920, 1080-l.botH)
	if r := chartRect(l, image.Rectangle{}, one); r.Empty() || r.Max.X > 960 {
		t.Errorf("one view: chart %v", r)
	}
}

// TestChartKeys: F3 shows and hides the chart, Shift+F3 clears its
// points (and shows it, so the presenter sees it empty).
func TestChartKeys(t *testing.T) {
	tab := bindingFor(t, "F3 / Shift+F3")
	var clear binding
	for _, b := range buildBindings(catalog.All()) {
		if len(b.keys) == 1 && b.keys[0] == ebiten.KeyF3 && b.shift == withShift {
			clear = b
		}
	}
	if clear.do == nil {
		t.Fatal("no Shift+F3 binding")
	}
	a := newStageApp(t, "compression", "perfect")
	a.binds = []binding{tab, clear}
	a.handleKeysFrom(tap(ebiten.KeyF3))
	if !a.chart {
		t.Fatal("F3 did not show the chart")
	}
	a.handleKeysFrom(tap(ebiten.KeyF3))
	if a.chart {
		t.Fatal("F3 did not hide the chart")
	}
	for range viewmodel.DefaultCompareConfig().MinTicks + 1 {
		a.compare.Add(a.shown(), &viewmodel.Metrics{SentKbps: 10, Valid: true, PosRMSCm: 1})
	}
	a.compare.Break()
	if len(a.compare.Points()) != 1 {
		t.Fatal("no point to clear")
	}
	shiftF3 := tap(ebiten.KeyF3)
	shiftF3.held = map[ebiten.Key]int{ebiten.KeyShift: 5}
	a.handleKeysFrom(shiftF3)
	if len(a.compare.Points()) != 0 || !a.chart {
		t.Errorf("Shift+F3: %d points left, chart %v", len(a.compare.Points()), a.chart)
	}
}

// TestChartFollowsTheApp: the app's own ticks feed the chart: three
// strategies selected with their number keys' action, each shown for a
// while, are three points labelled by their keys, the one on screen with
// the figures the HUD shows now averaged; a reset (F5) keeps the points.
func TestChartFollowsTheApp(t *testing.T) {
	if testing.Short() {
		t.Skip("steps the app for 600 ticks")
	}
	cfg := game.DefaultConfig()
	cfg.Strategies = catalog.All()
	a, err := NewApp(Options{Session: cfg, NoAudio: true, Preset: "perfect"})
	if err != nil {
		t.Fatal(err)
	}
	for _, entry := range []int{1, 2, 3} {
		a.selectEntry(entry)
		for range viewmodel.DefaultCompareConfig().MinTicks + 10 {
			a.step()
		}
	}
	ps := a.compare.Points()
	want := []string{"2 · level 11 + prediction", "3 · step 8", "4 · mode 1: deterministic"}
	if len(ps) != len(want) {
		t.Fatalf("%d points: %+v", len(ps), ps)
	}
	for i, p := range ps {
		if p.Label != want[i] || p.Entry != i+1 || p.Kbps <= 0 || math.IsNaN(p.ErrCm) {
			t.Errorf("point %d: %+v, want %q", i, p, want[i])
		}
	}
	a.reset()
	if n := len(a.compare.Points()); n != 3 {
		t.Errorf("after a reset: %d points", n)
	}
}

// TestChartAxis: decades around the figures, the figures under the floor
// (exact zeros, numerical traces) on the bottom row, a larger figure
// always higher, NaN (no figure) left out; the lag makes a point larger.
func TestChartAxis(t *testing.T) {
	ax := newChartAxis([]float64{0, 5e-7, 0.05, 2, math.NaN()}, errFloor, 100, 0)
	if ax.lo != -2 || ax.hi != 1 || !ax.hasZero || ax.onlyZero {
		t.Fatalf("axis %+v", ax)
	}
	if ax.at(0) != 100 || ax.at(5e-7) != 100 || ax.at(10) != 0 {
		t.Errorf("bottom row %v, %v; top %v", ax.at(0), ax.at(5e-7), ax.at(10))
	}
	prev := ax.at(0)
	for _, v := range []float64{0.01, 0.05, 0.1, 1, 2} {
		if y := ax.at(v); !(y < prev) {
			t.Errorf("%v at %v, not above %v", v, y, prev)
		} else {
			prev = y
		}
	}
	if z := newChartAxis([]float64{0, 1}, errFloor, 0, 1); !z.onlyZero {
		t.Error("exact zeros only: the row should say 0")
	}
	if pointRadius(5, math.NaN()) != 5 || pointRadius(5, 0) != 5 || pointRadius(5, 300) != 10 || !(pointRadius(5, 100) > 5) {
		t.Error("point radius by lag")
	}
}
