package physics

// Design note: save and restore, for rewind and replay (client-side
// prediction keeps the world as it was at past frames and goes back to one
// when a correction arrives). A Saved holds a complete copy of a World:
// not only what StateHash sees (poses and velocities) but everything a
// later Step reads: sleep timers and islands, the contacts with their
// manifolds and warm-start impulses, the broadphase grids and the scratch
// the solver keeps between steps. Leaving any of it out would make a
// replay differ from the original run in the last bits, and in a chaotic
// pile of 901 cubes a last-bit difference grows into a visible one.
//
// One function, copyWorld, copies every field in both directions, so Save
// and Restore cannot disagree about what a world is. Slices are copied
// into the destination's own backing arrays (append to [:0]), so once a
// Saved has held a world of the same size, saving and restoring allocate
// nothing. TestSaveRestoreCopiesEveryField fails when a field is added to
// World and not to copyWorld.

import "errors"

// Errors Restore returns.
var (
	// ErrNotSaved: the Saved value holds no world yet.
	ErrNotSaved = errors.New("physics: restore from an empty save")
	// ErrSavedMismatch: the save is of a world with another body count
	// or configuration.
	ErrSavedMismatch = errors.New("physics: restore from a different world")
)

// Saved is a saved World state. The zero value is ready to use; reuse one
// value for many saves to avoid allocating.
type Saved struct {
	w     World
	valid bool
}

// Valid reports whether s holds a saved world.
func (s *Saved) Valid() bool { return s.valid }

// Save copies the complete state of w into s.
func (w *World) Save(s *Saved) {
	copyWorld(&s.w, w)
	s.valid = true
}

// Restore puts w back in the state saved in s. It returns ErrNotSaved if s
// holds nothing, and ErrSavedMismatch if s was saved from a world with a
// different number of bodies or another configuration.
func (w *World) Restore(s *Saved) error {
	if !s.valid {
		return ErrNotSaved
	}
	if len(s.w.bodies) != len(w.bodies) || s.w.cfg != w.cfg {
		return ErrSavedMismatch
	}
	copyWorld(w, &s.w)
	return nil
}

// copyWorld makes dst an exact copy of src, reusing dst's slices.
func copyWorld(dst, src *World) {
	dst.cfg = src.cfg
	dst.gravity = src.gravity
	dst.bodies = append(dst.bodies[:0], src.bodies...)
	dst.awake = append(dst.awake[:0], src.awake...)
	dst.awakeDirty = src.awakeDirty

	copyBroadphase(&dst.bp, &src.bp)
	copyContactSet(&dst.cs, &src.cs)
	copySolver(&dst.sol, &src.sol)
	copyIslands(&dst.isl, &src.isl)
	dst.stats = src.stats
	dst.angleTolGap = src.angleTolGap
}

func copyBroadphase(dst, src *broadphase) {
	dst.invCell = src.invCell
	copySpatialHash(&dst.sleeping, &src.sleeping)
	copySpatialHash(&dst.awake, &src.awake)
	dst.sleepingDirty = src.sleepingDirty
	dst.fat = append(dst.fat[:0], src.fat...)
	dst.balls = append(dst.balls[:0], src.balls...)
	dst.stamps = append(dst.stamps[:0], src.stamps...)
	dst.stamp = src.stamp
	dst.pairs = append(dst.pairs[:0], src.pairs...)
}

func copySpatialHash(dst, src *spatialHash) {
	dst.mask = src.mask
	dst.start = append(dst.start[:0], src.start...)
	dst.items = append(dst.items[:0], src.items...)
	dst.big = append(dst.big[:0], src.big...)
	dst.entryBucket = append(dst.entryBucket[:0], src.entryBucket...)
	dst.entryBody = append(dst.entryBody[:0], src.entryBody...)
}

func copyContactSet(dst, src *contactSet) {
	dst.pool = append(dst.pool[:0], src.pool...)
	dst.freeHead = src.freeHead
	dst.keys = append(dst.keys[:0], src.keys...)
	dst.keys2 = append(dst.keys2[:0], src.keys2...)
	dst.ids = append(dst.ids[:0], src.ids...)
	dst.ids2 = append(dst.ids2[:0], src.ids2...)
	dst.active = append(dst.active[:0], src.active...)
}

func copySolver(dst, src *solver) {
	dst.bodies = append(dst.bodies[:0], src.bodies...)
	dst.constraints = append(dst.constraints[:0], src.constraints...)
	dst.friction = append(dst.friction[:0], src.friction...)
	dst.cpoints = append(dst.cpoints[:0], src.cpoints...)
	dst.relativeVelocity = append(dst.relativeVelocity[:0], src.relativeVelocity...)
	dst.points = src.points
	dst.dynamic = src.dynamic
	dst.colour = append(dst.colour[:0], src.colour...)
	dst.masks = append(dst.masks[:0], src.masks...)
	dst.counts = src.counts
}

func copyIslands(dst, src *islands) {
	dst.parent = append(dst.parent[:0], src.parent...)
	dst.minSleep = append(dst.minSleep[:0], src.minSleep...)
	dst.root = append(dst.root[:0], src.root...)
	dst.list = append(dst.list[:0], src.list...)
	dst.freeHead = src.freeHead
	dst.sleeping = src.sleeping
	dst.scratch = append(dst.scratch[:0], src.scratch...)
}
