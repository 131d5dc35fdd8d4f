package replication

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/geom"
	"netcubes/wire"
)

// Design note: the state synchronization packet (Glenn Fiedler, "State
// Synchronization"). Both sides simulate; the sender sends its inputs and the
// state of a few cubes, and the receiver snaps those cubes to it and keeps
// extrapolating the rest. One packet:
//
//	sequence           16 bits  (written by the session: the frame number)
//	quantized           1 bit   wire.CategoryHeader: the sender's world is on the wire's grid at this frame
//	compressed          1 bit   wire.CategoryHeader
//	  relative          1 bit   only when compressed: positions near the player are sent relative to it
//	  delta             1 bit   only when compressed: updates may be encoded against acked bases
//	    has base ack    1 bit   only when delta
//	      base ack     16 bits  only then: the newest packet the sender knows arrived
//	inputs        32 × 6 bits   wire.CategoryInput: the inputs of the 32 frames before this one
//	update count        7 bits  wire.CategoryHeader: 0..64
//	updates, in increasing cube index:
//	  index            10 bits  wire.CategoryIndices (0..900)
//	  uncompressed: position 3 × 32, orientation 4 × 32 (float32), at rest 1,
//	                then linear and angular velocity 3 × 32 each unless at rest
//	  compressed:
//	    has base        1 bit   only when the header has a base ack
//	      offset        5 bits  base sequence = base ack − offset (half a second back)
//	    position        see below, 59 bits absolute at 4096 values per metre
//	    orientation     smallest three at 15 bits per component: 47 bits absolute
//	    at rest         1 bit   velocities are zero and are not sent
//	    linear velocity  3 × 14 bits (±32 m/s), angular 3 × 14 bits (±16 rad/s)
//
// Why these precisions: with "quantize both sides" the quantized state is fed
// back into the simulation, so it must be fine enough not to push cubes into
// each other: 4096 values per metre and 15-bit smallest three, the article's
// figures (0.25 mm and 0.005°). Velocities are not in the article; 14 bits
// give 4 mm/s and 2 mrad/s steps, far below anything the solver reacts to
// (gravity alone changes a velocity by 330 mm/s per tick, and a body falls
// asleep below 50 mm/s). Velocities are the largest part of a moving cube's
// update, so every bit saved there is an update more per packet.
//
// The "beyond" encodings, both optional per packet:
//
//   - Relative to the player: when the player cube is the first update, any
//     other cube whose position is within ±2 m of it on every axis (a
//     katamari ball: the pull reaches 1.8 m) is sent as an offset from the
//     player's quantized position: 1 flag bit + 3 × 14 bits instead of 59.
//   - Delta against acked bases: the sender remembers the state of every cube
//     in every packet it sent, and learns from acks which packets arrived.
//     An update may then be sent relative to the same cube's state in an
//     acked packet at most 31 packets older than the newest acked one. A base
//     costs 1 + 5 bits; a field equal to the base costs 1 bit ("changed" =
//     0), a field close to it a small difference (for a position, only if
//     that is cheaper than the offset from the player), anything else the
//     absolute form. A cube at rest that was sent at rest before costs 19 bits
//     instead of 117. The receiver keeps what it decoded from each packet (a
//     History), so both ends hold the base.
//
// Every choice above that costs bits is a function of the state, the base and
// the player's position, so Serialize measures, writes and reads the same
// bits. Reading validates every value: ranges are checked before anything is
// stored, indices must increase, floats must be finite and bounded, and a
// base the receiver does not hold is an error (ErrMissingBase).

