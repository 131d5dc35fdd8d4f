package snapshot

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// The compression demo's six modes are the original's (CompressionDemo.cpp):
// every one at 60 pps over 50 ms one way, ±1/60 s of jitter and 5 % loss,
// played back 50 ms late; hermite while the snapshot carries velocity.
func TestCompressionModesAreTheOriginals(t *testing.T) {
	want := []struct {
		name   string
		level  Level
		render RenderMode
		flag   bool // the at-rest flag
	}{
		{"uncompressed", Uncompressed, RenderHermite, true},
		{"orientation", SmallestThree, RenderHermite, true},
		{"linear velocity", BoundedVelocity, RenderHermite, false},
		{"at rest flag", BoundedVelocity, RenderHermite, true},
		{"no velocity", NoVelocity, RenderLinear, true},
		{"position", BoundedPosition, RenderLinear, true},
	}
	if len(CompressionModes) != len(want) {
		t.Fatalf("%d modes, want %d", len(CompressionModes), len(want))
	}
	for i, w := range want {
		m := CompressionModes[i]
		c := m.config(DefaultConfig())
		if m.Name != w.name || c.Level != w.level || c.Render != w.render || c.AtRestFlag != w.flag || c.Rate != Rate60 {
			t.Errorf("mode %d: %q level %d %v flag %v %v, want %+v", i+1, m.Name, c.Level, c.Render, c.AtRestFlag, c.Rate, w)
		}
		if ms := ticksToMs(float64(c.DelayTicks())); math.Abs(ms-50) > 1e-9 {
			t.Errorf("mode %d: delay %.1f ms, want the original's 50", i+1, ms)
		}
		l := m.Link
		if l.LatencyMs != 50 || math.Abs(l.JitterMs-1000.0/60) > 1e-9 || l.LossPercent != 5 || l != (link.Config{LatencyMs: l.LatencyMs, JitterMs: l.JitterMs, LossPercent: l.LossPercent}) {
			t.Errorf("mode %d: link %+v, want 50 ms one way, ±1/60 s, 5 %% loss", i+1, l)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("mode %d: %v", i+1, err)
		}
	}
}

// F2 on the compression entry switches [ ] to the six modes; each sets
// its settings and chooses its link, the Mode line names it (and says when
// a key changed it), and F2 again gives back the levels and the settings
// from before.
func TestCompressionModesOnTheKeys(t *testing.T) {
	st := NewCompression()
	st.SetLevel(DeltaPosition)
	st.SetRate(Rate30)
	before := st.cfg
	m := control(t, st, OriginalKey)
	if m.Help != control(t, NewInterpolation(), OriginalKey).Help {
		t.Errorf("the two entries' F2 help differ: the help lists it once")
	}
	if v := m.Value(); v != "levels" {
		t.Errorf("F2's value on the levels: %q", v)
	}
	m.Press(+1)
	for n := 1; n <= len(CompressionModes); n++ {
		if n > 1 {
			if note := st.SubMode(+1); !strings.HasPrefix(note, "original mode ") || !strings.Contains(note, "50 ms one way") {
				t.Errorf("] to mode %d says %q", n, note)
			}
		}
		cm := CompressionModes[n-1]
		c, name, ok := st.ChosenLink()
		if st.Original() != n || !ok || c != cm.Link || name != "compression mode "+string(rune('0'+n)) || st.cfg != cm.config(before) {
			t.Errorf("mode %d: original %d, link %+v (%q, %v), %s", n, st.Original(), c, name, ok, st.Mode())
		}
	}
	st.SetOriginal(4)
	if got, want := st.Mode(), "original mode 4: at rest flag · level 3 · 60 Hz · hermite+slerp · delay 50 ms (−2 ticks)"; got != want {
		t.Errorf("mode line %q, want %q", got, want)
	}
	st.SetOriginal(3)
	if got := st.Mode(); !strings.HasPrefix(got, "original mode 3: linear velocity · level 3, no at-rest bit ·") {
		t.Errorf("mode 3's line %q", got)
	}
	if e := st.Explain(); e != noAtRestFlagExplain {
		t.Errorf("mode 3 explains %q", e)
	}
	control(t, st, "D").Press(+1)
	if got := st.Mode(); !strings.HasPrefix(got, "original mode 3: linear velocity (changed by hand)") {
		t.Errorf("after D: %q", got)
	}
	st.SubMode(-1)
	st.SubMode(-1)
	st.SubMode(-1) // wraps to mode 11, the delta demo's last
	if st.Original() != 11 || st.cfg.Level != DeltaOrientation {
		t.Errorf("[ from mode 3, three times: mode %d, %s", st.Original(), st.Mode())
	}
	m.Press(+1)
	if st.Original() != 0 || st.cfg != before {
		t.Errorf("after F2 again: original %d, %s (want the settings from before)", st.Original(), st.Mode())
	}
	if _, _, ok := st.ChosenLink(); ok {
		t.Error("back on the levels, a link is chosen")
	}
	st.SubMode(+1)
	if st.cfg.Level != DeltaOrientation {
		t.Errorf("] back on the levels: %s", st.Mode())
	}
	m.Press(+1)
	if st.Original() != 11 {
		t.Errorf("F2 again goes back to mode %d, want the last shown, 11", st.Original())
	}
}

