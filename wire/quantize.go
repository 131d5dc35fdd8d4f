package wire

import (
	"math"
	"math/bits"

	"github.com/go-gl/mathgl/mgl64"
)

// Design note: quantization turns a float into an integer on a grid, so it
// can be sent in a few bits. Every strategy shares these functions, and "quantize
// both sides" (state synchronization) runs them on the sender's own state, so
// they are pure, deterministic functions of their inputs: plain IEEE
// arithmetic, round half up with math.Floor(x+0.5), explicit float64()
// conversions where a compiler could otherwise fuse a multiply and an add into
// one FMA instruction (which rounds once instead of twice and would give a
// different answer on some CPUs), and NaN mapped to a fixed value.
//
// Each quantizer has an integer form (what goes on the wire, and what delta
// encoders subtract from a baseline) and a float form at the API, in the
// mathgl types the rest of the program uses.
//
// Bit costs (the "Snapshot Compression" and "State Synchronization"
// articles):
//   - orientation, smallest three: 2 + 3×9 = 29 bits for snapshots,
//     2 + 3×15 = 47 bits for state synchronization;
//   - position at 512 values per metre: 18 + 18 + 14 = 50 bits; at 4096 per
//     metre (state synchronization): 21 + 21 + 17 = 59 bits;
//   - linear velocity, ±32 m/s at 11 bits per component: 33 bits.

// Quantization constants from the articles.
const (
	// SmallestThreeBound is 1/√2, the largest magnitude a component that is
	// not the largest of a unit quaternion can have: if two components tie
	// for largest at v, then v² + v² = 1, so v = 1/√2.
	SmallestThreeBound = math.Sqrt2 / 2

	// SnapshotOrientationBits is the smallest-three precision that snapshot
	// interpolation needs (9 bits per component, 29 bits per orientation).
	SnapshotOrientationBits = 9
	// StateSyncOrientationBits is the precision state synchronization needs,
	// because quantized values are fed back into the simulation.
	StateSyncOrientationBits = 15

	// PositionBoundXY bounds x and y to [-256, 256) metres.
	PositionBoundXY = 256
	// PositionBoundZ bounds z to [0, 32) metres; the ground is at z = 0.
	PositionBoundZ = 32
	// SnapshotPositionResolution is 512 values per metre (about 2 mm).
	SnapshotPositionResolution = 512
	// StateSyncPositionResolution is 4096 values per metre (about 0.25 mm).
	StateSyncPositionResolution = 4096

	// VelocityBound bounds linear velocity components to ±32 m/s, the
	// speed clamp of the original simulation.
	VelocityBound = 32
	// AngularVelocityBound bounds angular velocity components to ±16 rad/s.
	AngularVelocityBound = 16
	// SnapshotVelocityBits is 11 bits per component: 32 values per m/s.
	SnapshotVelocityBits = 11
)

// QuantizeScalar maps x to round(x × perUnit) clamped to [lo, hi]. NaN maps
// to 0 (clamped). Inside the range the error is at most half a step,
// 0.5/perUnit.
func QuantizeScalar(x, perUnit float64, lo, hi int32) int32 {
	if x != x {
		x = 0
	}
	f := math.Floor(float64(x*perUnit) + 0.5)
	if f <= float64(lo) {
		return lo
	}
	if f >= float64(hi) {
		return hi
	}
	return int32(f)
}

// DequantizeScalar is the inverse of QuantizeScalar: i / perUnit.
func DequantizeScalar(i int32, perUnit float64) float64 {
	return float64(i) / perUnit
}

// QuantizedVec3 is the integer form of a bounded vector (a position or a
// velocity): one grid index per component.
type QuantizedVec3 [3]int32

// ---------------------------------------------------------------------------
// Position

// MaxPositionResolution is the finest position grid, in values per metre:
// the x/y span, 512 × 2^22 = 2^31 values, still fits an int32 grid index.
const MaxPositionResolution = 1 << 22

// clampResolution keeps perMetre in 1..MaxPositionResolution.
func clampResolution(perMetre int32) int32 {
	if perMetre < 1 {
		return 1
	}
	if perMetre > MaxPositionResolution {
		return MaxPositionResolution
	}
	return perMetre
}

// PositionLimits returns the integer ranges of a position quantized at
// perMetre values per metre: x and y in [xyMin, xyMax], z in [0, zMax]. The
// grid is asymmetric like a two's-complement integer: x may reach -256 m but
// at most 256 m minus one step.
func PositionLimits(perMetre int32) (xyMin, xyMax, zMax int32) {
	r := clampResolution(perMetre)
	return -PositionBoundXY * r, PositionBoundXY*r - 1, PositionBoundZ*r - 1
}

