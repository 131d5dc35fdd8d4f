package replication

import (
	"cmp"
	"math"
	"slices"
)

// Design note: the priority accumulator (Glenn Fiedler, "State
// Synchronization"). A state synchronization packet has room for only a few
// dozen of the 901 cubes, so the sender must choose. Sorting by the current
// priority alone (player 1,000,000, red cubes 100, grey cubes 1) starves the
// grey cubes forever: while a katamari ball exists, its red cubes always win.
//
// Instead each object keeps an accumulator that remembers what it is owed:
// every tick its current priority is added, the objects are sorted by
// accumulator (largest first), and the objects actually sent have their
// accumulator reset to zero. An object that keeps losing keeps growing until it
// wins, so every object is sent eventually, and the important ones are sent
// far more often: a red cube earns in one tick what a grey cube earns in 100.
// An object that did not fit in a packet keeps its value, so it is first in
// line for the next one.
//
// Determinism: ties are broken by index (lower first), so the order is a total
// order and never depends on the sorting algorithm. Priorities are sums of
// small integers in the demo, which float64 adds exactly.

// PriorityAccumulator holds one accumulated priority per object. It allocates
// only in NewPriorityAccumulator.
type PriorityAccumulator struct {
	acc     []float64
	order   []int32
	keys    []orderKey // scratch for ordered, Rank and RankGroups
	ranked  Ranked
	grouped GroupRanked
}

// orderKey is an object in sort order: inv is its accumulator's bits
// inverted, so that larger (non-negative) values come first when the keys
// sort in increasing order, then the index breaks ties.
type orderKey struct {
	inv uint64
	i   int32
}

func compareKeys(a, b orderKey) int {
	if a.inv != b.inv {
		return cmp.Compare(a.inv, b.inv)
	}
	return cmp.Compare(a.i, b.i)
}

// before reports whether a comes before b: compareKeys(a, b) < 0, small
// enough to be inlined in the heap's inner loop.
func before(a, b orderKey) bool { return a.inv < b.inv || a.inv == b.inv && a.i < b.i }

// NewPriorityAccumulator returns an accumulator for n objects, all at zero.
func NewPriorityAccumulator(n int) *PriorityAccumulator {
	p := &PriorityAccumulator{acc: make([]float64, n), order: make([]int32, n), keys: make([]orderKey, n)}
	for i := range p.order {
		p.order[i] = int32(i)
	}
	return p
}

// Len is the number of objects.
func (p *PriorityAccumulator) Len() int { return len(p.acc) }

// Reset sets every accumulator to zero.
func (p *PriorityAccumulator) Reset() {
	for i := range p.acc {
		p.acc[i] = 0
	}
}

// Add adds priority to object i's accumulator (one tick's worth). A negative
// or NaN priority adds nothing: priorities only ever raise the claim of an
// object.
func (p *PriorityAccumulator) Add(i int, priority float64) {
	if priority > 0 {
		p.acc[i] += priority
	}
}

// Set overwrites object i's value. With Set instead of Add every tick the
// accumulator degrades to "current priority only", the naive scheme the
// article starts from (and the build-up's first step shows).
func (p *PriorityAccumulator) Set(i int, priority float64) {
	if !(priority > 0) {
		priority = 0
	}
	p.acc[i] = priority
}

// Sent resets object i's accumulator: it was included in a packet.
func (p *PriorityAccumulator) Sent(i int) { p.acc[i] = 0 }

// Value returns object i's accumulated priority.
func (p *PriorityAccumulator) Value(i int) float64 { return p.acc[i] }

// Max returns the largest accumulated priority (0 when all are zero), to
// scale the values to 0..1 for display.
func (p *PriorityAccumulator) Max() float64 {
	m := 0.0
	for _, v := range p.acc {
		if v > m {
			m = v
		}
	}
	return m
}

