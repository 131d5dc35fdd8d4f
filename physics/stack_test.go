package physics

// Resting and stacking: single boxes, a 10-cube tower, a 55-cube pyramid.

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestBoxRests: a box placed on the ground stays put and falls asleep.
func TestBoxRests(t *testing.T) {
	for _, tc := range []struct {
		name string
		half float64
	}{
		{"cube", cubeHalf},
		{"player", playerHalf},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, DefaultConfig())
			start := mgl64.Vec3{1, 2, tc.half}
			id := addCube(t, w, tc.half, start)
			for i := 0; i < 600; i++ {
				w.Step()
			}
			moved := w.State(id).Position.Sub(start).Len()
			t.Logf("moved %.3g m, awake %v", moved, w.IsAwake(id))
			if moved > 0.001 {
				t.Errorf("box moved %.4f m in 10 s, want < 1 mm", moved)
			}
			if w.IsAwake(id) {
				t.Errorf("box still awake after 10 s")
			}
			if !w.touchesGround(id) {
				t.Errorf("sleeping box does not report touching the ground")
			}
		})
	}
}

// TestStacks: a tower of 10 cubes and a 10-wide pyramid stand for 10 s,
// with the default configuration and with 6 substeps when the warm start
// also matches points by position (Config.WarmStartDistance; by feature id
// only, 6 substeps let the pyramid slide 4 cm and never sleep).
func TestStacks(t *testing.T) {
	sixSubsteps := DefaultConfig()
	sixSubsteps.Substeps = 6
	sixSubsteps.WarmStartDistance = 0.01
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"default", DefaultConfig()},
		{"6 substeps, warm start by position", sixSubsteps},
	} {
		t.Run(c.name, func(t *testing.T) { testStacks(t, c.cfg) })
	}
}

func testStacks(t *testing.T, cfg Config) {
	type scene struct {
		name  string
		build func(w *World) []BodyID
		limit float64 // largest allowed displacement of any box, m
		which string
	}
	tower := func(w *World) []BodyID {
		var ids []BodyID
		for i := 0; i < 10; i++ {
			ids = append(ids, addCube(t, w, cubeHalf, mgl64.Vec3{0, 0, cubeHalf + 2*cubeHalf*float64(i)}))
		}
		return ids
	}
	pyramid := func(w *World) []BodyID {
		var ids []BodyID
		const base = 10
		for row := 0; row < base; row++ {
			for i := 0; i < base-row; i++ {
				x := (float64(i) - float64(base-row-1)/2) * 2 * cubeHalf
				z := cubeHalf + float64(row)*2*cubeHalf
				ids = append(ids, addCube(t, w, cubeHalf, mgl64.Vec3{x, 0, z}))
			}
		}
		return ids
	}
	for _, sc := range []scene{
		{"tower10", tower, 0.01, "top"},
		{"pyramid55", pyramid, 0.01, "any"},
	} {
		t.Run(sc.name, func(t *testing.T) {
			w := newWorld(t, cfg)
			ids := sc.build(w)
			start := make([]mgl64.Vec3, len(ids))
			for i, id := range ids {
				start[i] = w.State(id).Position
			}
			worst := 0.0
			worstH := 0.0
			for step := 0; step < 600; step++ {
				w.Step()
				for i, id := range ids {
					if sc.which == "top" && i != len(ids)-1 {
						continue
					}
					d := w.State(id).Position.Sub(start[i])
					worst = math.Max(worst, d.Len())
					worstH = math.Max(worstH, math.Hypot(d[0], d[1]))
				}
			}
			t.Logf("%s: worst displacement %.4f m (horizontal %.4f m), awake %d", sc.name, worst, worstH, w.Stats().AwakeBodies)
			if worst > sc.limit {
				t.Errorf("%s moved %.4f m, want < %.3f m", sc.which, worst, sc.limit)
			}
			if n := w.Stats().AwakeBodies; n != 0 {
				t.Errorf("%d bodies still awake after 10 s", n)
			}
		})
	}
}
