package physics

// Design note: exact collision of two boxes, and of a box with the ground.
//
// Box–box uses the separating axis test (SAT). Two convex shapes do not
// overlap exactly when some axis exists onto which their projections do not
// overlap. For two boxes it is enough to try 15 axes (Gottschalk, Lin and
// Manocha, "OBBTree", 1996): the 3 face normals of each box and the 9 cross
// products of an edge direction of one box with an edge direction of the
// other. On each axis the gap between the projections is a "separation"
// (negative when they overlap). The axis with the largest separation is
// the best guess at the contact normal, and its separation is a lower
// bound on the distance between the boxes.
//
// Because contacts are speculative, we do not stop at "no overlap": as
// long as the best separation is under the pair's margin, we build contact
// points, some of which may have a positive separation (a gap the solver
// is allowed to close this step, but no more).
//
// From the best axis to contact points (the approach of Dirk Gregorius,
// "Robust Contact Creation for Physics Simulations", GDC 2015, and of
// Box2D's polygon clipping, extended to 3D):
//
//   - Face axis: the box that owns the face is the "reference"; the other
//     box's face most anti-parallel to the normal is the "incident" face.
//     The incident face (a quad) is clipped against the four side planes
//     of the reference face (Sutherland–Hodgman), leaving up to 8 points
//     that lie over the reference face. Each point's depth below the
//     reference face is its separation. Points deeper than the margin are
//     dropped, and at most 4 are kept (manifold.go explains which).
//   - Edge axis: one point, midway between the closest points of the two
//     edges that are furthest along the axis.
//
// The choice between nearly equal axes is biased (face of the first box
// over the second, faces over edges) with small tolerances, so that a
// resting contact keeps the same reference face from step to step. Its
// points then keep the same feature ids, which is what lets warm starting
// reuse last step's impulses.
//
// Feature ids: a clipped point lies where two features cross: two edges of
// the incident face, or an incident edge and a side plane of the reference
// face, or two side planes. Tagging each polygon edge with the feature it
// lies on (incident edges 0–3, side planes 4–7) and each vertex with the
// tags of its incoming and outgoing edges gives a name for every point that
// stays the same while the boxes move a little (the idea of Box2D Lite's
// "ContactID"). The id also records which faces were used.

import "math"

// box is the geometry of a body for collision: centre, rotation (columns
// are the box's axes in world space) and half extents.
type box struct {
	c vec3
	r mat3
	e [3]float64
}

// makeBox returns the collision geometry of a body.
func makeBox(b *body) box {
	return box{c: b.pos, r: b.rot, e: [3]float64{b.halfExtents.x, b.halfExtents.y, b.halfExtents.z}}
}

// Axis selection tolerances. A candidate axis replaces the current best
// only when its separation is larger by more than
// rel·|best| + abs·LinearSlop. Faces of the second box need to beat faces
// of the first by 2 %, edges need to beat faces by 10 %: edge contacts give
// a single point, so they are only used when they are clearly right.
const (
	faceRelTol = 0.02
	faceAbsTol = 0.1
	edgeRelTol = 0.10
	edgeAbsTol = 0.5
)

// edgeParallelSq: edge pairs whose directions are within about 0.06° of
// parallel (|a×b|² below this) are skipped: their cross product has no
// meaningful direction, and the face axes already cover that case.
const edgeParallelSq = 1e-6

