package snapshot

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
	"netcubes/wire"
)

// Design note: the interpolation buffer of snapshot interpolation. The
// receiver runs no simulation; it keeps the last few snapshots it received,
// each tagged with the sender's frame, and draws the world as it was at a
// playout time t a little in the past (see package playout for the clock that
// chooses t). Between the snapshot at or before t (A) and the one after it
// (B) it interpolates; past the newest one it has nothing to interpolate
// toward, is "starved", and holds or briefly extrapolates.
//
// The buffer is a ring of entries, each holding a whole snapshot (901 cubes)
// in storage allocated once, kept sorted by frame through a small index
// (order). The same buffer serves the sender (its sent snapshots, the
// candidates for a delta baseline) and the receiver (received snapshots:
// baselines the sender may refer to AND the interpolation buffer), so a
// receiver's entries also hold the decoded poses. Eviction drops the oldest
// frame, never the oldest arrival: a late packet must not push out a newer
// snapshot a baseline may still refer to.
//
// Render modes (RenderMode):
//   - Latest: the newest snapshot as it is; no delay beyond the network's,
//     but motion hitches with every late or lost packet.
//   - Linear: position lerp, orientation slerp between A and B.
//   - Hermite: cubic hermite position using velocity as tangents, when the
//     level sends velocity; otherwise tangents derived from the neighbouring
//     snapshots (Catmull-Rom: the tangent at A is (B − A⁻)/(t_B − t_A⁻));
//     orientation slerp.
//   - Extrapolate: no interpolation delay at all; from the newest snapshot
//     at or before t, move on at its velocity (sent, or derived from the
//     snapshot before it). It fails in the ways the article describes:
//     cubes sink into the floor (a falling cube keeps falling), katamari
//     cubes fly off on tangents (circular motion continues straight).
//   - Hermite ahead: the original demo's "hermite extrapolation": hermite
//     between A and B as above, both endpoints first pushed AheadSeconds
//     along their velocity (the tangents unchanged). The view leads the
//     playback by that much, so it is 0.2 s fresher than plain hermite at
//     the same delay, and overshoots wherever a cube's velocity changes
//     within those 0.2 s (a bounce, a katamari turn).

// RenderMode selects how the receiver turns snapshots into a view.
type RenderMode uint8

// The render modes.
const (
	RenderLatest       RenderMode = iota // newest snapshot as it is: hitches
	RenderLinear                         // lerp position, slerp orientation
	RenderHermite                        // hermite position, slerp orientation
	RenderExtrapolate                    // from the newest snapshot, at its velocity, no delay: fails
	RenderHermiteAhead                   // the original's: hermite between endpoints pushed 0.2 s ahead

	// NumRenderModes counts the modes.
	NumRenderModes = iota
)

var renderModeNames = [NumRenderModes]string{"latest only", "linear+slerp", "hermite+slerp", "extrapolate", "hermite+0.2 s"}

// AheadSeconds is how far RenderHermiteAhead pushes both endpoints along
// their velocity: the original demo's 0.2 s.
const AheadSeconds = 0.2

// String names the mode for the HUD: "linear+slerp".
func (m RenderMode) String() string {
	if int(m) < NumRenderModes {
		return renderModeNames[m]
	}
	return "unknown"
}

// Entry is one snapshot held by a Buffer.
type Entry struct {
	Frame int   // the sender's frame (the unwrapped sequence)
	Level Level // the level it was sent at
	Cubes []Cube
	Sent  []bool     // per cube: carried by the packet (not copied from a baseline)
	Poses []CubePose // decoded Cubes (receiver buffers only; nil once the playout time passed, see Buffer)
	// Acked (sender buffers only): the right acked this snapshot, so it
	// can be a baseline, or level 13's older baseline.
	Acked bool
	// Models (levels 12-13): the coder's models at the end of this
	// snapshot's packet, when HasModels; a later packet against this
	// baseline may start from them (Packet.Carried). Held by pointer, and
	// only while the snapshot can still become a baseline (see
	// modelPool): they are 316 kB a snapshot, and kept for every slot
	// they took 61 MB for the default 64 + 128 snapshots.
	Models    *entropyModels
	HasModels bool
	// undo (sender buffers only): set while Models were lent to a
	// packet's coding in place, Models then stale (lend.go).
	undo *modelUndo
	// lentCubes (sender buffers only): Cubes is the quantized world of
	// its frame lent to every client's instance (quantized.lend), read
	// only.
	lentCubes bool
	// chain (sender buffers only, levels 12-13): the id of the chain of
	// baselines this snapshot's packet was coded along, shared by the
	// clients whose packets were the same bits (sendshare.go); 0: none.
	chain uint64
	// Base (receiver buffers only) is the frame of the baseline this
	// snapshot's packet was coded against (−1: none, or the initial
	// state): the receiver's lower bound for the baselines to come.
	Base int
}

