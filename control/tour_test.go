package control

import (
	"strings"
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/talk"
	"netcubes/wire"
)

// TestTourWalksThroughEverything: the built-in tour lasts 10 to 15
// minutes, visits the seven strategies in the menu's order, each with
// captions, and walks every build-up: the render modes, compression levels
// from 1 to 13, the eight state sync steps, the seven lockstep modes, the
// five prediction steps and the five rollback steps; and it starts the world over at least once a
// minute, so going back never re-simulates more. (The whole tour is the
// soak's to play, make tour; here a prefix runs, below.)
func TestTourWalksThroughEverything(t *testing.T) {
	tr, err := talk.Load("tour")
	if err != nil {
		t.Fatal(err)
	}
	if minutes := float64(tr.Length) / (60 * wire.TicksPerSecond); minutes < 10 || minutes > 15 {
		t.Errorf("the tour lasts %.1f minutes, want 10 to 15", minutes)
	}
	// Going back re-simulates from the last restart point: the tour starts
	// the world over at least once a minute.
	last := 0
	for _, e := range tr.Events {
		if isRestart(e.Cmd.Op) {
			if e.At-last > 60*wire.TicksPerSecond {
				t.Errorf("no reset between %s and %s: going back there re-simulates more than a minute", talk.Clock(last), talk.Clock(e.At))
			}
			last = e.At
		}
	}
	if tr.Length-last > 60*wire.TicksPerSecond {
		t.Errorf("no reset after %s", talk.Clock(last))
	}
	var order []string
	captions := map[string]int{}
	sets := map[string]map[string]bool{}
	cur := ""
	for _, c := range tr.Setup {
		if c.Op == talk.OpStrategy {
			cur = c.Name
		}
	}
	for _, e := range tr.Events {
		switch e.Cmd.Op {
		case talk.OpStrategy:
			cur = e.Cmd.Name
			order = append(order, cur)
		case talk.OpCaption:
			if e.Cmd.Lines != nil {
				captions[cur]++
			}
		case talk.OpSet:
			// "set level 9": the setting's name and value as written.
			f := strings.Fields(e.Cmd.String())
			if sets[f[1]] == nil {
				sets[f[1]] = map[string]bool{}
			}
			sets[f[1]][f[2]] = true
		}
	}
	if got, want := strings.Join(order, " "), "compression statesync lockstep predict authority rollback"; got != want {
		t.Errorf("strategies after interpolation: %s, want %s", got, want)
	}
	for _, id := range catalog.IDs() {
		if captions[id] < 5 {
			t.Errorf("%s has %d captions, want at least 5", id, captions[id])
		}
	}
	for _, w := range []struct {
		name string
		want []string
	}{
		{"render", []string{"latest", "linear", "hermite", "extrapolate"}},
		{"level", []string{"1", "2", "3", "4", "5", "6", "8", "11", "13"}},
		{"step", []string{"1", "2", "3", "4", "5", "6", "7", "8"}},
		{"lockstep-mode", []string{"1", "2", "3", "4", "5", "6", "7"}},
		{"predict-step", []string{"1", "2", "3", "4", "5"}},
		{"rollback-step", []string{"1", "2", "3", "4", "5"}},
	} {
		for _, v := range w.want {
			if !sets[w.name][v] {
				t.Errorf("the tour never sets %s %s (it sets %v)", w.name, v, sets[w.name])
			}
		}
	}
}

// TestTourPrefixPlays: the tour's first 40 s play on a small world: its
// captions appear when written, its settings take effect (the render mode
// on the HUD), the katamari drive moves the player, and the script's clock
// says where it is.
func TestTourPrefixPlays(t *testing.T) {
	tr, err := talk.Load("tour")
	if err != nil {
		t.Fatal(err)
	}
	o := testOptions("lockstep", "terrible") // the tour's setup lines override both
	o.Track = tr
	d := newTestDirector(t, o)
	want := map[int]struct{ caption, mode string }{
		5 * 60:  {"netcubes: one world of 901 cubes", "10 Hz · hermite"},
		15 * 60: {"1 · snapshot interpolation", "10 Hz · latest only"},
		30 * 60: {"linear interpolation", "10 Hz · linear"},
		40 * 60: {"hermite", "10 Hz · hermite"},
	}
	start := d.Session().Left().StateHash()
	for d.Frame() < 40*60 {
		d.Tick(cubes.Input{})
		w, ok := want[d.Frame()]
		if !ok {
			continue
		}
		c, on := d.Caption()
		st := d.Session().Strategy()
		if !on || !strings.HasPrefix(c.Lines[0], w.caption) {
			t.Errorf("at %s the caption is %q (on %v), want %q…", talk.Clock(d.Frame()), c.Lines, on, w.caption)
		}
		if st.ID() != "interpolation" || !strings.Contains(st.Mode(), w.mode) {
			t.Errorf("at %s: %s %q, want interpolation with %q", talk.Clock(d.Frame()), st.ID(), st.Mode(), w.mode)
		}
	}
	if name, at, length, on := d.TrackStatus(); name != "tour" || !on || at != 40*60 || length != tr.Length {
		t.Errorf("track status %q %d/%d %v, want tour at 2400 of %d, playing", name, at, length, on, tr.Length)
	}
	if d.Session().Left().StateHash() == start {
		t.Error("the world did not change in 40 s of the katamari drive")
	}
}
