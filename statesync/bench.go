package statesync

// The state synchronization section: one row per build-up step of the
// article (StepSettings) under the perfect, intercontinental
// and terrible presets, whatever -preset says (the table must always cover
// those three; -preset adds its own rows when it is another one). Each run
// plays the script with state sync active from the first frame.
//
// A second table switches state sync on 2 s into the script with a right
// that catches up (Config.JoinFromInitial; the app's right joins from one
// block of the left's world instead): it starts from the initial world
// while the left has moved on, and its solver's internal state differs
// from the left's. From the start
// both worlds are exact copies once they quantize alike (steps 6–8), so the
// first table shows zero error there; the second shows what the updates do
// when there is something to correct. Its error columns start 2 s after the
// switch, once the right has caught up.

import (
	"fmt"
	"math"

	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// BenchSections implements strategy.Benched.
func (st *Strategy) BenchSections() []strategy.BenchSection {
	return append([]strategy.BenchSection{
		{Name: "state sync build-up", Run: benchBuildUp},
		{Name: "state sync switched on at 2 s", Run: benchSwitched},
		{Name: "state sync: the original demo's modes", Run: benchOriginal},
		{Name: "state sync: the right on another machine", Run: benchDiverge},
		{Name: "state sync: relevance per client", Run: benchRelevance},
		{Name: "state sync: precision and contacts", Run: benchPrecision},
	}, adaptBenchSections()...)
}

// stateSyncPresets are the presets of the state sync tables, plus the bench's
// -preset if it is another.
func benchPresets(b strategy.Bench) []link.Preset {
	ps := []link.Preset{link.PresetPerfect, link.PresetIntercontinental, link.PresetTerrible}
	for _, p := range ps {
		if p == b.Preset() {
			return ps
		}
	}
	return append(ps, b.Preset())
}

// newBenchRun builds a session with state sync at build-up step `step`.
func newBenchRun(b strategy.Bench, p link.Preset, step int) (strategy.Run, *Strategy, error) {
	return newBenchRunWith(b, DefaultConfig(), p, step)
}

// newBenchRunWith is newBenchRun with configuration c.
func newBenchRunWith(b strategy.Bench, c Config, p link.Preset, step int) (strategy.Run, *Strategy, error) {
	st := New(c)
	s, err := b.NewRun(p.Config(), st)
	if err != nil {
		return nil, nil, err
	}
	// The step is set after the session's first Reset, as a presenter
	// changes it on a running session (the Reset quantizes the left at
	// frame 0 with the default settings, which quantize).
	st.SetStep(step)
	return s, st, nil
}

// stateSyncExtra gathers what the summary does not: the strategy's own
// averages, over the ticks that count.
type stateSyncExtra struct {
	ticks              int
	updates, bits      float64
	late, rejected     uint64
	rmsSq, rmsN        float64
	rmsMax, posMax     float64
	popMax, oldestWait float64
}

func (e *stateSyncExtra) add(s strategy.Run, st *Strategy, countErr bool) {
	ss := st.Stats()
	m := s.Metrics()
	if m.LastPacketFrame == m.Frame {
		e.ticks++
		e.updates += float64(ss.LastUpdates)
		e.bits += float64(ss.LastUpdateBits)
	}
	e.late, e.rejected = ss.LatePackets, m.Rejected
	e.oldestWait = math.Max(e.oldestWait, float64(ss.OldestUnsentTicks))
	if countErr && m.Valid {
		e.rmsSq += m.PosRMSCm * m.PosRMSCm
		e.rmsN++
		e.rmsMax = math.Max(e.rmsMax, m.PosRMSCm)
		e.posMax = math.Max(e.posMax, m.PosMaxCm)
		e.popMax = math.Max(e.popMax, m.MaxPopCm)
	}
}

// rms is the RMS over the counted ticks of the per-tick position error, cm.
func (e *stateSyncExtra) rms() float64 { return math.Sqrt(e.rmsSq / math.Max(e.rmsN, 1)) }

// perPacket is the mean number of updates in the packets that arrived.
func (e *stateSyncExtra) perPacket() float64 { return e.updates / math.Max(float64(e.ticks), 1) }

// Switched on: the right restarts benchSwitchAt into the script (from the
// initial world in the "switched on" table, from one block of the left's
// world in the original modes'), and errors count from benchSettle later
// (what the strategy leaves once caught up, not the catching up).
const benchSwitchAt, benchSettle = 2 * wire.TicksPerSecond, 2 * wire.TicksPerSecond

// playSwitchedOn plays run s switched on at benchSwitchAt.
func playSwitchedOn(b strategy.Bench, section, name string, s strategy.Run, st *Strategy) (strategy.Summary, stateSyncExtra) {
	var e stateSyncExtra
	sum := b.Play(section, name, s, func() {
		if s.Frame() == benchSwitchAt {
			s.Restart()
		}
		e.add(s, st, s.Frame() >= benchSwitchAt+benchSettle)
	})
	return sum, e
}

func benchBuildUp(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "preset"},
		strategy.Column{Head: "step"},
		strategy.Column{Head: "avg kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "peak kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "upd/packet", Unit: "updates"},
		strategy.Column{Head: "bits/upd", Unit: "bits"},
		strategy.Column{Head: "RMS err cm", Unit: "cm"},
		strategy.Column{Head: "worst RMS cm", Unit: "cm"},
		strategy.Column{Head: "max err cm", Unit: "cm"},
		strategy.Column{Head: "max pop cm", Unit: "cm"},
		strategy.Column{Head: "longest wait s", Unit: "s"},
		strategy.Column{Head: "late pkts"},
	)
	for _, p := range benchPresets(b) {
		for step := 1; step <= Steps; step++ {
			s, st, err := newBenchRun(b, p, step)
			if err != nil {
				return err
			}
			var e stateSyncExtra
			sum := b.Play("state sync", fmt.Sprintf("%s step %d", p, step), s, func() { e.add(s, st, true) })
			if e.rejected != 0 {
				return fmt.Errorf("%s step %d: %d packets rejected", p, step, e.rejected)
			}
			t.Add(strategy.Textf("%s", p), strategy.Textf("%d %s", step, StepName(step)),
				strategy.Num(sum.AvgWireKbps(), "%.1f"), strategy.Num(sum.KbpsPeak, "%.1f"),
				strategy.Num(e.perPacket(), "%.1f"), strategy.Num(e.bits/math.Max(e.updates, 1), "%.1f"),
				strategy.Num(e.rms(), "%.3f"), strategy.Num(e.rmsMax, "%.3f"),
				strategy.Num(e.posMax, "%.2f"), strategy.Num(e.popMax, "%.2f"),
				strategy.Num(e.oldestWait/wire.TicksPerSecond, "%.1f"), strategy.Uint(e.late))
		}
	}
	t.Note("RMS err: root mean square over the run of the per-tick RMS position error of all 901 cubes, right (as drawn) vs left at the frame the right shows;")
	t.Note("max pop: largest |Δright − Δleft| of any cube in one tick. Every step snaps, as the article does, but step 4, the mistake as a step of its own (it")
	t.Note("blends the simulation halfway toward each update); steps 6+ quantize both sides,")
	t.Note("which makes the right an exact copy when it starts with the left (see the next table for a right that has catching up to do).")
	t.Charts = []strategy.Chart{{
		File: "statesync-buildup", Title: "State synchronization, step by step: bandwidth and error on three links",
		X: []string{"step"}, Series: "preset",
		Panels: []strategy.Panel{
			{Y: "avg kbit/s", Label: "bandwidth", Log: true, Lines: []strategy.Line{{Value: float64(StepSettings(Steps).BandwidthKbps), Label: "the budget (steps 2+)"}}},
			{Y: "RMS err cm", Label: "position error, RMS", Log: true},
		},
	}}
	t.Tradeoff = &strategy.Tradeoff{Name: "state sync, by step", Kbps: "avg kbit/s", ErrCm: "RMS err cm",
		Label: []string{"step"}, PresetColumn: "preset",
		Lines: []strategy.Line{{Value: float64(StepSettings(Steps).BandwidthKbps), Label: "state sync's budget"}}}
	return b.Print(t)
}

