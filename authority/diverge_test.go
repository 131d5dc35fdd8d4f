package authority

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/link"
)

// divergeRun plays two players pushing the same pile of a 145-cube world
// for 480 ticks over a 50 ms link at step 5, the players' machines in
// divergence mode m; it returns the corrections the machines took (states
// that moved a cube more than 1 cm), their RMS error against the host (cm,
// over the run), and the strategy's mode line.
func divergeRun(t *testing.T, m diverge.Mode, each func(st *Strategy)) (uint64, float64, string) {
	s, st := session(t, 12, 2, link.Config{LatencyMs: 50}, func(x *Settings) { x.Step, x.Divergence = StepReturn, m })
	in := func(f, p int) cubes.Input {
		if f < 60 {
			return cubes.Input{}
		}
		if p == 0 {
			return cubes.Input{Katamari: true, Left: f%120 < 60, Up: f%120 >= 60}
		}
		return cubes.Input{Left: true}
	}
	var sq float64
	var n int
	drive(s, 480, in, func(int) {
		for _, mc := range st.room.machines[:2] {
			e := machineErr(mc, s.Left())
			sq += e * e
			n++
		}
		if each != nil {
			each(st)
		}
	})
	var corr uint64
	for _, mc := range st.room.machines[:2] {
		corr += mc.stats.Corrections
	}
	return corr, 100 * math.Sqrt(sq/float64(max(n, 1))), st.Mode()
}

// Divergence on the players' machines: on the host's own machine every
// machine simulates exactly what the host does, so the updates it hears
// about cubes it does not own move them only by what the latency changed;
// on another machine every contact comes out a little differently, and the
// updates pull the cubes back: more corrections and a larger error against
// the host. The mode line says which machine. (Float noise is measured and
// logged, not judged: a micrometre's rounding changes which contacts the
// pile settles on, and a run can come out calmer.)
func TestAuthorityDivergence(t *testing.T) {
	var pops [diverge.NumModes]uint64
	var errCm [diverge.NumModes]float64
	for m := diverge.Off; m < diverge.NumModes; m++ {
		p, e, mode := divergeRun(t, m, nil)
		pops[m], errCm[m] = p, e
		t.Logf("%-16s %4d corrections > 1 cm, %.2f cm RMS against the host · %s", m, p, e, mode)
		if (m != diverge.Off) != strings.Contains(mode, "machines: "+m.String()) {
			t.Errorf("%s: mode line %q", m, mode)
		}
	}
	if pops[diverge.Machine] <= pops[diverge.Off] || errCm[diverge.Machine] <= errCm[diverge.Off] {
		t.Errorf("another machine: %d corrections, %.2f cm; the host's machine: %d, %.2f cm: want more of both", pops[diverge.Machine], errCm[diverge.Machine], pops[diverge.Off], errCm[diverge.Off])
	}
}

// A diverging run repeats bit for bit whatever GOMAXPROCS.
func TestAuthorityDivergenceDeterministic(t *testing.T) {
	run := func(procs int) []uint64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out []uint64
		divergeRun(t, diverge.Noise, func(st *Strategy) {
			out = append(out, st.room.machines[0].w.StateHash()^st.room.machines[1].w.StateHash()*31)
		})
		return out
	}
	a, b := run(1), run(4)
	for f := range a {
		if a[f] != b[f] {
			t.Fatalf("tick %d: hash %x with GOMAXPROCS 1, %x with 4", f, a[f], b[f])
		}
	}
}
