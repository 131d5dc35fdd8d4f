package physics

// Design note: a save as bytes, for a state transfer (a machine that joins
// a running lockstep or rollback session receives the world instead of
// starting it over). The bytes are the save itself, field by field, every
// float64 as its exact 64 bits: quantizing anything, even a warm-start
// impulse in its last bit, would make the joiner's world differ from the
// sender's, and a pile of 901 cubes turns a last-bit difference into a
// visible one within seconds.
//
// The bytes come from the network, so DecodeSaved trusts none of them. A
// save holds indices (a body's first contact, the links of the contacts'
// lists, the sleeping islands' lists, the pool's free list) that the step
// follows without checking; one wrong index would panic or loop forever
// inside Step. So after the bounds and the finiteness of every field,
// DecodeSaved walks every list the step walks, and refuses the bytes
// unless each is what a running world keeps: every live contact threaded
// exactly once into the list of each of its bodies (prev links agreeing),
// every sleeping body in exactly one sleeping island (its list, its size
// and its island index agreeing), every pool entry live or free exactly
// once, the live contacts sorted by key and the active ones among them.
// The fuzz target FuzzDecodeSaved restores and steps whatever it accepts.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// savedMagic opens the bytes of a save: "NCWS", then the format's version
// (a joiner of another build refuses a save it would misread).
const (
	savedMagic   uint32 = 'N' | 'C'<<8 | 'W'<<16 | 'S'<<24
	savedVersion uint32 = 1
)

// Bounds DecodeSaved enforces beyond the structure: a speed limit or a
// velocity component above maxSpeedBound is no world's, and a force above
// maxForceBound is none the game applies; a contact's warm-start impulse
// above maxImpulseBound (N·s: a thousand times a blast's) or a separation
// beyond the world's size is none a step made, and would start the solver
// from numbers that overflow within a few steps; a quaternion's squared
// length must be within quatSlack of 1 (the step keeps it within 1e-15).
const (
	maxSpeedBound   = 1e3
	maxForceBound   = 1e12
	maxImpulseBound = 1e6
	quatSlack       = 1e-3
)

// ErrBadSave wraps every reason DecodeSaved refuses bytes.
var ErrBadSave = errors.New("physics: bytes that are not a save of this world")

// AppendBinary appends s as bytes (see DecodeSaved) and returns the
// extended slice. An empty save appends nothing and returns ErrNotSaved.
func (s *Saved) AppendBinary(b []byte) ([]byte, error) {
	if !s.valid {
		return b, ErrNotSaved
	}
	e := encoder{b: b}
	e.u32(savedMagic)
	e.u32(savedVersion)
	e.u64(s.shapes)
	e.u32(uint32(len(s.bodies)))
	extras := int32(0) // numbered in body order
	for i := range s.bodies {
		sb := &s.bodies[i]
		e.vec(sb.pos)
		e.quat(sb.q)
		e.f64(sb.sleepTime)
		e.i32(sb.island)
		e.i32(sb.islandNxt)
		e.i32(sb.contactHead)
		if s.hasExtra(sb) {
			e.i32(extras)
			extras++
		} else {
			e.i32(-1)
		}
		e.bool(sb.awake)
	}
	e.u32(uint32(extras))
	for i := range s.bodies {
		if x := &s.bodies[i]; s.hasExtra(x) {
			e.vec(x.v)
			e.vec(x.w)
			e.vec(x.restPos)
			e.quat(x.restQ)
			e.f64(x.maxLin)
			e.f64(x.maxAng)
		}
	}
	e.u32(uint32(len(s.forces)))
	for _, f := range s.forces {
		e.i32(f.body)
		e.vec(f.force)
		e.vec(f.torque)
	}
	e.i32(s.poolLen)
	e.u32(uint32(len(s.contacts)))
	for i := range s.contacts {
		c := &s.contacts[i]
		e.u64(c.key)
		e.i32(c.id)
		e.i32(c.next[0])
		e.i32(c.next[1])
		e.i32(c.prev[0])
		e.i32(c.prev[1])
		e.i32(c.count)
		var r savedRest // zero: see savedContact.rest
		if c.rest >= 0 && int(c.rest) < len(s.rests) {
			r = s.rests[c.rest]
		}
		e.vec(r.normal)
		e.vec(r.frictionImpulse)
		e.f64(r.twistImpulse)
		e.f64(r.impulse)
		e.b = append(e.b, c.flags)
	}
	// The points follow in the contacts' order, count of each; a compact
	// contact's (see savedContact) with zero anchors and separation.
	first, pulse := 0, 0
	for i := range s.contacts {
		c := &s.contacts[i]
		for range c.count {
			var p manifoldPoint
			switch {
			case c.compact && pulse < len(s.pulses):
				p.normalImpulse, p.id = s.pulses[pulse].normalImpulse, s.pulses[pulse].id
				pulse++
			case !c.compact && first < len(s.points):
				p = s.points[first]
				first++
			}
			e.vec(p.anchorA)
			e.vec(p.anchorB)
			e.f64(p.separation)
			e.f64(p.normalImpulse)
			e.u32(p.id)
		}
	}
	e.u32(uint32(len(s.free)))
	for _, ci := range s.free {
		e.i32(ci)
	}
	e.u32(uint32(len(s.active)))
	for _, ci := range s.active {
		e.i32(ci)
	}
	e.u32(uint32(len(s.islands)))
	for _, is := range s.islands {
		e.i32(is.head)
		e.i32(is.size)
		e.i32(is.next)
	}
	e.i32(s.islFree)
	e.u64(uint64(s.sleeping))
	st := &s.stats
	e.u64(st.Steps)
	for _, v := range [...]int{st.Bodies, st.AwakeBodies, st.Pairs, st.Contacts, st.ActiveContacts, st.Constraints, st.ContactPoints, st.SleepingIslands} {
		e.u64(uint64(v))
	}
	e.u64(st.RejectedInputs)
	return e.b, nil
}

