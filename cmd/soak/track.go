package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"netcubes/catalog"
	"netcubes/control"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/talk"
	"netcubes/viewmodel"
)

// playTrack plays a talk track (-track, the built-in tour by default) to
// its end headless, through the same director as the app, nobody at the
// keys: a line per caption (when, the strategy and its mode, the caption's
// first line), then the frames, the ticks held by pauses, the NaN count,
// the largest error and the world's hash at the end. This is the tour's
// end-to-end run: the test suite plays only its first seconds.
func playTrack(out io.Writer, tr *talk.Track, seed uint64) error {
	cfg := game.DefaultConfig()
	cfg.Seed = seed
	cfg.Strategies = catalog.All()
	d, err := control.New(control.Options{Config: cfg, Preset: "perfect", Track: tr, Unattended: true})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "track %s: %s, seed %d\n", tr.Name, talk.Clock(tr.Length), seed)
	nan, maxErr, maxErrAt, last := 0, 0.0, "", ""
	for {
		if _, _, _, on := d.TrackStatus(); !on {
			break
		}
		d.Tick(cubes.Input{})
		s := d.Session()
		st := s.Strategy()
		if c, ok := d.Caption(); ok && c.Lines[0] != last {
			last = c.Lines[0]
			fmt.Fprintf(out, "  %-8s %-26s %-40s %s\n", talk.Clock(d.Frame()), st.Name(), cut(st.Mode(), 40), last)
		}
		m := s.Metrics()
		if hasNaN(s, m) {
			nan++
		}
		if m.Valid && m.PosMaxCm > maxErr {
			maxErr = m.PosMaxCm
			maxErrAt = fmt.Sprintf("%s, %s, at %s", st.ID(), st.Mode(), talk.Clock(d.Frame()))
		}
	}
	fmt.Fprintf(out, "track %s: %d frames in %d ticks, %d NaN, largest error %.1f cm (%s), world hash %016x\n",
		tr.Name, d.Frame(), d.Ticks(), nan, maxErr, maxErrAt, d.Session().Left().StateHash())
	if nan > 0 {
		return fmt.Errorf("%d ticks held a NaN or an infinity", nan)
	}
	return nil
}

// hasNaN reports whether the figures or the right's view hold a NaN or an
// infinity.
func hasNaN(s *game.Session, m *viewmodel.Metrics) bool {
	for _, x := range []float64{m.SentKbps, m.AckKbps, m.RTTms, m.Loss, m.ShownFrame, m.DelayMs, m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg, m.MaxPopCm} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return true
		}
	}
	for _, c := range s.RightView().Cubes {
		for _, x := range []float64{c.Position[0], c.Position[1], c.Position[2], c.Orientation.W} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return true
			}
		}
	}
	return false
}

// cut shortens s to n runes with "…".
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
