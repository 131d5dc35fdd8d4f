package talk

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"netcubes/cubes"
	"netcubes/wire"
)

// WriteTo writes the track in the text format ParseWith reads: the setup
// lines, then the timeline (commands and every player's key ranges in
// time order, each command with its time in minutes and seconds as a
// comment), then "end N". Times are written as frames, so a recording
// reads back frame for frame.
func (t *Track) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %d frames (%s at 60 Hz)\n", t.Name, t.Length, Clock(t.Length))
	for _, c := range t.Setup {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	type line struct {
		at, order int
		text      string
	}
	var lines []line
	for i, e := range t.Events {
		text := fmt.Sprintf("%-12d %s", e.At, e.Cmd.String())
		lines = append(lines, line{e.At, i, fmt.Sprintf("%-48s # %s", text, Clock(e.At))})
	}
	n := len(lines)
	for p := range cubes.MaxPlayers {
		prefix := ""
		rs := t.Input.Ranges
		if p > 0 {
			prefix = fmt.Sprintf("p%d ", p+1)
			rs = t.Input.Others[p-1]
		}
		for _, r := range rs {
			span := strconv.Itoa(r.From)
			if r.To != r.From {
				span += "-" + strconv.Itoa(r.To)
			}
			n++
			lines = append(lines, line{r.From, n, fmt.Sprintf("%s%-12s %s", prefix, span, r.Input)})
		}
	}
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].at != lines[j].at {
			return lines[i].at < lines[j].at
		}
		return lines[i].order < lines[j].order
	})
	for _, l := range lines {
		b.WriteString(strings.TrimRight(l.text, " "))
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "end %d\n", t.Length)
	k, err := io.WriteString(w, b.String())
	return int64(k), err
}

// DefaultCaptionTicks is how long a caption stays without a duration: long
// enough to read two lines aloud.
const DefaultCaptionTicks = 5 * wire.TicksPerSecond

// CaptionTicks is a caption's duration (n, or the default when 0).
func CaptionTicks(n int) int {
	if n > 0 {
		return n
	}
	return DefaultCaptionTicks
}
