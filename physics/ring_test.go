package physics

import (
	"reflect"
	"runtime"
	"testing"
)

// ringRun drives a katamari world through frames 0..frames-1 with a ring
// of 8 saves, one a frame (the world before that frame's step), as the
// rollback strategy and the 2004 client keep them, and rewinds now and
// then: at each frame in rewind it restores the save of back frames
// before and steps forward again, saving as it goes. At reset (if > 0)
// the world is put back to a save of another world (a strategy switched
// to, a machine reset), so the ring's saves are then of a past that no
// longer exists. With check, it compares every save with a whole save of
// the same moment into an empty Saved. It returns the state hash after
// each frame.
func ringRun(t *testing.T, frames, reset int, rewind map[int]int, check bool) []uint64 {
	t.Helper()
	w, player := katamariWorld(t, 150, 0)
	other, _ := katamariWorld(t, 150, 0)
	var fresh Saved
	other.Save(&fresh)
	var ring [8]Saved
	hashes := make([]uint64, frames)
	step := func(f int) {
		s := &ring[f%len(ring)]
		w.Save(s)
		if check {
			var whole Saved
			w.Save(&whole)
			ca, cb := savedContent(s), savedContent(&whole)
			if d := sameValue(reflect.ValueOf(&ca).Elem(), reflect.ValueOf(&cb).Elem(), "Saved"); d != "" {
				t.Fatalf("frame %d: the ring's save differs from a whole save in %s", f, d)
			}
		}
		if f%3 == 0 { // forces pending at some saves, as the game's pull
			katamariPull(w, player)
		}
		w.Step()
		hashes[f] = w.StateHash()
	}
	for f := 0; f < frames; f++ {
		if f == reset {
			if err := w.Restore(&fresh); err != nil {
				t.Fatal(err)
			}
		}
		step(f)
		if back := rewind[f]; back > 0 {
			from := f + 1 - back
			if err := w.Restore(&ring[from%len(ring)]); err != nil {
				t.Fatal(err)
			}
			for g := from; g <= f; g++ {
				step(g)
			}
		}
	}
	return hashes
}

// TestRingRewindsAsNeverSaved: a world that saves into a ring and rewinds
// (one frame, the whole ring, a rewind right after another, to an older
// save after several newer ones, and after being reset to another world's
// save) steps through the same states as one that never saves, whatever
// GOMAXPROCS; every incremental save equals a whole one.
func TestRingRewindsAsNeverSaved(t *testing.T) {
	const frames = 60
	rewind := map[int]int{8: 1, 12: 8, 13: 3, 20: 5, 21: 8, 33: 2, 40: 7, 41: 7, 50: 4, 57: 8}
	for _, reset := range []int{30} {
		ref := ringRun(t, frames, reset, nil, false)
		for _, procs := range []int{1, 2} {
			prev := runtime.GOMAXPROCS(procs)
			got := ringRun(t, frames, reset, rewind, procs == 1)
			runtime.GOMAXPROCS(prev)
			for f := range got {
				if got[f] != ref[f] {
					t.Fatalf("reset at %d, GOMAXPROCS=%d: frame %d differs from the run that never rewound", reset, procs, f)
				}
			}
		}
	}
}

// TestSaveSeesSleepingContactLists: a contact linked into or out of a
// sleeping body's list (an awake cube's speculative contact, which does
// not wake it, made or ended by the step) changes that body's saved state
// although the body did not move; an incremental save must copy it. The
// katamari scenes make such contacts rarely, so the test makes them; then
// a nudge within SetState's tolerance, a force that wakes, and a step.
func TestSaveSeesSleepingContactLists(t *testing.T) {
	w := restingGrid(t)
	var a, b int32 = -1, -1 // two sleeping bodies
	for i := range w.bodies {
		if !w.bodies[i].awake {
			if a < 0 {
				a = int32(i)
			} else if b < 0 {
				b = int32(i)
			}
		}
	}
	if b < 0 {
		t.Fatal("fewer than two sleeping bodies")
	}
	var s Saved
	same := func(when string) {
		t.Helper()
		w.Save(&s)
		var whole Saved
		w.Save(&whole)
		ca, cb := savedContent(&s), savedContent(&whole)
		if d := sameValue(reflect.ValueOf(&ca).Elem(), reflect.ValueOf(&cb).Elem(), "Saved"); d != "" {
			t.Fatalf("%s: the incremental save differs from a whole save in %s", when, d)
		}
	}
	same("first save")
	ci := w.createContact(pairKey(a, b))
	same("after a contact was linked into two sleeping bodies' lists")
	w.destroyContact(ci)
	same("after it was unlinked")
	st := w.State(BodyID(a))
	st.Position[0] += 5e-5
	if err := w.SetState(BodyID(a), st); err != nil || w.IsAwake(BodyID(a)) {
		t.Fatalf("nudging body %d: %v, awake %v", a, err, w.IsAwake(BodyID(a)))
	}
	same("after a sleeping body was nudged within SetState's tolerance")
	if err := w.ApplyForce(BodyID(b), st.Position); err != nil || !w.IsAwake(BodyID(b)) {
		t.Fatalf("pushing body %d: %v, awake %v", b, err, w.IsAwake(BodyID(b)))
	}
	same("after a force woke a sleeping body")
	w.Step()
	same("after a step")
}
