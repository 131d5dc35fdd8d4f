package ui

import (
	"math"
	"strings"
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/statesync"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// stageSizes are the three projector sizes, stageScales the text scales
// the stage rules hold at.
var (
	stageSizes  = [][2]int{{1920, 1080}, {1600, 900}, {1280, 720}}
	stageScales = []float64{1, 1.5, 2}
)

// checkStageLayout lays the HUD out at every stage size and scale and
// checks the stage rules: nothing that carries a lesson is cut (the key
// figures, the strategy's settings and facts, the RTT's and the error's
// lesson lines, the note); the key figures are at least 1/25 of the window
// height at text scale 1 (the back row of a hall); the bars leave the
// views at least half the window.
func checkStageLayout(t *testing.T, f *fonts, sess *game.Session, what, note string) {
	t.Helper()
	for _, sz := range stageSizes {
		for _, scale := range stageScales {
			f.scale = scale
			a := layoutApp(t, f, sess)
			a.note, a.noteTicks = note, 1
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			if len(l.cut) > 0 {
				t.Errorf("%s, %dx%d scale %v: cut: %q", what, w, h, scale, l.cut)
			}
			// Whatever the layout calls key, the lessons must be there
			// whole: every part of the strategy's facts and settings, the
			// RTT's lesson, the error's waiting line, the note.
			_, _, texts := a.bottomColumns(nil, l, w, 0)
			col := func(k int) string { return strings.Join(texts[k], " ") }
			m := sess.Metrics()
			var lessons []string
			if facts := strategyFacts(sess.ClientStrategy(sess.Shown())); facts != "" {
				for _, part := range splitParts(facts) {
					lessons = append(lessons, "1|"+part)
				}
			}
			if _, why, _ := viewmodel.DescribeRTT(m, sess.Link(), true); why != "" {
				lessons = append(lessons, "0|"+why)
			}
			if !m.Valid {
				lessons = append(lessons, "2|Error: waiting for the right")
			}
			for _, ls := range lessons {
				k, text := int(ls[0]-'0'), ls[2:]
				if !strings.Contains(col(k), text) {
					t.Errorf("%s, %dx%d scale %v: %q is not whole in %q", what, w, h, scale, text, texts[k])
				}
			}
			// Every colour of the bits bar keeps its share (at 1280×720
			// and scale 2 the last one lost its percentage).
			legendW := math.Floor(float64(w)*0.66) - math.Floor(float64(w)*0.30) - l.pad*2
			for _, e := range bitsLegend(&m.SecondBits, l.small, legendW) {
				if !strings.Contains(e.text, "%") {
					t.Errorf("%s, %dx%d scale %v: the legend's %q has no share", what, w, h, scale, e.text)
				}
			}
			modes := strings.Join(l.modeLines, " · ")
			for _, part := range splitParts(sess.ClientStrategy(sess.Shown()).Mode()) {
				if !strings.Contains(modes, part) {
					t.Errorf("%s, %dx%d scale %v: setting %q is not whole in %q", what, w, h, scale, part, l.modeLines)
				}
			}
			if got := strings.Join(l.noteLines, " "); got != strings.Join(strings.Fields(note), " ") {
				t.Errorf("%s, %dx%d scale %v: the note %q reads %q", what, w, h, scale, note, l.noteLines)
			}
			for _, ln := range l.noteLines {
				if measure(ln, l.bold) > float64(w)-l.pad*2 {
					t.Errorf("%s, %dx%d scale %v: note line %q is wider than the window", what, w, h, scale, ln)
				}
			}
			if scale == 1 && l.fig.Size < math.Ceil(float64(h)/25) {
				t.Errorf("%s, %dx%d: key figures %.0f px, the back row needs %.0f", what, w, h, l.fig.Size, math.Ceil(float64(h)/25))
			}
			if share := float64(l.topH+l.botH) / float64(h); share > hudMaxShare {
				t.Errorf("%s, %dx%d scale %v: the bars take %.0f %% of the window", what, w, h, scale, 100*share)
			}
		}
	}
	f.scale = 1
}

// TestHUDKeyFiguresNeverCut: state synchronization's longest settings line
// with large figures everywhere, and no figure cut (see checkStageLayout).
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
	m.RTTSamples, m.LossSamples = 100, 100
	m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg = 1234.5, 12345.6, 179.9
	m.HasNow, m.NowRMSCm, m.NowMaxCm, m.DelayMs = true, 1234.5, 12345.6, 1234
	checkStageLayout(t, f, sess, "state sync step 8", "")
}

