package physics

// Design note: the broadphase finds the pairs of bodies that might touch
// this step, so the exact (and much more expensive) box-box test only runs
// on those. Two structures, one per kind of partner:
//
//   - sleeping bodies are listed in a uniform grid stored as a spatial
//     hash: space is cut into cubes of Config.CellSize, each body is
//     listed in every cell its bounds overlap, and an awake body meets
//     the sleepers of the cells its bounds overlap. They do not move, so
//     the grid is rebuilt only when the set of sleeping bodies changes.
//   - awake bodies find each other by sort and sweep along x (sweepAwake),
//     every step, from last step's order. It replaced an awake grid
//     rebuilt every step, which cost a katamari ball's dozen cubes per
//     cell in hashing and candidate lists (docs/design/physics-many-worlds.md).
//
// Only awake bodies search, so a world that is asleep does no broadphase
// work at all, and a player rolling through a sleeping grid of 900 cubes
// costs one search per step. Sleeping bodies never need to find each
// other: their contacts are kept as they were when they fell asleep.
//
// Each body's bounds are "fat": grown by half the speculative distance plus
// the distance it can move during the step (see bodyBounds). Two fat boxes
// overlap when the bodies could come within SpeculativeDistance of each
// other during the step, which is what speculative contacts need to stop
// fast bodies before they tunnel. A pair must also pass the same test on
// bounding spheres grown by the same margins (turned boxes' bounds
// overlap far more often than the boxes come near), and the narrowphase
// then bounds each pair's margin more tightly still (pairMargin).
//
// Determinism: the grid is built by a counting sort over bodies in index
// order and searched in a fixed cell order, the sweep's order is a total
// one (x, then index), and the resulting pair keys are sorted. Nothing
// depends on memory addresses, maps or timing.

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// maxCellsPerBody is the most cells one body is inserted into. A body
// whose bounds cover more (a huge box) goes into the "big" list instead,
// which every search tests directly.
const maxCellsPerBody = 512

// cellLimit bounds cell coordinates so they fit in int32 with room to
// spare. Positions are bounded by MaxCoordinate, so this only matters for a
// CellSize far below a millimetre.
const cellLimit = 1 << 28

// spatialHash is one grid. Cells are hashed into a power-of-two number of
// buckets; bucket b's bodies are items[begin(b):start[b]] where begin(b)
// is start[b-1] (0 for b = 0). Different cells may share a bucket; the
// bounds test removes those false candidates.
type spatialHash struct {
	mask  uint32
	start []int32
	items []int32
	big   []int32

	// scratch for building: one entry per (body, cell), and each body's
	// cells
	entryBucket []uint32
	entryBody   []int32
	ranges      []cellBox
}

// cellBox is the range of cells a body's bounds cover (cellRange).
type cellBox struct {
	lo, hi [3]int32
	n      int
}

// aabb is an axis-aligned box: a body's fat bounds.
type aabb struct{ min, max vec3 }

// ball is a body's fat bounding sphere: its centre, and its radius grown
// by the same margin as its fat bounds.
type ball struct {
	c vec3
	r float64
}

type broadphase struct {
	invCell float64
	// fat[i] is body i's fat bounds, kept apart from the bodies so that
	// the searches, which test many candidates, read 48 bytes per
	// candidate instead of a cache line of a large body.
	fat []aabb
	// balls[i] is body i's fat bounding sphere. The bounds of turned
	// boxes overlap more often than their spheres do: in the katamari
	// gather, a fifth of the pairs whose bounds overlap have their
	// spheres apart, and testing the spheres here spares them the
	// contact's bookkeeping and the narrowphase.
	balls         []ball
	sleeping      spatialHash
	sleepingDirty bool

	// sweep is the awake bodies in sort-and-sweep order (sweepAwake),
	// kept from step to step as the next sort's starting order; sweepMark
	// and sweepGen mark which bodies are awake this step.
	sweep     []sweepKey
	sweepMark []uint32
	sweepGen  uint32

	// stamps[j] == stamp marks body j as already tested in this search;
	// it replaces a "seen" set without clearing anything per search.
	stamps []uint32
	stamp  uint32
	// cand is search's scratch list of candidates.
	cand []int32

	// pairs are the candidate pairs found this step, as contact keys;
	// pairs2 and buckets are sortPairs' scratch.
	pairs   []uint64
	pairs2  []uint64
	buckets []int32
}

