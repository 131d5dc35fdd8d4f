package wire

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// roundTrip writes v with ser, checks the bit count on the write and the
// measure stream, reads it back into a zero T and returns the result.
func roundTrip[T any](t *testing.T, v T, wantBits int, ser func(Stream, *T) error) T {
	t.Helper()
	buf := make([]byte, 64)
	w := NewWriteStream(buf)
	in := v
	if err := ser(w, &in); err != nil {
		t.Fatalf("write: %v", err)
	}
	if w.BitsProcessed() != wantBits {
		t.Fatalf("wrote %d bits, want %d", w.BitsProcessed(), wantBits)
	}
	m := NewMeasureStream()
	mv := v
	if err := ser(m, &mv); err != nil {
		t.Fatalf("measure: %v", err)
	}
	if m.BitsProcessed() != wantBits {
		t.Fatalf("measured %d bits, want %d", m.BitsProcessed(), wantBits)
	}
	data := w.Bytes()
	if len(data) != BitsToBytes(wantBits) {
		t.Fatalf("packet is %d bytes, want %d", len(data), BitsToBytes(wantBits))
	}
	r := NewReadStream(data)
	var out T
	if err := ser(r, &out); err != nil {
		t.Fatalf("read: %v", err)
	}
	if r.BitsProcessed() != wantBits {
		t.Fatalf("read %d bits, want %d", r.BitsProcessed(), wantBits)
	}
	return out
}

func intCase[T Integer](v, min, max T, bits int) func(*testing.T) {
	return func(t *testing.T) {
		got := roundTrip(t, v, bits, func(s Stream, p *T) error { return SerializeInt(s, p, min, max) })
		if got != v {
			t.Fatalf("got %v, want %v", got, v)
		}
	}
}

func TestSerializeIntRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		run  func(*testing.T)
	}{
		{"cube index min", intCase[int32](0, 0, 900, 10)},
		{"cube index max", intCase[int32](900, 0, 900, 10)},
		{"cube index mid", intCase[int32](451, 0, 900, 10)},
		{"signed min", intCase(-10, -10, 10, 5)},
		{"signed zero", intCase(0, -10, 10, 5)},
		{"signed max", intCase(10, -10, 10, 5)},
		{"negative range", intCase[int16](-300, -1000, -10, 10)},
		{"negative range max", intCase[int16](-10, -1000, -10, 10)},
		{"1-bit range low", intCase(-1, -1, 0, 1)},
		{"1-bit range high", intCase(0, -1, 0, 1)},
		{"1-bit unsigned", intCase[uint8](1, 0, 1, 1)},
		{"single value costs 0 bits", intCase[int64](5, 5, 5, 0)},
		{"int8 full min", intCase[int8](math.MinInt8, math.MinInt8, math.MaxInt8, 8)},
		{"int8 full max", intCase[int8](math.MaxInt8, math.MinInt8, math.MaxInt8, 8)},
		{"int32 full min", intCase[int32](math.MinInt32, math.MinInt32, math.MaxInt32, 32)},
		{"int32 full max", intCase[int32](math.MaxInt32, math.MinInt32, math.MaxInt32, 32)},
		{"int32 full -1", intCase[int32](-1, math.MinInt32, math.MaxInt32, 32)},
		{"uint32 full max", intCase[uint32](math.MaxUint32, 0, math.MaxUint32, 32)},
		{"int64 32-bit span", intCase[int64](-1<<40+7, -1<<40, -1<<40+(1<<32-1), 32)},
		{"uint64 high offset", intCase[uint64](1<<63+3, 1<<63, 1<<63+5, 3)},
		{"int native", intCase(-123456, -1<<20, 1<<20, 22)},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.run)
	}
}

func TestSerializeBitsRoundTrip(t *testing.T) {
	for n := 1; n <= 32; n++ {
		maxv := uint32(uint64(1)<<n - 1)
		for _, v := range []uint32{0, 1, maxv / 2, maxv} {
			got := roundTrip(t, v, n, func(s Stream, p *uint32) error { return SerializeBits(s, p, n) })
			if got != v {
				t.Fatalf("%d bits: got %#x, want %#x", n, got, v)
			}
		}
	}
}

func TestSerializeFixedWidthRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		run  func(*testing.T)
	}{
		{"bool true", func(t *testing.T) {
			if !roundTrip(t, true, 1, SerializeBool) {
				t.Fatal("lost true")
			}
		}},
		{"bool false", func(t *testing.T) {
			if roundTrip(t, false, 1, SerializeBool) {
				t.Fatal("lost false")
			}
		}},
		{"uint16 max", func(t *testing.T) {
			if got := roundTrip[uint16](t, math.MaxUint16, 16, SerializeUint16); got != math.MaxUint16 {
				t.Fatal(got)
			}
		}},
		{"uint16 zero", func(t *testing.T) {
			if got := roundTrip[uint16](t, 0, 16, SerializeUint16); got != 0 {
				t.Fatal(got)
			}
		}},
		{"uint32 max", func(t *testing.T) {
			if got := roundTrip[uint32](t, math.MaxUint32, 32, SerializeUint32); got != math.MaxUint32 {
				t.Fatal(got)
			}
		}},
		{"uint64 max", func(t *testing.T) {
			if got := roundTrip[uint64](t, math.MaxUint64, 64, SerializeUint64); got != math.MaxUint64 {
				t.Fatal(got)
			}
		}},
		{"uint64 pattern", func(t *testing.T) {
			const v = 0x0123456789ABCDEF
			if got := roundTrip[uint64](t, v, 64, SerializeUint64); got != v {
				t.Fatalf("%#x", got)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.run)
	}
}

func TestSerializeFloat32RoundTrip(t *testing.T) {
	// Raw bits: every value, including -0, NaN payloads and infinities,
	// comes back bit for bit.
	values := []float32{0, float32(math.Copysign(0, -1)), 1.5, -1.5, math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.Float32frombits(0x7FC01234)}
	for _, v := range values {
		got := roundTrip(t, v, 32, SerializeFloat32)
		if math.Float32bits(got) != math.Float32bits(v) {
			t.Fatalf("%v: got bits %#x, want %#x", v, math.Float32bits(got), math.Float32bits(v))
		}
	}
	for _, v := range []float64{0, -1e300, math.Pi, math.Inf(-1)} {
		got := roundTrip(t, v, 64, SerializeFloat64)
		if math.Float64bits(got) != math.Float64bits(v) {
			t.Fatalf("%v: got %v", v, got)
		}
	}
}

func TestSerializeCompressedFloat(t *testing.T) {
	tests := []struct {
		name          string
		v             float64
		min, max, res float64
		bits          int
		want          float64 // expected decoded value
		tol           float64
	}{
		// [-1, 1] at 0.01: 200 steps, 8 bits, ends exact.
		{"min exact", -1, -1, 1, 0.01, 8, -1, 0},
		{"max exact", 1, -1, 1, 0.01, 8, 1, 0},
		{"zero", 0, -1, 1, 0.01, 8, 0, 1e-12},
		{"over half a step rounds up", 0.0051, -1, 1, 0.01, 8, 0.01, 1e-12},
		{"just under half a step", 0.0049, -1, 1, 0.01, 8, 0, 1e-12},
		{"clamped below", -7, -1, 1, 0.01, 8, -1, 0},
		{"clamped above", 7, -1, 1, 0.01, 8, 1, 0},
		{"+inf clamps", math.Inf(1), -1, 1, 0.01, 8, 1, 0},
		{"-inf clamps", math.Inf(-1), -1, 1, 0.01, 8, -1, 0},
		// [0, 32) at 1/512: 16384 steps need 15 bits (0..16384).
		{"z range", 3.14159, 0, 32, 1.0 / 512, 15, 3.14159, 1.0 / 1024},
		// A resolution that does not divide the range: ceil(10/3) = 4 steps,
		// so the real step is 2.5 (finer than asked).
		{"uneven steps", 4.9, 0, 10, 3, 3, 5, 1e-12},
		{"negative range", -20.26, -50, -10, 0.1, 9, -20.3, 1e-9},
		{"one step", 0.7, 0, 1, 5, 1, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := roundTrip(t, tc.v, tc.bits, func(s Stream, p *float64) error {
				return serializeCompressedFloat(s, p, tc.min, tc.max, tc.res)
			})
			if math.Abs(got-tc.want) > tc.tol {
				t.Fatalf("got %v, want %v ± %v", got, tc.want, tc.tol)
			}
			if got < tc.min || got > tc.max {
				t.Fatalf("decoded %v outside [%v, %v]", got, tc.min, tc.max)
			}
		})
	}
}

