package game

import (
	"testing"

	"netcubes/cubes"
	"netcubes/udp"
)

// fullWorldTruthBytes is the truth's body with the default 901-cube world:
// frame, hash, count and 79 bits a cube.
const fullWorldTruthBytes = 4 + 8 + 2 + (901*79+7)/8

// TestTruthPacerKeepsTheBudget: with N rights all connected for a minute,
// the truth the left sends stays within the room's budget (counted in
// bytes, sealing included, at most one datagram over), each right gets
// its share in turn, and one right still gets it every DiagEvery ticks.
// The log gives the figure of docs/classroom.md (kbit/s a right).
func TestTruthPacerKeepsTheBudget(t *testing.T) {
	const ticks, every, kbps = 3600, 6, 2000
	for _, tc := range []struct {
		rights, kbps int
		wantEach     int // datagrams each right gets in the minute (0: not pinned)
	}{
		{1, kbps, ticks / every},
		{1, 0, ticks / every},
		{8, 0, ticks / every},
		{8, kbps, 0},
		{64, kbps, 0},
		{3, 100, 0}, // a budget below one datagram a tick
	} {
		var p truthPacer
		got := make([]int, tc.rights)
		var out []int
		all := func(int) bool { return true }
		for f := range ticks {
			out = p.pick(f, every, tc.kbps, fullWorldTruthBytes, all, tc.rights, out[:0])
			for _, k := range out {
				got[k]++
				p.count(fullWorldTruthBytes)
			}
		}
		seconds := float64(ticks) / 60
		total := float64(p.Bytes) * 8 / seconds / 1000
		t.Logf("%2d rights, budget %4d kbit/s: %6.0f kbit/s of truth in all, %5.0f kbit/s a right, a truth every %.2f s", tc.rights, tc.kbps, total,
			total/float64(tc.rights), seconds*float64(tc.rights)/float64(p.Datagrams))
		if tc.kbps > 0 && p.Bytes*8 > int64(tc.kbps)*1000*int64(seconds)+int64(fullWorldTruthBytes+udp.Overhead)*8 {
			t.Errorf("%d rights: %d bytes of truth in %.0f s, over the budget of %d kbit/s", tc.rights, p.Bytes, seconds, tc.kbps)
		}
		lo, hi := got[0], got[0]
		for _, g := range got {
			lo, hi = min(lo, g), max(hi, g)
		}
		if hi-lo > 1 || lo == 0 {
			t.Errorf("%d rights, budget %d: each got %d..%d truths, want a fair share", tc.rights, tc.kbps, lo, hi)
		}
		if tc.wantEach > 0 && (lo < tc.wantEach-1 || hi > tc.wantEach) {
			t.Errorf("%d rights, budget %d: each got %d..%d truths, want %d (every %d ticks)", tc.rights, tc.kbps, lo, hi, tc.wantEach, every)
		}
	}
}

// TestRightsShareTheTruth: a left with four rights over loopback on a
// budget that carries a third of what they would get every 6 ticks: the
// left's truth bytes stay within it, and every right still shows its
// error figure, held between truths with its age.
func TestRightsShareTheTruth(t *testing.T) {
	w := DefaultConfig().World
	w.GridSide = 6                   // 37 cubes: a truth of about 410 bytes
	m := newManyRightsOn(t, 1, 2, w) // state sync: it shows the left a few ticks back
	m.left.cfg.DiagEvery = 6
	m.left.cfg.TruthKbps = 40 // 4 rights × 410 B × 8 × 10/s = 131 kbit/s wanted
	for range 4 {
		m.join(cubes.Input{})
	}
	b0, _ := m.left.TruthSent()
	valid := make([]int, len(m.rights))
	held := make([]int, len(m.rights))
	const ticks = 240
	for range ticks {
		m.step()
		for i, r := range m.rights {
			if mt := r.Metrics(); mt.Valid {
				valid[i]++
				if mt.TruthAgeMs > 0 {
					held[i]++
				}
			}
		}
	}
	b1, n := m.left.TruthSent()
	bytes := b1 - b0
	limit := int64(40*1000*ticks/60/8) + int64(m.left.tp.diagLen+udp.Overhead)
	t.Logf("%d bytes of truth in %d ticks (%d datagrams, %.1f kbit/s for a budget of 40); ticks with figures %v, held %v",
		bytes, ticks, n, float64(bytes)*8*60/ticks/1000, valid, held)
	if bytes > limit {
		t.Errorf("the left sent %d bytes of truth in %d ticks, over the budget's %d", bytes, ticks, limit)
	}
	for i := range m.rights {
		if valid[i] < ticks/2 || held[i] == 0 {
			t.Errorf("right %d: error figures in %d of %d ticks, %d of them held: want most ticks, some held", i, valid[i], ticks, held[i])
		}
	}
}
