package wire

import (
	"errors"
	"testing"
)

func TestAckHeaderSerialize(t *testing.T) {
	tests := []struct {
		name string
		h    AckHeader
		bits int
	}{
		{"nothing received yet", AckHeader{Sequence: 7}, 17},
		{"acks", AckHeader{Sequence: 65535, HasAck: true, Ack: 0, AckBits: 0xFFFFFFFF}, 65},
		{"sparse acks", AckHeader{Sequence: 1, HasAck: true, Ack: 40000, AckBits: 0x80000001}, 65},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := roundTrip(t, tc.h, tc.bits, func(s Stream, h *AckHeader) error { return h.Serialize(s) })
			if got != tc.h {
				t.Fatalf("got %+v, want %+v", got, tc.h)
			}
			m := NewMeasureStream()
			h := tc.h
			_ = h.Serialize(m)
			b := m.Breakdown()
			if b[CategoryHeader] != 16 || b[CategoryAcks] != tc.bits-16 {
				t.Fatalf("breakdown %v", b)
			}
		})
	}
	// Without "has ack", whatever the destination held is cleared.
	w := NewWriteStream(make([]byte, 16))
	h := AckHeader{Sequence: 3}
	_ = h.Serialize(w)
	out := AckHeader{Ack: 9, AckBits: 9}
	if err := out.Serialize(NewReadStream(w.Bytes())); err != nil || out != (AckHeader{Sequence: 3}) {
		t.Fatalf("got %+v, %v", out, err)
	}
	// A truncated header is an error.
	h = AckHeader{Sequence: 3, HasAck: true, Ack: 2, AckBits: 1}
	w.Reset(make([]byte, 16))
	_ = h.Serialize(w)
	if err := out.Serialize(NewReadStream(w.Bytes()[:6])); !errors.Is(err, ErrEndOfData) {
		t.Fatalf("truncated: %v", err)
	}
}

func TestEndpointSkipTo(t *testing.T) {
	left := NewEndpoint(DefaultEndpointConfig())
	right := NewEndpoint(DefaultEndpointConfig())
	// Send every sixth frame, as a 10 Hz snapshot sender does, with the
	// frame as the sequence, across the wrap.
	var sent []uint16
	for f := 65500; f < 65500+120; f += 6 {
		left.SkipTo(uint16(f))
		seq := left.Sent(Tick(f), 10)
		if seq != uint16(f) {
			t.Fatalf("sent sequence %d, want %d", seq, uint16(f))
		}
		sent = append(sent, seq)
		if _, fresh := right.Received(Tick(f), AckHeader{Sequence: seq}, 10); !fresh {
			t.Fatalf("frame %d not fresh", f)
		}
		acked, _ := left.Received(Tick(f), right.Header(), 0)
		if len(acked) != 1 || acked[0] != seq {
			t.Fatalf("frame %d: acked %v, want [%d]", f, acked, seq)
		}
	}
	left.SkipTo(sent[0]) // backwards: ignored
	if got := left.Header().Sequence; got != sent[len(sent)-1]+1 {
		t.Errorf("SkipTo backwards moved the next sequence to %d", got)
	}
	if loss := left.PacketLoss(); loss != 0 {
		t.Errorf("gaps in the sequence counted as loss: %v", loss)
	}
}

func TestEndpointIsFresh(t *testing.T) {
	e := NewEndpoint(DefaultEndpointConfig())
	if !e.IsFresh(5) {
		t.Fatal("nothing received yet, but 5 is not fresh")
	}
	if !e.IsFresh(5) || e.Header().HasAck {
		t.Fatal("IsFresh must not record the packet")
	}
	e.Received(1, AckHeader{Sequence: 5}, 10)
	if e.IsFresh(5) {
		t.Error("a received sequence is still fresh")
	}
	if !e.IsFresh(4) {
		t.Error("an older sequence not yet received should be fresh (reordering)")
	}
	e.Received(300, AckHeader{Sequence: 1000}, 10) // 995 ahead after 299 ticks: within reach
	if e.IsFresh(5) || e.IsFresh(1000-uint16(e.config().ReceivedPackets)-1) {
		t.Error("sequences too old to track should not be fresh")
	}
}

// TestEndpointRefusesImpossibleHeaders: one forged header must not move the
// received window past the real packets, nor ack what was never sent.
func TestEndpointRefusesImpossibleHeaders(t *testing.T) {
	tests := []struct {
		name string
		h    AckHeader
	}{
		{"sequence far ahead", AckHeader{Sequence: 10 + 30000}},
		{"sequence just past reach", AckHeader{Sequence: 10 + 64 + 4*5 + 1}},
		{"ack of a sequence never sent", AckHeader{Sequence: 11, HasAck: true, Ack: 200}},
		{"ack far in the past", AckHeader{Sequence: 11, HasAck: true, Ack: 65536 + 100 - 2000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEndpoint(EndpointConfig{InitialSequence: 100})
			for tick := Tick(0); tick < 100; tick++ {
				e.Sent(tick, 50)
			}
			e.Received(95, AckHeader{Sequence: 10}, 10)
			before := e.Header()
			if _, fresh := e.Received(100, tc.h, 23); fresh || e.Stats().Refused != 1 {
				t.Fatalf("fresh %v, refused %d", fresh, e.Stats().Refused)
			}
			if e.Header() != before || e.Stats().Acked != 0 {
				t.Fatalf("a refused header changed the endpoint: %+v → %+v", before, e.Header())
			}
			// The real next packet is still fresh and its acks count.
			acked, fresh := e.Received(101, AckHeader{Sequence: 11, HasAck: true, Ack: 150}, 10)
			if !fresh || len(acked) != 1 || acked[0] != 150 {
				t.Fatalf("the real packet after the forged one: fresh %v acked %v", fresh, acked)
			}
		})
	}
	// Reach grows with silence: after 10 s without packets, 600 ahead is fine.
	e := NewEndpoint(DefaultEndpointConfig())
	e.Received(0, AckHeader{Sequence: 10}, 10)
	if _, fresh := e.Received(600, AckHeader{Sequence: 610}, 10); !fresh {
		t.Fatal("a sender back after a 10 s outage was refused")
	}
}
