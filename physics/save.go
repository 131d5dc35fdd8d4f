package physics

// Design note: save and restore, for rewind and replay (client-side
// prediction keeps the world as it was at past frames and goes back to one
// when a correction arrives). A Saved holds what a later Step reads of a
// World and nothing else: each body's state (pose, velocities, the sleep
// timer and island, the pose it fell asleep at, its speed limits, the head
// of its contact list: 208 bytes), the forces waiting for the next step
// (only those not zero), every live
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
// cube's ground contact saves as 104 + 4 × 72). A contact with an awake
// body is saved compact, 40 bytes and, if it has points, 64 + 16 a point:
// its geometry is recomputed by the next step before anything reads it
// (see savedContact). The body
// shapes are the world's own, not the save's: a save records a
// fingerprint of them and Restore refuses a world whose shapes differ.
//
// Saves a few frames apart share most of a pile: the sleeping bodies do
// not change between them. So a save into a Saved that holds an earlier
// save of the same world (a ring reusing its oldest slot) copies only the
// bodies whose state changed since, and a restore of the world's own save
// writes only the bodies changed since it was taken. World.gen counts the
// saves and bodyGen records, per body, the gen of its last change: every
// body the step had awake (moved, woken, put to sleep), a body whose
// contact list gained or lost its head (an awake cube's contact with a
// sleeping one), a woken island, SetState, an impulse, a restore. A
// change that missed its stamp would make a later restore differ from the
// original run in its last bits: TestRingRewindsAsNeverSaved compares
// every incremental save with a whole one, and replays against a run that
// never saved; TestSaveSeesSleepingContactLists makes the changes the
// katamari scenes make rarely. The contacts are all copied each time: in
// the katamari gather nearly every contact has an awake body (the grid's
// sleeping cubes have none), so stamping them would save nothing there.
//
// Measured on a katamari pile (901 cubes, 1,334 contacts, 143 awake):
// 1.89 MB per save when Saved held a whole World, 0.70 MB now (Bytes, the
// arrays' room for a quarter more contacts included); on the katamari
// script's world at frames 150, 450, 900 and 1300, 0.66, 0.96, 1.30 and
// 1.39 MB then, 0.13, 0.21, 0.31 and 0.29 MB before the incremental saves,
// which keep every body's whole state at its index (about 110 kB more for
// 901 bodies, mostly won back by the compact contacts: 266 kB → 294 kB a
// save in the gather at frame 690, BenchmarkSaveRestoreGather; 342 kB →
// 338 kB at the end of the gather).
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

// savedBody is the part of a body that changes while the world runs.
// Each body has its own, at its index, so that a save into a Saved that
// holds an earlier save of the same world copies only the bodies changed
// since (see Save): most of a pile sleeps through the few frames between
// a ring's saves.
type savedBody struct {
	pos               vec3
	q                 quat
	sleepTime         float64
	island, islandNxt int32
	contactHead       int32
	// extra is used only by the bytes of a save (transfer.go), which
	// write the fields below only for a body whose are not a sleeping
	// body's (velocities zero, rest pose its pose, the configuration's
	// speed limits): the index of its bodyExtra, or −1.
	extra          int32
	awake          bool
	v, w           vec3
	restPos        vec3
	restQ          quat
	maxLin, maxAng float64
}

// bodyExtra is the rest of a body's state, in the bytes of a save, when
// it is not the default.
type bodyExtra struct {
	v, w           vec3
	restPos        vec3
	restQ          quat
	maxLin, maxAng float64
}

// hasExtra reports whether saved body b needs a bodyExtra in the bytes
// of a save.
func (s *Saved) hasExtra(b *savedBody) bool {
	return b.v != (vec3{}) || b.w != (vec3{}) || b.restPos != b.pos || b.restQ != b.q ||
		b.maxLin != s.cfg.MaxLinearSpeed || b.maxAng != s.cfg.MaxAngularSpeed
}

// savedForce is a force and torque waiting for the next Step (only bodies
// with one are saved: after a Step every body's are zero).
type savedForce struct {
	body          int32
	force, torque vec3
}

// savedContact is a live contact without its manifold's points (those are
// in Saved.points, count of them, in the same order as the contacts; or,
// for a compact one, in Saved.pulses).
//
// A contact with an awake body is saved compact: without its normal and
// its points' geometry (anchors and separation), only each point's feature
// id and warm-start impulse. The next Step either destroys such a contact
// (the broadphase no longer pairs its bodies) or recomputes its manifold
// in the narrowphase, which reads of the old one only what the carry-over
// needs (carried.save: ids, impulses, friction), before anything else
// reads it; a restore leaves those fields as the world has them.
// TestSaveRestoreEveryStateField poisons them (canonical) and checks that
// the run does not notice. A contact between sleeping bodies keeps its
// manifold through the steps and is saved whole. A compact contact
// without points (about half of the gather's: bounds that overlap, boxes
// that do not touch) has no savedRest either: its friction, twist and
// step impulse are zero (the narrowphase zeroed the friction and carried
// nothing over to no point; the step's impulse is only a solved
// contact's), so the save does not read them and a restore writes zeros.
type savedContact struct {
	key        uint64
	id         int32 // index in the pool
	next, prev [2]int32
	count      int32
	rest       int32 // index in Saved.rests, or −1: all zero
	flags      uint8
	compact    bool
}

