package statesync

import (
	"fmt"

	"netcubes/link"
	"netcubes/replication"
	"netcubes/strategy"
)

// The original state sync demo's six modes, on the sub-mode keys once
// OriginalKey switches to them (from today's eight-step build-up). Each
// mode carries its link, as lockstep's do (strategy.LinkChooser): the
// session applies it, and gives the presenter's links back when the key
// switches to the build-up again or another strategy is selected. The
// original held updates 5 frames in its jitter buffer, had no latency, and
// lost 10 % of the packets from mode 4 on; its packets carried at most 500
// bytes of updates (240 kbit/s), near our 256 kbit/s budget.
//
// Basic smoothing stays at the article's 0.9 per tick: the original demo's
// code used 0.975, which halves an error in 27 ticks instead of 6.6 and is
// slower than adaptive smoothing's 0.95 even for small errors, so the
// lesson the two modes exist to show (basic is too slow for large pops,
// adaptive keeps small ones gentle and fixes large ones fast) would not
// show. The HUD says so in mode 5.

// OriginalKey switches `[`/`]` between the build-up and the original
// demo's modes.
const OriginalKey = "F2"

// OriginalMode is one of the original state sync demo's modes: settings
// and link conditions.
type OriginalMode struct {
	Name     string
	Settings Settings
	Link     link.Config
}

// withSmoothing is s with smoothing m.
func withSmoothing(s Settings, m replication.SmoothingMode) Settings {
	s.Smoothing = m
	return s
}

// tenPercent is the original's loss from mode 4 on.
var tenPercent = link.Config{LossPercent: 10}

// OriginalModes are the six modes in `]` order, each as the build-up step
// that has the same switches (the priority accumulator, the budget, a
// 5-frame jitter buffer and hard snaps in every one).
var OriginalModes = []OriginalMode{
	{Name: "uncompressed", Settings: StepSettings(3)},
	{Name: "compressed", Settings: StepSettings(5)},
	{Name: "quantize both sides", Settings: StepSettings(6)},
	{Name: "packet loss", Settings: StepSettings(6), Link: tenPercent},
	{Name: "basic smoothing", Settings: withSmoothing(StepSettings(6), replication.SmoothingBasic), Link: tenPercent},
	{Name: "adaptive smoothing", Settings: StepSettings(7), Link: tenPercent},
}

// basicWhy is mode 5's line: why basic smoothing is not the original's
// 0.975.
const basicWhy = "Basic smoothing fades each correction by 0.9 a tick, the article's figure (the original's code: 0.975, slower than adaptive even for small errors, hiding the lesson): big pops after loss drag."

// original is the original demo's mode the strategy is in (1-6), or 0 on
// the build-up.
func (st *Strategy) original() int { return st.orig.Shown }

// SetOriginal puts the strategy in the original demo's mode n (1-6) with
// its settings, or back on the build-up (0) with the settings it had
// before the first original mode.
func (st *Strategy) SetOriginal(n int) {
	if n < 0 || n > len(OriginalModes) {
		return
	}
	switch {
	case n == 0 && st.orig.Shown > 0:
		st.orig.Shown = 0
		st.SetSettings(st.beforeOriginal)
		return
	case n > 0 && st.orig.Shown == 0:
		st.beforeOriginal = st.set
	}
	st.orig.Shown = n
	if n > 0 {
		st.SetSettings(OriginalModes[n-1].Settings)
	}
}

// originalControl is the key that switches between the two lists.
func (st *Strategy) originalControl() strategy.Control {
	return st.orig.Control(OriginalKey, "[ ] walk the original demo's modes / the build-up", "the build-up", st.SetOriginal)
}

// stepOriginal steps the original mode by dir, wrapping, and says what it
// is now.
func (st *Strategy) stepOriginal(dir int) string {
	st.SetOriginal(st.orig.Step(dir))
	m := OriginalModes[st.orig.Shown-1]
	l := "perfect link"
	if m.Link.LossPercent > 0 {
		l = fmt.Sprintf("%.0f %% loss", m.Link.LossPercent)
	}
	return fmt.Sprintf("original mode %d: %s · %s · the right restarts from the left's state", st.orig.Shown, m.Name, l)
}

// ChosenLink implements strategy.LinkChooser: the original mode's link,
// while the strategy is in one.
func (st *Strategy) ChosenLink() (link.Config, string, bool) {
	if st.orig.Shown == 0 {
		return link.Config{}, "", false
	}
	return OriginalModes[st.orig.Shown-1].Link, fmt.Sprintf("state sync demo mode %d", st.orig.Shown), true
}

// originalMode is the Mode line's head in an original mode: its number and
// name, and whether a key has since changed what the mode set.
func (st *Strategy) originalMode() string {
	m := OriginalModes[st.orig.Shown-1]
	out := fmt.Sprintf("original mode %d: %s", st.orig.Shown, m.Name)
	if st.set != m.Settings {
		out += " (changed by hand)"
	}
	return out
}