// State synchronization wire constants.
const (
	// MaxUpdates is the most cube updates a packet carries (the
	// article's MaxStateUpdatesPerPacket).
	MaxUpdates = 64
	// Inputs is the number of inputs each packet repeats (the
	// article's MaxInputsPerPacket): a packet is lost, the next 31 still
	// carry its input.
	Inputs = 32
	// InputBits is the size of one input: cubes.InputBits (six keys).
	InputBits = 6
	// LinearVelocityBits and AngularVelocityBits are the
	// bits per velocity component: ±32 m/s in 1/256 m/s steps and
	// ±16 rad/s in 1/512 rad/s steps.
	LinearVelocityBits  = 14
	AngularVelocityBits = 14
	// RelativeRange is the half-width, in metres, of the box
	// around the player inside which positions are sent relative to it.
	RelativeRange = 2
	// BaseOffsetBits sends the base of a delta as an offset back
	// from the header's base ack: 5 bits reach 31 packets, half a second at
	// 60 Hz. An older base is unlikely to help anyway.
	BaseOffsetBits = 5
	// MaxBaseOffset is the largest offset: 31.
	MaxBaseOffset = 1<<BaseOffsetBits - 1
	// HistorySize is how many packets a History keeps
	// (4.3 s at 60 Hz).
	HistorySize = 256
	// BaseWindow bounds how old a base may be compared with the
	// packet that uses it. It is smaller than HistorySize, so a
	// receiver always still holds a base the sender may choose.
	BaseWindow = 192

	// RawPositionLimit and RawVelocityLimit bound the float32 values
	// accepted from an uncompressed packet (the physics rejects positions
	// beyond 10^6 m anyway).
	RawPositionLimit = 1e6
	RawVelocityLimit = 1e4
)

// Delta tiers: a difference is sent as 1 bit (small or large) and then the
// small or the large signed range. The small tier holds the differences of a
// cube that barely moved; the large one, motion over a few ticks. Anything
// bigger is sent absolute.
const (
	positionDeltaSmall, positionDeltaLarge       = 8, 15 // ±3 cm, ±4 m at 4096 per metre
	orientationDeltaSmall, orientationDeltaLarge = 7, 13 // grid steps of 15-bit smallest three
	velocityDeltaSmall, velocityDeltaLarge       = 7, 11 // ±0.25 m/s, ±4 m/s (linear)
	// relativeHalf is RelativeRange in grid steps: offsets from
	// the player lie in [-relativeHalf, relativeHalf), 14 bits each.
	relativeHalf = RelativeRange * wire.StateSyncPositionResolution
	// relativeBitsPerAxis is the size of one player-relative component.
	relativeBitsPerAxis = 14
)

// ErrMissingBase: a delta-encoded update names a base the receiver does not
// hold.
var ErrMissingBase = errors.New("replication: delta base not held")

// ErrBadOrder: update indices in a state packet must increase.
var ErrBadOrder = errors.New("replication: update indices out of order")

// QuantizedCubeState is one cube's state on the state synchronization grid:
// what a compressed update carries, and what "quantize both sides" snaps each
// simulation to before every step.
type QuantizedCubeState struct {
	Position        wire.QuantizedVec3 // wire.StateSyncPositionResolution per metre
	Orientation     wire.QuantizedQuat // wire.StateSyncOrientationBits per component
	AtRest          bool               // both velocities are zero (and are not sent)
	LinearVelocity  wire.QuantizedVec3 // LinearVelocityBits per component
	AngularVelocity wire.QuantizedVec3 // AngularVelocityBits per component
}

// QuantizeState quantizes a cube's state for state synchronization. The
// cube is at rest exactly when both velocities quantize to zero: then sending
// no velocity loses nothing.
func QuantizeState(pos mgl64.Vec3, rot mgl64.Quat, lin, ang mgl64.Vec3) QuantizedCubeState {
	q := QuantizedCubeState{
		Position:        wire.QuantizePosition(pos, wire.StateSyncPositionResolution),
		Orientation:     wire.QuantizeQuat(rot, wire.StateSyncOrientationBits),
		LinearVelocity:  wire.QuantizeVelocity(lin, wire.VelocityBound, LinearVelocityBits),
		AngularVelocity: wire.QuantizeVelocity(ang, wire.AngularVelocityBound, AngularVelocityBits),
	}
	q.AtRest = q.LinearVelocity == (wire.QuantizedVec3{}) && q.AngularVelocity == (wire.QuantizedVec3{})
	return q
}

// Dequantize returns the state in floats. Both sides call it on the same
// integers, so both get bit-identical floats.
func (q *QuantizedCubeState) Dequantize() (pos mgl64.Vec3, rot mgl64.Quat, lin, ang mgl64.Vec3) {
	pos = wire.DequantizePosition(q.Position, wire.StateSyncPositionResolution)
	rot = wire.DequantizeQuat(q.Orientation, wire.StateSyncOrientationBits)
	if !q.AtRest {
		lin = wire.DequantizeVelocity(q.LinearVelocity, wire.VelocityBound, LinearVelocityBits)
		ang = wire.DequantizeVelocity(q.AngularVelocity, wire.AngularVelocityBound, AngularVelocityBits)
	}
	return pos, rot, lin, ang
}