// DecodeSaved reads bytes written by AppendBinary into s, for a later
// w.Restore(s). The bytes must be a save of a world like w (its bodies, their
// shapes, its configuration) and hold together as a running world's state
// does (see the design note); otherwise it returns an error wrapping
// ErrBadSave and s holds nothing valid. It never panics, whatever the bytes.
func (w *World) DecodeSaved(b []byte, s *Saved) error {
	s.valid, s.owner = false, nil
	d := decoder{b: b}
	if d.u32() != savedMagic || d.u32() != savedVersion {
		return badSave("not a save, or another version's")
	}
	if d.u64() != w.shapeHash() {
		return badSave("the bodies' shapes differ")
	}
	n := len(w.bodies)
	if d.count(81) != n { // 81 bytes a body
		return badSave("another number of bodies")
	}
	s.bodies = fit(s.bodies, n)
	for i := range s.bodies {
		sb := &s.bodies[i]
		sb.pos, sb.q, sb.sleepTime = d.vec(), d.quat(), d.f64()
		sb.island, sb.islandNxt, sb.contactHead, sb.extra = d.i32(), d.i32(), d.i32(), d.i32()
		sb.awake = d.bool()
	}
	s.extras = fit(s.extras, d.count(120))
	for i := range s.extras {
		x := &s.extras[i]
		x.v, x.w, x.restPos, x.restQ = d.vec(), d.vec(), d.vec(), d.quat()
		x.maxLin, x.maxAng = d.f64(), d.f64()
	}
	s.forces = fit(s.forces, d.count(4+48))
	for i := range s.forces {
		s.forces[i] = savedForce{body: d.i32(), force: d.vec(), torque: d.vec()}
	}
	s.poolLen = d.i32()
	s.contacts = fit(s.contacts, d.count(97))
	s.rests = fit(s.rests, len(s.contacts)) // every decoded contact has one
	points := 0
	for i := range s.contacts {
		c, r := &s.contacts[i], &s.rests[i]
		c.key, c.id = d.u64(), d.i32()
		c.next = [2]int32{d.i32(), d.i32()}
		c.prev = [2]int32{d.i32(), d.i32()}
		c.count, c.rest = d.i32(), int32(i)
		r.normal, r.frictionImpulse = d.vec(), d.vec()
		r.twistImpulse, r.impulse = d.f64(), d.f64()
		c.flags, c.compact = d.byte(), false
		if c.count < 0 || c.count > maxManifoldPoints {
			return badSave("a contact with %d points", c.count)
		}
		points += int(c.count)
	}
	if d.err != nil || len(d.b) < points*68 {
		return badSave("truncated")
	}
	s.points, s.pulses = fit(s.points, points), s.pulses[:0]
	for i := range s.points {
		p := &s.points[i]
		p.anchorA, p.anchorB = d.vec(), d.vec()
		p.separation, p.normalImpulse = d.f64(), d.f64()
		p.id = d.u32()
	}
	s.free = fit(s.free, d.count(4))
	for i := range s.free {
		s.free[i] = d.i32()
	}
	s.active = fit(s.active, d.count(4))
	for i := range s.active {
		s.active[i] = d.i32()
	}
	s.islands = fit(s.islands, d.count(12))
	for i := range s.islands {
		s.islands[i] = sleepIsland{head: d.i32(), size: d.i32(), next: d.i32()}
	}
	s.islFree = d.i32()
	sleeping := d.u64()
	st := &s.stats
	st.Steps = d.u64()
	for _, v := range [...]*int{&st.Bodies, &st.AwakeBodies, &st.Pairs, &st.Contacts, &st.ActiveContacts, &st.Constraints, &st.ContactPoints, &st.SleepingIslands} {
		*v = int(min(d.u64(), math.MaxInt32))
	}
	st.RejectedInputs = d.u64()
	if d.err != nil {
		return badSave("truncated")
	}
	if len(d.b) != 0 {
		return badSave("%d bytes past the end", len(d.b))
	}
	if sleeping > uint64(len(s.islands)) {
		return badSave("more sleeping islands than islands")
	}
	s.sleeping = int(sleeping)
	s.cfg, s.shapes = w.cfg, w.shapeHash()
	if err := s.check(); err != nil {
		return err
	}
	s.resolveExtras()
	s.valid = true
	return nil
}

