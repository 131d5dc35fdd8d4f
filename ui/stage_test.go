package ui

import (
	"math"
	"strings"
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/lockstep"
)

// newStageApp is the app as main builds it, without a window: the
// catalog's strategies starting with id, on conditions named preset.
func newStageApp(t *testing.T, id, preset string) *App {
	t.Helper()
	cfg := game.DefaultConfig()
	var ok bool
	if cfg.Strategies, cfg.Start, ok = catalog.StartingWith(id); !ok {
		t.Fatalf("no strategy %q", id)
	}
	for p := link.Preset(0); p < link.NumPresets; p++ {
		if p.String() == preset {
			cfg.Link = p.Config()
		}
	}
	a, err := NewApp(Options{Session: cfg, Preset: preset, NoAudio: true})
	if err != nil {
		t.Fatal(err)
	}
	a.winW, a.winH = 1920, 1080
	return a
}

// columnTexts is what the bottom panel's columns say at 1920×1080.
func columnTexts(a *App) [3]string {
	l := a.layout(1920, 1080)
	_, _, texts := a.bottomColumns(nil, l, 1920, 0)
	var out [3]string
	for k := range texts {
		out[k] = strings.Join(texts[k], " ")
	}
	return out
}

// TestF5WhilePausedDrawsTheWorld: a reset while paused shows the new world
// at once, both sides, with the cameras on the players (the stage report:
// an empty field until the next step).
func TestF5WhilePausedDrawsTheWorld(t *testing.T) {
	a := newStageApp(t, "statesync", "perfect")
	for range 90 {
		a.step()
	}
	a.d.TogglePause()
	a.reset()
	lv, rv := a.sess.LeftView(), a.sess.RightView()
	if len(lv.Cubes) == 0 || len(rv.Cubes) == 0 {
		t.Fatalf("after F5 while paused: %d cubes on the left, %d on the right", len(lv.Cubes), len(rv.Cubes))
	}
	for _, v := range []struct {
		name string
		at   func() [3]float64
		want [3]float64
	}{
		{"left", func() [3]float64 { return a.left.Camera.Target }, lv.Cubes[lv.Player].Position},
		{"right", func() [3]float64 { return a.right.Camera.Target }, rv.Cubes[rv.Player].Position},
	} {
		// The camera looks a little above the player's centre.
		if got := v.at(); math.Hypot(got[0]-v.want[0], got[1]-v.want[1]) > 0.01 || math.Abs(got[2]-v.want[2]) > 1 {
			t.Errorf("%s camera on %v, the player is at %v", v.name, got, v.want)
		}
	}
}

// TestLagAndMeasuringOnTheHUD: right after a switch the RTT and the loss
// say "measuring…"; once the right shows the past, the error column says
// how far in the past in key figures and gives the error against the left
// now (the stage report: a green 0.0 cm a quarter-second behind).
func TestLagAndMeasuringOnTheHUD(t *testing.T) {
	a := newStageApp(t, "interpolation", "intercontinental")
	for range 5 {
		a.step()
	}
	texts := columnTexts(a)
	for _, want := range []string{"RTT measuring…", "loss measuring…"} {
		if !strings.Contains(texts[0], want) {
			t.Errorf("just after the start the network column says %q, not %q", texts[0], want)
		}
	}
	for range 600 {
		a.step()
	}
	texts = columnTexts(a)
	if strings.Contains(texts[0], "measuring") {
		t.Errorf("after 10 s the network column still says %q", texts[0])
	}
	for _, want := range []string{"shows the left as it was ", " ms ago", "vs. the left now ", "cm RMS"} {
		if !strings.Contains(texts[2], want) {
			t.Errorf("the error column says %q, without %q", texts[2], want)
		}
	}
	// A 2004 client catching up reads "measuring…" for its own error.
	a.selectEntry(4)
	for range 20 {
		a.step()
	}
	if texts = columnTexts(a); !strings.Contains(texts[2], "measuring…") || strings.Contains(texts[2], "cm RMS") {
		t.Errorf("the 2004 client just after the switch: %q", texts[2])
	}
}

// TestDesyncAlarmIsRed: lockstep's desync is drawn as the alarm (red) at
// the end of the settings, not as one of the settings (yellow).
func TestDesyncAlarmIsRed(t *testing.T) {
	a := newStageApp(t, "lockstep", "perfect")
	a.subMode(+1) // mode 2, non-deterministic
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	for f := range 200 {
		a.sess.Step(sc.InputAt(f))
	}
	_ = sc
	a.buildHUD() // the HUD of the tick the session is at
	ls := a.sess.Strategy().(*lockstep.Strategy)
	if ls.Stats().Desync < 0 {
		t.Fatal("no desync in mode 2")
	}
	l := a.layout(1920, 1080)
	last := l.modeLines[len(l.modeLines)-1]
	if l.alarm == "" || !strings.HasSuffix(last, l.alarm) || strings.Contains(a.sess.Strategy().Mode(), "DESYNC") {
		t.Errorf("alarm %q, last settings line %q, settings %q", l.alarm, last, a.sess.Strategy().Mode())
	}
}

