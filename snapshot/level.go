package snapshot

import (
	"errors"
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
	"netcubes/wire"
)

// Design note: snapshot compression ("Snapshot Compression", article 004 of
// the seeds). A snapshot is the whole world, every cube's interacting flag,
// position, orientation and (at the first levels) linear velocity, sent so a
// receiver that runs no simulation can draw it. Sent raw at 60 Hz that is
// 17.37 Mbit/s; the article removes it stage by stage until it is under
// 256 kbit/s. Each stage here is a Level, and the levels are
// cumulative: level n does everything level n-1 does plus one trick.
//
//	level  trick                                            bits per cube
//	  1    raw floats: interacting + pos + vel + quat       1+96+96+128 = 321
//	  2    smallest-three quaternion, 9 bits                1+96+96+29  = 222
//	  3    velocity bounded ±32 m/s, 11 bits, "at rest" bit 127 at rest, 160 moving
//	       (without the bit, Config.AtRestFlag off:         159 every cube)
//	  4    no velocity (linear interpolation is enough)     1+96+29     = 126
//	  5    position bounded, 512 values per metre           1+50+29     = 80
//	  6    delta vs an acked baseline: a "changed" bit      1 per cube + 80 per changed
//	  7    changed-cube indices (10 bits) when cheaper      10 + 80 per changed
//	  8    relative indices (4/7/12 bits)                   ≈ 5.5 + 80
//	  9    delta position (1 + 3 × (1 + 5 or 9) bits)       ≈ 26 for position
//	 10    delta smallest three ("5-8")                     ≈ 23 for orientation
//	 11    "position changed" and "orientation changed"     ≈ 58 per changed cube
//	 12    range coding with adaptive context models         (entropy.go, ours)
//	 13    + prediction from the two baselines' motion       (entropy.go, ours)
//
// Everything a level sends is QUANTIZED FIRST into a Cube (integers,
// or float32 bit patterns at the raw levels), and the receiver rebuilds
// exactly that Cube. So sender and receiver agree bit for bit on
// every snapshot, which delta encoding needs (a baseline must be the same on
// both sides), and the right view shows the artefacts of the level it uses.
//
// Levels 6 to 13 share one quantized form (level 5's: 512 per metre, 9-bit
// smallest three, no velocity), so a snapshot sent at any of them can be the
// baseline of a packet at any other. A snapshot sent at levels 1 to 4 never
// is: its floats are a different form.
//
// The packet's layout, level by level, and which function writes each
// part: the map at the top of packet.go.

// Level selects one of the thirteen cumulative compression stages (the
// article's eleven and our two beyond it).
type Level uint8

// The levels, in the article's order.
const (
	Uncompressed     Level = 1 + iota // raw floats, 321 bits per cube
	SmallestThree                     // smallest-three quaternion at 9 bits
	BoundedVelocity                   // velocity at 11 bits per component + at-rest bit
	NoVelocity                        // no velocity at all
	BoundedPosition                   // position at 512 values per metre, 80 bits per cube
	DeltaBaseline                     // delta vs acked baseline, one changed bit per cube
	ChangedIndices                    // 10-bit indices of changed cubes when cheaper
	RelativeIndices                   // indices relative to the previous one
	DeltaPosition                     // position relative to the baseline
	DeltaOrientation                  // smallest three relative to the baseline
	ChangedFields                     // separate position/orientation changed bits
	RangeCoded                        // level 12: adaptive binary range coding (beyond the article)
	MotionPredicted                   // level 13: + residuals from the baselines' motion (beyond the article)
	TurnWithMiss                      // level 14: + a ball cube's orientation turned by its position's miss (beyond the article)

	// MinLevel and MaxLevel bound the valid levels.
	MinLevel = Uncompressed
	MaxLevel = TurnWithMiss
)

var snapshotLevelTitles = [...]string{
	Uncompressed:     "uncompressed",
	SmallestThree:    "smallest-three orientation",
	BoundedVelocity:  "bounded velocity",
	NoVelocity:       "no velocity",
	BoundedPosition:  "bounded position",
	DeltaBaseline:    "delta vs baseline",
	ChangedIndices:   "changed-cube indices",
	RelativeIndices:  "relative indices",
	DeltaPosition:    "delta position",
	DeltaOrientation: "delta orientation",
	ChangedFields:    "changed-field bits",
	RangeCoded:       "range coding",
	MotionPredicted:  "motion prediction",
	TurnWithMiss:     "turn with the miss",
}

