package net

import (
	"errors"
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"
)

// Design note: snapshot compression ("Snapshot Compression", article 004 of
// the seeds). A snapshot is the whole world, every cube's interacting flag,
// position, orientation and (at the first levels) linear velocity, sent so a
// receiver that runs no simulation can draw it. Sent raw at 60 Hz that is
// 17.37 Mbit/s; the article removes it stage by stage until it is under
// 256 kbit/s. Each stage here is a SnapshotLevel, and the levels are
// cumulative: level n does everything level n-1 does plus one trick.
//
//	level  trick                                            bits per cube
//	  1    raw floats: interacting + pos + vel + quat       1+96+96+128 = 321
//	  2    smallest-three quaternion, 9 bits                1+96+96+29  = 222
//	  3    velocity bounded ±32 m/s, 11 bits, "at rest" bit 127 at rest, 160 moving
//	  4    no velocity (linear interpolation is enough)     1+96+29     = 126
//	  5    position bounded, 512 values per metre           1+50+29     = 80
//	  6    delta vs an acked baseline: a "changed" bit      1 per cube + 80 per changed
//	  7    changed-cube indices (10 bits) when cheaper      10 + 80 per changed
//	  8    relative indices (4/7/12 bits)                   ≈ 5.5 + 80
//	  9    delta position (1 + 3 × (1 + 5 or 9) bits)       ≈ 26 for position
//	 10    delta smallest three ("5-8")                     ≈ 23 for orientation
//	 11    "position changed" and "orientation changed"     ≈ 58 per changed cube
//
// Everything a level sends is QUANTIZED FIRST into a SnapshotCube (integers,
// or float32 bit patterns at the raw levels), and the receiver rebuilds
// exactly that SnapshotCube. So sender and receiver agree bit for bit on
// every snapshot, which delta encoding needs (a baseline must be the same on
// both sides), and the right view shows the artefacts of the level it uses.
//
// Levels 6 to 11 share one quantized form (level 5's: 512 per metre, 9-bit
// smallest three, no velocity), so a snapshot sent at any of them can be the
// baseline of a packet at any other. A snapshot sent at levels 1 to 4 never
// is: its floats are a different form.
//
// Packet layout, after the 16-bit sequence the session writes:
//
//	level          4 bits   header  (1..11; carried so that a live level
//	                                 change never misdecodes packets in flight)
//	levels ≥ 6:
//	  initial      1 bit    header  (encoded against the initial state)
//	  baseline    16 bits   header  (sequence of the baseline; absent when initial)
//	levels ≥ 9:
//	  predict      1 bit    header  (player-relative prediction, ours: see
//	                                 snapshot_predict.go)
//	levels ≥ 7:
//	  any changed  1 bit    header  (0: nothing follows, the all-at-rest case)
//	  use indices  1 bit    header  (when any changed)
//	  count       10 bits   header  (changed cubes, 1..N, when use indices)
//	cubes                           (see serializeAbsoluteCube, serializeDeltaCube)
//
// With every cube at rest at levels ≥ 7 that is 16 + 4 + 1 + 16 + 1 = 38
// bits (39 from level 9), 5 bytes: (5 + 28) × 8 × 60 = 15.8 kbit/s, the
// article's "around 15 kilobits per second, entirely packet header". The
// article's header is 33 bits (sequence, baseline, initial); the level
// field (4 bits), the any-changed bit and the predict bit are ours and
// counted as header.

// SnapshotLevel selects one of the eleven cumulative compression stages.
type SnapshotLevel uint8

// The levels, in the article's order.
const (
	SnapshotUncompressed     SnapshotLevel = 1 + iota // raw floats, 321 bits per cube
	SnapshotSmallestThree                             // smallest-three quaternion at 9 bits
	SnapshotBoundedVelocity                           // velocity at 11 bits per component + at-rest bit
	SnapshotNoVelocity                                // no velocity at all
	SnapshotBoundedPosition                           // position at 512 values per metre, 80 bits per cube
	SnapshotDeltaBaseline                             // delta vs acked baseline, one changed bit per cube
	SnapshotChangedIndices                            // 10-bit indices of changed cubes when cheaper
	SnapshotRelativeIndices                           // indices relative to the previous one
	SnapshotDeltaPosition                             // position relative to the baseline
	SnapshotDeltaOrientation                          // smallest three relative to the baseline
	SnapshotChangedFields                             // separate position/orientation changed bits

	// MinSnapshotLevel and MaxSnapshotLevel bound the valid levels.
	MinSnapshotLevel = SnapshotUncompressed
	MaxSnapshotLevel = SnapshotChangedFields
)

