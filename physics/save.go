package physics

// Design note: save and restore, for rewind and replay (client-side
// prediction keeps the world as it was at past frames and goes back to one
// when a correction arrives). A Saved holds what a later Step reads of a
// World and nothing else: each body's state (pose, velocities, the sleep
// timer and island, the pose it fell asleep at, its speed limits, the head
// of its contact list: 88 bytes, and 128 more where the velocities, rest
// pose and limits are not a sleeping body's), the forces waiting for the
// next step (only those not zero), every live
// contact with its manifold's points (the warm-start impulses live there),
// the contact pool's free list, which contacts the last step simulated
// (the next step clears their events first), the sleeping islands and the
// counters. Leaving any of that out would make a replay differ from the
// original run in the last bits, and in a chaotic pile of 901 cubes a
// last-bit difference grows into a visible one.
//
// What is left out is rebuilt by Restore or by the next Step before
// anything reads it:
//
//   - each body's rotation matrix (a function of its quaternion) and, for
//     a sleeping body, its fat bounds (a function of the pose it fell
//     asleep at: nothing moves them while it sleeps);
//   - the broadphase's sleeping grid (marked dirty, so the next step
//     rebuilds it from those bounds), its search marks (cleared: a mark
//     left by the future the world is rewound from would hide a pair) and
//     its sweep order (only where the next sort starts from: the pairs it
//     finds do not depend on it);
//   - the list of awake bodies (marked dirty: rebuilt from the flags);
//   - the solver's arrays, the islands' union-find, and every body's
//     motion bounds: scratch that each step rebuilds from the above.
//
// A contact is saved as a cache entry: its key, its links in its bodies'
// contact lists, its normal, events and friction impulses, and only the
// manifold points it has (a 4-point pool entry is 432 bytes; a resting
// cube's ground contact saves as 104 + 4 × 72). The body shapes are the
// world's own, not the save's: a save records a fingerprint of them and
// Restore refuses a world whose shapes differ.
//
// Measured on a katamari pile (901 cubes, 1,334 contacts, 143 awake):
// 1.89 MB per save when Saved held a whole World, 0.70 MB now (Bytes, the
// arrays' room for a quarter more contacts included); on the katamari
// script's world at frames 150, 450, 900 and 1300, 0.66, 0.96, 1.30 and
// 1.39 MB then, 0.13, 0.21, 0.31 and 0.29 MB now.
// Once a Saved value has held a world of the same size, saving and
// restoring allocate nothing. TestSaveRestoreEveryStateField fails when a
// field is added to World and neither saved nor declared scratch.

import (
	"errors"
	"math"
	"unsafe"
)

// Errors Restore returns.
var (
	// ErrNotSaved: the Saved value holds no world yet.
	ErrNotSaved = errors.New("physics: restore from an empty save")
	// ErrSavedMismatch: the save is of a world with another body count,
	// other body shapes or another configuration.
	ErrSavedMismatch = errors.New("physics: restore from a different world")
)

// savedBody is the part of a body that changes while the world runs, as
// it is for a sleeping body: its velocities zero, its rest pose its pose
// and its speed limits the configuration's. A body that differs in any of
// these (an awake one, mostly) has a bodyExtra as well: most of a pile is
// asleep, and 88 bytes a body instead of 200 is a third of a save.
type savedBody struct {
	pos               vec3
	q                 quat
	sleepTime         float64
	island, islandNxt int32
	contactHead       int32
	extra             int32 // index into Saved.extras, or −1
	awake             bool
}

// bodyExtra is the rest of a body's state, when it is not the default.
type bodyExtra struct {
	v, w           vec3
	restPos        vec3
	restQ          quat
	maxLin, maxAng float64
}

// hasExtra reports whether b needs a bodyExtra.
func (w *World) hasExtra(b *body) bool {
	return b.v != (vec3{}) || b.w != (vec3{}) || b.restPos != b.pos || b.restQ != b.q ||
		b.maxLin != w.cfg.MaxLinearSpeed || b.maxAng != w.cfg.MaxAngularSpeed
}

// savedForce is a force and torque waiting for the next Step (only bodies
// with one are saved: after a Step every body's are zero).
type savedForce struct {
	body          int32
	force, torque vec3
}

// savedContact is a live contact without its manifold's points (those are
// in Saved.points, count of them, in the same order as the contacts).
type savedContact struct {
	key             uint64
	id              int32 // index in the pool
	next, prev      [2]int32
	count           int32
	normal          vec3
	frictionImpulse vec3
	twistImpulse    float64
	impulse         float64
	flags           uint8
}

// Saved is a saved World state. The zero value is ready to use; reuse one
// value for many saves to avoid allocating.
type Saved struct {
	valid  bool
	cfg    Config
	shapes uint64 // shapeHash of the world saved

	bodies   []savedBody
	extras   []bodyExtra
	forces   []savedForce
	contacts []savedContact // in key order
	points   []manifoldPoint
	free     []int32 // the pool's free entries, in contactSet.free's order
	active   []int32
	poolLen  int32
	islands  []sleepIsland
	islFree  int32
	sleeping int
	stats    Stats
}

