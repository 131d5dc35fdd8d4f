package wire_test

import (
	"errors"
	"testing"

	"netcubes/wire"
	"netcubes/wire/wiretest"
)

// FuzzAckHeader decodes arbitrary bytes as an ack header and feeds it to an
// endpoint that has sent packets: whatever the header claims, the endpoint
// only reports sequences it sent, each at most once.
func FuzzAckHeader(f *testing.F) {
	f.Add([]byte{0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Add([]byte{0x00, 0x00})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var h wire.AckHeader
		r := wire.NewReadStream(data)
		if err := h.Serialize(r); err != nil {
			if !errors.Is(err, wire.ErrEndOfData) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !h.HasAck && (h.Ack != 0 || h.AckBits != 0) {
			t.Fatalf("no ack but fields set: %+v", h)
		}
		e := wire.NewEndpoint(wire.DefaultEndpointConfig())
		for tick := range wire.Tick(40) {
			e.Sent(tick, 10)
		}
		seen := map[uint16]bool{}
		for range 2 { // the second time acks nothing new
			acked, _ := e.Received(40, h, len(data))
			for _, seq := range acked {
				if seq >= 40 || seen[seq] || !wiretest.Acked(h, seq) {
					t.Fatalf("acked %d (seen %v) from %+v", seq, seen[seq], h)
				}
				seen[seq] = true
			}
		}
		if rtt, ok := e.RTT(); ok && (rtt < 0 || rtt > wire.Tick(40).Milliseconds()) {
			t.Fatalf("RTT %v", rtt)
		}
		// Round trip.
		w := wire.NewWriteStream(make([]byte, 16))
		if err := h.Serialize(w); err != nil || w.BitsProcessed() != r.BitsProcessed() {
			t.Fatalf("re-encode: %v", err)
		}
	})
}