var snapshotLevelTitles = [...]string{
	SnapshotUncompressed:     "uncompressed",
	SnapshotSmallestThree:    "smallest-three orientation",
	SnapshotBoundedVelocity:  "bounded velocity",
	SnapshotNoVelocity:       "no velocity",
	SnapshotBoundedPosition:  "bounded position",
	SnapshotDeltaBaseline:    "delta vs baseline",
	SnapshotChangedIndices:   "changed-cube indices",
	SnapshotRelativeIndices:  "relative indices",
	SnapshotDeltaPosition:    "delta position",
	SnapshotDeltaOrientation: "delta orientation",
	SnapshotChangedFields:    "changed-field bits",
}

var snapshotLevelExplains = [...]string{
	SnapshotUncompressed:     "level 1: raw floats, interacting + position + velocity + quaternion = 321 bits per cube",
	SnapshotSmallestThree:    "level 2: smallest-three quaternion, drop the largest component, 3 × 9 bits: 29 bits instead of 128",
	SnapshotBoundedVelocity:  "level 3: velocity bounded to ±32 m/s at 11 bits per component, omitted with an at-rest bit",
	SnapshotNoVelocity:       "level 4: no velocity at all: at 60 Hz linear interpolation does not need it",
	SnapshotBoundedPosition:  "level 5: position bounded and quantized to 512 values per metre: 80 bits per cube",
	SnapshotDeltaBaseline:    "level 6: delta against the newest snapshot the right acked: one 'not changed' bit per cube",
	SnapshotChangedIndices:   "level 7: changed-cube indices instead of 901 changed bits when fewer",
	SnapshotRelativeIndices:  "level 8: each index relative to the previous one, in 4, 7 or 12 bits",
	SnapshotDeltaPosition:    "level 9: position relative to the baseline, 5 or 9 bits per component",
	SnapshotDeltaOrientation: "level 10: smallest three relative to the baseline when the largest component matches, 5 or 8 bits",
	SnapshotChangedFields:    "level 11: separate 'position changed' and 'orientation changed' bits",
}

// Valid reports whether l is one of the eleven levels.
func (l SnapshotLevel) Valid() bool { return l >= MinSnapshotLevel && l <= MaxSnapshotLevel }

// String is the short form for the HUD: "level 9".
func (l SnapshotLevel) String() string {
	if !l.Valid() {
		return "level ?"
	}
	return "level " + strconv.Itoa(int(l))
}

// Title names the level's trick: "delta position".
func (l SnapshotLevel) Title() string {
	if !l.Valid() {
		return "invalid"
	}
	return snapshotLevelTitles[l]
}

// Explain is one line for the HUD saying what the level adds.
func (l SnapshotLevel) Explain() string {
	if !l.Valid() {
		return "invalid level"
	}
	return snapshotLevelExplains[l]
}

// Next is the following level, wrapping from 11 to 1.
func (l SnapshotLevel) Next() SnapshotLevel {
	if l >= MaxSnapshotLevel || l < MinSnapshotLevel {
		return MinSnapshotLevel
	}
	return l + 1
}

// Prev is the previous level, wrapping from 1 to 11.
func (l SnapshotLevel) Prev() SnapshotLevel {
	if l <= MinSnapshotLevel || l > MaxSnapshotLevel {
		return MaxSnapshotLevel
	}
	return l - 1
}

// HasVelocity reports whether the level sends linear velocity (levels 1-3),
// which hermite interpolation can use as tangents.
func (l SnapshotLevel) HasVelocity() bool { return l <= SnapshotBoundedVelocity }

// IsDelta reports whether the level encodes against a baseline (levels 6-11).
func (l SnapshotLevel) IsDelta() bool { return l >= SnapshotDeltaBaseline }

// quantizedForm reports whether a snapshot at level l is in the shared
// quantized form (levels 5-11) and can serve as a delta baseline.
func (l SnapshotLevel) quantizedForm() bool { return l >= SnapshotBoundedPosition }

