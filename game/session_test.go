package game

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
	"netcubes/wire/wiretest"
)

// echoPacket carries every cube's pose as raw floats: the simplest payload
// that exercises framing, acks and the error figures.
type echoPacket struct {
	pos []mgl64.Vec3
	rot []mgl64.Quat
}

func (p *echoPacket) Serialize(s wire.Stream) error {
	n := int32(len(p.pos))
	if err := wire.SerializeInt(s, &n, 0, 1023); err != nil {
		return err
	}
	if s.IsReading() {
		p.pos = p.pos[:0]
		p.rot = p.rot[:0]
		for i := int32(0); i < n; i++ {
			p.pos = append(p.pos, mgl64.Vec3{})
			p.rot = append(p.rot, mgl64.Quat{})
		}
	}
	s.SetCategory(wire.CategoryPosition)
	for i := range p.pos {
		for k := 0; k < 3; k++ {
			if err := wire.SerializeFloat64(s, &p.pos[i][k]); err != nil {
				return err
			}
		}
		if err := wire.SerializeFloat64(s, &p.rot[i].W); err != nil {
			return err
		}
		for k := 0; k < 3; k++ {
			if err := wire.SerializeFloat64(s, &p.rot[i].V[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// echoStrategy sends the whole world every `every` ticks and shows the
// newest packet as it is.
type echoStrategy struct {
	every  int
	out    echoPacket
	in     echoPacket
	frame  int
	have   bool
	acked  []uint16
	halves []float64
}

func (e *echoStrategy) ID() string                   { return "echo" }
func (e *echoStrategy) Name() string                 { return "echo" }
func (e *echoStrategy) Family() string               { return "Echo" }
func (e *echoStrategy) Mode() string                 { return "test" }
func (e *echoStrategy) Explain() string              { return "test strategy" }
func (e *echoStrategy) Controls() []strategy.Control { return nil }
func (e *echoStrategy) SubMode(int) string           { return "" }
func (e *echoStrategy) Clone() strategy.Strategy     { return &echoStrategy{every: e.every} }
func (e *echoStrategy) Reset(ctx strategy.Context) {
	e.have, e.acked = false, nil
}
func (e *echoStrategy) Send(ctx strategy.Context) {
	if ctx.Frame()%e.every != 0 {
		return
	}
	w := ctx.Left()
	e.out.pos, e.out.rot, e.halves = e.out.pos[:0], e.out.rot[:0], e.halves[:0]
	for i := 0; i < w.NumCubes(); i++ {
		c := w.Cube(i)
		e.out.pos = append(e.out.pos, c.Position)
		e.out.rot = append(e.out.rot, c.Orientation)
		e.halves = append(e.halves, w.HalfExtent(i))
	}
	if _, err := ctx.Send(&e.out); err != nil {
		panic(err)
	}
}
func (e *echoStrategy) Acked(ctx strategy.Context, seq uint16) { e.acked = append(e.acked, seq) }
func (e *echoStrategy) Receive(ctx strategy.Context, seq uint16, s *wire.ReadStream) error {
	if err := e.in.Serialize(s); err != nil {
		return err
	}
	// Unwrap the 16-bit sequence to the frame nearest the current one.
	e.frame = ctx.Frame() - int(uint16(ctx.Frame())-seq)
	e.have = true
	return nil
}
func (e *echoStrategy) Update(ctx strategy.Context) {}
func (e *echoStrategy) View(v *viewmodel.View) (float64, bool) {
	if !e.have {
		return 0, false
	}
	for i := range e.in.pos {
		v.Cubes = append(v.Cubes, viewmodel.CubeView{Position: e.in.pos[i], Orientation: e.in.rot[i], HalfExtent: e.halves[i]})
	}
	return float64(e.frame), true
}

// withEcho runs f in a session whose only strategy is the echo strategy.
func withEcho(t *testing.T, every int, cfg Config, f func(s *Session, e *echoStrategy)) {
	t.Helper()
	e := &echoStrategy{every: every}
	cfg.Strategies = []strategy.Strategy{e}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f(s, e)
}

func TestSessionPerfectLinkHasNoError(t *testing.T) {
	withEcho(t, 1, DefaultConfig(), func(s *Session, e *echoStrategy) {
		sc, _ := cubes.LoadScript("katamari")
		for f := 0; f < 240; f++ {
			s.Step(sc.InputAt(f))
			m := s.Metrics()
			if !m.Valid || m.PosMaxCm != 0 || m.OrientMaxDeg != 0 || m.ShownFrame != float64(s.Frame()) {
				t.Fatalf("frame %d: a perfect link with full float states should show the present exactly: %+v", f, m)
			}
		}
		m := s.Metrics()
		// 901 cubes × 7 float64 + 10-bit count + 16-bit sequence, aligned.
		wantBytes := (16 + 10 + 901*7*64 + 7) / 8
		if m.LastPacketBytes != wantBytes {
			t.Errorf("packet is %d bytes, want %d", m.LastPacketBytes, wantBytes)
		}
		wantKbps := float64((wantBytes+wire.PacketHeaderBytes)*8*60) / 1000
		if math.Abs(m.SentKbps-wantKbps) > 0.01*wantKbps {
			t.Errorf("sent %.1f kbit/s, want %.1f", m.SentKbps, wantKbps)
		}
		// The breakdown accounts for every bit, padding included.
		if m.LastPacket.Total() != 8*wantBytes {
			t.Errorf("breakdown total %d bits, want %d", m.LastPacket.Total(), 8*wantBytes)
		}
		if got := m.LastPacket.Bits(wire.CategoryHeader); got != 16+10 {
			t.Errorf("header bits %d, want 26", got)
		}
		if len(e.acked) < 230 {
			t.Errorf("only %d packets acked on a perfect link", len(e.acked))
		}
	})
}

// TestSessionLeftAt: the left's history serves any past frame exactly,
// fractional frames in between, and nothing it no longer (or not yet)
// keeps.
func TestSessionLeftAt(t *testing.T) {
	cfg := DefaultConfig()
	cfg.HistoryTicks = 30
	cfg.Strategies = []strategy.Strategy{&echoStrategy{every: 1}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := cubes.LoadScript("katamari")
	past := map[int]mgl64.Vec3{}
	for f := 0; f < 120; f++ {
		s.Step(sc.InputAt(f))
		past[s.Frame()] = s.Left().Cube(cubes.Player).Position
	}
	now := s.Frame()
	for _, tc := range []struct {
		frame float64
		ok    bool
	}{
		{float64(now), true},
		{float64(now - 29), true},
		{float64(now) - 10.25, true},
		{float64(now - 30), false}, // overwritten by the ring
		{float64(now + 1), false},  // not yet simulated
		{-1, false},
	} {
		p, q, ok := s.LeftAt(tc.frame, cubes.Player)
		if ok != tc.ok {
			t.Errorf("frame %v: ok = %v, want %v", tc.frame, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		f := int(math.Floor(tc.frame))
		u := tc.frame - float64(f)
		want := past[f]
		if u > 0 {
			want = want.Add(past[f+1].Sub(want).Mul(u))
		}
		if p.Sub(want).Len() > 1e-12 || math.Abs(q.Len()-1) > 1e-9 {
			t.Errorf("frame %v: %v (|q| %v), want %v", tc.frame, p, q.Len(), want)
		}
	}
}

func TestSessionLatencyAndLoss(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Link = link.PresetIntercontinental.Config()
	withEcho(t, 1, cfg, func(s *Session, e *echoStrategy) {
		sc, _ := cubes.LoadScript("katamari")
		for f := 0; f < 900; f++ {
			s.Step(sc.InputAt(f))
		}
		m := s.Metrics()
		if !m.HasRTT || m.RTTms < 180 || m.RTTms > 260 {
			t.Errorf("RTT %.0f ms, want about 2 × 100 ms (plus tick rounding)", m.RTTms)
		}
		if m.Loss < 0.02 || m.Loss > 0.09 {
			t.Errorf("measured loss %.3f, want about 0.05", m.Loss)
		}
		if m.DelayMs < 90 || m.DelayMs > 140 {
			t.Errorf("the newest packet shows the left %.0f ms ago, want about 100", m.DelayMs)
		}
		// Compared at the frame it shows, the echo has no error at all.
		if !m.Valid || m.PosMaxCm != 0 {
			t.Errorf("error at the shown frame should be zero: %+v", m)
		}
		tl := s.Timeline(nil)
		var lost, delivered, acked int
		for _, p := range tl {
			switch p.Fate {
			case link.FateLost:
				lost++
			case link.FateDelivered:
				delivered++
				if p.Arrival-p.Sent < 5 || p.Arrival-p.Sent > 8 {
					t.Errorf("packet %d took %d ticks", p.Seq, p.Arrival-p.Sent)
				}
			}
			if p.Acked {
				acked++
				if p.Fate != link.FateDelivered {
					t.Errorf("packet %d acked but %v", p.Seq, p.Fate)
				}
			}
		}
		if len(tl) < 200 || lost == 0 || delivered < len(tl)*8/10 || acked < delivered*8/10 {
			t.Errorf("timeline: %d packets, %d delivered, %d lost, %d acked", len(tl), delivered, lost, acked)
		}
	})
}

func TestSessionDeterministic(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Link = link.PresetTerrible.Config()
	run := func() (uint64, viewmodel.Metrics) {
		var h uint64
		var m viewmodel.Metrics
		withEcho(t, 3, cfg, func(s *Session, e *echoStrategy) {
			sc, _ := cubes.LoadScript("katamari")
			for f := 0; f < 600; f++ {
				s.Step(sc.InputAt(f))
			}
			h, m = s.Left().StateHash(), *s.Metrics()
		})
		return h, m
	}
	h1, m1 := run()
	h2, m2 := run()
	if h1 != h2 || m1 != m2 {
		t.Errorf("two runs differ:\n%+v\n%+v", m1, m2)
	}
}

func TestSessionRejectsGarbage(t *testing.T) {
	withEcho(t, 1, DefaultConfig(), func(s *Session, e *echoStrategy) {
		s.Step(cubes.Input{})
		// Hand the right a truncated packet directly through the link.
		s.clients[0].toRight.Send(wire.Tick(s.frame+1), []byte{1})
		s.clients[0].toRight.Send(wire.Tick(s.frame+1), []byte{7, 0, 0xff, 0xff, 0xff})
		s.Step(cubes.Input{})
		if m := s.Metrics(); m.Rejected != 2 {
			t.Errorf("rejected %d packets, want 2", m.Rejected)
		}
		// A rejected packet must not be acknowledged: the left would take
		// it for a baseline the right does not have.
		h := s.clients[0].rightEP.Header()
		if !s.clients[0].rightEP.IsFresh(7) || wiretest.Acked(h, 7) {
			t.Error("the right acknowledged a packet it rejected")
		}
	})
}

func TestSessionStepAllocs(t *testing.T) {
	withEcho(t, 1, DefaultConfig(), func(s *Session, e *echoStrategy) {
		for f := 0; f < 120; f++ {
			s.Step(cubes.Input{Up: true})
		}
		if n := testing.AllocsPerRun(20, func() { s.Step(cubes.Input{Up: true}) }); n > 0 {
			t.Errorf("a session step allocates %v times", n)
		}
	})
}

// backPacket is a strategy payload from the right: one frame number.
type backPacket struct{ frame uint32 }

func (p *backPacket) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryInput)
	return wire.SerializeUint32(s, &p.frame)
}

// clientStrategy is a two-way, right-driven strategy in miniature: the
// right keeps the presenter's input and sends it back every tick with its
// frame; the left steps with the newest input that came back.
type clientStrategy struct {
	echoStrategy
	back   backPacket
	got    []uint32 // frames the left received back, in order
	leftIn cubes.Input
	newest int
}

func (c *clientStrategy) SendBack(ctx strategy.Context) {
	in := ctx.PresenterInput()
	c.back.frame = uint32(ctx.Frame())<<8 | uint32(in.Bits())
	if _, err := ctx.SendBack(&c.back); err != nil {
		panic(err)
	}
}

func (c *clientStrategy) ReceiveBack(ctx strategy.Context, s *wire.ReadStream) error {
	var p backPacket
	if err := p.Serialize(s); err != nil {
		return err
	}
	c.got = append(c.got, p.frame>>8)
	if f := int(p.frame >> 8); f > c.newest {
		c.newest = f
		c.leftIn = cubes.InputFromBits(uint8(p.frame))
	}
	return nil
}

func (c *clientStrategy) LeftInput(ctx strategy.Context) cubes.Input { return c.leftIn }
func (c *clientStrategy) Clone() strategy.Strategy {
	return &clientStrategy{echoStrategy: echoStrategy{every: c.every}}
}
func (c *clientStrategy) SideLabels() (string, string, string, string) {
	return "SERVER", "", "CLIENT", ""
}

// TestSessionTwoWayRightDriven: with a right-driven strategy the left steps
// with the input that came back over the link, one round trip late, never
// the presenter's directly; the payload rides in the ack packets and is
// counted in the right → left bandwidth.
func TestSessionTwoWayRightDriven(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Link = link.Config{LatencyMs: 50}
	c := &clientStrategy{echoStrategy: echoStrategy{every: 1}}
	cfg.Strategies = []strategy.Strategy{c}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	up := cubes.Input{Up: true}
	for f := 0; f < 60; f++ {
		in := cubes.Input{}
		if f >= 10 {
			in = up
		}
		s.Step(in)
		// 50 ms is 3 ticks one way: the left sees the key 3 ticks after
		// the right pressed it (sent at the end of tick 10, received at
		// the start of tick 13).
		want := cubes.Input{}
		if f >= 10+3 {
			want = up
		}
		if got := s.Context().Input(s.Frame() - 1); got != want {
			t.Fatalf("tick %d: the left stepped with %+v, want %+v", f, got, want)
		}
	}
	if len(c.got) == 0 || s.Metrics().AckKbps <= 0 || s.Metrics().LastBackFrame != s.Frame() {
		t.Errorf("payloads back: %d, ack kbit/s %.1f, last back frame %d", len(c.got), s.Metrics().AckKbps, s.Metrics().LastBackFrame)
	}
	for k := 1; k < len(c.got); k++ {
		if c.got[k] != c.got[k-1]+1 {
			t.Fatalf("payloads back out of order: %v", c.got)
		}
	}
	if s.Metrics().RejectedBack != 0 {
		t.Errorf("%d packets back rejected", s.Metrics().RejectedBack)
	}
	// A payload the active strategy cannot take (it is not two-way) is
	// counted and dropped, and its ack still counts.
	withEcho(t, 1, DefaultConfig(), func(s *Session, e *echoStrategy) {
		s.Step(cubes.Input{})
		s.clients[0].toLeft.Send(wire.Tick(s.frame+1), []byte{1, 0, 0, 9, 9})
		s.Step(cubes.Input{})
		if m := s.Metrics(); m.RejectedBack != 1 {
			t.Errorf("rejected %d packets back, want 1", m.RejectedBack)
		}
	})
}

// TestSessionStrategyList: the list is checked, and switching changes the
// active strategy.
func TestSessionStrategyList(t *testing.T) {
	cfg := DefaultConfig()
	if _, err := New(cfg); err == nil {
		t.Error("a session without strategies")
	}
	e1, e2 := &echoStrategy{every: 1}, &echoStrategy{every: 2}
	cfg.Strategies = []strategy.Strategy{e1, e2}
	if _, err := New(cfg); err == nil {
		t.Error("two strategies with one ID")
	}
	cfg.Strategies = []strategy.Strategy{e1}
	cfg.Start = 1
	if _, err := New(cfg); err == nil {
		t.Error("a start beyond the list")
	}
	cfg.Start = 0
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s.Strategy() != e1 || s.StrategyIndex() != 0 || s.SetStrategy(1) == nil {
		t.Error("strategy switching")
	}
}