// collideBoxes computes the manifold between boxes a and b (normal from a
// towards b), keeping points with separation ≤ margin, and returns the
// number of points. The caller has already refused the pairs whose
// bounding spheres are apart (spheresApart).
//
// hint is the pair's separating axis of the last step (axisNone: none,
// or the pair touched): tried first, it ends the test for a pair that
// stays apart after four dot products instead of the fifteen of init and
// up to fifteen axes. Any axis that separates by more than the margin
// gives the same answer (no point), so the hint changes only how soon a
// separated pair is refused, never a manifold; collideBoxes stores the
// axis that refused the pair, or axisNone, for the next step.
func collideBoxes(a, b *box, margin, slop float64, m *manifold, hint *uint8) int {
	m.count = 0
	d := sub(b.c, a.c)
	if *hint != axisNone && separates(a, b, d, *hint, margin) {
		return 0
	}
	var q satQuery
	q.init(a, b, d)
	// The separating axis test, in three groups of axes; any axis with a
	// gap wider than the margin means no contact at all.
	if !q.faceAxes(a, b, margin) || !q.edgeAxes(a, b, margin) {
		*hint = q.stop
		return 0
	}
	*hint = axisNone
	return q.manifold(a, b, margin, slop, m)
}

// spheresApart reports whether the bounding spheres of bodies a and b,
// grown by the pair's margin, are apart: a cheap early out for pairs whose
// fat bounds overlap but which are clearly apart (a third of the box
// tests of a katamari gather), taken before the boxes are even built.
func spheresApart(a, b *body, margin float64) bool {
	d := sub(b.pos, a.pos)
	reach := a.radius + b.radius + margin
	return dot(d, d) > float64(reach*reach)
}

// Separating axis codes: axisNone, a's face axes 1-3, b's face axes 4-6,
// and the edge axes (i, j) as 7 + 3i + j.
const (
	axisNone  = 0
	axisFaceB = 4
	axisEdge  = 7
)

// separates reports whether the axis with the given code separates a and
// b by more than margin, computing only what that axis reads, with the
// arithmetic faceAxes and edgeAxes use for it (the same dot products, the
// same sums in the same order), so that it refuses exactly the pairs they
// would refuse on that axis.
func separates(a, b *box, d vec3, code uint8, margin float64) bool {
	switch {
	case code < axisFaceB:
		i := int(code) - 1
		ai := a.r.c[i]
		s := math.Abs(dot(ai, d)) - a.e[i] - (float64(b.e[0]*math.Abs(dot(ai, b.r.c[0]))) +
			float64(b.e[1]*math.Abs(dot(ai, b.r.c[1]))) + float64(b.e[2]*math.Abs(dot(ai, b.r.c[2]))))
		return s > margin
	case code < axisEdge:
		j := int(code) - axisFaceB
		bj := b.r.c[j]
		s := math.Abs(dot(bj, d)) - b.e[j] - (float64(a.e[0]*math.Abs(dot(a.r.c[0], bj))) +
			float64(a.e[1]*math.Abs(dot(a.r.c[1], bj))) + float64(a.e[2]*math.Abs(dot(a.r.c[2], bj))))
		return s > margin
	}
	return separatesOnEdge(a, b, d, int(code-axisEdge)/3, int(code-axisEdge)%3, margin)
}

// separatesOnEdge is separates for the edge axis (i, j): edgeAxes' formula
// for that axis with i1, i2 (j1, j2) a's (b's) two other axes in cyclic
// order.
func separatesOnEdge(a, b *box, d vec3, i, j int, margin float64) bool {
	i1, i2 := (i+1)%3, (i+2)%3
	j1, j2 := (j+1)%3, (j+2)%3
	ai, bj := a.r.c[i], b.r.c[j]
	cij := dot(ai, bj)
	l2 := 1 - float64(cij*cij)
	if l2 < edgeParallelSq {
		return false
	}
	ci1j, ci2j := dot(a.r.c[i1], bj), dot(a.r.c[i2], bj)
	pa := float64(a.e[i1]*math.Abs(ci2j)) + float64(a.e[i2]*math.Abs(ci1j))
	pb := float64(b.e[j1]*math.Abs(dot(ai, b.r.c[j2]))) + float64(b.e[j2]*math.Abs(dot(ai, b.r.c[j1])))
	dl := float64(dot(a.r.c[i2], d)*ci1j) - float64(dot(a.r.c[i1], d)*ci2j)
	return (math.Abs(dl)-pa-pb)/math.Sqrt(l2) > margin
}