// RawCubeState is one cube's state as an uncompressed update sends it: the
// article's float32 vectors and quaternion.
type RawCubeState struct {
	Position        [3]float32
	Orientation     [4]float32 // x, y, z, w
	AtRest          bool       // both velocities are exactly zero
	LinearVelocity  [3]float32
	AngularVelocity [3]float32
}

// RawState converts a cube's state to float32, the uncompressed wire
// form.
func RawState(pos mgl64.Vec3, rot mgl64.Quat, lin, ang mgl64.Vec3) RawCubeState {
	r := RawCubeState{
		Position:        [3]float32{float32(pos[0]), float32(pos[1]), float32(pos[2])},
		Orientation:     [4]float32{float32(rot.V[0]), float32(rot.V[1]), float32(rot.V[2]), float32(rot.W)},
		LinearVelocity:  [3]float32{float32(lin[0]), float32(lin[1]), float32(lin[2])},
		AngularVelocity: [3]float32{float32(ang[0]), float32(ang[1]), float32(ang[2])},
	}
	r.AtRest = r.LinearVelocity == [3]float32{} && r.AngularVelocity == [3]float32{}
	return r
}

// State returns the raw state in float64, the orientation normalized.
func (r *RawCubeState) State() (pos mgl64.Vec3, rot mgl64.Quat, lin, ang mgl64.Vec3) {
	pos = mgl64.Vec3{float64(r.Position[0]), float64(r.Position[1]), float64(r.Position[2])}
	o := r.Orientation
	rot = mgl64.Quat{W: float64(o[3]), V: mgl64.Vec3{float64(o[0]), float64(o[1]), float64(o[2])}}
	if n := geom.QuatLen(rot); n > 0 { // unfused: the same orientation on every CPU
		rot = rot.Scale(1 / n)
	}
	lin = mgl64.Vec3{float64(r.LinearVelocity[0]), float64(r.LinearVelocity[1]), float64(r.LinearVelocity[2])}
	ang = mgl64.Vec3{float64(r.AngularVelocity[0]), float64(r.AngularVelocity[1]), float64(r.AngularVelocity[2])}
	return pos, rot, lin, ang
}

// StateUpdate is one cube's update in a packet.
type StateUpdate struct {
	Index int32
	// Interacting is the cube's game state on the left (red while it
	// touches the player's pile, fading at rest): part of what the cube
	// looks like, so the right shows the left's rather than deriving its
	// own from a world that may have drifted (one bit, every update).
	Interacting bool
	Raw         RawCubeState       // uncompressed packets
	State       QuantizedCubeState // compressed packets

	// Delta encoding (compressed packets whose header has a base ack).
	// The writer fills Base with the cube's state in packet
	// BaseAck − BaseOffset; the reader finds it in the packet's History.
	HasBase    bool
	BaseOffset int32
	Base       QuantizedCubeState
}

// Packet is the payload of a state synchronization packet (the
// sequence number before it is the session's).
type Packet struct {
	// NumCubes is the number of cubes in the world, known to both sides
	// and not sent: indices are in [0, NumCubes).
	NumCubes int32

	// Quantized says the sender snapped its world to the state
	// synchronization grid at this frame ("quantize both sides"), so the
	// receiver does the same before stepping from this frame: the two
	// sides then agree frame by frame, even across a live toggle.
	Quantized  bool
	Compressed bool // quantized updates (else float32)
	Relative   bool // positions near the player relative to it (compressed only)
	Delta      bool // updates may use acked bases (compressed only)
	HasBaseAck bool // the sender has had an ack (delta only)
	BaseAck    uint16

	// Inputs are the 6-bit inputs of the Inputs frames before this
	// packet's frame, oldest first: Inputs[k] is frame seq − 32 + k.
	Inputs [Inputs]uint8
	// Players is the number of players, known to both sides and not sent
	// (0 counts as 1); Others[p-1] are player p+1's inputs, as Inputs.
	Players int32
	Others  [cubes.MaxPlayers - 1][Inputs]uint8

	NumUpdates int32
	Updates    [MaxUpdates]StateUpdate

	// History is where a reader finds delta bases (nil: delta-encoded
	// updates are rejected with ErrMissingBase). Not sent.
	History *History
}