// TestSceneKey: Home puts the strategy's sub-mode, settings and link back
// to where the app started them, and the world at frame 0; F5 keeps them.
func TestSceneKey(t *testing.T) {
	a := newStageApp(t, "compression", "intercontinental")
	start := a.sess.Strategy().Mode()
	a.subMode(-1)
	a.subMode(-1)
	a.cyclePreset(+1)
	for range 30 {
		a.step()
	}
	a.reset()
	if a.sess.Strategy().Mode() == start || a.linkName() == "intercontinental" {
		t.Fatalf("F5 should keep the settings and the link: %q on %s", a.sess.Strategy().Mode(), a.linkName())
	}
	for range 30 {
		a.step()
	}
	a.scene()
	if got := a.sess.Strategy().Mode(); got != start || a.linkName() != "intercontinental" ||
		a.sess.Link() != link.PresetIntercontinental.Config() || a.sess.Frame() != 0 {
		t.Errorf("after Home: %q on %s (%+v) at frame %d; want %q on intercontinental at 0",
			got, a.linkName(), a.sess.Link(), a.sess.Frame(), start)
	}
	// Lockstep's scene is its first mode on the link that mode chooses.
	b := newStageApp(t, "lockstep", "intercontinental")
	for range 4 {
		b.subMode(+1)
	}
	b.scene()
	if ls := b.sess.Strategy().(*lockstep.Strategy); !strings.HasPrefix(ls.Mode(), "mode 1:") || b.sess.Link() != lockstep.Modes[0].Link {
		t.Errorf("lockstep's scene: %s on %+v", ls.Mode(), b.sess.Link())
	}
	// F5 keeps the mode's link, and leaving still brings the presenter's
	// link back.
	b.subMode(+1)
	b.reset()
	if b.sess.Link() != lockstep.Modes[1].Link {
		t.Errorf("F5 in lockstep mode 2: %+v", b.sess.Link())
	}
	b.selectEntry(0)
	if b.sess.Link() != link.PresetIntercontinental.Config() || b.d.RestoredTicks() == 0 {
		t.Errorf("leaving lockstep after its scene and F5: %+v, restored note %d", b.sess.Link(), b.d.RestoredTicks())
	}
}

// TestScaleNote: `=` and `-` say the scale they give, the scale shown when
// the bars' cap holds the text back, and when they are at an end.
func TestScaleNote(t *testing.T) {
	for _, c := range []struct {
		old, asked, oldShown, shown float64
		want                        string
	}{
		{1, 1.1, 1, 1.1, "text ×1.1"},
		{1.5, 1.65, 1.3, 1.4, "text ×1.6, shown ×1.4 (the bars may take half the window)"},
		{1.8, 1.98, 1.4, 1.4, "text as large as this window allows: ×1.4 shown (×2 asked; the bars may take half the window)"},
		{2, 2, 1.4, 1.4, "text at its largest: ×2, shown ×1.4 (the bars may take half the window)"},
		{2, 2, 2, 2, "text at its largest: ×2"},
		{0.6, 0.6, 0.6, 0.6, "text at its smallest: ×0.6"},
	} {
		if got := scaleNote(c.old, c.asked, c.oldShown, c.shown); got != c.want {
			t.Errorf("scaleNote(%v → %v, shown %v → %v) = %q, want %q", c.old, c.asked, c.oldShown, c.shown, got, c.want)
		}
	}
}

// TestTextScaleShown: how much larger the asked scales really are at each
// stage size, for every strategy (the stage report: scale 2 was about 1.4
// at 1080p, the same as 1.5, without saying so): never smaller for a
// larger scale; logged for the README.
func TestTextScaleShown(t *testing.T) {
	for _, id := range catalog.IDs() {
		a := newStageApp(t, id, "intercontinental")
		for range 60 {
			a.step()
		}
		for _, sz := range stageSizes {
			prev := 0.0
			var got []float64
			for _, scale := range []float64{1, 1.5, 2} {
				a.fonts.scale = scale
				s := a.shownScale(sz[0], sz[1])
				got = append(got, s)
				if s < prev-0.01 {
					t.Errorf("%s %dx%d: scale %v shows ×%.2f, less than the scale before (×%.2f)", id, sz[0], sz[1], scale, s, prev)
				}
				prev = s
			}
			t.Logf("%-13s %dx%d: scales 1, 1.5, 2 show ×%.2f, ×%.2f, ×%.2f", id, sz[0], sz[1], got[0], got[1], got[2])
		}
	}
}
