package game

import (
	"testing"

	"netcubes/cubes"
	"netcubes/lockstep"
	"netcubes/rollback"
)

// joinFigures are what the join test reads of a right's lockstep or
// rollback instance, and of the left's transfer to it.
type joinFigures struct {
	checked, desync, restarts, frame  int
	xFrame, xBytes, xFragments, xSent int
	xDone                             bool
}

// figuresOf reads r's instance (the right's side) and l's (the left's).
func figuresOf(t *testing.T, r, l any) joinFigures {
	t.Helper()
	var f joinFigures
	switch s := r.(type) {
	case *lockstep.Strategy:
		st := s.Stats()
		f.checked, f.desync, f.restarts, f.frame = st.Checked, st.Desync, st.Restarts, st.Frame
	case *rollback.Strategy:
		st := s.Stats()
		f.checked, f.desync, f.restarts, f.frame = st.Checked, st.Desync, st.Restarts, st.Frame
	default:
		t.Fatalf("the right runs %T", r)
	}
	switch s := l.(type) {
	case *lockstep.Strategy:
		x := s.Transfer()
		f.xFrame, f.xBytes, f.xFragments, f.xSent, f.xDone = x.Frame, x.Bytes, x.Fragments, x.Sent, x.Done
	case *rollback.Strategy:
		x := s.Transfer()
		f.xFrame, f.xBytes, f.xFragments, f.xSent, f.xDone = x.Frame, x.Bytes, x.Fragments, x.Sent, x.Done
	}
	return f
}

// TestJoinsLeaveOtherRightsAlone: in lockstep and in rollback, a right
// runs while a second right joins and leaves every 1.5 s, four times,
// over the loopback interface. The first right's world never starts over
// and stays in sync (every hash it compared with the left's agrees, and it
// keeps comparing); each second right receives the left's world at the
// frame it joined, and is then the left bit for bit as well.
func TestJoinsLeaveOtherRightsAlone(t *testing.T) {
	w := DefaultConfig().World
	w.GridSide = 6 // 37 cubes
	for _, start := range []int{3, 6} {
		m := newManyRightsOn(t, 2, start, w)
		a := m.join(cubes.Input{})
		for range 60 {
			m.step()
		}
		before := figuresOf(t, a.Strategy(), nil)
		if before.checked == 0 {
			t.Fatalf("strategy %d: the first right compared no hash", start+1)
		}
		for round := range 4 {
			b := m.join(cubes.Input{})
			for range 90 {
				m.step()
			}
			f := figuresOf(t, b.Strategy(), m.left.clients[1].st)
			t.Logf("strategy %d, round %d: the world at frame %d, %d bytes in %d fragments (%d sent); the right at frame %d, %d hashes compared",
				start+1, round+1, f.xFrame, f.xBytes, f.xFragments, f.xSent, f.frame, f.checked)
			if !f.xDone || f.desync >= 0 || f.checked < 30 || f.frame <= f.xFrame {
				t.Errorf("strategy %d, round %d: the joining right: transfer done %v, desync at %d, %d checked, at frame %d",
					start+1, round+1, f.xDone, f.desync, f.checked, f.frame)
			}
			m.leave(len(m.rights) - 1)
			for range 30 {
				m.step()
			}
		}
		after := figuresOf(t, a.Strategy(), nil)
		t.Logf("strategy %d: the first right: %d restarts, %d hashes compared, frame %d (left %d)",
			start+1, after.restarts-before.restarts, after.checked, after.frame, m.left.Frame())
		if after.restarts != before.restarts || after.desync >= 0 || after.checked < before.checked+4*100 {
			t.Errorf("strategy %d: the first right: %d restarts, desync at %d, %d hashes compared (was %d)",
				start+1, after.restarts-before.restarts, after.desync, after.checked, before.checked)
		}
		if lag := m.left.Frame() - after.frame; lag < 0 || lag > 20 {
			t.Errorf("strategy %d: the first right's world trails the left by %d frames", start+1, lag)
		}
	}
}
