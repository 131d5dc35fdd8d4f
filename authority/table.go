package authority

import (
	"netcubes/wire"
)

// table is one machine's view of who simulates each cube: the owner
// (1..players, or players+1: the default, the host), the ownership
// sequence (bumped each time the cube changes hands) and the authority
// sequence (bumped by each claim and release a player makes), plus what
// the screen shows about it (when it last changed hands, when it was
// last disputed).
type table struct {
	def      int32
	owner    []int32
	ownSeq   []uint16
	authSeq  []uint16
	changed  []int // frame the cube last changed hands here (−1: never)
	disputed []int // frame of the last dispute over it (−1: never)
	rest     []int // ticks at rest under a player's authority
}

func (t *table) reset(n, players int) {
	t.def = int32(players + 1)
	if cap(t.owner) < n {
		t.owner, t.ownSeq, t.authSeq = make([]int32, n), make([]uint16, n), make([]uint16, n)
		t.changed, t.disputed, t.rest = make([]int, n), make([]int, n), make([]int, n)
	}
	t.owner, t.ownSeq, t.authSeq = t.owner[:n], t.ownSeq[:n], t.authSeq[:n]
	t.changed, t.disputed, t.rest = t.changed[:n], t.disputed[:n], t.rest[:n]
	for i := range n {
		t.owner[i], t.ownSeq[i], t.authSeq[i] = t.def, 0, 0
		t.changed[i], t.disputed[i], t.rest[i] = -1, -1, 0
	}
}

// give hands cube i to owner at frame f.
func (t *table) give(i int, owner int32, f int) {
	if t.owner[i] != owner {
		t.owner[i] = owner
		t.changed[i] = f
		t.rest[i] = 0
	}
}

// owned counts the cubes each player owns (index 0: player 1).
func (t *table) owned(out *[9]int) {
	*out = [9]int{}
	for _, o := range t.owner {
		if o >= 1 && o < t.def && int(o) <= len(out) {
			out[o-1]++
		}
	}
}

// newer reports whether sequence a is after b (wrapping).
func newer(a, b uint16) bool { return wire.SequenceGreaterThan(a, b) }

// window is a one-second sliding count of events (claims, conflicts, lost
// claims) and a five-second largest value (the pop), per tick.
type window struct {
	count [wire.TicksPerSecond]int
	peak  [5 * wire.TicksPerSecond]float64
	total uint64
}

func (w *window) add(f int, n int) {
	w.count[f%len(w.count)] += n
	w.total += uint64(n)
}

func (w *window) peakAt(f int, v float64) {
	k := f % len(w.peak)
	w.peak[k] = max(w.peak[k], v)
}

// open clears tick f's slots before it is counted.
func (w *window) open(f int) {
	w.count[f%len(w.count)] = 0
	w.peak[f%len(w.peak)] = 0
}

func (w *window) perSecond() int {
	n := 0
	for _, c := range w.count {
		n += c
	}
	return n
}

func (w *window) largest() float64 {
	m := 0.0
	for _, v := range w.peak {
		m = max(m, v)
	}
	return m
}
