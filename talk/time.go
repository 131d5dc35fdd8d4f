package talk

import (
	"fmt"
	"strconv"
	"strings"

	"netcubes/wire"
)

// Times in a track are frames of the simulation (1/60 s ticks) counted
// from the track's start: "720", "12s", "12.5s" or "0:12" (minutes and
// seconds, "1:02.5" too). Seconds round to the nearest frame, so a time
// written with two decimals ("12.35s") names one frame exactly. A command
// may also be placed relative to the command before it: "+5s".

// MaxFrames bounds every time and duration (a day at 60 Hz), so a typo
// cannot ask for an absurd run.
const MaxFrames = 24 * 60 * 60 * wire.TicksPerSecond

// timeHelp is what a bad time is told to look like.
const timeHelp = "want frames (720), seconds (12s) or minutes:seconds (0:12)"

// parseTime reads a time or a duration.
func parseTime(w string) (int, error) {
	bad := func() (int, error) { return 0, fmt.Errorf("bad time %s: %s", quote(w), timeHelp) }
	if w == "" || strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+") {
		return bad()
	}
	var secs float64
	switch {
	case strings.HasSuffix(w, "s"):
		x, err := parseDecimal(strings.TrimSuffix(w, "s"))
		if err != nil {
			return bad()
		}
		secs = x
	case strings.Contains(w, ":"):
		m, s, _ := strings.Cut(w, ":")
		mins, err := strconv.Atoi(m)
		if err != nil || mins < 0 || len(s) < 2 || s[0] < '0' || s[0] > '5' {
			return bad()
		}
		x, err := parseDecimal(s)
		if err != nil || x >= 60 {
			return bad()
		}
		secs = float64(float64(mins)*60) + x
	default:
		n, err := strconv.Atoi(w)
		if err != nil || n < 0 {
			return bad()
		}
		if n > MaxFrames {
			return 0, fmt.Errorf("time %s is beyond the limit of 24 h", quote(w))
		}
		return n, nil
	}
	if secs > MaxFrames/wire.TicksPerSecond {
		return 0, fmt.Errorf("time %s is beyond the limit of 24 h", quote(w))
	}
	return int(float64(secs*wire.TicksPerSecond) + 0.5), nil
}

// parseDecimal reads a plain decimal number ("12", "12.35"): digits, at
// most one point, no sign, no exponent.
func parseDecimal(s string) (float64, error) {
	if s == "" || s == "." || len(s) > 16 {
		return 0, strconv.ErrSyntax
	}
	for i, c := range s {
		if c == '.' && strings.IndexByte(s[:i], '.') < 0 {
			continue
		}
		if c < '0' || c > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	return strconv.ParseFloat(s, 64)
}

// parseDuration reads a duration (a time that must be more than 0).
func parseDuration(w string) (int, error) {
	n, err := parseTime(w)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, fmt.Errorf("duration %s is zero: want at least one frame", quote(w))
	}
	return n, nil
}

// isTime reports whether w looks like a time (so a line that starts with
// it is on the timeline): a digit first, or "+" and a digit.
func isTime(w string) bool {
	w = strings.TrimPrefix(w, "+")
	return w != "" && w[0] >= '0' && w[0] <= '9'
}

// Clock writes frame f as minutes and seconds: "1:02.5", "0:12".
func Clock(f int) string {
	if f < 0 {
		return "-" + Clock(-f)
	}
	tenths := (f*10 + wire.TicksPerSecond/2) / wire.TicksPerSecond
	m, s, t := tenths/600, tenths/10%60, tenths%10
	if t == 0 {
		return fmt.Sprintf("%d:%02d", m, s)
	}
	return fmt.Sprintf("%d:%02d.%d", m, s, t)
}

// Seconds writes a duration in frames as seconds when it is a whole
// number of hundredths ("2.5s", exact on reading back), else as frames.
func Seconds(n int) string {
	if (n*100)%wire.TicksPerSecond == 0 {
		return strconv.FormatFloat(float64(n)/wire.TicksPerSecond, 'f', -1, 64) + "s"
	}
	return strconv.Itoa(n)
}