// CanBeBaseline reports whether a snapshot sent at level l can be the
// baseline of a delta-encoded packet: only the quantized form of levels 5-11
// is shared by every delta level.
func (l SnapshotLevel) CanBeBaseline() bool { return l.Valid() && l.quantizedForm() }

// Errors specific to snapshots. Sentinel values, so failing never allocates.
var (
	// ErrNoBaseline: a delta-encoded snapshot refers to a baseline the
	// decoder does not hold (too old, never received, or at a raw level).
	ErrNoBaseline = errors.New("net: snapshot baseline not held")
	// ErrSnapshotSize: the snapshot and its baseline hold different
	// numbers of cubes (a programming error).
	ErrSnapshotSize = errors.New("net: snapshot and baseline sizes differ")
)

// CubeSample is one cube as the sender's world holds it, in float64: the
// input to quantization.
type CubeSample struct {
	Position       mgl64.Vec3 // m
	Orientation    mgl64.Quat // unit quaternion
	LinearVelocity mgl64.Vec3 // m/s
	Interacting    bool       // drawn red
	AtRest         bool       // the world considers the cube at rest (level 3 drops its velocity)
}

// SnapshotCube is one cube of a snapshot exactly as a level puts it on the
// wire. QuantizeCube fills only the fields its level sends and leaves the
// others zero, so two SnapshotCubes of the same level compare equal with ==
// exactly when they encode to the same bits.
type SnapshotCube struct {
	Interacting bool
	// AtRest (level 3): the velocity was not sent and is zero.
	AtRest bool
	// Orientation (levels 2-11): smallest three at SnapshotOrientationBits.
	Orientation QuantizedQuat
	// Position (levels 5-11): SnapshotPositionResolution values per metre.
	Position QuantizedVec3
	// Velocity (level 3): SnapshotVelocityBits per component, ±VelocityBound.
	Velocity QuantizedVec3
	// RawPosition (levels 1-4) and RawVelocity (levels 1-2) are float32s;
	// RawOrientation (level 1) is x, y, z, w as float32s.
	RawPosition    [3]float32
	RawVelocity    [3]float32
	RawOrientation [4]float32
}

// sameState reports whether two cubes in the quantized form (levels 5-11)
// are identical: the "not changed" test of delta encoding.
func (c *SnapshotCube) sameState(b *SnapshotCube) bool {
	return c.Interacting == b.Interacting && c.Position == b.Position && c.Orientation == b.Orientation
}