// The delta demo's five modes follow the compression demo's six on the
// compression entry's F2 list (modes 7-11): each the level that sends what
// it sends, linear, on the compression demo's link and delay, named for
// its own demo on the Mode line, the note and the network line; the
// interpolation entry's list stays the snapshot demo's six.
func TestDeltaModesOnF2(t *testing.T) {
	st := NewCompression()
	before := st.cfg
	control(t, st, OriginalKey).Press(+1)
	for range len(CompressionModes) - 1 {
		st.SubMode(+1)
	}
	levels := []Level{DeltaBaseline, ChangedIndices, RelativeIndices, DeltaPosition, DeltaOrientation}
	names := []string{"not changed", "changed index", "relative index", "relative position", "relative orientation"}
	for k, l := range levels {
		note := st.SubMode(+1)
		n := len(CompressionModes) + k + 1
		want := fmt.Sprintf("original mode %d: delta demo %d: %s · 50 ms one way", n, k+1, names[k])
		if !strings.HasPrefix(note, want) {
			t.Errorf("] to mode %d says %q, want %q…", n, note, want)
		}
		c, name, ok := st.ChosenLink()
		if st.Original() != n || !ok || c != compressionLink || name != fmt.Sprintf("delta demo mode %d", k+1) {
			t.Errorf("mode %d: original %d, link %+v (%q, %v)", n, st.Original(), c, name, ok)
		}
		if st.cfg.Level != l || st.cfg.Render != RenderLinear || st.cfg.Rate != Rate60 || ticksToMs(float64(st.cfg.DelayTicks())) != 50 || st.cfg.Predicting() {
			t.Errorf("mode %d: %s", n, st.Mode())
		}
		if !strings.HasPrefix(st.Mode(), fmt.Sprintf("original mode %d: delta demo %d: %s · level %d", n, k+1, names[k], l)) {
			t.Errorf("mode line %q", st.Mode())
		}
	}
	if st.SubMode(+1); st.Original() != 1 {
		t.Errorf("] after the delta demo's last: mode %d, want the list to wrap to 1", st.Original())
	}
	control(t, st, OriginalKey).Press(+1)
	if st.cfg != before {
		t.Errorf("F2 again: %s", st.Mode())
	}
	in := NewInterpolation()
	in.SetOriginal(7)
	if in.Original() != 0 {
		t.Errorf("the interpolation entry took mode 7 (its list is the snapshot demo's six)")
	}
}

// Mode 3 sends every cube's velocity and no at-rest bit: a resting cube
// costs what a moving one does, level 3's moving cube less its bit; mode 4
// (the at-rest flag) saves the 33 bits of velocity of a resting cube. In a
// session on the katamari world, where most cubes rest.
func TestCompressionMode3SendsEveryVelocity(t *testing.T) {
	moving := absoluteCubeBits(BoundedVelocity) // 160 with the flag
	const velocity = 3 * wire.SnapshotVelocityBits
	for _, mode := range []int{3, 4} {
		st := NewCompression()
		st.SetOriginal(mode)
		cfg := game.DefaultConfig()
		cfg.Link = link.Config{} // every packet, so that each tick is checked
		cfg.Strategies = []strategy.Strategy{st}
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		mostResting := 0
		for range 20 {
			s.Step(cubes.Input{Up: true})
			w := s.Left()
			n, resting := w.NumCubes(), 0
			for i := range n {
				if w.AtRest(i) {
					resting++
				}
			}
			want := n * (moving - 1) // mode 3: every cube the same, no bit
			if mode == 4 {
				want = n*moving - resting*velocity
			}
			last := st.Stats().Last
			if last.Frame != s.Frame() || last.Level != BoundedVelocity || last.CubeBits != want {
				t.Fatalf("mode %d, frame %d: %v, %d cube bits for %d cubes (%d at rest), want %d",
					mode, last.Frame, last.Level, last.CubeBits, n, resting, want)
			}
			mostResting = max(mostResting, resting)
		}
		if mostResting == 0 {
			t.Fatalf("mode %d: no cube at rest: the test shows nothing", mode)
		}
		if got := st.Stats().Total.BitsPerChanged(); mode == 3 && got != float64(moving-1) {
			t.Errorf("mode 3: %.2f bits per cube, want %d for every cube", got, moving-1)
		}
	}
}

