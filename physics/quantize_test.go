package physics

// The "quantize both sides" networking mode: re-quantizing every body
// before every step must not disturb a resting world.

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestQuantizeHelper: the test quantizer is idempotent on positions, keeps
// orientations unit length and within its resolution.
func TestQuantizeHelper(t *testing.T) {
	q := mgl64.QuatRotate(0.7, mgl64.Vec3{1, 2, 3}.Normalize())
	s := quantizeState(State{Position: mgl64.Vec3{1.23456789, -2.5, 0.2}, Orientation: q})
	if s2 := quantizeState(s); s2.Position != s.Position {
		t.Errorf("position quantization not idempotent: %v vs %v", s.Position, s2.Position)
	}
	if d := math.Abs(s.Orientation.Len() - 1); d > 1e-15 {
		t.Errorf("quantized orientation off unit length by %g", d)
	}
	if a := rotationAngle(q, s.Orientation); a > 1e-4 {
		t.Errorf("quantized orientation off by %g rad", a)
	}
}

// TestQuantizeEveryStep: in the "quantize both sides" mode every body is
// set to its quantized state before every step. A resting grid must stay
// at rest: nothing moves more than 2 mm in 10 s, and once asleep the
// quantization never wakes it.
func TestQuantizeEveryStep(t *testing.T) {
	for _, tc := range []struct {
		name  string
		world func(t *testing.T) *World
	}{
		// Cubes placed on the ground, the player resting beside the grid:
		// quantization starts while everything is awake and settling.
		{"fresh", func(t *testing.T) *World {
			return gridWorld(t, DefaultConfig(), mgl64.Vec3{16.5, 0, playerHalf})
		}},
		// The settled world, with the player on the grid centre, asleep.
		{"settled", func(t *testing.T) *World { return restingGrid(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.world(t)
			n := w.bodyCount()
			start := make([]mgl64.Vec3, n)
			for i := range start {
				start[i] = w.State(BodyID(i)).Position
			}
			asleepAt := -1
			for step := 0; step < 600; step++ {
				quantizeWorld(t, w)
				w.Step()
				awake := w.Stats().AwakeBodies
				if asleepAt < 0 && awake == 0 {
					asleepAt = step
				}
				if asleepAt >= 0 && awake != 0 {
					t.Fatalf("step %d: quantization woke %d bodies", step, awake)
				}
			}
			worst, who := 0.0, 0
			for i := range start {
				if d := w.State(BodyID(i)).Position.Sub(start[i]).Len(); d > worst {
					worst, who = d, i
				}
			}
			t.Logf("asleep from step %d; largest move %.3f mm (body %d)", asleepAt, worst*1000, who)
			if worst > 0.002 {
				t.Errorf("body %d moved %.2f mm, want < 2 mm", who, worst*1000)
			}
			if asleepAt < 0 {
				t.Errorf("the world never fell asleep")
			}
		})
	}
}