// satQuery is the separating axis test of one box pair: what every axis
// reads (the relative rotation and the centre offsets), and the best axis
// of each group found so far.
type satQuery struct {
	// C[i][j] = (axis i of a)·(axis j of b): the rotation from b's frame
	// to a's frame. Its absolute values give projected radii.
	C, absC [3][3]float64
	// The centre offset b.c − a.c in a's frame and in b's frame.
	ta, tb [3]float64

	sepA, sepB, sepE float64 // best separation of a's faces, b's, the edges
	faceA, faceB     int
	edgeA, edgeB     int // -1 when no edge pair was tried
	edgeSign         float64
	stop             uint8 // the axis code that refused the pair
}

// init computes the relative rotation and the centre offsets (written
// out: the loops' index arithmetic and bounds checks cost as much as the
// products).
func (q *satQuery) init(a, b *box, d vec3) {
	q.C[0][0] = dot(a.r.c[0], b.r.c[0])
	q.C[0][1] = dot(a.r.c[0], b.r.c[1])
	q.C[0][2] = dot(a.r.c[0], b.r.c[2])
	q.C[1][0] = dot(a.r.c[1], b.r.c[0])
	q.C[1][1] = dot(a.r.c[1], b.r.c[1])
	q.C[1][2] = dot(a.r.c[1], b.r.c[2])
	q.C[2][0] = dot(a.r.c[2], b.r.c[0])
	q.C[2][1] = dot(a.r.c[2], b.r.c[1])
	q.C[2][2] = dot(a.r.c[2], b.r.c[2])
	q.absC[0] = [3]float64{math.Abs(q.C[0][0]), math.Abs(q.C[0][1]), math.Abs(q.C[0][2])}
	q.absC[1] = [3]float64{math.Abs(q.C[1][0]), math.Abs(q.C[1][1]), math.Abs(q.C[1][2])}
	q.absC[2] = [3]float64{math.Abs(q.C[2][0]), math.Abs(q.C[2][1]), math.Abs(q.C[2][2])}
	q.ta = [3]float64{dot(a.r.c[0], d), dot(a.r.c[1], d), dot(a.r.c[2], d)}
	q.tb = [3]float64{dot(b.r.c[0], d), dot(b.r.c[1], d), dot(b.r.c[2], d)}
}

// faceAxes tries the three face normals of each box, and reports false
// when one of them separates the boxes by more than margin. The gap along
// a's axis i is |t_i| minus a's half extent minus b's projected radius,
// and the same from b. (Written out, as init.)
func (q *satQuery) faceAxes(a, b *box, margin float64) bool {
	q.sepA, q.faceA = math.Inf(-1), 0
	q.sepB, q.faceB = math.Inf(-1), 0
	return q.faceAxis(&q.sepA, &q.faceA, 0, math.Abs(q.ta[0])-a.e[0]-(float64(b.e[0]*q.absC[0][0])+float64(b.e[1]*q.absC[0][1])+float64(b.e[2]*q.absC[0][2])), margin, 1) &&
		q.faceAxis(&q.sepA, &q.faceA, 1, math.Abs(q.ta[1])-a.e[1]-(float64(b.e[0]*q.absC[1][0])+float64(b.e[1]*q.absC[1][1])+float64(b.e[2]*q.absC[1][2])), margin, 2) &&
		q.faceAxis(&q.sepA, &q.faceA, 2, math.Abs(q.ta[2])-a.e[2]-(float64(b.e[0]*q.absC[2][0])+float64(b.e[1]*q.absC[2][1])+float64(b.e[2]*q.absC[2][2])), margin, 3) &&
		q.faceAxis(&q.sepB, &q.faceB, 0, math.Abs(q.tb[0])-b.e[0]-(float64(a.e[0]*q.absC[0][0])+float64(a.e[1]*q.absC[1][0])+float64(a.e[2]*q.absC[2][0])), margin, 4) &&
		q.faceAxis(&q.sepB, &q.faceB, 1, math.Abs(q.tb[1])-b.e[1]-(float64(a.e[0]*q.absC[0][1])+float64(a.e[1]*q.absC[1][1])+float64(a.e[2]*q.absC[2][1])), margin, 5) &&
		q.faceAxis(&q.sepB, &q.faceB, 2, math.Abs(q.tb[2])-b.e[2]-(float64(a.e[0]*q.absC[0][2])+float64(a.e[1]*q.absC[1][2])+float64(a.e[2]*q.absC[2][2])), margin, 6)
}

