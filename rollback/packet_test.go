package rollback

import (
	"testing"

	"netcubes/cubes"
	"netcubes/transfer"
	"netcubes/wire"
)

type serializer interface{ Serialize(s wire.Stream) error }

func writePacket(t testing.TB, p serializer) []byte {
	t.Helper()
	w := wire.NewWriteStream(make([]byte, 64*1024))
	if err := p.Serialize(w); err != nil {
		t.Fatal(err)
	}
	if err := w.SerializeAlign(); err != nil {
		t.Fatal(err)
	}
	return append([]byte(nil), w.Bytes()...)
}

// TestInputPacketRoundTrip: each player's run crosses exactly, the
// receiving client's own player is not sent, a held key costs one bit a
// frame (each input here is up, then up+katamari for one frame).
func TestInputPacketRoundTrip(t *testing.T) {
	up := cubes.Input{Up: true}.Bits()
	pull := cubes.Input{Up: true, Katamari: true}.Bits()
	tests := []struct {
		name    string
		players int32
		own     int32
		counts  []int32
		lags    []int32
		bits    int
	}{
		// Per player sent: a lag bit (and 10 bits when lagging), a 7-bit
		// count, the inputs and a 7-bit advantage; OwnNext (32) when own
		// ≥ 0; the hash (32).
		{"one player, none", 1, -1, []int32{0}, []int32{0}, 1 + 1 + 7 + 7 + 32},
		{"one player, a tap then held", 1, -1, []int32{10}, []int32{0}, 1 + 1 + 7 + 6 + 7 + 7 + 7 + 7 + 32},
		{"two players, own skipped", 2, 1, []int32{3, 0}, []int32{0, 0}, 1 + 1 + 7 + 6 + 7 + 7 + 7 + 32 + 32},
		{"lagging", 1, -1, []int32{1}, []int32{300}, 1 + 1 + 10 + 7 + 6 + 7 + 32},
	}
	for _, tt := range tests {
		p := &InputPacket{Players: tt.players, Own: tt.own, Hash: 0xdeadbeef, OwnNext: 77}
		for k := range tt.players {
			if k == tt.own {
				continue
			}
			p.Count[k], p.Lag[k], p.Advantage[k] = tt.counts[k], tt.lags[k], -3
			for i := range p.Count[k] {
				p.Inputs[k][i] = up
				if i == 1 {
					p.Inputs[k][i] = pull
				}
			}
		}
		data := writePacket(t, p)
		got := &InputPacket{Players: tt.players, Own: tt.own}
		if err := got.Serialize(wire.NewReadStream(data)); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if tt.own < 0 {
			p.OwnNext = 0
		}
		if !sameInputs(got, p) {
			t.Errorf("%s: got %+v", tt.name, got)
		}
		m := wire.NewMeasureStream()
		if err := p.Serialize(m); err != nil {
			t.Fatal(err)
		}
		b := m.Breakdown()
		if n := b.Total(); n != tt.bits {
			t.Errorf("%s: %d bits, want %d", tt.name, n, tt.bits)
		}
	}
}

// TestAckPacketRoundTrip: the per-player acks and the own inputs cross.
func TestAckPacketRoundTrip(t *testing.T) {
	p := &AckPacket{Players: 3, Own: 2, OwnFirst: 40, OwnCount: 3, Advantage: 5}
	p.Next[0], p.Next[1] = 41, 39
	p.Inputs[0], p.Inputs[1], p.Inputs[2] = 1, 1, 9
	data := writePacket(t, p)
	got := &AckPacket{Players: 3, Own: 2}
	if err := got.Serialize(wire.NewReadStream(data)); err != nil {
		t.Fatal(err)
	}
	if !sameAck(got, p) {
		t.Errorf("got %+v, want %+v", got, p)
	}
}

// TestPacketsRefuseBadPlayers: a packet for a number of players out of
// range fails rather than indexing beyond the arrays.
func TestPacketsRefuseBadPlayers(t *testing.T) {
	for _, n := range []int32{0, -1, cubes.MaxPlayers + 1} {
		if (&InputPacket{Players: n}).Serialize(wire.NewReadStream(make([]byte, 64))) == nil {
			t.Errorf("input packet with %d players read", n)
		}
		if (&AckPacket{Players: n}).Serialize(wire.NewReadStream(make([]byte, 64))) == nil {
			t.Errorf("ack packet with %d players read", n)
		}
	}
}

