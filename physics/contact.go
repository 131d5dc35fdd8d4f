package physics

// Design note: a contact is a persistent record for one pair of bodies (or
// a body and the ground) whose fat bounds overlap. It lives from the step
// the broadphase first finds the pair until their bounds separate, and it
// holds the pair's manifold, so impulses carry over between steps.
//
// Storage: contacts live in a pool (a slice with a free list) so their
// indices are stable. The live contacts are also listed sorted by key
// (lower body index, higher body index; the ground after every body), and
// each step the sorted list is merged with the broadphase's sorted pairs:
// pairs in both are kept, new pairs create contacts, and old contacts with
// an awake body that the broadphase no longer reports are destroyed.
// Contacts between sleeping bodies (or a sleeping body and the ground) are
// kept untouched: sleeping bodies keep their contacts, which is how the
// game still sees what a sleeping cube rests on, and how a woken pile
// resumes with its old impulses.
//
// Each body also threads its contacts into a doubly linked list (two links
// per contact, one per body, as Box2D does), so "what does this body
// touch" costs only as many steps as the body has contacts.
//
// Two notions of touching:
//
//   - the solver treats a contact as live when its manifold has points,
//     including speculative ones (surfaces still apart). Those contacts
//     join islands and wake sleeping bodies, so a fast player never hits a
//     cube that is still asleep.
//   - the game (ContactPairs) sees a contact as touching when, at the
//     end of the step, its surfaces are within LinearSlop of each other
//     or it pushed the bodies apart during the step. Speculative points
//     far from contact do not count.

import "iter"

// contactFlag bits.
const (
	flagTouching = 1 << iota // touching for the game, as of the last step
	flagBegan                // became touching during the last step
)

// contact is one pair's persistent record.
type contact struct {
	key  uint64
	a, b int32 // b is -1 for the ground
	// next and prev link the contact into the contact lists of a (index 0)
	// and b (index 1). -1 ends a list.
	next, prev [2]int32
	m          manifold
	flags      uint8
	// impulse is the total normal impulse (N·s) of the last step, summed
	// over the manifold's points: 0 for contacts that were not simulated.
	impulse float64
}

// contactSet holds every contact.
type contactSet struct {
	pool []contact
	// free lists the pool's free entries, the last freed last: the next
	// contact takes the last one. (A list linked through the free entries
	// themselves cost Save a cache miss per entry to walk.)
	free []int32

	// keys/ids: live contacts sorted by key; keys2/ids2: the merge's output
	// buffers, swapped with keys/ids after each merge.
	keys, keys2 []uint64
	ids, ids2   []int32

	// active lists the contacts that involve an awake body this step, in
	// key order: the ones the narrowphase updates and the solver may use.
	active []int32
}

func (cs *contactSet) init() {}

// endpoint returns 0 if body i is the contact's a, else 1.
func (c *contact) endpoint(i int32) int {
	if c.a == i {
		return 0
	}
	return 1
}

// other returns the contact's other body (or Ground) as seen from body i.
func (c *contact) other(i int32) BodyID {
	if c.a == i {
		return BodyID(c.b)
	}
	return BodyID(c.a)
}

// create makes a contact for key, links it into its bodies' lists and
// returns its index.
func (w *World) createContact(key uint64) int32 {
	cs := &w.cs
	var ci int32
	if n := len(cs.free); n > 0 {
		ci = cs.free[n-1]
		cs.free = cs.free[:n-1]
	} else {
		cs.pool = append(cs.pool, contact{})
		ci = int32(len(cs.pool) - 1)
	}
	a, b := keyBodies(key)
	cs.pool[ci] = contact{key: key, a: a, b: b}
	w.linkContact(ci, 0, a)
	if b >= 0 {
		w.linkContact(ci, 1, b)
	}
	return ci
}

// linkContact puts contact ci at the head of body i's list (endpoint e).
func (w *World) linkContact(ci int32, e int, i int32) {
	c := &w.cs.pool[ci]
	bd := &w.bodies[i]
	c.prev[e] = -1
	c.next[e] = bd.contactHead
	if h := bd.contactHead; h >= 0 {
		hc := &w.cs.pool[h]
		hc.prev[hc.endpoint(i)] = ci
	}
	bd.contactHead = ci
	w.touched(i)
}

