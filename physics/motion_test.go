package physics

// Fast motion: no tunnelling through the ground or a cube, and the
// player tumbling under the game's push.

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// lowestCorner returns the z of a box's lowest corner.
func lowestCorner(w *World, id BodyID) float64 {
	s := w.State(id)
	r := rotationMatrix(fromMgl(s.Orientation))
	e := w.halfExtents(id)
	return s.Position[2] - (e[0]*math.Abs(r.c[0].z) + e[1]*math.Abs(r.c[1].z) + e[2]*math.Abs(r.c[2].z))
}

// TestNoTunnellingThroughGround: a cube dropped from 10 m and cubes thrown
// at the ground at 32 m/s (straight and tumbling) never sink more than
// 2 cm into it and end resting on it.
func TestNoTunnellingThroughGround(t *testing.T) {
	for _, tc := range []struct {
		name string
		half float64
		pos  mgl64.Vec3
		v, w mgl64.Vec3
	}{
		{"dropped from 10 m", cubeHalf, mgl64.Vec3{0, 0, 10}, mgl64.Vec3{}, mgl64.Vec3{}},
		{"thrown down at 32 m/s", cubeHalf, mgl64.Vec3{0, 0, 10}, mgl64.Vec3{0, 0, -32}, mgl64.Vec3{}},
		{"thrown tumbling at 32 m/s", cubeHalf, mgl64.Vec3{0, 0, 3}, mgl64.Vec3{10, 0, -30}, mgl64.Vec3{16, 3, 0}},
		{"player thrown down at 32 m/s", playerHalf, mgl64.Vec3{0, 0, 5}, mgl64.Vec3{0, 0, -32}, mgl64.Vec3{0, 5, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, DefaultConfig())
			id, err := w.AddBox(BoxDef{
				HalfExtents: mgl64.Vec3{tc.half, tc.half, tc.half}, Density: DefaultDensity,
				Position: tc.pos, LinearVelocity: tc.v, AngularVelocity: tc.w,
			})
			if err != nil {
				t.Fatal(err)
			}
			deepest := math.Inf(1)
			for i := 0; i < 300; i++ {
				w.Step()
				deepest = math.Min(deepest, lowestCorner(w, id))
			}
			t.Logf("deepest corner z = %.4f m, final z %.4f", deepest, w.State(id).Position[2])
			if deepest < -0.02 {
				t.Errorf("box sank %.3f m into the ground, want < 0.02", -deepest)
			}
			if z := w.State(id).Position[2]; z < tc.half-0.02 || z > 3*tc.half {
				t.Errorf("box ended at z = %.3f, not resting on the ground", z)
			}
		})
	}
}

// TestNoTunnellingThroughCube: a 0.4 m cube thrown at 32 m/s at another
// 0.4 m cube hits it instead of passing through it, whether the target is
// awake or asleep and whether the bullet arrives face first or tumbling.
// Gravity is off, so the two cubes meet in the air and nothing but the
// collision can stop the bullet (on the ground, friction flips a cube
// sliding at 32 m/s into the air before it arrives).
func TestNoTunnellingThroughCube(t *testing.T) {
	for _, tc := range []struct {
		name   string
		asleep bool
		spin   mgl64.Vec3
		offset float64 // sideways offset of the bullet's path, m
	}{
		{"awake target, face on", false, mgl64.Vec3{}, 0.05},
		{"sleeping target, face on", true, mgl64.Vec3{}, 0.05},
		{"sleeping target, tumbling bullet", true, mgl64.Vec3{3, 16, 5}, 0.2},
		{"awake target, grazing", false, mgl64.Vec3{0, 0, 16}, 0.35},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Gravity = mgl64.Vec3{}
			w := newWorld(t, cfg)
			target := addCube(t, w, cubeHalf, mgl64.Vec3{0, 0, 5})
			if tc.asleep {
				settle(w, 120)
				if w.IsAwake(target) {
					t.Fatal("target did not fall asleep")
				}
			}
			bullet, err := w.AddBox(BoxDef{
				HalfExtents: mgl64.Vec3{cubeHalf, cubeHalf, cubeHalf}, Density: DefaultDensity,
				Position:        mgl64.Vec3{-5, tc.offset, 5},
				LinearVelocity:  mgl64.Vec3{32, 0, 0},
				AngularVelocity: tc.spin,
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 60; i++ {
				w.Step()
				b, g := w.State(bullet), w.State(target)
				if b.Position[0] > g.Position[0] {
					t.Fatalf("step %d: bullet at x=%.3f passed the target at x=%.3f", i, b.Position[0], g.Position[0])
				}
			}
			if v := w.State(target).LinearVelocity[0]; v < 5 {
				t.Errorf("target moves at %.2f m/s along the throw, want it pushed", v)
			}
		})
	}
}

// TestPlayerTumbles: the 1.5 m player pushed sideways at its centre (as the
// game's arrow keys do: 120 N per kg) rolls over its edges instead of
// sliding: its orientation turns by more than 90° about a horizontal axis.
func TestPlayerTumbles(t *testing.T) {
	w := newWorld(t, DefaultConfig())
	player := addCube(t, w, playerHalf, mgl64.Vec3{0, 0, playerHalf})
	start := w.State(player).Orientation
	maxTilt := 0.0
	for i := 0; i < 180; i++ {
		if err := w.ApplyForce(player, mgl64.Vec3{120 * w.Mass(player), 0, 0}); err != nil {
			t.Fatal(err)
		}
		w.Step()
		q := w.State(player).Orientation
		// Rotation since the start, and the part of it about y (the axis
		// a push along x rolls the cube about).
		rel := q.Mul(start.Inverse())
		angle := rotationAngle(q, start)
		axis := rel.V.Normalize()
		if math.Abs(axis[1]) > 0.7 {
			maxTilt = math.Max(maxTilt, angle)
		}
	}
	s := w.State(player)
	t.Logf("max rotation about y %.1f°, moved %.2f m", maxTilt*180/math.Pi, s.Position[0])
	if maxTilt < math.Pi/2 {
		t.Errorf("player turned at most %.1f° about a horizontal axis, want > 90°", maxTilt*180/math.Pi)
	}
}
