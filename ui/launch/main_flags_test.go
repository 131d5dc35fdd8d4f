package launch

import (
	"errors"
	"flag"
	"io"
	"math"
	"strings"
	"testing"

	"netcubes/assets"
	"netcubes/cubes"
	"netcubes/internal/cliutil"
	"netcubes/talk"
	"netcubes/ui"
)

// FuzzParseFlags: flags are input too. Any command line either gives
// options within every bound (window size, text scale, finite link
// numbers, a strategy of the list) or one short line of error, never a
// panic. Arguments are the input split at NUL bytes. The parser is kept off
// the file system: scripts are the built-in ones only, and any -record path
// passes the check.
func FuzzParseFlags(f *testing.F) {
	builtinOnly := func(name string) (*cubes.Script, error) {
		if _, ok := assets.Script(name); ok {
			return cubes.LoadScript(name)
		}
		return nil, errors.New("not a built-in script (the fuzz target reads no files)")
	}
	loadTrack = func(name string) (*talk.Track, error) {
		_, isScript := assets.Script(name)
		if _, isTrack := assets.Track(name); isScript || isTrack {
			return talk.LoadWith(name, builtinOnly)
		}
		return nil, errors.New("not a built-in script (the fuzz target reads no files)")
	}
	checkRecordPath = func(string) error { return nil }
	checkCapture = func(ui.Capture) error { return nil }
	for _, seed := range []string{
		"",
		"-strategy\x00statesync\x00-preset\x00mobile\x00-budget\x00512",
		"-width\x0020000\x00-height\x0020000",
		"-text-scale\x00NaN",
		"-latency\x00+Inf\x00-loss\x0050",
		"-cap\x00256\x00-preset\x00congested",
		"-level\x0011\x00-rate\x0030\x00-render\x00hermite\x00-predict\x00off",
		"-script\x00katamari\x00-record\x00rec.txt\x00-frames\x0060\x00-screenshot\x00a.png",
		"-script\x00tour\x00-capture\x00frames\x00-video\x00clip.gif",
		"-show\x00help,priority,no-ghost",
		"-step\x003\x00-jitter-buffer\x0010\x00-smoothing\x00basic",
		"--seed=18446744073709551615\x00-mute\x00-antialias=false",
		"-h",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var args []string
		if line != "" {
			args = strings.Split(line, "\x00")
		}
		o, err := parseFlags(args, io.Discard)
		if err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return
			}
			var u ui.UsageError
			if !errors.As(err, &u) {
				t.Fatalf("%q: not a usage error: %v", args, err)
			}
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") || len(msg) > cliutil.MaxMessageBytes+len("…") {
				t.Fatalf("%q: error is not one short line: %q", args, msg)
			}
			return
		}
		if o.width < minWidth || o.width > maxWindowSide || o.height < minHeight || o.height > maxWindowSide {
			t.Fatalf("%q: window %dx%d", args, o.width, o.height)
		}
		if !(o.ui.TextScale >= 0.6 && o.ui.TextScale <= 2) {
			t.Fatalf("%q: text scale %g", args, o.ui.TextScale)
		}
		lc := o.ui.Session.Link
		for _, x := range []float64{lc.LatencyMs, lc.JitterMs, lc.LossPercent, lc.BandwidthKbps} {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				t.Fatalf("%q: link %+v", args, lc)
			}
		}
		if s := o.ui.Session; s.Start < 0 || s.Start >= len(s.Strategies) {
			t.Fatalf("%q: strategy %d of %d", args, s.Start, len(s.Strategies))
		}
		if o.ui.Frames < 0 || (o.ui.Screenshot != "" && o.ui.Frames == 0) {
			t.Fatalf("%q: frames %d, screenshot %q", args, o.ui.Frames, o.ui.Screenshot)
		}
	})
}