// DecodePoses fills Poses from Cubes at the entry's level.
func (e *Entry) DecodePoses() {
	for i := range e.Poses {
		e.Poses[i] = e.Cubes[i].Pose(e.Level)
	}
}

// Buffer holds the most recent snapshots by frame.
type Buffer struct {
	slots []Entry
	order []int // slot numbers of the held entries, oldest frame first
	// With poses, an entry holds decoded poses from Insert on, until
	// ReleasePoses takes them back (into spare) once the playout time
	// has passed it: only the snapshots around the playout time are
	// interpolated, and the older ones are kept as baselines, for which
	// the quantized Cubes are enough. Decoded poses for all 128 snapshots
	// of a receiver were 10 MB.
	poses bool
	spare pool[[]CubePose]
}

// NewBuffer returns a buffer of capacity snapshots of numCubes cubes;
// with poses its entries also hold decoded poses (see Buffer).
func NewBuffer(capacity, numCubes int, poses bool) *Buffer {
	capacity = max(capacity, 2)
	b := &Buffer{slots: make([]Entry, capacity), order: make([]int, 0, capacity), poses: poses}
	b.spare.fresh = func() []CubePose { return make([]CubePose, numCubes) }
	for i := range b.slots {
		e := &b.slots[i]
		e.Cubes = make([]Cube, numCubes)
		e.Sent = make([]bool, numCubes)
	}
	return b
}

// ReleasePoses takes back the decoded poses of the snapshots older than
// frame f (the oldest one an interpolation still reads).
func (b *Buffer) ReleasePoses(f int) {
	b.spare.roll(f)
	for _, k := range b.order {
		e := &b.slots[k]
		if e.Frame >= f {
			return
		}
		if e.Poses != nil {
			b.spare.put(e.Poses)
			e.Poses = nil
		}
	}
}

// EnsurePoses gives e decoded poses again if ReleasePoses took them (the
// playout time went back).
func (b *Buffer) EnsurePoses(e *Entry) {
	if e != nil && b.poses && e.Poses == nil {
		e.Poses = b.spare.get()
		e.DecodePoses()
	}
}

// Reset empties the buffer (storage is kept).
func (b *Buffer) Reset() { b.order = b.order[:0] }

// Len is the number of snapshots held; Capacity the most it holds.
func (b *Buffer) Len() int      { return len(b.order) }
func (b *Buffer) Capacity() int { return len(b.slots) }

// At returns the k-th oldest snapshot (0 ≤ k < Len).
func (b *Buffer) At(k int) *Entry { return &b.slots[b.order[k]] }

// newest returns the snapshot with the highest frame, or nil.
func (b *Buffer) newest() *Entry {
	if len(b.order) == 0 {
		return nil
	}
	return b.At(len(b.order) - 1)
}

// Find returns the snapshot of frame f, or nil.
func (b *Buffer) Find(f int) *Entry {
	for k := len(b.order) - 1; k >= 0; k-- {
		if e := b.At(k); e.Frame == f {
			return e
		} else if e.Frame < f {
			break
		}
	}
	return nil
}