func TestCompressedFloatErrorBound(t *testing.T) {
	// Inside the range the error is at most half a step, never more than
	// half the resolution.
	rng := NewRNG(7)
	const min, max, res = -256.0, 256.0, 1.0 / 512
	steps := CompressedFloatSteps(min, max, res)
	step := (max - min) / float64(steps)
	if step > res {
		t.Fatalf("step %v coarser than resolution %v", step, res)
	}
	for range 10000 {
		x := min + rng.Float64()*(max-min)
		d := DequantizeFloat(QuantizeFloat(x, min, max, steps), min, max, steps)
		if e := math.Abs(d - x); e > step/2+1e-12 {
			t.Fatalf("x=%v: error %v > half step %v", x, e, step/2)
		}
	}
}

func TestSerializeAlign(t *testing.T) {
	type aligned struct {
		A uint32 // 3 bits
		B uint16
	}
	ser := func(s Stream, p *aligned) error {
		if err := SerializeBits(s, &p.A, 3); err != nil {
			return err
		}
		if err := serializeAlign(s); err != nil {
			return err
		}
		if err := serializeAlign(s); err != nil { // already aligned: no-op
			return err
		}
		return SerializeUint16(s, &p.B)
	}
	v := aligned{A: 5, B: 0xA55A}
	if got := roundTrip(t, v, 8+16, ser); got != v {
		t.Fatalf("got %+v", got)
	}
	// Reading garbage in the padding fails.
	r := NewReadStream([]byte{0xFD, 0x5A, 0xA5})
	var out aligned
	if err := ser(r, &out); !errors.Is(err, ErrBadPadding) {
		t.Fatalf("err = %v", err)
	}
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		name string
		run  func(s Stream) error
		want error
	}{
		{"write value above range", func(s Stream) error { v := int32(901); return SerializeInt(s, &v, 0, 900) }, ErrValueOutOfRange},
		{"write value below range", func(s Stream) error { v := -11; return SerializeInt(s, &v, -10, 10) }, ErrValueOutOfRange},
		{"write int64 far outside", func(s Stream) error { v := int64(1 << 50); return SerializeInt(s, &v, 0, 10) }, ErrValueOutOfRange},
		{"empty range", func(s Stream) error { v := 0; return SerializeInt(s, &v, 1, 0) }, ErrInvalidRange},
		{"range wider than 32 bits", func(s Stream) error { v := int64(0); return SerializeInt(s, &v, 0, 1<<32) }, ErrInvalidRange},
		{"0 bits", func(s Stream) error { v := uint32(0); return SerializeBits(s, &v, 0) }, ErrInvalidBits},
		{"33 bits", func(s Stream) error { v := uint32(0); return SerializeBits(s, &v, 33) }, ErrInvalidBits},
		{"value wider than bits", func(s Stream) error { v := uint32(8); return SerializeBits(s, &v, 3) }, ErrValueOutOfRange},
		{"compressed NaN", func(s Stream) error { v := math.NaN(); return serializeCompressedFloat(s, &v, 0, 1, 0.1) }, ErrValueOutOfRange},
		{"compressed bad range", func(s Stream) error { v := 0.0; return serializeCompressedFloat(s, &v, 1, 1, 0.1) }, ErrInvalidRange},
		{"compressed bad resolution", func(s Stream) error { v := 0.0; return serializeCompressedFloat(s, &v, 0, 1, 0) }, ErrInvalidRange},
		{"compressed too many steps", func(s Stream) error { v := 0.0; return serializeCompressedFloat(s, &v, 0, 1, 1e-12) }, ErrInvalidRange},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, s := range []Stream{NewWriteStream(make([]byte, 16)), NewMeasureStream()} {
				if err := tc.run(s); !errors.Is(err, tc.want) {
					t.Fatalf("%T: err = %v, want %v", s, err, tc.want)
				}
				if s.BitsProcessed() != 0 {
					t.Fatalf("%T: a failed call counted %d bits", s, s.BitsProcessed())
				}
			}
		})
	}
}

