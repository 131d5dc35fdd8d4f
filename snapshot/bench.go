package snapshot

// The snapshot sections: the eleven compression levels of "Snapshot
// Compression" side by side with the article's figures, the render modes of
// snapshot interpolation at each send rate, and the article's headline
// numbers against what this run measured. Every run plays the script on the
// bench's preset with the snapshot strategy active from the first frame.
//
// Two error figures: "err" compares the right, as drawn, with the left at
// the frame the right says it shows (the session's figure); "steady err"
// compares it with the left played back at a steady delay (the run's
// slowly averaged delay), which is what a viewer sees: showing the latest
// snapshot as it arrives has no error at the frame it shows, but it shows
// each frame at the wrong moment, and this figure catches the hitches.

import (
	"fmt"
	"math"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// BenchSections implements strategy.Benched (both snapshot entries return
// the same three, run once).
func (st *Strategy) BenchSections() []strategy.BenchSection {
	return append([]strategy.BenchSection{
		{Name: "snapshot compression", Run: benchCompression},
		{Name: "snapshot interpolation", Run: benchInterpolation},
		{Name: "snapshot: the article's figures", Run: benchArticle},
		{Name: "snapshot: the 2015 challenge layout", Run: benchChallenge},
		{Name: "snapshot: the original demo's modes", Run: benchOriginal},
		{Name: "snapshot: the compression demo's modes", Run: benchCompressionModes},
	}, adaptBenchSections()...)
}

// benchChallenge records the script's run in the challenge layout (in
// memory: cmd/bench -export-challenge writes the same frames to a file)
// and codes it as the challenge does, every frame against the one six
// earlier, at levels 8-14.
func benchChallenge(b strategy.Bench) error {
	st := New(DefaultConfig())
	s, err := b.NewRun(b.Preset().Config(), st)
	if err != nil {
		return err
	}
	frames := [][]Cube{ChallengeFrame(s.Left())}
	b.Play("snapshot challenge", "record", s, func() { frames = append(frames, ChallengeFrame(s.Left())) })
	t, err := ChallengeTable(frames)
	if err != nil {
		return err
	}
	return b.Print(t)
}

// ChallengeTable codes frames (the challenge layout) at levels 8-14, with
// and without player prediction from level 9, checks every decode and
// tabulates bytes per frame and kbit/s.
func ChallengeTable(frames [][]Cube) (*strategy.Table, error) {
	t := strategy.NewTable(
		strategy.Column{Head: "level"},
		strategy.Column{Head: "stage"},
		strategy.Column{Head: "bytes/frame", Unit: "bytes"},
		strategy.Column{Head: "kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "bits/changed", Unit: "bits"},
		strategy.Column{Head: "changed/frame", Unit: "cubes"},
		strategy.Column{Head: "decisions/frame", Unit: "decisions"},
		strategy.Column{Head: "exact"},
	)
	for _, row := range challengeRows() {
		r, err := CodeChallenge(frames, row.level, row.predict, !row.fresh)
		if err != nil {
			return nil, fmt.Errorf("level %s: %w", row.name(), err)
		}
		t.Add(strategy.Text(row.name()), strategy.Text(row.stage()), strategy.Num(r.BytesPerFrame(), "%.1f"), strategy.Num(r.Kbps(), "%.1f"),
			strategy.Num(ratio(8*r.Bytes, r.Changed), "%.1f"), strategy.Num(ratio(r.Changed, r.Packets), "%.1f"), decisionsCell(r), strategy.Text("yes"))
	}
	t.Notef("%d frames of %d cubes; every frame from the seventh coded against the frame six earlier (level 13's older baseline two", len(frames), NumChallengeCubes)
	t.Note("before that), decoded and compared exactly. Bytes: the packet after the session's sequence (header included); kbit/s at 60 Hz")
	t.Note("without IP/UDP headers, as the challenge counts. bits/changed includes the header. decisions/frame: the binary decisions")
	t.Note("the range coder codes a frame (levels 12-14), the work its speed is counted in.")
	t.Charts = []strategy.Chart{{
		File: "challenge", Title: "The 2015 snapshot challenge's layout: bits per changed cube, levels 8-14",
		X: []string{"level"}, Bars: true,
		Panels: []strategy.Panel{{Y: "bits/changed", Label: "bits per changed cube"}},
	}}
	return t, nil
}

// decisionsCell is a challenge row's decisions a frame: "-" where no
// range coder codes the level.
func decisionsCell(r ChallengeResult) strategy.Cell {
	if !r.Level.IsCoded() {
		return strategy.Text("-")
	}
	return strategy.Num(ratio(r.Decisions, r.Packets), "%.0f")
}

func challengeRows() []levelRow {
	var rows []levelRow
	for l := RelativeIndices; l <= MaxLevel; l++ {
		rows = append(rows, levelRow{l, false, false})
	}
	for l := DeltaPosition; l <= MaxLevel; l++ {
		rows = append(rows, levelRow{l, true, false})
	}
	return append(rows, freshRows()...)
}

// snapshotRun is one run's figures beyond the summary.
type snapshotRun struct {
	sum                   strategy.Summary
	stats                 Stats
	rmsSq, rmsN           float64
	steadySq, steadyN     float64
	rejected              uint64
	posMax, rotMax, popMx float64
}

func (r *snapshotRun) errRMS() float64    { return math.Sqrt(r.rmsSq / math.Max(r.rmsN, 1)) }
func (r *snapshotRun) steadyRMS() float64 { return math.Sqrt(r.steadySq / math.Max(r.steadyN, 1)) }

// runSnapshot plays the script on the bench's preset with a snapshot
// strategy set up by set.
func runSnapshot(b strategy.Bench, section, name string, set func(st *Strategy)) (snapshotRun, error) {
	return runSnapshotOn(b, b.Preset().Config(), section, name, set)
}

// runSnapshotOn is runSnapshot on link conditions c instead of the bench's.
func runSnapshotOn(b strategy.Bench, c link.Config, section, name string, set func(st *Strategy)) (snapshotRun, error) {
	st := New(DefaultConfig())
	s, err := b.NewRun(c, st)
	if err != nil {
		return snapshotRun{}, err
	}
	set(st)
	var r snapshotRun
	var delay float64
	nDelay := 0
	r.sum = b.Play(section, name, s, func() {
		m := s.Metrics()
		if !m.Valid {
			return
		}
		r.rmsSq += m.PosRMSCm * m.PosRMSCm
		r.rmsN++
		r.posMax = math.Max(r.posMax, m.PosMaxCm)
		r.rotMax = math.Max(r.rotMax, m.OrientMaxDeg)
		r.popMx = math.Max(r.popMx, m.MaxPopCm)
		// A running mean for the first two seconds, then an exponential
		// average over about two seconds.
		nDelay++
		delay += (float64(m.Frame) - m.ShownFrame - delay) / float64(min(nDelay, 120))
		if s.Frame() < 4*wire.TicksPerSecond {
			return
		}
		v := s.RightView()
		var sq float64
		for i := range v.Cubes {
			p, _, ok := s.LeftAt(float64(m.Frame)-delay, i)
			if !ok {
				return
			}
			sq += v.Cubes[i].Position.Sub(p).LenSqr()
		}
		rms := 100 * math.Sqrt(sq/float64(len(v.Cubes)))
		r.steadySq += rms * rms
		r.steadyN++
	})
	r.stats = st.Stats()
	r.rejected = s.Metrics().Rejected
	if r.rejected != 0 {
		return r, fmt.Errorf("%s: %d packets rejected", name, r.rejected)
	}
	return r, nil
}

// articleLevel is what the article says about a level, for the table.
var articleLevel = [MaxLevel + 1]string{
	1:  "17.37 Mbit/s, 321 b/cube",
	2:  "222 b/cube",
	3:  "127 at rest, 160 moving",
	4:  "126 b/cube",
	5:  "80 b/cube",
	6:  "1 b/cube + 80 changed",
	7:  "≈15 kbit/s all at rest",
	8:  "5.5 b/index",
	9:  "26.1 b/position",
	10: "23.3 b/orientation",
	11: "≈58 b/changed, < 256 kbit/s",
	12: "Giesen's coder: ≈25 % < 11",
	13: "motion: better again",
}

type levelRow struct {
	level   Level
	predict bool
	fresh   bool // levels 12-14: every packet from fresh models (Config.CarryModels off)
}

func (r levelRow) name() string {
	n := fmt.Sprintf("%d", r.level)
	if r.predict {
		n += "+pred"
	}
	if r.fresh {
		n += " fresh"
	}
	return n
}

// stage is the row's description.
func (r levelRow) stage() string {
	s := r.level.Title()
	if r.predict {
		s += " + player prediction"
	}
	if r.fresh {
		s += ", fresh models per packet"
	}
	return s
}

// freshRows are level 12 with and without player prediction, models
// reset every packet: what carrying the baseline's models buys.
func freshRows() []levelRow {
	return []levelRow{{RangeCoded, false, true}, {RangeCoded, true, true}}
}

func snapshotLevelRows() []levelRow {
	var rows []levelRow
	for l := MinLevel; l <= MaxLevel; l++ {
		rows = append(rows, levelRow{l, false, false})
	}
	for l := DeltaPosition; l <= MaxLevel; l++ {
		rows = append(rows, levelRow{l, true, false})
	}
	return append(rows, freshRows()...)
}

func benchCompression(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "level"},
		strategy.Column{Head: "stage"},
		strategy.Column{Head: "avg kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "peak kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "bits/changed", Unit: "bits"},
		strategy.Column{Head: "changed/pkt", Unit: "cubes"},
		strategy.Column{Head: "b/index", Unit: "bits"},
		strategy.Column{Head: "b/pos", Unit: "bits"},
		strategy.Column{Head: "b/rot", Unit: "bits"},
		strategy.Column{Head: "err cm", Unit: "cm"},
		strategy.Column{Head: "max err cm", Unit: "cm"},
		strategy.Column{Head: "max rot°", Unit: "°"},
		strategy.Column{Head: "starved", Unit: "ticks"},
		strategy.Column{Head: "the article"},
	)
	for _, row := range snapshotLevelRows() {
		r, err := runSnapshot(b, "snapshot compression", "level "+row.name(), func(st *Strategy) {
			st.UseCompressionDemo()
			st.SetLevel(row.level)
			st.SetPlayerPrediction(row.predict)
			st.cfg.CarryModels = !row.fresh
		})
		if err != nil {
			return err
		}
		tot := r.stats.Total
		t.Add(strategy.Text(row.name()), strategy.Text(row.stage()), strategy.Num(r.sum.AvgWireKbps(), "%.1f"), strategy.Num(r.sum.KbpsPeak, "%.1f"),
			strategy.Num(tot.BitsPerChanged(), "%.1f"), strategy.Num(tot.ChangedPerPacket(), "%.1f"),
			orDash(tot.BitsPerIndex()), strategy.Num(tot.BitsPerPosition(), "%.1f"), strategy.Num(tot.BitsPerOrientation(), "%.1f"),
			strategy.Num(r.errRMS(), "%.3f"), strategy.Num(r.posMax, "%.2f"), strategy.Num(r.rotMax, "%.2f"), strategy.Int(r.stats.StarvedTicks),
			strategy.Text(articleLevel[row.level]))
	}
	t.Note("60 Hz, linear interpolation, default delay. kbit/s include 28 bytes of IP/UDP header per packet; bits/changed is the cube data (changed bits,")
	t.Note("indices, flags, fields) per cube carried; b/index, b/pos, b/rot average each field as sent (absolute fallbacks included). err: RMS over the")
	t.Note("run of the per-tick RMS position error of all 901 cubes at the frame shown. +pred: the player-relative prediction (ours, beyond the article).")
	t.Charts = []strategy.Chart{{
		File: "compression", Title: "Snapshot compression, level by level: bits per changed cube and bandwidth (" + b.Preset().String() + ")",
		X: []string{"level"}, Bars: true,
		Panels: []strategy.Panel{
			{Y: "bits/changed", Label: "bits per changed cube", Lines: []strategy.Line{{Value: 58, Label: "the article's level 11: ≈ 58 bits"}}},
			{Y: "avg kbit/s", Label: "bandwidth", Log: true, Lines: []strategy.Line{{Value: articleTargetKbps, Label: "the article's target: 256 kbit/s"}}},
		},
	}}
	t.Tradeoff = &strategy.Tradeoff{Name: "snapshot compression, by level", Kbps: "avg kbit/s", ErrCm: "err cm",
		Label: []string{"level"}, Preset: b.Preset().String(),
		Lines: []strategy.Line{{Value: articleTargetKbps, Label: "the compression article's target"}}}
	return b.Print(t)
}