// resolveExtras gives each decoded body the rest of its state: its
// bodyExtra, or a sleeping body's defaults.
func (s *Saved) resolveExtras() {
	for i := range s.bodies {
		sb := &s.bodies[i]
		if sb.extra >= 0 {
			x := &s.extras[sb.extra]
			sb.v, sb.w, sb.restPos, sb.restQ, sb.maxLin, sb.maxAng = x.v, x.w, x.restPos, x.restQ, x.maxLin, x.maxAng
		} else {
			sb.v, sb.w, sb.restPos, sb.restQ = vec3{}, vec3{}, sb.pos, sb.q
			sb.maxLin, sb.maxAng = s.cfg.MaxLinearSpeed, s.cfg.MaxAngularSpeed
		}
	}
}

func badSave(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrBadSave}, a...)...)
}

// check verifies what DecodeSaved read: values in range, then the lists.
func (s *Saved) check() error {
	if err := s.checkBodies(); err != nil {
		return err
	}
	if err := s.checkContacts(); err != nil {
		return err
	}
	return s.checkIslands()
}

// checkBodies: finite, bounded values; each extra used by one body.
func (s *Saved) checkBodies() error {
	n, used := int32(len(s.bodies)), make([]bool, len(s.extras))
	for i := range s.bodies {
		sb := &s.bodies[i]
		if !placed(sb.pos, sb.q) || !finite(sb.sleepTime) || sb.sleepTime < 0 {
			return badSave("body %d's pose or sleep timer", i)
		}
		if sb.island < -1 || sb.island >= int32(len(s.islands)) || sb.islandNxt < -1 || sb.islandNxt >= n ||
			sb.contactHead < -1 || sb.contactHead >= s.poolLen || sb.extra < -1 || sb.extra >= int32(len(s.extras)) {
			return badSave("body %d's indices", i)
		}
		if sb.extra >= 0 {
			if x := &s.extras[sb.extra]; !sb.awake && !placed(x.restPos, x.restQ) {
				return badSave("body %d's rest pose", i)
			}
			if used[sb.extra] {
				return badSave("body %d shares an extra", i)
			}
			used[sb.extra] = true
		}
	}
	for k := range s.extras {
		x := &s.extras[k]
		// An awake body's rest pose is the one it last fell asleep at, or
		// none (zero): bounded is enough; a sleeping body's is checked
		// below, since its bounds are built from it.
		rq := vec3{x.restQ.x, x.restQ.y, x.restQ.z}
		if !used[k] || !bounded(x.restPos, MaxCoordinate) || !bounded(rq, 2) || math.Abs(x.restQ.w) > 2 || !bounded(x.v, maxSpeedBound) || !bounded(x.w, maxSpeedBound) ||
			!(x.maxLin > 0 && x.maxLin <= maxSpeedBound) || !(x.maxAng > 0 && x.maxAng <= maxSpeedBound) {
			return badSave("extra %d", k)
		}
	}
	last := int32(-1)
	for _, f := range s.forces {
		if f.body <= last || f.body >= n || !bounded(f.force, maxForceBound) || !bounded(f.torque, maxForceBound) {
			return badSave("a force on body %d", f.body)
		}
		last = f.body
	}
	return nil
}

