package snapshot

import (
	"math"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// The original's hermite extrapolation: at each snapshot the view is the
// snapshot pushed 0.2 s along its velocity; between two it is the hermite
// curve between the pushed endpoints, with the same tangents.
func TestHermiteAhead(t *testing.T) {
	b := ballisticBuffer(true, 0, 6, 12, 18, 24)
	for _, tt := range []float64{6, 9, 12} {
		ahead, ok := b.Interpolate(RenderHermiteAhead, tt, 3)
		plain, ok2 := b.Interpolate(RenderHermite, tt, 3)
		if !ok || !ok2 {
			t.Fatalf("t=%v: nothing to show", tt)
		}
		pa, _ := ahead.Cube(0)
		pp, _ := plain.Cube(0)
		a, bb := &ahead.A.Poses[0], &ahead.B.Poses[0]
		u := ahead.Alpha
		// The push is the blend of the endpoints' pushes (hermite is
		// linear in its endpoints): at u=0 exactly A's.
		h1, h2 := 2*u*u*u-3*u*u+1, -2*u*u*u+3*u*u
		push := a.Velocity.Mul(AheadSeconds * h1).Add(bb.Velocity.Mul(AheadSeconds * h2))
		if d := pa.Position.Sub(pp.Position.Add(push)).Len(); d > 1e-12 {
			t.Errorf("t=%v: the ahead view is off the pushed hermite by %v m", tt, d)
		}
		if pa.Orientation != pp.Orientation {
			t.Errorf("t=%v: orientation %v, plain hermite's %v", tt, pa.Orientation, pp.Orientation)
		}
	}
	// Holding past the newest snapshot: the lead stays.
	ip, _ := b.Interpolate(RenderHermiteAhead, 24, 0)
	p, _ := ip.Cube(0)
	want := ip.A.Poses[0].Position.Add(ip.A.Poses[0].Velocity.Mul(AheadSeconds))
	if d := p.Position.Sub(want).Len(); d > 1e-12 {
		t.Errorf("holding: off by %v m", d)
	}
	if !RenderHermiteAhead.interpolates() || DefaultDelayTicks(Rate10, RenderHermiteAhead) != 21 {
		t.Errorf("hermite ahead plays back like hermite: delay %d ticks", DefaultDelayTicks(Rate10, RenderHermiteAhead))
	}
}

// The original demo's six modes: F2 switches the interpolation entry's
// [ ] to them, each sets its rate, render mode and level and chooses its
// link; F2 again gives back the settings from before.
func TestOriginalModes(t *testing.T) {
	st := NewInterpolation()
	st.SetRate(Rate30)
	before := st.cfg
	if _, _, ok := st.ChosenLink(); ok {
		t.Fatal("the render modes choose a link")
	}
	m := control(t, st, OriginalKey)
	m.Press(+1)
	if st.original() != 1 || st.cfg.Rate != Rate60 || st.cfg.Render != RenderLatest || st.cfg.Level != Uncompressed {
		t.Fatalf("after F2: original %d, %s", st.original(), st.Mode())
	}
	for n := 2; n <= len(OriginalModes); n++ {
		st.SubMode(+1)
		c, name, ok := st.ChosenLink()
		om := OriginalModes[n-1]
		if st.original() != n || !ok || c != om.Link || st.cfg.Rate != om.Rate || st.cfg.Render != om.Render {
			t.Errorf("mode %d: original %d, link %+v (%q, %v), %s", n, st.original(), c, name, ok, st.Mode())
		}
	}
	if c, _, _ := st.ChosenLink(); c.LossPercent != 5 || math.Abs(c.JitterMs-2000.0/60) > 1e-9 || st.cfg.Render != RenderHermiteAhead {
		t.Errorf("mode 6: %+v, %s", c, st.Mode())
	}
	if got, want := st.Mode(), "original mode 6: hermite extrapolation at 10 pps · level 1 · 10 Hz · hermite+0.2 s · delay 350 ms"; got != want {
		t.Errorf("mode line %q, want %q", got, want)
	}
	st.SetRate(Rate20)
	if got := st.Mode(); got[:len("original mode 6: hermite extrapolation at 10 pps (changed by hand)")] != "original mode 6: hermite extrapolation at 10 pps (changed by hand)" {
		t.Errorf("after R: %q", got)
	}
	st.SubMode(+1) // wraps to mode 1
	if st.original() != 1 {
		t.Errorf("] after mode 6: %d", st.original())
	}
	m.Press(+1)
	if st.original() != 0 || st.cfg != before {
		t.Errorf("after F2 again: original %d, %s (want the settings from before)", st.original(), st.Mode())
	}
	if _, _, ok := st.ChosenLink(); ok {
		t.Error("back on the render modes, a link is chosen")
	}
	if v := m.Value(); v != "render modes" {
		t.Errorf("F2's value on the render modes: %q", v)
	}
}

func control(t *testing.T, st strategy.Strategy, key string) *strategy.Control {
	t.Helper()
	cs := st.Controls()
	for i := range cs {
		if cs[i].Key == key {
			return &cs[i]
		}
	}
	t.Fatalf("%s has no key %s", st.ID(), key)
	return nil
}

// In a session, the original modes' links come and go with the list: the
// presenter's Wi-Fi link is replaced by each mode's and comes back when F2
// switches to the render modes again; a key that leaves the choice as it
// was leaves a link changed by hand alone.
func TestOriginalModesLinkInSession(t *testing.T) {
	cfg := game.DefaultConfig()
	wifi := link.PresetWiFi.Config()
	cfg.Link = wifi
	st := NewInterpolation()
	cfg.Strategies = []strategy.Strategy{st}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := control(t, st, OriginalKey)
	m.Press(+1)
	s.SettingsChanged()
	if s.Link() != OriginalModes[0].Link || s.LinkSource() != "snapshot demo mode 1" {
		t.Fatalf("after F2: link %+v from %q", s.Link(), s.LinkSource())
	}
	for range 3 {
		s.SubMode(+1)
	}
	if s.Link() != OriginalModes[3].Link || s.LinkSource() != "snapshot demo mode 4" {
		t.Fatalf("mode 4: link %+v from %q", s.Link(), s.LinkSource())
	}
	for range 2 * wire.TicksPerSecond {
		s.Step(cubes.Input{Up: true})
	}
	if m := s.Metrics(); m.ShownFrame <= 0 {
		t.Errorf("mode 4 shows nothing after 2 s (frame %v)", m.ShownFrame)
	}
	m.Press(+1)
	s.SettingsChanged()
	if s.Link() != wifi || s.LinkSource() != "" {
		t.Errorf("after F2 again: link %+v from %q, want the presenter's Wi-Fi %+v", s.Link(), s.LinkSource(), wifi)
	}
	// A link changed by hand stays when another key leaves the choice.
	m.Press(+1)
	s.SettingsChanged()
	by := link.Config{LatencyMs: 80}
	s.SetLink(by)
	control(t, st, "R").Press(+1)
	s.SettingsChanged()
	if s.Link() != by {
		t.Errorf("R changed the link set by hand to %+v", s.Link())
	}
}
