package authority

import (
	"errors"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/wire"
)

func testPacket(fromHost bool, step Step) *Packet {
	p := &Packet{FromHost: fromHost, Step: step, Players: 3, NumCubes: 40, NumUpdates: 3}
	if !fromHost {
		p.Sender = 2
	}
	p.Inputs[0], p.Inputs[1], p.Inputs[2] = 5, 63, 0
	q := replication.QuantizeState(mgl64.Vec3{1, -2, 0.2}, mgl64.QuatRotate(0.3, mgl64.Vec3{0, 0, 1}), mgl64.Vec3{3, 0, -1}, mgl64.Vec3{0, 2, 0})
	rest := replication.QuantizeState(mgl64.Vec3{-4, 5, 0.2}, mgl64.QuatIdent(), mgl64.Vec3{}, mgl64.Vec3{})
	owner := int32(2)
	p.Updates[0] = Update{Index: 0, Owner: 4, OwnSeq: 7, AuthSeq: 65535, State: q}
	p.Updates[1] = Update{Index: 17, Owner: owner, OwnSeq: 1, AuthSeq: 2, State: rest}
	p.Updates[2] = Update{Index: 39, Owner: 1, State: q}
	if !fromHost {
		p.Updates[0].Owner, p.Updates[2].Owner = 4, 4 // a release, from a player
	}
	if step < StepSequences {
		for k := range p.Updates[:3] {
			p.Updates[k].OwnSeq, p.Updates[k].AuthSeq = 0, 0
		}
	}
	return p
}

// A packet in every direction and step writes, measures and reads back
// the same (the inputs a player sends: its own only).
func TestPacketRoundTrip(t *testing.T) {
	for _, fromHost := range []bool{true, false} {
		for step := StepHost; step <= StepReturn; step++ {
			p := testPacket(fromHost, step)
			buf := make([]byte, 1024)
			w := wire.NewWriteStream(buf)
			if err := p.Serialize(w); err != nil {
				t.Fatal(err)
			}
			m := wire.NewMeasureStream()
			if err := p.Serialize(m); err != nil || m.BitsProcessed() != w.BitsProcessed() {
				t.Fatalf("measure %d bits (%v), write %d", m.BitsProcessed(), err, w.BitsProcessed())
			}
			if err := w.SerializeAlign(); err != nil {
				t.Fatal(err)
			}
			var got Packet
			if err := got.Serialize(wire.NewReadStream(w.Bytes())); err != nil {
				t.Fatalf("host %v step %d: %v", fromHost, step, err)
			}
			want := *p
			if !fromHost {
				want.Inputs[1], want.Inputs[2] = 0, 0
			}
			if got != want {
				t.Errorf("host %v step %d: read %+v, wrote %+v", fromHost, step, got, want)
			}
		}
	}
}