func TestReadStreamErrors(t *testing.T) {
	// 10 bits of ones: 1023, above the range [0, 900] that 10 bits encode.
	w := NewWriteStream(make([]byte, 8))
	v := uint32(1023)
	_ = SerializeBits(w, &v, 10)
	r := NewReadStream(w.Bytes())
	idx := int32(42)
	if err := SerializeInt(r, &idx, 0, 900); !errors.Is(err, ErrValueOutOfRange) {
		t.Fatalf("out of range read: %v", err)
	}
	if idx != 42 {
		t.Fatalf("a failed read stored %d", idx)
	}

	// Past the end.
	r = NewReadStream(nil)
	b := true
	if err := SerializeBool(r, &b); !errors.Is(err, ErrEndOfData) || !b {
		t.Fatalf("read from empty: %v, %v", err, b)
	}

	// The read stream ignores what the destination held before.
	w = NewWriteStream(make([]byte, 8))
	five := int32(5)
	_ = SerializeInt(w, &five, 0, 10)
	r = NewReadStream(w.Bytes())
	garbage := int32(-999999)
	if err := SerializeInt(r, &garbage, 0, 10); err != nil || garbage != 5 {
		t.Fatalf("read into garbage: %d, %v", garbage, err)
	}
}

func TestStickyErrors(t *testing.T) {
	streams := []Stream{NewWriteStream(make([]byte, 1)), NewReadStream([]byte{0xFF}), NewMeasureStream()}
	for _, s := range streams {
		v := uint32(0xF)
		if err := SerializeBits(s, &v, 4); err != nil {
			t.Fatalf("%T: %v", s, err)
		}
		first := errors.New("first")
		if err := s.Fail(first); err != first {
			t.Fatalf("%T: Fail returned %v", s, err)
		}
		if err := s.Fail(errors.New("second")); err != first {
			t.Fatalf("%T: second Fail replaced the error: %v", s, err)
		}
		bits := s.BitsProcessed()
		b := false
		if err := SerializeBool(s, &b); err != first || b {
			t.Fatalf("%T: after error: %v, %v", s, err, b)
		}
		if err := s.SerializeAlign(); err != first {
			t.Fatalf("%T: align after error: %v", s, err)
		}
		if _, err := s.SerializeUint(1, 1); err != first {
			t.Fatalf("%T: SerializeUint after error: %v", s, err)
		}
		if s.BitsProcessed() != bits || s.Err() != first {
			t.Fatalf("%T: stream moved after error", s)
		}
	}
	// An error from the stream itself is sticky as well.
	w := NewWriteStream(make([]byte, 1))
	v := uint32(0x1FF)
	if err := SerializeBits(w, &v, 9); !errors.Is(err, ErrOverflow) {
		t.Fatalf("overflow: %v", err)
	}
	small := uint32(1)
	if err := SerializeBits(w, &small, 1); !errors.Is(err, ErrOverflow) {
		t.Fatalf("write after overflow: %v", err)
	}
	// Reset clears it.
	w.Reset(make([]byte, 4))
	if err := SerializeBits(w, &v, 9); err != nil || w.Err() != nil {
		t.Fatalf("after Reset: %v", err)
	}
}

