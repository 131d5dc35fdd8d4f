package predict

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/strategy/strategytest"
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
	sp.State.Updates[0] = replication.StateUpdate{Index: 0, State: replication.QuantizeState(
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
		if p.Serialize(wire.NewReadStream(data)) == nil && (p.State.NumUpdates > replication.MaxUpdates || p.Early < -MaxEarly || p.Early > MaxEarly) {
			t.Fatalf("accepted %+v", p)
		}
	})
}

// FuzzPredictReceive puts hostile packets into a live session, both ways:
// server packets to the client, input packets to the server.
func FuzzPredictReceive(f *testing.F) {
	st := New(DefaultConfig())
	strategytest.New(f, strategytest.Config{Strategies: []strategy.Strategy{st},
		Setup: func(s strategy.Strategy, mode uint8) {
			s.(*Strategy).SetSettings(Settings{Mode: Mode(mode%uint8(NumModes) + 1), Smoothing: Smoothing(mode / 8 % 3), Scope: Scope(mode / 32 % 3), Speed: Speed(mode / 16 % 4)})
		}}).Fuzz(f)
}

// With other players, an input packet carries the client's tags and a
// server packet the verdicts: both survive a write and a read; a one-player
// packet has no such field (not a bit more than before).
func TestPacketPlayersRoundTrip(t *testing.T) {
	buf := make([]byte, 4096)
	in := InputPacket{Newest: 1000, Count: 40, Players: 3}
	in.Tags.N = 2
	in.Tags.Tags[0] = Tag{Frame: 970, Target: 2, ViewBack: 8 * 20}
	in.Tags.Tags[1] = Tag{Frame: 1000, Target: 0, ViewBack: maxViewBack * viewEighths}
	w := wire.NewWriteStream(buf)
	if err := in.Serialize(w); err != nil || w.SerializeAlign() != nil {
		t.Fatal(err)
	}
	got := InputPacket{Players: 3}
	if err := got.Serialize(wire.NewReadStream(w.Bytes())); err != nil || got != in {
		t.Fatalf("input packet with tags: %v\n%+v\nwant\n%+v", err, got, in)
	}

	one := InputPacket{Newest: 1000, Count: 40, Players: 1}
	m := wire.NewMeasureStream()
	_ = one.Serialize(m)
	if bits := m.BitsProcessed(); bits != 31+6+40*6 {
		t.Errorf("a one-player input packet measures %d bits, want %d (no tag field)", bits, 31+6+40*6)
	}

	sp := ServerPacket{Frame: 500}
	sp.State.NumCubes, sp.State.Compressed, sp.State.Players = 903, true, 3
	sp.Verdicts.N = 2
	sp.Verdicts.V[0] = Verdict{Frame: 441, WithComp: true, Clamped: true}
	sp.Verdicts.V[1] = Verdict{Frame: 499, WithoutComp: true}
	w = wire.NewWriteStream(buf)
	if err := sp.Serialize(w); err != nil || w.SerializeAlign() != nil {
		t.Fatal(err)
	}
	var gs ServerPacket
	gs.Frame, gs.State.NumCubes, gs.State.Players = 500, 903, 3
	if err := gs.Serialize(wire.NewReadStream(w.Bytes())); err != nil || gs.Verdicts != sp.Verdicts {
		t.Fatalf("server packet with verdicts: %v, %+v", err, gs.Verdicts)
	}
}

// Hostile tag and verdict lists are refused: out of order, out of the
// packet's frames, a player index beyond the wire's, a view too far back.
func TestHostileTags(t *testing.T) {
	buf := make([]byte, 4096)
	bad := []TagList{
		{N: 2, Tags: [MaxTags]Tag{{Frame: 990, Target: 1}, {Frame: 990, Target: 1}}},               // twice the same frame
		{N: 2, Tags: [MaxTags]Tag{{Frame: 995, Target: 1}, {Frame: 990, Target: 1}}},               // out of order
		{N: 1, Tags: [MaxTags]Tag{{Frame: 1001, Target: 1}}},                                       // after the newest input
		{N: 1, Tags: [MaxTags]Tag{{Frame: 900, Target: 1}}},                                        // before the oldest
		{N: 1, Tags: [MaxTags]Tag{{Frame: 999, Target: 8}}},                                        // no such player on the wire
		{N: 1, Tags: [MaxTags]Tag{{Frame: 999, Target: 1, ViewBack: maxViewBack*viewEighths + 1}}}, // too far back
		{N: 5},
	}
	for k, l := range bad {
		p := InputPacket{Newest: 1000, Count: 40, Players: 2, Tags: l}
		if err := p.Serialize(wire.NewWriteStream(buf)); err == nil {
			t.Errorf("case %d: wrote %+v", k, l)
		}
	}
	badV := []VerdictList{
		{N: 2, V: [MaxVerdicts]Verdict{{Frame: 480}, {Frame: 470}}},
		{N: 1, V: [MaxVerdicts]Verdict{{Frame: 500}}}, // a verdict of the packet's own frame: not judged yet
		{N: 1, V: [MaxVerdicts]Verdict{{Frame: 439}}}, // older than the window
	}
	for k, l := range badV {
		p := ServerPacket{Frame: 500, Verdicts: l}
		p.State.NumCubes, p.State.Compressed, p.State.Players = 903, true, 2
		if err := p.Serialize(wire.NewWriteStream(buf)); err == nil {
			t.Errorf("verdicts case %d: wrote %+v", k, l)
		}
	}
}