// Hostile bytes are refused by the reader, never a panic: out-of-range
// owners and indices, indices out of order, a sender that does not fit
// the direction.
func TestPacketRejects(t *testing.T) {
	tests := []struct {
		name string
		edit func(p *Packet)
		want error
	}{
		{"index out of range", func(p *Packet) { p.NumCubes = 39 }, wire.ErrValueOutOfRange},
		{"indices out of order", func(p *Packet) { p.Updates[1].Index = 0 }, ErrBadOrder},
		{"owner beyond the default", func(p *Packet) { p.Players = 2 }, wire.ErrValueOutOfRange},
	}
	for _, tt := range tests {
		// The writer checks the ranges the reader checks: the same
		// bytes cannot be written, and reading them fails the same way.
		q := testPacket(true, StepReturn)
		tt.edit(q)
		if err := q.Serialize(wire.NewWriteStream(make([]byte, 1024))); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
	// A packet from a player that says it is from the host, and the reverse.
	p := testPacket(false, StepLowestID)
	p.Sender = 0
	if err := p.Serialize(wire.NewWriteStream(make([]byte, 1024))); !errors.Is(err, ErrBadSender) {
		t.Errorf("a player packet with sender 0: %v, want ErrBadSender", err)
	}
}

// FuzzAuthorityPacket: any bytes read as a packet give an error or a
// packet within its ranges that writes back to a packet reading the same.
func FuzzAuthorityPacket(f *testing.F) {
	for _, fromHost := range []bool{true, false} {
		for _, step := range []Step{StepHost, StepLowestID, StepReturn} {
			w := wire.NewWriteStream(make([]byte, 1024))
			if testPacket(fromHost, step).Serialize(w) == nil && w.SerializeAlign() == nil {
				f.Add(append([]byte(nil), w.Bytes()...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Packet
		if p.Serialize(wire.NewReadStream(data)) != nil {
			return
		}
		if p.NumUpdates < 0 || p.NumUpdates > MaxUpdates || p.Players < 1 || p.Players > cubes.MaxPlayers {
			t.Fatalf("read a packet out of range: %+v", p)
		}
		w := wire.NewWriteStream(make([]byte, 4096))
		if err := p.Serialize(w); err != nil {
			t.Fatalf("a packet read does not write: %v", err)
		}
		_ = w.SerializeAlign()
		var q Packet
		if err := q.Serialize(wire.NewReadStream(w.Bytes())); err != nil || q != p {
			t.Fatalf("rewritten packet reads %+v (%v), want %+v", q, err, p)
		}
	})
}

// hostCtx is the little of a session's context the host's reader uses.
type hostCtx struct {
	strategy.Context
	left          *cubes.World
	player, frame int
}

func (c *hostCtx) Player() int                { return c.player }
func (c *hostCtx) Players() int               { return c.left.NumPlayers() }
func (c *hostCtx) Left() *cubes.World         { return c.left }
func (c *hostCtx) EditLeft() *cubes.World     { return c.left }
func (c *hostCtx) Frame() int                 { return c.frame }
func (c *hostCtx) NewWorld() *cubes.World     { panic("not in the host's reader") }
func (c *hostCtx) Initial() []cubes.CubeState { return nil }

// Hostile claims reach the host: each is refused and counted, the host's
// world and table unchanged, never a panic.
func TestHostileClaims(t *testing.T) {
	s, st := session(t, 6, 3, link.Config{}, func(x *Settings) { x.Step = StepSequences })
	drive(s, 30, func(int, int) cubes.Input { return cubes.Input{} }, nil)
	left := s.Left()
	ctx := &hostCtx{left: left, player: 1, frame: s.Frame()}
	far := 1 // a grid cube far from player 2 (it starts 9 m out)
	near := left.Cube(left.PlayerCube(1)).Position
	for i := 1; i < left.NumCubes(); i++ {
		if !left.IsPlayer(i) && left.Cube(i).Position.Sub(near).Len() > left.Cube(far).Position.Sub(near).Len() {
			far = i
		}
	}
	h := &st.room.host
	state := quantized(left, far)
	send := func(p *Packet) error {
		w := wire.NewWriteStream(make([]byte, 2048))
		if err := p.Serialize(w); err != nil {
			return err
		}
		_ = w.SerializeAlign()
		return st.ReceiveBack(ctx, wire.NewReadStream(w.Bytes()))
	}
	base := func() *Packet {
		return &Packet{Step: StepSequences, Sender: 2, Players: 3, NumCubes: int32(left.NumCubes()), NumUpdates: 1}
	}
	type counts struct{ hostile, future, implausible uint64 }
	now := func() counts { return counts{h.stats.Hostile, h.stats.Future, h.stats.Implausible} }
	tests := []struct {
		name string
		upd  Update
		want func(before, after counts) bool
	}{
		{"another player's cube", Update{Index: int32(left.PlayerCube(2)), Owner: 2, OwnSeq: 1, State: state},
			func(b, a counts) bool { return a.hostile == b.hostile+1 }},
		{"an ownership from the future", Update{Index: int32(far), Owner: 2, OwnSeq: 40, State: state},
			func(b, a counts) bool { return a.future == b.future+1 }},
		{"a cube it never touched", Update{Index: int32(far), Owner: 2, OwnSeq: h.t.ownSeq[far] + 1, State: state},
			func(b, a counts) bool { return a.implausible == b.implausible+1 }},
	}
	for _, tt := range tests {
		before, hash := now(), left.StateHash()
		owner := h.t.owner[tt.upd.Index]
		p := base()
		p.Updates[0] = tt.upd
		if err := send(p); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if after := now(); !tt.want(before, after) {
			t.Errorf("%s: counts %+v → %+v", tt.name, before, after)
		}
		if left.StateHash() != hash || h.t.owner[tt.upd.Index] != owner {
			t.Errorf("%s: the host's world or table changed", tt.name)
		}
	}
	// A claim for a cube out of range does not even read; a packet that
	// names another sender than its link's is refused whole.
	p := base()
	p.Updates[0] = Update{Index: int32(left.NumCubes()), Owner: 2, State: state}
	if err := send(p); err == nil {
		t.Error("a cube out of range was read")
	}
	p = base()
	p.Sender = 3
	p.Updates[0] = Update{Index: int32(far), Owner: 3, State: state}
	if err := send(p); !errors.Is(err, errWrongSender) {
		t.Errorf("another sender: %v, want errWrongSender", err)
	}
}

// TestP2PLine: in peer to peer each machine's upload is its packet's rate
// times its peers, and each downloads one share of every other's.
func TestP2PLine(t *testing.T) {
	var ms mesh
	// One second of packets: player 1 uploads 3 × 1,000 bytes a tick,
	// player 2 3 × 500 bytes, players 3 and 4 nothing.
	for f := range 60 {
		ms.up[0].add(f, 3000)
		ms.up[1].add(f, 1500)
	}
	got := p2pLine(&ms, 4)
	want := "P2P to 3 peers each, up/down kbit/s P1 1440/240 · P2 720/480 · P3 0/720 · P4 0/720"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := p2pLine(&ms, 1); got != "P2P: no peers" {
		t.Errorf("one player: %s", got)
	}
}

// TestRelayLine: in the relay each machine's figures are what crossed its
// own link with the host, each way.
func TestRelayLine(t *testing.T) {
	var ms [cubes.MaxPlayers]*machine
	for p := range 3 {
		ms[p] = &machine{}
		for f := range 60 {
			ms[p].up.add(f, 100*(p+1))
			ms[p].down.add(f, 1000)
		}
	}
	if got, want := relayLine(&ms, 3), "relay up/down kbit/s P1 48/480 · P2 96/480 · P3 144/480"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := relayLine(&[cubes.MaxPlayers]*machine{}, 3); got != "" {
		t.Errorf("no machines: %q", got)
	}
}