// checkContacts: the pool's entries live or free once each, the live ones
// sorted by key with bounded manifolds, each threaded into its bodies'
// lists exactly once, the active ones among them in key order.
func (s *Saved) checkContacts() error {
	n := int32(len(s.bodies))
	if s.poolLen < 0 || int(s.poolLen) != len(s.contacts)+len(s.free) {
		return badSave("a pool of %d entries for %d live and %d free", s.poolLen, len(s.contacts), len(s.free))
	}
	live := make([]int32, s.poolLen) // index in s.contacts + 1; 0: not live
	first := 0
	for k := range s.contacts {
		c := &s.contacts[k]
		a, b := keyBodies(c.key)
		if k > 0 && c.key <= s.contacts[k-1].key {
			return badSave("contacts out of key order")
		}
		if a < 0 || a >= n || b < -1 || b >= n || (b >= 0 && b <= a) || c.id < 0 || c.id >= s.poolLen || live[c.id] != 0 {
			return badSave("contact %d's bodies or pool entry", k)
		}
		live[c.id] = int32(k + 1)
		r := &s.rests[c.rest] // DecodeSaved gives every contact its own
		if !s.normalUsable(r.normal, a, b, c.count) || !bounded(r.frictionImpulse, maxImpulseBound) || !within(r.twistImpulse, maxImpulseBound) || !within(r.impulse, maxImpulseBound) {
			return badSave("contact %d's manifold", k)
		}
		for _, p := range s.points[first : first+int(c.count)] {
			if !bounded(p.anchorA, 2*MaxCoordinate) || !bounded(p.anchorB, 2*MaxCoordinate) || !within(p.separation, 2*MaxCoordinate) || !within(p.normalImpulse, maxImpulseBound) {
				return badSave("contact %d's points", k)
			}
		}
		first += int(c.count)
	}
	for _, ci := range s.free {
		if ci < 0 || ci >= s.poolLen || live[ci] != 0 {
			return badSave("the pool's free list")
		}
		live[ci] = -1
	}
	prevKey := uint64(0)
	for k, ci := range s.active {
		if ci < 0 || ci >= s.poolLen || live[ci] <= 0 {
			return badSave("an active contact that is not live")
		}
		key := s.contacts[live[ci]-1].key
		if k > 0 && key <= prevKey {
			return badSave("active contacts out of key order")
		}
		prevKey = key
	}
	return s.checkContactLists(live)
}

// normalUsable reports a contact normal the step can read: a unit vector,
// or zero. Save writes zero for a contact with an awake body (the next
// narrowphase computes its normal before anything reads it) and the
// manifold's unit normal otherwise; a sleeping contact with points keeps
// its normal when its bodies wake, and the solver builds its friction
// directions from it, so there it must be a unit vector: a normal of
// length 1e-309 passed a bound and turned a woken cube into NaNs.
func (s *Saved) normalUsable(n vec3, a, b, points int32) bool {
	if !bounded(n, 2) {
		return false
	}
	l := float64(n.x*n.x) + float64(n.y*n.y) + float64(n.z*n.z)
	if math.Abs(l-1) <= quatSlack {
		return true
	}
	asleep := !s.bodies[a].awake && (b < 0 || !s.bodies[b].awake)
	return l == 0 && (points == 0 || !asleep)
}

// checkContactLists walks each body's contact list as the step does: each
// live contact must be met once from each of its bodies, its prev link
// naming the contact met before it. Marking each (contact, end) met also
// bounds every walk: a cycle would meet an end twice.
func (s *Saved) checkContactLists(live []int32) error {
	met := make([]uint8, len(s.contacts)) // bit e: end e met
	for i := range s.bodies {
		prev := int32(-1)
		for ci := s.bodies[i].contactHead; ci >= 0; {
			if ci >= s.poolLen || live[ci] <= 0 {
				return badSave("body %d's contact list reaches a free entry", i)
			}
			k := live[ci] - 1
			c := &s.contacts[k]
			a, b := keyBodies(c.key)
			e := 0
			switch int32(i) {
			case a:
			case b:
				e = 1
			default:
				return badSave("body %d's contact list holds another body's contact", i)
			}
			if met[k]&(1<<e) != 0 || c.prev[e] != prev {
				return badSave("body %d's contact list is not a list", i)
			}
			met[k] |= 1 << e
			prev, ci = ci, c.next[e]
		}
	}
	for k := range s.contacts {
		want := uint8(3)
		if _, b := keyBodies(s.contacts[k].key); b < 0 {
			want = 1
		}
		if met[k] != want {
			return badSave("contact %d is missing from a body's list", k)
		}
	}
	return nil
}