// articleTargetKbps is the compression article's bandwidth goal for the
// katamari scenario.
const articleTargetKbps = 256

// orDash prints a field the level does not send as "-" (no figure).
func orDash(v float64) strategy.Cell {
	if v == 0 {
		return strategy.Text("-")
	}
	return strategy.Num(v, "%.2f")
}

func benchInterpolation(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "rate"},
		strategy.Column{Head: "mode"},
		strategy.Column{Head: "delay ms", Unit: "ms"},
		strategy.Column{Head: "avg kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "err cm", Unit: "cm"},
		strategy.Column{Head: "steady err cm", Unit: "cm"},
		strategy.Column{Head: "max err cm", Unit: "cm"},
		strategy.Column{Head: "max pop cm", Unit: "cm"},
		strategy.Column{Head: "starved", Unit: "ticks"},
		strategy.Column{Head: "extrapolated", Unit: "ticks"},
	)
	for _, rate := range Rates {
		for m := RenderMode(0); m < NumRenderModes; m++ {
			r, err := runSnapshot(b, "snapshot interpolation", fmt.Sprintf("%v %v", rate, m), func(st *Strategy) {
				st.UseInterpolationDemo()
				st.SetRate(rate)
				st.SetRender(m)
			})
			if err != nil {
				return err
			}
			t.Add(strategy.Textf("%v", rate), strategy.Textf("%v", m), strategy.Num(r.stats.PlayoutDelayMs, "%.0f"), strategy.Num(r.sum.AvgWireKbps(), "%.1f"),
				strategy.Num(r.errRMS(), "%.3f"), strategy.Num(r.steadyRMS(), "%.3f"), strategy.Num(r.posMax, "%.1f"), strategy.Num(r.popMx, "%.1f"),
				strategy.Int(r.stats.StarvedTicks), strategy.Int(r.stats.ExtrapolatedTicks))
		}
	}
	t.Note("Uncompressed snapshots (level 1, with velocity). delay: network + interpolation delay at the end of the run. steady err: against the left")
	t.Note("played back at the run's average delay (hitches count). starved: ticks with nothing to interpolate toward; extrapolated: ticks shown")
	t.Note("past the newest snapshot.")
	t.Charts = []strategy.Chart{{
		File: "interpolation", Title: "Snapshot interpolation: the error a viewer sees, by render mode and send rate (" + b.Preset().String() + ")",
		X: []string{"mode"}, Series: "rate", Bars: true,
		Panels: []strategy.Panel{
			{Y: "steady err cm", Label: "error against a steady playback, RMS", Log: true},
			{Y: "delay ms", Label: "delay"},
		},
	}}
	t.Tradeoff = &strategy.Tradeoff{Name: "snapshot interpolation, by rate and render mode (level 1; error against a steady playback)", Kbps: "avg kbit/s", ErrCm: "steady err cm",
		Label: []string{"rate", "mode"}, Preset: b.Preset().String()}
	return b.Print(t)
}

