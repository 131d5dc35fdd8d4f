package game

import (
	"runtime"
	"testing"

	"netcubes/cubes"
	"netcubes/udp"
)

// heapInUse is the live heap after a collection, bytes.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestSlotsFreedReleaseState: 16 rights join a left (one player, 15
// spectators, client-side prediction: the strategy that keeps the most per
// client). Rights 2-15 leave: their clients are parked (a fresh instance,
// no per-tick work). The last two leave: the left's heap with none
// connected comes back to within a tenth of what the 16 added to the
// empty left's (the rights' own sessions, in this process too, included).
func TestSlotsFreedReleaseState(t *testing.T) {
	w := DefaultConfig().World
	w.GridSide = 6 // 37 cubes: the test is about what is kept per right
	m := newManyRightsOn(t, 1, 4, w)
	for range 30 {
		m.step()
	}
	empty := heapInUse()
	for range 16 {
		m.join(cubes.Input{})
	}
	for range 30 {
		m.step()
	}
	full := heapInUse()
	for i := 14; i >= 1; i-- {
		m.leave(i)
	}
	for range 10 {
		m.step()
	}
	parked := 0
	for k, c := range m.left.clients {
		if c.parked {
			parked++
		}
		if c.parked != (k >= 1 && k <= 14) {
			t.Errorf("client %d: parked %v, its slot connected %v", k, c.parked, m.srv.Slot(k).Connected)
		}
	}
	m.leave(15)
	m.leave(0)
	for range 10 {
		m.step()
	}
	m.rights = nil
	after := heapInUse()
	grew, kept := full-empty, after-empty
	t.Logf("heap: empty left %.1f MB; 16 rights joined %.1f MB (their sessions in this process included); 14 left: %d clients parked; all left: %.1f MB, %d client(s)",
		float64(empty)/1e6, float64(full)/1e6, parked, float64(after)/1e6, len(m.left.clients))
	if m.srv.Clients() != 0 || len(m.left.clients) != 1 {
		t.Fatalf("%d rights still connected, %d clients", m.srv.Clients(), len(m.left.clients))
	}
	if kept > grew/10 {
		t.Errorf("after 16 rights joined and left the heap kept %d of the %d bytes they added", kept, grew)
	}
}

// TestRightBeforeAnyLeftShowsNoFigures: a right that never heard a left
// has no RTT and no loss to show (the zero value is not a measurement).
func TestRightBeforeAnyLeftShowsNoFigures(t *testing.T) {
	rc, err := udp.Dial("127.0.0.1:9", udp.Token{}, udp.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	cfg := DefaultConfig()
	cfg.World.GridSide = 6
	cfg.Strategies = strategiesForTest()
	cfg.Role, cfg.Client = RoleRight, rc
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		r.Step(cubes.Input{})
	}
	if rs, m := r.Remote(), r.Metrics(); rs.HasRTT || m.HasRTT || m.RTTMeasured() || m.LossMeasured() {
		t.Errorf("remote %+v; metrics RTT %v (%.0f ms), loss measured %v", rs, m.HasRTT, m.RTTms, m.LossMeasured())
	}
}