func benchSwitched(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "preset"},
		strategy.Column{Head: "step"},
		strategy.Column{Head: "avg kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "RMS err cm", Unit: "cm"},
		strategy.Column{Head: "worst RMS cm", Unit: "cm"},
		strategy.Column{Head: "max err cm", Unit: "cm"},
		strategy.Column{Head: "max pop cm", Unit: "cm"},
	)
	for _, p := range benchPresets(b) {
		for _, step := range []int{3, 4, 5, 6, 7, 8} {
			// The right catches up from the initial world: this table is
			// about what the updates do with something to correct.
			c := DefaultConfig()
			c.JoinFromInitial = true
			s, st, err := newBenchRunWith(b, c, p, step)
			if err != nil {
				return err
			}
			sum, e := playSwitchedOn(b, "state sync switched on", fmt.Sprintf("%s step %d", p, step), s, st)
			t.Add(strategy.Textf("%s", p), strategy.Textf("%d %s", step, StepName(step)), strategy.Num(sum.AvgWireKbps(), "%.1f"),
				strategy.Num(e.rms(), "%.3f"), strategy.Num(e.rmsMax, "%.3f"),
				strategy.Num(e.posMax, "%.2f"), strategy.Num(e.popMax, "%.2f"))
		}
	}
	t.Note("The strategy is switched on (the right restarts from the initial world) 2 s into the script; errors count from 2 s later.")
	t.Charts = []strategy.Chart{{
		File: "statesync-switched", Title: "State synchronization switched on 2 s in: the error it leaves once caught up",
		X: []string{"step"}, Series: "preset", Bars: true,
		Panels: []strategy.Panel{
			{Y: "RMS err cm", Label: "position error, RMS", Log: true},
			{Y: "max pop cm", Label: "largest pop in one tick", Log: true},
		},
	}}
	return b.Print(t)
}

