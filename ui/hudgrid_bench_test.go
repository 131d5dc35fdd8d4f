package ui

import (
	"runtime"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/talk"
)

// BenchmarkDrawGrid is BenchmarkDraw with four players on their own links
// (state sync) at 1920×1080: the two views ("two") against the grid of the
// server and four clients ("grid"), the Go side of one Draw. Run it as
// BenchmarkDraw (see draw_bench_test.go).
func BenchmarkDrawGrid(b *testing.B) {
	if drawFrames == nil {
		b.Skip("needs a display: run with -bench under xvfb-run (see draw_bench_test.go)")
	}
	for _, grid := range []bool{false, true} {
		name := "two"
		if grid {
			name = "grid"
		}
		b.Run(name, func(b *testing.B) {
			a := newGridApp(b, "statesync", 4)
			a.d.Do(talk.Command{Op: talk.OpGrid, On: grid})
			a.sync()
			a.setAntiAlias(false)
			for range 120 {
				a.step()
			}
			var spent time.Duration
			var allocs uint64
			var before, after runtime.MemStats
			frames := 0
			frame := func(screen *ebiten.Image) {
				runtime.ReadMemStats(&before)
				start := time.Now()
				a.Draw(screen)
				spent += time.Since(start)
				runtime.ReadMemStats(&after)
				allocs += after.Mallocs - before.Mallocs
				frames++
			}
			drawFrame(frame)
			spent, allocs, frames = 0, 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				a.step()
				drawFrame(frame)
			}
			b.ReportMetric(float64(spent.Microseconds())/1000/float64(frames), "draw-ms")
			b.ReportMetric(float64(allocs)/float64(frames), "draw-allocs")
		})
	}
}