// In a session the compression modes' link replaces the presenter's, and
// comes back with another strategy or F2; the name on the network line
// says which demo.
func TestCompressionModesLinkInSession(t *testing.T) {
	cfg := game.DefaultConfig()
	wifi := link.PresetWiFi.Config()
	cfg.Link = wifi
	st := NewCompression()
	cfg.Strategies = []strategy.Strategy{NewInterpolation(), st}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetStrategy(1); err != nil {
		t.Fatal(err)
	}
	m := control(t, st, OriginalKey)
	m.Press(+1)
	s.SettingsChanged()
	if s.Link() != CompressionModes[0].Link || s.LinkSource() != "compression mode 1" {
		t.Fatalf("after F2: link %+v from %q", s.Link(), s.LinkSource())
	}
	s.SubMode(+1)
	if s.LinkSource() != "compression mode 2" {
		t.Fatalf("mode 2: link from %q", s.LinkSource())
	}
	for range wire.TicksPerSecond {
		s.Step(cubes.Input{Up: true})
	}
	if mt := s.Metrics(); mt.ShownFrame <= 0 || mt.Rejected != 0 {
		t.Errorf("mode 2 shows frame %v after 1 s, %d rejected", mt.ShownFrame, mt.Rejected)
	}
	for _, tt := range []struct {
		entry int
		link  link.Config
		src   string
	}{{0, wifi, ""}, {1, CompressionModes[1].Link, "compression mode 2"}} {
		if err := s.SetStrategy(tt.entry); err != nil {
			t.Fatal(err)
		}
		if s.Link() != tt.link || s.LinkSource() != tt.src {
			t.Errorf("entry %d: link %+v from %q, want %+v from %q", tt.entry+1, s.Link(), s.LinkSource(), tt.link, tt.src)
		}
	}
	m.Press(+1)
	s.SettingsChanged()
	if s.Link() != wifi || s.LinkSource() != "" {
		t.Errorf("after F2 again: link %+v from %q, want the presenter's Wi-Fi %+v", s.Link(), s.LinkSource(), wifi)
	}
}

// In the two-process form the right's compression entry takes the mode
// shown with the settings (mode 3's at-rest flag among them): the same
// Mode line, settings and link on both sides, in every mode and back on
// the levels. Settings naming a mode beyond the list are refused and
// change nothing.
func TestCompressionModesCrossToTheRight(t *testing.T) {
	settings := func(st *Strategy) []byte {
		w := wire.NewWriteStream(make([]byte, 64))
		if err := st.SerializeSettings(w); err != nil {
			t.Fatal(err)
		}
		if err := w.SerializeAlign(); err != nil {
			t.Fatal(err)
		}
		return append([]byte(nil), w.Bytes()...)
	}
	left, right := NewCompression(), NewCompression()
	for _, n := range []int{1, 2, 3, 4, 5, 6, 3, 0} {
		left.SetOriginal(n)
		if err := right.SerializeSettings(wire.NewReadStream(settings(left))); err != nil {
			t.Fatalf("mode %d: %v", n, err)
		}
		lc, ln, lok := left.ChosenLink()
		rc, rn, rok := right.ChosenLink()
		if right.Original() != n || right.cfg != left.cfg || right.Mode() != left.Mode() || lc != rc || ln != rn || lok != rok {
			t.Errorf("mode %d: the right is in %d, %q (%+v), the left %q", n, right.Original(), right.Mode(), right.cfg, left.Mode())
		}
	}
	if right.cfg.AtRestFlag != true {
		t.Error("back on the levels, the right sends no at-rest bit")
	}

	// A mode number beyond the list: refused, nothing changed.
	left.SetOriginal(6)
	data := settings(left)
	before := settings(right)
	bad := wire.NewWriteStream(make([]byte, 64))
	r := wire.NewReadStream(data)
	copySettings(t, r, bad, 7)
	if err := bad.SerializeAlign(); err != nil {
		t.Fatal(err)
	}
	if err := right.SerializeSettings(wire.NewReadStream(bad.Bytes())); err == nil {
		t.Error("settings with mode 7 taken")
	}
	if after := settings(right); string(after) != string(before) {
		t.Errorf("refused settings changed the right: % x, were % x", after, before)
	}
}