// benchOriginal runs the original demo's six modes, each on its own link
// (not the bench's preset), switched on 2 s into the script as a presenter
// does: the right joins from one block of the left's world, as in the app,
// so the rows measure each mode and its link, not a catch-up.
func benchOriginal(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "mode"},
		strategy.Column{Head: "link"},
		strategy.Column{Head: "avg kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "upd/packet", Unit: "updates"},
		strategy.Column{Head: "RMS err cm", Unit: "cm"},
		strategy.Column{Head: "worst RMS cm", Unit: "cm"},
		strategy.Column{Head: "max err cm", Unit: "cm"},
		strategy.Column{Head: "max pop cm", Unit: "cm"},
	)
	for n, om := range OriginalModes {
		st := New(DefaultConfig())
		s, err := b.NewRun(om.Link, st)
		if err != nil {
			return err
		}
		st.SetOriginal(n + 1)
		sum, e := playSwitchedOn(b, "state sync original", fmt.Sprintf("mode %d", n+1), s, st)
		l := "perfect"
		if om.Link.LossPercent > 0 {
			l = fmt.Sprintf("%.0f %% loss", om.Link.LossPercent)
		}
		t.Add(strategy.Textf("%d %s", n+1, om.Name), strategy.Text(l), strategy.Num(sum.AvgWireKbps(), "%.1f"),
			strategy.Num(e.perPacket(), "%.1f"),
			strategy.Num(e.rms(), "%.3f"), strategy.Num(e.rmsMax, "%.3f"),
			strategy.Num(e.posMax, "%.2f"), strategy.Num(e.popMax, "%.2f"))
	}
	t.Note("The original demo's modes (F2, then [ ]), each on its own link, not the bench's preset; switched on 2 s in (the right joins from one")
	t.Note("block of the left's world, as in the app: nothing to catch up, so the loss rows show the loss), errors from 2 s later.")
	t.Note("Basic smoothing fades by 0.9 a tick (the article's figure; the original's code used 0.975).")
	return b.Print(t)
}
