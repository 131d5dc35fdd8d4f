package ui

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/catalog"
	"netcubes/link"
	"netcubes/viewmodel"
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

// TestDescribeRTT: the round trip says what it is made of in one process
// ("RTT 17 ms" on a 0 ms link was a question from the audience), its
// explanation a tail the HUD drops first; with too few acks behind it, it
// says it is measuring (one ack is one packet's round trip).
func TestDescribeRTT(t *testing.T) {
	for _, c := range []struct {
		rtt, lat float64
		has, one bool
		samples  int
		want     string
	}{
		{17, 0, true, true, 20, "RTT 17 ms|RTT = 2 × 0 ms on the link + 1 tick|(packets and acks leave once a tick)"},
		{233, 100, true, true, 20, "RTT 233 ms|RTT = 2 × 100 ms on the link + 2 ticks|(packets and acks leave once a tick)"},
		{33, 0, true, false, 20, "RTT 33 ms||"},
		{150, 100, true, true, 20, "RTT 150 ms||"},
		{0, 0, false, true, 0, "RTT measuring…||"},
		{233, 100, true, true, 1, "RTT measuring…||"},
		{233, 100, true, false, -1, "RTT 233 ms||"},
	} {
		m := &viewmodel.Metrics{RTTms: c.rtt, HasRTT: c.has, RTTSamples: c.samples}
		rtt, why, tail := describeRTT(m, link.Config{LatencyMs: c.lat}, c.one)
		if got := rtt + "|" + why + "|" + tail; got != c.want {
			t.Errorf("describeRTT(%v ms, link %v ms, %d acks) = %q, want %q", c.rtt, c.lat, c.samples, got, c.want)
		}
	}
}