var snapshotLevelExplains = [...]string{
	Uncompressed:     "level 1: raw floats, interacting + position + velocity + quaternion = 321 bits per cube",
	SmallestThree:    "level 2: smallest-three quaternion, drop the largest component, 3 × 9 bits: 29 bits instead of 128",
	BoundedVelocity:  "level 3: velocity bounded to ±32 m/s at 11 bits per component, omitted with an at-rest bit",
	NoVelocity:       "level 4: no velocity at all: at 60 Hz linear interpolation does not need it",
	BoundedPosition:  "level 5: position bounded and quantized to 512 values per metre: 80 bits per cube",
	DeltaBaseline:    "level 6: delta against the newest snapshot the right acked: one 'not changed' bit per cube",
	ChangedIndices:   "level 7: changed-cube indices instead of 901 changed bits when fewer",
	RelativeIndices:  "level 8: each index relative to the previous one, in 4, 7 or 12 bits",
	DeltaPosition:    "level 9: position relative to the baseline, 5 or 9 bits per component",
	DeltaOrientation: "level 10: smallest three relative to the baseline when the largest component matches, 5 or 8 bits",
	ChangedFields:    "level 11: separate 'position changed' and 'orientation changed' bits",
	RangeCoded:       "level 12: range coding with adaptive context models: a likely bit costs a fraction of a bit",
	MotionPredicted:  "level 13: each cube predicted from its motion between two acked baselines; only the residual is coded",
	TurnWithMiss:     "level 14: a ball cube that missed its predicted position turned with it (F on): its orientation is predicted from the miss",
}

// Valid reports whether l is one of the thirteen levels.
func (l Level) Valid() bool { return l >= MinLevel && l <= MaxLevel }

// String is the short form for the HUD: "level 9".
func (l Level) String() string {
	if !l.Valid() {
		return "level ?"
	}
	return "level " + strconv.Itoa(int(l))
}

// Title names the level's trick: "delta position".
func (l Level) Title() string {
	if !l.Valid() {
		return "invalid"
	}
	return snapshotLevelTitles[l]
}

// Explain is one line for the HUD saying what the level adds.
func (l Level) Explain() string {
	if !l.Valid() {
		return "invalid level"
	}
	return snapshotLevelExplains[l]
}

// Next is the following level, wrapping from 13 to 1.
func (l Level) Next() Level {
	if l >= MaxLevel || l < MinLevel {
		return MinLevel
	}
	return l + 1
}

// Prev is the previous level, wrapping from 1 to 13.
func (l Level) Prev() Level {
	if l <= MinLevel || l > MaxLevel {
		return MaxLevel
	}
	return l - 1
}

// HasVelocity reports whether the level sends linear velocity (levels 1-3),
// which hermite interpolation can use as tangents.
func (l Level) HasVelocity() bool { return l <= BoundedVelocity }

// IsDelta reports whether the level encodes against a baseline (levels 6-13).
func (l Level) IsDelta() bool { return l >= DeltaBaseline }

// IsCoded reports whether the level range-codes its cubes (levels 12-13).
func (l Level) IsCoded() bool { return l >= RangeCoded }

// quantizedForm reports whether a snapshot at level l is in the shared
// quantized form (levels 5-11) and can serve as a delta baseline.
func (l Level) quantizedForm() bool { return l >= BoundedPosition }

// CanBeBaseline reports whether a snapshot sent at level l can be the
// baseline of a delta-encoded packet: only the quantized form of levels 5-11
// is shared by every delta level.
func (l Level) CanBeBaseline() bool { return l.Valid() && l.quantizedForm() }

