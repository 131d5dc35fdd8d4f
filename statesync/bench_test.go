package statesync

import (
	"slices"
	"testing"
	"time"

	"netcubes/cubes"
	"netcubes/link"
)

// Benchmarks of state synchronization. Run with
//
//	go test -run '^$' -bench Strategy -benchtime 1x -count 3 ./game/
//
// BenchmarkStateSyncFrame runs the whole katamari script once per
// iteration and times every session step (the left world, quantizing,
// prioritizing, encoding, the link, decoding, the right world and the
// metrics: everything a state sync frame costs), reporting the median, the
// 99th percentile and the worst step in ms. The machine is shared, so the
// worst figure is noisy; compare medians. Steps 5 and 6 differ only by
// "quantize both sides", which shows its cost.

func BenchmarkStateSyncFrame(b *testing.B) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		b.Fatal(err)
	}
	for _, step := range []int{5, 6, 8} {
		b.Run(StepName(step), func(b *testing.B) {
			times := make([]time.Duration, 0, sc.Length*b.N)
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				s, _ := stateSyncSession(b, link.PresetIntercontinental.Config(), step)
				b.StartTimer()
				for f := 0; f < sc.Length; f++ {
					t0 := time.Now()
					s.Step(sc.InputAt(f))
					times = append(times, time.Since(t0))
				}
			}
			b.StopTimer()
			slices.Sort(times)
			ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
			b.ReportMetric(ms(times[len(times)/2]), "median-ms")
			b.ReportMetric(ms(times[len(times)*99/100]), "p99-ms")
			b.ReportMetric(ms(times[len(times)-1]), "worst-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkStateSyncQuantize measures one "quantize both sides" pass over a
// world in the middle of the katamari (a rolling ball, the grid asleep):
// what each side pays per tick.
func BenchmarkStateSyncQuantize(b *testing.B) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		b.Fatal(err)
	}
	s, _ := stateSyncSession(b, link.Config{}, 6)
	for f := 0; f < 600; f++ {
		s.Step(sc.InputAt(f))
	}
	w := s.Left()
	var z quantizer
	z.reset(w.NumCubes())
	z.run(w, true)
	b.ReportAllocs()
	for b.Loop() {
		// Invalidate what a step would have moved: the awake cubes.
		for i := range z.valid {
			if w.Physics().IsAwake(w.BodyID(i)) {
				z.valid[i] = false
			}
		}
		z.run(w, true)
	}
	b.ReportMetric(float64(w.Physics().Stats().AwakeBodies), "awake")
}