// faceAxis records face axis i's separation s in the best (sep, face) of
// its box, and reports false when s is over the margin (the axis's code
// then in q.stop).
func (q *satQuery) faceAxis(sep *float64, face *int, i int, s, margin float64, code uint8) bool {
	if s > margin {
		q.stop = code
		return false
	}
	if s > *sep {
		*sep, *face = s, i
	}
	return true
}

// edgeAxes tries the nine edge axes L = (edge i of a) × (edge j of b),
// and reports false when one of them separates the boxes by more than
// margin. Every projection onto L can be read off C and the centre
// offset, without building L: with i1, i2 the two other axes of a (and
// j1, j2 of b), a_k·L is −C[i2][j] for k = i1 and C[i1][j] for k = i2 (0
// for k = i), b_k·L is C[i][j2] for k = j1 and −C[i][j1] for k = j2, and
// d·L follows from d's coordinates ta in a's frame. |L|² = 1 − C[i][j]²
// turns the gap into a distance. (The OBB test of Gottschalk, Lin and
// Manocha is written this way; it is a third of the work of projecting on
// a built axis, and the axis itself is built only for the winner.)
func (q *satQuery) edgeAxes(a, b *box, margin float64) bool {
	q.sepE, q.edgeA, q.edgeB = math.Inf(-1), -1, -1
	q.edgeSign = 1.0
	// The nine axes written out (i, j and the other axes' indices as
	// constants): the loop's index arithmetic and bounds checks were a
	// third of its instructions.
	if !q.edgeAxis(margin, 0, 0, 1-float64(q.C[0][0]*q.C[0][0]),
		float64(a.e[1]*q.absC[2][0])+float64(a.e[2]*q.absC[1][0]),
		float64(b.e[1]*q.absC[0][2])+float64(b.e[2]*q.absC[0][1]),
		float64(q.ta[2]*q.C[1][0])-float64(q.ta[1]*q.C[2][0])) {
		return q.refuse(axisEdge + 0)
	}
	if !q.edgeAxis(margin, 0, 1, 1-float64(q.C[0][1]*q.C[0][1]),
		float64(a.e[1]*q.absC[2][1])+float64(a.e[2]*q.absC[1][1]),
		float64(b.e[2]*q.absC[0][0])+float64(b.e[0]*q.absC[0][2]),
		float64(q.ta[2]*q.C[1][1])-float64(q.ta[1]*q.C[2][1])) {
		return q.refuse(axisEdge + 1)
	}
	if !q.edgeAxis(margin, 0, 2, 1-float64(q.C[0][2]*q.C[0][2]),
		float64(a.e[1]*q.absC[2][2])+float64(a.e[2]*q.absC[1][2]),
		float64(b.e[0]*q.absC[0][1])+float64(b.e[1]*q.absC[0][0]),
		float64(q.ta[2]*q.C[1][2])-float64(q.ta[1]*q.C[2][2])) {
		return q.refuse(axisEdge + 2)
	}
	if !q.edgeAxis(margin, 1, 0, 1-float64(q.C[1][0]*q.C[1][0]),
		float64(a.e[2]*q.absC[0][0])+float64(a.e[0]*q.absC[2][0]),
		float64(b.e[1]*q.absC[1][2])+float64(b.e[2]*q.absC[1][1]),
		float64(q.ta[0]*q.C[2][0])-float64(q.ta[2]*q.C[0][0])) {
		return q.refuse(axisEdge + 3)
	}
	if !q.edgeAxis(margin, 1, 1, 1-float64(q.C[1][1]*q.C[1][1]),
		float64(a.e[2]*q.absC[0][1])+float64(a.e[0]*q.absC[2][1]),
		float64(b.e[2]*q.absC[1][0])+float64(b.e[0]*q.absC[1][2]),
		float64(q.ta[0]*q.C[2][1])-float64(q.ta[2]*q.C[0][1])) {
		return q.refuse(axisEdge + 4)
	}
	if !q.edgeAxis(margin, 1, 2, 1-float64(q.C[1][2]*q.C[1][2]),
		float64(a.e[2]*q.absC[0][2])+float64(a.e[0]*q.absC[2][2]),
		float64(b.e[0]*q.absC[1][1])+float64(b.e[1]*q.absC[1][0]),
		float64(q.ta[0]*q.C[2][2])-float64(q.ta[2]*q.C[0][2])) {
		return q.refuse(axisEdge + 5)
	}
	if !q.edgeAxis(margin, 2, 0, 1-float64(q.C[2][0]*q.C[2][0]),
		float64(a.e[0]*q.absC[1][0])+float64(a.e[1]*q.absC[0][0]),
		float64(b.e[1]*q.absC[2][2])+float64(b.e[2]*q.absC[2][1]),
		float64(q.ta[1]*q.C[0][0])-float64(q.ta[0]*q.C[1][0])) {
		return q.refuse(axisEdge + 6)
	}
	if !q.edgeAxis(margin, 2, 1, 1-float64(q.C[2][1]*q.C[2][1]),
		float64(a.e[0]*q.absC[1][1])+float64(a.e[1]*q.absC[0][1]),
		float64(b.e[2]*q.absC[2][0])+float64(b.e[0]*q.absC[2][2]),
		float64(q.ta[1]*q.C[0][1])-float64(q.ta[0]*q.C[1][1])) {
		return q.refuse(axisEdge + 7)
	}
	if !q.edgeAxis(margin, 2, 2, 1-float64(q.C[2][2]*q.C[2][2]),
		float64(a.e[0]*q.absC[1][2])+float64(a.e[1]*q.absC[0][2]),
		float64(b.e[0]*q.absC[2][1])+float64(b.e[1]*q.absC[2][0]),
		float64(q.ta[1]*q.C[0][2])-float64(q.ta[0]*q.C[1][2])) {
		return q.refuse(axisEdge + 8)
	}
	return true
}

