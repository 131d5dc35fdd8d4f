package launch

// The page's hook for the "worlds per tick" figures in WebAssembly:
// netcubesWorldsPerTick(frames) runs the katamari gather phase on a world
// of its own (not the app's: nothing it does reaches the app's worlds) for
// up to frames ticks (0: the whole phase) and returns its figures, timed
// with the browser's clock. The browser test calls it (cmd/serve,
// TestBrowserWorldsPerTick); anyone can from the page's console. It blocks
// the page while it runs (a few seconds for the whole phase).

import (
	"syscall/js"
	"time"

	"netcubes/internal/stepcost"
)

func init() {
	js.Global().Set("netcubesWorldsPerTick", js.FuncOf(func(_ js.Value, args []js.Value) any {
		limit := 0
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			limit = max(args[0].Int(), 0)
		}
		t0 := time.Now()
		clock := func() time.Duration { return time.Since(t0) }
		g, err := stepcost.RunGather(clock, 8, 10, limit)
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		med := g.Median()
		worlds := 0.0
		if med > 0 {
			worlds = float64(int(stepcost.TickMs / med))
		}
		return map[string]any{
			"steps":     len(g.Steps),
			"medianMs":  med,
			"p95Ms":     g.P95(),
			"saveMs":    g.SaveMs,
			"restoreMs": g.RestMs,
			"ball":      g.Ball,
			"worlds":    worlds,
		}
	}))
}