// benchOriginal runs the original snapshot demo's six modes, each on its
// own link (not the bench's preset), as F2 and [ ] show them.
func benchOriginal(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "mode"},
		strategy.Column{Head: "link"},
		strategy.Column{Head: "delay ms", Unit: "ms"},
		strategy.Column{Head: "avg kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "err cm", Unit: "cm"},
		strategy.Column{Head: "steady err cm", Unit: "cm"},
		strategy.Column{Head: "max err cm", Unit: "cm"},
		strategy.Column{Head: "max pop cm", Unit: "cm"},
		strategy.Column{Head: "starved", Unit: "ticks"},
	)
	for n, om := range OriginalModes {
		r, err := runSnapshotOn(b, om.Link, "snapshot original", fmt.Sprintf("mode %d", n+1), func(st *Strategy) {
			st.SetOriginal(n + 1)
		})
		if err != nil {
			return err
		}
		t.Add(strategy.Textf("%d %s", n+1, om.Name), strategy.Text(linkWords(om.Link)), strategy.Num(r.stats.PlayoutDelayMs, "%.0f"),
			strategy.Num(r.sum.AvgWireKbps(), "%.1f"), strategy.Num(r.errRMS(), "%.3f"), strategy.Num(r.steadyRMS(), "%.3f"),
			strategy.Num(r.posMax, "%.1f"), strategy.Num(r.popMx, "%.1f"), strategy.Int(r.stats.StarvedTicks))
	}
	t.Note("The original demo's modes (interpolation entry: F2, then [ ]), each on its own link, not the bench's preset: uncompressed snapshots")
	t.Note("(level 1, with velocity); mode 6 is the original's hermite extrapolation (both endpoints 0.2 s ahead), ahead of what it plays back,")
	t.Note("so its error against the left at the shown frame counts the lead's overshoot.")
	return b.Print(t)
}

