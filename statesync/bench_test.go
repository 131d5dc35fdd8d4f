package statesync

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/cputime"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
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
	z.run(w, true, false)
	b.ReportAllocs()
	for b.Loop() {
		// Invalidate what a step would have moved: the awake cubes.
		for i := range z.valid {
			if w.Physics().IsAwake(w.BodyID(i)) {
				z.valid[i] = false
			}
		}
		z.run(w, true, false)
	}
	b.ReportMetric(float64(w.Physics().Stats().AwakeBodies), "awake")
}

// BenchmarkStateSyncSend64 is one client's send (send.go: the part of a
// server's tick that grows with every client) in a session of 64 thin
// clients and 8 players, the scale bench's largest (go run ./cmd/bench
// -clients 64), at step 8 and 256 kbit/s, 300 ticks into the katamari: a
// ball rolling, most of the grid at rest, every cube competing for a
// packet whose header carries 1,536 bits of inputs. Each iteration is the
// next client's sender sending again at that frame, as the next tick of a
// world that stood still for one (the packet goes to a buffer, not the
// link), after which its accumulator and last-sent frames are put back:
// every iteration repeats one of 64 real choices.
func BenchmarkStateSyncSend64(b *testing.B) {
	const clients = 64
	sc := katamari(b)
	cfg := game.DefaultConfig()
	cfg.Strategies = []strategy.Strategy{New(DefaultConfig())}
	cfg.Link = link.PresetIntercontinental.Config()
	cfg.Clients = clients
	cfg.World.Players = cubes.MaxPlayers
	cfg.Thin = true
	s, err := game.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	for f := range 300 {
		s.Step(sc.InputAt(f))
	}
	ctx := &bufferContext{Context: s.Context(), w: wire.NewWriteStream(nil)}
	type saved struct {
		acc      []float64
		lastSent []int
	}
	var sts [clients]*Strategy
	var keep [clients]saved
	for k := range clients {
		sts[k] = s.ClientStrategy(k).(*Strategy)
		p := sts[k].snd.prio
		acc := make([]float64, p.Len())
		for i := range acc {
			acc[i] = p.Value(i)
		}
		keep[k] = saved{acc, slices.Clone(sts[k].snd.lastSent)}
	}
	// The thread's CPU time too: on a shared machine the wall time of a
	// send grows with whatever else runs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	updates := 0
	b.ReportAllocs()
	for k := 0; b.Loop(); k = (k + 1) % clients {
		st := sts[k]
		t0, _ := cputime.Thread()
		st.snd.send(st, ctx)
		t1, _ := cputime.Thread()
		b.StopTimer()
		cpu += t1 - t0
		updates += st.Stats().LastUpdates
		for i, v := range keep[k].acc {
			st.snd.prio.Set(i, v)
		}
		copy(st.snd.lastSent, keep[k].lastSent)
		b.StartTimer()
	}
	b.ReportMetric(float64(updates)/float64(b.N), "updates/packet")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// bufferContext is client 0's context of a session, writing the packets
// it sends to a buffer instead of its link.
type bufferContext struct {
	strategy.Context
	w   *wire.WriteStream
	buf [2048]byte
}

// Send implements strategy.Context as the session's client does, without
// the link.
func (c *bufferContext) Send(p strategy.Payload) (int, error) {
	c.w.Reset(c.buf[:])
	seq := uint16(c.Frame())
	c.w.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint16(c.w, &seq); err != nil {
		return 0, err
	}
	if err := p.Serialize(c.w); err != nil {
		return 0, err
	}
	if err := c.w.SerializeAlign(); err != nil {
		return 0, err
	}
	return len(c.w.Bytes()), nil
}