// ordered sorts the objects by accumulated priority, largest first, ties by
// index, and returns them. The slice is owned by the accumulator and valid
// until the next call to ordered.
func (p *PriorityAccumulator) ordered() []int32 {
	// The previous order is a good starting point (most values only grew
	// by the same amount), but correctness never depends on it: the
	// comparison is a total order. The values are non-negative, whose
	// IEEE bits order like the values themselves, so the keys compare as
	// integers: a server sorts its 901 cubes once per client per tick.
	for k, i := range p.order {
		p.keys[k] = orderKey{inv: ^math.Float64bits(p.acc[i]), i: i}
	}
	slices.SortFunc(p.keys, compareKeys)
	for k := range p.keys {
		p.order[k] = p.keys[k].i
	}
	return p.order
}

// Ranked walks the objects in Order's order, one at a time: Next returns
// them largest first, ties by index, and false after the last. A sender
// takes only the few dozen that fit in a packet, so instead of sorting all
// of them it builds a heap (a linear pass) and pops what it needs: the same
// order, in a fraction of the comparisons. Start a walk with Rank; the
// accumulator must not change during it.
func (p *PriorityAccumulator) Rank() *Ranked {
	r := &p.ranked
	r.keys = p.keys[:0]
	for i, v := range p.acc {
		r.keys = append(r.keys, orderKey{inv: ^math.Float64bits(v), i: int32(i)})
	}
	for k := len(r.keys)/2 - 1; k >= 0; k-- {
		r.down(k)
	}
	return r
}

// Ranked is a walk over the objects in priority order (Rank).
type Ranked struct{ keys []orderKey }

// Next returns the next object in priority order, or false when every
// object has been returned.
func (r *Ranked) Next() (int32, bool) {
	n := len(r.keys)
	if n == 0 {
		return 0, false
	}
	top := r.keys[0].i
	r.keys[0] = r.keys[n-1]
	r.keys = r.keys[:n-1]
	r.down(0)
	return top, true
}

// down sifts the key at k down to its place in the min-heap.
func (r *Ranked) down(k int) {
	h := r.keys
	for {
		c := 2*k + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && before(h[c+1], h[c]) {
			c++
		}
		if !before(h[c], h[k]) {
			return
		}
		h[k], h[c] = h[c], h[k]
		k = c
	}
}

// MaxRankGroups is the most groups RankGroups takes.
const MaxRankGroups = 8

// RankGroups walks the objects in Order's order, like Rank, for a sender
// that knows, by group, the least room an object may need: group[i] is
// object i's group (one per object, each below len(least)), least[g] that
// group's least room (len(least) ≤ MaxRankGroups). Next(room) then returns
// the next object in priority order among the groups whose least room is
// at most room, so the objects that cannot fit are never ranked at all
// (each group is a heap of its own; Next takes the best of their tops).
// Room may only shrink during a walk (a group too big once is too big for
// the rest of the walk), and the accumulator must not change during it.
func (p *PriorityAccumulator) RankGroups(group []uint8, least []int) *GroupRanked {
	r := &p.grouped
	ng := len(least)
	r.n = ng
	// Counting sort of the keys by group, each group then a heap of its
	// own in its slice of p.keys.
	var count [MaxRankGroups + 1]int
	for _, g := range group {
		count[g+1]++
	}
	for g := range ng {
		count[g+1] += count[g]
		r.least[g] = least[g]
	}
	at := count
	keys := p.keys[:len(p.acc)]
	for i, v := range p.acc {
		g := group[i]
		keys[at[g]] = orderKey{inv: ^math.Float64bits(v), i: int32(i)}
		at[g]++
	}
	for g := range ng {
		h := &r.heaps[g]
		h.keys = keys[count[g]:count[g+1]]
		for k := len(h.keys)/2 - 1; k >= 0; k-- {
			h.down(k)
		}
	}
	return r
}

// GroupRanked is a walk over the objects in priority order, skipping the
// groups that cannot fit (RankGroups).
type GroupRanked struct {
	heaps [MaxRankGroups]Ranked
	least [MaxRankGroups]int
	n     int
}

// Next returns the next object in priority order among the groups whose
// least room is at most room, or false when there is none.
func (r *GroupRanked) Next(room int) (int32, bool) {
	best := -1
	for g := range r.n {
		h := r.heaps[g].keys
		if len(h) == 0 || r.least[g] > room {
			continue
		}
		if best < 0 || before(h[0], r.heaps[best].keys[0]) {
			best = g
		}
	}
	if best < 0 {
		return 0, false
	}
	return r.heaps[best].Next()
}