// PositionBits returns the bits per x/y component and per z component at
// perMetre values per metre (18 and 14 at 512; 21 and 17 at 4096).
func PositionBits(perMetre int32) (xy, z int) {
	xyMin, xyMax, zMax := PositionLimits(perMetre)
	return BitsRequired(xyMin, xyMax), BitsRequired(0, zMax)
}

// QuantizePosition bounds p to x, y in [-256, 256) and z in [0, 32) metres
// and rounds each component to the nearest 1/perMetre. Components outside the
// bounds are clamped to the nearest representable value.
func QuantizePosition(p mgl64.Vec3, perMetre int32) QuantizedVec3 {
	r := clampResolution(perMetre)
	xyMin, xyMax, zMax := PositionLimits(r)
	f := float64(r)
	return QuantizedVec3{
		QuantizeScalar(p[0], f, xyMin, xyMax),
		QuantizeScalar(p[1], f, xyMin, xyMax),
		QuantizeScalar(p[2], f, 0, zMax),
	}
}

// DequantizePosition returns the position in metres of a quantized position.
func DequantizePosition(q QuantizedVec3, perMetre int32) mgl64.Vec3 {
	f := float64(clampResolution(perMetre))
	return mgl64.Vec3{DequantizeScalar(q[0], f), DequantizeScalar(q[1], f), DequantizeScalar(q[2], f)}
}

// SerializeQuantizedPosition serializes a quantized position: x and y then
// z, each checked against PositionLimits(perMetre). The bits are exactly
// those of three SerializeInt calls, but sent in a single stream call (see
// serializeTriple).
func SerializeQuantizedPosition(s Stream, q *QuantizedVec3, perMetre int32) error {
	// Small enough to be inlined: a position costs one call, to
	// serializeTriple, which works out the limits itself.
	return serializeTriple(s, q, positionTriple, int(perMetre))
}

// tripleKind says how serializeTriple finds its ranges from its parameter
// k: a position at k values per metre, or a velocity at k bits.
type tripleKind uint8

const (
	positionTriple tripleKind = iota
	velocityTriple
)

// serializeTriple serializes three integers, the first two in [lo, hi] and
// the third in [lo3, hi3] (the limits of a position or a velocity). Values
// fill the stream from its low bit, so three fields of na, nb, nc bits are
// the same bits as the single field a | b<<na | c<<(na+nb): when that fits
// in 64 bits, one call to the stream does the work of three (this is most
// of what makes a 901-cube snapshot fast to write). Each field is
// range-checked on write and on read.
//
// This function is the fast path, for the common case: a built-in stream
// with no error and room for the bits, and (writing, measuring) values in
// range. It runs the stream's fast path itself (serializeRaw's type switch,
// written out here so that the whole position costs one call), and each
// mode does only its own work: a reader never packs the destination's old
// values, a writer never decodes what it wrote. Every other case goes to
// serializeTripleSlow, the plain version, which gives the same bits and
// reports the errors. Keeping the rare cases in another function also
// keeps the compiler from saving registers around their calls on the
// common path.
func serializeTriple(s Stream, q *QuantizedVec3, kind tripleKind, k int) error {
	var lo, hi, lo3, hi3 int32
	if kind == positionTriple {
		lo, hi, hi3 = PositionLimits(int32(k))
	} else {
		lo, hi = VelocityLimits(k)
		lo3, hi3 = lo, hi
	}
	d := uint64(int64(hi) - int64(lo))
	d3 := uint64(int64(hi3) - int64(lo3))
	n, n3 := uint(bits.Len64(d)), uint(bits.Len64(d3))
	nb := int(2*n + n3)
	if nb > 64 {
		return serializeTripleSlow(s, q, lo, hi, lo3, hi3)
	}
	// Every shift below is by less than 64. Saying so with &63 makes
	// each one instruction: Go defines shifts by 64 or more (they give
	// 0), which otherwise costs a compare and a mask per shift.
	sb, sc := n&63, (2*n)&63
	if st, ok := s.(*ReadStream); ok {
		v, ok := st.takeFast(nb)
		if !ok {
			return serializeTripleSlow(s, q, lo, hi, lo3, hi3)
		}
		if !unpackTriple(q, v, sb, sc, d, d3, lo, lo3) {
			return s.Fail(ErrValueOutOfRange)
		}
		return nil
	}
	a := uint64(int64(q[0]) - int64(lo))
	b := uint64(int64(q[1]) - int64(lo))
	c := uint64(int64(q[2]) - int64(lo3))
	if a <= d && b <= d && c <= d3 {
		switch st := s.(type) {
		case *WriteStream:
			if st.putFast(a|b<<sb|c<<sc, nb) {
				return nil
			}
		case *MeasureStream:
			if st.countFast(nb) {
				return nil
			}
		}
	}
	return serializeTripleSlow(s, q, lo, hi, lo3, hi3)
}

