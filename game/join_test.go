package game

import (
	"testing"

	"netcubes/cubes"
	"netcubes/lockstep"
	"netcubes/rollback"
)

// joinFigures are what the join test reads of a right's lockstep or
// rollback instance: the figures its HUD line reports.
type joinFigures struct {
	checked, desync, restarts, frame int
}

// figuresOf reads r's instance (a right's side).
func figuresOf(t *testing.T, r any) joinFigures {
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
		before := figuresOf(t, a.Strategy())
		if before.checked == 0 {
			t.Fatalf("strategy %d: the first right compared no hash", start+1)
		}
		for round := range 4 {
			b := m.join(cubes.Input{})
			for range 90 {
				m.step()
			}
			// A right that had not received the left's world could not be
			// near the left's frame, 90 ticks after joining, comparing hashes.
			f := figuresOf(t, b.Strategy())
			lag := m.left.Frame() - f.frame
			t.Logf("strategy %d, round %d: the joining right at frame %d (left %d), %d hashes compared",
				start+1, round+1, f.frame, m.left.Frame(), f.checked)
			if f.desync >= 0 || f.checked < 30 || f.frame < 0 || lag < 0 || lag > 20 {
				t.Errorf("strategy %d, round %d: the joining right: desync at %d, %d checked, at frame %d (left %d)",
					start+1, round+1, f.desync, f.checked, f.frame, m.left.Frame())
			}
			m.leave(len(m.rights) - 1)
			for range 30 {
				m.step()
			}
		}
		after := figuresOf(t, a.Strategy())
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
