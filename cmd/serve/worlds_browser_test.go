//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// worldsFigures is what the page's netcubesWorldsPerTick returns
// (stepcost_js.go in the root package).
type worldsFigures struct {
	Error             string
	Steps, Ball       int
	MedianMs, P95Ms   float64
	SaveMs, RestoreMs float64
	Worlds            float64
}

// TestBrowserWorldsPerTick runs the katamari gather phase (1,140 steps)
// in WebAssembly through the page's hook and logs the bench's "worlds per
// tick" figures for the browser. A measurement, run with
// NETCUBES_BROWSER_FIGURES=1 (as TestBrowserFigures): it checks the hook's
// answer and judges no time.
func TestBrowserWorldsPerTick(t *testing.T) {
	if os.Getenv(figuresEnv) != "1" {
		t.Skipf("a measurement: set %s=1", figuresEnv)
	}
	frames, wantSteps := 0, 1140
	ctx, base := browser(t, 5*time.Minute)
	start(t, ctx, base, "?mute", 1)
	js := fmt.Sprintf(`JSON.stringify(netcubesWorldsPerTick(%d))`, frames)
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatal(err)
	}
	var f worldsFigures
	if err := json.Unmarshal([]byte(s), &f); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	if f.Error != "" || f.Steps != wantSteps || f.MedianMs <= 0 || f.P95Ms < f.MedianMs {
		t.Fatalf("netcubesWorldsPerTick(%d) = %s", frames, s)
	}
	t.Logf("WebAssembly, %d gather steps: median %.3f ms, p95 %.3f ms (%.0f worlds per 16.7 ms tick); save %.3f ms, restore %.3f ms; ball %d",
		f.Steps, f.MedianMs, f.P95Ms, f.Worlds, f.SaveMs, f.RestoreMs, f.Ball)
}