// serializeTripleSlow is serializeTriple for every case, written plainly:
// field by field when the three do not fit in 64 bits, else one
// serializeRaw call.
func serializeTripleSlow(s Stream, q *QuantizedVec3, lo, hi, lo3, hi3 int32) error {
	d := uint64(int64(hi) - int64(lo))
	d3 := uint64(int64(hi3) - int64(lo3))
	n, n3 := uint(bits.Len64(d)), uint(bits.Len64(d3))
	if 2*n+n3 > 64 {
		for i := range 2 {
			if err := SerializeInt(s, &q[i], lo, hi); err != nil {
				return err
			}
		}
		return SerializeInt(s, &q[2], lo3, hi3)
	}
	a := uint64(int64(q[0]) - int64(lo))
	b := uint64(int64(q[1]) - int64(lo))
	c := uint64(int64(q[2]) - int64(lo3))
	if a > d || b > d || c > d3 {
		// When reading, the destination may hold anything.
		if !s.IsReading() {
			return s.Fail(ErrValueOutOfRange)
		}
		a, b, c = 0, 0, 0
	}
	got, err := serializeRaw(s, a|b<<n|c<<(2*n), int(2*n+n3))
	if err != nil {
		return err
	}
	if !unpackTriple(q, got, n, 2*n, d, d3, lo, lo3) {
		return s.Fail(ErrValueOutOfRange)
	}
	return nil
}

// unpackTriple is the reading end of both paths: it splits v into the
// three offsets (the first two of sb bits, the third from bit sc on),
// checks each against its range (d, d3) and stores them in q shifted by
// lo and lo3. It reports false, storing nothing, when one is out of range.
// Small enough to inline, so the fast path keeps its masked shifts.
func unpackTriple(q *QuantizedVec3, v uint64, sb, sc uint, d, d3 uint64, lo, lo3 int32) bool {
	mask := uint64(1)<<sb - 1
	a, b, c := v&mask, v>>sb&mask, v>>sc
	if a > d || b > d || c > d3 {
		return false
	}
	q[0] = int32(int64(a) + int64(lo))
	q[1] = int32(int64(b) + int64(lo))
	q[2] = int32(int64(c) + int64(lo3))
	return true
}

// ---------------------------------------------------------------------------
// Velocity

// clampBits keeps a per-component bit count in 2..31.
func clampBits(bits int) int {
	if bits < 2 {
		return 2
	}
	if bits > 31 {
		return 31
	}
	return bits
}

// VelocityLimits returns the integer range of a bounded vector component at
// `bits` bits: [-2^(bits-1), 2^(bits-1)-1] ([-1024, 1023] at 11 bits). bits is
// clamped to 2..31.
func VelocityLimits(bits int) (lo, hi int32) {
	half := int32(1) << uint(clampBits(bits)-1)
	return -half, half - 1
}

// velocityScale is the number of grid values per unit: 2^bits values over
// the 2 × bound span (32 per m/s at 11 bits and ±32 m/s).
func velocityScale(bound float64, bits int) float64 {
	return float64(int64(1)<<uint(clampBits(bits)-1)) / bound
}

// QuantizeVelocity bounds each component of v to [-bound, bound) and rounds it
// to one of 2^bits values (bits clamped to 2..31). Components outside the
// bound are clamped. Use VelocityBound for linear velocity and
// AngularVelocityBound for angular velocity.
func QuantizeVelocity(v mgl64.Vec3, bound float64, bits int) QuantizedVec3 {
	lo, hi := VelocityLimits(bits)
	f := velocityScale(bound, bits)
	return QuantizedVec3{
		QuantizeScalar(v[0], f, lo, hi),
		QuantizeScalar(v[1], f, lo, hi),
		QuantizeScalar(v[2], f, lo, hi),
	}
}

// DequantizeVelocity returns the vector of a quantized velocity.
func DequantizeVelocity(q QuantizedVec3, bound float64, bits int) mgl64.Vec3 {
	f := velocityScale(bound, bits)
	return mgl64.Vec3{DequantizeScalar(q[0], f), DequantizeScalar(q[1], f), DequantizeScalar(q[2], f)}
}

// SerializeQuantizedVelocity serializes the three components with `bits`
// bits each, checked against VelocityLimits(bits).
func SerializeQuantizedVelocity(s Stream, q *QuantizedVec3, bits int) error {
	return serializeTriple(s, q, velocityTriple, bits)
}

