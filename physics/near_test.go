package physics

import (
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// bodiesWithin is BodiesNear's contract by brute force: every body whose
// centre is within r of c, in index order.
func bodiesWithin(w *World, c mgl64.Vec3, r float64) []BodyID {
	var out []BodyID
	for i := 0; i < w.bodyCount(); i++ {
		if w.Position(BodyID(i)).Sub(c).Len() <= r {
			out = append(out, BodyID(i))
		}
	}
	return out
}

// TestBodiesNear checks that BodiesNear lists, in index order, every body
// within the radius (a superset is allowed, so the brute-force list must
// be a subsequence of it), in a world asleep, while the player rolls
// through the grid pulling cubes, and after a sleeping cube is nudged
// within SetState's tolerance; and that a huge or invalid radius lists
// every body.
func TestBodiesNear(t *testing.T) {
	w := gridWorld(t, DefaultConfig(), mgl64.Vec3{0.3, 0.2, 2})
	check := func(when string) {
		t.Helper()
		for _, q := range []struct {
			c mgl64.Vec3
			r float64
		}{
			{w.Position(0), 1.8}, {w.Position(0), 0.5}, {mgl64.Vec3{3.5, -2.5, 0.2}, 1.2},
			{mgl64.Vec3{-14.5, 14.5, 0}, 2}, {mgl64.Vec3{40, 0, 0}, 1}, {mgl64.Vec3{0, 0, 0}, 0},
		} {
			got := w.BodiesNear(q.c, q.r, nil)
			if !slices.IsSorted(got) {
				t.Fatalf("%s: BodiesNear(%v, %v) not in index order: %v", when, q.c, q.r, got)
			}
			want := bodiesWithin(w, q.c, q.r)
			k := 0
			for _, id := range got {
				if k < len(want) && id == want[k] {
					k++
				}
			}
			if k != len(want) {
				t.Fatalf("%s: BodiesNear(%v, %v) = %v misses some of %v", when, q.c, q.r, got, want)
			}
		}
	}
	check("start")
	for i := 0; i < 90; i++ {
		katamariPull(w, 0)
		if err := w.ApplyForce(0, mgl64.Vec3{400, 250, 0}); err != nil {
			t.Fatal(err)
		}
		w.Step()
		if i%15 == 0 {
			check("rolling")
		}
	}
	// A sleeping cube moved half a millimetre stays asleep, off its rest pose.
	id := BodyID(1)
	if w.IsAwake(id) {
		t.Fatal("corner cube awake")
	}
	s := w.State(id)
	s.Position = s.Position.Add(mgl64.Vec3{0.0005, 0, 0})
	if err := w.SetState(id, s); err != nil {
		t.Fatal(err)
	}
	check("nudged")
	for _, r := range []float64{1e9, -1} {
		if n := len(w.BodiesNear(mgl64.Vec3{}, r, nil)); n != w.bodyCount() {
			t.Errorf("radius %v: %d bodies, want all %d", r, n, w.bodyCount())
		}
	}
}