// FuzzPredictInputPacketPlayers reads hostile bytes as the input packet of
// a client with other players (tags after the inputs).
func FuzzPredictInputPacketPlayers(f *testing.F) {
	buf := make([]byte, 256)
	p := InputPacket{Newest: 1000, Count: 20, Players: 2}
	p.Tags.N = 1
	p.Tags.Tags[0] = Tag{Frame: 990, Target: 1, ViewBack: 160}
	w := wire.NewWriteStream(buf)
	if p.Serialize(w) == nil && w.SerializeAlign() == nil {
		f.Add(uint8(2), append([]byte(nil), w.Bytes()...))
	}
	f.Add(uint8(8), []byte{0, 0, 0, 10, 12, 1, 2, 3, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, players uint8, data []byte) {
		p := InputPacket{Players: int32(players%8) + 1}
		if p.Serialize(wire.NewReadStream(data)) != nil {
			return
		}
		if p.Count < 1 || p.Count > MaxInputs || p.Frame(0) < 0 || p.Tags.N < 0 || p.Tags.N > MaxTags || (p.Players < 2 && p.Tags.N != 0) {
			t.Fatalf("accepted %+v", p)
		}
		prev := int32(-1)
		for k := range p.Tags.N {
			g := p.Tags.Tags[k]
			if g.Frame <= prev || g.Frame < p.Frame(0) || g.Frame > p.Newest || g.Target < 0 || g.Target > maxPlayerIndex ||
				g.ViewBack < 0 || g.ViewBack > maxViewBack*viewEighths {
				t.Fatalf("accepted tag %d: %+v of %+v", k, g, p)
			}
			prev = g.Frame
		}
	})
}

// FuzzPredictServerPacketPlayers reads hostile bytes as a server packet of
// a session with other players (every player's inputs, the verdicts), at a
// frame the fuzzer chooses.
func FuzzPredictServerPacketPlayers(f *testing.F) {
	f.Add(uint8(3), uint32(500), []byte{0x80, 0, 0, 1, 0xc0, 0, 0, 0, 0, 0, 0xff, 0, 0x13})
	f.Fuzz(func(t *testing.T, players uint8, frame uint32, data []byte) {
		var p ServerPacket
		p.Frame = int32(frame >> 1)
		p.State.NumCubes = 40
		p.State.Players = int32(players%8) + 1
		if p.Serialize(wire.NewReadStream(data)) != nil {
			return
		}
		if p.State.NumUpdates > replication.MaxUpdates || p.Verdicts.N < 0 || p.Verdicts.N > MaxVerdicts || (p.State.Players < 2 && p.Verdicts.N != 0) {
			t.Fatalf("accepted %+v", p)
		}
		for k := range p.Verdicts.N {
			if back := p.Frame - p.Verdicts.V[k].Frame; back < 1 || back > verdictWindow {
				t.Fatalf("accepted verdict %d %d frames back", k, back)
			}
		}
	})
}

// FuzzPredictReceivePlayers puts hostile packets into a live three-player
// session of the 2004 strategy, both ways, to any client: the per-player
// fields of every packet (all players' inputs and states, tags, verdicts)
// under every way of drawing other players.
func FuzzPredictReceivePlayers(f *testing.F) {
	st := New(DefaultConfig())
	strategytest.New(f, strategytest.Config{Strategies: []strategy.Strategy{st}, Players: 3,
		Setup: func(s strategy.Strategy, mode uint8) {
			set := ModeSettings(Mode(mode%uint8(NumModes) + 1))
			set.Others = OthersMode(mode/8%uint8(NumOthersModes) + 1)
			set.Compensate = mode&64 != 0
			set.AutoTag = AutoTagAll
			s.(*Strategy).SetSettings(set)
		}}).Fuzz(f)
}
