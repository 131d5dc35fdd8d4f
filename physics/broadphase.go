package physics

// Design note: the broadphase finds the pairs of bodies that might touch
// this step, so the exact (and much more expensive) box-box test only runs
// on those. It uses a uniform grid stored as a spatial hash: space is cut
// into cubes of Config.CellSize, each body is listed in every cell its
// bounds overlap, and two bodies are candidates when they share a cell and
// their bounds overlap.
//
// Two grids are kept:
//
//   - the sleeping grid lists sleeping bodies. They do not move, so it is
//     rebuilt only when the set of sleeping bodies changes.
//   - the awake grid lists awake bodies and is rebuilt every step, at a
//     cost proportional to the number of awake bodies.
//
// Only awake bodies search the grids, so a world that is asleep does no
// broadphase work at all, and a player rolling through a sleeping grid of
// 900 cubes costs one search per step. Sleeping bodies never need to find
// each other: their contacts are kept as they were when they fell asleep.
//
// Each body's bounds are "fat": grown by half the speculative distance plus
// the distance it can move during the step (see bodyBounds). Two fat boxes
// overlap exactly when the bodies could come within SpeculativeDistance of
// each other during the step, which is what speculative contacts need to
// stop fast bodies before they tunnel.
//
// Determinism: grids are built by a counting sort over bodies in index
// order, searched in a fixed cell order, and the resulting pair keys are
// sorted. Nothing depends on memory addresses, maps or timing.

import (
	"math"
	"slices"
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

	// scratch for building: one entry per (body, cell)
	entryBucket []uint32
	entryBody   []int32
}

// aabb is an axis-aligned box: a body's fat bounds.
type aabb struct{ min, max vec3 }

type broadphase struct {
	invCell float64
	// fat[i] is body i's fat bounds, kept apart from the bodies so that
	// the searches, which test many candidates, read 48 bytes per
	// candidate instead of a cache line of a large body.
	fat           []aabb
	sleeping      spatialHash
	awake         spatialHash
	sleepingDirty bool

	// stamps[j] == stamp marks body j as already tested in this search;
	// it replaces a "seen" set without clearing anything per search.
	stamps []uint32
	stamp  uint32

	// pairs are the candidate pairs found this step, as contact keys.
	pairs []uint64
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
	// First pass: count entries to size the table.
	entries := 0
	for _, i := range list {
		_, _, n := bp.cellRange(&bp.fat[i])
		if n > maxCellsPerBody {
			continue
		}
		entries += n
	}
	buckets := 64
	for buckets < 2*entries {
		buckets <<= 1
	}
	g.mask = uint32(buckets - 1)
	for _, i := range list {
		lo, hi, n := bp.cellRange(&bp.fat[i])
		if n > maxCellsPerBody {
			g.big = append(g.big, i)
			continue
		}
		for z := lo[2]; z <= hi[2]; z++ {
			for y := lo[1]; y <= hi[1]; y++ {
				for x := lo[0]; x <= hi[0]; x++ {
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
	if bp.sleepingDirty {
		w.isl.scratch = w.isl.scratch[:0]
		for i := range w.bodies {
			if !w.bodies[i].awake {
				w.isl.scratch = append(w.isl.scratch, int32(i))
			}
		}
		bp.build(&bp.sleeping, w.isl.scratch)
		bp.sleepingDirty = false
	}
	for _, i := range w.awake {
		w.bodyBounds(i)
	}
	bp.build(&bp.awake, w.awake)

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
		bp.search(&bp.sleeping, i, false)
		bp.search(&bp.awake, i, true)
	}
	slices.Sort(bp.pairs)
}

// search appends the pairs of body i with the bodies of grid g. In the awake
// grid only partners with a higher index are taken, so each awake pair is
// found once.
func (bp *broadphase) search(g *spatialHash, i int32, onlyHigher bool) {
	b := &bp.fat[i]
	fat := bp.fat
	test := func(j int32) {
		// Lower partners in the awake grid found this pair already.
		if onlyHigher && j < i {
			return
		}
		if bp.stamps[j] == bp.stamp {
			return
		}
		bp.stamps[j] = bp.stamp
		if overlaps(b, &fat[j]) {
			bp.pairs = append(bp.pairs, pairKey(i, j))
		}
	}
	for _, j := range g.big {
		test(j)
	}
	if len(g.items) == 0 {
		return
	}
	lo, hi, n := bp.cellRange(b)
	if n > maxCellsPerBody {
		// A big body searching: test everything in the grid instead of
		// walking an enormous cell range.
		for _, j := range g.items {
			test(j)
		}
		return
	}
	for z := lo[2]; z <= hi[2]; z++ {
		for y := lo[1]; y <= hi[1]; y++ {
			for x := lo[0]; x <= hi[0]; x++ {
				for _, j := range g.bucket(cellHash(x, y, z, g.mask)) {
					test(j)
				}
			}
		}
	}
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
// bodies move together, as the cubes of a katamari ball do. The fat
// bounds use the body's own total, half the speculative distance on top,
// capped by what the speed clamps allow.
func (w *World) bodyBounds(i int32) {
	b := &w.bodies[i]
	dt := w.cfg.TimeStep
	accFactor := float64(0.5*float64(dt*dt)) * (1 + 1/float64(w.cfg.Substeps))
	b.acc = madd(w.gravity, b.invMass, b.force)
	maxInvI := maxf(b.invInertia.x, maxf(b.invInertia.y, b.invInertia.z))
	angAcc := float64(length(b.torque)*maxInvI) * b.radius
	b.spin = float64(dt*float64(length(b.w)*b.radius)) + float64(accFactor*angAcc)
	sweep := float64(dt*length(b.v)) + float64(accFactor*length(b.acc)) + b.spin
	b.maxSweep = float64(dt * (b.maxLin + float64(b.maxAng*b.radius)))
	if !(sweep <= b.maxSweep) {
		sweep = b.maxSweep
	}
	w.setBounds(i, sweep)
}

// pairMargin bounds how much the gap between bodies a and b can close
// during this step, plus the speculative distance: the speculative
// distance of their contact. Their relative linear motion (not each
// one's) counts, so bodies that travel together get few speculative
// points. A sleeping body does not move (its acc, spin and velocity are
// zero).
func (w *World) pairMargin(a, b *body) float64 {
	dt := w.cfg.TimeStep
	accFactor := float64(0.5*float64(dt*dt)) * (1 + 1/float64(w.cfg.Substeps))
	var dv, da vec3
	var spin, cap float64
	dv, da, spin, cap = a.v, a.acc, a.spin, a.maxSweep
	if !a.awake {
		dv, da, spin, cap = vec3{}, vec3{}, 0, 0
	}
	if b != nil && b.awake {
		dv, da = sub(dv, b.v), sub(da, b.acc)
		spin += b.spin
		cap += b.maxSweep
	}
	m := float64(dt*length(dv)) + float64(accFactor*length(da)) + spin
	if !(m <= cap) {
		m = cap
	}
	return w.cfg.SpeculativeDistance + m
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
	b.margin = float64(0.5*w.cfg.SpeculativeDistance) + sweep
	grow := add(ext, vec3{b.margin, b.margin, b.margin})
	w.bp.fat[i] = aabb{sub(b.pos, grow), add(b.pos, grow)}
	b.minZ = b.pos.z - ext.z
}
