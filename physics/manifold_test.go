package physics

import "testing"

// TestCarryImpulses: a new point takes the impulse of the old point with
// its feature id; with a match distance, a point whose id is new takes the
// impulse of the nearest old point within it that no id took, each old
// point going to one new point at most; friction carries when any point
// matched.
func TestCarryImpulses(t *testing.T) {
	old := manifold{count: 3, frictionImpulse: vec3{1, 2, 3}, twistImpulse: 4}
	old.points[0] = manifoldPoint{id: 10, normalImpulse: 1, anchorA: vec3{0.2, 0.2, -0.2}}
	old.points[1] = manifoldPoint{id: 11, normalImpulse: 2, anchorA: vec3{-0.2, 0.2, -0.2}}
	old.points[2] = manifoldPoint{id: 12, normalImpulse: 3, anchorA: vec3{-0.2, 0.147, -0.2}}
	// The new manifold: point 0 keeps id 11; point 1 is old point 0 renamed
	// and 3 mm away; point 2 is renamed and 3 mm from old point 1 (taken
	// by id) and 5 cm from old point 2; point 3 is new, far from all.
	fresh := func() manifold {
		m := manifold{count: 4}
		m.points[0] = manifoldPoint{id: 11, anchorA: vec3{-0.2, 0.2, -0.2}}
		m.points[1] = manifoldPoint{id: 20, anchorA: vec3{0.2, 0.203, -0.2}}
		m.points[2] = manifoldPoint{id: 21, anchorA: vec3{-0.2, 0.197, -0.2}}
		m.points[3] = manifoldPoint{id: 22, anchorA: vec3{0.2, -0.2, -0.2}}
		return m
	}
	for _, tc := range []struct {
		name string
		near float64
		want [4]float64
	}{
		{"by id only", 0, [4]float64{2, 0, 0, 0}},
		{"within 1 cm", 0.01, [4]float64{2, 1, 0, 0}},
		{"within 10 cm", 0.1, [4]float64{2, 1, 3, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c carried
			c.save(&old, tc.near > 0)
			m := fresh()
			carryImpulses(&m, &c, tc.near)
			for j, want := range tc.want {
				if got := m.points[j].normalImpulse; got != want {
					t.Errorf("point %d: impulse %g, want %g", j, got, want)
				}
			}
			if m.frictionImpulse != old.frictionImpulse || m.twistImpulse != old.twistImpulse {
				t.Errorf("friction %v, twist %g not carried", m.frictionImpulse, m.twistImpulse)
			}
		})
	}
	// No point matched: nothing carries, friction neither.
	var c carried
	c.save(&old, true)
	m := manifold{count: 1}
	m.points[0] = manifoldPoint{id: 30, anchorA: vec3{1, 1, 1}}
	carryImpulses(&m, &c, 0.01)
	if m.points[0].normalImpulse != 0 || m.frictionImpulse != (vec3{}) || m.twistImpulse != 0 {
		t.Errorf("unmatched manifold carried %+v", m)
	}
}
