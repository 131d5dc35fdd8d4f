package replication

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/internal/testutil"
	"netcubes/wire"
)

// quat returns a unit quaternion from an axis and an angle (test data only).
func quat(angle float64, axis mgl64.Vec3) mgl64.Quat {
	return mgl64.QuatRotate(angle, axis.Normalize())
}

// ssState quantizes a test state.
func ssState(pos mgl64.Vec3, rot mgl64.Quat, lin, ang mgl64.Vec3) QuantizedCubeState {
	return QuantizeState(pos, rot, lin, ang)
}

// stateSyncFixtures returns a base packet (frame 100) and a packet (frame
// 110) that exercises every encoding against it: a base ack of 105 and
// offset 5 name packet 100.
func stateSyncFixtures() (base, pkt *Packet) {
	player := mgl64.Vec3{3, -2, 0.75}
	base = &Packet{NumCubes: 901, Compressed: true}
	bs := []struct {
		i int32
		s QuantizedCubeState
	}{
		{0, ssState(player, quat(0.3, mgl64.Vec3{0, 0, 1}), mgl64.Vec3{2, 1, 0}, mgl64.Vec3{0, 1, 0})},
		{5, ssState(mgl64.Vec3{-14.5, -14.5, 0.2}, mgl64.QuatIdent(), mgl64.Vec3{}, mgl64.Vec3{})},
		{17, ssState(mgl64.Vec3{1, 1, 1}, quat(0.2, mgl64.Vec3{1, 0, 0}), mgl64.Vec3{0, 0, 3}, mgl64.Vec3{4, 0, 0})},
		{900, ssState(mgl64.Vec3{14.5, 14.5, 0.2}, mgl64.QuatIdent(), mgl64.Vec3{}, mgl64.Vec3{})},
	}
	for k, b := range bs {
		// The moving cube is interacting (red): the flag must cross too.
		base.Updates[k] = StateUpdate{Index: b.i, Interacting: b.i == 17, State: b.s}
	}
	base.NumUpdates = int32(len(bs))
	for k := range base.Inputs {
		base.Inputs[k] = uint8(k % 64)
	}

	pkt = &Packet{NumCubes: 901, Quantized: true, Compressed: true, Relative: true, Delta: true, HasBaseAck: true, BaseAck: 105}
	for k := range pkt.Inputs {
		pkt.Inputs[k] = uint8((k * 7) % 64)
	}
	b := func(k int) (bool, int32, QuantizedCubeState) { return true, 5, base.Updates[k].State }
	add := func(u StateUpdate) {
		pkt.Updates[pkt.NumUpdates] = u
		pkt.NumUpdates++
	}
	// The player, a little further along: small deltas everywhere.
	u := StateUpdate{Index: 0, State: ssState(player.Add(mgl64.Vec3{0.004, 0.002, 0}), quat(0.3005, mgl64.Vec3{0, 0, 1}), mgl64.Vec3{2.05, 1, 0}, mgl64.Vec3{0, 1.02, 0})}
	u.HasBase, u.BaseOffset, u.Base = b(0)
	add(u)
	// Cube 5 at rest where it was: 19 bits.
	u = StateUpdate{Index: 5, State: base.Updates[1].State}
	u.HasBase, u.BaseOffset, u.Base = b(1)
	add(u)
	// Cube 17: moved 0.5 m (large delta), turned onto another face
	// (absolute orientation), velocity changed a lot (large delta).
	u = StateUpdate{Index: 17, State: ssState(mgl64.Vec3{1.5, 1, 0.8}, quat(2.5, mgl64.Vec3{0, 1, 0}), mgl64.Vec3{0, 0, -2}, mgl64.Vec3{1, 0, 0})}
	u.HasBase, u.BaseOffset, u.Base = b(2)
	add(u)
	// Cube 42: no base, near the player: relative position.
	add(StateUpdate{Index: 42, State: ssState(player.Add(mgl64.Vec3{1.2, -0.9, 0.3}), quat(1, mgl64.Vec3{1, 1, 0}), mgl64.Vec3{-1, 0, 5}, mgl64.Vec3{0, 0, -7})})
	// Cube 300: no base, far away, at rest: absolute, 117 bits + flag.
	add(StateUpdate{Index: 300, State: ssState(mgl64.Vec3{-100, 200, 31}, quat(-0.7, mgl64.Vec3{0.2, -1, 0.5}), mgl64.Vec3{}, mgl64.Vec3{})})
	// Cube 900: with a base, but 40 m away from it: absolute position.
	u = StateUpdate{Index: 900, State: ssState(mgl64.Vec3{-25.5, 14.5, 0.2}, mgl64.QuatIdent(), mgl64.Vec3{}, mgl64.Vec3{})}
	u.HasBase, u.BaseOffset, u.Base = b(3)
	add(u)
	return base, pkt
}

