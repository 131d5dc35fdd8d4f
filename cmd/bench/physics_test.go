package main

import (
	"bytes"
	"testing"

	"netcubes/cubes"
	"netcubes/internal/stepcost"
)

// TestPhysicsChildProtocol: one round of the gather phase with this
// binary's physics prints what -physics parses: every gather step's time
// and a ball that formed.
func TestPhysicsChildProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the 1200-tick gather phase")
	}
	var out bytes.Buffer
	if err := physicsChild(&out, 8); err != nil {
		t.Fatal(err)
	}
	e := engine{name: "netcubes"}
	if err := e.parse(out.Bytes()); err != nil {
		t.Fatal(err)
	}
	sp := cubes.DefaultSpiral()
	if len(e.times) != sp.Gather+sp.Hold {
		t.Errorf("%d step times, want %d", len(e.times), sp.Gather+sp.Hold)
	}
	if e.desc == "" || len(e.balls) != 1 || e.balls[0] < 100 {
		t.Errorf("engine %q, balls %v: want a description and a ball of at least 100", e.desc, e.balls)
	}
	for _, bad := range []string{"engine x\nball 3\n", "ms 1 2\n", "ms 1 x\nball 3\n", "ms 1\nball many\n"} {
		if err := (&engine{name: "bad"}).parse([]byte(bad)); err == nil {
			t.Errorf("%q parsed without error", bad)
		}
	}
}

// TestPercentile: nearest rank, on the pooled steps.
func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	for _, tc := range []struct{ p, want float64 }{{0.5, 3}, {1, 5}, {0, 1}, {0.95, 5}} {
		if got := stepcost.Percentile(xs, tc.p); got != tc.want {
			t.Errorf("percentile(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if got := ballRange([]int{110, 120, 115}); got != "115.0 [110-120]" {
		t.Errorf("ballRange = %q", got)
	}
}