// Serialize reads, writes or measures the packet. Writing requires
// updates in increasing index order; a compressed update's AtRest must match
// its velocities (QuantizeState and RawState set it).
func (p *Packet) Serialize(s wire.Stream) error {
	reading := s.IsReading()
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeBool(s, &p.Quantized); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &p.Compressed); err != nil {
		return err
	}
	if p.Compressed {
		if err := wire.SerializeBool(s, &p.Relative); err != nil {
			return err
		}
		if err := wire.SerializeBool(s, &p.Delta); err != nil {
			return err
		}
	} else if reading {
		p.Relative, p.Delta = false, false
	}
	if p.Delta {
		if err := wire.SerializeBool(s, &p.HasBaseAck); err != nil {
			return err
		}
		if p.HasBaseAck {
			if err := wire.SerializeUint16(s, &p.BaseAck); err != nil {
				return err
			}
		}
	} else if reading {
		p.HasBaseAck = false
	}
	s.SetCategory(wire.CategoryInput)
	for k := range p.Inputs {
		if err := wire.SerializeInt(s, &p.Inputs[k], 0, 1<<InputBits-1); err != nil {
			return err
		}
	}
	if p.Players > cubes.MaxPlayers {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	for q := int32(1); q < p.Players; q++ {
		for k := range p.Others[q-1] {
			if err := wire.SerializeInt(s, &p.Others[q-1][k], 0, 1<<InputBits-1); err != nil {
				return err
			}
		}
	}
	s.SetCategory(wire.CategoryHeader)
	n := p.NumUpdates
	if err := wire.SerializeInt(s, &n, 0, MaxUpdates); err != nil {
		return err
	}
	if reading {
		p.NumUpdates = n
	}
	prev := int32(-1)
	for k := int32(0); k < n; k++ {
		u := &p.Updates[k]
		if err := p.serializeUpdate(s, u, k, prev); err != nil {
			if reading {
				p.NumUpdates = k
			}
			return err
		}
		prev = u.Index
	}
	return nil
}

// MeasureUpdate returns the bits update u would take in this packet after
// the updates already in it (the player, at slot 0, decides whether u may be
// sent relative to it). It does not change the packet.
func (p *Packet) MeasureUpdate(m *wire.MeasureStream, u *StateUpdate) (int, error) {
	m.Reset()
	if err := p.serializeUpdate(m, u, p.NumUpdates, u.Index-1); err != nil {
		return 0, err
	}
	return m.BitsProcessed(), nil
}

// relativeTo returns the player's position when update k may be sent
// relative to it: the packet is relative, k is not the first update, and the
// first update is cube 0, the player.
func (p *Packet) relativeTo(k int32) (wire.QuantizedVec3, bool) {
	if !p.Relative || k == 0 || p.NumUpdates == 0 || p.Updates[0].Index != 0 {
		return wire.QuantizedVec3{}, false
	}
	return p.Updates[0].State.Position, true
}

