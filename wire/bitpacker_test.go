package wire

import (
	"bytes"
	"errors"
	"testing"
)

type bitValue struct {
	v    uint32
	bits int
}

func TestBitWriterLayout(t *testing.T) {
	// The layout is the contract with the golden file and with anyone who
	// reads our packets: 32-bit little-endian words, filled from bit 0.
	tests := []struct {
		name   string
		values []bitValue
		want   []byte
	}{
		{"one bit", []bitValue{{1, 1}}, []byte{0x01}},
		{"low bits first", []bitValue{{1, 1}, {0, 1}, {3, 2}}, []byte{0x0d}},
		{"bytes in order", []bitValue{{0xAB, 8}, {0xCDEF, 16}, {0x12, 8}}, []byte{0xAB, 0xEF, 0xCD, 0x12}},
		{"32-bit value little-endian", []bitValue{{0xDEADBEEF, 32}}, []byte{0xEF, 0xBE, 0xAD, 0xDE}},
		{"value straddles words", []bitValue{{0xFFFFF, 20}, {0xABCDE, 20}}, []byte{0xFF, 0xFF, 0xEF, 0xCD, 0xAB}},
		{"two full words", []bitValue{{0x01020304, 32}, {0x05060708, 32}}, []byte{4, 3, 2, 1, 8, 7, 6, 5}},
		{"high bits of value ignored", []bitValue{{0xFF, 4}}, []byte{0x0F}},
		{"partial last byte", []bitValue{{0x3FF, 10}}, []byte{0xFF, 0x03}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			buf := make([]byte, 16)
			w := NewBitWriter(buf)
			total := 0
			for _, v := range tc.values {
				if err := w.WriteBits(v.v, v.bits); err != nil {
					t.Fatal(err)
				}
				total += v.bits
			}
			if w.BitsWritten() != total {
				t.Fatalf("BitsWritten = %d, want %d", w.BitsWritten(), total)
			}
			if got := w.Bytes(); !bytes.Equal(got, tc.want) {
				t.Fatalf("bytes = % x, want % x", got, tc.want)
			}
			r := NewBitReader(tc.want)
			for i, v := range tc.values {
				got, err := r.ReadBits(v.bits)
				if err != nil {
					t.Fatal(err)
				}
				if want := v.v & uint32(uint64(1)<<v.bits-1); got != want {
					t.Fatalf("value %d = %#x, want %#x", i, got, want)
				}
			}
		})
	}
}

func TestBitPackerRoundTripAllWidths(t *testing.T) {
	// Every width 1..32 at its edges, packed back to back so that values
	// straddle word boundaries at every possible offset.
	var values []bitValue
	for n := 1; n <= 32; n++ {
		maxv := uint32(uint64(1)<<n - 1)
		values = append(values, bitValue{0, n}, bitValue{maxv, n}, bitValue{maxv / 3, n}, bitValue{1, n})
	}
	buf := make([]byte, 1024)
	w := NewBitWriter(buf)
	for _, v := range values {
		if err := w.WriteBits(v.v, v.bits); err != nil {
			t.Fatal(err)
		}
	}
	data := w.Bytes()
	r := NewBitReader(data)
	for i, v := range values {
		got, err := r.ReadBits(v.bits)
		if err != nil || got != v.v {
			t.Fatalf("value %d (%d bits): got %#x, %v; want %#x", i, v.bits, got, err, v.v)
		}
	}
	if r.BitsRemaining() >= 8 {
		t.Fatalf("%d bits left over", r.BitsRemaining())
	}
}

func TestBitWriterErrors(t *testing.T) {
	buf := make([]byte, 2)
	w := NewBitWriter(buf)
	if err := w.WriteBits(0, 0); !errors.Is(err, ErrInvalidBits) {
		t.Fatalf("0 bits: %v", err)
	}
	if err := w.WriteBits(0, 33); !errors.Is(err, ErrInvalidBits) {
		t.Fatalf("33 bits: %v", err)
	}
	if err := w.WriteBits(0x1FF, 9); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBits(0xFF, 8); !errors.Is(err, ErrOverflow) {
		t.Fatalf("overflow: %v", err)
	}
	if w.BitsWritten() != 9 {
		t.Fatalf("a failed write wrote: %d bits", w.BitsWritten())
	}
	if err := w.WriteBits(0x7F, 7); err != nil {
		t.Fatalf("exact fit: %v", err)
	}
	if w.BitsAvailable() != 0 {
		t.Fatalf("BitsAvailable = %d", w.BitsAvailable())
	}
	if got := w.Bytes(); !bytes.Equal(got, []byte{0xFF, 0xFF}) {
		t.Fatalf("bytes = % x", got)
	}
}

func TestBitReaderErrors(t *testing.T) {
	r := NewBitReader([]byte{0xAB, 0xCD, 0xEF})
	if _, err := r.ReadBits(33); !errors.Is(err, ErrInvalidBits) {
		t.Fatalf("33 bits: %v", err)
	}
	if v, err := r.ReadBits(20); err != nil || v != 0xFCDAB {
		t.Fatalf("20 bits: %#x %v", v, err)
	}
	if _, err := r.ReadBits(5); !errors.Is(err, ErrEndOfData) {
		t.Fatalf("past end: %v", err)
	}
	if r.BitsRead() != 20 {
		t.Fatalf("a failed read consumed bits: %d", r.BitsRead())
	}
	if v, err := r.ReadBits(4); err != nil || v != 0xE {
		t.Fatalf("last 4 bits: %#x %v", v, err)
	}
	var empty BitReader
	if _, err := empty.ReadBits(1); !errors.Is(err, ErrEndOfData) {
		t.Fatalf("empty: %v", err)
	}
}

func TestBitPackerAlign(t *testing.T) {
	buf := make([]byte, 8)
	w := NewBitWriter(buf)
	_ = w.WriteBits(5, 3)
	if w.AlignBits() != 5 {
		t.Fatalf("AlignBits = %d", w.AlignBits())
	}
	if err := w.WriteAlign(); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteAlign(); err != nil || w.BitsWritten() != 8 {
		t.Fatalf("aligned twice: %d bits, %v", w.BitsWritten(), err)
	}
	_ = w.WriteBits(0xAA, 8)
	data := w.Bytes()
	if !bytes.Equal(data, []byte{0x05, 0xAA}) {
		t.Fatalf("bytes = % x", data)
	}
	r := NewBitReader(data)
	if v, _ := r.ReadBits(3); v != 5 {
		t.Fatalf("v = %d", v)
	}
	if err := r.ReadAlign(); err != nil || r.BitsRead() != 8 {
		t.Fatalf("ReadAlign: %d bits, %v", r.BitsRead(), err)
	}
	// Non-zero padding means the reader is out of step with the writer.
	r = NewBitReader([]byte{0xFF})
	_, _ = r.ReadBits(3)
	if err := r.ReadAlign(); !errors.Is(err, ErrBadPadding) {
		t.Fatalf("bad padding: %v", err)
	}
}