// benchCompressionModes runs the original compression demo's six modes
// and the delta demo's five on their link (not the bench's preset), as F2 and [ ] show them on the
// compression entry.
func benchCompressionModes(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "mode"},
		strategy.Column{Head: "level"},
		strategy.Column{Head: "render"},
		strategy.Column{Head: "delay ms", Unit: "ms"},
		strategy.Column{Head: "avg kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "bits/cube", Unit: "bits"},
		strategy.Column{Head: "err cm", Unit: "cm"},
		strategy.Column{Head: "steady err cm", Unit: "cm"},
		strategy.Column{Head: "max err cm", Unit: "cm"},
		strategy.Column{Head: "starved", Unit: "ticks"},
	)
	for n, om := range compressionEntryModes {
		var cfg Config
		r, err := runSnapshotOn(b, om.Link, "snapshot compression demo", fmt.Sprintf("mode %d", n+1), func(st *Strategy) {
			st.setSub(subLevel)
			st.SetOriginal(n + 1)
			cfg = st.cfg
		})
		if err != nil {
			return err
		}
		label := strategy.Textf("%d %s", n+1, om.Name)
		if om.Demo != "" {
			label = strategy.Textf("%d %s %d: %s", n+1, om.Demo, n+1-len(CompressionModes), om.Name)
		}
		t.Add(label, strategy.Text(cfg.LevelString()), strategy.Text(cfg.RenderString()),
			strategy.Num(r.stats.PlayoutDelayMs, "%.0f"), strategy.Num(r.sum.AvgWireKbps(), "%.1f"), strategy.Num(r.stats.Total.BitsPerChanged(), "%.1f"),
			strategy.Num(r.errRMS(), "%.3f"), strategy.Num(r.steadyRMS(), "%.3f"), strategy.Num(r.posMax, "%.1f"), strategy.Int(r.stats.StarvedTicks))
	}
	t.Notef("The original compression demo's modes (compression entry: F2, then [ ]), on its link, not the bench's preset: %s;", linkWords(compressionLink))
	t.Note("60 Hz, delay 50 ms (3 ticks). Mode 3 is level 3 without its at-rest bit (every cube sends its velocity), mode 4 adds the bit.")
	t.Note("Modes 7-11 are the delta demo's five (levels 6-10) on the same link and delay, after the compression demo's on the same F2 list.")
	t.Note("delay: network + interpolation delay at the end of the run; bits/cube: the cube data per cube, header excluded.")
	return b.Print(t)
}

