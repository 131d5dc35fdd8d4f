package physics

import (
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// transferScene is the katamari gather 60 steps in, with a sleeping cube
// nudged off its rest pose and forces waiting for the next step: every
// part of a save holds something (extras, forces, sleeping islands and the
// free lists of both pools).
func transferScene(tb testing.TB) (*World, BodyID) {
	tb.Helper()
	w, player := katamariWorld(tb, 150, 0)
	for range 60 {
		katamariPull(w, player)
		w.Step()
	}
	katamariPull(w, player)
	return w, player
}

// TestSavedBytesRoundTrip: a save written as bytes and read back into
// another world built the same way is the same save, field for field, and
// the world restored from it steps on bit for bit with the original, warm
// starts and all.
func TestSavedBytesRoundTrip(t *testing.T) {
	a, player := transferScene(t)
	b, _ := katamariWorld(t, 150, 0)
	var sa, sb Saved
	a.Save(&sa)
	bytes, err := sa.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.DecodeSaved(bytes, &sb); err != nil {
		t.Fatal(err)
	}
	if len(sb.extras) == 0 || len(sa.forces) == 0 || sa.sleeping == 0 || len(sa.free) == 0 {
		t.Fatalf("the scene leaves parts of the save empty: %d extras, %d forces, %d sleeping islands, %d free contacts",
			len(sb.extras), len(sa.forces), sa.sleeping, len(sa.free))
	}
	ca, cb := savedContent(&sa), savedContent(&sb)
	if d := sameValue(reflect.ValueOf(&ca).Elem(), reflect.ValueOf(&cb).Elem(), "Saved"); d != "" {
		t.Fatalf("read back, %s differs", d)
	}
	if err := b.Restore(&sb); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes for %d bodies, %d contacts, %d points", len(bytes), len(sa.bodies), len(sa.contacts), len(sa.points))
	for i := range 120 {
		a.Step()
		b.Step()
		katamariPull(a, player)
		katamariPull(b, player)
		if a.StateHash() != b.StateHash() {
			t.Fatalf("step %d after the transfer: the worlds differ", i+1)
		}
	}
}

// savedContent is a copy of s without what only says where it came from
// (the world it was saved from, the generation) or how its bytes number
// the extras, and with its compact contacts written out whole (zero
// geometry and, without points, zero impulses, as their bytes carry
// them): what a restore puts back.
func savedContent(s *Saved) Saved {
	c := *s
	c.owner, c.gen, c.extras = nil, 0, nil
	c.bodies = append([]savedBody(nil), s.bodies...)
	for i := range c.bodies {
		c.bodies[i].extra = -1
	}
	c.contacts = append([]savedContact(nil), s.contacts...)
	c.points, c.pulses, c.rests = nil, nil, nil
	first, pulse := 0, 0
	for k := range c.contacts {
		sc := &c.contacts[k]
		var r savedRest
		if sc.rest >= 0 {
			r = s.rests[sc.rest]
		}
		c.rests, sc.rest = append(c.rests, r), int32(k)
		for range sc.count {
			if sc.compact {
				c.points = append(c.points, manifoldPoint{normalImpulse: s.pulses[pulse].normalImpulse, id: s.pulses[pulse].id})
				pulse++
			} else {
				c.points = append(c.points, s.points[first])
				first++
			}
		}
		sc.compact = false
	}
	return c
}

// TestDecodeSavedRefuses: bytes cut short, bytes of another world, and
// every list of the save broken in turn are refused, and the world they
// would have been restored into is untouched.
func TestDecodeSavedRefuses(t *testing.T) {
	a, _ := transferScene(t)
	var s Saved
	a.Save(&s)
	good, err := s.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	small := newWorld(t, DefaultConfig())
	addCube(t, small, cubeHalf, s.bodies[1].pos.mgl())
	cases := []struct {
		name  string
		w     *World
		bytes func() []byte
		edit  func(s *Saved)
	}{
		{name: "empty", w: a, bytes: func() []byte { return nil }},
		{name: "cut short", w: a, bytes: func() []byte { return good[:len(good)-1] }},
		{name: "a byte too many", w: a, bytes: func() []byte { return append(append([]byte(nil), good...), 0) }},
		{name: "another world", w: small, bytes: func() []byte { return good }},
		{name: "contact list cycle", w: a, edit: func(s *Saved) {
			for k := range s.contacts {
				if s.contacts[k].next[0] >= 0 {
					s.contacts[k].next[0] = s.contacts[k].id
					return
				}
			}
		}},
		{name: "contact head on a free entry", w: a, edit: func(s *Saved) { s.bodies[0].contactHead = s.free[0] }},
		{name: "contacts out of order", w: a, edit: func(s *Saved) { s.contacts[0], s.contacts[1] = s.contacts[1], s.contacts[0] }},
		{name: "island cycle", w: a, edit: func(s *Saved) {
			for i := range s.bodies {
				if s.bodies[i].island >= 0 {
					s.bodies[i].islandNxt = int32(i)
					return
				}
			}
		}},
		{name: "sleeping count", w: a, edit: func(s *Saved) { s.sleeping++ }},
		{name: "awake body in an island", w: a, edit: func(s *Saved) {
			for i := range s.bodies {
				if s.bodies[i].island >= 0 {
					s.bodies[i].awake = true
					return
				}
			}
		}},
		{name: "NaN", w: a, edit: func(s *Saved) { s.bodies[3].pos.x = nan() }},
		{name: "too many points", w: a, edit: func(s *Saved) { s.contacts[0].count = maxManifoldPoints + 1 }},
		{name: "pool size", w: a, edit: func(s *Saved) { s.poolLen++ }},
		{name: "active not live", w: a, edit: func(s *Saved) { s.active = append(s.active, s.free[0]) }},
		{name: "shared extra", w: a, bytes: func() []byte {
			// The bytes number the extras (a save in memory has each
			// body's at its index): point a body without one at the first.
			b := append([]byte(nil), good...)
			for i := range s.bodies {
				if at := 20 + 81*i + 76; int32(binary.LittleEndian.Uint32(b[at:])) < 0 {
					binary.LittleEndian.PutUint32(b[at:], 0)
					return b
				}
			}
			t.Fatal("no body without an extra")
			return nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := good
			if tc.edit != nil {
				var e Saved
				a.Save(&e)
				e.bodies = append([]savedBody(nil), e.bodies...)
				e.contacts = append([]savedContact(nil), e.contacts...)
				tc.edit(&e)
				if b, err = e.AppendBinary(nil); err != nil {
					t.Fatal(err)
				}
			}
			if tc.bytes != nil {
				b = tc.bytes()
			}
			var out Saved
			before := tc.w.StateHash()
			if err := tc.w.DecodeSaved(b, &out); !errors.Is(err, ErrBadSave) {
				t.Fatalf("accepted (%v)", err)
			}
			if out.Valid() || tc.w.Restore(&out) == nil || tc.w.StateHash() != before {
				t.Error("a refused save is usable")
			}
		})
	}
}

// FuzzDecodeSaved: whatever the bytes, DecodeSaved returns; what it
// accepts restores, and the world then steps without a panic or a NaN. The
// world is a small pile (a player and eight cubes) so that the seeds are
// short and a mutation is often still a save: one seed mid-fall, with
// contacts and an extra per body, one asleep.
func FuzzDecodeSaved(f *testing.F) {
	build := func() *World {
		w := newWorld(f, DefaultConfig())
		addCube(f, w, playerHalf, mgl64.Vec3{0, 0, 2})
		for k := range 8 {
			addCube(f, w, cubeHalf, mgl64.Vec3{float64(k%3) * 0.5, float64(k/3) * 0.5, cubeHalf + float64(k%2)*0.45})
		}
		return w
	}
	w := build()
	var s, fresh Saved
	w.Save(&fresh)
	for _, steps := range []int{20, 400} {
		for range steps {
			w.Step()
		}
		w.Save(&s)
		seed, err := s.AppendBinary(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Saved
		if w.DecodeSaved(b, &s) != nil {
			return
		}
		if err := w.Restore(&s); err != nil {
			t.Fatalf("an accepted save does not restore: %v", err)
		}
		for range 3 {
			w.Step()
		}
		assertFinite(t, w)
		if err := w.Restore(&fresh); err != nil {
			t.Fatal(err)
		}
	})
}

func nan() float64 {
	z := 0.0
	return z / z
}