// checkIslands: the free islands a list, every other island a list of
// sleeping bodies of its size, every body asleep exactly when it is in
// one.
func (s *Saved) checkIslands() error {
	m := int32(len(s.islands))
	free := make([]bool, m)
	nFree := 0
	for id := s.islFree; id >= 0; id = s.islands[id].next {
		if id >= m || free[id] {
			return badSave("the islands' free list")
		}
		free[id] = true
		nFree++
	}
	if s.islFree < -1 || int(m)-nFree != s.sleeping {
		return badSave("%d sleeping islands counted, %d in use", s.sleeping, int(m)-nFree)
	}
	inIsland := make([]bool, len(s.bodies))
	for id := range s.islands {
		if free[id] {
			continue
		}
		is := &s.islands[id]
		size := int32(0)
		for i := is.head; i >= 0; i = s.bodies[i].islandNxt {
			if i >= int32(len(s.bodies)) || inIsland[i] || s.bodies[i].island != int32(id) || s.bodies[i].awake {
				return badSave("sleeping island %d", id)
			}
			inIsland[i] = true
			size++
		}
		if size == 0 || size != is.size {
			return badSave("sleeping island %d's size", id)
		}
	}
	for i := range s.bodies {
		sb := &s.bodies[i]
		if sb.awake == inIsland[i] || (sb.awake && (sb.island != -1 || sb.islandNxt != -1)) {
			return badSave("body %d's sleep state", i)
		}
	}
	return nil
}

// placed reports a pose a world can hold: finite, inside MaxCoordinate, a
// unit quaternion.
func placed(p vec3, q quat) bool {
	// float64() rounds each product, as everywhere in this package: no
	// fused multiply-add, the same verdict on every CPU.
	n := float64(q.w*q.w) + float64(q.x*q.x) + float64(q.y*q.y) + float64(q.z*q.z)
	return bounded(p, MaxCoordinate) && finite(q.w) && finite(q.x) && finite(q.y) && finite(q.z) && math.Abs(n-1) <= quatSlack
}

// bounded reports a finite vector whose components are within ±limit.
func bounded(v vec3, limit float64) bool {
	return math.Abs(v.x) <= limit && math.Abs(v.y) <= limit && math.Abs(v.z) <= limit // false for NaN
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// within reports a finite x within ±limit.
func within(x, limit float64) bool { return math.Abs(x) <= limit } // false for NaN

// encoder appends little-endian fields.
type encoder struct{ b []byte }

func (e *encoder) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *encoder) i32(v int32)  { e.u32(uint32(v)) }
func (e *encoder) f64(v float64) {
	e.u64(math.Float64bits(v))
}
func (e *encoder) vec(v vec3)  { e.f64(v.x); e.f64(v.y); e.f64(v.z) }
func (e *encoder) quat(q quat) { e.f64(q.w); e.f64(q.x); e.f64(q.y); e.f64(q.z) }
func (e *encoder) bool(v bool) {
	b := byte(0)
	if v {
		b = 1
	}
	e.b = append(e.b, b)
}

// decoder reads what encoder wrote; the first shortfall sticks as err and
// every later read returns zero.
type decoder struct {
	b   []byte
	err error
}

var errShort = errors.New("short")

func (d *decoder) take(n int) []byte {
	if d.err != nil || len(d.b) < n {
		d.err = errShort
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) u32() uint32 {
	if p := d.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if p := d.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (d *decoder) i32() int32   { return int32(d.u32()) }
func (d *decoder) f64() float64 { return math.Float64frombits(d.u64()) }
func (d *decoder) vec() vec3    { return vec3{d.f64(), d.f64(), d.f64()} }
func (d *decoder) quat() quat   { return quat{w: d.f64(), x: d.f64(), y: d.f64(), z: d.f64()} }
func (d *decoder) bool() bool   { return d.byte() != 0 }
func (d *decoder) byte() byte {
	if p := d.take(1); p != nil {
		return p[0]
	}
	return 0
}

// count reads a length whose elements take at least size bytes each: a
// length the rest of the bytes cannot hold fails before anything is
// allocated for it.
func (d *decoder) count(size int) int {
	n := d.u32()
	if d.err == nil && uint64(n)*uint64(size) > uint64(len(d.b)) {
		d.err = errShort
	}
	if d.err != nil {
		return 0
	}
	return int(n)
}