// Valid reports whether s holds a saved world.
func (s *Saved) Valid() bool { return s.valid }

// Bytes is the memory s holds, in bytes: its fixed part and the capacity
// of its arrays (what the save keeps allocated, not only what it uses).
func (s *Saved) Bytes() int {
	return int(unsafe.Sizeof(*s)) +
		cap(s.bodies)*int(unsafe.Sizeof(savedBody{})) +
		cap(s.extras)*int(unsafe.Sizeof(bodyExtra{})) +
		cap(s.forces)*int(unsafe.Sizeof(savedForce{})) +
		cap(s.contacts)*int(unsafe.Sizeof(savedContact{})) +
		cap(s.points)*int(unsafe.Sizeof(manifoldPoint{})) +
		(cap(s.free)+cap(s.active))*4 +
		cap(s.islands)*int(unsafe.Sizeof(sleepIsland{}))
}

// Save copies the state of w that later steps read into s.
func (w *World) Save(s *Saved) {
	s.valid = true
	s.cfg = w.cfg
	s.shapes = w.shapeHash()
	s.stats = w.stats

	if len(s.bodies) != len(w.bodies) { // a world's body count only grows
		s.bodies = make([]savedBody, len(w.bodies))
	}
	// One pass over the bodies (each body's saved fields are its first
	// four cache lines): the extras are appended, grown as fit grows.
	s.extras = s.extras[:0]
	s.forces = s.forces[:0] // almost always empty: after a Step every force is zero
	for i := range w.bodies {
		// Field by field: a composite literal is built on the stack and
		// then copied, which cost a third of the save.
		b, sb := &w.bodies[i], &s.bodies[i]
		sb.pos, sb.q, sb.sleepTime = b.pos, b.q, b.sleepTime
		sb.island, sb.islandNxt, sb.contactHead = b.island, b.islandNext, b.contactHead
		sb.extra, sb.awake = -1, b.awake
		if w.hasExtra(b) {
			n := len(s.extras)
			if n == cap(s.extras) { // grown as fit would: a quarter more room
				grown := make([]bodyExtra, n, n+n/4+32)
				copy(grown, s.extras)
				s.extras = grown
			}
			sb.extra = int32(n)
			s.extras = append(s.extras, bodyExtra{v: b.v, w: b.w, restPos: b.restPos, restQ: b.restQ, maxLin: b.maxLin, maxAng: b.maxAng})
		}
		if b.force != (vec3{}) || b.torque != (vec3{}) {
			s.forces = append(s.forces, savedForce{int32(i), b.force, b.torque})
		}
	}

	cs := &w.cs
	s.poolLen = int32(len(cs.pool))
	s.contacts = fit(s.contacts, len(cs.ids))
	points := 0
	for _, ci := range cs.ids {
		points += int(cs.pool[ci].m.count)
	}
	s.points = fit(s.points, points)
	first := 0
	for k, ci := range cs.ids {
		c, sc := &cs.pool[ci], &s.contacts[k]
		sc.key, sc.id, sc.next, sc.prev, sc.count = c.key, ci, c.next, c.prev, c.m.count
		sc.normal, sc.frictionImpulse, sc.twistImpulse = c.m.normal, c.m.frictionImpulse, c.m.twistImpulse
		sc.impulse, sc.flags = c.impulse, c.flags
		// Point by point: at most four, and a copy was a call to
		// memmove per contact.
		dst := s.points[first : first+int(c.m.count)]
		for j := range dst {
			dst[j] = c.m.points[j]
		}
		first += len(dst)
	}
	s.free = fit(s.free, len(cs.free))
	copy(s.free, cs.free)
	s.active = fit(s.active, len(cs.active))
	copy(s.active, cs.active)

	s.islands = fit(s.islands, len(w.isl.list))
	copy(s.islands, w.isl.list)
	s.islFree = w.isl.freeHead
	s.sleeping = w.isl.sleeping
}

