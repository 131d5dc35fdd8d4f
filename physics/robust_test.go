package physics

// Robustness: the 53:1 katamari pile, hostile input, zero allocations.

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestKatamariPileIsStable: the 1.5 m player with a ball of 0.4 m cubes
// pulled towards its centre (a 53:1 mass ratio, about 11 g of pull on the
// inner cubes) stays bounded: after it has formed, no cube moves faster
// than 5 m/s and none sinks more than 2 cm into the player.
func TestKatamariPileIsStable(t *testing.T) {
	w, player := katamariWorld(t, 170, 120)
	if n := pileCount(w, player, 2.2); n < 150 {
		t.Fatalf("only %d cubes in the pile", n)
	}
	worstSpeed, worstPen := 0.0, 0.0
	for i := 0; i < 180; i++ {
		katamariPull(w, player)
		w.Step()
		worstSpeed = math.Max(worstSpeed, maxSpeed(w, -2))
		worstPen = math.Max(worstPen, maxPlayerPenetration(w, player))
	}
	t.Logf("pile of %d: fastest body %.2f m/s, deepest corner in the player %.1f mm",
		pileCount(w, player, 2.2), worstSpeed, worstPen*1000)
	if worstSpeed > 5 {
		t.Errorf("a body reached %.2f m/s, want < 5", worstSpeed)
	}
	if worstPen > 0.02 {
		t.Errorf("a cube sank %.1f mm into the player, want < 20", worstPen*1000)
	}
	assertFinite(t, w)
}

// assertFinite fails if any body's state has a NaN or Inf.
func assertFinite(t *testing.T, w *World) {
	t.Helper()
	for i := 0; i < w.bodyCount(); i++ {
		s := w.State(BodyID(i))
		for _, x := range stateBits(s) {
			if f := math.Float64frombits(x); math.IsNaN(f) || math.IsInf(f, 0) {
				t.Fatalf("body %d has a non-finite state: %v", i, s)
			}
		}
	}
}

// TestHostileInput: NaN, Inf, absurd and overflowing inputs are rejected
// with an error and counted, leave the world unchanged, and the world
// never contains NaN afterwards.
func TestHostileInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	w := newWorld(t, DefaultConfig())
	id := addCube(t, w, cubeHalf, mgl64.Vec3{0, 0, 1})
	other := addCube(t, w, cubeHalf, mgl64.Vec3{0.1, 0, 2})
	ok := w.State(id)
	bad := []struct {
		name string
		call func() error
		want error
	}{
		{"force NaN", func() error { return w.ApplyForce(id, mgl64.Vec3{nan, 0, 0}) }, ErrNonFinite},
		{"force Inf", func() error { return w.ApplyForce(id, mgl64.Vec3{0, -inf, 0}) }, ErrNonFinite},
		{"force overflow", func() error {
			if err := w.ApplyForce(other, mgl64.Vec3{math.MaxFloat64, 0, 0}); err != nil {
				return err
			}
			return w.ApplyForce(other, mgl64.Vec3{math.MaxFloat64, 0, 0})
		}, ErrNonFinite},
		{"torque Inf", func() error { return w.ApplyTorque(id, mgl64.Vec3{0, 0, inf}) }, ErrNonFinite},
		{"impulse NaN", func() error { return w.applyLinearImpulse(id, mgl64.Vec3{0, nan, 0}) }, ErrNonFinite},
		{"impulse overflow", func() error { return w.applyLinearImpulse(id, mgl64.Vec3{math.MaxFloat64, 0, 0}) }, ErrNonFinite},
		{"state position NaN", func() error { s := ok; s.Position[2] = nan; return w.SetState(id, s) }, ErrNonFinite},
		{"state orientation Inf", func() error { s := ok; s.Orientation.W = inf; return w.SetState(id, s) }, ErrNonFinite},
		{"state orientation zero", func() error { s := ok; s.Orientation = mgl64.Quat{}; return w.SetState(id, s) }, ErrNonFinite},
		{"state velocity NaN", func() error { s := ok; s.AngularVelocity[1] = nan; return w.SetState(id, s) }, ErrNonFinite},
		{"state position far", func() error { s := ok; s.Position[0] = 1e300; return w.SetState(id, s) }, ErrOutOfBounds},
		{"box NaN size", func() error {
			_, err := w.AddBox(BoxDef{HalfExtents: mgl64.Vec3{nan, 1, 1}, Density: 1})
			return err
		}, ErrNonFinite},
		{"box zero size", func() error {
			_, err := w.AddBox(BoxDef{HalfExtents: mgl64.Vec3{0, 1, 1}, Density: 1})
			return err
		}, ErrInvalidShape},
		{"box no mass", func() error {
			_, err := w.AddBox(BoxDef{HalfExtents: mgl64.Vec3{1, 1, 1}})
			return err
		}, ErrInvalidShape},
		{"bad id", func() error { return w.ApplyForce(BodyID(99), mgl64.Vec3{1, 0, 0}) }, ErrInvalidBody},
		{"ground id", func() error { return w.SetState(Ground, ok) }, ErrInvalidBody},
	}
	for _, tc := range bad {
		before := w.State(id)
		err := tc.call()
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
		if stateBits(w.State(id)) != stateBits(before) {
			t.Errorf("%s: the rejected call changed the state", tc.name)
		}
	}
	if got := w.Stats().RejectedInputs; got < 12 {
		t.Errorf("RejectedInputs = %d, want every non-finite input counted", got)
	}
	if w.bodyCount() != 2 {
		t.Errorf("rejected AddBox calls added bodies: %d", w.bodyCount())
	}
	// Huge but finite inputs are accepted and clamped, never NaN.
	if err := w.ApplyForce(id, mgl64.Vec3{1e300, -1e300, 1e300}); err != nil {
		t.Fatal(err)
	}
	if err := w.applyLinearImpulse(id, mgl64.Vec3{1e150, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if err := w.SetState(other, State{Position: mgl64.Vec3{0, 0, 1}, Orientation: mgl64.Quat{W: 1e-3, V: mgl64.Vec3{2e-3, 0, 0}},
		LinearVelocity: mgl64.Vec3{1e200, 1e200, 0}, AngularVelocity: mgl64.Vec3{0, 1e250, 0}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 120; i++ {
		w.Step()
		assertFinite(t, w)
	}
	for _, b := range []BodyID{id, other} {
		s := w.State(b)
		if v := s.LinearVelocity.Len(); v > 32+1e-9 {
			t.Errorf("body %d speed %g above the clamp", b, v)
		}
		if v := s.AngularVelocity.Len(); v > 16+1e-9 {
			t.Errorf("body %d spin %g above the clamp", b, v)
		}
	}
	// A bad Config is refused.
	cfg := DefaultConfig()
	cfg.Friction = nan
	if _, err := NewWorld(cfg); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("NaN friction config: %v", err)
	}
}

// TestZeroAllocs: once warmed up, Step and the contact queries allocate
// nothing, in the busy katamari scene.
func TestZeroAllocs(t *testing.T) {
	w, player := katamariWorld(t, 170, 200)
	touching := make([]BodyID, 0, 64)
	infos := make([]contactInfo, 0, 64)
	pairs := make([]ContactPair, 0, 8192)
	allocs := testing.AllocsPerRun(100, func() {
		katamariPull(w, player)
		w.Step()
		touching = w.touchingBodies(player, touching[:0])
		infos = w.contactsOf(player, infos[:0])
		pairs = w.ContactPairs(pairs[:0])
		_ = w.StateHash()
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per step, want 0", allocs)
	}
	if len(touching) == 0 {
		t.Errorf("the player touches nothing")
	}
}