func rawFixture() *Packet {
	p := &Packet{NumCubes: 901}
	p.Updates[0] = StateUpdate{Index: 0, Raw: RawState(mgl64.Vec3{1, 2, 3}, quat(0.5, mgl64.Vec3{0, 0, 1}), mgl64.Vec3{1, 0, 0}, mgl64.Vec3{0, 0, 2})}
	p.Updates[1] = StateUpdate{Index: 7, Raw: RawState(mgl64.Vec3{-4, 5, 0.2}, mgl64.QuatIdent(), mgl64.Vec3{}, mgl64.Vec3{})}
	p.NumUpdates = 2
	for k := range p.Inputs {
		p.Inputs[k] = 63
	}
	return p
}

func writePacket(t *testing.T, p *Packet) ([]byte, int) {
	t.Helper()
	w := wire.NewWriteStream(make([]byte, 8192))
	if err := p.Serialize(w); err != nil {
		t.Fatal(err)
	}
	if err := w.SerializeAlign(); err != nil {
		t.Fatal(err)
	}
	return append([]byte(nil), w.Bytes()...), w.BitsProcessed()
}

// TestStateSyncRoundTrip writes each fixture, measures it, and reads it back
// into an empty packet: the reader rebuilds exactly the quantized states
// (integers, no tolerance needed) and the float32s of the raw packet.
func TestStateSyncRoundTrip(t *testing.T) {
	base, pkt := stateSyncFixtures()
	hist := NewHistory()
	hist.Record(100, base)
	for _, tc := range []struct {
		name string
		p    *Packet
	}{
		{"base", base},
		{"delta", pkt},
		{"raw", rawFixture()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, bits := writePacket(t, tc.p)
			m := wire.NewMeasureStream()
			if err := tc.p.Serialize(m); err != nil || wire.BitsToBytes(m.BitsProcessed()) != len(data) || m.BitsProcessed() > bits {
				t.Fatalf("measured %d bits (%v), wrote %d", m.BitsProcessed(), err, bits)
			}
			if b := m.Breakdown(); b.Total() != m.BitsProcessed() {
				t.Fatalf("breakdown %d of %d bits", b.Total(), m.BitsProcessed())
			}
			got := Packet{NumCubes: 901, History: hist}
			r := wire.NewReadStream(data)
			if err := got.Serialize(r); err != nil {
				t.Fatal(err)
			}
			got.History = nil
			if got != *tc.p {
				for k := range tc.p.NumUpdates {
					if got.Updates[k] != tc.p.Updates[k] {
						t.Errorf("update %d:\n got %+v\nwant %+v", k, got.Updates[k], tc.p.Updates[k])
					}
				}
				t.Fatalf("read back a different packet")
			}
			t.Logf("%s: %d updates in %d bits (%d bytes)", tc.name, tc.p.NumUpdates, m.BitsProcessed(), len(data))
		})
	}
}