// refuse records the axis that separated the boxes, and reports false.
func (q *satQuery) refuse(code uint8) bool {
	q.stop = code
	return false
}

// edgeAxis tries the edge axis (i, j), given |L|² (l2), the two boxes'
// projected radii on L (pa, pb) and the centre offset's projection (dl),
// each times |L|; it reports false when the axis separates the boxes by
// more than margin.
func (q *satQuery) edgeAxis(margin float64, i, j int, l2, pa, pb, dl float64) bool {
	if l2 < edgeParallelSq {
		return true
	}
	s := (math.Abs(dl) - pa - pb) / math.Sqrt(l2)
	if s > margin {
		return false
	}
	if s > q.sepE {
		q.sepE, q.edgeA, q.edgeB = s, i, j
		q.edgeSign = 1
		if dl < 0 {
			q.edgeSign = -1
		}
	}
	return true
}

// manifold builds the contact points from the best axis, biased towards
// faces of a, then faces of b, then edges, and returns their number.
func (q *satQuery) manifold(a, b *box, margin, slop float64, m *manifold) int {
	var normalE vec3
	if q.edgeA >= 0 {
		l := cross(a.r.c[q.edgeA], b.r.c[q.edgeB])
		normalE = scale(l, q.edgeSign/length(l))
	}
	useB := q.sepB > q.sepA+float64(faceRelTol*math.Abs(q.sepA))+float64(faceAbsTol*slop)
	faceSep := q.sepA
	if useB {
		faceSep = q.sepB
	}
	useEdge := q.edgeA >= 0 && q.sepE > faceSep+float64(edgeRelTol*math.Abs(faceSep))+float64(edgeAbsTol*slop)
	if useEdge {
		return edgeContact(a, b, q.edgeA, q.edgeB, normalE, m)
	}
	var n int
	if useB {
		// Reference face on b; its outward normal points towards a.
		sign := 1.0
		if q.tb[q.faceB] > 0 {
			sign = -1
		}
		n = faceContact(b, a, q.faceB, sign, true, margin, m)
	} else {
		sign := 1.0
		if q.ta[q.faceA] < 0 {
			sign = -1
		}
		n = faceContact(a, b, q.faceA, sign, false, margin, m)
	}
	if n == 0 && q.edgeA >= 0 && q.sepE <= margin {
		// The faces' projections do not overlap (boxes meeting edge to
		// edge from afar); fall back to the edge pair so a speculative
		// contact still exists.
		return edgeContact(a, b, q.edgeA, q.edgeB, normalE, m)
	}
	// Express anchors relative to both centres.
	for k := 0; k < n; k++ {
		p := &m.points[k]
		p.anchorB = sub(p.anchorA, b.c)
		p.anchorA = sub(p.anchorA, a.c)
	}
	return n
}

