package wire

import (
	"math"
	"math/bits"
)

// Design note: these helpers are the vocabulary of packet code. Each one
// serves writing, reading and measuring, returns the stream's sticky error,
// and stores into its destination only when reading succeeded (for integers
// it stores the same value back when writing, which is invisible). So a field
// is one line:
//
//	if err := wire.SerializeInt(s, &p.NumCubes, 0, MaxCubes); err != nil {
//		return err
//	}
//
// and a hostile packet can at worst produce an error: every value read is
// checked against its range before it is stored, and no helper allocates.

// Integer is the set of integer types the generic helpers accept.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// BitsRequired is the number of bits SerializeInt spends on a value in
// [min, max]: the bit length of max-min, so 0 for a single value, 1 for two
// values, 10 for [0, 900]. It returns -1 when max < min or the range needs
// more than 32 bits.
func BitsRequired[T Integer](min, max T) int {
	if max < min {
		return -1
	}
	d := uint64(max) - uint64(min)
	if d > math.MaxUint32 {
		return -1
	}
	return bits.Len64(d)
}

// SerializeInt serializes an integer in [min, max] with BitsRequired(min, max)
// bits, sending v-min so that negative ranges cost no sign bit. Writing a
// value outside the range, or reading one (possible when the range is not a
// power of two), fails with ErrValueOutOfRange; a range with max < min or
// wider than 32 bits fails with ErrInvalidRange.
func SerializeInt[T Integer](s Stream, v *T, min, max T) error {
	// Converting to uint64 and subtracting is exact modulo 2^64 for every
	// integer type, signed or not, so these are the true distances. An
	// empty range is passed on as an impossible span, which the hub rejects
	// (this keeps the function small enough to inline).
	d := uint64(max) - uint64(min)
	if max < min {
		d = math.MaxUint64
	}
	got, err := serialize(s, uint64(*v)-uint64(min), d)
	if err == nil {
		// Wrapping arithmetic undoes the offset for every integer type.
		// When writing or measuring, got is the offset sent and this
		// stores *v unchanged.
		*v = min + T(got)
	}
	return err
}

// SerializeBits serializes the low n bits (n in 1..32) of *v. Writing a value
// with bits set above n fails with ErrValueOutOfRange.
func SerializeBits(s Stream, v *uint32, n int) error {
	if n < 1 || n > 32 {
		return s.Fail(ErrInvalidBits)
	}
	got, err := serialize(s, uint64(*v), uint64(1)<<uint(n)-1)
	if err != nil {
		return err
	}
	*v = got
	return nil
}

// SerializeBool serializes a bool as one bit. Flags are among the most
// frequent fields (one per cube in a snapshot), so it runs the streams' fast
// paths itself, like serializeRaw, and calls the hub only for the rest.
func SerializeBool(s Stream, v *bool) error {
	var u uint64
	switch st := s.(type) {
	case *ReadStream:
		if got, ok := st.takeFast(1); ok {
			*v = got != 0
			return nil
		}
	case *WriteStream:
		if *v {
			u = 1
		}
		if st.putFast(u, 1) {
			return nil
		}
	case *MeasureStream:
		if st.countFast(1) {
			return nil
		}
	}
	if *v {
		u = 1
	}
	got, err := serialize(s, u, 1)
	if err != nil {
		return err
	}
	*v = got != 0
	return nil
}

// SerializeUint16 serializes a uint16 in 16 bits.
func SerializeUint16(s Stream, v *uint16) error {
	got, err := serialize(s, uint64(uint32(*v)), math.MaxUint16)
	if err != nil {
		return err
	}
	*v = uint16(got)
	return nil
}

// SerializeUint32 serializes a uint32 in 32 bits.
func SerializeUint32(s Stream, v *uint32) error {
	got, err := serialize(s, uint64(*v), math.MaxUint32)
	if err != nil {
		return err
	}
	*v = got
	return nil
}

// SerializeUint64 serializes a uint64 in 64 bits, low word first (e.g. a
// state hash for the determinism check).
func SerializeUint64(s Stream, v *uint64) error {
	lo, err := serialize(s, uint64(uint32(*v)), math.MaxUint32)
	if err != nil {
		return err
	}
	hi, err := serialize(s, uint64(uint32(*v>>32)), math.MaxUint32)
	if err != nil {
		return err
	}
	*v = uint64(hi)<<32 | uint64(lo)
	return nil
}

