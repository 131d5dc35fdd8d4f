package strategytest_test

import (
	"hash/fnv"
	"math"
	"testing"

	"netcubes/catalog"
	"netcubes/strategy/strategytest"
)

// rightHash hashes what the harness's session shows on the right and its
// figures, bit for bit.
func rightHash(h *strategytest.Harness) uint64 {
	d := fnv.New64a()
	var b [8]byte
	put := func(x float64) {
		u := math.Float64bits(x)
		for k := range b {
			b[k] = byte(u >> (8 * k))
		}
		d.Write(b[:])
	}
	for _, c := range h.Session().RightView().Cubes {
		put(c.Position[0])
		put(c.Position[1])
		put(c.Position[2])
		put(c.Orientation.W)
	}
	m := h.Session().Metrics()
	put(m.PosRMSCm)
	put(m.ShownFrame)
	put(float64(m.Rejected))
	put(float64(m.RejectedBack))
	put(m.SentKbps)
	return d.Sum64()
}

// TestRunIsDeterministic: an input gives the same result whatever ran
// before it, so a crasher the fuzzer saves reproduces from its input alone.
func TestRunIsDeterministic(t *testing.T) {
	h := strategytest.New(t, strategytest.Config{Strategies: catalog.All()})
	seeds := h.Seeds()
	if len(seeds) < 6 {
		t.Fatalf("%d seeds", len(seeds))
	}
	first := make([]uint64, len(seeds))
	for k, in := range seeds {
		in.Warm, in.After = 3, 3
		h.Run(t, in)
		first[k] = rightHash(h)
	}
	// Again, in reverse order and with other inputs in between.
	for k := len(seeds) - 1; k >= 0; k-- {
		other := seeds[(k+1)%len(seeds)]
		other.Seq += 5
		h.Run(t, other)
		in := seeds[k]
		in.Warm, in.After = 3, 3
		h.Run(t, in)
		if got := rightHash(h); got != first[k] {
			t.Fatalf("seed %d (strategy %d, frame %d): hash %x, first run %x", k, in.Strategy, in.Frame, got, first[k])
		}
	}
}

// BenchmarkRun measures one fuzz input per strategy (Warp, warm ticks,
// the packet, ticks after): the cost that bounds executions per second.
func BenchmarkRun(b *testing.B) {
	h := strategytest.New(b, strategytest.Config{Strategies: catalog.All()})
	for i, id := range catalog.IDs() {
		b.Run(id, func(b *testing.B) {
			var in strategytest.Input
			for _, s := range h.Seeds() {
				if int(s.Strategy) == i && !s.ToLeft {
					in = s
				}
			}
			in.Warm, in.After = 1, 1
			b.ReportAllocs()
			for b.Loop() {
				h.Run(b, in)
			}
		})
	}
}