// clipVertex is a point of the incident polygon in the reference face's
// frame: x, y along the face, z the height above it (the separation). in
// and out name the features of the polygon edges arriving at and leaving
// the vertex.
type clipVertex struct {
	x, y, z float64
	in, out uint8
}

// faceContact clips the incident box's face against the reference box's
// face (axis, sign) and writes the points into m, with anchorA temporarily
// holding the world point. flip says the reference box is the pair's b.
func faceContact(ref, inc *box, axis int, sign float64, flip bool, margin float64, m *manifold) int {
	refN := scale(ref.r.c[axis], sign)
	refCentre := madd(ref.c, float64(sign*ref.e[axis]), ref.r.c[axis])
	iu, iv := (axis+1)%3, (axis+2)%3
	u, v := ref.r.c[iu], ref.r.c[iv]
	eu, ev := ref.e[iu], ref.e[iv]

	// Incident face: the face of inc whose outward normal is most opposed
	// to refN.
	k, best := 0, -1.0
	for i := 0; i < 3; i++ {
		if d := math.Abs(dot(inc.r.c[i], refN)); d > best {
			k, best = i, d
		}
	}
	sk := 1.0
	if dot(inc.r.c[k], refN) > 0 {
		sk = -1
	}
	fc := madd(inc.c, float64(sk*inc.e[k]), inc.r.c[k])
	ip, iq := (k+1)%3, (k+2)%3
	pv := scale(inc.r.c[ip], inc.e[ip])
	qv := scale(inc.r.c[iq], inc.e[iq])

	// The incident quad in the reference frame. Vertex order goes around
	// the face; edge e joins vertex e to vertex e+1.
	rel := sub(fc, refCentre)
	cx, cy, cz := dot(rel, u), dot(rel, v), dot(rel, refN)
	px, py, pz := dot(pv, u), dot(pv, v), dot(pv, refN)
	qx, qy, qz := dot(qv, u), dot(qv, v), dot(qv, refN)
	var bufA, bufB [8]clipVertex
	bufA[0] = clipVertex{cx + px + qx, cy + py + qy, cz + pz + qz, 3, 0}
	bufA[1] = clipVertex{cx - px + qx, cy - py + qy, cz - pz + qz, 0, 1}
	bufA[2] = clipVertex{cx - px - qx, cy - py - qy, cz - pz - qz, 1, 2}
	bufA[3] = clipVertex{cx + px - qx, cy + py - qy, cz + pz - qz, 2, 3}

	// Clip against the four side planes x ≤ eu, -x ≤ eu, y ≤ ev, -y ≤ ev.
	n := clipSide(bufA[:4], &bufB, 0, 1, eu, 4)
	n = clipSide(bufB[:n], &bufA, 0, -1, eu, 5)
	n = clipSide(bufA[:n], &bufB, 1, 1, ev, 6)
	n = clipSide(bufB[:n], &bufA, 1, -1, ev, 7)

	// Keep points within the margin.
	kept := 0
	for i := 0; i < n; i++ {
		if bufA[i].z <= margin {
			bufA[kept] = bufA[i]
			kept++
		}
	}
	var pick [maxManifoldPoints]int
	count := reducePoints(bufA[:kept], &pick)

	refFace := uint32(axis * 2)
	if sign < 0 {
		refFace++
	}
	incFace := uint32(k * 2)
	if sk < 0 {
		incFace++
	}
	idBase := refFace<<11 | incFace<<8
	if flip {
		idBase |= 1 << 14
		m.normal = scale(refN, -1)
	} else {
		m.normal = refN
	}
	for i := 0; i < count; i++ {
		cv := &bufA[pick[i]]
		// The contact point is midway between the incident point and its
		// projection onto the reference face.
		p := madd(madd(madd(refCentre, cv.x, u), cv.y, v), 0.5*cv.z, refN)
		m.points[i] = manifoldPoint{
			anchorA:    p, // world point; made relative by the caller
			separation: cv.z,
			id:         idBase | uint32(cv.in)<<4 | uint32(cv.out),
		}
	}
	m.count = int32(count)
	return count
}