// ---------------------------------------------------------------------------
// Orientation: smallest three

// QuantizedQuat is the smallest-three form of a rotation. The largest
// component (by magnitude) is dropped and rebuilt from the unit length; the
// other three, in x, y, z, w order, are sent as integers.
type QuantizedQuat struct {
	// Largest is the index of the dropped component: 0 = x, 1 = y, 2 = z,
	// 3 = w. Sent in 2 bits.
	Largest uint8
	// Small holds the three other components, each the grid index of a
	// value in [-1/√2, +1/√2]: in [-M, M] (M = SmallestThreeMax(bits)) as
	// QuantizeQuat writes them, in [-M, M+1] as the wire carries them
	// (SmallestThreeLimits).
	Small [3]int32
}

// SmallestThreeMax is M = 2^(bits-1) - 1, the largest grid index of a smallest
// three component at `bits` bits (255 at 9 bits). The grid is symmetric
// (-M..M) so that 0 is exact: the identity rotation, which every cube at rest
// on a flat floor has, quantizes without error. That uses 2^bits - 1 of the
// 2^bits codes; the last one is carried too (SmallestThreeLimits). bits is
// clamped to 2..31.
func SmallestThreeMax(bits int) int32 {
	return int32(1)<<uint(clampBits(bits)-1) - 1
}

// SmallestThreeLimits is the range of a smallest-three component on the
// wire: -M..M+1 (M = SmallestThreeMax(bits)), every one of the 2^bits codes
// of its field. QuantizeQuat never writes M+1; a quantizer that uses every
// code does (the 2015 snapshot compression challenge's writes 0..2^bits-1,
// a grid symmetric about 2^(bits-1)-½, which its files store and we read
// as -M..M+1), and carrying it lets such data be coded and decoded
// exactly. DequantizeQuat reads it as M.
func SmallestThreeLimits(bits int) (lo, hi int32) {
	m := SmallestThreeMax(bits)
	return -m, m + 1
}

// QuantizeQuat encodes q in smallest-three form with `bits` bits per
// component (2..31, clamped). q is normalized first; a zero, infinite or NaN
// quaternion encodes as the identity. Since q and -q are the same rotation,
// the quaternion is negated when needed to make the largest component
// positive, so it can be rebuilt as +sqrt(1 - a² - b² - c²) with no sign bit;
// q and -q therefore give identical codes.
func QuantizeQuat(q mgl64.Quat, bits int) QuantizedQuat {
	return QuantizeQuatAt(q, bits, -1)
}

// QuantizeQuatAt is QuantizeQuat with the index of the component left out
// chosen by the caller (0..3; −1: the largest, as QuantizeQuat). With
// another index than the largest, the three components sent may exceed
// the smallest-three bound and are clamped to it: a representation no
// packet carries as such, but the best prediction of an orientation known
// to have that largest component (the range-coded levels re-express their
// reference this way when a cube's largest component changed).
func QuantizeQuatAt(q mgl64.Quat, bits, largest int) QuantizedQuat {
	c := [4]float64{q.V[0], q.V[1], q.V[2], q.W}
	n2 := float64(c[0]*c[0]) + float64(c[1]*c[1]) + float64(c[2]*c[2]) + float64(c[3]*c[3])
	if !(n2 > 0) || math.IsInf(n2, 0) {
		return QuantizedQuat{Largest: 3} // identity: w = 1, the rest 0
	}
	inv := 1 / math.Sqrt(n2)
	forced := largest >= 0 && largest < 4
	if !forced {
		largest = 0
	}
	for i := range c {
		c[i] *= inv
		if !forced && math.Abs(c[i]) > math.Abs(c[largest]) {
			largest = i
		}
	}
	if c[largest] < 0 {
		for i := range c {
			c[i] = -c[i]
		}
	}
	m := SmallestThreeMax(bits)
	scale := float64(m) / SmallestThreeBound
	var out QuantizedQuat
	out.Largest = uint8(largest)
	j := 0
	for i := range c {
		if i == largest {
			continue
		}
		out.Small[j] = QuantizeScalar(c[i], scale, -m, m)
		j++
	}
	return out
}