// savedRest is the rest of a saved contact: its normal (zero when
// compact) and impulses.
type savedRest struct {
	normal          vec3
	frictionImpulse vec3
	twistImpulse    float64
	impulse         float64
}

// savedPulse is what a compact contact's point keeps (see savedContact).
type savedPulse struct {
	normalImpulse float64
	id            uint32
}

// Saved is a saved World state. The zero value is ready to use; reuse one
// value for many saves to avoid allocating.
type Saved struct {
	valid  bool
	cfg    Config
	shapes uint64 // shapeHash of the world saved

	// owner and gen: s holds owner's state as it was when owner.gen was
	// gen (see Save); owner is nil for a save read from bytes.
	owner *World
	gen   uint64

	bodies   []savedBody
	extras   []bodyExtra // only while reading bytes (DecodeSaved)
	forces   []savedForce
	contacts []savedContact  // in key order
	rests    []savedRest     // the contacts' normals and impulses (see savedContact.rest)
	points   []manifoldPoint // the whole contacts' points
	pulses   []savedPulse    // the compact contacts' points
	free     []int32         // the pool's free entries, in contactSet.free's order
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
		cap(s.rests)*int(unsafe.Sizeof(savedRest{})) +
		cap(s.points)*int(unsafe.Sizeof(manifoldPoint{})) +
		cap(s.pulses)*int(unsafe.Sizeof(savedPulse{})) +
		(cap(s.free)+cap(s.active))*4 +
		cap(s.islands)*int(unsafe.Sizeof(sleepIsland{}))
}

// Save copies the state of w that later steps read into s. If s holds an
// earlier save of w, only the bodies whose state changed since are copied
// (see World.gen).
func (w *World) Save(s *Saved) {
	incremental := s.valid && s.owner == w && len(s.bodies) == len(w.bodies)
	s.valid = true
	s.cfg = w.cfg
	s.shapes = w.shapeHash()
	s.stats = w.stats

	if len(s.bodies) != len(w.bodies) { // a world's body count only grows
		s.bodies = make([]savedBody, len(w.bodies))
	}
	for i, g := range w.bodyGen {
		if incremental && g <= s.gen {
			continue // unchanged since s was saved: s holds it already
		}
		w.saveBody(&s.bodies[i], &w.bodies[i])
	}
	s.owner, s.gen = w, w.gen
	w.gen++
	w.saveForces(s)

	w.saveContacts(s)
	cs := &w.cs
	s.free = fit(s.free, len(cs.free))
	copy(s.free, cs.free)
	s.active = fit(s.active, len(cs.active))
	copy(s.active, cs.active)

	s.islands = fit(s.islands, len(w.isl.list))
	copy(s.islands, w.isl.list)
	s.islFree = w.isl.freeHead
	s.sleeping = w.isl.sleeping
}

// saveContacts copies the live contacts in key order, each compact when
// one of its bodies is awake (see savedContact).
func (w *World) saveContacts(s *Saved) {
	cs := &w.cs
	s.poolLen = int32(len(cs.pool))
	s.contacts = fit(s.contacts, len(cs.ids))
	s.points, s.pulses, s.rests = s.points[:0], s.pulses[:0], s.rests[:0]
	for k, ci := range cs.ids {
		c, sc := &cs.pool[ci], &s.contacts[k]
		sc.key, sc.id, sc.next, sc.prev, sc.count = c.key, ci, c.next, c.prev, c.m.count
		sc.flags, sc.rest = c.flags, -1
		sc.compact = w.bodies[c.a].awake || (c.b >= 0 && w.bodies[c.b].awake)
		n := int(c.m.count)
		if !sc.compact || n > 0 {
			sc.rest = int32(len(s.rests))
			if len(s.rests) == cap(s.rests) { // grown as fit grows, rarely
				s.rests = grow(s.rests, 1)
			}
			s.rests = s.rests[:sc.rest+1]
			r := &s.rests[sc.rest]
			r.frictionImpulse, r.twistImpulse, r.impulse = c.m.frictionImpulse, c.m.twistImpulse, c.impulse
			r.normal = vec3{}
			if !sc.compact {
				r.normal = c.m.normal
			}
		}
		// Point by point: at most four, and a copy was a call to memmove
		// per contact.
		if sc.compact {
			s.pulses = grow(s.pulses, n)
			for j := range n {
				p := &c.m.points[j]
				s.pulses = append(s.pulses, savedPulse{p.normalImpulse, p.id})
			}
			continue
		}
		s.points = grow(s.points, n)
		for j := range n {
			s.points = append(s.points, c.m.points[j])
		}
	}
}