// clipSide clips polygon in against the half-plane sign·coord ≤ limit
// (coord 0 is x, 1 is y) and writes the result to out, returning its
// length. feature is the tag of the plane. A convex polygon gains at most
// one vertex per clip, so 4 vertices become at most 8.
func clipSide(in []clipVertex, out *[8]clipVertex, coord int, sign, limit float64, feature uint8) int {
	// The vertices' signed distances to the plane first (positive:
	// outside). Working on indices rather than copies of the vertices
	// keeps the loop below from moving 40-byte structs around.
	var dist [8]float64
	d := dist[:len(in)]
	inside := true
	for i := range in {
		c := in[i].x
		if coord != 0 {
			c = in[i].y
		}
		d[i] = float64(sign*c) - limit
		inside = inside && d[i] <= 0
	}
	if inside {
		// The usual case for faces that rest on each other: nothing to cut.
		return copy(out[:], in)
	}
	n := 0
	p := len(in) - 1
	for i := range in {
		prev, cur := &in[p], &in[i]
		dPrev, dCur := d[p], d[i]
		switch {
		case dPrev <= 0 && dCur <= 0:
			out[n] = *cur
			n++
		case dPrev <= 0: // leaving the half-plane
			if dPrev < 0 {
				out[n] = intersect(prev, cur, dPrev, dCur, prev.out, feature)
				n++
			}
		case dCur <= 0: // entering
			if dCur < 0 {
				out[n] = intersect(prev, cur, dPrev, dCur, feature, cur.in)
				n++
			}
			out[n] = *cur
			n++
		}
		p = i
	}
	return n
}

// intersect returns the point where segment a→b crosses the plane, given
// the signed distances of a and b (of opposite signs).
func intersect(a, b *clipVertex, da, db float64, in, out uint8) clipVertex {
	t := da / (da - db)
	return clipVertex{
		a.x + float64(t*(b.x-a.x)),
		a.y + float64(t*(b.y-a.y)),
		a.z + float64(t*(b.z-a.z)),
		in, out,
	}
}

