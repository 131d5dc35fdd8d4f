package authority

import (
	"sort"
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/link"
)

// TestJoinErrorIsTheLinks: a right that joins while its player pushes the
// pile (Restart 1.5 s in, a 145-cube world) shows, from the join on, the
// error a right that started with the world shows over the same seconds:
// the join leaves nothing behind. Under 1 cm on a link without latency;
// on a 100 ms one both are centimetres, for the reason the scheme gives:
// the right simulates the cubes it owns at once and the host learns them
// one trip later (the comments: "parts of the physics run on the machine
// that wants zero latency over that part"), so the left's world, which the
// error compares with, is always that far behind for them.
func TestJoinErrorIsTheLinks(t *testing.T) {
	t.Parallel() // six session runs of their own
	sc, err := cubes.ParseScript("ball", strings.NewReader("0-59 -\n60-239 up katamari\n240-419 left katamari\n420-479 blow\nend 600\n"))
	if err != nil {
		t.Fatal(err)
	}
	const at = 90
	run := func(lc link.Config, join bool) float64 {
		s, _ := session(t, 12, 1, lc, func(*Settings) {})
		var rms []float64
		for f := range 600 {
			if f == at && join {
				s.Restart()
			}
			s.Step(sc.InputAt(f))
			if m := s.Metrics(); f > at && m.Valid && m.ErrorMeasured() {
				rms = append(rms, m.PosRMSCm)
			}
		}
		sort.Float64s(rms)
		return rms[len(rms)/2]
	}
	for _, tc := range []struct {
		name          string
		lc            link.Config
		under1, over1 bool // what the run without a join must show
	}{
		{"no latency, 5 % loss", link.Config{LossPercent: 5}, true, false},
		{"25 ms", link.Config{LatencyMs: 25}, false, false},
		{"100 ms", link.Config{LatencyMs: 100}, false, true},
	} {
		joined, started := run(tc.lc, true), run(tc.lc, false)
		t.Logf("%s: median RMS after the join %.2f cm, over the same seconds without one %.2f cm", tc.name, joined, started)
		if tc.under1 && joined >= 1 {
			t.Errorf("%s: %.2f cm after the join", tc.name, joined)
		}
		if tc.over1 && started < 1 {
			t.Errorf("%s: %.2f cm without a join: the latency's error does not show", tc.name, started)
		}
		if joined > 2*started+0.1 {
			t.Errorf("%s: %.2f cm after the join, %.2f without one: the join leaves an error behind", tc.name, joined, started)
		}
	}
}
