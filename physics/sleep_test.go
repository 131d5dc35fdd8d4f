package physics

// Islands and sleeping: what wakes a sleeping pile, what must not, and
// that a sleeping world does no work.

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// stackOf3 returns a world with a 3-cube tower, asleep.
func stackOf3(t *testing.T) (*World, [3]BodyID) {
	t.Helper()
	w := newWorld(t, DefaultConfig())
	var ids [3]BodyID
	for i := range ids {
		ids[i] = addCube(t, w, cubeHalf, mgl64.Vec3{0, 0, cubeHalf + 2*cubeHalf*float64(i)})
	}
	if n := settle(w, 300); n == 300 {
		t.Fatal("tower did not fall asleep")
	}
	return w, ids
}

// TestWakeWakesIsland: anything that wakes one body of a sleeping tower
// wakes all of it; changes within SetState's tolerance wake nothing.
func TestWakeWakesIsland(t *testing.T) {
	for _, tc := range []struct {
		name string
		poke func(w *World, ids [3]BodyID) error
		wake bool
	}{
		{"force", func(w *World, ids [3]BodyID) error { return w.ApplyForce(ids[0], mgl64.Vec3{0.1, 0, 0}) }, true},
		{"torque", func(w *World, ids [3]BodyID) error { return w.ApplyTorque(ids[1], mgl64.Vec3{0, 0, 0.1}) }, true},
		{"impulse", func(w *World, ids [3]BodyID) error {
			return w.applyLinearImpulse(ids[2], mgl64.Vec3{0.01, 0, 0})
		}, true},
		{"SetState moved 1 cm", func(w *World, ids [3]BodyID) error {
			s := w.State(ids[1])
			s.Position[0] += 0.01
			return w.SetState(ids[1], s)
		}, true},
		{"SetState given speed", func(w *World, ids [3]BodyID) error {
			s := w.State(ids[1])
			s.LinearVelocity = mgl64.Vec3{0.5, 0, 0}
			return w.SetState(ids[1], s)
		}, true},
		{"SetState quantized", func(w *World, ids [3]BodyID) error {
			return w.SetState(ids[1], quantizeState(w.State(ids[1])))
		}, false},
		{"SetState same", func(w *World, ids [3]BodyID) error { return w.SetState(ids[0], w.State(ids[0])) }, false},
		{"zero force", func(w *World, ids [3]BodyID) error { return w.ApplyForce(ids[0], mgl64.Vec3{}) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, ids := stackOf3(t)
			if err := tc.poke(w, ids); err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				if w.IsAwake(id) != tc.wake {
					t.Errorf("body %d awake = %v, want %v", id, w.IsAwake(id), tc.wake)
				}
			}
		})
	}
}

// TestSetStateCreepWakes: a series of sets, each within tolerance of the
// last, cannot move a sleeping body further than the tolerance from where
// it fell asleep without waking it.
func TestSetStateCreepWakes(t *testing.T) {
	w, ids := stackOf3(t)
	start := w.State(ids[0])
	for i := 1; i <= 10; i++ {
		s := start
		s.Position[0] += 0.0003 * float64(i)
		if err := w.SetState(ids[0], s); err != nil {
			t.Fatal(err)
		}
		moved := 0.0003 * float64(i)
		if want := moved > DefaultConfig().SetStatePositionTolerance; w.IsAwake(ids[0]) != want {
			t.Fatalf("after moving %.4f m, awake = %v, want %v", moved, w.IsAwake(ids[0]), want)
		}
	}
}

// TestLandingWakesPile: a cube dropped onto a sleeping tower wakes it.
func TestLandingWakesPile(t *testing.T) {
	w, ids := stackOf3(t)
	drop := addCube(t, w, cubeHalf, mgl64.Vec3{0.1, 0, 3})
	woke := false
	for i := 0; i < 120 && !woke; i++ {
		w.Step()
		woke = w.IsAwake(ids[0]) && w.IsAwake(ids[1]) && w.IsAwake(ids[2])
	}
	if !woke {
		t.Fatalf("the tower did not wake when cube %d landed on it", drop)
	}
	// And it all goes back to sleep, the dropped cube on top.
	settle(w, 600)
	if n := w.Stats().AwakeBodies; n != 0 {
		t.Errorf("%d bodies still awake 10 s after the landing", n)
	}
	if z := w.State(drop).Position[2]; z < 1.2 {
		t.Errorf("dropped cube at z = %.2f, not on the tower", z)
	}
}