// TestStateSyncUpdateBits pins the cost of each kind of update, the numbers
// the design note and the HUD quote.
func TestStateSyncUpdateBits(t *testing.T) {
	base, pkt := stateSyncFixtures()
	m := wire.NewMeasureStream()
	measure := func(p *Packet, u *StateUpdate) int {
		t.Helper()
		n, err := p.MeasureUpdate(m, u)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	abs := &Packet{NumCubes: 901, Compressed: true}
	rest := StateUpdate{Index: 5, State: base.Updates[1].State}
	moving := StateUpdate{Index: 17, State: base.Updates[2].State}
	raw := rawFixture()
	pkt.NumUpdates = 1 // the player is in: relative positions allowed
	if wire.BitsRequired(int32(-relativeHalf), relativeHalf-1) != relativeBitsPerAxis {
		t.Fatalf("relative components take %d bits", wire.BitsRequired(int32(-relativeHalf), relativeHalf-1))
	}
	// A cube near the player that moved 0.5 m on every axis since its base:
	// the offset from the player (1 + 42 bits) beats the difference (3 × 16);
	// moved 1 m on one axis only, the difference (16 + 9 + 9) wins.
	// Every update starts with its index (10 bits) and the interacting
	// flag (1 bit).
	far := pkt.Updates[1]
	far.State.Position = pkt.Updates[0].State.Position
	far.State.Position[0] += 4096
	far.Base = far.State
	far.Base.Position = diff3(far.State.Position, [3]int32{2048, 2048, 2048})
	oneAxis := far
	oneAxis.Base.Position = diff3(far.State.Position, [3]int32{4096, 0, 0})
	for _, tc := range []struct {
		name string
		got  int
		want int
	}{
		{"delta, moved 0.5 m per axis near the player: 10 + 1 + 1+5 + 1 + 1 + 1+42 + 1 + 1", measure(pkt, &far), 64},
		{"delta, moved 1 m along x near the player: 10 + 1 + 1+5 + 1 + 1 + 16+9+9 + 1 + 1", measure(pkt, &oneAxis), 55},
		{"raw at rest: 10 + 1 + 96 + 128 + 1", measure(raw, &raw.Updates[1]), 236},
		{"raw moving: + 2 × 96", measure(raw, &StateUpdate{Index: 1, Raw: raw.Updates[0].Raw}), 428},
		{"compressed at rest: 10 + 1 + 59 + 47 + 1", measure(abs, &rest), 118},
		{"compressed moving: + 2 × 42", measure(abs, &moving), 202},
		{"delta, unchanged at rest: 10 + 1 + 1 + 5 + 1 + 1 + 1", measure(pkt, &pkt.Updates[1]), 20},
		{"no base, near the player: 10 + 1 + 1 + 1+42 + 47 + 1 + 84", measure(pkt, &pkt.Updates[3]), 187},
		{"no base, far, at rest: 10 + 1 + 1 + 1+59 + 47 + 1", measure(pkt, &pkt.Updates[4]), 120},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %d bits, want %d", tc.name, tc.got, tc.want)
		}
	}
}

// TestStateSyncGolden pins the wire format: go test ./statesync/ -run
// StateSyncGolden -update rewrites testdata/statesync_*.golden after an
// intended change.
func TestStateSyncGolden(t *testing.T) {
	_, pkt := stateSyncFixtures()
	for name, p := range map[string]*Packet{"statesync_delta.golden": pkt, "statesync_raw.golden": rawFixture()} {
		got, _ := writePacket(t, p)
		testutil.Golden(t, name, got)
	}
}

// TestStateSyncRejects feeds the reader packets that break the format: each
// must fail with the right error, without a panic.
func TestStateSyncRejects(t *testing.T) {
	base, pkt := stateSyncFixtures()
	good, _ := writePacket(t, pkt)
	hist := NewHistory()
	hist.Record(100, base)
	read := func(data []byte, h *History) error {
		p := Packet{NumCubes: 901, History: h}
		return p.Serialize(wire.NewReadStream(data))
	}
	if err := read(good, nil); !errors.Is(err, ErrMissingBase) {
		t.Errorf("without the base: %v", err)
	}
	for n := 0; n < len(good); n++ {
		if err := read(good[:n], hist); err == nil {
			t.Errorf("a packet cut to %d of %d bytes decoded", n, len(good))
		}
	}
	// Indices out of order cannot even be written.
	bad := *pkt
	bad.Updates[1], bad.Updates[2] = bad.Updates[2], bad.Updates[1]
	if err := bad.Serialize(wire.NewMeasureStream()); !errors.Is(err, ErrBadOrder) {
		t.Errorf("out of order: %v", err)
	}
	// A raw packet with a NaN position, or an at-rest flag that lies.
	raw := rawFixture()
	raw.Updates[0].Raw.Position[1] = float32(math.NaN())
	w := wire.NewWriteStream(make([]byte, 1024))
	if err := raw.Serialize(w); err != nil {
		t.Fatal(err)
	}
	if err := read(w.Bytes(), nil); !errors.Is(err, wire.ErrValueOutOfRange) {
		t.Errorf("NaN: %v", err)
	}
	raw = rawFixture()
	raw.Updates[1].Raw.AtRest = false
	raw.Updates[1].Raw.LinearVelocity[0] = 1
	raw.Updates[1].Raw.AtRest = true
	if err := raw.Serialize(wire.NewMeasureStream()); !errors.Is(err, wire.ErrValueOutOfRange) {
		t.Errorf("a lying at-rest flag: %v", err)
	}
	// More than 64 updates.
	w.Reset(make([]byte, 64))
	c, f := true, false
	_ = wire.SerializeBool(w, &f)
	_ = wire.SerializeBool(w, &c)
	_ = wire.SerializeBool(w, &f)
	_ = wire.SerializeBool(w, &f)
	for range Inputs {
		v := uint32(0)
		_ = wire.SerializeBits(w, &v, InputBits)
	}
	n := uint32(127)
	_ = wire.SerializeBits(w, &n, 7)
	if err := read(w.Bytes(), nil); !errors.Is(err, wire.ErrValueOutOfRange) {
		t.Errorf("127 updates: %v", err)
	}
}

