package wire

import (
	"errors"
	"testing"
)

// These tests guard the streams' fast paths (putFast, takeFast, countFast,
// and the helpers that run them inline). The fast paths work on 64-bit words
// and skip checks that the slow paths make; they must give exactly the bits
// and the errors of the plain code, and a read of any bytes must end in an
// error or a value, never a panic.

// refBits is a reference bit writer and reader, one bit at a time, that
// shares no code with the bitpacker: bit k of the packet is bit k%8 of byte
// k/8, the documented layout.
type refBits struct {
	data []byte
	n    int // bits written, or the read position
}

func (r *refBits) put(v uint64, n int) {
	for i := range n {
		if r.n%8 == 0 {
			r.data = append(r.data, 0)
		}
		r.data[r.n/8] |= byte(v>>uint(i)&1) << uint(r.n%8)
		r.n++
	}
}

func (r *refBits) get(n int) uint64 {
	var v uint64
	for i := range n {
		v |= uint64(r.data[r.n/8]>>uint(r.n%8)&1) << uint(i)
		r.n++
	}
	return v
}

// rawField is one field of a random layout: a raw field of n bits (0..64)
// when max is 0, else a ranged field in [0, max].
type rawField struct {
	v   uint64
	n   int
	max uint64
}

// randomFields returns a layout of count fields whose widths and values
// cover every width and the edges of each range.
func randomFields(rng *RNG, count int) []rawField {
	fs := make([]rawField, count)
	for i := range fs {
		r := rng.Uint64()
		if r%3 == 0 {
			// A ranged field: max is any value up to 32 bits.
			w := int(r>>2%33) + 0
			max := rng.Uint64() & (1<<uint(w) - 1)
			if w > 0 {
				max |= 1 << uint(w-1) // exactly w bits
			}
			v := rng.Uint64() % (max + 1)
			if r>>8%4 == 0 {
				v = max
			}
			fs[i] = rawField{v: v, n: BitsRequired(uint64(0), max), max: max}
			if max == 0 {
				fs[i].max = 0
				fs[i].n = 0
				fs[i].v = 0
			}
			continue
		}
		n := int(r >> 2 % 65)
		v := rng.Uint64()
		if r>>9%4 == 0 {
			v = ^uint64(0) // all ones: the mask matters
		}
		fs[i] = rawField{v: v & (1<<uint(n) - 1), n: n}
	}
	return fs
}

// serializeFields runs the layout on s: ranged fields through serialize,
// raw ones through serializeRaw, storing what was read into got.
func serializeFields(s Stream, fs []rawField, got []uint64) error {
	for i, f := range fs {
		if f.max != 0 {
			v, err := serialize(s, f.v, f.max)
			if err != nil {
				return err
			}
			got[i] = uint64(v)
			continue
		}
		v, err := serializeRaw(s, f.v, f.n)
		if err != nil {
			return err
		}
		got[i] = v
	}
	return nil
}

func TestFastPathsMatchReferenceBits(t *testing.T) {
	rng := NewRNG(15)
	for round := range 300 {
		fs := randomFields(&rng, 1+round%40)
		var ref refBits
		for _, f := range fs {
			ref.put(f.v, f.n)
		}
		// An exact-size buffer, so the last fields are written and read
		// near the end of the slice, where the 8-byte paths cannot run.
		buf := make([]byte, len(ref.data))
		w := NewWriteStream(buf)
		got := make([]uint64, len(fs))
		if err := serializeFields(w, fs, got); err != nil {
			t.Fatalf("round %d: write: %v", round, err)
		}
		if string(w.Bytes()) != string(ref.data) {
			t.Fatalf("round %d: wrote\n% x\nwant\n% x", round, w.Bytes(), ref.data)
		}
		m := NewMeasureStream()
		if err := serializeFields(m, fs, got); err != nil || m.BitsProcessed() != ref.n {
			t.Fatalf("round %d: measured %d bits, %v; want %d", round, m.BitsProcessed(), err, ref.n)
		}
		r := NewReadStream(ref.data)
		if err := serializeFields(r, fs, got); err != nil {
			t.Fatalf("round %d: read: %v", round, err)
		}
		ref.n = 0
		for i, f := range fs {
			if want := ref.get(f.n); got[i] != want || got[i] != f.v {
				t.Fatalf("round %d field %d (%d bits): read %#x, reference %#x, wrote %#x", round, i, f.n, got[i], want, f.v)
			}
		}
		if r.BitsProcessed() != ref.n || r.BitsRemaining() != len(ref.data)*8-ref.n {
			t.Fatalf("round %d: read %d bits, %d left", round, r.BitsProcessed(), r.BitsRemaining())
		}
		// The BitReader, which has its own entry to the same code, reads
		// the fields of 1..32 bits.
		br := NewBitReader(ref.data)
		for i, f := range fs {
			if f.n < 1 || f.n > 32 {
				br.bitsRead += f.n
				continue
			}
			if v, err := br.ReadBits(f.n); err != nil || uint64(v) != f.v {
				t.Fatalf("round %d field %d: BitReader read %#x, %v", round, i, v, err)
			}
		}
	}
}

