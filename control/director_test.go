package control

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/testutil"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/talk"
)

// testGrid is the grid of the tests' worlds: 100 cubes instead of 900, so
// a few hundred frames of every strategy take seconds, not minutes.
const testGrid = 10

// testOptions is a director's options as main builds them, on a small
// world, starting with strategy id on preset.
func testOptions(id, preset string) Options {
	cfg := game.DefaultConfig()
	cfg.Strategies, cfg.Start, _ = catalog.StartingWith(id)
	cfg.World.GridSide = testGrid
	p, _ := link.PresetByName(preset)
	cfg.Link = p.Config()
	if pair := p.Pair(); !pair.IsSymmetric() {
		cfg.Up = &pair.Up
	}
	return Options{Config: cfg, Preset: p.String()}
}

func newTestDirector(t *testing.T, o Options) *Director {
	t.Helper()
	d, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// snapshotOf is everything the HUD shows that the simulation decides, at
// one frame: the worlds' hash, the figures, the strategy's settings and
// facts, the link's name and numbers, the overlays, the caption, the
// captions of events.
func snapshotOf(d *Director) string {
	s := d.Session()
	st := s.Strategy()
	facts := ""
	if f, ok := st.(strategy.Facts); ok {
		// The 2004 strategy's replay cost is measured in CPU time: the
		// one figure on the HUD a replay does not repeat.
		facts = replayCost.ReplaceAllString(f.Facts(), "replay … µs/tick")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "frame %d/%d hash %x players %d shown %d\n", d.Frame(), s.Frame(), s.Left().StateHash(), s.NumPlayers(), s.Shown())
	fmt.Fprintf(&b, "%s | %s | %s\n", st.Name(), st.Mode(), facts)
	fmt.Fprintf(&b, "link %s: %s checksum %v outage %v\n", d.LinkName(s.Shown()), DescribeLinks(s.LinksOf(s.Shown())), s.Checksum(), s.InOutage())
	fmt.Fprintf(&b, "metrics %+v\n", *s.Metrics())
	fmt.Fprintf(&b, "view %+v caption %v\n", d.View(), d.cur.st.caption)
	if c, ok := d.Captions().Current(); ok {
		fmt.Fprintf(&b, "event %q\n", c.Text)
	}
	k := d.Kbps()
	fmt.Fprintf(&b, "kbps %d %.6g %v\n", k.Len(), k.Max(), d.Compare().Points())
	return b.String()
}

var replayCost = regexp.MustCompile(`replay [0-9]+ µs/tick`)

// presenter is a scripted presenter: what it does before each tick.
type presenter map[int]func(d *Director)

// playRun runs the director for ticks ticks with the presenter's actions
// and keys, and returns what each tick showed: per tick the frame, per
// frame its snapshot.
func playRun(d *Director, ticks int, p presenter, keys func(tick int) cubes.Input) (perTick []int, perFrame map[int]string) {
	perFrame = map[int]string{0: snapshotOf(d)}
	d.OnStep = func(bool) { perFrame[d.Frame()] = snapshotOf(d) }
	for tick := 1; tick <= ticks; tick++ {
		if a := p[tick]; a != nil {
			a(d)
		}
		var in cubes.Input
		if keys != nil {
			in = keys(tick)
		}
		d.Tick(in)
		perTick = append(perTick, d.Frame())
	}
	return perTick, perFrame
}

// replay writes d's recording as text, reads it back and plays it on a
// director with default settings for ticks ticks.
func replay(t *testing.T, d *Director, ticks int) (text string, perTick []int, perFrame map[int]string) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := d.Recording("rec.txt").WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	text = buf.String()
	tr, err := talk.ParseWith("rec.txt", strings.NewReader(text), cubes.LoadScript)
	if err != nil {
		t.Fatalf("the recording does not read back: %v\n%s", err, text)
	}
	o := testOptions("interpolation", "perfect")
	o.Track = tr
	rd := newTestDirector(t, o)
	perTick, perFrame = playRun(rd, ticks, nil, nil)
	return text, perTick, perFrame
}

// compareRuns checks that a replay showed what the run showed, tick by
// tick and frame by frame.
func compareRuns(t *testing.T, text string, ticksA, ticksB []int, framesA, framesB map[int]string) {
	t.Helper()
	for i := range ticksA {
		if i >= len(ticksB) || ticksA[i] != ticksB[i] {
			t.Fatalf("tick %d: the run was at frame %d, the replay at %v\n%s", i+1, ticksA[i], ticksB[i:min(i+1, len(ticksB))], text)
		}
	}
	for f := 0; f < len(framesA); f++ {
		if framesA[f] != framesB[f] {
			t.Fatalf("frame %d differs:\nrun:    %s\nreplay: %s\n%s", f, framesA[f], framesB[f], text)
		}
	}
}

