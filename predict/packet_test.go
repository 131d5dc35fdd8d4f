package predict

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/internal/fuzzutil"
	"netcubes/statesync"
	"netcubes/strategy"
	"netcubes/wire"
)

// An input packet and a server packet survive a write and a read.
func TestPacketRoundTrip(t *testing.T) {
	buf := make([]byte, 4096)
	in := InputPacket{Newest: 1000, Count: 3, Inputs: [MaxInputs]uint8{1, 63, 5}}
	w := wire.NewWriteStream(buf)
	if err := in.Serialize(w); err != nil || w.SerializeAlign() != nil {
		t.Fatal(err)
	}
	var got InputPacket
	if err := got.Serialize(wire.NewReadStream(w.Bytes())); err != nil || got != in {
		t.Fatalf("input packet: %v, %+v", err, got)
	}

	sp := ServerPacket{HasAck: true, AckedInput: 77, HasEarly: true, Early: -3, EarlyFrame: 70}
	sp.State.NumCubes, sp.State.Compressed, sp.State.NumUpdates = 901, true, 1
	sp.State.Updates[0] = statesync.StateUpdate{Index: 0, State: statesync.QuantizeState(
		mgl64.Vec3{1, 2, 3}, mgl64.QuatIdent(), mgl64.Vec3{}, mgl64.Vec3{})}
	w = wire.NewWriteStream(buf)
	if err := sp.Serialize(w); err != nil || w.SerializeAlign() != nil {
		t.Fatal(err)
	}
	var gs ServerPacket
	gs.State.NumCubes = 901
	if err := gs.Serialize(wire.NewReadStream(w.Bytes())); err != nil {
		t.Fatal(err)
	}
	if gs.AckedInput != 77 || gs.Early != -3 || gs.EarlyFrame != 70 || gs.State.NumUpdates != 1 || gs.State.Updates[0].State != sp.State.Updates[0].State {
		t.Fatalf("server packet: %+v", gs)
	}
}

// An input packet whose first input would be before frame 0 is refused.
func TestInputPacketBeforeFrameZero(t *testing.T) {
	buf := make([]byte, 64)
	w := wire.NewWriteStream(buf)
	bad := InputPacket{Newest: 2, Count: 5}
	if err := bad.Serialize(w); err == nil {
		t.Fatal("wrote frames before 0")
	}
}

// FuzzPredictInputPacket reads hostile bytes as a client input packet.
func FuzzPredictInputPacket(f *testing.F) {
	f.Add([]byte{0, 0, 0, 10, 12, 1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		var p InputPacket
		if p.Serialize(wire.NewReadStream(data)) == nil {
			if p.Count < 1 || p.Count > MaxInputs || p.Frame(0) < 0 {
				t.Fatalf("accepted %+v", p)
			}
		}
	})
}

// FuzzPredictServerPacket reads hostile bytes as a server packet.
func FuzzPredictServerPacket(f *testing.F) {
	f.Add([]byte{0x80, 0, 0, 1, 0xc0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var p ServerPacket
		p.State.NumCubes = 901
		if p.Serialize(wire.NewReadStream(data)) == nil && (p.State.NumUpdates > statesync.MaxUpdates || p.Early < -MaxEarly || p.Early > MaxEarly) {
			t.Fatalf("accepted %+v", p)
		}
	})
}

// FuzzPredictReceive puts hostile packets into a live session, both ways:
// server packets to the client, input packets to the server.
func FuzzPredictReceive(f *testing.F) {
	st := New(DefaultConfig())
	fuzzutil.New(f, fuzzutil.Config{Strategies: []strategy.Strategy{st},
		Setup: func(s strategy.Strategy, mode uint8) {
			s.(*Strategy).SetSettings(Settings{Mode: Mode(mode%uint8(NumModes) + 1), Smoothing: Smoothing(mode / 8 % 3), Scope: Scope(mode / 32 % 2)})
		}}).Fuzz(f)
}