// Insert claims an entry for frame f and returns it for the caller to fill
// (Level, Cubes, Sent, Poses; their previous contents are stale). It returns
// nil when f is already held, or when the buffer is full and f is older than
// everything in it. Otherwise a full buffer drops its oldest snapshot.
//
// To decode without ever leaving a half-written entry, decode into scratch
// slices of the same length and swap them with the entry's.
func (b *Buffer) Insert(f int) *Entry {
	pos := len(b.order) // insertion point in order
	for pos > 0 && b.slots[b.order[pos-1]].Frame >= f {
		if b.slots[b.order[pos-1]].Frame == f {
			return nil
		}
		pos--
	}
	var slot int
	if len(b.order) < len(b.slots) {
		slot = len(b.order)
		b.order = append(b.order, 0)
	} else {
		if pos == 0 {
			return nil // older than everything held
		}
		slot = b.order[0]
		copy(b.order, b.order[1:])
		pos--
	}
	copy(b.order[pos+1:], b.order[pos:len(b.order)-1])
	b.order[pos] = slot
	e := &b.slots[slot]
	e.Frame = f
	if b.poses && e.Poses == nil {
		e.Poses = b.spare.get()
	}
	return e
}

// Search returns k such that At(k) is the newest snapshot with Frame ≤ t,
// or -1 when every snapshot is after t (or there is none).
func (b *Buffer) Search(t float64) int {
	k := len(b.order) - 1
	for k >= 0 && float64(b.At(k).Frame) > t {
		k--
	}
	return k
}

// CountAfter is the number of snapshots with a frame after t: how many the
// receiver holds ahead of its playout time (the "buffer depth").
func (b *Buffer) CountAfter(t float64) int {
	return len(b.order) - 1 - b.Search(t)
}

// Interpolation is the result of Buffer.Interpolate: which
// snapshots a view at time t is made from, and how. Its Cube method then
// gives each cube's pose.
type Interpolation struct {
	Mode RenderMode
	// Shown is the frame the result shows: t while interpolating; the
	// held snapshot's frame when holding; the extrapolated time.
	Shown float64
	// Starved: t is past the newest snapshot, nothing to interpolate toward.
	Starved bool
	// Extrapolated is how far, in ticks, poses are pushed past snapshot A.
	Extrapolated float64
	// A is the snapshot at or before Shown; B the one after it (nil when
	// holding or extrapolating); Alpha the fraction from A to B.
	A, B  *Entry
	Alpha float64
	// prev (before A) and next (after B) give derived tangents.
	prev, next *Entry
}

// Interpolate prepares the view at playout time t (a fractional sender
// frame). maxExtrapolate bounds, in ticks, how far poses may be pushed past
// the newest snapshot: how long a starved interpolating receiver
// extrapolates before it holds, and how far extrapolation mode goes during a
// gap. ok is false when there is nothing to show yet: an empty buffer, or (for
// the interpolating modes) t still before the oldest snapshot.
func (b *Buffer) Interpolate(mode RenderMode, t, maxExtrapolate float64) (ip Interpolation, ok bool) {
	ip.Mode = mode
	n := len(b.order)
	if n == 0 {
		return ip, false
	}
	maxExtrapolate = max(maxExtrapolate, 0)
	newest := b.At(n - 1)
	ip.Starved = t > float64(newest.Frame)
	switch mode {
	case RenderLatest:
		ip.A, ip.Shown = newest, float64(newest.Frame)
		if n > 1 {
			ip.prev = b.At(n - 2)
		}
		return ip, true
	case RenderExtrapolate:
		k := max(b.Search(t), 0)
		ip.A = b.At(k)
		if k > 0 {
			ip.prev = b.At(k - 1)
		}
		ip.Extrapolated = math.Min(t-float64(ip.A.Frame), maxExtrapolate)
		ip.Shown = float64(ip.A.Frame) + ip.Extrapolated
		return ip, true
	}
	k := b.Search(t)
	if k < 0 {
		return ip, false
	}
	ip.A = b.At(k)
	if k > 0 {
		ip.prev = b.At(k - 1)
	}
	if k == n-1 {
		// Starved (or exactly on the newest): extrapolate a little, then
		// hold.
		ip.Extrapolated = math.Min(t-float64(ip.A.Frame), maxExtrapolate)
		ip.Shown = float64(ip.A.Frame) + ip.Extrapolated
		return ip, true
	}
	ip.B = b.At(k + 1)
	if k+2 < n {
		ip.next = b.At(k + 2)
	}
	ip.Alpha = (t - float64(ip.A.Frame)) / float64(ip.B.Frame-ip.A.Frame)
	ip.Shown = t
	return ip, true
}

