package physics

import (
	"reflect"
	"testing"
)

// sameValue compares two values field by field, through structs, arrays,
// slices and pointers, treating a nil slice and an empty one as equal
// (copyWorld reuses backing arrays, so an empty slice may or may not be
// nil). It returns the path of the first difference, or "".
func sameValue(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := sameValue(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return path + " (length)"
		}
		for i := 0; i < a.Len(); i++ {
			if d := sameValue(a.Index(i), b.Index(i), path+"[]"); d != "" {
				return d
			}
		}
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			return path
		}
		if !a.IsNil() {
			return sameValue(a.Elem(), b.Elem(), path)
		}
	case reflect.Float64, reflect.Float32:
		// Bits, not ==: NaN must equal NaN and −0 must differ from +0.
		if a.Float() != b.Float() && !(a.Float() != a.Float() && b.Float() != b.Float()) {
			return path
		}
	case reflect.Map, reflect.Func, reflect.Chan, reflect.Interface:
		return path + " (a " + a.Kind().String() + ": copyWorld cannot copy it)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return path
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return path
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return path
		}
	default:
		return path + " (a " + a.Kind().String() + ": teach sameValue to compare it)"
	}
	return ""
}

// canonical clears, in place, what a save leaves out because the next
// step rebuilds it before reading it (see the design note in save.go): the
// solver's arrays, the islands' union-find, the broadphase's grid, marks,
// sweep order and pairs, the awake list, the merge buffers, the saves'
// bookkeeping (World.gen, bodyGen), the geometry of a contact with an
// awake body (its normal, its points' anchors and separations, which the
// next narrowphase recomputes: poisoned with NaN), every body's motion bounds
// (an awake body's fat bounds too: a sleeping body's are state), and the
// manifold points past a contact's count. Whatever is left must be equal
// in a restored world and in the world that was saved. Clearing the live
// world's copies of these is itself a test: a world stepped on after
// canonical must not notice.
func canonical(w *World) {
	w.sol = solver{}
	w.isl.parent, w.isl.minSleep, w.isl.root, w.isl.scratch = nil, nil, nil, nil
	bp := &w.bp
	bp.sleeping = spatialHash{}
	bp.stamps, bp.stamp, bp.cand, bp.pairs, bp.pairs2, bp.buckets = nil, 0, nil, nil, nil, nil
	bp.sweep, bp.sweepMark, bp.sweepGen = nil, nil, 0
	bp.sleepingDirty = true
	w.awake, w.awakeDirty = nil, true
	w.cs.keys2, w.cs.ids2 = nil, nil
	w.satHints = nil // hints: stale ones change no result
	// The saves' bookkeeping: which bodies changed since which save
	// decides only how much a save copies, never what the world holds.
	w.gen = 0
	clear(w.bodyGen)
	for i := range w.bodies {
		b := &w.bodies[i]
		b.acc, b.spin, b.wlen, b.alpha, b.maxSweep = vec3{}, 0, 0, 0, 0
		b.solverIndex = 0
		if b.awake {
			b.minZ, b.margin, b.sweep = 0, 0, 0
			bp.fat[i], bp.balls[i] = aabb{}, ball{}
		}
	}
	for ci := range w.cs.pool {
		c := &w.cs.pool[ci]
		m := &c.m
		for j := m.count; j < maxManifoldPoints; j++ {
			m.points[j] = manifoldPoint{}
		}
		// A contact with an awake body is saved compact: the next step
		// recomputes its geometry before reading it. NaN, so that a step
		// that did read it would show in the state hash.
		if c.a >= 0 && w.awakeContact(c) {
			m.normal = vec3{nan(), nan(), nan()}
			for j := range m.count {
				p := &m.points[j]
				p.anchorA, p.anchorB, p.separation = m.normal, m.normal, nan()
			}
		}
	}
	w.shapeHash()
}

