package snapshot

import (
	"fmt"

	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// The original demos' modes, on an entry's sub-mode keys once OriginalKey
// switches to them: the snapshot demo's six on the interpolation entry
// (its render modes are then on I alone), the compression demo's six on
// the compression entry (its levels come back on `[`/`]` with the key
// again). Each mode carries its link conditions, as lockstep's do
// (strategy.LinkChooser): the session applies them, and gives the
// presenter's links back when the key switches to the entry's own
// sub-modes again or another strategy is selected.
//
// The snapshot demo's modes send the uncompressed snapshot (level 1, with
// velocity) and play it back 350 ms late at 10 pps, as the original did
// (our default delay at 10 Hz is the same). The compression demo's send 60
// pps over 50 ms one way, ±1 frame of jitter and 5 % loss, played back 50
// ms late: three ticks, two less than our default at 60 Hz, so each mode
// sets a delay nudge of −2 ticks (the Mode line shows it).

// OriginalKey switches an entry's `[`/`]` between its own sub-modes (the
// render modes, the levels) and the original demo's six modes.
const OriginalKey = "F2"

// OriginalMode is one of an original demo's modes: the settings it sets
// (send rate, render mode, level, delay nudge, at-rest flag) and the link
// conditions.
type OriginalMode struct {
	Name   string
	Rate   Rate
	Render RenderMode
	Level  Level
	// DelayNudgeTicks is the mode's nudge of the default delay.
	DelayNudgeTicks int
	// NoAtRestFlag: level 3 without the at-rest bit (Config.AtRestFlag
	// off), the compression demo's mode 3.
	NoAtRestFlag bool
	Link         link.Config
	// Demo names the original demo the mode is from when it is not the
	// list's own (the delta demo's, after the compression demo's), "".
	Demo string
	// NoPrediction turns off the player prediction of delta baselines
	// (beyond the articles): the delta demo had none.
	NoPrediction bool
}

// twoFrames is the snapshot demo's jitter, ±2 frames at 60 Hz, in ms.
const twoFrames = 2 * 1000.0 / wire.TicksPerSecond

// OriginalModes are the snapshot demo's six modes in `]` order, as the
// original set them: no latency; ±2 frames of jitter from mode 2; 5 % loss
// from mode 4.
var OriginalModes = []OriginalMode{
	{Name: "60 pps", Rate: Rate60, Render: RenderLatest, Level: Uncompressed},
	{Name: "60 pps with jitter", Rate: Rate60, Render: RenderLatest, Level: Uncompressed, Link: link.Config{JitterMs: twoFrames}},
	{Name: "10 pps", Rate: Rate10, Render: RenderLatest, Level: Uncompressed, Link: link.Config{JitterMs: twoFrames}},
	{Name: "linear interpolation at 10 pps", Rate: Rate10, Render: RenderLinear, Level: Uncompressed, Link: link.Config{JitterMs: twoFrames, LossPercent: 5}},
	{Name: "hermite interpolation at 10 pps", Rate: Rate10, Render: RenderHermite, Level: Uncompressed, Link: link.Config{JitterMs: twoFrames, LossPercent: 5}},
	{Name: "hermite extrapolation at 10 pps", Rate: Rate10, Render: RenderHermiteAhead, Level: Uncompressed, Link: link.Config{JitterMs: twoFrames, LossPercent: 5}},
}

// compressionLink is the compression demo's link in every mode: 50 ms one
// way (100 ms round trip), ±1 frame of jitter, 5 % loss.
var compressionLink = link.Config{LatencyMs: 50, JitterMs: 1000.0 / wire.TicksPerSecond, LossPercent: 5}

// compressionNudge takes our default delay at 60 Hz (5 ticks) to the
// compression demo's 50 ms playout delay (3 ticks).
const compressionNudge = -2

// CompressionModes are the compression demo's six modes in `]` order, each
// as the level that sends what it sends: hermite while the snapshot
// carries velocity, linear from mode 5 on. Mode 3 is level 3 without its
// at-rest bit, which mode 4 adds.
var CompressionModes = []OriginalMode{
	compressionMode("uncompressed", Uncompressed, RenderHermite, false),
	compressionMode("orientation", SmallestThree, RenderHermite, false),
	compressionMode("linear velocity", BoundedVelocity, RenderHermite, true),
	compressionMode("at rest flag", BoundedVelocity, RenderHermite, false),
	compressionMode("no velocity", NoVelocity, RenderLinear, false),
	compressionMode("position", BoundedPosition, RenderLinear, false),
}

// DeltaModes are the delta demo's five modes in `]` order, after the
// compression demo's six on the compression entry (modes 7-11 of its F2
// list), each as the level that sends what it sends: not changed (level 6,
// against the acked baseline, or the initial state before the first ack),
// changed index (7), relative index (8), relative position (9), relative
// orientation (10); linear interpolation, 60 pps, without the player
// prediction of baselines (beyond the articles). The original's delta
// demo also sent a position-changed and an orientation-changed bit with
// every changed cube from its first mode; here they come at level 11, in
// the article's order. Its link is the compression demo's: its code sets
// 5 ms one way beside a comment that asks for a 100 ms round trip
// ("IMPORTANT! Otherwise delta compression is too easy!"), the compression
// demo's 50 ms one way, which is what it is here, with the same jitter,
// loss and 50 ms playout delay.
var DeltaModes = []OriginalMode{
	deltaMode("not changed", DeltaBaseline),
	deltaMode("changed index", ChangedIndices),
	deltaMode("relative index", RelativeIndices),
	deltaMode("relative position", DeltaPosition),
	deltaMode("relative orientation", DeltaOrientation),
}

// deltaMode is a delta demo's mode: a compression demo's mode at level l,
// linear, named for its list.
func deltaMode(name string, l Level) OriginalMode {
	m := compressionMode(name, l, RenderLinear, false)
	m.Demo, m.NoPrediction = deltaDemo, true
	return m
}

// deltaDemo names the delta demo's modes on the network line and the
// Mode line.
const deltaDemo = "delta demo"

// compressionEntryModes is the compression entry's F2 list: the
// compression demo's six, then the delta demo's five.
var compressionEntryModes = append(append([]OriginalMode(nil), CompressionModes...), DeltaModes...)

// compressionMode is a compression demo's mode: what every one shares
// (60 pps, its delay, its link) and the level and render mode it sets.
func compressionMode(name string, l Level, r RenderMode, noAtRestFlag bool) OriginalMode {
	return OriginalMode{Name: name, Rate: Rate60, Render: r, Level: l, DelayNudgeTicks: compressionNudge,
		NoAtRestFlag: noAtRestFlag, Link: compressionLink}
}

// config is c with the mode's settings.
func (m OriginalMode) config(c Config) Config {
	c.Rate, c.Render, c.Level, c.DelayNudgeTicks = m.Rate, m.Render, m.Level, m.DelayNudgeTicks
	c.AtRestFlag = !m.NoAtRestFlag
	if m.NoPrediction {
		c.PlayerPrediction = false
	}
	return c
}

// originals is the entry's list of the original demo's modes, and the
// name its modes' links go by on the network line ("set by snapshot demo
// mode 4", "set by compression mode 4": "compression demo mode 4" does not
// fit the column).
func (st *Strategy) originals() ([]OriginalMode, string) {
	if st.sub == subLevel {
		return compressionEntryModes, "compression"
	}
	return OriginalModes, "snapshot demo"
}

// Original is the original demo's mode the strategy is in (1-6), or 0 on
// its own sub-modes.
func (st *Strategy) Original() int { return st.orig.Shown }

// SetOriginal puts the strategy in its original demo's mode n (1-6) with
// its settings, or back on its own sub-modes (0) with the settings it had
// before the first original mode.
func (st *Strategy) SetOriginal(n int) {
	modes, _ := st.originals()
	if n < 0 || n > len(modes) {
		return
	}
	switch {
	case n == 0 && st.orig.Shown > 0:
		st.cfg = st.beforeOriginal
	case n > 0 && st.orig.Shown == 0:
		st.beforeOriginal = st.cfg
	}
	st.orig.Shown = n
	if n > 0 {
		st.cfg = modes[n-1].config(st.cfg)
	}
}

// originalHelp is the switch key's line in the help, which lists the keys
// of both entries once.
const originalHelp = "[ ] walk the original demo's modes / the render modes (1) or the levels (2)"

// originalControl is the key that switches between the two lists.
func (st *Strategy) originalControl() strategy.Control {
	own := "render modes"
	if st.sub == subLevel {
		own = "levels"
	}
	return st.orig.Control(OriginalKey, originalHelp, own, st.SetOriginal)
}

// stepOriginal steps the original mode by dir, wrapping, and says what it
// is now.
func (st *Strategy) stepOriginal(dir int) string {
	st.SetOriginal(st.orig.Step(dir))
	m := st.originalMode()
	return fmt.Sprintf("original mode %d: %s · %s", st.orig.Shown, st.originalName(), linkWords(m.Link))
}

// originalName is the shown mode's name, with its demo and number in it
// when it is not the list's own ("delta demo 2: changed index").
func (st *Strategy) originalName() string {
	m := st.originalMode()
	if m.Demo == "" {
		return m.Name
	}
	return fmt.Sprintf("%s %d: %s", m.Demo, st.demoNumber(), m.Name)
}

// demoNumber is the shown mode's number in its own demo: the delta
// demo's count from 1 after the compression demo's six.
func (st *Strategy) demoNumber() int {
	modes, _ := st.originals()
	m := modes[st.orig.Shown-1]
	n := 0
	for _, o := range modes[:st.orig.Shown] {
		if o.Demo == m.Demo {
			n++
		}
	}
	return n
}

// linkWords describes an original mode's link for the note.
func linkWords(c link.Config) string {
	out := ""
	if c.LatencyMs > 0 {
		out = fmt.Sprintf("%.0f ms one way, ", c.LatencyMs)
	}
	switch {
	case c.LossPercent > 0:
		return out + fmt.Sprintf("jitter ±%.0f ms, %.0f %% loss", c.JitterMs, c.LossPercent)
	case c.JitterMs > 0:
		return out + fmt.Sprintf("jitter ±%.0f ms", c.JitterMs)
	case out != "":
		return out[:len(out)-2]
	}
	return "perfect link"
}

// originalMode is the mode shown (st.orig.Shown > 0).
func (st *Strategy) originalMode() OriginalMode {
	modes, _ := st.originals()
	return modes[st.orig.Shown-1]
}

// ChosenLink implements strategy.LinkChooser: the original mode's link,
// while the strategy is in one.
func (st *Strategy) ChosenLink() (link.Config, string, bool) {
	if st.orig.Shown == 0 {
		return link.Config{}, "", false
	}
	_, demo := st.originals()
	if m := st.originalMode(); m.Demo != "" {
		return m.Link, fmt.Sprintf("%s mode %d", m.Demo, st.demoNumber()), true
	}
	return st.originalMode().Link, fmt.Sprintf("%s mode %d", demo, st.orig.Shown), true
}

// originalModeLine is the Mode line's head in an original mode: its
// number and name, and whether a key has since changed what the mode set.
func (st *Strategy) originalModeLine() string {
	m := st.originalMode()
	out := fmt.Sprintf("original mode %d: %s", st.orig.Shown, st.originalName())
	if m.config(st.cfg) != st.cfg {
		out += " (changed by hand)"
	}
	return out
}