// TestRecordReplayEveryEvent: a run in which the presenter uses every key
// that changes the session (each kind of command), pauses, steps, slows
// down, holds and taps the outage key, adds a player and shows its
// client, resets and goes to a scene, replays from its recording bit for
// bit: the same frame at every tick, the same hashes and HUD figures at
// every frame.
func TestRecordReplayEveryEvent(t *testing.T) {
	o := testOptions("compression", "perfect")
	o.Settings = []Setting{{"level", "11"}}
	d := newTestDirector(t, o)
	p := presenter{
		5:  func(d *Director) { d.CyclePreset(+1) },
		10: func(d *Director) { d.AdjustLink(link.Edit{Field: link.FieldLatency, Kind: link.EditAdd, Value: 10}) },
		12: func(d *Director) { d.AdjustLink(link.Edit{Field: link.FieldLoss, Kind: link.EditAdd, Value: 1}) },
		13: func(d *Director) { d.AdjustLink(link.Edit{Field: link.FieldJitter, Kind: link.EditAdd, Value: 5}) },
		20: func(d *Director) { d.ControlKey("F8", 1) },
		25: func(d *Director) { d.Do(talk.Command{Op: talk.OpSubMode, Dir: 1}) },
		30: func(d *Director) { d.ControlKey("R", 1) },
		40: func(d *Director) { d.OutageKey(true) },
		45: func(d *Director) { d.OutageKey(false) },
		60: func(d *Director) { d.Do(talk.Command{Op: talk.OpSet, Name: "level", Value: "9"}) },
		62: func(d *Director) { d.Do(talk.Command{Op: talk.OpSet, Name: "adaptive-delay", Value: "on"}) },
		70: func(d *Director) { d.TogglePause() },
		90: func(d *Director) { d.Do(talk.Command{Op: talk.OpGhost, On: false}) },
		100: func(d *Director) {
			d.StepOnce()
		},
		110: func(d *Director) { d.StepOnce() },
		115: func(d *Director) {
			d.Do(talk.Command{Op: talk.OpCaption, N: 120, Lines: []string{"paused", "and stepped"}})
		},
		130: func(d *Director) { d.TogglePause() },
		140: func(d *Director) { d.Do(talk.Command{Op: talk.OpStrategy, Name: "statesync"}) },
		// The original demo's mode list (F2), whose modes choose the
		// link, a step in it, and back to the build-up.
		144: func(d *Director) { d.ControlKey("F2", 1) },
		146: func(d *Director) { d.Do(talk.Command{Op: talk.OpSubMode, Dir: 1}) },
		148: func(d *Director) { d.ControlKey("F2", 1) },
		150: func(d *Director) { d.ControlKey("B", -1) },
		155: func(d *Director) { d.ControlKey("S", 1) },
		160: func(d *Director) { d.AdjustLink(link.Edit{Field: link.FieldCap, Kind: link.EditNext}) },
		170: func(d *Director) { d.AdjustLink(link.Edit{Field: link.FieldCorrupt, Kind: link.EditNext}) },
		175: func(d *Director) { d.Do(talk.Command{Op: talk.OpChecksum, On: true}) },
		180: func(d *Director) { d.AdjustLink(link.Edit{Field: link.FieldTCP, Kind: link.EditToggle}) },
		200: func(d *Director) { d.ChangePlayers(+1) },
		210: func(d *Director) { d.CycleClient(+1) },
		215: func(d *Director) { d.CyclePreset(+1) },
		220: func(d *Director) { d.OutageKey(true) },
		230: func(d *Director) { d.CycleClient(+1) },
		240: func(d *Director) { d.Do(talk.Command{Op: talk.OpTint, Name: "priority"}) },
		245: func(d *Director) { d.Do(talk.Command{Op: talk.OpOffsets, On: true}) },
		250: func(d *Director) { d.Do(talk.Command{Op: talk.OpChart, Kind: talk.ChartOn}) },
		255: func(d *Director) { d.Do(talk.Command{Op: talk.OpHelp, On: true}) },
		260: func(d *Director) { d.SetSlow(true) },
		290: func(d *Director) { d.Do(talk.Command{Op: talk.OpShow, N: 1}) },
		300: func(d *Director) { d.SetSlow(false); d.OutageKey(false) },
		320: func(d *Director) { d.Do(talk.Command{Op: talk.OpStrategy, Name: "lockstep"}) },
		330: func(d *Director) { d.Do(talk.Command{Op: talk.OpSubMode, Dir: 1}) },
		340: func(d *Director) { d.ControlKey("D", 1) },
		360: func(d *Director) { d.Restart() },
		380: func(d *Director) { d.Do(talk.Command{Op: talk.OpStrategy, Name: "predict"}) },
		390: func(d *Director) { d.ControlKey("S", 1) },
		395: func(d *Director) { d.ControlKey("W", 1) },
		400: func(d *Director) { d.Do(talk.Command{Op: talk.OpChart, Kind: talk.ChartClear}) },
		// The 2004 strategy's keys for the other players: how they are
		// drawn, and a tag of the nearest (two players since tick 200).
		405: func(d *Director) { d.ControlKey("I", 1) },
		410: func(d *Director) { d.ControlKey("Slash", 1) },
		415: func(d *Director) { d.Do(talk.Command{Op: talk.OpSet, Name: "predict-delay", Value: "8"}) },
		420: func(d *Director) { d.Scene() },
		440: func(d *Director) { d.ChangePlayers(-1) },
		450: func(d *Director) { d.Do(talk.Command{Op: talk.OpStrategy, Name: "interpolation"}) },
		455: func(d *Director) { d.ControlKey("I", 1) },
		460: func(d *Director) { d.Do(talk.Command{Op: talk.OpPreset, Name: "asymmetric"}) },
		470: func(d *Director) {
			d.Do(talk.Command{Op: talk.OpLink, Edits: []link.Edit{{Dir: link.DirUp, Field: link.FieldLoss, Value: 7}}})
		},
		480: func(d *Director) { d.Do(talk.Command{Op: talk.OpOutage, N: 30}) },
		490: func(d *Director) { d.TogglePause() },
	}
	keys := func(tick int) cubes.Input {
		switch {
		case tick < 30:
			return cubes.Input{}
		case tick < 150:
			return cubes.Input{Up: true, Katamari: true}
		case tick < 250:
			return cubes.Input{Left: true, Katamari: true}
		case tick < 350:
			return cubes.Input{Down: true, Right: true}
		case tick < 380:
			return cubes.Input{Blow: true}
		}
		return cubes.Input{Right: tick%50 < 25, Katamari: true}
	}
	const ticks = 520
	ticksA, framesA := playRun(d, ticks, p, keys)
	text, ticksB, framesB := replay(t, d, ticks)
	for _, want := range []string{"seed 1", "strategy compression", "set level 11", "pause 20", "slow on", "outage start",
		"outage 55", "reset", "scene", "players 2", "show client 2", "preset Wi-Fi client 2", "caption 2s \"paused\" \"and stepped\"", "set adaptive-delay on", "key I", "key Slash", "set predict-delay 8", "key F2"} {
		if !strings.Contains(text, want) {
			t.Errorf("the recording has no %q:\n%s", want, text)
		}
	}
	compareRuns(t, text, ticksA, ticksB, framesA, framesB)
}