func TestModes(t *testing.T) {
	tests := []struct {
		s                      Stream
		writing, reading, meas bool
	}{
		{NewWriteStream(nil), true, false, false},
		{NewReadStream(nil), false, true, false},
		{NewMeasureStream(), false, false, true},
	}
	for _, tc := range tests {
		if tc.s.IsWriting() != tc.writing || tc.s.IsReading() != tc.reading || tc.s.IsMeasuring() != tc.meas {
			t.Errorf("%T: modes wrong", tc.s)
		}
	}
}

func TestBitsRequired(t *testing.T) {
	tests := []struct {
		min, max int64
		want     int
	}{
		{0, 0, 0}, {0, 1, 1}, {-1, 0, 1}, {0, 2, 2}, {0, 3, 2}, {0, 4, 3},
		{0, 900, 10}, {-131072, 131071, 18}, {0, 16383, 14}, {0, 1<<32 - 1, 32},
		{0, 1 << 32, -1}, {5, 4, -1}, {math.MinInt64, math.MaxInt64, -1},
	}
	for _, tc := range tests {
		if got := BitsRequired(tc.min, tc.max); got != tc.want {
			t.Errorf("BitsRequired(%d, %d) = %d, want %d", tc.min, tc.max, got, tc.want)
		}
	}
}

func TestCategoryBreakdown(t *testing.T) {
	p := newSamplePacket()
	for _, s := range []Stream{NewWriteStream(make([]byte, 256)), NewMeasureStream()} {
		if err := p.Serialize(s); err != nil {
			t.Fatal(err)
		}
		b := s.Breakdown()
		want := Breakdown{
			CategoryHeader:      16 + 4 + 4,
			CategoryAcks:        1 + 16 + 32,
			CategoryIndices:     3 * 10,
			CategoryFlags:       3,
			CategoryOrientation: 3 * 29,
			CategoryOther:       3*10 + 10 + 32 + 7 + 16, // 7 bits of padding
		}
		if b != want {
			t.Fatalf("%T: breakdown %v, want %v", s, b, want)
		}
		if b.Total() != s.BitsProcessed() {
			t.Fatalf("%T: total %d != %d bits", s, b.Total(), s.BitsProcessed())
		}
	}
	// The read side attributes the same way.
	w := NewWriteStream(make([]byte, 256))
	_ = p.Serialize(w)
	r := NewReadStream(w.Bytes())
	var q samplePacket
	if err := q.Serialize(r); err != nil {
		t.Fatal(err)
	}
	if r.Breakdown() != w.Breakdown() {
		t.Fatalf("read breakdown %v != write %v", r.Breakdown(), w.Breakdown())
	}
}

func TestCategory(t *testing.T) {
	names := []struct {
		c    Category
		want string
	}{
		{CategoryHeader, "header"}, {CategoryAcks, "acks"}, {CategoryInput, "input"}, {CategoryIndices, "indices"},
		{CategoryFlags, "flags"}, {CategoryPosition, "position"}, {CategoryOrientation, "orientation"},
		{CategoryVelocity, "velocity"}, {CategoryOther, "other"}, {Category(NumCategories), "category(9)"},
	}
	for _, n := range names {
		if n.c.String() != n.want {
			t.Errorf("%d.String() = %q, want %q", n.c, n.c.String(), n.want)
		}
	}
	s := NewMeasureStream()
	if s.Category() != CategoryOther {
		t.Fatalf("default category %v", s.Category())
	}
	s.SetCategory(200) // invalid: charged to other, never out of bounds
	v := true
	_ = SerializeBool(s, &v)
	if b := s.Breakdown(); b[CategoryOther] != 1 {
		t.Fatalf("invalid category: %v", b)
	}
}

