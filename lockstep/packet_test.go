package lockstep

import (
	"errors"
	"testing"

	"netcubes/cubes"
	"netcubes/inputstream"
	"netcubes/link"
	"netcubes/transfer"
	"netcubes/wire"
)

func roundTrip(t testing.TB, p *InputPacket) (*InputPacket, int) {
	t.Helper()
	buf := make([]byte, 64*1024)
	w := wire.NewWriteStream(buf)
	if err := p.Serialize(w); err != nil {
		t.Fatal(err)
	}
	var got InputPacket
	if err := got.Serialize(wire.NewReadStream(w.Bytes())); err != nil {
		t.Fatal(err)
	}
	return &got, len(w.Bytes())
}

// TestInputPacketRoundTrip: inputs cross exactly; a held key costs one
// bit a frame, a change 7.
func TestInputPacketRoundTrip(t *testing.T) {
	up := cubes.Input{Up: true}.Bits()
	pull := cubes.Input{Up: true, Katamari: true}.Bits()
	tests := []struct {
		name   string
		inputs []uint8
		lag    int32
		bits   int // no transfer piece (1) + count (1 + 9) + inputs + hash 32
	}{
		{"none", nil, 0, 1 + 1 + 9 + 32},
		{"one", []uint8{up}, 0, 1 + 1 + 9 + 6 + 32},
		{"held for 10 frames", []uint8{up, up, up, up, up, up, up, up, up, up}, 0, 1 + 1 + 9 + 6 + 9 + 32},
		{"a change", []uint8{up, up, pull, pull}, 0, 1 + 1 + 9 + 6 + 1 + 7 + 1 + 32},
		{"lagging", []uint8{up}, 300, 1 + 1 + 10 + 9 + 6 + 32},
	}
	for _, tt := range tests {
		p := &InputPacket{Count: int32(len(tt.inputs)), Lag: tt.lag, Hash: 0xdeadbeef}
		copy(p.Inputs[:], tt.inputs)
		got, _ := roundTrip(t, p)
		if got.Count != p.Count || got.Lag != p.Lag || got.Hash != p.Hash || got.Inputs != p.Inputs {
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

// TestHostileInputPackets: a count beyond the window, a lag beyond the
// rings, truncated bytes and inputs with bits beyond the six keys are
// refused; nothing allocates per packet or panics.
func TestHostileInputPackets(t *testing.T) {
	w := wire.NewWriteStream(make([]byte, 64))
	lag, piece := false, false
	count := uint32(MaxWindow + 1)
	_ = wire.SerializeBool(w, &piece)
	_ = wire.SerializeBool(w, &lag)
	_ = wire.SerializeBits(w, &count, 9)
	var p InputPacket
	if err := p.Serialize(wire.NewReadStream(w.Bytes())); err == nil {
		t.Error("a count of 257 was taken")
	}
	if err := p.Serialize(wire.NewReadStream([]byte{0xff})); err == nil {
		t.Error("a truncated packet was taken")
	}
	bad := InputPacket{Count: 1}
	bad.Inputs[0] = 0xff
	if err := bad.Serialize(wire.NewWriteStream(make([]byte, 64))); !errors.Is(err, inputstream.ErrInputBits) {
		t.Errorf("writing an input of 8 bits: %v", err)
	}
	// A real packet under a sequence from a frame the left has not reached.
	s, st := session(t, 0, link.Config{})
	for range 10 {
		s.Step(cubes.Input{})
	}
	ctx := s.Context()
	good := InputPacket{Count: 1}
	buf := make([]byte, 64)
	ws := wire.NewWriteStream(buf)
	_ = good.Serialize(ws)
	for _, ahead := range []int{1, 100, 30000} {
		if err := st.Receive(ctx, uint16(ctx.Frame()+ahead), wire.NewReadStream(ws.Bytes())); err == nil {
			t.Errorf("a packet %d frames ahead was taken", ahead)
		}
	}
}

// FuzzInputPacket: any bytes either decode into a packet that writes back
// to the same fields, or fail; never a panic.
func FuzzInputPacket(f *testing.F) {
	p := InputPacket{Count: 3, Hash: 7}
	p.Inputs[1] = 5
	buf := make([]byte, 1024)
	w := wire.NewWriteStream(buf)
	_ = p.Serialize(w)
	f.Add(append([]byte(nil), w.Bytes()...))
	f.Add([]byte{0x80, 0xff, 0xff})
	// With a piece of a state transfer.
	p.Piece = &transfer.Piece{Frame: 40, Size: 600, Fragment: 256, Index: 2, Data: make([]byte, 600-512)}
	w.Reset(buf)
	_ = p.Serialize(w)
	f.Add(append([]byte(nil), w.Bytes()...))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p InputPacket
		if p.Serialize(wire.NewReadStream(data)) != nil {
			return
		}
		if p.Piece != nil && (p.Piece.Size <= 0 || p.Piece.Size > transfer.MaxBytes || len(p.Piece.Data) > int(p.Piece.Fragment)) {
			t.Fatalf("decoded a piece of %d bytes, %d in this fragment", p.Piece.Size, len(p.Piece.Data))
		}
		if p.Count < 0 || p.Count > MaxWindow || p.Lag < 0 || p.Lag > MaxLag {
			t.Fatalf("decoded count %d lag %d", p.Count, p.Lag)
		}
		for k := range p.Count {
			if p.Inputs[k] >= 1<<cubes.InputBits {
				t.Fatalf("input %d has bits %b", k, p.Inputs[k])
			}
		}
		again, _ := roundTrip(t, &p)
		if again.Count != p.Count || again.Lag != p.Lag || again.Hash != p.Hash || again.Inputs != p.Inputs {
			t.Fatalf("round trip changed the packet")
		}
	})
}