func (p *Packet) serializeUpdate(s wire.Stream, u *StateUpdate, k, prev int32) error {
	if p.NumCubes < 1 {
		return s.Fail(wire.ErrInvalidRange)
	}
	s.SetCategory(wire.CategoryIndices)
	if err := wire.SerializeInt(s, &u.Index, 0, p.NumCubes-1); err != nil {
		return err
	}
	if u.Index <= prev {
		return s.Fail(ErrBadOrder)
	}
	s.SetCategory(wire.CategoryFlags)
	if err := wire.SerializeBool(s, &u.Interacting); err != nil {
		return err
	}
	if !p.Compressed {
		return serializeRawState(s, &u.Raw)
	}
	reading := s.IsReading()

	// Base.
	hasBase := false
	if p.Delta && p.HasBaseAck {
		s.SetCategory(wire.CategoryFlags)
		if err := wire.SerializeBool(s, &u.HasBase); err != nil {
			return err
		}
		hasBase = u.HasBase
		if hasBase {
			s.SetCategory(wire.CategoryHeader)
			if err := wire.SerializeInt(s, &u.BaseOffset, 0, MaxBaseOffset); err != nil {
				return err
			}
			if reading {
				b := p.History.Find(p.BaseAck-uint16(u.BaseOffset), u.Index)
				if b == nil {
					return s.Fail(ErrMissingBase)
				}
				u.Base = *b
			}
		}
	} else if reading {
		u.HasBase = false
	}
	st := &u.State
	base := &u.Base

	// Position: unchanged, a small difference from the base, relative to
	// the player, or absolute.
	s.SetCategory(wire.CategoryPosition)
	if err := p.serializePosition(s, st, base, hasBase, k); err != nil {
		return err
	}

	// Orientation: unchanged, a difference in the same smallest-three
	// frame, or absolute.
	s.SetCategory(wire.CategoryOrientation)
	if err := serializeOrientation(s, st, base, hasBase); err != nil {
		return err
	}

	// Velocities: none at rest; else differences from a moving base, or
	// absolute.
	s.SetCategory(wire.CategoryFlags)
	if !reading && st.AtRest != (st.LinearVelocity == wire.QuantizedVec3{} && st.AngularVelocity == wire.QuantizedVec3{}) {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	if err := wire.SerializeBool(s, &st.AtRest); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryVelocity)
	if st.AtRest {
		if reading {
			st.LinearVelocity, st.AngularVelocity = wire.QuantizedVec3{}, wire.QuantizedVec3{}
		}
		return nil
	}
	deltaVel := hasBase && !base.AtRest
	if err := serializeVelocity(s, &st.LinearVelocity, &base.LinearVelocity, deltaVel, LinearVelocityBits); err != nil {
		return err
	}
	if err := serializeVelocity(s, &st.AngularVelocity, &base.AngularVelocity, deltaVel, AngularVelocityBits); err != nil {
		return err
	}
	if reading && st.LinearVelocity == (wire.QuantizedVec3{}) && st.AngularVelocity == (wire.QuantizedVec3{}) {
		// Zero velocities must be sent as "at rest": one encoding per state.
		return s.Fail(wire.ErrValueOutOfRange)
	}
	return nil
}

// NearPlayer reports whether a cube at pos is within the player's box, so
// that its position may be sent relative to the player's.
func NearPlayer(pos, player wire.QuantizedVec3) bool {
	return fitsRange3(diff3(pos, player), -relativeHalf, relativeHalf-1)
}

func (p *Packet) serializePosition(s wire.Stream, st, base *QuantizedCubeState, hasBase bool, k int32) error {
	reading := s.IsReading()
	xyMin, xyMax, zMax := wire.PositionLimits(wire.StateSyncPositionResolution)
	if hasBase {
		changed := st.Position != base.Position
		if err := wire.SerializeBool(s, &changed); err != nil {
			return err
		}
		if !changed {
			if reading {
				st.Position = base.Position
			}
			return nil
		}
		var d [3]int32
		small := false
		if !reading {
			d = diff3(st.Position, base.Position)
			small = fits3(d, positionDeltaLarge)
			// A difference from the base, unless the offset from the
			// player is cheaper (a cube in a rolling ball moves a lot
			// between bases but stays near the player).
			if player, ok := p.relativeTo(k); small && ok {
				if NearPlayer(st.Position, player) &&
					1+3*relativeBitsPerAxis < tieredBits3(d, positionDeltaSmall, positionDeltaLarge) {
					small = false
				}
			}
		}
		if err := wire.SerializeBool(s, &small); err != nil {
			return err
		}
		if small {
			if err := serializeTiered3(s, &d, positionDeltaSmall, positionDeltaLarge); err != nil {
				return err
			}
			if reading {
				st.Position = sum3(base.Position, d)
				if !inPositionLimits(st.Position, xyMin, xyMax, zMax) {
					return s.Fail(wire.ErrValueOutOfRange)
				}
			}
			return nil
		}
	}
	if player, ok := p.relativeTo(k); ok {
		var d [3]int32
		near := false
		if !reading {
			d = diff3(st.Position, player)
			near = NearPlayer(st.Position, player)
		}
		if err := wire.SerializeBool(s, &near); err != nil {
			return err
		}
		if near {
			for i := range d {
				if err := wire.SerializeInt(s, &d[i], -relativeHalf, relativeHalf-1); err != nil {
					return err
				}
			}
			if reading {
				st.Position = sum3(player, d)
				if !inPositionLimits(st.Position, xyMin, xyMax, zMax) {
					return s.Fail(wire.ErrValueOutOfRange)
				}
			}
			return nil
		}
	}
	return wire.SerializeQuantizedPosition(s, &st.Position, wire.StateSyncPositionResolution)
}

