package wire

import (
	"errors"
	"math"
	"testing"
)

// The fuzz targets feed arbitrary bytes to the read path. Whatever the
// bytes, decoding must end in an error or a valid value, never a panic, and
// never allocate in proportion to a number it read.

// FuzzReadStream runs a program of primitive reads (chosen by ops) over data
// and checks the stream's invariants after every step.
func FuzzReadStream(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7}, []byte{0xFF, 0x00, 0xAA, 0x55, 0x12, 0x34, 0x56, 0x78, 0x9A})
	f.Add([]byte{8, 9, 10, 11}, []byte{})
	f.Add([]byte{5, 5, 5, 5, 5}, []byte{0x01})
	f.Add([]byte{31, 32, 63, 200}, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, ops, data []byte) {
		r := NewReadStream(data)
		var sticky error
		for _, op := range ops {
			before := r.BitsProcessed()
			var err error
			switch op % 14 {
			case 0:
				var v uint32
				err = SerializeBits(r, &v, int(op/14)%32+1)
			case 1:
				var v bool
				err = SerializeBool(r, &v)
			case 2:
				v := int32(-5)
				err = SerializeInt(r, &v, 0, 900)
				if err == nil && (v < 0 || v > 900) {
					t.Fatalf("int %d outside [0, 900]", v)
				}
			case 3:
				var v int64
				err = SerializeInt(r, &v, -1000, -3)
				if err == nil && (v < -1000 || v > -3) {
					t.Fatalf("int %d outside [-1000, -3]", v)
				}
			case 4:
				var v uint16
				err = SerializeUint16(r, &v)
			case 5:
				var v uint32
				err = SerializeUint32(r, &v)
			case 6:
				var v float32
				err = SerializeFloat32(r, &v)
			case 7:
				var v float64
				err = serializeCompressedFloat(r, &v, -2, 3, 0.01)
				if err == nil && !(v >= -2 && v <= 3) {
					t.Fatalf("compressed float %v outside [-2, 3]", v)
				}
			case 8:
				err = serializeAlign(r)
			case 9:
				var q QuantizedQuat
				err = SerializeQuantizedQuat(r, &q, SnapshotOrientationBits)
				if err == nil {
					d := DequantizeQuat(q, SnapshotOrientationBits)
					if math.Abs(d.Len()-1) > 1e-9 {
						t.Fatalf("quaternion length %v", d.Len())
					}
				}
			case 10:
				var p QuantizedVec3
				err = SerializeQuantizedPosition(r, &p, SnapshotPositionResolution)
			case 11:
				var v uint64
				err = SerializeUint64(r, &v)
			case 12:
				var v QuantizedVec3
				err = SerializeQuantizedVelocity(r, &v, SnapshotVelocityBits)
				if err == nil {
					for _, c := range v {
						if c < -1024 || c > 1023 {
							t.Fatalf("velocity %v", v)
						}
					}
				}
			case 13:
				var q QuantizedQuat
				err = SerializeQuantizedQuat(r, &q, 25) // wider than one 64-bit group
			}
			if sticky != nil {
				if err != sticky || r.BitsProcessed() != before {
					t.Fatalf("error not sticky: %v after %v", err, sticky)
				}
				continue
			}
			if err != nil {
				if !errors.Is(err, ErrEndOfData) && !errors.Is(err, ErrValueOutOfRange) && !errors.Is(err, ErrBadPadding) {
					t.Fatalf("unexpected error %v", err)
				}
				sticky = err
				continue
			}
			if r.BitsProcessed() > len(data)*8 || r.BitsProcessed()+r.BitsRemaining() != len(data)*8 {
				t.Fatalf("read %d bits of %d", r.BitsProcessed(), len(data)*8)
			}
			if b := r.Breakdown(); b.Total() != r.BitsProcessed() {
				t.Fatalf("breakdown %d != %d", b.Total(), r.BitsProcessed())
			}
		}
	})
}

// FuzzSamplePacket decodes arbitrary bytes as a sample packet. A packet that
// decodes must re-encode to the same bits it was read from.
func FuzzSamplePacket(f *testing.F) {
	p := newSamplePacket()
	w := NewWriteStream(make([]byte, 256))
	_ = p.Serialize(w)
	f.Add(append([]byte(nil), w.Bytes()...))
	f.Add([]byte{})
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	q := samplePacket{Header: AckHeader{Sequence: 9}, NumItems: 0, Offset: -10}
	w.Reset(make([]byte, 256))
	_ = q.Serialize(w)
	f.Add(append([]byte(nil), w.Bytes()...))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p samplePacket
		r := NewReadStream(data)
		if err := p.Serialize(r); err != nil {
			return
		}
		if p.NumItems < 0 || p.NumItems > sampleMaxItems || p.Kind > 9 || p.Offset < -1000 || p.Offset > -10 {
			t.Fatalf("decoded invalid packet %+v", p)
		}
		n := r.BitsProcessed()
		out := make([]byte, 256)
		w := NewWriteStream(out)
		if err := p.Serialize(w); err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if w.BitsProcessed() != n {
			t.Fatalf("re-encoded %d bits, read %d", w.BitsProcessed(), n)
		}
		// Same bits: compare the whole bytes, then the partial last byte.
		got := w.Bytes()
		for i := range n / 8 {
			if got[i] != data[i] {
				t.Fatalf("byte %d: %#x, read from %#x", i, got[i], data[i])
			}
		}
		if rem := n % 8; rem != 0 {
			mask := byte(1)<<rem - 1
			if got[n/8]&mask != data[n/8]&mask {
				t.Fatal("last bits differ")
			}
		}
		m := NewMeasureStream()
		if err := p.Serialize(m); err != nil || m.BitsProcessed() != n {
			t.Fatalf("measure: %d bits, %v", m.BitsProcessed(), err)
		}
	})
}