func TestSerializeZeroAllocs(t *testing.T) {
	p := newSamplePacket()
	buf := make([]byte, 256)
	w := NewWriteStream(buf)
	r := NewReadStream(nil)
	m := NewMeasureStream()
	var q samplePacket
	allocs := testing.AllocsPerRun(100, func() {
		w.Reset(buf)
		if err := p.Serialize(w); err != nil {
			t.Fatal(err)
		}
		r.Reset(w.Bytes())
		if err := q.Serialize(r); err != nil {
			t.Fatal(err)
		}
		m.Reset()
		if err := p.Serialize(m); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per write+read+measure", allocs)
	}
}

// otherStream is a Stream that is not one of the three built-in types, so
// the helpers must go through the interface (serializeOther and
// serializeRawOther) instead of the engine.
type otherStream struct{ Stream }

func TestOtherStreamImplementation(t *testing.T) {
	// The interface path must produce exactly the bits of the fast path,
	// including the grouped fields and their fallbacks for wide grids.
	type wide struct {
		pos  QuantizedVec3 // 31 + 31 + 27 bits: more than one 64-bit group
		quat QuantizedQuat // 2 + 3×25 bits
		vel  QuantizedVec3 // 3×24 bits
		snap QuantizedVec3 // 18 + 18 + 14 bits: one group
		q9   QuantizedQuat
	}
	ser := func(s Stream, p *wide) error {
		if err := SerializeQuantizedPosition(s, &p.pos, MaxPositionResolution); err != nil {
			return err
		}
		if err := SerializeQuantizedQuat(s, &p.quat, 25); err != nil {
			return err
		}
		if err := SerializeQuantizedVelocity(s, &p.vel, 24); err != nil {
			return err
		}
		if err := SerializeQuantizedPosition(s, &p.snap, SnapshotPositionResolution); err != nil {
			return err
		}
		return SerializeQuantizedQuat(s, &p.q9, SnapshotOrientationBits)
	}
	rng := NewRNG(4)
	for range 200 {
		in := wide{
			pos:  QuantizePosition(mgl64.Vec3{rng.Float64()*512 - 256, -256, 31.5}, MaxPositionResolution),
			quat: QuantizeQuat(randomQuat(&rng), 25),
			vel:  QuantizeVelocity(mgl64.Vec3{-32, rng.Float64()*64 - 32, 31.9}, VelocityBound, 24),
			snap: QuantizePosition(mgl64.Vec3{rng.Float64()*512 - 256, 255.99, 0}, SnapshotPositionResolution),
			q9:   QuantizeQuat(randomQuat(&rng), SnapshotOrientationBits),
		}
		const bits = 89 + 77 + 72 + 50 + 29
		fast := roundTrip(t, in, bits, ser)
		if fast != in {
			t.Fatalf("fast path: got %+v, want %+v", fast, in)
		}
		w := NewWriteStream(make([]byte, 64))
		if err := ser(w, &in); err != nil {
			t.Fatal(err)
		}
		ow := NewWriteStream(make([]byte, 64))
		if err := ser(otherStream{ow}, &in); err != nil {
			t.Fatal(err)
		}
		if string(w.Bytes()) != string(ow.Bytes()) {
			t.Fatalf("interface path wrote\n% x\nfast path\n% x", ow.Bytes(), w.Bytes())
		}
		var out wide
		or := NewReadStream(w.Bytes())
		if err := ser(otherStream{or}, &out); err != nil || out != in {
			t.Fatalf("interface path read %+v, %v", out, err)
		}
		om := NewMeasureStream()
		if err := ser(otherStream{om}, &in); err != nil || om.BitsProcessed() != bits {
			t.Fatalf("interface path measured %d, %v", om.BitsProcessed(), err)
		}
	}
	// Errors behave the same on both paths.
	for _, s := range []Stream{NewWriteStream(make([]byte, 8)), otherStream{NewWriteStream(make([]byte, 8))}} {
		bad := QuantizedQuat{Largest: 1, Small: [3]int32{257, 0, 0}} // above the top code, 256, at 9 bits
		if err := SerializeQuantizedQuat(s, &bad, 9); !errors.Is(err, ErrValueOutOfRange) {
			t.Fatalf("%T: %v", s, err)
		}
		v := int32(3)
		if err := SerializeInt(s, &v, 0, 2); !errors.Is(err, ErrValueOutOfRange) {
			t.Fatalf("%T: sticky: %v", s, err)
		}
	}
}