func serializeOrientation(s wire.Stream, st, base *QuantizedCubeState, hasBase bool) error {
	if !hasBase {
		return wire.SerializeQuantizedQuat(s, &st.Orientation, wire.StateSyncOrientationBits)
	}
	reading := s.IsReading()
	changed := st.Orientation != base.Orientation
	if err := wire.SerializeBool(s, &changed); err != nil {
		return err
	}
	if !changed {
		if reading {
			st.Orientation = base.Orientation
		}
		return nil
	}
	var d [3]int32
	small := false
	if !reading {
		d = diff3(st.Orientation.Small, base.Orientation.Small)
		small = st.Orientation.Largest == base.Orientation.Largest && fits3(d, orientationDeltaLarge)
	}
	if err := wire.SerializeBool(s, &small); err != nil {
		return err
	}
	if !small {
		return wire.SerializeQuantizedQuat(s, &st.Orientation, wire.StateSyncOrientationBits)
	}
	if err := serializeTiered3(s, &d, orientationDeltaSmall, orientationDeltaLarge); err != nil {
		return err
	}
	if reading {
		lo, hi := wire.SmallestThreeLimits(wire.StateSyncOrientationBits)
		st.Orientation.Largest = base.Orientation.Largest
		st.Orientation.Small = sum3(base.Orientation.Small, d)
		if !fitsRange3(st.Orientation.Small, lo, hi) {
			return s.Fail(wire.ErrValueOutOfRange)
		}
	}
	return nil
}

func serializeVelocity(s wire.Stream, v, base *wire.QuantizedVec3, delta bool, bits int) error {
	if !delta {
		return wire.SerializeQuantizedVelocity(s, v, bits)
	}
	reading := s.IsReading()
	var d [3]int32
	small := false
	if !reading {
		d = diff3(*v, *base)
		small = fits3(d, velocityDeltaLarge)
	}
	if err := wire.SerializeBool(s, &small); err != nil {
		return err
	}
	if !small {
		return wire.SerializeQuantizedVelocity(s, v, bits)
	}
	if err := serializeTiered3(s, &d, velocityDeltaSmall, velocityDeltaLarge); err != nil {
		return err
	}
	if reading {
		*v = sum3(*base, d)
		lo, hi := wire.VelocityLimits(bits)
		if !fitsRange3(*v, lo, hi) {
			return s.Fail(wire.ErrValueOutOfRange)
		}
	}
	return nil
}

// serializeTiered3 sends three signed differences, each as a "small" bit and
// then a value of `small` or `large` bits. Writing a value outside the large
// range fails (callers check with fits3 first).
func serializeTiered3(s wire.Stream, d *[3]int32, small, large int) error {
	sLo, sHi := -int32(1)<<(small-1), int32(1)<<(small-1)-1
	lLo, lHi := -int32(1)<<(large-1), int32(1)<<(large-1)-1
	for i := range d {
		isSmall := d[i] >= sLo && d[i] <= sHi
		if err := wire.SerializeBool(s, &isSmall); err != nil {
			return err
		}
		lo, hi := lLo, lHi
		if isSmall {
			lo, hi = sLo, sHi
		}
		if err := wire.SerializeInt(s, &d[i], lo, hi); err != nil {
			return err
		}
	}
	return nil
}

// tieredBits3 is what serializeTiered3 spends on d.
func tieredBits3(d [3]int32, small, large int) int {
	n := 0
	for _, v := range d {
		n++
		if v >= -int32(1)<<(small-1) && v <= int32(1)<<(small-1)-1 {
			n += small
		} else {
			n += large
		}
	}
	return n
}

