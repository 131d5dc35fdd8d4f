package rollback

import (
	"testing"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/wire"
)

// TestJoinMidRunConverges: 3 s into the katamari script on a lossy link,
// the machine joins: it receives the left's world at that frame (some
// fragments lost and sent again), waits for it showing nothing, and then
// converges on the left bit for bit, every hash compared agreeing.
func TestJoinMidRunConverges(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	lc := link.Config{LatencyMs: 60, JitterMs: 1000.0 / 60, LossPercent: 20}
	s, st := newSession(t, setup{players: 1, step: 1, delay: -1, lc: lc})
	sc := katamari(t)
	const joinAt, frames = 3 * wire.TicksPerSecond, 6 * wire.TicksPerSecond
	left := map[int]uint64{}
	waited := 0
	for f := range frames {
		if f == joinAt {
			st.Join(s.Context())
		}
		in := cubes.Input{}
		if f < sc.Length {
			in = sc.InputAt(f)
		}
		s.Step(in)
		left[s.Frame()] = s.Left().StateHash()
		if st.xj.Waiting() {
			waited++
			if s.Metrics().Valid {
				t.Fatalf("tick %d: an error measured while the world is on its way", f)
			}
		}
	}
	tr := st.transfer()
	t.Logf("the world at frame %d: %d bytes in %d fragments, %d sent; the machine waited %d ticks", tr.Frame, tr.Bytes, tr.Fragments, tr.Sent, waited)
	if !tr.Done || tr.Frame != joinAt || waited == 0 || st.xj.Base() != joinAt {
		t.Errorf("transfer done %v at frame %d, waited %d ticks, following %d", tr.Done, tr.Frame, waited, st.xj.Base())
	}
	converged(t, "joined", s, left)
}