// TestRecordReplayLossy: a run over the terrible preset (loss,
// duplicates, reordering, jitter) with the presenter steering replays bit
// for bit.
func TestRecordReplayLossy(t *testing.T) {
	o := testOptions("statesync", "terrible")
	o.Config.Seed = 7
	d := newTestDirector(t, o)
	p := presenter{
		100: func(d *Director) { d.AdjustLink(link.Edit{Field: link.FieldLoss, Kind: link.EditAdd, Value: 1}) },
		200: func(d *Director) { d.Do(talk.Command{Op: talk.OpSubMode, Dir: -1}) },
	}
	keys := func(tick int) cubes.Input {
		return cubes.Input{Up: tick%120 < 60, Left: tick%120 >= 60, Katamari: tick > 40}
	}
	const ticks = 300
	ticksA, framesA := playRun(d, ticks, p, keys)
	text, ticksB, framesB := replay(t, d, ticks)
	if !strings.Contains(text, "preset terrible") || !strings.Contains(text, "seed 7") {
		t.Errorf("the header does not say the network and the seed:\n%s", text)
	}
	compareRuns(t, text, ticksA, ticksB, framesA, framesB)
}

// jumpTrack is a short talk: a strategy switch, a preset, an outage, a
// caption, a reset of the world (a restart point) and more after it.
const jumpTrack = `strategy statesync
2s-12s up katamari
0 caption 2s "drop"
1s preset mobile
3s caption "the ball"
4s outage 0.5s
5s reset
5s caption "again"
6s strategy compression
7s set level 12
8s caption 2s "level 12"
9s play katamari
`

