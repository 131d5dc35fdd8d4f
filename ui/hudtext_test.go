package ui

import (
	"math"
	"testing"

	"netcubes/wire"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/statesync"
)

// TestHUDKeyFiguresNeverCut writes the HUD (measuring only) at the three
// projector sizes and the three text scales, with state synchronization's
// longest settings line and large figures everywhere, and checks the stage
// rules: no key figure (kbit/s, error RMS/max/degrees, RTT, loss, the
// strategy's settings) is cut; the key figures are at least 1/25 of the
// window height at text scale 1 (the back row of a hall); the bars leave
// the views at least half the window.
func TestHUDKeyFiguresNeverCut(t *testing.T) {
	f, sess := newTestApp(t, "statesync")
	ss, ok := sess.Strategy().(*statesync.Strategy)
	if !ok {
		t.Fatal("no state sync strategy in the catalog")
	}
	ss.SetStep(8)
	for range 3 {
		sess.Step(cubes.Input{})
	}
	m := sess.Metrics()
	m.Valid = true
	m.SentKbps, m.HasRTT, m.RTTms, m.Loss = 12345, true, 1017, 0.125
	m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg = 1234.5, 12345.6, 179.9
	for _, sz := range [][2]int{{1920, 1080}, {1600, 900}, {1280, 720}} {
		for _, scale := range []float64{1, 1.5, 2} {
			f.scale = scale
			a := &App{fonts: f, sess: sess}
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			if len(l.cut) > 0 {
				t.Errorf("%dx%d scale %v: key figures cut: %q", w, h, scale, l.cut)
			}
			if scale == 1 && l.fig.Size < math.Ceil(float64(h)/25) {
				t.Errorf("%dx%d: key figures %.0f px, the back row needs %.0f", w, h, l.fig.Size, math.Ceil(float64(h)/25))
			}
			if share := float64(l.topH+l.botH) / float64(h); share > hudMaxShare {
				t.Errorf("%dx%d scale %v: the bars take %.0f %% of the window", w, h, scale, 100*share)
			}
		}
	}
}

// TestWrapParts: figures wrap between their parts, never inside one.
func TestWrapParts(t *testing.T) {
	f, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	face := f.face(f.bold, 20)
	parts := []string{"0.3 cm RMS", "3.3 cm max", "14.3°"}
	one := measure("0.3 cm RMS · 3.3 cm max · 14.3°", face)
	two := measure("0.3 cm RMS · 3.3 cm max", face)
	for _, c := range []struct {
		width float64
		want  int
	}{{one + 1, 1}, {two + 1, 2}, {math.Max(measure("0.3 cm RMS", face), measure("3.3 cm max", face)) + 1, 3}} {
		got := wrapParts(parts, " · ", face, c.width, c.width)
		if len(got) != c.want {
			t.Errorf("width %.0f: %q, want %d lines", c.width, got, c.want)
		}
		for _, ln := range got {
			if measure(ln, face) > c.width {
				t.Errorf("width %.0f: line %q too wide", c.width, ln)
			}
		}
	}
}

// newTestApp returns the HUD's fonts and a session of the catalog's
// strategies starting with id, for layout tests (no window needed).
func newTestApp(t *testing.T, id string) (*fonts, *game.Session) {
	t.Helper()
	f, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.DefaultConfig()
	cfg.Strategies = catalog.All()
	for i, st := range cfg.Strategies {
		if st.ID() == id {
			cfg.Start = i
		}
	}
	sess, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f, sess
}

// TestBitsLegendNamesEveryColour: with every category on the bar, the
// legend names each one (the stage report: only the top three or four
// were listed, so some coloured segments were unexplained), at the
// bandwidth column's width at 1280×720.
func TestBitsLegendNamesEveryColour(t *testing.T) {
	f, sess := newTestApp(t, "statesync")
	a := &App{fonts: f, sess: sess}
	l := a.layout(1280, 720)
	width := math.Floor(1280*0.66) - math.Floor(1280*0.30) - l.pad*2
	var b wire.Breakdown
	for c := range b {
		b[c] = 1000 * (c + 1)
	}
	got := bitsLegend(&b, l.small, width)
	seen := map[wire.Category]bool{}
	for _, e := range got {
		seen[e.cat] = true
		if e.x+measure(e.text, l.small) > width+0.5 || e.line > 1 {
			t.Errorf("entry %q at x %.0f line %d does not fit %.0f", e.text, e.x, e.line, width)
		}
	}
	for c := wire.Category(0); c < wire.NumCategories; c++ {
		if !seen[c] {
			t.Errorf("category %s is on the bar but not in the legend", c)
		}
	}
}