// TestLessonLinesNeverCut: every strategy in every sub-mode, on the
// terrible link with several players (the longest facts: stalls, waits
// for a player, late inputs, cubes never sent), with the note its
// sub-mode key shows and the error still waiting: the lesson of each line
// is whole at the three sizes and scales 1, 1.5 and 2 (the stage report:
// "waiting 0 frames ·…", "773 nev…", "input arrives …", "RTT = 2 × N ms
// on the link + 1 tick (packets and acks l…", "Error: waiting for the
// right to show somethi…", and at scale 1.5 the step-1 note off both
// edges of the screen).
func TestLessonLinesNeverCut(t *testing.T) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range catalog.All() {
		t.Run(st.ID(), func(t *testing.T) {
			f, err := loadFonts()
			if err != nil {
				t.Fatal(err)
			}
			cfg := game.DefaultConfig()
			cfg.Strategies = catalog.All()
			cfg.Start = i
			cfg.World.Players = 3
			cfg.Link = link.PresetTerrible.Config()
			sess, err := game.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkStageLayout(t, f, sess, st.ID()+" before anything arrived", "")
			var note string
			for range 15 {
				note = sess.SubMode(-1) // to the first sub-mode (or around)
			}
			seen := map[string]bool{}
			frame := 0
			for k := range 15 {
				if k > 0 {
					note = sess.SubMode(+1)
				}
				mode := sess.Strategy().Mode()
				if seen[mode] {
					continue
				}
				seen[mode] = true
				for range 20 {
					sess.Step(sc.InputAt(frame + 400))
					frame++
				}
				m := sess.Metrics()
				m.RTTSamples, m.LossSamples, m.HasRTT, m.RTTms = 100, 100, true, 1017
				checkStageLayout(t, f, sess, mode, note)
			}
		})
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
// legend names each one with its share (the stage report: only the top
// three or four were listed, so some coloured segments were unexplained;
// at 1280×720 and scale 2 the last lost its percentage), at the bandwidth
// column's width at every stage size and scale.
func TestBitsLegendNamesEveryColour(t *testing.T) {
	f, sess := newTestApp(t, "statesync")
	var b wire.Breakdown
	for c := range b {
		b[c] = 1000 * (c + 1)
	}
	for _, sz := range stageSizes {
		for _, scale := range stageScales {
			f.scale = scale
			a := layoutApp(t, f, sess)
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			width := math.Floor(float64(w)*0.66) - math.Floor(float64(w)*0.30) - l.pad*2
			got := bitsLegend(&b, l.small, width)
			seen := map[wire.Category]bool{}
			for _, e := range got {
				seen[e.cat] = true
				if e.x+measure(e.text, l.small) > width+0.5 || e.line >= maxLegendLines {
					t.Errorf("%dx%d scale %v: entry %q at x %.0f line %d does not fit %.0f", w, h, scale, e.text, e.x, e.line, width)
				}
				if !strings.Contains(e.text, "%") {
					t.Errorf("%dx%d scale %v: entry %q has no share", w, h, scale, e.text)
				}
			}
			for c := wire.Category(0); c < wire.NumCategories; c++ {
				if !seen[c] {
					t.Errorf("%dx%d scale %v: category %s is on the bar but not in the legend", w, h, scale, c)
				}
			}
		}
	}
}