// Errors specific to snapshots. Sentinel values, so failing never allocates.
var (
	// ErrNoBaseline: a delta-encoded snapshot refers to a baseline the
	// decoder does not hold (too old, never received, or at a raw level).
	ErrNoBaseline = errors.New("snapshot: snapshot baseline not held")
	// ErrSize: the snapshot and its baseline hold different
	// numbers of cubes (a programming error).
	ErrSize = errors.New("snapshot: snapshot and baseline sizes differ")
	// errFrameOutOfRange: a packet whose sequence unwraps to a frame after
	// the receiver's (the left has not reached it) or before frame 0.
	errFrameOutOfRange = errors.New("snapshot: packet sequence is not a frame the left has reached")
)

// CubeSample is one cube as the sender's world holds it, in float64: the
// input to quantization.
type CubeSample struct {
	Position       mgl64.Vec3 // m
	Orientation    mgl64.Quat // unit quaternion
	LinearVelocity mgl64.Vec3 // m/s
	Interacting    bool       // drawn red
	AtRest         bool       // the world considers the cube at rest (level 3 with the at-rest flag drops its velocity)
}

// Cube is one cube of a snapshot exactly as a level puts it on the
// wire. QuantizeCube fills only the fields its level sends and leaves the
// others zero, so two Cubes of the same level compare equal with ==
// exactly when they encode to the same bits.
type Cube struct {
	Interacting bool
	// AtRest (level 3, with the at-rest flag): the velocity was not sent
	// and is zero.
	AtRest bool
	// Orientation (levels 2-11): smallest three at wire.SnapshotOrientationBits.
	Orientation wire.QuantizedQuat
	// Position (levels 5-11): wire.SnapshotPositionResolution values per metre.
	Position wire.QuantizedVec3
	// Velocity (level 3): wire.SnapshotVelocityBits per component, ±wire.VelocityBound.
	Velocity wire.QuantizedVec3
	// RawPosition (levels 1-4) and RawVelocity (levels 1-2) are float32s;
	// RawOrientation (level 1) is x, y, z, w as float32s.
	RawPosition    [3]float32
	RawVelocity    [3]float32
	RawOrientation [4]float32
}

// sameState reports whether two cubes in the quantized form (levels 5-11)
// are identical: the "not changed" test of delta encoding.
func (c *Cube) sameState(b *Cube) bool {
	return c.Interacting == b.Interacting && c.Position == b.Position && c.Orientation == b.Orientation
}