// DequantizeQuat rebuilds a unit quaternion from its smallest-three form: the
// three components from their grid, the largest as sqrt(1 - a² - b² - c²)
// (0 if rounding pushed the sum past 1), then a normalization so that the
// result is a unit quaternion even for codes no encoder would produce.
// Out-of-range indices are clamped; Largest uses its low 2 bits.
func DequantizeQuat(qq QuantizedQuat, bits int) mgl64.Quat {
	m := SmallestThreeMax(bits)
	scale := SmallestThreeBound / float64(m)
	var small [3]float64
	sum := 0.0
	for i, v := range qq.Small {
		if v > m {
			v = m
		} else if v < -m {
			v = -m
		}
		small[i] = float64(v) * scale
		sum += float64(small[i] * small[i])
	}
	big := 0.0
	if sum < 1 {
		big = math.Sqrt(1 - sum)
	}
	largest := int(qq.Largest & 3)
	var c [4]float64
	j := 0
	for i := range c {
		if i == largest {
			c[i] = big
			continue
		}
		c[i] = small[j]
		j++
	}
	inv := 1 / math.Sqrt(sum+float64(big*big))
	return mgl64.Quat{W: c[3] * inv, V: mgl64.Vec3{c[0] * inv, c[1] * inv, c[2] * inv}}
}

// SerializeQuantizedQuat serializes a smallest-three orientation: the 2-bit
// index of the largest component, then the three others at `bits` bits each
// (29 bits in all at 9 bits). Like serializeTriple, it sends the four fields
// in one stream call when they fit in 64 bits (up to 20 bits per
// component), with the same kind of fast path (see there);
// serializeQuatSlow does every other case.
func SerializeQuantizedQuat(s Stream, q *QuantizedQuat, bits int) error {
	n := uint(clampBits(bits)) // bits.Len(2m): 2m = 2^bits - 2
	if n > 20 {
		return serializeQuatSlow(s, q, bits)
	}
	nb := int(2 + 3*n)
	// As in serializeTriple, &63 says the shifts are by less than 64.
	sb, sc := (2+n)&63, (2+2*n)&63
	m := int64(1)<<((n-1)&63) - 1 // SmallestThreeMax(bits)
	d := uint64(2 * m)
	if st, ok := s.(*ReadStream); ok {
		v, ok := st.takeFast(nb)
		if !ok {
			return serializeQuatSlow(s, q, bits)
		}
		mask := d | 1 // 2^n - 1: every code is a value (SmallestThreeLimits)
		a, b, c := v>>2&mask, v>>sb&mask, v>>sc&mask
		q.Largest = uint8(v & 3)
		q.Small = [3]int32{int32(int64(a) - m), int32(int64(b) - m), int32(int64(c) - m)}
		return nil
	}
	l := uint64(q.Largest)
	a := uint64(int64(q.Small[0]) + m)
	b := uint64(int64(q.Small[1]) + m)
	c := uint64(int64(q.Small[2]) + m)
	if top := d + 1; l <= 3 && a <= top && b <= top && c <= top {
		switch st := s.(type) {
		case *WriteStream:
			if st.putFast(l|a<<2|b<<sb|c<<sc, nb) {
				return nil
			}
		case *MeasureStream:
			if st.countFast(nb) {
				return nil
			}
		}
	}
	return serializeQuatSlow(s, q, bits)
}

// serializeQuatSlow is SerializeQuantizedQuat for every case, written
// plainly: field by field when the four do not fit in 64 bits, else one
// serializeRaw call.
func serializeQuatSlow(s Stream, q *QuantizedQuat, bits int) error {
	m := int64(SmallestThreeMax(bits))
	n := uint(clampBits(bits))
	if 2+3*n > 64 {
		if err := SerializeInt(s, &q.Largest, 0, 3); err != nil {
			return err
		}
		for i := range q.Small {
			if err := SerializeInt(s, &q.Small[i], int32(-m), int32(m+1)); err != nil {
				return err
			}
		}
		return nil
	}
	top := uint64(2*m + 1) // every code of the field (SmallestThreeLimits)
	l := uint64(q.Largest)
	a := uint64(int64(q.Small[0]) + m)
	b := uint64(int64(q.Small[1]) + m)
	c := uint64(int64(q.Small[2]) + m)
	if l > 3 || a > top || b > top || c > top {
		// When reading, the destination may hold anything.
		if !s.IsReading() {
			return s.Fail(ErrValueOutOfRange)
		}
		l, a, b, c = 0, 0, 0, 0
	}
	got, err := serializeRaw(s, l|a<<2|b<<(2+n)|c<<(2+2*n), int(2+3*n))
	if err != nil {
		return err
	}
	mask := uint64(1)<<n - 1
	a, b, c = got>>2&mask, got>>(2+n)&mask, got>>(2+2*n)&mask
	q.Largest = uint8(got & 3)
	q.Small = [3]int32{int32(int64(a) - m), int32(int64(b) - m), int32(int64(c) - m)}
	return nil
}