// TestSaveRestoreEveryStateField saves a katamari world after 60 steps,
// with the katamari forces of the next step pending and a sleeping cube
// nudged within SetState's tolerance (so its pose is not the one it fell
// asleep at), then sends it into another future: every cube woken and 60
// steps of pull, so that nothing of its scratch is what it was. After the
// restore, a twin stepped only the first 60 steps must equal it in every
// field but the scratch canonical clears, and stepping on must retrace a
// third world's run, which never saved, state and counters, step by step.
// A field added to World (or to its parts) and neither saved nor rebuilt
// fails here.
func TestSaveRestoreEveryStateField(t *testing.T) {
	worlds := make([]*World, 3) // saved, twin, reference
	var player BodyID
	for k := range worlds {
		worlds[k], player = katamariWorld(t, 150, 0)
	}
	a, b, ref := worlds[0], worlds[1], worlds[2]
	for i := 0; i < 60; i++ {
		for _, w := range worlds {
			katamariPull(w, player)
			w.Step()
		}
	}
	asleep := BodyID(-1)
	for i := a.bodyCount() - 1; i > 0 && asleep < 0; i-- {
		if !a.IsAwake(BodyID(i)) {
			asleep = BodyID(i)
		}
	}
	if asleep < 0 {
		t.Fatal("no sleeping cube after 60 steps")
	}
	for _, w := range worlds {
		s := w.State(asleep)
		s.Position[0] += 5e-5
		if err := w.SetState(asleep, s); err != nil || w.IsAwake(asleep) {
			t.Fatalf("nudging cube %d: %v, awake %v", asleep, err, w.IsAwake(asleep))
		}
		katamariPull(w, player)
	}
	var s Saved
	a.Save(&s)

	for i := range a.bodies {
		a.wake(&a.bodies[i])
	}
	for i := 0; i < 60; i++ {
		a.Step()
		katamariPull(a, player)
	}
	if d := sameValue(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), "World"); d == "" {
		t.Fatal("the world did not change in 60 steps: the test proves nothing")
	}
	if err := a.Restore(&s); err != nil {
		t.Fatal(err)
	}
	canonical(a)
	canonical(b)
	if d := sameValue(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), "World"); d != "" {
		t.Fatalf("after restore, %s differs from the world that was never saved", d)
	}
	for i := 0; i < 60; i++ {
		a.Step()
		ref.Step()
		katamariPull(a, player)
		katamariPull(ref, player)
		if a.StateHash() != ref.StateHash() || a.Stats() != ref.Stats() {
			t.Fatalf("step %d after restore: hash %x stats %+v, never saved %x %+v", i+1, a.StateHash(), a.Stats(), ref.StateHash(), ref.Stats())
		}
	}
}

// TestSaveBytes: a save of the katamari gather holds the state, not the
// pools and scratch: well under a whole World's 1.89 MB.
func TestSaveBytes(t *testing.T) {
	w, p := katamariWorld(t, 150, 0)
	for i := 0; i < 200; i++ {
		katamariPull(w, p)
		w.Step()
	}
	var s Saved
	w.Save(&s)
	st := w.Stats()
	t.Logf("%d bytes per save (%d contacts, %d awake of %d bodies)", s.Bytes(), st.Contacts, st.AwakeBodies, st.Bodies)
	if s.Bytes() > 800_000 {
		t.Errorf("a save holds %d bytes, want ≤ 800,000 (a whole World took 1.89 MB)", s.Bytes())
	}
}

func TestRestoreRefusesMismatch(t *testing.T) {
	w := restingGrid(t)
	var s Saved
	if err := w.Restore(&s); err != ErrNotSaved {
		t.Errorf("empty save: %v, want ErrNotSaved", err)
	}
	small := newWorld(t, DefaultConfig())
	small.Save(&s)
	if err := w.Restore(&s); err != ErrSavedMismatch {
		t.Errorf("foreign save: %v, want ErrSavedMismatch", err)
	}
}