// SerializeFloat32 serializes the 32 raw IEEE-754 bits of a float32: the
// "uncompressed" cost of the snapshot articles (96 bits per vector). Any bit
// pattern is accepted on read, including NaN and infinities; packet code that
// cannot use those must check.
func SerializeFloat32(s Stream, v *float32) error {
	got, err := serialize(s, uint64(math.Float32bits(*v)), math.MaxUint32)
	if err != nil {
		return err
	}
	*v = math.Float32frombits(got)
	return nil
}

// SerializeFloat64 serializes the 64 raw IEEE-754 bits of a float64, low word
// first.
func SerializeFloat64(s Stream, v *float64) error {
	u := math.Float64bits(*v)
	if err := SerializeUint64(s, &u); err != nil {
		return err
	}
	*v = math.Float64frombits(u)
	return nil
}

// CompressedFloatSteps returns the number of intervals serializeCompressedFloat
// divides [min, max] into at the given resolution: ceil((max-min)/resolution),
// so the actual step, (max-min)/steps, is never coarser than asked. The
// quotient is taken with a relative tolerance of 1e-9 so that a range holding a
// whole number of steps (2 at 0.01) does not gain one step from rounding noise
// in the binary fractions. It returns 0 for an invalid range: max <= min, a
// resolution <= 0, a value that is not finite, or more than 2^32-1 steps.
func CompressedFloatSteps(min, max, resolution float64) uint32 {
	span := max - min
	if !(span > 0) || !(resolution > 0) || math.IsInf(span, 0) || math.IsInf(resolution, 0) {
		return 0
	}
	q := span / resolution
	n := math.Ceil(q - float64(q*1e-9)) // unfused: both ends must count the same steps
	if n < 1 {
		n = 1
	}
	if n > math.MaxUint32 {
		return 0
	}
	return uint32(n)
}

// QuantizeFloat maps x to an integer in [0, steps] over [min, max]: clamped
// to the range, then rounded to the nearest step. NaN maps to 0.
func QuantizeFloat(x, min, max float64, steps uint32) uint32 {
	if x != x || steps == 0 {
		return 0
	}
	if x <= min {
		return 0
	}
	if x >= max {
		return steps
	}
	// Normalize to [0, 1], scale to steps, round half up. The explicit
	// float64 conversion stops a compiler from fusing the multiply and the
	// add into one FMA, which would round differently on some CPUs.
	t := (x - min) / (max - min)
	i := math.Floor(float64(t*float64(steps)) + 0.5)
	if i > float64(steps) {
		return steps
	}
	return uint32(i)
}

// DequantizeFloat is the inverse of QuantizeFloat: the value of step i. The
// ends are exact: 0 gives min and steps gives max.
func DequantizeFloat(i uint32, min, max float64, steps uint32) float64 {
	if steps == 0 || i == 0 {
		return min
	}
	if i >= steps {
		return max
	}
	return min + (float64(i)*(max-min))/float64(steps)
}

// serializeCompressedFloat serializes x in [min, max] at the given resolution
// (e.g. 0.01 for centimetres) using BitsRequired(0, steps) bits, where steps is
// CompressedFloatSteps(min, max, resolution). Writing clamps x into the range
// and rounds it to the nearest step (error at most half a step, and a step is
// at most resolution); writing NaN fails with ErrValueOutOfRange. Reading
// stores the step's value, never outside [min, max].
func serializeCompressedFloat(s Stream, v *float64, min, max, resolution float64) error {
	steps := CompressedFloatSteps(min, max, resolution)
	if steps == 0 {
		return s.Fail(ErrInvalidRange)
	}
	reading := s.IsReading()
	var i uint32
	if !reading {
		if *v != *v {
			return s.Fail(ErrValueOutOfRange)
		}
		i = QuantizeFloat(*v, min, max, steps)
	}
	got, err := serialize(s, uint64(i), uint64(steps))
	if err != nil {
		return err
	}
	if reading {
		*v = DequantizeFloat(got, min, max, steps)
	}
	return nil
}

// serializeAlign pads (or skips zero padding) to the next byte boundary.
func serializeAlign(s Stream) error { return s.SerializeAlign() }
