package physics

// Design note: islands and sleeping.
//
// An island is a group of awake bodies connected by contacts that have
// points (speculative ones included): a pile, a tower, a cube on the
// ground. Bodies in an island push on each other, so they must sleep and
// wake together: putting one cube of a tower to sleep while the cube under
// it moves would leave it hanging in the air.
//
// Each step, after the bodies have moved, the awake bodies are grouped
// into islands with a union-find over the solver's body–body constraints
// (cost proportional to awake bodies and contacts, nothing for the
// sleeping ones). Each body keeps a timer of how long it has been slower
// than SleepSpeed; an island whose slowest-to-settle body has been still
// for SleepTime falls asleep: its bodies' velocities are zeroed, they
// leave the awake list and the solver, and they are remembered as a
// sleeping island (a linked list of its bodies) so they can be woken
// together.
//
// Waking: an applied force or impulse, a SetState beyond the tolerance, an
// explicit Wake, or a contact with points between an awake body and a
// sleeping one (found by the narrowphase, before the solver runs, so the
// woken bodies take part in the same step) wakes the whole sleeping
// island.
//
// Determinism: union-find always makes the lower index the root, and
// islands are visited in body order, so the same bodies sleep at the same
// step on every run.

// sleepIsland is a group of bodies that fell asleep together.
type sleepIsland struct {
	head int32 // first body; bodies link through body.islandNext
	size int32
	next int32 // free list link while unused
}

type islands struct {
	parent   []int32   // union-find over solver body indices
	minSleep []float64 // per root: the smallest sleep timer of the island
	root     []int32   // per root: the sleeping island allocated, or -1

	list     []sleepIsland
	freeHead int32
	sleeping int // number of sleeping islands

	scratch []int32
}

func (is *islands) init() { is.freeHead = -1 }

// find returns the root of x, halving paths on the way.
func (is *islands) find(x int32) int32 {
	p := is.parent
	for p[x] != x {
		p[x] = p[p[x]]
		x = p[x]
	}
	return x
}

// union joins the sets of x and y; the lower root wins, so the result does
// not depend on the order of unions.
func (is *islands) union(x, y int32) {
	rx, ry := is.find(x), is.find(y)
	if rx == ry {
		return
	}
	if rx < ry {
		is.parent[ry] = rx
	} else {
		is.parent[rx] = ry
	}
}

// allocIsland returns a free sleeping island id.
func (w *World) allocIsland() int32 {
	is := &w.isl
	if is.freeHead >= 0 {
		id := is.freeHead
		is.freeHead = is.list[id].next
		is.list[id] = sleepIsland{head: -1, next: -1}
		return id
	}
	is.list = append(is.list, sleepIsland{head: -1, next: -1})
	return int32(len(is.list) - 1)
}

// wakeIsland wakes every body of sleeping island id.
func (w *World) wakeIsland(id int32) {
	is := &w.isl
	isl := &is.list[id]
	for i := isl.head; i >= 0; {
		b := &w.bodies[i]
		next := b.islandNext
		b.awake = true
		b.sleepTime = 0
		b.island = -1
		b.islandNext = -1
		w.touched(i)
		i = next
	}
	*isl = sleepIsland{head: -1, next: is.freeHead}
	is.freeHead = id
	is.sleeping--
	w.awakeDirty = true
	w.bp.sleepingDirty = true
}

// wakeTouched wakes the sleeping islands that an active contact with
// points connects to an awake body. It reports whether anything woke.
func (w *World) wakeTouched() bool {
	woke := false
	for _, ci := range w.cs.active {
		c := &w.cs.pool[ci]
		if c.m.count == 0 {
			continue
		}
		if a := &w.bodies[c.a]; !a.awake {
			w.wakeIsland(a.island)
			woke = true
		}
		if c.b >= 0 {
			if b := &w.bodies[c.b]; !b.awake {
				w.wakeIsland(b.island)
				woke = true
			}
		}
	}
	return woke
}

// updateSleep groups the awake bodies into islands and puts to sleep the
// islands that have been still long enough. It runs after the bodies'
// states and sleep timers were updated.
func (w *World) updateSleep() {
	if !w.cfg.EnableSleep {
		return
	}
	is := &w.isl
	n := len(w.sol.bodies)
	if cap(is.parent) < n {
		is.parent = make([]int32, n, 2*n)
		is.minSleep = make([]float64, n, 2*n)
		is.root = make([]int32, n, 2*n)
	}
	is.parent = is.parent[:n]
	is.minSleep = is.minSleep[:n]
	is.root = is.root[:n]
	for k := range is.parent {
		is.parent[k] = int32(k)
	}
	cons := w.sol.constraints
	for ci := range cons {
		if cons[ci].b != 0 { // the ground joins nothing
			is.union(cons[ci].a, cons[ci].b)
		}
	}
	// The smallest timer of each island: the island is as restless as its
	// most restless body.
	for k := 1; k < n; k++ {
		is.minSleep[k] = w.bodies[w.awake[k-1]].sleepTime
		is.root[k] = -1
	}
	slept := false
	for k := 1; k < n; k++ {
		r := is.find(int32(k))
		if t := is.minSleep[k]; t < is.minSleep[r] {
			is.minSleep[r] = t
		}
	}
	for k := 1; k < n; k++ {
		r := is.find(int32(k))
		if is.minSleep[r] < w.cfg.SleepTime {
			continue
		}
		if is.root[r] < 0 {
			is.root[r] = w.allocIsland()
			is.sleeping++
		}
		id := is.root[r]
		bi := w.awake[k-1]
		b := &w.bodies[bi]
		// Push onto the island's list (the order is deterministic).
		isl := &is.list[id]
		b.islandNext = isl.head
		isl.head = bi
		isl.size++
		b.island = id
		b.awake = false
		b.v, b.w = vec3{}, vec3{}
		b.restPos, b.restQ = b.pos, b.q
		b.solverIndex = 0
		// It will not move: its margin is just half the speculative distance.
		w.setBounds(bi, 0)
		slept = true
	}
	if slept {
		w.awakeDirty = true
		w.bp.sleepingDirty = true
	}
}
