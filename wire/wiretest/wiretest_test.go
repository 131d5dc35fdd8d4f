package wiretest

import (
	"testing"

	"netcubes/wire"
)

func TestInt64Range(t *testing.T) {
	rng := wire.NewRNG(1)
	r := &rng
	if Int64Range(r, 5, 5) != 5 || Int64Range(r, 5, 1) != 5 {
		t.Error("degenerate ranges")
	}
	for range 1000 {
		if v := Int64Range(r, -3, 3); v < -3 || v > 3 {
			t.Fatalf("Int64Range = %d", v)
		}
	}
}

func TestAckHeaderAcked(t *testing.T) {
	h := wire.AckHeader{HasAck: true, Ack: 1, AckBits: 1<<0 | 1<<2 | 1<<31}
	tests := []struct {
		seq  uint16
		want bool
	}{
		{1, true},              // ack itself
		{0, true},              // bit 0
		{65535, false},         // bit 1
		{65534, true},          // bit 2, across the wrap
		{65536 + 1 - 32, true}, // bit 31
		{65536 + 1 - 33, false},
		{2, false}, // newer than ack
	}
	for _, tc := range tests {
		if got := Acked(h, tc.seq); got != tc.want {
			t.Errorf("Acked(%d) = %v, want %v", tc.seq, got, tc.want)
		}
	}
	if Acked(wire.AckHeader{}, 0) {
		t.Error("no ack acks nothing")
	}
}