// idleKbps measures the delta levels with every cube at rest: the world
// settles with nothing pressed, then two seconds of level 11 at 60 Hz.
func idleKbps(b strategy.Bench) (float64, error) {
	st := New(DefaultConfig())
	st.UseCompressionDemo()
	s, err := b.NewRun(b.Preset().Config(), st)
	if err != nil {
		return 0, err
	}
	prev := s.Left().StateHash()
	still := 0
	for still < 2*wire.TicksPerSecond && s.Frame() < 60*wire.TicksPerSecond {
		s.Step(cubes.Input{})
		// The frame number is part of the hash: compare states only.
		cur := s.Left().States(nil)
		h := hashStates(cur)
		if h == prev {
			still++
		} else {
			still = 0
		}
		prev = h
	}
	for range 2 * wire.TicksPerSecond {
		s.Step(cubes.Input{})
	}
	return s.Metrics().SentKbps, nil
}

func hashStates(st []cubes.CubeState) uint64 {
	var h uint64 = 14695981039346656037
	mix := func(x float64) { h = (h ^ math.Float64bits(x)) * 1099511628211 }
	for _, c := range st {
		mix(c.Position[0])
		mix(c.Position[1])
		mix(c.Position[2])
		mix(c.Orientation.W)
		mix(c.Orientation.V[0])
		if c.Interacting {
			mix(1)
		}
	}
	return h
}