// copySettings copies the settings from r to w with the original mode
// replaced by mode (written in the list's 3 bits, beyond its range).
func copySettings(t *testing.T, r *wire.ReadStream, w *wire.WriteStream, mode uint32) {
	t.Helper()
	var st Strategy
	st.cfg = DefaultConfig()
	st.sub = subLevel
	probe := wire.NewMeasureStream()
	if err := st.SerializeSettings(probe); err != nil {
		t.Fatal(err)
	}
	head := probe.BitsProcessed() - 3 // everything before the mode
	for head > 0 {
		k := min(head, 16)
		var v uint32
		if err := wire.SerializeBits(r, &v, k); err != nil {
			t.Fatal(err)
		}
		if err := wire.SerializeBits(w, &v, k); err != nil {
			t.Fatal(err)
		}
		head -= k
	}
	if err := wire.SerializeBits(w, &mode, 3); err != nil {
		t.Fatal(err)
	}
}

// TestOriginalFlag: -original N puts each entry in its own list's mode N
// (the interpolation entry the snapshot demo's, the compression entry the
// compression demo's then the delta demo's), and a number past the list
// is refused unchanged.
func TestOriginalFlag(t *testing.T) {
	for _, tt := range []struct {
		st    *Strategy
		modes []OriginalMode
	}{{NewInterpolation(), OriginalModes}, {NewCompression(), compressionEntryModes}} {
		var set func(string) error
		for _, f := range tt.st.Flags() {
			if f.Name == strategy.OriginalFlagName {
				set = f.Set
			}
		}
		if set == nil {
			t.Fatalf("%s: no -%s flag", tt.st.ID(), strategy.OriginalFlagName)
		}
		past := fmt.Sprint(len(tt.modes) + 1)
		if err := set(past); err == nil || tt.st.Original() != 0 {
			t.Errorf("%s: -original %s accepted (mode %d)", tt.st.ID(), past, tt.st.Original())
		}
		if err := set("4"); err != nil {
			t.Fatal(err)
		}
		c := tt.st.config()
		if tt.st.Original() != 4 || c.Level != tt.modes[3].Level || c.Render != tt.modes[3].Render {
			t.Errorf("%s: -original 4 gave mode %d, level %v, render %v", tt.st.ID(), tt.st.Original(), c.Level, c.Render)
		}
		if l, _, ok := tt.st.ChosenLink(); !ok || l != tt.modes[3].Link {
			t.Errorf("%s: -original 4 chose link %+v (%v)", tt.st.ID(), l, ok)
		}
	}
}

// TestDeltaModeFlag: -delta-mode N puts the compression entry in the
// delta demo's mode N (its list's 6+N); the interpolation entry has no
// such flag.
func TestDeltaModeFlag(t *testing.T) {
	flag := func(st *Strategy) *strategy.Flag {
		for _, f := range st.Flags() {
			if f.Name == "delta-mode" {
				return &f
			}
		}
		return nil
	}
	if flag(NewInterpolation()) != nil {
		t.Error("the interpolation entry has -delta-mode")
	}
	st := NewCompression()
	f := flag(st)
	if f == nil {
		t.Fatal("no -delta-mode on the compression entry")
	}
	if err := f.Set("6"); err == nil || st.Original() != 0 {
		t.Errorf("-delta-mode 6 accepted (mode %d)", st.Original())
	}
	if err := f.Set("2"); err != nil || st.Original() != len(CompressionModes)+2 || st.cfg.Level != ChangedIndices {
		t.Errorf("-delta-mode 2: %v, mode %d, %s", err, st.Original(), st.Mode())
	}
}