// unlinkContact removes contact ci from body i's list (endpoint e).
func (w *World) unlinkContact(ci int32, e int, i int32) {
	c := &w.cs.pool[ci]
	p, n := c.prev[e], c.next[e]
	if p >= 0 {
		pc := &w.cs.pool[p]
		pc.next[pc.endpoint(i)] = n
	} else {
		w.bodies[i].contactHead = n
		w.touched(i)
	}
	if n >= 0 {
		nc := &w.cs.pool[n]
		nc.prev[nc.endpoint(i)] = p
	}
}

// destroyContact unlinks contact ci and returns it to the pool.
func (w *World) destroyContact(ci int32) {
	c := &w.cs.pool[ci]
	w.unlinkContact(ci, 0, c.a)
	if c.b >= 0 {
		w.unlinkContact(ci, 1, c.b)
	}
	c = &w.cs.pool[ci]
	*c = contact{a: -1, b: -1}
	w.cs.free = append(w.cs.free, ci)
}

// awakeContact reports whether a contact involves an awake body.
func (w *World) awakeContact(c *contact) bool {
	return w.bodies[c.a].awake || (c.b >= 0 && w.bodies[c.b].awake)
}

// updateContacts merges the broadphase pairs into the contact list and
// fills cs.active. Both lists are sorted by key, so one pass suffices.
func (w *World) updateContacts() {
	cs := &w.cs
	pairs := w.bp.pairs
	cs.keys2, cs.ids2 = cs.keys2[:0], cs.ids2[:0]
	cs.active = cs.active[:0]
	i, j := 0, 0
	for i < len(cs.keys) || j < len(pairs) {
		switch {
		case j == len(pairs) || (i < len(cs.keys) && cs.keys[i] < pairs[j]):
			// Not reported by the broadphase. If either body is awake, the
			// broadphase would have reported it if the bounds still
			// overlapped: destroy. If both sleep, keep it as it is.
			ci := cs.ids[i]
			if w.awakeContact(&cs.pool[ci]) {
				w.destroyContact(ci)
			} else {
				cs.keys2 = append(cs.keys2, cs.keys[i])
				cs.ids2 = append(cs.ids2, ci)
			}
			i++
		case i == len(cs.keys) || pairs[j] < cs.keys[i]:
			ci := w.createContact(pairs[j])
			cs.keys2 = append(cs.keys2, pairs[j])
			cs.ids2 = append(cs.ids2, ci)
			cs.active = append(cs.active, ci)
			j++
		default: // in both
			ci := cs.ids[i]
			cs.keys2 = append(cs.keys2, cs.keys[i])
			cs.ids2 = append(cs.ids2, ci)
			cs.active = append(cs.active, ci)
			i++
			j++
		}
	}
	cs.keys, cs.keys2 = cs.keys2, cs.keys
	cs.ids, cs.ids2 = cs.ids2, cs.ids
}

// rebuildActive lists every contact with an awake body, in key order. It is
// needed after bodies were woken during the step, because the woken
// bodies' contacts were not in the broadphase's pairs.
func (w *World) rebuildActive() {
	cs := &w.cs
	cs.active = cs.active[:0]
	for _, ci := range cs.ids {
		if w.awakeContact(&cs.pool[ci]) {
			cs.active = append(cs.active, ci)
		}
	}
}

// narrowphase recomputes the manifold of every active contact and carries
// the old impulses over to matching points.
func (w *World) narrowphase() {
	slop := w.cfg.LinearSlop
	warm := w.cfg.WarmStarting
	near := w.cfg.WarmStartDistance
	w.satHints = resize(w.satHints, len(w.cs.pool))
	var old carried
	for _, ci := range w.cs.active {
		c := &w.cs.pool[ci]
		a := &w.bodies[c.a]
		var b *body
		if c.b >= 0 {
			b = &w.bodies[c.b]
		}
		margin := w.pairMargin(a, b)
		if b != nil && spheresApart(a, b, margin) {
			// No point, and so no impulse carried: what the code below
			// would leave, without building the boxes or saving the old
			// points.
			c.m.count = 0
			c.m.frictionImpulse, c.m.twistImpulse = vec3{}, 0
			continue
		}
		if warm {
			old.save(&c.m, near > 0)
		}
		ba := makeBox(a)
		if b == nil {
			collideBoxGround(&ba, margin, &c.m)
		} else {
			bb := makeBox(b)
			collideBoxes(&ba, &bb, margin, slop, &c.m, &w.satHints[ci])
		}
		c.m.frictionImpulse, c.m.twistImpulse = vec3{}, 0
		if warm {
			carryImpulses(&c.m, &old, near)
		}
	}
}

