package physics

// Contact queries for the game: touching lists, impact impulses, "began".

import (
	"math"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestContactEvents: a cube dropped on another reports, on the step it
// lands, a new contact whose impulse matches the momentum it lost; the
// next steps report the same contact as old, with about its weight per
// step; and the touching lists name both bodies and the ground.
func TestContactEvents(t *testing.T) {
	w := newWorld(t, DefaultConfig())
	base := addCube(t, w, cubeHalf, mgl64.Vec3{0, 0, cubeHalf})
	top := addCube(t, w, cubeHalf, mgl64.Vec3{0.05, 0, 1.5})
	m := w.Mass(top)
	landed := -1
	var impact contactInfo
	for i := 0; i < 60 && (landed < 0 || i < landed+10); i++ {
		vz := w.State(top).LinearVelocity[2]
		w.Step()
		for _, c := range w.contactsOf(top, nil) {
			if c.Other == base && c.Began {
				if landed >= 0 {
					t.Fatalf("contact began twice (steps %d and %d)", landed, i)
				}
				landed, impact = i, c
				// The impulse stops the fall: about m·|v| (plus this step's
				// weight).
				want := m * -vz
				if c.NormalImpulse < 0.7*want || c.NormalImpulse > 1.5*want+m*20/60 {
					t.Errorf("impact impulse %.4f N·s, want about %.4f", c.NormalImpulse, want)
				}
			}
		}
	}
	if landed < 0 {
		t.Fatal("no contact began")
	}
	t.Logf("landed at step %d with impulse %.4f N·s", landed, impact.NormalImpulse)
	// Resting: the contact is old and carries the top cube's weight.
	w.Step()
	cs := w.contactsOf(top, nil)
	if len(cs) != 1 || cs[0].Other != base || cs[0].Began {
		t.Fatalf("resting contacts of the top cube: %+v", cs)
	}
	if !w.IsAwake(top) {
		t.Fatal("top cube already asleep")
	}
	weight := m * 20 / 60
	if got := cs[0].NormalImpulse; math.Abs(got-weight) > 0.2*weight {
		t.Errorf("resting impulse %.5f, want the weight per step %.5f", got, weight)
	}
	got := w.touchingBodies(base, nil)
	slices.Sort(got)
	if !slices.Equal(got, []BodyID{Ground, top}) {
		t.Errorf("base touches %v, want [Ground %d]", got, top)
	}
	if !w.touchesGround(base) || w.touchesGround(top) {
		t.Errorf("TouchesGround: base %v top %v", w.touchesGround(base), w.touchesGround(top))
	}
	pairs := w.ContactPairs(nil)
	want := []ContactPair{{A: base, B: top}, {A: base, B: Ground}}
	if len(pairs) != 2 || pairs[0].A != want[0].A || pairs[0].B != want[0].B || pairs[1].A != want[1].A || pairs[1].B != want[1].B {
		t.Errorf("pairs %+v, want %+v", pairs, want)
	}
	// Asleep: contacts stay, impulses read zero, nothing begins.
	settle(w, 300)
	w.Step()
	for _, c := range w.contactsOf(base, nil) {
		if c.Began || c.NormalImpulse != 0 {
			t.Errorf("sleeping contact %+v", c)
		}
	}
	if len(w.touchingBodies(top, nil)) != 1 {
		t.Errorf("sleeping top cube lost its contact")
	}
}

// TestTouchingSpreads: what the game does with Touching: starting from the
// player, follow touching contacts through a pile. Every cube of a row the
// player pushes into is reached, and cubes far away are not.
func TestTouchingSpreads(t *testing.T) {
	w := newWorld(t, DefaultConfig())
	player := addCube(t, w, playerHalf, mgl64.Vec3{0, 0, playerHalf})
	var row []BodyID
	for i := 0; i < 5; i++ {
		row = append(row, addCube(t, w, cubeHalf, mgl64.Vec3{playerHalf + cubeHalf + 0.4*float64(i), 0, cubeHalf}))
	}
	far := addCube(t, w, cubeHalf, mgl64.Vec3{10, 0, cubeHalf})
	for i := 0; i < 20; i++ {
		if err := w.ApplyForce(player, mgl64.Vec3{15 * w.Mass(player), 0, 0}); err != nil {
			t.Fatal(err)
		}
		w.Step()
	}
	reached := map[BodyID]bool{player: true}
	queue := []BodyID{player}
	var buf []BodyID
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		buf = w.touchingBodies(id, buf[:0])
		for _, o := range buf {
			if o != Ground && !reached[o] {
				reached[o] = true
				queue = append(queue, o)
			}
		}
	}
	for _, id := range row {
		if !reached[id] {
			t.Errorf("cube %d of the pushed row not reached", id)
		}
	}
	if reached[far] {
		t.Errorf("a far cube was reached")
	}
}