// QuantizeCube turns a cube into what level l sends. Levels 6-11 give the
// same result as level 5.
func QuantizeCube(l SnapshotLevel, in CubeSample) SnapshotCube {
	c := SnapshotCube{Interacting: in.Interacting}
	if l <= SnapshotNoVelocity {
		c.RawPosition = [3]float32{float32(in.Position[0]), float32(in.Position[1]), float32(in.Position[2])}
	} else {
		c.Position = QuantizePosition(in.Position, SnapshotPositionResolution)
	}
	switch {
	case l <= SnapshotSmallestThree:
		v := in.LinearVelocity
		c.RawVelocity = [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
	case l == SnapshotBoundedVelocity:
		// "At rest" is the world's own rest flag (slower than the rest
		// speed for a while): the article's "most cubes are stationary".
		// A resting cube's velocity is not sent and is zero.
		c.AtRest = in.AtRest
		if !c.AtRest {
			c.Velocity = QuantizeVelocity(in.LinearVelocity, VelocityBound, SnapshotVelocityBits)
		}
	}
	if l == SnapshotUncompressed {
		q := in.Orientation
		c.RawOrientation = [4]float32{float32(q.V[0]), float32(q.V[1]), float32(q.V[2]), float32(q.W)}
	} else {
		c.Orientation = QuantizeQuat(in.Orientation, SnapshotOrientationBits)
	}
	return c
}

// CubePose is a decoded cube, ready to interpolate and draw.
type CubePose struct {
	Position    mgl64.Vec3
	Orientation mgl64.Quat // unit length
	Velocity    mgl64.Vec3 // m/s, when HasVelocity
	HasVelocity bool       // the level sent velocity (levels 1-3)
	Interacting bool
	AtRest      bool // level 3's at-rest bit
}

// Pose decodes a cube of level l into floats.
func (c *SnapshotCube) Pose(l SnapshotLevel) CubePose {
	p := CubePose{Interacting: c.Interacting, AtRest: c.AtRest, HasVelocity: l.HasVelocity()}
	if l <= SnapshotNoVelocity {
		p.Position = mgl64.Vec3{float64(c.RawPosition[0]), float64(c.RawPosition[1]), float64(c.RawPosition[2])}
	} else {
		p.Position = DequantizePosition(c.Position, SnapshotPositionResolution)
	}
	switch {
	case l <= SnapshotSmallestThree:
		p.Velocity = mgl64.Vec3{float64(c.RawVelocity[0]), float64(c.RawVelocity[1]), float64(c.RawVelocity[2])}
	case l == SnapshotBoundedVelocity && !c.AtRest:
		p.Velocity = DequantizeVelocity(c.Velocity, VelocityBound, SnapshotVelocityBits)
	}
	if l == SnapshotUncompressed {
		r := c.RawOrientation
		q := mgl64.Quat{W: float64(r[3]), V: mgl64.Vec3{float64(r[0]), float64(r[1]), float64(r[2])}}
		n := q.Len()
		if !(n > 1e-12) || math.IsInf(n, 0) {
			q = mgl64.QuatIdent() // a zero quaternion from a hostile packet
		} else {
			q = q.Scale(1 / n)
		}
		p.Orientation = q
	} else {
		p.Orientation = DequantizeQuat(c.Orientation, SnapshotOrientationBits)
	}
	return p
}

// serializeFloat32s serializes raw float32s, rejecting NaN and infinities
// on read: nothing downstream (interpolation, drawing) can use them, and a
// sender never produces them from a finite world.
func serializeFloat32s(s Stream, v []float32) error {
	for i := range v {
		if err := SerializeFloat32(s, &v[i]); err != nil {
			return err
		}
		if f := float64(v[i]); math.IsNaN(f) || math.IsInf(f, 0) {
			return s.Fail(ErrValueOutOfRange)
		}
	}
	return nil
}

// serializeAbsoluteCube writes or reads one cube as level l sends it without
// a baseline: interacting, position, velocity, orientation, in the
// article's order. On read, c is overwritten entirely.
func serializeAbsoluteCube(s Stream, l SnapshotLevel, c *SnapshotCube) error {
	if s.IsReading() {
		*c = SnapshotCube{}
	}
	s.SetCategory(CategoryFlags)
	if err := SerializeBool(s, &c.Interacting); err != nil {
		return err
	}
	s.SetCategory(CategoryPosition)
	if l <= SnapshotNoVelocity {
		if err := serializeFloat32s(s, c.RawPosition[:]); err != nil {
			return err
		}
	} else if err := SerializeQuantizedPosition(s, &c.Position, SnapshotPositionResolution); err != nil {
		return err
	}
	switch {
	case l <= SnapshotSmallestThree:
		s.SetCategory(CategoryVelocity)
		if err := serializeFloat32s(s, c.RawVelocity[:]); err != nil {
			return err
		}
	case l == SnapshotBoundedVelocity:
		s.SetCategory(CategoryFlags)
		if err := SerializeBool(s, &c.AtRest); err != nil {
			return err
		}
		if !c.AtRest {
			s.SetCategory(CategoryVelocity)
			if err := SerializeQuantizedVelocity(s, &c.Velocity, SnapshotVelocityBits); err != nil {
				return err
			}
		}
	}
	s.SetCategory(CategoryOrientation)
	if l == SnapshotUncompressed {
		return serializeFloat32s(s, c.RawOrientation[:])
	}
	return SerializeQuantizedQuat(s, &c.Orientation, SnapshotOrientationBits)
}

// AbsoluteCubeBits is the size of one cube at levels 1-5 (at level 3, of a
// moving cube; a resting one is 33 bits less): 321, 222, 160, 126, 80.
func AbsoluteCubeBits(l SnapshotLevel) int {
	interacting, orientation := 1, 2+3*SnapshotOrientationBits
	xy, z := PositionBits(SnapshotPositionResolution)
	position := 2*xy + z
	if l <= SnapshotNoVelocity {
		position = 96
	}
	if l == SnapshotUncompressed {
		orientation = 128
	}
	velocity := 0
	switch {
	case l <= SnapshotSmallestThree:
		velocity = 96
	case l == SnapshotBoundedVelocity:
		velocity = 1 + 3*SnapshotVelocityBits
	}
	return interacting + position + velocity + orientation
}
