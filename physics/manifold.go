package physics

// Design note: a manifold is the set of contact points between two bodies
// (at most 4), all sharing one normal. Points carry a feature id (which
// corner, edge or clip of the two boxes produced them, see collide_box.go)
// so that the solver's impulses can be carried from one step to the next:
// when a new point has the same id as an old one, it starts from the old
// point's impulses ("warm starting"). A resting box then starts each step
// already holding up its weight, instead of sagging for a few iterations
// while the impulses rebuild; that is what lets a stack stand still.
//
// Why 4 points: a box resting on a face needs at least 3 non-collinear
// points to be stable; 4 (the corners of the overlap) make the support
// symmetric, so the solver does not rock it. More points only add work:
// they all lie in the same plane and add no new information.

// maxManifoldPoints is the most points a manifold keeps.
const maxManifoldPoints = 4

// manifoldPoint is one contact point.
type manifoldPoint struct {
	// anchorA and anchorB are the contact point relative to each body's
	// centre, in world axes, when the manifold was computed (start of the
	// step). For the ground, anchorB is the world point.
	anchorA, anchorB vec3
	// separation is the signed distance between the surfaces at this point
	// along the normal (negative: overlapping), in metres.
	separation float64
	// normalImpulse is the impulse (N·s) the last substep of the last step
	// applied along the normal; the warm start for the next step.
	normalImpulse float64
	// id names the features that produced the point.
	id uint32
}

// manifold is the set of contact points between two bodies.
type manifold struct {
	normal vec3 // unit, from body a towards body b (down, for the ground)
	count  int32
	points [maxManifoldPoints]manifoldPoint
	// Friction acts at the centre of the points (see solver.go). Its last
	// substep's impulses are kept for warm starting: the tangential part
	// as a world vector, so it survives a change of tangent axes, and the
	// twist (about the normal) as a scalar.
	frictionImpulse vec3
	twistImpulse    float64
}

// reducePoints chooses at most 4 of the clipped points, writing their
// indices (in increasing order) to pick, and returns how many. The rule
// keeps the contact area as large as possible, so the support is as stable
// as with all points (after Gregorius, GDC 2015):
//
//  1. the deepest point (it carries the most load);
//  2. the point farthest from it;
//  3. the point making the largest triangle with those two on one side;
//  4. the point making the largest triangle on the other side.
func reducePoints(pts []clipVertex, pick *[maxManifoldPoints]int) int {
	n := len(pts)
	if n <= maxManifoldPoints {
		for i := 0; i < n; i++ {
			pick[i] = i
		}
		return n
	}
	i0 := 0
	for i := 1; i < n; i++ {
		if pts[i].z < pts[i0].z {
			i0 = i
		}
	}
	i1, far := -1, -1.0
	for i := 0; i < n; i++ {
		dx, dy := pts[i].x-pts[i0].x, pts[i].y-pts[i0].y
		if d := float64(dx*dx) + float64(dy*dy); d > far && i != i0 {
			i1, far = i, d
		}
	}
	ex, ey := pts[i1].x-pts[i0].x, pts[i1].y-pts[i0].y
	i2, i3 := -1, -1
	maxA, minA := 0.0, 0.0
	for i := 0; i < n; i++ {
		if i == i0 || i == i1 {
			continue
		}
		// twice the signed area of triangle (p0, p1, p)
		area := float64(ex*(pts[i].y-pts[i0].y)) - float64(ey*(pts[i].x-pts[i0].x))
		if i2 < 0 || area > maxA {
			i2, maxA = i, area
		}
		if i3 < 0 || area < minA {
			i3, minA = i, area
		}
	}
	// Sort the chosen indices so the points keep the polygon's order.
	chosen := [4]int{i0, i1, i2, i3}
	count := 0
	for i := 0; i < n; i++ {
		for _, c := range chosen {
			if c == i {
				pick[count] = i
				count++
				break
			}
		}
	}
	return count
}

// carried is what a manifold hands on to the next one between the same
// bodies: each point's feature id, anchor on body a and normal impulse,
// and the friction impulses. The narrowphase saves it and then computes the new manifold
// in place, rather than building the new one apart and copying 350 bytes
// per contact back.
type carried struct {
	count    int32
	id       [maxManifoldPoints]uint32
	impulse  [maxManifoldPoints]float64
	anchor   [maxManifoldPoints]vec3 // anchorA, for matching by position
	friction vec3
	twist    float64
}

// save records m's impulses in c, and its points' anchors when they will
// be matched by position (anchors).
func (c *carried) save(m *manifold, anchors bool) {
	c.count = m.count
	for j := int32(0); j < m.count; j++ {
		c.id[j] = m.points[j].id
		c.impulse[j] = m.points[j].normalImpulse
		if anchors {
			c.anchor[j] = m.points[j].anchorA
		}
	}
	c.friction = m.frictionImpulse
	c.twist = m.twistImpulse
}

// carryImpulses copies the impulses of old points onto new points: a new
// point takes the impulse of the old point with its feature id, or, when
// no old point has it, of the nearest old point not yet taken whose
// anchor on body a lies within near metres of its own (near = 0: by id
// only). Both manifolds hold at most 4 points, so each loop is 16
// comparisons at most. The friction impulses carry over when at least
// one point did: the bodies are still in the same contact.
//
// Why by position too: the feature ids name the edges and faces whose
// clipping made a point, and when two boxes tilt against each other by a
// fraction of a degree the clipping can start from another face or edge,
// renaming corners that have not moved. Matched by id only, the impulses
// summed over a sagging ten-cube tower (rigid contacts, which show it
// most) fell by 30-50 % every few steps, and each loss sagged the tower
// again while the impulses rebuilt. Matched by position as well (Jolt
// matches by position only), a tower and a pyramid stand on 6 substeps
// as they stand on 8 by id (Config.WarmStartDistance;
// docs/design/physics-many-worlds.md, fourth round).
func carryImpulses(nm *manifold, old *carried, near float64) {
	matched := false
	var taken [maxManifoldPoints]bool
	var found [maxManifoldPoints]bool
	for i := int32(0); i < nm.count; i++ {
		np := &nm.points[i]
		if j := old.byID(np.id); j >= 0 {
			np.normalImpulse = old.impulse[j]
			taken[j], found[i], matched = true, true, true
		}
	}
	// Then the points no id matched, from the old points no id took.
	for i := int32(0); i < nm.count && near > 0; i++ {
		np := &nm.points[i]
		if found[i] {
			continue
		}
		if j := old.nearest(np.anchorA, float64(near*near), &taken); j >= 0 {
			np.normalImpulse = old.impulse[j]
			taken[j], matched = true, true
		}
	}
	if matched {
		nm.frictionImpulse = old.friction
		nm.twistImpulse = old.twist
	}
}

// byID returns the index of the old point with feature id, or -1.
func (c *carried) byID(id uint32) int32 {
	for j := int32(0); j < c.count; j++ {
		if c.id[j] == id {
			return j
		}
	}
	return -1
}

// nearest returns the index of the old point not taken whose anchor is
// nearest to anchor, closer than √near2, or -1. Ties go to the lower
// index (the loop keeps the first strictly nearer one), so the choice is
// the same on every run.
func (c *carried) nearest(anchor vec3, near2 float64, taken *[maxManifoldPoints]bool) int32 {
	best := int32(-1)
	for j := int32(0); j < c.count; j++ {
		d := sub(anchor, c.anchor[j])
		if d2 := dot(d, d); !taken[j] && d2 < near2 {
			best, near2 = j, d2
		}
	}
	return best
}