// TestBackThenForward: going back 5 s (or to a caption) and playing on
// reaches the same frames as the straight run, hash for hash and figure
// for figure, also across a reset of the world.
func TestBackThenForward(t *testing.T) {
	tr, err := talk.ParseWith("jump.txt", strings.NewReader(jumpTrack), cubes.LoadScript)
	if err != nil {
		t.Fatal(err)
	}
	o := testOptions("interpolation", "perfect")
	o.Track = tr
	straight := newTestDirector(t, o)
	const ticks = 660
	_, want := playRun(straight, ticks, nil, nil)

	d := newTestDirector(t, o)
	got := map[int]string{}
	d.OnStep = func(resim bool) { got[d.Frame()] = snapshotOf(d) }
	check := func(when string) {
		t.Helper()
		f := d.Frame()
		if s := snapshotOf(d); s != want[f] {
			t.Fatalf("%s: frame %d differs:\nstraight: %s\ngot:      %s", when, f, want[f], s)
		}
	}
	for d.Frame() < 500 {
		d.Tick(cubes.Input{})
	}
	d.Back(300)
	if d.Frame() != 200 {
		t.Fatalf("back 5 s from frame 500: at frame %d", d.Frame())
	}
	check("back 5 s")
	for d.Frame() < 420 {
		d.Tick(cubes.Input{})
	}
	d.PrevCaption()
	if d.Frame() != 300 {
		t.Fatalf("the previous caption from frame 420: at frame %d, want 300 (5 s)", d.Frame())
	}
	// The world was reset at 5 s, with the caption: going back there lands
	// just after the reset (a restart point), so the first frame to compare
	// is the next.
	d.Tick(cubes.Input{})
	check("previous caption")
	d.NextCaption()
	check("next caption")
	if d.Frame() != 480 {
		t.Fatalf("the next caption from frame 301: at frame %d, want 480 (8 s)", d.Frame())
	}
	for d.Frame() < ticks {
		d.Tick(cubes.Input{})
		check("playing on")
	}
	_ = got
}

// TestTakeOver: a key that changes the session while a track plays stops
// the track and says so; the view keys and pausing do not; going back
// plays the track on from there.
func TestTakeOver(t *testing.T) {
	tr, err := talk.ParseWith("jump.txt", strings.NewReader(jumpTrack), cubes.LoadScript)
	if err != nil {
		t.Fatal(err)
	}
	o := testOptions("interpolation", "perfect")
	o.Track = tr
	var notes []string
	o.Say = func(s string) { notes = append(notes, s) }
	d := newTestDirector(t, o)
	for range 120 {
		d.Tick(cubes.Input{})
	}
	d.Do(talk.Command{Op: talk.OpGhost, On: false})
	d.TogglePause()
	d.Tick(cubes.Input{})
	d.TogglePause()
	if _, _, _, on := d.TrackStatus(); !on {
		t.Fatal("a view key or a pause stopped the track")
	}
	d.CyclePreset(+1)
	if _, _, _, on := d.TrackStatus(); on {
		t.Fatal("a network key did not take over from the track")
	}
	if last := notes[len(notes)-1]; !strings.HasPrefix(last, "script stopped at 0:02: you have the controls (Backspace goes back into it) · network:") {
		t.Errorf("note %q", last)
	}
	for range 60 {
		d.Tick(cubes.Input{})
	}
	d.Back(120)
	if _, at, _, on := d.TrackStatus(); !on || at != 60 {
		t.Errorf("after going back: track on %v at %d, want on at 60", on, at)
	}
}

// TestSettingsByName: a setting set by its flag's name goes through the
// sub-mode steps when it is the active strategy's sub-mode (and the
// session does what it does after them), a setting set by a control's
// name presses the control.
func TestSettingsByName(t *testing.T) {
	d := newTestDirector(t, testOptions("lockstep", "perfect"))
	d.Do(talk.Command{Op: talk.OpSet, Name: "lockstep-mode", Value: "3"})
	if src := d.Session().LinkSource(); !strings.Contains(src, "mode 3") {
		t.Errorf("set lockstep-mode 3: the link is set by %q, want lockstep mode 3", src)
	}
	d.Do(talk.Command{Op: talk.OpStrategy, Name: "statesync"})
	d.Do(talk.Command{Op: talk.OpSet, Name: "congestion-avoidance", Value: "on"})
	d.Do(talk.Command{Op: talk.OpSet, Name: "budget", Value: "128"})
	mode := d.Session().Strategy().Mode()
	if !strings.Contains(mode, "128") {
		t.Errorf("state sync after set budget 128: %q", mode)
	}
	c := d.Session().Strategy().Controls()
	k, _ := talk.ControlByKey(d.Session().Strategy(), "F8")
	if v := c[k].Value(); v != "on (the estimator)" {
		t.Errorf("congestion avoidance %q after set congestion-avoidance on", v)
	}
}

// TestBuiltinTracksParse: every built-in track reads, and the tracks the
// README's clip and comparison chart are made from.
func TestBuiltinTracksParse(t *testing.T) {
	for _, n := range append(talk.Names(), "../docs/clip.txt", "../docs/compare.txt") {
		if _, err := talk.Load(n); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	_ = testutil.Katamari
}