// cubeFields is a few cubes' worth of the snapshot fields, plus the helpers
// that share the fast paths, serialized with one Serialize method.
type cubeFields struct {
	cubes [12]cubeState
	vel   QuantizedVec3
	wide  QuantizedVec3 // 21 + 21 + 17 bits: a 59-bit group
	q15   QuantizedQuat // 47 bits
}

func (p *cubeFields) Serialize(s Stream) error {
	if err := serializeCubeStates(s, p.cubes[:]); err != nil {
		return err
	}
	s.SetCategory(CategoryVelocity)
	if err := SerializeQuantizedVelocity(s, &p.vel, SnapshotVelocityBits); err != nil {
		return err
	}
	s.SetCategory(CategoryPosition)
	if err := SerializeQuantizedPosition(s, &p.wide, StateSyncPositionResolution); err != nil {
		return err
	}
	s.SetCategory(CategoryOrientation)
	return SerializeQuantizedQuat(s, &p.q15, StateSyncOrientationBits)
}

const cubeFieldsBits = 12*80 + 33 + 59 + 47

func TestFastPathsMatchInterfacePath(t *testing.T) {
	// otherStream (stream_test.go) hides the built-in type, so every
	// helper takes the plain path through SerializeUint: the reference
	// for the bits, the values read, the errors and the breakdown.
	rng := NewRNG(16)
	full := newCubePacket(3)
	for round := range 50 {
		var p cubeFields
		copy(p.cubes[:], full.Cubes[round:])
		p.vel = QuantizedVec3{int32(rng.Uint64()%2048) - 1024, -1024, 1023}
		p.wide = QuantizedVec3{-1 << 20, 1<<20 - 1, int32(rng.Uint64() % (1 << 17))}
		p.q15 = QuantizedQuat{Largest: uint8(round % 4), Small: [3]int32{16383, -16383, int32(rng.Uint64()%32767) - 16383}}

		buf := make([]byte, BitsToBytes(cubeFieldsBits))
		w := NewWriteStream(buf)
		if err := p.Serialize(w); err != nil {
			t.Fatal(err)
		}
		ow := NewWriteStream(make([]byte, len(buf)))
		if err := p.Serialize(otherStream{ow}); err != nil {
			t.Fatal(err)
		}
		if string(w.Bytes()) != string(ow.Bytes()) || w.Breakdown() != ow.Breakdown() {
			t.Fatalf("round %d: fast path wrote\n% x\ninterface path\n% x", round, w.Bytes(), ow.Bytes())
		}
		if w.BitsProcessed() != cubeFieldsBits {
			t.Fatalf("wrote %d bits", w.BitsProcessed())
		}
		m := NewMeasureStream()
		if err := p.Serialize(m); err != nil || m.Breakdown() != w.Breakdown() {
			t.Fatalf("measure: %v, %v", m.Breakdown(), err)
		}

		// Every truncation of the packet, and a corrupted copy of each:
		// both paths must read the same values and fail with the same
		// error at the same bit, and neither may panic.
		data := w.Bytes()
		bad := append([]byte(nil), data...)
		for i := range bad {
			bad[i] ^= byte(rng.Uint64()) | 0x80
		}
		for end := 0; end <= len(data); end++ {
			for k, src := range [][]byte{data[:end], bad[:end]} {
				var fast, slow cubeFields
				fast.q15.Largest = 9 // destinations holding anything
				slow.q15.Largest = 9
				r := NewReadStream(src)
				or := NewReadStream(src)
				errFast := fast.Serialize(r)
				errSlow := slow.Serialize(otherStream{or})
				// (After an error the positions may differ: the
				// interface path sends a group of more than 32 bits
				// as two calls, and the first may succeed.)
				if errFast != errSlow || fast != slow || errFast == nil && (r.BitsProcessed() != or.BitsProcessed() || r.Breakdown() != or.Breakdown()) {
					t.Fatalf("round %d, %d bytes: fast path %v at bit %d, interface path %v at bit %d",
						round, end, errFast, r.BitsProcessed(), errSlow, or.BitsProcessed())
				}
				if errFast != nil {
					// The error is sticky: reading on returns it
					// and reads nothing.
					before, q := r.BitsProcessed(), fast
					if err := q.Serialize(r); err != errFast || r.BitsProcessed() != before || q != fast {
						t.Fatalf("round %d, %d bytes: after %v, read on: %v", round, end, errFast, err)
					}
				}
				if k == 0 && end < len(data) && !errors.Is(errFast, ErrEndOfData) {
					t.Fatalf("round %d: %d of %d bytes read with %v", round, end, len(data), errFast)
				}
				if k == 0 && end == len(data) && (errFast != nil || fast != p) {
					t.Fatalf("round %d: read back %v", round, errFast)
				}
			}
		}
	}
}