// contactInfo describes one contact of a body (contactsOf).
type contactInfo struct {
	// Other is the body touched, or Ground.
	Other BodyID
	// NormalImpulse is the total normal impulse (N·s) the contact applied
	// during the last Step. It is 0 for contacts of sleeping bodies, which
	// did no work. Impact loudness can follow it (divide by mass for a
	// speed change).
	NormalImpulse float64
	// Began is true if the bodies started touching during the last Step.
	Began bool
}

// ContactPair is one touching pair, for iterating over the whole world.
type ContactPair struct {
	A BodyID // the lower index
	B BodyID // the higher index, or Ground
	// NormalImpulse is the total normal impulse (N·s) the contact applied
	// during the last Step (0 for contacts of sleeping bodies, which did
	// no work); impact loudness can follow it. Began is true if the bodies
	// started touching during the last Step.
	NormalImpulse float64
	Began         bool
}

// touching yields the touching contacts of body i (a valid index), in
// the order of its contact list: the order contacts were created, newest
// first. The tests' queries (touchingBodies, touchesGround, contactsOf)
// read the list through it.
func (w *World) touching(i int32) iter.Seq[*contact] {
	return func(yield func(*contact) bool) {
		for ci := w.bodies[i].contactHead; ci >= 0; {
			c := &w.cs.pool[ci]
			if c.flags&flagTouching != 0 && !yield(c) {
				return
			}
			ci = c.next[c.endpoint(i)]
		}
	}
}

// touchingBodies appends to dst the bodies (and Ground) that body id touches
// as of the last Step, and returns the extended slice. Sleeping bodies keep
// their contacts, so a cube asleep on the ground still touches Ground. The
// order is deterministic (the order contacts were created, newest first).
// It allocates nothing when dst has room.
func (w *World) touchingBodies(id BodyID, dst []BodyID) []BodyID {
	if w.get(id) == nil {
		return dst
	}
	for c := range w.touching(int32(id)) {
		dst = append(dst, c.other(int32(id)))
	}
	return dst
}

// touchesGround reports whether body id touches the ground.
func (w *World) touchesGround(id BodyID) bool {
	if w.get(id) == nil {
		return false
	}
	for c := range w.touching(int32(id)) {
		if c.b < 0 {
			return true
		}
	}
	return false
}

// contactsOf appends to dst the touching contacts of body id, with their
// last-step impulse and whether they began this step, in the same order as
// touchingBodies. It allocates nothing when dst has room.
func (w *World) contactsOf(id BodyID, dst []contactInfo) []contactInfo {
	if w.get(id) == nil {
		return dst
	}
	for c := range w.touching(int32(id)) {
		dst = append(dst, contactInfo{
			Other:         c.other(int32(id)),
			NormalImpulse: c.impulse,
			Began:         c.flags&flagBegan != 0,
		})
	}
	return dst
}

// ContactPairs appends every touching pair of the world to dst, sorted by
// (A, B) with the ground after every body, and returns the extended slice.
// It costs time proportional to the number of contacts, sleeping ones
// included; allocation-free when dst has room.
func (w *World) ContactPairs(dst []ContactPair) []ContactPair {
	for _, ci := range w.cs.ids {
		c := &w.cs.pool[ci]
		if c.flags&flagTouching != 0 {
			dst = append(dst, ContactPair{
				A:             BodyID(c.a),
				B:             BodyID(c.b),
				NormalImpulse: c.impulse,
				Began:         c.flags&flagBegan != 0,
			})
		}
	}
	return dst
}