// Cube returns the pose of cube i, and whether the packet of the snapshot
// nearer in time carried it. Interacting comes from that snapshot too.
// AtRest means the cube did not move between A and B, or carries level 3's
// at-rest bit.
func (ip *Interpolation) Cube(i int) (p CubePose, sent bool) {
	a := &ip.A.Poses[i]
	if ip.B == nil {
		p, sent = *a, ip.A.Sent[i]
		if ip.Extrapolated != 0 && ip.Mode != RenderLatest {
			v, w := ip.extrapolationVelocity(i)
			dt := ip.Extrapolated / wire.TicksPerSecond
			p.Position = a.Position.Add(v.Mul(dt))
			p.Orientation = geom.RotateBy(a.Orientation, w, dt)
		}
		if ip.Mode == RenderHermiteAhead && !p.AtRest {
			// Holding or starved: the lead stays, so the view does not
			// jump back 0.2 s when the next snapshot is late.
			v, _ := ip.extrapolationVelocity(i)
			p.Position = p.Position.Add(v.Mul(AheadSeconds))
		}
		return p, sent
	}
	b := &ip.B.Poses[i]
	near, nearEntry := a, ip.A
	if ip.Alpha >= 0.5 {
		near, nearEntry = b, ip.B
	}
	p = *near
	sent = nearEntry.Sent[i]
	if a.Position == b.Position && a.Orientation == b.Orientation {
		// Not moving between the two: nothing to interpolate (and no
		// overshoot from derived tangents of earlier motion).
		p.Position, p.Orientation = a.Position, a.Orientation
		p.AtRest = true
		return p, sent
	}
	u := ip.Alpha
	p.Orientation = geom.Slerp(a.Orientation, b.Orientation, u)
	if ip.Mode != RenderHermite && ip.Mode != RenderHermiteAhead {
		p.Position = a.Position.Add(b.Position.Sub(a.Position).Mul(u))
		return p, sent
	}
	dt := float64(ip.B.Frame-ip.A.Frame) / wire.TicksPerSecond
	var ma, mb mgl64.Vec3
	if a.HasVelocity && b.HasVelocity {
		ma, mb = a.Velocity, b.Velocity
	} else {
		ma = snapTangent(ip.prev, ip.B, i, ip.A, ip.B)
		mb = snapTangent(ip.A, ip.next, i, ip.A, ip.B)
	}
	pa, pb := a.Position, b.Position
	if ip.Mode == RenderHermiteAhead {
		pa, pb = pa.Add(ma.Mul(AheadSeconds)), pb.Add(mb.Mul(AheadSeconds))
	}
	p.Position = geom.Hermite(pa, ma, pb, mb, dt, u)
	return p, sent
}

// tangent is the Catmull-Rom tangent of cube i between snapshots from and
// to, in m/s; when one of them is missing, the slope of the A-B segment.
func snapTangent(from, to *Entry, i int, a, b *Entry) mgl64.Vec3 {
	if from == nil || to == nil {
		from, to = a, b
	}
	dt := float64(to.Frame-from.Frame) / wire.TicksPerSecond
	return to.Poses[i].Position.Sub(from.Poses[i].Position).Mul(1 / dt)
}

// extrapolationVelocity is the linear velocity (sent, or derived from the
// snapshot before A) and the angular velocity (always derived: snapshots
// never carry it) to extrapolate cube i from A with.
func (ip *Interpolation) extrapolationVelocity(i int) (v, w mgl64.Vec3) {
	a := &ip.A.Poses[i]
	if a.HasVelocity {
		v = a.Velocity
	}
	if ip.prev == nil {
		return v, w
	}
	pr := &ip.prev.Poses[i]
	dt := float64(ip.A.Frame-ip.prev.Frame) / wire.TicksPerSecond
	if !a.HasVelocity {
		v = a.Position.Sub(pr.Position).Mul(1 / dt)
	}
	return v, geom.AngularVelocity(pr.Orientation, a.Orientation, dt)
}
