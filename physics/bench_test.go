package physics

// Benchmarks for the three situations the demo lives in. Run with
//
//	go test -run XXX -bench . -count 5 -cpu 1 ./physics/
//
// and compare medians: on a shared machine single runs are noisy. Each
// reports ms/step (one Step on one core; the step uses no goroutines) and
// allocations. Goals: GridAsleep ≤ 0.1 ms, KatamariPile ≤ 2 ms,
// AllAwake ≤ 6 ms.

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func reportStep(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/step")
}

// BenchmarkGridAsleep: the 901-body world at rest, everything asleep.
func BenchmarkGridAsleep(b *testing.B) {
	w := restingGrid(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Step()
	}
	b.StopTimer()
	if n := w.Stats().AwakeBodies; n != 0 {
		b.Fatalf("%d bodies awake", n)
	}
	reportStep(b)
}

// BenchmarkKatamariPile: the player with a ball of cubes pulled towards its
// centre (the game's katamari force), the rest of the grid asleep.
func BenchmarkKatamariPile(b *testing.B) {
	w, player := katamariWorld(b, 170, 120)
	if n := pileCount(w, player, 2.2); n < 150 {
		b.Fatalf("only %d cubes in the pile", n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		katamariPull(w, player)
		w.Step()
	}
	b.StopTimer()
	b.ReportMetric(float64(w.Stats().AwakeBodies), "awake")
	b.ReportMetric(float64(w.Stats().ContactPoints), "points")
	b.ReportMetric(float64(w.Stats().Constraints), "manifolds")
	reportStep(b)
}

// blast gives every body a velocity kick in a direction that varies from
// cube to cube (a fixed hash of its index, so runs repeat), mostly
// horizontal with a little lift, so neighbours run into each other and
// the whole grid tumbles and collides.
func blast(tb testing.TB, w *World) {
	for i := 0; i < w.bodyCount(); i++ {
		id := BodyID(i)
		// A direction from the index's hash, normalized with sqrt only
		// (no sin or cos), so the kick is the same bits on every CPU.
		h := uint32(i)*2654435761 + 12345
		x, y := float64(int32(h&0xffff)-0x8000), float64(int32(h>>16)-0x8000)
		l := math.Sqrt(float64(x*x)+float64(y*y)) + 1
		dv := vec3{float64(5*x) / l, float64(5*y) / l, 3}
		if err := w.applyLinearImpulse(id, scale(dv, w.Mass(id)).mgl()); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkAllAwake: every body awake and colliding after a blast.
func BenchmarkAllAwake(b *testing.B) {
	w := restingGrid(b)
	blast(b, w)
	for i := 0; i < 30; i++ { // let them collide
		w.Step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%60 == 0 {
			b.StopTimer()
			blast(b, w) // keep everything moving
			b.StartTimer()
		}
		w.Step()
	}
	b.StopTimer()
	b.ReportMetric(float64(w.Stats().AwakeBodies), "awake")
	b.ReportMetric(float64(w.Stats().ContactPoints), "points")
	reportStep(b)
}

// BenchmarkStateHash: hashing the 901-body state.
func BenchmarkStateHash(b *testing.B) {
	w := gridWorld(b, DefaultConfig(), mgl64.Vec3{0, 0, 2})
	b.ReportAllocs()
	b.ResetTimer()
	var h uint64
	for i := 0; i < b.N; i++ {
		h ^= w.StateHash()
	}
	_ = h
}
