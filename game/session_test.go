package game

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/net"
)

// echoPacket carries every cube's pose as raw floats: the simplest payload
// that exercises framing, acks and the error figures.
type echoPacket struct {
	pos []mgl64.Vec3
	rot []mgl64.Quat
}

func (p *echoPacket) Serialize(s net.Stream) error {
	n := int32(len(p.pos))
	if err := net.SerializeInt(s, &n, 0, 1023); err != nil {
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
	s.SetCategory(net.CategoryPosition)
	for i := range p.pos {
		for k := 0; k < 3; k++ {
			if err := net.SerializeFloat64(s, &p.pos[i][k]); err != nil {
				return err
			}
		}
		if err := net.SerializeFloat64(s, &p.rot[i].W); err != nil {
			return err
		}
		for k := 0; k < 3; k++ {
			if err := net.SerializeFloat64(s, &p.rot[i].V[k]); err != nil {
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

func (e *echoStrategy) Name() string    { return "echo" }
func (e *echoStrategy) Mode() string    { return "test" }
func (e *echoStrategy) Explain() string { return "test strategy" }
func (e *echoStrategy) Reset(ctx *Context) {
	e.have, e.acked = false, nil
}
func (e *echoStrategy) Send(ctx *Context) {
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
func (e *echoStrategy) Acked(ctx *Context, seq uint16) { e.acked = append(e.acked, seq) }
func (e *echoStrategy) Receive(ctx *Context, seq uint16, s *net.ReadStream) error {
	if err := e.in.Serialize(s); err != nil {
		return err
	}
	// Unwrap the 16-bit sequence to the frame nearest the current one.
	e.frame = ctx.Frame() - int(uint16(ctx.Frame())-seq)
	e.have = true
	return nil
}
func (e *echoStrategy) Update(ctx *Context) {}
func (e *echoStrategy) View(v *View) (float64, bool) {
	if !e.have {
		return 0, false
	}
	for i := range e.in.pos {
		v.Cubes = append(v.Cubes, CubeView{Position: e.in.pos[i], Orientation: e.in.rot[i], HalfExtent: e.halves[i]})
	}
	return float64(e.frame), true
}

// withEcho runs f with the echo strategy installed as the snapshot strategy.
func withEcho(t *testing.T, every int, cfg Config, f func(s *Session, e *echoStrategy)) {
	t.Helper()
	saved := strategyConstructors
	defer func() { strategyConstructors = saved }()
	e := &echoStrategy{every: every}
	strategyConstructors[StrategySnapshot] = func() Strategy { return e }
	cfg.Strategy = StrategySnapshot
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
		wantKbps := float64((wantBytes+net.PacketHeaderBytes)*8*60) / 1000
		if math.Abs(m.SentKbps-wantKbps) > 0.01*wantKbps {
			t.Errorf("sent %.1f kbit/s, want %.1f", m.SentKbps, wantKbps)
		}
		// The breakdown accounts for every bit, padding included.
		if m.LastPacket.Total() != 8*wantBytes {
			t.Errorf("breakdown total %d bits, want %d", m.LastPacket.Total(), 8*wantBytes)
		}
		if got := m.LastPacket.Bits(net.CategoryHeader); got != 16+10 {
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
	cfg.Link = net.PresetIntercontinental.Config()
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
			case net.FateLost:
				lost++
			case net.FateDelivered:
				delivered++
				if p.Arrival-p.Sent < 5 || p.Arrival-p.Sent > 8 {
					t.Errorf("packet %d took %d ticks", p.Seq, p.Arrival-p.Sent)
				}
			}
			if p.Acked {
				acked++
				if p.Fate != net.FateDelivered {
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
	cfg.Link = net.PresetTerrible.Config()
	run := func() (uint64, Metrics) {
		var h uint64
		var m Metrics
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
		s.toRight.Send(net.Tick(s.frame+1), []byte{1})
		s.toRight.Send(net.Tick(s.frame+1), []byte{7, 0, 0xff, 0xff, 0xff})
		s.Step(cubes.Input{})
		if m := s.Metrics(); m.Rejected != 2 {
			t.Errorf("rejected %d packets, want 2", m.Rejected)
		}
		// A rejected packet must not be acknowledged: the left would take
		// it for a baseline the right does not have.
		h := s.rightEP.Header()
		if !s.rightEP.IsFresh(7) || h.Acked(7) {
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