func (bp *broadphase) init(cellSize float64) {
	bp.invCell = 1 / cellSize
	bp.sleepingDirty = true
}

// cellCoord returns the grid coordinate of x, clamped.
func (bp *broadphase) cellCoord(x float64) int32 {
	c := math.Floor(x * bp.invCell)
	if c < -cellLimit {
		c = -cellLimit
	} else if c > cellLimit {
		c = cellLimit
	}
	return int32(c)
}

// cellHash mixes three cell coordinates into a bucket index. The
// multipliers are the large primes from Teschner et al., "Optimized
// Spatial Hashing for Collision Detection of Deformable Objects" (2003).
func cellHash(x, y, z int32, mask uint32) uint32 {
	return (uint32(x)*73856093 ^ uint32(y)*19349663 ^ uint32(z)*83492791) & mask
}

// cellRange returns the cell ranges covered by a body's fat bounds and
// how many cells that is.
func (bp *broadphase) cellRange(b *aabb) (lo, hi [3]int32, n int) {
	n = 1
	for k := 0; k < 3; k++ {
		lo[k] = bp.cellCoord(b.min.comp(k))
		hi[k] = bp.cellCoord(b.max.comp(k))
		span := int(hi[k]) - int(lo[k]) + 1
		if span > maxCellsPerBody {
			span = maxCellsPerBody + 1 // avoid overflow; the total is too many anyway
		}
		n *= span
	}
	return lo, hi, n
}

// build fills g with the bodies in list (which must be in increasing
// index order, so the grid's contents are deterministic).
func (bp *broadphase) build(g *spatialHash, list []int32) {
	g.entryBucket = g.entryBucket[:0]
	g.entryBody = g.entryBody[:0]
	g.big = g.big[:0]
	// First pass: each body's cells (kept for the second pass: the
	// floors and clamps of cellRange were a third of a rebuild), and the
	// entries they make, to size the table.
	g.ranges = resize(g.ranges, len(list))
	entries := 0
	for k, i := range list {
		r := &g.ranges[k]
		r.lo, r.hi, r.n = bp.cellRange(&bp.fat[i])
		if r.n > maxCellsPerBody {
			continue
		}
		entries += r.n
	}
	buckets := 64
	for buckets < 2*entries {
		buckets <<= 1
	}
	g.mask = uint32(buckets - 1)
	for k, i := range list {
		r := &g.ranges[k]
		if r.n > maxCellsPerBody {
			g.big = append(g.big, i)
			continue
		}
		for z := r.lo[2]; z <= r.hi[2]; z++ {
			for y := r.lo[1]; y <= r.hi[1]; y++ {
				for x := r.lo[0]; x <= r.hi[0]; x++ {
					g.entryBucket = append(g.entryBucket, cellHash(x, y, z, g.mask))
					g.entryBody = append(g.entryBody, i)
				}
			}
		}
	}
	// Counting sort of the entries by bucket.
	if cap(g.start) < buckets {
		g.start = make([]int32, buckets, 2*buckets)
	}
	g.start = g.start[:buckets]
	clear(g.start)
	for _, bk := range g.entryBucket {
		g.start[bk]++
	}
	sum := int32(0)
	for k := range g.start {
		c := g.start[k]
		g.start[k] = sum
		sum += c
	}
	if cap(g.items) < len(g.entryBody) {
		g.items = make([]int32, len(g.entryBody), 2*len(g.entryBody))
	}
	g.items = g.items[:len(g.entryBody)]
	for e, bk := range g.entryBucket {
		g.items[g.start[bk]] = g.entryBody[e]
		g.start[bk]++
	}
	// Now start[b] is the end of bucket b, which is where b+1 begins.
}

// bucket returns the bodies listed in bucket bk.
func (g *spatialHash) bucket(bk uint32) []int32 {
	begin := int32(0)
	if bk > 0 {
		begin = g.start[bk-1]
	}
	return g.items[begin:g.start[bk]]
}

// overlaps reports whether two bodies' fat bounds overlap.
func overlaps(a, b *aabb) bool {
	return a.min.x <= b.max.x && b.min.x <= a.max.x &&
		a.min.y <= b.max.y && b.min.y <= a.max.y &&
		a.min.z <= b.max.z && b.min.z <= a.max.z
}

