package game

import (
	"testing"

	"netcubes/cubes"
	"netcubes/lockstep"
)

// lockstepOf is right r's lockstep instance.
func lockstepOf(t *testing.T, r *Session) *lockstep.Strategy {
	t.Helper()
	ls, ok := r.Strategy().(*lockstep.Strategy)
	if !ok {
		t.Fatalf("the right runs %s", r.Strategy().ID())
	}
	return ls
}

// TestLockstepJoinsLeaveOthersAlone: a right runs lockstep while a second
// right joins and leaves every 1.5 s, four times, over the loopback
// interface. The first right's world never starts over and stays in sync
// (every hash it compared with the left's agrees, and it keeps comparing);
// each second right receives the left's world at the frame it joined, and
// is then the left bit for bit as well.
func TestLockstepJoinsLeaveOthersAlone(t *testing.T) {
	w := DefaultConfig().World
	w.GridSide = 6 // 37 cubes
	m := newManyRightsOn(t, 2, 3, w)
	a := m.join(cubes.Input{})
	for range 60 {
		m.step()
	}
	la := lockstepOf(t, a)
	before := la.Stats()
	if before.Checked == 0 {
		t.Fatal("the first right compared no hash")
	}
	for round := range 4 {
		b := m.join(cubes.Input{})
		for range 90 {
			m.step()
		}
		lb := lockstepOf(t, b)
		sb, tr := lb.Stats(), m.left.clients[1].st.(*lockstep.Strategy).Transfer()
		t.Logf("round %d: the world at frame %d, %d bytes in %d fragments (%d sent); the right at frame %d, %d hashes compared",
			round+1, tr.Frame, tr.Bytes, tr.Fragments, tr.Sent, sb.Frame, sb.Checked)
		if !tr.Done || sb.Desync >= 0 || sb.Checked < 30 || sb.Frame <= tr.Frame {
			t.Errorf("round %d: the joining right: transfer done %v, desync at %d, %d checked, at frame %d", round+1, tr.Done, sb.Desync, sb.Checked, sb.Frame)
		}
		m.leave(len(m.rights) - 1)
		for range 30 {
			m.step()
		}
	}
	after := la.Stats()
	t.Logf("the first right: %d restarts, %d hashes compared, frame %d (left %d)", after.Restarts-before.Restarts, after.Checked, after.Frame, m.left.Frame())
	if after.Restarts != before.Restarts || after.Desync >= 0 || after.Checked < before.Checked+4*120-10 {
		t.Errorf("the first right: %d restarts, desync at %d, %d hashes compared (was %d)", after.Restarts-before.Restarts, after.Desync, after.Checked, before.Checked)
	}
	if lag := m.left.Frame() - after.Frame; lag < 0 || lag > 20 {
		t.Errorf("the first right's world trails the left by %d frames", lag)
	}
}
