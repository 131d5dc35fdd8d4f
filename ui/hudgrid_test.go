package ui

import (
	"math"
	"strings"
	"testing"

	"netcubes/catalog"
	"netcubes/game"
	"netcubes/link"
	"netcubes/talk"
)

// newGridApp is an app of n players on strategy id, the clients on the
// LAN, intercontinental, mobile and terrible links in turn, the grid on.
func newGridApp(t testing.TB, id string, n int) *App {
	t.Helper()
	cfg := game.DefaultConfig()
	var ok bool
	if cfg.Strategies, cfg.Start, ok = catalog.StartingWith(id); !ok {
		t.Fatalf("no strategy %q", id)
	}
	cfg.World.Players = n
	presets := []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetMobile, link.PresetTerrible}
	var names []string
	for k := range n {
		p := presets[k%len(presets)]
		cfg.ClientLinks = append(cfg.ClientLinks, p.Pair())
		names = append(names, p.String())
	}
	a, err := NewApp(Options{Session: cfg, Presets: names, NoAudio: true, Show: Show{Grid: true}})
	if err != nil {
		t.Fatal(err)
	}
	a.winW, a.winH = 1920, 1080
	return a
}

// TestGridFiguresNeverCut: the grid of four clients at the three stage
// sizes and text scales 1, 1.5 and 2, with the widest figures a strip can
// hold (a second of RTT, metres of error, a second in the past): every
// figure of every strip is whole on a line of its cell, and every strip
// leaves its view room.
func TestGridFiguresNeverCut(t *testing.T) {
	a := newGridApp(t, "statesync", 4)
	for range 30 {
		a.step()
	}
	for k := range a.sess.NumClients() {
		m := a.sess.ClientMetrics(k)
		m.Valid, m.HasRTT, m.RTTms, m.Loss = true, true, 1017, 0.125
		m.RTTSamples, m.LossSamples, m.ErrorTicks = 100, 100, 1000
		m.PosRMSCm, m.PosMaxCm, m.DelayMs = 1234.5, 12345.6, 1234
	}
	a.buildHUD()
	if len(a.strips) != 4 {
		t.Fatalf("%d strips, want 4", len(a.strips))
	}
	for _, sz := range stageSizes {
		for _, scale := range stageScales {
			a.fonts.scale = scale
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			_, cells, cut := a.gridLayout(l, w, h)
			if len(cut) > 0 {
				t.Errorf("%dx%d scale %v: cut %q", w, h, scale, cut)
			}
			for i, c := range cells {
				var placed []string
				for _, ln := range c.strip.lines {
					for _, f := range ln {
						placed = append(placed, f.Text)
					}
				}
				for _, f := range a.strips[i].Figures {
					if !strings.Contains(strings.Join(placed, "|"), f.Text) {
						t.Errorf("%dx%d scale %v: %q is not in cell %d's strip %q", w, h, scale, f.Text, i+1, placed)
					}
				}
				if c.strip.face.Size < float64(h)/40 {
					t.Errorf("%dx%d scale %v: strip text %.0f px, under the body text", w, h, scale, c.strip.face.Size)
				}
			}
		}
	}
	a.fonts.scale = 1
}

// TestGridPagesWithTab: eight players are two pages of four; Tab shows the
// next page (its first client), and the session fills that page's views.
func TestGridPagesWithTab(t *testing.T) {
	a := newGridApp(t, "interpolation", 8)
	a.step()
	if got := a.gridS.ks; len(got) != 4 || got[0] != 0 {
		t.Fatalf("first page %v", got)
	}
	if !a.gridTab(+1) {
		t.Fatal("Tab did not page")
	}
	a.sync()
	a.step()
	if a.sess.Shown() != 4 || len(a.gridS.ks) != 4 || a.gridS.ks[0] != 4 {
		t.Fatalf("after Tab: shown %d, page %v", a.sess.Shown(), a.gridS.ks)
	}
	for _, k := range a.gridS.ks {
		if v := a.sess.ClientView(k); v == nil || len(v.Cubes) == 0 {
			t.Errorf("client %d has no view on the second page", k+1)
		}
	}
	if st := a.strips[1]; st.Title != "CLIENT 6 of 8" || st.Player != 6 {
		t.Errorf("second cell of page 2: %+v", st)
	}
	// The grid off: the session fills no other client's view.
	a.d.Do(talk.Command{Op: talk.OpGrid, On: false})
	a.sync()
	if len(a.strips) != 0 || a.sess.ClientView(5) != nil {
		t.Error("the grid is off but its strips or views remain")
	}
}

// TestOneTextSizeAcrossStrategies: -text-scale 2 at 1280×720 and
// 1920×1080 with four players, starting in state sync (which needs less
// room than strategy 5): every strategy shows the same text size, and the
// note after a scale key says the same in each (state sync showed ×2, then
// strategy 5 shrank it: the text jumped on a key).
func TestOneTextSizeAcrossStrategies(t *testing.T) {
	for _, sz := range [][2]int{{1280, 720}, {1920, 1080}} {
		w, h := sz[0], sz[1]
		a := newGridApp(t, "statesync", 4)
		a.d.Do(talk.Command{Op: talk.OpGrid, On: false})
		a.sync()
		a.fonts.scale = 2
		a.winW, a.winH = w, h
		for range 90 {
			a.step()
			a.layout(w, h)
		}
		first := a.shownScale(w, h)
		note := scaleNote(2, 2, first, first)
		for _, id := range []string{"interpolation", "compression", "lockstep", "predict", "authority", "rollback", "statesync"} {
			i, _ := catalog.Find(a.sess.Strategies(), id)
			a.selectEntry(i)
			for range 90 {
				a.step()
				a.layout(w, h) // each frame is laid out
			}
			got := a.shownScale(w, h)
			if math.Abs(got-first) > 0.005 {
				t.Errorf("%dx%d: %s shows ×%.2f, state sync showed ×%.2f: the text changed size", w, h, id, got, first)
			}
			if n := scaleNote(2, 2, got, got); n != note {
				t.Errorf("%dx%d: %s says %q, state sync said %q", w, h, id, n, note)
			}
		}
	}
}

// TestGridEveryStrategy: the grid of four clients follows every strategy
// key: after each switch every cell has its client's view and a strip of
// figures, none cut at 1920×1080.
func TestGridEveryStrategy(t *testing.T) {
	a := newGridApp(t, "interpolation", 4)
	for i := range a.sess.Strategies() {
		a.selectEntry(i)
		for range 20 {
			a.step()
		}
		id := a.sess.Strategy().ID()
		if len(a.strips) != 4 {
			t.Fatalf("%s: %d strips", id, len(a.strips))
		}
		for k := range 4 {
			if v := a.sess.ClientView(k); v == nil {
				t.Errorf("%s: client %d has no view", id, k+1)
			}
			if st := a.strips[k]; st.Player != k+1 || len(st.Figures) < 4 {
				t.Errorf("%s: client %d's strip %+v", id, k+1, st)
			}
		}
		l := a.layout(1920, 1080)
		if _, _, cut := a.gridLayout(l, 1920, 1080); len(cut) > 0 {
			t.Errorf("%s: cut %q", id, cut)
		}
	}
}