// TestQuantizeStateSync: errors within half a grid step, at rest exactly
// when the velocities quantize to zero, and quantizing a dequantized state
// gives the same codes.
func TestQuantizeStateSync(t *testing.T) {
	for _, tc := range []struct {
		pos      mgl64.Vec3
		rot      mgl64.Quat
		lin, ang mgl64.Vec3
		rest     bool
	}{
		{mgl64.Vec3{1.23456, -7.891, 0.2}, quat(0.4, mgl64.Vec3{1, 2, 3}), mgl64.Vec3{3.3, -0.01, 20}, mgl64.Vec3{-5, 0.5, 15.9}, false},
		{mgl64.Vec3{0, 0, 0.2}, mgl64.QuatIdent(), mgl64.Vec3{1e-5, 0, 0}, mgl64.Vec3{0, -1e-5, 0}, true},
		{mgl64.Vec3{-255.9, 255.9, 31.9}, quat(3.1, mgl64.Vec3{0, 1, 0}), mgl64.Vec3{}, mgl64.Vec3{0, 0, 0.001}, false},
	} {
		q := QuantizeState(tc.pos, tc.rot, tc.lin, tc.ang)
		if q.AtRest != tc.rest {
			t.Errorf("%v: at rest %v", tc.pos, q.AtRest)
		}
		p, r, l, a := q.Dequantize()
		if d := p.Sub(tc.pos); math.Abs(d[0]) > 0.5/4096+1e-12 || math.Abs(d[1]) > 0.5/4096+1e-12 || math.Abs(d[2]) > 0.5/4096+1e-12 {
			t.Errorf("position error %v", d)
		}
		if ang := 2 * math.Acos(math.Min(1, math.Abs(r.Dot(tc.rot)))); ang > 1e-4 {
			t.Errorf("orientation error %v rad", ang)
		}
		if !tc.rest {
			if d := l.Sub(tc.lin); d.Len() > math.Sqrt(3)*0.5/256+1e-12 {
				t.Errorf("linear velocity error %v", d)
			}
			if d := a.Sub(tc.ang); d.Len() > math.Sqrt(3)*0.5/512+1e-12 {
				t.Errorf("angular velocity error %v", d)
			}
		}
		if q2 := QuantizeState(p, r, l, a); q2 != q {
			t.Errorf("requantizing changed %+v to %+v", q, q2)
		}
	}
}

func TestStateSyncHistoryFind(t *testing.T) {
	base, _ := stateSyncFixtures()
	h := NewHistory()
	h.Record(100, base)
	for k := range base.NumUpdates {
		u := &base.Updates[k]
		if s := h.Find(100, u.Index); s == nil || *s != u.State {
			t.Errorf("cube %d not found", u.Index)
		}
	}
	if h.Find(100, 6) != nil || h.Find(101, 0) != nil {
		t.Error("found what was not recorded")
	}
	h.Record(101, rawFixture())
	if h.Find(101, 0) != nil {
		t.Error("a raw packet served as a base")
	}
	if idx, st, compressed, ok := h.Entries(101); !ok || compressed || len(idx) != 2 || !st[1].AtRest {
		t.Errorf("entries of the raw packet: %v %v %v %v", idx, st, compressed, ok)
	}
}

