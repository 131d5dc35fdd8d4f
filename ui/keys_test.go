package ui

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/catalog"
)

// fakeKeys is one tick of keyboard state.
type fakeKeys struct {
	held     map[ebiten.Key]int // ticks held (the key is down)
	pressed  map[ebiten.Key]bool
	released map[ebiten.Key]bool
}

func (f *fakeKeys) Pressed(k ebiten.Key) bool      { return f.held[k] > 0 }
func (f *fakeKeys) JustPressed(k ebiten.Key) bool  { return f.pressed[k] }
func (f *fakeKeys) JustReleased(k ebiten.Key) bool { return f.released[k] }
func (f *fakeKeys) Duration(k ebiten.Key) int      { return f.held[k] }

// tap is a press and a release that both arrived before the tick ran: the
// key is not down any more and its duration is 0, but it was just pressed.
func tap(k ebiten.Key) *fakeKeys {
	return &fakeKeys{pressed: map[ebiten.Key]bool{k: true}, released: map[ebiten.Key]bool{k: true}}
}

// hold is the tick d of holding k (d = 1: the press).
func hold(k ebiten.Key, d int) *fakeKeys {
	return &fakeKeys{held: map[ebiten.Key]int{k: d}, pressed: map[ebiten.Key]bool{k: d == 1}}
}

func bindingFor(t *testing.T, label string) binding {
	t.Helper()
	for _, b := range buildBindings(catalog.All()) {
		if b.label == label {
			return b
		}
	}
	t.Fatalf("no binding %q", label)
	return binding{}
}

// TestQuickTapsCount: a press and release within one tick of `.` steps
// exactly one tick (the stage report: 0 of 4 quick taps did), and so does
// a tap of a repeating key; holding repeats.
func TestQuickTapsCount(t *testing.T) {
	step := bindingFor(t, ".")
	a := newStageApp(t, "interpolation", "perfect")
	a.binds = []binding{step}
	a.handleKeysFrom(tap(ebiten.KeyPeriod))
	a.step()
	if !a.d.Paused() || a.d.Frame() != 1 {
		t.Fatalf("a quick tap of '.': paused %v, at frame %d", a.d.Paused(), a.d.Frame())
	}
	a.handleKeysFrom(&fakeKeys{}) // the next tick: nothing pressed
	a.step()
	if a.d.Frame() != 1 {
		t.Fatal("one tap stepped twice")
	}

	lat := bindingFor(t, "L / Shift+L")
	for _, c := range []struct {
		name  string
		ticks []*fakeKeys
		want  int
	}{
		{"tap", []*fakeKeys{tap(ebiten.KeyL)}, 1},
		{"four taps", []*fakeKeys{tap(ebiten.KeyL), {}, tap(ebiten.KeyL), tap(ebiten.KeyL), {}, tap(ebiten.KeyL)}, 4},
		{"held one second", heldTicks(ebiten.KeyL, 60), 1 + (60-repeatDelay)/repeatEvery},
		{"held less than the repeat delay", heldTicks(ebiten.KeyL, repeatDelay), 1},
	} {
		n := 0
		for _, ks := range c.ticks {
			if lat.matches(ks) {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%s: L fired %d times, want %d", c.name, n, c.want)
		}
	}
}

func heldTicks(k ebiten.Key, n int) []*fakeKeys {
	var ts []*fakeKeys
	for d := 1; d <= n; d++ {
		ts = append(ts, hold(k, d))
	}
	return ts
}