// below is 1 when every coordinate of p is at most q's, else 0: half of
// overlaps without a branch (bit compiles to a flag move), for the sweep,
// whose candidates overlap along y and z or not as the CPU cannot
// predict (every wrong guess costs it about twenty cycles). overlaps
// written this way would not be inlined.
func below(p, q *vec3) uint8 {
	return bit(p.x <= q.x) & bit(p.y <= q.y) & bit(p.z <= q.z)
}

// bit is 1 for true, 0 for false.
func bit(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// near reports whether two fat spheres overlap. A pair it refuses could
// make no contact point: collideBoxes gives up on the same test with the
// pair's margin, and pairMargin never exceeds the spheres' margins. The
// micrometre of slack keeps rounding (the margins add in another order
// there) from ever refusing a pair collideBoxes would keep.
func near(a, b *ball) bool {
	d := sub(b.c, a.c)
	r := a.r + b.r + 1e-6
	return dot(d, d) <= float64(r*r)
}

// pairKey packs a pair of bodies into the key contacts are sorted by:
// the lower index in the high 32 bits. The ground sorts after every body.
func pairKey(a, b int32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(uint32(a))<<32 | uint64(uint32(b))
}

// groundKey is the key of body a's contact with the ground.
func groundKey(a int32) uint64 { return uint64(uint32(a))<<32 | 0xFFFFFFFF }

// keyBodies unpacks a key; b is -1 for the ground.
func keyBodies(k uint64) (a, b int32) {
	a = int32(k >> 32)
	lo := uint32(k)
	if lo == 0xFFFFFFFF {
		return a, -1
	}
	return a, int32(lo)
}

// findPairs computes fat bounds for the awake bodies and fills bp.pairs
// with every pair (body-body and body-ground) that involves at least one
// awake body and whose fat bounds overlap, sorted by key.
func (w *World) findPairs() {
	bp := &w.bp
	bp.pairs = bp.pairs[:0]
	if len(w.awake) == 0 {
		return
	}
	if len(bp.stamps) < len(w.bodies) {
		bp.stamps = append(bp.stamps, make([]uint32, len(w.bodies)-len(bp.stamps))...)
	}
	w.buildSleeping()
	for _, i := range w.awake {
		w.bodyBounds(i)
	}

	groundReach := float64(0.5 * w.cfg.SpeculativeDistance)
	for _, i := range w.awake {
		b := &w.bodies[i]
		// Ground: the box's lowest point is within its margin plus half the
		// speculative distance (the ground has no margin of its own).
		if b.minZ < b.margin+groundReach {
			bp.pairs = append(bp.pairs, groundKey(i))
		}
		bp.stamp++
		if bp.stamp == 0 { // wrapped: forget all marks
			clear(bp.stamps)
			bp.stamp = 1
		}
		bp.stamps[i] = bp.stamp
		bp.search(&bp.sleeping, i)
	}
	bp.sweepAwake(w.awake, len(w.bodies))
	bp.sortPairs(len(w.bodies))
}

// maxBucketBodies bounds the bodies for which sortPairs counts instead of
// comparing: its two passes each go through a bucket per body.
const maxBucketBodies = 1 << 16

// sortPairs sorts the pairs' keys in increasing order, as slices.Sort
// would (they are distinct, so the order is the same): a counting sort by
// the first body (n buckets), then each first body's short run sorted by
// the second body (the ground, 0xFFFFFFFF, last). The counting pass costs
// one pass over the pairs and the buckets instead of the comparisons and
// mispredicted branches of a comparison sort (a katamari gather step
// sorts about a thousand pairs); a body's run is its few partners, which
// an insertion sort orders in a few comparisons. (Two counting passes, by
// the second body and then stably by the first, went through the n
// buckets twice: a twentieth of the broadphase.)
func (bp *broadphase) sortPairs(n int) {
	if n > maxBucketBodies || len(bp.pairs) < 2 {
		slices.Sort(bp.pairs)
		return
	}
	bp.pairs2 = resize(bp.pairs2, len(bp.pairs))
	bp.buckets = resize(bp.buckets, n+1)
	countingSort(bp.pairs2, bp.pairs, bp.buckets)
	bp.pairs, bp.pairs2 = bp.pairs2, bp.pairs
	sortRuns(bp.pairs)
}

// countingSort writes src into dst ordered by the keys' first body,
// keeping the order of src among equal ones. buckets has room for one
// more than the largest body number.
func countingSort(dst, src []uint64, buckets []int32) {
	clear(buckets)
	for _, k := range src {
		buckets[k>>32+1]++
	}
	for i := 1; i < len(buckets); i++ {
		buckets[i] += buckets[i-1]
	}
	for _, k := range src {
		d := k >> 32
		dst[buckets[d]] = k
		buckets[d]++
	}
}

// maxInsertionRun is the longest run of one first body that sortRuns
// sorts by insertion; a longer one (a big body with many partners) goes
// to slices.Sort.
const maxInsertionRun = 32

// sortRuns sorts keys that are already ordered by their first body: each
// run of one first body is sorted on its own.
func sortRuns(keys []uint64) {
	for start := 0; start < len(keys); {
		first := keys[start] >> 32
		end := start + 1
		for end < len(keys) && keys[end]>>32 == first {
			end++
		}
		run := keys[start:end]
		if len(run) > maxInsertionRun {
			slices.Sort(run)
		} else {
			insertionSort(run)
		}
		start = end
	}
}

// insertionSort sorts a short run of keys.
func insertionSort(keys []uint64) {
	for a := 1; a < len(keys); a++ {
		k := keys[a]
		b := a
		for b > 0 && keys[b-1] > k {
			keys[b] = keys[b-1]
			b--
		}
		keys[b] = k
	}
}

// sweepKey is an awake body in the sweep's order: the low x of its fat
// bounds, then its index (so that equal bounds still sort one way).
type sweepKey struct {
	x float64
	i int32
}

// sweepAwake appends the pairs of awake bodies whose fat bounds and
// spheres overlap, by sort and sweep along x: the bodies sorted by the low
// x of their bounds, each is tested against those after it whose low x is
// not beyond its high x. Every overlapping pair is found once (from the one
// earlier in the order), the same pairs as a grid search would find, and
// findPairs sorts them by key, so the result does not depend on the method.
// A katamari ball is a dense clump of awake cubes: a 1 m grid cell there
// holds a dozen of them, and searching the awake grid cost each body its
// cells' hashing and every cell mate's bounds; the sweep reads only the
// bodies its bounds reach along x, from one small sorted array. The order
// is kept from the last step, and a pile moves little between steps, so
// the insertion sort does little work.
func (bp *broadphase) sweepAwake(awake []int32, bodies int) {
	if len(bp.sweepMark) < bodies {
		bp.sweepMark = append(bp.sweepMark, make([]uint32, bodies-len(bp.sweepMark))...)
	}
	// Marks: 2·gen for a body awake this step, 2·gen+1 once it is listed.
	bp.sweepGen++
	if bp.sweepGen >= 1<<31 { // wrapped: forget all marks
		clear(bp.sweepMark)
		bp.sweepGen = 1
	}
	gen := 2 * bp.sweepGen
	mark := bp.sweepMark
	for _, i := range awake {
		mark[i] = gen
	}
	// Last step's order first (the bodies still awake), then the others.
	keys := bp.sweep[:0]
	for _, k := range bp.sweep {
		if mark[k.i] == gen {
			mark[k.i] = gen + 1
			keys = append(keys, sweepKey{bp.fat[k.i].min.x, k.i})
		}
	}
	for _, i := range awake {
		if mark[i] == gen {
			keys = append(keys, sweepKey{bp.fat[i].min.x, i})
		}
	}
	insertionSortKeys(keys)
	bp.sweep = keys
	fat, balls := bp.fat, bp.balls
	for a := range keys {
		i := keys[a].i
		fi, bi := &fat[i], &balls[i]
		hi := fi.max.x
		for _, k := range keys[a+1:] {
			if k.x > hi {
				break
			}
			fk := &fat[k.i]
			if below(&fi.min, &fk.max)&below(&fk.min, &fi.max) != 0 && near(bi, &balls[k.i]) {
				bp.pairs = append(bp.pairs, pairKey(i, k.i))
			}
		}
	}
}

// insertionSortKeys sorts keys by x, then index.
func insertionSortKeys(keys []sweepKey) {
	for a := 1; a < len(keys); a++ {
		k := keys[a]
		b := a
		for b > 0 && (keys[b-1].x > k.x || (keys[b-1].x == k.x && keys[b-1].i > k.i)) {
			keys[b] = keys[b-1]
			b--
		}
		keys[b] = k
	}
}

// buildSleeping rebuilds the sleeping grid if the set of sleeping bodies
// changed since it was built.
func (w *World) buildSleeping() {
	bp := &w.bp
	if !bp.sleepingDirty {
		return
	}
	w.isl.scratch = w.isl.scratch[:0]
	for i := range w.bodies {
		if !w.bodies[i].awake {
			w.isl.scratch = append(w.isl.scratch, int32(i))
		}
	}
	bp.build(&bp.sleeping, w.isl.scratch)
	bp.sleepingDirty = false
}

// search appends the pairs of body i with the bodies of grid g.
func (bp *broadphase) search(g *spatialHash, i int32) {
	b := &bp.fat[i]
	// First the candidates, each once (a body listed in several of the
	// cells searched turns up several times), then the bounds tests. The
	// candidate loop (addCandidates) is inlined at each place, where a
	// closure called per entry was a twentieth of a katamari step.
	stamps, stamp := bp.stamps, bp.stamp
	cand := bp.cand[:0]
	cand = addCandidates(cand, g.big, stamps, stamp)
	if len(g.items) > 0 {
		lo, hi, n := bp.cellRange(b)
		if n > maxCellsPerBody {
			// A big body searching: test everything in the grid instead
			// of walking an enormous cell range.
			cand = addCandidates(cand, g.items, stamps, stamp)
		} else {
			for z := lo[2]; z <= hi[2]; z++ {
				for y := lo[1]; y <= hi[1]; y++ {
					for x := lo[0]; x <= hi[0]; x++ {
						cand = addCandidates(cand, g.bucket(cellHash(x, y, z, g.mask)), stamps, stamp)
					}
				}
			}
		}
	}
	fat, balls, bi := bp.fat, bp.balls, &bp.balls[i]
	for _, j := range cand {
		if overlaps(b, &fat[j]) && near(bi, &balls[j]) {
			bp.pairs = append(bp.pairs, pairKey(i, j))
		}
	}
	bp.cand = cand
}

// addCandidates appends to cand the bodies of js not met yet in this
// search (stamps[j] != stamp), marking them met. Small enough to be
// inlined into search.
func addCandidates(cand, js []int32, stamps []uint32, stamp uint32) []int32 {
	for _, j := range js {
		if stamps[j] != stamp {
			stamps[j] = stamp
			cand = append(cand, j)
		}
	}
	return cand
}

// bodyBounds computes b's fat bounds and its motion bounds for this step.
//
// How far can a point of the body move during the step? With the
// substeps' integration (velocity first, then position), a body starting
// at speed v under constant acceleration a moves
//
//	Σ_{k=1..n} h·(v + k·h·a) = dt·v + ½·a·dt²·(1 + 1/n),
//
// and rotation adds |ω|·r (plus the same term for angular acceleration)
// for a point at distance r from the centre. The linear and angular parts
// are kept apart (acc, spin) so that the narrowphase can bound the
// relative motion of a pair, which is much smaller than the sum when two
// bodies move together, as the cubes of a katamari ball do (pairMargin).
// The fat bounds use the body's own total, half the speculative distance
// on top, capped by what the speed clamps allow.
func (w *World) bodyBounds(i int32) {
	b := &w.bodies[i]
	dt := w.cfg.TimeStep
	accFactor := float64(0.5*float64(dt*dt)) * (1 + 1/float64(w.cfg.Substeps))
	b.acc = madd(w.gravity, b.invMass, b.force)
	maxInvI := maxf(b.invInertia.x, maxf(b.invInertia.y, b.invInertia.z))
	b.alpha = float64(length(b.torque) * maxInvI)
	b.wlen = length(b.w)
	angAcc := b.alpha * b.radius
	b.spin = float64(dt*float64(b.wlen*b.radius)) + float64(accFactor*angAcc)
	sweep := float64(dt*length(b.v)) + float64(accFactor*length(b.acc)) + b.spin
	b.maxSweep = float64(dt * (b.maxLin + float64(b.maxAng*b.radius)))
	if !(sweep <= b.maxSweep) {
		sweep = b.maxSweep
	}
	w.setBounds(i, sweep)
}

// pairMargin bounds how much the gap between bodies a and b (b nil: the
// ground) can close during this step, plus the speculative distance: the
// speculative distance of their contact. Every point farther apart than
// this is left out of the manifold, so the tighter the bound, the fewer
// speculative points the solver carries. In the katamari gather, where
// the cubes tumble together, the bound from each body's own motion was
// 4 cm or more for most pairs, and two thirds of the contacts the solver
// carried had a gap at every point; the bounds below cut the points by a
// fifth.
//
// For two awake bodies see pairMotion. For the ground, whose frame does
// not move, only height counts: the box's lowest point comes down by at
// most its centre's vertical motion plus its rotation's reach, so sliding
// and rolling along the floor add nothing. A sleeping body does not move,
// so a pair with one is bounded by the other's own sweep. The bound never
// exceeds the two bodies' sweeps (each capped by its speed clamps), which
// their fat bounds hold, so a pair whose fat spheres are apart can have
// no point (see search).
func (w *World) pairMargin(a, b *body) float64 {
	dt := w.cfg.TimeStep
	accFactor := float64(0.5*float64(dt*dt)) * (1 + 1/float64(w.cfg.Substeps))
	var m float64
	switch {
	case b == nil:
		if a.awake {
			m = minf(float64(dt*math.Abs(a.v.z))+float64(accFactor*math.Abs(a.acc.z))+a.spin, a.sweep)
		}
	case a.awake && b.awake:
		m = minf(w.pairMotion(a, b, accFactor), a.sweep+b.sweep)
	case a.awake:
		m = a.sweep
	case b.awake:
		m = b.sweep
	}
	return w.cfg.SpeculativeDistance + m
}

// pairMotion bounds how much the gap between two awake bodies can close
// during the step, as the smallest of three bounds.
//
// The first is what each body's own motion allows: their relative linear
// motion plus the reach of both rotations, dt·|v_B − v_A| + (the
// acceleration term) + spin_A + spin_B.
//
// The others follow one body's points as seen from the other: in a frame
// that moves and turns with a, b's centre c_B moves at the velocity of c_B
// relative to the point of a that coincides with it, v_B − v_A − ω_A × d
// with d = c_B − c_A, and b turns at ω_B − ω_A, which moves its points
// (at most r_B, its bounding radius, from c_B) by |ω_B − ω_A|·r_B. So
// over the step
//
//	dt·|v_B − v_A − ω_A×d| + dt·|ω_B − ω_A|·r_B,
//
// which is zero for two cubes that travel and turn together, as the
// katamari's do, however fast they go; and the same from b's frame. The
// rates change during the step, and the second-order terms (scaled by
// accFactor, as in bodyBounds) bound that: how the relative acceleration,
// the frame's angular acceleration α (turning the frame) and ω acting on
// the changing d and relative velocity change the first rate, and the
// angular accelerations the second. Two more products are there for the
// substeps rather than for the continuous motion: each substep turns a
// body by a finite rotation, which moves a point off the tangent line ω×d
// by up to (h·|ω|)²·|d|/2, and two finite rotations do not quite commute,
// which turns b by up to h²·|ω_A|·|ω_B|/2 more (accFactor's ½·dt² is n²
// times h²/2, so both are covered many times over).
func (w *World) pairMotion(a, b *body, accFactor float64) float64 {
	dt := w.cfg.TimeStep
	d := sub(b.pos, a.pos)
	dist := length(d)
	dv := sub(b.v, a.v)
	dvl := length(dv)
	dal := length(sub(b.acc, a.acc))
	own := float64(dt*dvl) + float64(accFactor*dal) + a.spin + b.spin

	wa, wb := a.wlen, b.wlen
	turn := float64(dt*length(sub(b.w, a.w))) + float64(accFactor*(a.alpha+b.alpha+float64(wa*wb)))
	// From a's frame, then from b's (there the relative velocity is the
	// opposite of dv − ω_B×d, the same length).
	fromA := float64(dt*length(sub(dv, cross(a.w, d)))) +
		float64(accFactor*(dal+float64(a.alpha*dist)+float64(wa*(dvl+float64(wa*dist))))) +
		float64(turn*b.radius)
	fromB := float64(dt*length(sub(dv, cross(b.w, d)))) +
		float64(accFactor*(dal+float64(b.alpha*dist)+float64(wb*(dvl+float64(wb*dist))))) +
		float64(turn*a.radius)
	return minf(own, minf(fromA, fromB))
}

// setBounds sets body i's fat bounds: the box's world-axis bounds grown
// by SpeculativeDistance/2 + sweep, and records its lowest point.
func (w *World) setBounds(i int32, sweep float64) {
	b := &w.bodies[i]
	r := &b.rot
	e := b.halfExtents
	// Half-width of the rotated box along each world axis: the sum of its
	// axes' projections.
	ext := vec3{
		float64(e.x*math.Abs(r.c[0].x)) + float64(e.y*math.Abs(r.c[1].x)) + float64(e.z*math.Abs(r.c[2].x)),
		float64(e.x*math.Abs(r.c[0].y)) + float64(e.y*math.Abs(r.c[1].y)) + float64(e.z*math.Abs(r.c[2].y)),
		float64(e.x*math.Abs(r.c[0].z)) + float64(e.y*math.Abs(r.c[1].z)) + float64(e.z*math.Abs(r.c[2].z)),
	}
	b.sweep = sweep
	b.margin = float64(0.5*w.cfg.SpeculativeDistance) + sweep
	grow := add(ext, vec3{b.margin, b.margin, b.margin})
	w.bp.fat[i] = aabb{sub(b.pos, grow), add(b.pos, grow)}
	w.bp.balls[i] = ball{b.pos, b.radius + b.margin}
	b.minZ = b.pos.z - ext.z
}

// BodiesNear appends to dst[:0] every body whose centre is within r of
// centre, and perhaps a few more (the caller tests the distance itself),
// in index order, and returns it. It reads the awake bodies and, through
// the sleeping grid, only the sleepers listed in the cells the sphere's
// box overlaps: a force field around the player (the katamari's pull)
// then costs the bodies near it, not a pass over every body of the world,
// whose scattered reads were a twentieth of a katamari step. A sleeping
// body's centre lies inside its bounds, so it is listed in the cell that
// holds its centre. It changes nothing a step reads: the grid and the
// awake list it may rebuild are rebuilt from the same bodies by the step.
func (w *World) BodiesNear(centre mgl64.Vec3, r float64, dst []BodyID) []BodyID {
	dst = dst[:0]
	c := toVec(centre)
	bp := &w.bp
	q := aabb{sub(c, vec3{r, r, r}), add(c, vec3{r, r, r})}
	lo, hi, n := bp.cellRange(&q)
	if !(r >= 0) || !isFinite3(c) || n > maxCellsPerBody {
		// Not a small sphere: every body.
		for i := range w.bodies {
			dst = append(dst, BodyID(i))
		}
		return dst
	}
	if w.awakeDirty {
		w.rebuildAwake()
	}
	w.buildSleeping()
	r2 := float64(r*r) * (1 + 1e-9)
	within := func(i int32) bool {
		d := sub(w.bodies[i].pos, c)
		return dot(d, d) <= r2
	}
	for _, i := range w.awake {
		if within(i) {
			dst = append(dst, BodyID(i))
		}
	}
	bp.stamp++
	if bp.stamp == 0 { // wrapped: forget all marks
		clear(bp.stamps)
		bp.stamp = 1
	}
	if len(bp.stamps) < len(w.bodies) {
		bp.stamps = append(bp.stamps, make([]uint32, len(w.bodies)-len(bp.stamps))...)
	}
	g := &bp.sleeping
	cand := addCandidates(bp.cand[:0], g.big, bp.stamps, bp.stamp)
	if len(g.items) > 0 {
		for z := lo[2]; z <= hi[2]; z++ {
			for y := lo[1]; y <= hi[1]; y++ {
				for x := lo[0]; x <= hi[0]; x++ {
					cand = addCandidates(cand, g.bucket(cellHash(x, y, z, g.mask)), bp.stamps, bp.stamp)
				}
			}
		}
	}
	bp.cand = cand
	for _, i := range cand {
		if within(i) {
			dst = append(dst, BodyID(i))
		}
	}
	slices.Sort(dst)
	return dst
}