// TestAsleepGridDoesNoWork: the resting netcubes world sleeps entirely, and
// a step then does no broadphase, narrowphase or solver work, while the
// sleeping cubes still report touching the ground.
func TestAsleepGridDoesNoWork(t *testing.T) {
	w := restingGrid(t)
	w.Step()
	st := w.Stats()
	if st.AwakeBodies != 0 || st.Pairs != 0 || st.ActiveContacts != 0 || st.Constraints != 0 || st.ContactPoints != 0 {
		t.Errorf("asleep world still works: %+v", st)
	}
	if st.Contacts < 900 {
		t.Errorf("sleeping bodies lost their contacts: %d left", st.Contacts)
	}
	if got := w.touchingBodies(BodyID(1), nil); len(got) != 1 || got[0] != Ground {
		t.Errorf("sleeping corner cube touches %v, want [Ground]", got)
	}
}

// TestThrownCubeDoesNotFreezeMidAir: a cube passes through zero vertical
// speed at the top of its arc; it must not fall asleep there.
func TestThrownCubeDoesNotFreezeMidAir(t *testing.T) {
	w := newWorld(t, DefaultConfig())
	id, err := w.AddBox(BoxDef{HalfExtents: mgl64.Vec3{cubeHalf, cubeHalf, cubeHalf}, Density: 1,
		Position: mgl64.Vec3{0, 0, cubeHalf}, LinearVelocity: mgl64.Vec3{0, 0, 8}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 120; i++ {
		w.Step()
		if !w.IsAwake(id) && w.State(id).Position[2] > cubeHalf+0.01 {
			t.Fatalf("step %d: cube fell asleep in the air at z = %.3f", i, w.State(id).Position[2])
		}
	}
	if w.State(id).Position[2] > cubeHalf+0.01 {
		t.Errorf("cube did not come down")
	}
}

// TestStartAsleep creates a grid asleep: the first step does no work, and a
// box dropped on one cube wakes it; the woken cube finds the ground and
// rests on it instead of falling through.
func TestStartAsleep(t *testing.T) {
	w, err := NewWorld(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	h := mgl64.Vec3{0.2, 0.2, 0.2}
	var ids []BodyID
	for j := 0; j < 10; j++ {
		for i := 0; i < 10; i++ {
			id, err := w.AddBox(BoxDef{HalfExtents: h, Density: DefaultDensity, Asleep: true,
				Position: mgl64.Vec3{float64(i), float64(j), 0.2}, Orientation: mgl64.QuatIdent()})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
	}
	w.Step()
	if st := w.Stats(); st.AwakeBodies != 0 || st.ActiveContacts != 0 {
		t.Fatalf("a grid created asleep did work on its first step: %+v", st)
	}
	target := ids[55]
	p := w.State(target).Position
	drop, err := w.AddBox(BoxDef{HalfExtents: h, Density: DefaultDensity,
		Position: p.Add(mgl64.Vec3{0, 0, 1}), Orientation: mgl64.QuatIdent()})
	if err != nil {
		t.Fatal(err)
	}
	woke := false
	for s := 0; s < 240; s++ {
		w.Step()
		woke = woke || w.IsAwake(target)
	}
	if !woke {
		t.Fatal("the cube under the dropped box never woke")
	}
	if z := w.State(target).Position[2]; math.Abs(z-0.2) > 0.005 {
		t.Errorf("the woken cube ended at z = %.4f, want 0.2 (resting on the ground)", z)
	}
	if z := w.State(drop).Position[2]; math.Abs(z-0.6) > 0.01 {
		t.Errorf("the dropped box ended at z = %.4f, want 0.6 (on the cube)", z)
	}
	if !w.touchesGround(target) {
		t.Error("the woken cube does not touch the ground")
	}
}