// edgeContact builds the single point of an edge-edge contact: edge i of a
// and edge j of b, the pair whose cross product gave normal n (from a to
// b).
func edgeContact(a, b *box, i, j int, n vec3, m *manifold) int {
	// The edge of a parallel to axis i that lies furthest along n: for the
	// two other axes, take the side of the box that faces n. The sides
	// taken also name the edge (two bits).
	pa := a.c
	idA := uint32(i) << 2
	bit := uint32(0)
	for k := 0; k < 3; k++ {
		if k == i {
			continue
		}
		if dot(n, a.r.c[k]) >= 0 {
			pa = madd(pa, a.e[k], a.r.c[k])
			idA |= 1 << bit
		} else {
			pa = msub(pa, a.e[k], a.r.c[k])
		}
		bit++
	}
	// The edge of b parallel to axis j that lies furthest along -n.
	pb := b.c
	idB := uint32(j) << 2
	bit = 0
	for k := 0; k < 3; k++ {
		if k == j {
			continue
		}
		if dot(n, b.r.c[k]) <= 0 {
			pb = madd(pb, b.e[k], b.r.c[k])
			idB |= 1 << bit
		} else {
			pb = msub(pb, b.e[k], b.r.c[k])
		}
		bit++
	}
	// Closest points of the lines pa + s·da and pb + t·db: setting the
	// derivatives of |pa + s·da - pb - t·db|² to zero gives
	// s = (k·f - c)/(1 - k²), t = f + s·k with k = da·db, c = da·(pa-pb),
	// f = db·(pa-pb). 1 - k² = |da×db|² is not small: parallel pairs were
	// skipped.
	da, db := a.r.c[i], b.r.c[j]
	r := sub(pa, pb)
	kk := dot(da, db)
	c := dot(da, r)
	f := dot(db, r)
	den := 1 - float64(kk*kk)
	s := (float64(kk*f) - c) / den
	s = maxf(-a.e[i], minf(a.e[i], s))
	t := f + float64(s*kk)
	t = maxf(-b.e[j], minf(b.e[j], t))
	ca := madd(pa, s, da)
	cb := madd(pb, t, db)
	p := scale(add(ca, cb), 0.5)
	m.normal = n
	m.points[0] = manifoldPoint{
		anchorA:    sub(p, a.c),
		anchorB:    sub(p, b.c),
		separation: dot(sub(cb, ca), n),
		id:         1<<15 | idA<<4 | idB,
	}
	m.count = 1
	return 1
}

// collideBoxGround computes the manifold between box a and the ground
// plane z = 0, normal (0, 0, -1) from the box to the ground. The contact
// points are the box's lowest corners within the margin, at most 4, and
// each corner's index (0–7) is its feature id.
func collideBoxGround(a *box, margin float64, m *manifold) int {
	m.count = 0
	// Corner k is c ± e0·axis0 ± e1·axis1 ± e2·axis2, bit i of k choosing
	// the sign of term i; its height is c.z plus the z of those terms.
	var hz [3]float64
	var hv [3]vec3
	for i := 0; i < 3; i++ {
		hv[i] = scale(a.r.c[i], a.e[i])
		hz[i] = hv[i].z
	}
	var z [8]float64
	for k := 0; k < 8; k++ {
		zk := a.c.z
		for i := 0; i < 3; i++ {
			if k&(1<<i) != 0 {
				zk += hz[i]
			} else {
				zk -= hz[i]
			}
		}
		z[k] = zk
	}
	// Take the (up to) 4 lowest corners under the margin, lowest first;
	// ties go to the lower index so the choice is deterministic.
	var taken [8]bool
	count := 0
	for count < maxManifoldPoints {
		best := -1
		for k := 0; k < 8; k++ {
			if !taken[k] && z[k] <= margin && (best < 0 || z[k] < z[best]) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		taken[best] = true
		v := a.c
		for i := 0; i < 3; i++ {
			if best&(1<<i) != 0 {
				v = add(v, hv[i])
			} else {
				v = sub(v, hv[i])
			}
		}
		p := vec3{v.x, v.y, float64(0.5 * v.z)} // midway between corner and ground
		m.points[count] = manifoldPoint{
			anchorA:    sub(p, a.c),
			anchorB:    p,
			separation: v.z,
			id:         uint32(best),
		}
		count++
	}
	m.normal = vec3{0, 0, -1}
	m.count = int32(count)
	return count
}