func serializeRawState(s wire.Stream, r *RawCubeState) error {
	reading := s.IsReading()
	s.SetCategory(wire.CategoryPosition)
	for i := range r.Position {
		if err := wire.SerializeFloat32(s, &r.Position[i]); err != nil {
			return err
		}
	}
	s.SetCategory(wire.CategoryOrientation)
	for i := range r.Orientation {
		if err := wire.SerializeFloat32(s, &r.Orientation[i]); err != nil {
			return err
		}
	}
	s.SetCategory(wire.CategoryFlags)
	if !reading && r.AtRest != (r.LinearVelocity == [3]float32{} && r.AngularVelocity == [3]float32{}) {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	if err := wire.SerializeBool(s, &r.AtRest); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryVelocity)
	if r.AtRest {
		if reading {
			r.LinearVelocity, r.AngularVelocity = [3]float32{}, [3]float32{}
		}
	} else {
		for i := range r.LinearVelocity {
			if err := wire.SerializeFloat32(s, &r.LinearVelocity[i]); err != nil {
				return err
			}
		}
		for i := range r.AngularVelocity {
			if err := wire.SerializeFloat32(s, &r.AngularVelocity[i]); err != nil {
				return err
			}
		}
	}
	if reading && !r.valid() {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	return nil
}

// valid reports whether a raw state read from a packet is usable: finite,
// bounded, and with an orientation that normalizes safely.
func (r *RawCubeState) valid() bool {
	ok := func(x float32, limit float64) bool {
		f := float64(x)
		return !math.IsNaN(f) && math.Abs(f) <= limit
	}
	for _, x := range r.Position {
		if !ok(x, RawPositionLimit) {
			return false
		}
	}
	n2 := 0.0
	for _, x := range r.Orientation {
		if !ok(x, 2) {
			return false
		}
		n2 += float64(float64(x) * float64(x)) // unfused: every receiver accepts the same packets
	}
	if n2 < 0.25 || n2 > 4 {
		return false
	}
	for i := range 3 {
		if !ok(r.LinearVelocity[i], RawVelocityLimit) || !ok(r.AngularVelocity[i], RawVelocityLimit) {
			return false
		}
	}
	// At rest exactly when both velocities are zero: one encoding per state.
	return r.AtRest == (r.LinearVelocity == [3]float32{} && r.AngularVelocity == [3]float32{})
}

func diff3(a, b [3]int32) [3]int32 { return [3]int32{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func sum3(a, b [3]int32) [3]int32  { return [3]int32{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// fits3 reports whether every component fits the signed range of `bits`
// bits.
func fits3(d [3]int32, bits int) bool {
	return fitsRange3(d, -int32(1)<<(bits-1), int32(1)<<(bits-1)-1)
}

func fitsRange3(d [3]int32, lo, hi int32) bool {
	for _, v := range d {
		if v < lo || v > hi {
			return false
		}
	}
	return true
}

func inPositionLimits(p wire.QuantizedVec3, xyMin, xyMax, zMax int32) bool {
	return p[0] >= xyMin && p[0] <= xyMax && p[1] >= xyMin && p[1] <= xyMax && p[2] >= 0 && p[2] <= zMax
}

// A cube's size class in a packet: what decides the smallest update it may
// have there. Each is a bit of the class number.
const (
	ClassAtRest = 1 << iota // at rest: no velocities
	ClassNear               // within the player's box (NearPlayer): may be sent relative to it
	ClassBase               // may have a delta base
	NumClasses  = 1 << iota
)

// ClassBounds measures, into bits, the smallest update of each size class
// in this packet as it stands (the player, when it is in, at slot 0 at
// player): a cube of the class, at rest or moving, at the player or far
// from it, and, when it may have a base, equal to a moving or resting base
// (an unchanged field costs one bit and a moving base keeps the velocities
// small; a base never costs more than no base, which is also measured,
// in case the cube ends up with none). The measure is the packet's own, so
// the bounds follow the encoding wherever it goes; a class it cannot
// measure gets 0, no bound. The sender walks its cubes with these bounds
// (stateSyncSender.choose).
func (p *Packet) ClassBounds(m *wire.MeasureStream, player wire.QuantizedVec3, bits *[NumClasses]int) {
	xyMin, xyMax, _ := wire.PositionLimits(wire.StateSyncPositionResolution)
	far := player
	if far[0]+2*relativeHalf <= xyMax {
		far[0] += 2 * relativeHalf
	} else {
		far[0] = max(far[0]-2*relativeHalf, xyMin)
	}
	for c := range NumClasses {
		u := StateUpdate{Index: p.NumCubes - 1}
		atRest := c&ClassAtRest != 0
		u.Raw.AtRest, u.State.AtRest = atRest, atRest
		if !atRest {
			u.Raw.LinearVelocity[0], u.State.LinearVelocity[0] = 1, 1
		}
		u.State.Position = far
		if c&ClassNear != 0 {
			u.State.Position = player
		}
		u.State.Orientation.Largest = 3 // the identity
		b, err := p.MeasureUpdate(m, &u)
		if c&ClassBase != 0 && p.Delta && p.HasBaseAck {
			u.HasBase, u.Base = true, u.State
			if bb, berr := p.MeasureUpdate(m, &u); berr == nil && (err != nil || bb < b) {
				b, err = bb, nil
			}
		}
		if err != nil {
			b = 0
		}
		bits[c] = b
	}
}

// ---------------------------------------------------------------------------
// History of packets, for delta bases

// stateSyncRecord is what one packet carried, sorted by cube index.
type stateSyncRecord struct {
	n           int32
	compressed  bool
	index       [MaxUpdates]int32
	state       [MaxUpdates]QuantizedCubeState
	interacting [MaxUpdates]bool
}

// History remembers the updates of the last HistorySize
// packets: the sender keeps what it sent (to encode against bases the
// receiver acked, and to know which resting cubes an ack commits), the
// receiver keeps what it decoded (to find the same bases). It allocates only
// in NewHistory.
type History struct {
	buf *wire.SequenceBuffer[stateSyncRecord]
}

// NewHistory returns an empty history.
func NewHistory() *History {
	return &History{buf: wire.NewSequenceBuffer[stateSyncRecord](HistorySize)}
}

// Reset forgets every packet.
func (h *History) Reset() { h.buf.Reset() }

// Record stores the updates of packet seq. Uncompressed packets are stored
// with their indices and at-rest flags only: they cannot serve as bases.
func (h *History) Record(seq uint16, p *Packet) {
	r := h.buf.Insert(seq)
	if r == nil {
		return
	}
	r.n = min(max(p.NumUpdates, 0), MaxUpdates)
	r.compressed = p.Compressed
	for k := range r.n {
		u := &p.Updates[k]
		r.index[k] = u.Index
		r.interacting[k] = u.Interacting
		if p.Compressed {
			r.state[k] = u.State
		} else {
			r.state[k] = QuantizedCubeState{AtRest: u.Raw.AtRest}
		}
	}
}

// Find returns the state of cube index in packet seq, or nil when the packet
// is not held, was uncompressed, or did not carry that cube.
func (h *History) Find(seq uint16, index int32) *QuantizedCubeState {
	if h == nil {
		return nil
	}
	r := h.buf.Find(seq)
	if r == nil || !r.compressed {
		return nil
	}
	lo, hi := int32(0), r.n
	for lo < hi {
		mid := (lo + hi) / 2
		switch v := r.index[mid]; {
		case v == index:
			return &r.state[mid]
		case v < index:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return nil
}

// Interacting returns the interacting flags packet seq carried, in the
// order of Entries' indices, or nil when the packet is not held.
func (h *History) Interacting(seq uint16) []bool {
	r := h.buf.Find(seq)
	if r == nil {
		return nil
	}
	return r.interacting[:r.n]
}

// Entries returns the cube indices and states recorded for packet seq (only
// AtRest is meaningful in the states of an uncompressed packet), or ok =
// false when the packet is not held. The slices alias the history and are
// valid until the next Record.
func (h *History) Entries(seq uint16) (index []int32, state []QuantizedCubeState, compressed, ok bool) {
	r := h.buf.Find(seq)
	if r == nil {
		return nil, nil, false, false
	}
	return r.index[:r.n], r.state[:r.n], r.compressed, true
}