func benchArticle(b strategy.Bench) error {
	find := func(level Level, predict bool) (snapshotRun, error) {
		return runSnapshot(b, "snapshot article", fmt.Sprintf("level %d predict %v", level, predict), func(st *Strategy) {
			st.UseCompressionDemo()
			st.SetLevel(level)
			st.SetPlayerPrediction(predict)
		})
	}
	l1, err := find(Uncompressed, false)
	if err != nil {
		return err
	}
	l5, err := find(BoundedPosition, false)
	if err != nil {
		return err
	}
	l11, err := find(ChangedFields, false)
	if err != nil {
		return err
	}
	p11, err := find(ChangedFields, true)
	if err != nil {
		return err
	}
	idle, err := idleKbps(b)
	if err != nil {
		return err
	}
	t := strategy.NewTable(
		strategy.Column{Head: "figure"},
		strategy.Column{Head: "the article"},
		strategy.Column{Head: "measured"},
		strategy.Column{Head: "with player prediction"},
	)
	row := func(name, article string, measured, pred float64, unit string) {
		ps := strategy.Text("-")
		if !math.IsNaN(pred) {
			ps = strategy.Num(pred, "%.1f "+unit)
		}
		t.Add(strategy.Text(name), strategy.Text(article), strategy.Num(measured, "%.1f "+unit), ps)
	}
	row("uncompressed (level 1), peak", "17.37 Mbit/s", l1.sum.KbpsPeak/1000, math.NaN(), "Mbit/s")
	row("after quantization (level 5)", "80 bits/cube", l5.stats.Total.BitsPerChanged(), math.NaN(), "bits/cube")
	row("relative index (level 11)", "5.5 bits", l11.stats.Total.BitsPerIndex(), p11.stats.Total.BitsPerIndex(), "bits")
	row("delta position (level 11)", "26.1 bits", l11.stats.Total.BitsPerPosition(), p11.stats.Total.BitsPerPosition(), "bits")
	row("delta orientation (level 11)", "23.3 bits", l11.stats.Total.BitsPerOrientation(), p11.stats.Total.BitsPerOrientation(), "bits")
	row("per changed cube (level 11)", "≈ 58 bits", l11.stats.Total.BitsPerChanged(), p11.stats.Total.BitsPerChanged(), "bits")
	row("all at rest (level 11)", "≈ 15 kbit/s", idle, math.NaN(), "kbit/s")
	row("katamari average (level 11)", "< 256 kbit/s", l11.sum.AvgWireKbps(), p11.sum.AvgWireKbps(), "kbit/s")
	row("katamari peak (level 11)", "-", l11.sum.KbpsPeak, p11.sum.KbpsPeak, "kbit/s")
	age := l11.stats.Total.MeanBaselineAge()
	t.Notef("Per-field figures average every field sent (absolute fallbacks included). Baseline age on this link: %.1f frames on average", age)
	t.Note("(about one round trip); the older the baseline, the further cubes have moved and the larger their deltas.")
	return b.Print(t)
}