// QuantizeCube turns a cube into what level l sends. Levels 6-11 give the
// same result as level 5.
func QuantizeCube(l Level, in CubeSample) Cube {
	c := Cube{Interacting: in.Interacting}
	if l <= NoVelocity {
		c.RawPosition = [3]float32{float32(in.Position[0]), float32(in.Position[1]), float32(in.Position[2])}
	} else {
		c.Position = wire.QuantizePosition(in.Position, wire.SnapshotPositionResolution)
	}
	switch {
	case l <= SmallestThree:
		v := in.LinearVelocity
		c.RawVelocity = [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
	case l == BoundedVelocity:
		// "At rest" is the world's own rest flag (slower than the rest
		// speed for a while): the article's "most cubes are stationary".
		// A resting cube's velocity is not sent and is zero.
		c.AtRest = in.AtRest
		if !c.AtRest {
			c.Velocity = wire.QuantizeVelocity(in.LinearVelocity, wire.VelocityBound, wire.SnapshotVelocityBits)
		}
	}
	if l == Uncompressed {
		q := in.Orientation
		c.RawOrientation = [4]float32{float32(q.V[0]), float32(q.V[1]), float32(q.V[2]), float32(q.W)}
	} else {
		c.Orientation = wire.QuantizeQuat(in.Orientation, wire.SnapshotOrientationBits)
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
func (c *Cube) Pose(l Level) CubePose {
	p := CubePose{Interacting: c.Interacting, AtRest: c.AtRest, HasVelocity: l.HasVelocity()}
	if l <= NoVelocity {
		p.Position = mgl64.Vec3{float64(c.RawPosition[0]), float64(c.RawPosition[1]), float64(c.RawPosition[2])}
	} else {
		p.Position = wire.DequantizePosition(c.Position, wire.SnapshotPositionResolution)
	}
	switch {
	case l <= SmallestThree:
		p.Velocity = mgl64.Vec3{float64(c.RawVelocity[0]), float64(c.RawVelocity[1]), float64(c.RawVelocity[2])}
	case l == BoundedVelocity && !c.AtRest:
		p.Velocity = wire.DequantizeVelocity(c.Velocity, wire.VelocityBound, wire.SnapshotVelocityBits)
	}
	if l == Uncompressed {
		r := c.RawOrientation
		q := mgl64.Quat{W: float64(r[3]), V: mgl64.Vec3{float64(r[0]), float64(r[1]), float64(r[2])}}
		n := geom.QuatLen(q) // unfused: the same orientation on every CPU
		if !(n > 1e-12) || math.IsInf(n, 0) {
			q = mgl64.QuatIdent() // a zero quaternion from a hostile packet
		} else {
			q = q.Scale(1 / n)
		}
		p.Orientation = q
	} else {
		p.Orientation = wire.DequantizeQuat(c.Orientation, wire.SnapshotOrientationBits)
	}
	return p
}

// serializeFloat32s serializes raw float32s, rejecting NaN and infinities
// on read: nothing downstream (interpolation, drawing) can use them, and a
// sender never produces them from a finite world.
func serializeFloat32s(s wire.Stream, v []float32) error {
	for i := range v {
		if err := wire.SerializeFloat32(s, &v[i]); err != nil {
			return err
		}
		if f := float64(v[i]); math.IsNaN(f) || math.IsInf(f, 0) {
			return s.Fail(wire.ErrValueOutOfRange)
		}
	}
	return nil
}

// serializeAbsoluteCube writes or reads one cube as level l sends it without
// a baseline: interacting, position, velocity, orientation, in the
// article's order. restFlag (level 3): the cube carries its at-rest bit;
// without it the velocity is always sent (Config.AtRestFlag). On read, c is
// overwritten entirely.
func serializeAbsoluteCube(s wire.Stream, l Level, restFlag bool, c *Cube) error {
	if s.IsReading() {
		*c = Cube{}
	}
	s.SetCategory(wire.CategoryFlags)
	if err := wire.SerializeBool(s, &c.Interacting); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryPosition)
	if l <= NoVelocity {
		if err := serializeFloat32s(s, c.RawPosition[:]); err != nil {
			return err
		}
	} else if err := wire.SerializeQuantizedPosition(s, &c.Position, wire.SnapshotPositionResolution); err != nil {
		return err
	}
	switch {
	case l <= SmallestThree:
		s.SetCategory(wire.CategoryVelocity)
		if err := serializeFloat32s(s, c.RawVelocity[:]); err != nil {
			return err
		}
	case l == BoundedVelocity:
		if restFlag {
			s.SetCategory(wire.CategoryFlags)
			if err := wire.SerializeBool(s, &c.AtRest); err != nil {
				return err
			}
		} else if c.AtRest {
			// Only a writer gets here (a read starts from a zero Cube): a
			// cube quantized with the flag in a packet without it.
			return s.Fail(wire.ErrValueOutOfRange)
		}
		if !c.AtRest {
			s.SetCategory(wire.CategoryVelocity)
			if err := wire.SerializeQuantizedVelocity(s, &c.Velocity, wire.SnapshotVelocityBits); err != nil {
				return err
			}
		}
	}
	s.SetCategory(wire.CategoryOrientation)
	if l == Uncompressed {
		return serializeFloat32s(s, c.RawOrientation[:])
	}
	return wire.SerializeQuantizedQuat(s, &c.Orientation, wire.SnapshotOrientationBits)
}

// absoluteCubeBits is the size of one cube at levels 1-5 (at level 3, of a
// moving cube; a resting one is 33 bits less, and without the at-rest flag
// every cube is one bit less): 321, 222, 160, 126, 80.
func absoluteCubeBits(l Level) int {
	interacting, orientation := 1, 2+3*wire.SnapshotOrientationBits
	xy, z := wire.PositionBits(wire.SnapshotPositionResolution)
	position := 2*xy + z
	if l <= NoVelocity {
		position = 96
	}
	if l == Uncompressed {
		orientation = 128
	}
	velocity := 0
	switch {
	case l <= SmallestThree:
		velocity = 96
	case l == BoundedVelocity:
		velocity = 1 + 3*wire.SnapshotVelocityBits
	}
	return interacting + position + velocity + orientation
}
