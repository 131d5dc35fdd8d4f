package ui

// The browser build's note on slow ticks (platform_js.go uses it; it is
// here, untagged, so that its test runs natively).

import "fmt"

// A browser runs the simulation about three times slower than the
// desktop (WebAssembly), and some settings cost more than the 16.7 ms a
// tick may take: the 2004 prediction replaying the whole world on a long
// link does. Drawing is then not what holds the simulation back (the
// desktop's slow-drawing note says it is), so the page says what does,
// once per strategy setting, after slowTickSeconds slow seconds in a row.
const (
	slowTickMs      = 12 // a tick costing this much leaves no time to draw
	slowTickSeconds = 3
)

// slowTickWatch decides, once a second, whether to say that the ticks
// are too slow.
type slowTickWatch struct {
	run     int
	setting string // the strategy setting said last (or being watched)
	said    bool
}

// observe takes the last second's ticks reached, mean tick cost and the
// strategy setting, and returns the note to show, if any.
func (w *slowTickWatch) observe(tps, tickMs float64, setting string) string {
	if setting != w.setting {
		*w = slowTickWatch{setting: setting}
	}
	if tps >= slowTPS || tickMs < slowTickMs || w.said {
		w.run = 0
		return ""
	}
	if w.run++; w.run < slowTickSeconds {
		return ""
	}
	w.said = true
	return fmt.Sprintf("one tick of this setting costs %.0f ms in this browser (real time allows 16.7): "+
		"the simulation runs at %.0f %% of real time here; the desktop app runs it about three times faster", tickMs, 100*tps/60)
}