// FuzzRollbackPackets: any bytes, read as either packet for any number of
// players and own player, decode into fields in range that write back the
// same, or fail; never a panic.
func FuzzRollbackPackets(f *testing.F) {
	p := &InputPacket{Players: 2, Own: -1, Hash: 7}
	p.Count[0], p.Count[1] = 3, 1
	p.Inputs[0][1] = 5
	f.Add(uint8(0x21), writePacket(f, p))
	a := &AckPacket{Players: 2, Own: 1, OwnCount: 2}
	f.Add(uint8(0x92), writePacket(f, a))
	f.Add(uint8(0), []byte{0x80, 0xff, 0xff})
	// With a piece of a state transfer, and a joined machine's ack.
	p.Piece = &transfer.Piece{Frame: 40, Size: 600, Fragment: 256, Index: 2, Data: make([]byte, 600-512)}
	f.Add(uint8(0x21), writePacket(f, p))
	a.Transfer = &transfer.Ack{Frame: 40, Count: 3}
	f.Add(uint8(0x92), writePacket(f, a))
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		players := int32(mode&7) + 1
		own := int32(mode>>3&7) - 1
		if own >= players {
			own = -1
		}
		if mode&0x80 != 0 {
			var a AckPacket
			a.Players, a.Own = players, own
			if a.Serialize(wire.NewReadStream(data)) != nil {
				return
			}
			if a.OwnCount < 0 || a.OwnCount > MaxSend {
				t.Fatalf("own count %d", a.OwnCount)
			}
			again := AckPacket{Players: players, Own: own}
			if err := again.Serialize(wire.NewReadStream(writePacket(t, &a))); err != nil || !sameAck(&again, &a) {
				t.Fatalf("round trip changed the ack: %v", err)
			}
			return
		}
		var q InputPacket
		q.Players, q.Own = players, own
		if q.Serialize(wire.NewReadStream(data)) != nil {
			return
		}
		for k := range players {
			if q.Count[k] < 0 || q.Count[k] > MaxSend || q.Lag[k] < 0 || q.Lag[k] > maxLag {
				t.Fatalf("player %d: count %d lag %d", k, q.Count[k], q.Lag[k])
			}
			for i := range q.Count[k] {
				if q.Inputs[k][i] >= 1<<cubes.InputBits {
					t.Fatalf("input bits %b", q.Inputs[k][i])
				}
			}
		}
		again := InputPacket{Players: players, Own: own}
		if err := again.Serialize(wire.NewReadStream(writePacket(t, &q))); err != nil || !sameInputs(&again, &q) {
			t.Fatalf("round trip changed the packet: %v", err)
		}
	})
}

// sameInputs compares two packets' fields (a piece by its header and
// data).
func sameInputs(a, b *InputPacket) bool {
	if a.Players != b.Players || a.Own != b.Own || a.Lag != b.Lag || a.Count != b.Count || a.Inputs != b.Inputs ||
		a.Advantage != b.Advantage || a.OwnNext != b.OwnNext || a.Hash != b.Hash || (a.Piece == nil) != (b.Piece == nil) {
		return false
	}
	return a.Piece == nil || (a.Piece.Frame == b.Piece.Frame && a.Piece.Size == b.Piece.Size &&
		a.Piece.Fragment == b.Piece.Fragment && a.Piece.Index == b.Piece.Index && string(a.Piece.Data) == string(b.Piece.Data))
}

// sameAck compares two acks' fields.
func sameAck(a, b *AckPacket) bool {
	if a.Players != b.Players || a.Own != b.Own || a.Next != b.Next || a.OwnFirst != b.OwnFirst || a.OwnCount != b.OwnCount ||
		a.Inputs != b.Inputs || a.Advantage != b.Advantage || (a.Transfer == nil) != (b.Transfer == nil) {
		return false
	}
	return a.Transfer == nil || *a.Transfer == *b.Transfer
}