func TestStateSyncSerializeAllocs(t *testing.T) {
	base, pkt := stateSyncFixtures()
	hist := NewHistory()
	hist.Record(100, base)
	buf := make([]byte, 4096)
	w := wire.NewWriteStream(buf)
	r := wire.NewReadStream(nil)
	m := wire.NewMeasureStream()
	var got Packet
	n := testing.AllocsPerRun(50, func() {
		w.Reset(buf)
		_ = pkt.Serialize(w)
		m.Reset()
		_ = pkt.Serialize(m)
		r.Reset(w.Bytes())
		got = Packet{NumCubes: 901, History: hist}
		_ = got.Serialize(r)
		hist.Record(110, &got)
	})
	if n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

func BenchmarkStateSyncPacket(b *testing.B) {
	base, pkt := stateSyncFixtures()
	hist := NewHistory()
	hist.Record(100, base)
	buf := make([]byte, 4096)
	w := wire.NewWriteStream(buf)
	r := wire.NewReadStream(nil)
	var got Packet
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf)
		_ = pkt.Serialize(w)
		r.Reset(w.Bytes())
		got = Packet{NumCubes: 901, History: hist}
		_ = got.Serialize(r)
	}
}

// FuzzStateSyncPacket decodes arbitrary bytes as a state packet, with a
// history holding the fixtures' base. Whatever decodes must be a valid
// packet, re-encode without error (to the same values: the encoder may pick
// a shorter form than a hand-made packet used), and measure as it writes.
func FuzzStateSyncPacket(f *testing.F) {
	base, pkt := stateSyncFixtures()
	for _, p := range []*Packet{base, pkt, rawFixture()} {
		w := wire.NewWriteStream(make([]byte, 4096))
		_ = p.Serialize(w)
		f.Add(append([]byte(nil), w.Bytes()...))
	}
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	hist := NewHistory()
	hist.Record(100, base)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := Packet{NumCubes: 901, History: hist}
		if err := p.Serialize(wire.NewReadStream(data)); err != nil {
			return
		}
		xyMin, xyMax, zMax := wire.PositionLimits(wire.StateSyncPositionResolution)
		qlo, qhi := wire.SmallestThreeLimits(wire.StateSyncOrientationBits)
		prev := int32(-1)
		for k := range p.NumUpdates {
			u := &p.Updates[k]
			if u.Index <= prev || u.Index >= 901 {
				t.Fatalf("index %d after %d", u.Index, prev)
			}
			prev = u.Index
			if !p.Compressed {
				if !u.Raw.valid() {
					t.Fatalf("invalid raw state %+v", u.Raw)
				}
				continue
			}
			s := &u.State
			if !inPositionLimits(s.Position, xyMin, xyMax, zMax) || !fitsRange3(s.Orientation.Small, qlo, qhi) || s.Orientation.Largest > 3 {
				t.Fatalf("state out of range %+v", s)
			}
			if s.AtRest != (s.LinearVelocity == wire.QuantizedVec3{} && s.AngularVelocity == wire.QuantizedVec3{}) && s.AtRest {
				t.Fatalf("at rest with velocity %+v", s)
			}
			if pos, rot, _, _ := s.Dequantize(); math.IsNaN(pos[0]) || math.Abs(rot.Len()-1) > 1e-9 {
				t.Fatalf("dequantized %v %v", pos, rot)
			}
		}
		w := wire.NewWriteStream(make([]byte, 8192))
		if err := p.Serialize(w); err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		ms := wire.NewMeasureStream()
		if err := p.Serialize(ms); err != nil || ms.BitsProcessed() != w.BitsProcessed() {
			t.Fatalf("measured %d bits, wrote %d (%v)", ms.BitsProcessed(), w.BitsProcessed(), err)
		}
		again := Packet{NumCubes: 901, History: hist}
		if err := again.Serialize(wire.NewReadStream(w.Bytes())); err != nil {
			t.Fatalf("re-read: %v", err)
		}
		again.History = p.History
		if again != p {
			t.Fatal("re-encoded packet reads back differently")
		}
	})
}
