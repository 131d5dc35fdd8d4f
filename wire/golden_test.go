package wire

import (
	"testing"

	"netcubes/internal/testutil"
)

// TestSamplePacketGolden pins the wire format: the sample packet must write
// exactly the bytes of testdata/sample_packet.golden (regenerate with
// go test ./wire/ -run Golden -update after an intended format change), read
// back to the same values, and measure to the same size.
func TestSamplePacketGolden(t *testing.T) {
	p := newSamplePacket()
	w := NewWriteStream(make([]byte, 256))
	if err := p.Serialize(w); err != nil {
		t.Fatal(err)
	}
	want := testutil.Golden(t, "sample_packet.golden", w.Bytes())
	if w.BitsProcessed() != sampleBits() || len(want) != BitsToBytes(sampleBits()) {
		t.Fatalf("wrote %d bits (%d bytes), want %d", w.BitsProcessed(), len(want), sampleBits())
	}

	m := NewMeasureStream()
	mp := newSamplePacket()
	if err := mp.Serialize(m); err != nil {
		t.Fatal(err)
	}
	if m.BitsProcessed() != w.BitsProcessed() || m.bytesProcessed() != len(want) {
		t.Fatalf("measured %d bits, wrote %d", m.BitsProcessed(), w.BitsProcessed())
	}

	var back samplePacket
	r := NewReadStream(want)
	if err := back.Serialize(r); err != nil {
		t.Fatal(err)
	}
	if back != p {
		t.Fatalf("read\n%+v\nwant\n%+v", back, p)
	}
	if r.BitsRemaining() != 0 {
		t.Fatalf("%d bits unread", r.BitsRemaining())
	}
}

func TestSamplePacketRejectsAbsurdCount(t *testing.T) {
	// A count above the maximum is an error, not an allocation or a panic.
	w := NewWriteStream(make([]byte, 64))
	h := AckHeader{Sequence: 1}
	_ = h.Serialize(w)
	kind := uint32(1)
	_ = SerializeBits(w, &kind, 4)
	count := uint32(15) // 4 bits hold up to 15; the maximum is 8
	_ = SerializeBits(w, &count, 4)
	var p samplePacket
	if err := p.Serialize(NewReadStream(w.Bytes())); err != ErrValueOutOfRange {
		t.Fatalf("err = %v", err)
	}
	if p.NumItems != 0 {
		t.Fatalf("NumItems = %d stored", p.NumItems)
	}
}