func TestFastPathsWriteErrors(t *testing.T) {
	// Writing into every buffer too short for the packet fails with
	// ErrOverflow on both paths, having written a prefix of the packet,
	// and the error is sticky: later fields change nothing.
	p := cubeFields{}
	copy(p.cubes[:], newCubePacket(5).Cubes[:])
	full := NewWriteStream(make([]byte, BitsToBytes(cubeFieldsBits)))
	if err := p.Serialize(full); err != nil {
		t.Fatal(err)
	}
	for size := range BitsToBytes(cubeFieldsBits) {
		w := NewWriteStream(make([]byte, size))
		ow := NewWriteStream(make([]byte, size))
		err, oerr := p.Serialize(w), p.Serialize(otherStream{ow})
		// The fast path stops before the field that does not fit; the
		// interface path may first send the low 32 bits of a group.
		if !errors.Is(err, ErrOverflow) || err != oerr || w.BitsProcessed() > ow.BitsProcessed() || ow.BitsProcessed() > size*8 {
			t.Fatalf("%d bytes: %v at bit %d, interface path %v at bit %d", size, err, w.BitsProcessed(), oerr, ow.BitsProcessed())
		}
		whole := w.BitsProcessed() / 8
		if got := w.Bytes(); string(got[:whole]) != string(full.Bytes()[:whole]) {
			t.Fatalf("%d bytes: wrote % x, not a prefix of the packet", size, got)
		}
		before := w.BitsProcessed()
		v := true
		if err := SerializeBool(w, &v); err != ErrOverflow || w.BitsProcessed() != before {
			t.Fatalf("not sticky: %v", err)
		}
	}
	// A value out of range is refused on the fast path as on the plain
	// one, before any of its bits are written.
	for _, tc := range []struct {
		bad cubeState
		at  int // the bit where the bad field starts
	}{
		{cubeState{Orientation: QuantizedQuat{Largest: 4}}, 3*80 + 1},
		{cubeState{Orientation: QuantizedQuat{Small: [3]int32{0, 257, 0}}}, 3*80 + 1}, // 256 is the top code (SmallestThreeLimits)
		{cubeState{Position: QuantizedVec3{0, 0, -1}}, 3*80 + 30},
		{cubeState{Position: QuantizedVec3{1 << 17, 0, 0}}, 3*80 + 30},
	} {
		q := cubeFields{}
		q.cubes[3] = tc.bad
		for _, s := range []Stream{NewWriteStream(make([]byte, 256)), NewMeasureStream()} {
			if err := q.Serialize(s); !errors.Is(err, ErrValueOutOfRange) || s.BitsProcessed() != tc.at {
				t.Fatalf("%T %+v: %v at bit %d", s, tc.bad, err, s.BitsProcessed())
			}
		}
	}
}
