package snapshot

import (
	"fmt"

	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// The original snapshot demo's six modes, on the interpolation entry's
// sub-mode keys once OriginalKey switches to them (the render modes are
// then on I alone). Each mode carries its link conditions, as lockstep's
// do (strategy.LinkChooser): the session applies them, and gives the
// presenter's links back when the key switches to the render modes again
// or another strategy is selected. Every mode sends the uncompressed
// snapshot (level 1, with velocity) and plays it back 350 ms late at
// 10 pps, as the original did (our default delay at 10 Hz is the same).

// OriginalKey switches the interpolation entry's `[`/`]` between the render
// modes and the original demo's six modes.
const OriginalKey = "F2"

// OriginalMode is one of the original snapshot demo's modes: a send rate, a
// render mode and the link conditions.
type OriginalMode struct {
	Name   string
	Rate   Rate
	Render RenderMode
	Link   link.Config
}

// twoFrames is the original's jitter, ±2 frames at 60 Hz, in ms.
const twoFrames = 2 * 1000.0 / wire.TicksPerSecond

// OriginalModes are the six modes in `]` order, as the original demo set
// them: no latency; ±2 frames of jitter from mode 2; 5 % loss from mode 4.
var OriginalModes = []OriginalMode{
	{Name: "60 pps", Rate: Rate60, Render: RenderLatest},
	{Name: "60 pps with jitter", Rate: Rate60, Render: RenderLatest, Link: link.Config{JitterMs: twoFrames}},
	{Name: "10 pps", Rate: Rate10, Render: RenderLatest, Link: link.Config{JitterMs: twoFrames}},
	{Name: "linear interpolation at 10 pps", Rate: Rate10, Render: RenderLinear, Link: link.Config{JitterMs: twoFrames, LossPercent: 5}},
	{Name: "hermite interpolation at 10 pps", Rate: Rate10, Render: RenderHermite, Link: link.Config{JitterMs: twoFrames, LossPercent: 5}},
	{Name: "hermite extrapolation at 10 pps", Rate: Rate10, Render: RenderHermiteAhead, Link: link.Config{JitterMs: twoFrames, LossPercent: 5}},
}

// config is c with the mode's settings: level 1, the mode's rate and
// render mode, the default delay.
func (m OriginalMode) config(c Config) Config {
	c.Rate, c.Render, c.Level, c.DelayNudgeTicks = m.Rate, m.Render, Uncompressed, 0
	return c
}

// Original is the original demo's mode the strategy is in (1-6), or 0 on
// today's render modes.
func (st *Strategy) Original() int { return st.orig.Shown }

// SetOriginal puts the strategy in the original demo's mode n (1-6) with
// its settings, or back on the render modes (0) with the settings it had
// before the first original mode. Only the interpolation entry has the
// original's modes; others ignore it.
func (st *Strategy) SetOriginal(n int) {
	if st.sub != subRender || n < 0 || n > len(OriginalModes) {
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
		st.cfg = OriginalModes[n-1].config(st.cfg)
	}
}

// originalControl is the key that switches between the two lists.
func (st *Strategy) originalControl() strategy.Control {
	return st.orig.Control(OriginalKey, "[ ] walk the original demo's modes / the render modes", "render modes", st.SetOriginal)
}

// stepOriginal steps the original mode by dir, wrapping, and says what it
// is now.
func (st *Strategy) stepOriginal(dir int) string {
	st.SetOriginal(st.orig.Step(dir))
	m := OriginalModes[st.orig.Shown-1]
	return fmt.Sprintf("original mode %d: %s · %s", st.orig.Shown, m.Name, linkWords(m.Link))
}

// linkWords describes an original mode's link for the note.
func linkWords(c link.Config) string {
	switch {
	case c.LossPercent > 0:
		return fmt.Sprintf("jitter ±%.0f ms, %.0f %% loss", c.JitterMs, c.LossPercent)
	case c.JitterMs > 0:
		return fmt.Sprintf("jitter ±%.0f ms", c.JitterMs)
	}
	return "perfect link"
}

// ChosenLink implements strategy.LinkChooser: the original mode's link,
// while the strategy is in one.
func (st *Strategy) ChosenLink() (link.Config, string, bool) {
	if st.orig.Shown == 0 {
		return link.Config{}, "", false
	}
	return OriginalModes[st.orig.Shown-1].Link, fmt.Sprintf("snapshot demo mode %d", st.orig.Shown), true
}

// originalMode is the Mode line's head in an original mode: its number and
// name, and whether a key has since changed what the mode set.
func (st *Strategy) originalMode() string {
	m := OriginalModes[st.orig.Shown-1]
	out := fmt.Sprintf("original mode %d: %s", st.orig.Shown, m.Name)
	if m.config(st.cfg) != st.cfg {
		out += " (changed by hand)"
	}
	return out
}