// Restore puts w back in the state saved in s. It returns ErrNotSaved if s
// holds nothing, and ErrSavedMismatch if s was saved from a world with a
// different number of bodies, other shapes or another configuration; w is
// then unchanged.
func (w *World) Restore(s *Saved) error {
	if !s.valid {
		return ErrNotSaved
	}
	if len(s.bodies) != len(w.bodies) || s.cfg != w.cfg || s.shapes != w.shapeHash() {
		return ErrSavedMismatch
	}
	w.stats = s.stats
	for i := range w.bodies {
		b, sb := &w.bodies[i], &s.bodies[i]
		x := bodyExtra{restPos: sb.pos, restQ: sb.q, maxLin: w.cfg.MaxLinearSpeed, maxAng: w.cfg.MaxAngularSpeed}
		if sb.extra >= 0 {
			x = s.extras[sb.extra]
		}
		// A body's rotation matrix is always its quaternion's, and a
		// sleeping body's bounds always those of its rest pose: a body
		// already there (most of a pile rewound a few frames) keeps them.
		sameRest := !b.awake && !sb.awake && b.restPos == x.restPos && b.restQ == x.restQ
		if b.q != sb.q {
			b.rot = rotationMatrix(sb.q)
		}
		b.pos, b.q, b.v, b.w = sb.pos, sb.q, x.v, x.w
		b.restPos, b.restQ = x.restPos, x.restQ
		b.sleepTime, b.maxLin, b.maxAng = sb.sleepTime, x.maxLin, x.maxAng
		b.island, b.islandNext, b.contactHead, b.awake = sb.island, sb.islandNxt, sb.contactHead, sb.awake
		b.force, b.torque = vec3{}, vec3{}
		b.solverIndex = 0
		if !b.awake && !sameRest {
			w.setRestBounds(int32(i))
		}
	}
	for _, f := range s.forces {
		b := &w.bodies[f.body]
		b.force, b.torque = f.force, f.torque
	}
	// The awake list and the sleeping grid are rebuilt by the next step.
	w.awakeDirty = true
	bp := &w.bp
	bp.sleepingDirty = true
	clear(bp.stamps)
	bp.stamp = 0

	w.restoreContacts(s)

	w.isl.list = append(w.isl.list[:0], s.islands...)
	w.isl.freeHead = s.islFree
	w.isl.sleeping = s.sleeping
	return nil
}

// restoreContacts rebuilds the contact pool at the same indices, its free
// list in the same order (createContact takes from its head), the sorted
// key list and the last step's active list.
func (w *World) restoreContacts(s *Saved) {
	cs := &w.cs
	cs.pool = resize(cs.pool, int(s.poolLen))
	cs.keys = resize(cs.keys, len(s.contacts))
	cs.ids = resize(cs.ids, len(s.contacts))
	first := 0
	for k := range s.contacts {
		sc := &s.contacts[k]
		a, b := keyBodies(sc.key)
		// Field by field: the points past the count are never read, and
		// writing the whole 432-byte entry doubled the cost.
		c := &cs.pool[sc.id]
		c.key, c.a, c.b, c.next, c.prev = sc.key, a, b, sc.next, sc.prev
		c.flags, c.impulse = sc.flags, sc.impulse
		c.m.normal, c.m.count = sc.normal, sc.count
		c.m.frictionImpulse, c.m.twistImpulse = sc.frictionImpulse, sc.twistImpulse
		for j := int32(0); j < sc.count; j++ { // point by point, as in Save
			c.m.points[j] = s.points[first]
			first++
		}
		cs.keys[k], cs.ids[k] = sc.key, sc.id
	}
	cs.free = append(cs.free[:0], s.free...)
	for _, ci := range s.free {
		cs.pool[ci] = contact{a: -1, b: -1}
	}
	cs.active = append(cs.active[:0], s.active...)
}

// fit returns s with length n, reusing its storage when it is large enough
// (the contents are then stale and must be overwritten). Unlike resize,
// which doubles for the step's scratch, it leaves a quarter of room, and
// 32 more for the short lists (the free and active contacts come and go
// by ones): a ring of saves holds many of these, and while a katamari ball
// forms the contacts grow, so that each save of the ring outgrows its
// arrays in turn. A sixteenth held 6 % less but reallocated four times as
// often (1.3 allocations per tick in the 2004 client's ring, mid-gather).
func fit[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4+32)
	}
	return s[:n]
}

// setRestBounds sets a sleeping body's fat bounds (and the figures
// setBounds gives with them) as they were when it fell asleep: from the
// pose it fell asleep at, with no sweep. SetState may have moved it a
// little since, within the tolerance that leaves it asleep; its bounds
// stay where they were, and so must a restored world's.
func (w *World) setRestBounds(i int32) {
	b := &w.bodies[i]
	pos, rot := b.pos, b.rot
	b.pos, b.rot = b.restPos, rotationMatrix(b.restQ)
	w.setBounds(i, 0)
	b.pos, b.rot = pos, rot
}

// shapeHash fingerprints the bodies' shapes (half extents and mass, from
// which the rest of a body's constants follow), which a save does not
// copy: a world restored from a save must have the same. It is computed
// once after the last AddBox.
func (w *World) shapeHash() uint64 {
	if w.shapesValid {
		return w.shapes
	}
	h := uint64(fnvOffset64)
	for i := range w.bodies {
		b := &w.bodies[i]
		for _, x := range [4]float64{b.halfExtents.x, b.halfExtents.y, b.halfExtents.z, b.mass} {
			h = fnvWord(h, math.Float64bits(x))
		}
	}
	w.shapes, w.shapesValid = h, true
	return h
}