// saveBody copies body b's state into sb, field by field (a composite
// literal is built on the stack and then copied, which cost a third of
// the save).
func (w *World) saveBody(sb *savedBody, b *body) {
	sb.pos, sb.q, sb.sleepTime = b.pos, b.q, b.sleepTime
	sb.island, sb.islandNxt, sb.contactHead = b.island, b.islandNext, b.contactHead
	sb.extra, sb.awake = -1, b.awake
	sb.v, sb.w, sb.restPos, sb.restQ = b.v, b.w, b.restPos, b.restQ
	sb.maxLin, sb.maxAng = b.maxLin, b.maxAng
}

// saveForces copies the forces waiting for the next Step (almost always
// none or the player's), in body order, from the forced list rather than
// from every body.
func (w *World) saveForces(s *Saved) {
	s.forces = s.forces[:0]
	for _, i := range w.forced {
		b := &w.bodies[i]
		if b.force == (vec3{}) && b.torque == (vec3{}) {
			continue // forces that cancelled out
		}
		k := len(s.forces) // insertion sort: a few entries
		for k > 0 && s.forces[k-1].body > i {
			k--
		}
		if k > 0 && s.forces[k-1].body == i {
			continue // listed twice: cancelled out, then applied again
		}
		s.forces = append(s.forces, savedForce{})
		copy(s.forces[k+1:], s.forces[k:])
		s.forces[k] = savedForce{i, b.force, b.torque}
	}
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
	// A save of this world: the bodies unchanged since it was taken hold
	// its state already. Any other: every body is written.
	incremental := s.owner == w
	for i, g := range w.bodyGen {
		if incremental && g <= s.gen {
			continue
		}
		w.restoreBody(int32(i), &s.bodies[i])
	}
	for _, i := range w.forced {
		w.bodies[i].force, w.bodies[i].torque = vec3{}, vec3{}
	}
	w.forced = w.forced[:0]
	for _, f := range s.forces {
		b := &w.bodies[f.body]
		b.force, b.torque = f.force, f.torque
		w.forced = append(w.forced, f.body)
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

// restoreBody puts body i back in state sb, and records the change.
func (w *World) restoreBody(i int32, sb *savedBody) {
	b := &w.bodies[i]
	// A body's rotation matrix is always its quaternion's, and a sleeping
	// body's bounds always those of its rest pose: a body already there
	// keeps them.
	sameRest := !b.awake && !sb.awake && b.restPos == sb.restPos && b.restQ == sb.restQ
	if b.q != sb.q {
		b.rot = rotationMatrix(sb.q)
	}
	b.pos, b.q, b.v, b.w = sb.pos, sb.q, sb.v, sb.w
	b.restPos, b.restQ = sb.restPos, sb.restQ
	b.sleepTime, b.maxLin, b.maxAng = sb.sleepTime, sb.maxLin, sb.maxAng
	b.island, b.islandNext, b.contactHead, b.awake = sb.island, sb.islandNxt, sb.contactHead, sb.awake
	b.force, b.torque = vec3{}, vec3{}
	b.solverIndex = 0
	if !b.awake && !sameRest {
		w.setRestBounds(i)
	}
	w.touched(i)
}

// restoreContacts rebuilds the contact pool at the same indices, its free
// list in the same order (createContact takes from its head), the sorted
// key list and the last step's active list.
func (w *World) restoreContacts(s *Saved) {
	cs := &w.cs
	cs.pool = resize(cs.pool, int(s.poolLen))
	cs.keys = resize(cs.keys, len(s.contacts))
	cs.ids = resize(cs.ids, len(s.contacts))
	first, pulse := 0, 0
	for k := range s.contacts {
		sc := &s.contacts[k]
		a, b := keyBodies(sc.key)
		// Field by field: the points past the count are never read, and
		// writing the whole 432-byte entry doubled the cost.
		c := &cs.pool[sc.id]
		c.key, c.a, c.b, c.next, c.prev = sc.key, a, b, sc.next, sc.prev
		c.flags, c.m.count = sc.flags, sc.count
		var r savedRest
		if sc.rest >= 0 {
			r = s.rests[sc.rest]
		}
		c.impulse, c.m.frictionImpulse, c.m.twistImpulse = r.impulse, r.frictionImpulse, r.twistImpulse
		cs.keys[k], cs.ids[k] = sc.key, sc.id
		if sc.compact { // the next step recomputes the rest
			for j := int32(0); j < sc.count; j++ {
				p := &c.m.points[j]
				p.normalImpulse, p.id = s.pulses[pulse].normalImpulse, s.pulses[pulse].id
				pulse++
			}
			continue
		}
		c.m.normal = r.normal
		for j := int32(0); j < sc.count; j++ { // point by point, as in Save
			c.m.points[j] = s.points[first]
			first++
		}
	}
	cs.free = append(cs.free[:0], s.free...)
	for _, ci := range s.free {
		cs.pool[ci] = contact{a: -1, b: -1}
	}
	cs.active = append(cs.active[:0], s.active...)
}

// grow returns s with room for n more elements, grown as fit grows.
func grow[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	m := len(s) + n
	grown := make([]T, len(s), m+m/4+32)
	copy(grown, s)
	return grown
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
