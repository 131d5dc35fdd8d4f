package stepcost

import (
	"testing"
	"time"

	"netcubes/cubes"
	"netcubes/physics"
)

// tickClock is a clock that advances by one millisecond at every reading,
// so each timed call measures exactly 1 ms.
func tickClock() Clock {
	var t time.Duration
	return func() time.Duration {
		t += time.Millisecond
		return t
	}
}

// TestRunGather checks the bookkeeping on a short run with a clock that
// makes every timed call 1 ms: one time per gather step, the saves' and
// restores' medians, a save's size, and a world that went on unchanged
// through the restores (the ball as a run without them).
func TestRunGather(t *testing.T) {
	const limit = 75 // 60 ticks of drop, 15 of gather
	g, err := RunGather(tickClock(), 8, 5, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Steps) != 15 {
		t.Fatalf("%d steps timed, want 15", len(g.Steps))
	}
	if g.Median() != 1 || g.P95() != 1 || g.SaveMs != 1 || g.RestMs != 1 {
		t.Errorf("median %v p95 %v save %v restore %v, want 1 ms each", g.Median(), g.P95(), g.SaveMs, g.RestMs)
	}
	if g.SaveSize <= 0 {
		t.Errorf("save size %d", g.SaveSize)
	}
	plain, err := RunGather(tickClock(), 8, 0, limit)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Ball != g.Ball || plain.SaveSize != 0 {
		t.Errorf("ball %d with saves and restores, %d without (save size %d)", g.Ball, plain.Ball, plain.SaveSize)
	}
}

// TestRunAsleep checks that the dropped player and the cubes it knocked
// fall asleep and that the costs come out per step.
func TestRunAsleep(t *testing.T) {
	a, err := RunAsleep(tickClock(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if a.Awake != 0 || a.Settled < 60 || a.Settled >= 1200 {
		t.Errorf("%d awake after %d ticks", a.Awake, a.Settled)
	}
	// One reading before and one after each 10 steps: 1 ms apart, so
	// 0.1 ms a step.
	if a.PhysicsNs != 1e5 || a.WorldNs != 1e5 {
		t.Errorf("physics %v ns, world %v ns a step", a.PhysicsNs, a.WorldNs)
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	for _, tt := range []struct{ p, want float64 }{{0.5, 3}, {1, 5}, {0, 1}, {0.95, 5}} {
		if got := Percentile(xs, tt.p); got != tt.want {
			t.Errorf("Percentile(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if Percentile(nil, 0.5) != 0 {
		t.Error("empty: want 0")
	}
}

// BenchmarkSaveRestoreGather is the ring of a replay in the katamari
// gather (frames 450-690, presenter 8, a ball of about 60 cubes): each
// frame is stepped (untimed) and saved into a ring of 8, so that each save
// overwrites the one of 8 frames before, and a restore rewinds 7 frames,
// to the oldest save, then comes back to the newest (both timed: ns/op is
// two restores). bytes/save is one save's memory.
func BenchmarkSaveRestoreGather(b *testing.B) {
	for _, what := range []string{"save", "restore"} {
		b.Run(what, func(b *testing.B) {
			w, err := cubes.NewWorld(cubes.DefaultConfig(), physics.DefaultConfig())
			if err != nil {
				b.Fatal(err)
			}
			sp := cubes.DefaultSpiral()
			sp.Every = 8
			const from, to = 450, 690
			step := func(f int) { w.Step(sp.Input(f, w.Cube(cubes.Player).Position)) }
			for f := range from {
				step(f)
			}
			var start cubes.Saved
			w.Save(&start)
			var ring [8]cubes.Saved
			f := from
			b.ReportAllocs()
			b.ResetTimer()
			b.StopTimer() // only the saves or the restores are timed
			for range b.N {
				if f == to { // start the stretch again: the ring stays this world's
					if err := w.Restore(&start); err != nil {
						b.Fatal(err)
					}
					f = from
				}
				step(f)
				f++
				s := &ring[f%len(ring)]
				if what == "save" {
					b.StartTimer()
					w.Save(s)
					b.StopTimer()
					continue
				}
				w.Save(s)
				oldest := &ring[(f+1)%len(ring)]
				if !oldest.Valid() {
					continue
				}
				b.StartTimer()
				if err := w.Restore(oldest); err != nil {
					b.Fatal(err)
				}
				if err := w.Restore(s); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
			}
			b.ReportMetric(float64(ring[0].Bytes()), "bytes/save")
		})
	}
}
