package game

import (
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/net"
	"netcubes/physics"
)

// Config sets up a session.
type Config struct {
	Seed     uint64         // seeds the two links; same seed and inputs, same run
	World    cubes.Config   // the cube world
	Physics  physics.Config // its solver
	Link     net.LinkConfig // conditions of both directions
	Strategy StrategyID     // the strategy to start with
	// HistoryTicks is how far back the left is remembered for the error
	// figures and the ghost overlay; it must exceed the longest delay a
	// strategy shows (the snapshot buffer at 10 Hz with a nudged delay).
	HistoryTicks int
	// InputTicks is how many past inputs are kept for strategies that send
	// them redundantly (state sync sends the last 32).
	InputTicks int
}

// DefaultConfig is the demo as it starts: a perfect link, snapshot
// interpolation.
func DefaultConfig() Config {
	return Config{
		Seed:         1,
		World:        cubes.DefaultConfig(),
		Physics:      physics.DefaultConfig(),
		Strategy:     StrategySnapshot,
		HistoryTicks: 300,
		InputTicks:   128,
	}
}

// maxPacketBytes bounds one packet: the uncompressed snapshot (901 × 321
// bits ≈ 36 kB) must fit, as it does in a maximum-size UDP datagram.
const maxPacketBytes = 64 * 1024

// Session is one run of the demo.
type Session struct {
	cfg        Config
	left       *cubes.World
	initial    []cubes.CubeState
	frame      int
	inputs     []cubes.Input
	hist       *history
	strategies [NumStrategies]Strategy
	active     StrategyID
	ctx        Context

	toRight, toLeft *net.Link
	leftEP, rightEP *net.Endpoint

	w       *net.WriteStream
	r       *net.ReadStream
	m       *net.MeasureStream
	sendBuf []byte
	sentNow bool // a data packet left this tick

	metrics      Metrics
	second       [net.TicksPerSecond]net.Breakdown // per-tick bits, for SecondBits
	leftView     View
	right        View
	ghost        View
	prevErr      []mgl64.Vec3 // last tick's right − left offset per cube, for pops
	hasPrev      bool
	timelineSent []sentRecord
}

// New creates a session at frame 0, with one instance of every registered
// strategy.
func New(cfg Config) (*Session, error) {
	if cfg.HistoryTicks < 2 || cfg.InputTicks < 32 {
		return nil, errors.New("game: HistoryTicks must be ≥ 2 and InputTicks ≥ 32")
	}
	if cfg.Strategy < 0 || cfg.Strategy >= NumStrategies || strategyConstructors[cfg.Strategy] == nil {
		return nil, fmt.Errorf("game: no strategy %d", cfg.Strategy)
	}
	s := &Session{cfg: cfg, active: cfg.Strategy}
	s.ctx.s = s
	left, err := cubes.NewWorld(cfg.World, cfg.Physics)
	if err != nil {
		return nil, err
	}
	s.left = left
	s.initial = left.States(nil)
	s.inputs = make([]cubes.Input, cfg.InputTicks)
	s.hist = newHistory(cfg.HistoryTicks, left.NumCubes())
	s.prevErr = make([]mgl64.Vec3, left.NumCubes())
	s.sendBuf = make([]byte, maxPacketBytes)
	s.w = net.NewWriteStream(s.sendBuf)
	s.r = net.NewReadStream(nil)
	s.m = net.NewMeasureStream()
	s.toRight = net.NewLink(cfg.Link, cfg.Seed)
	s.toLeft = net.NewLink(cfg.Link, cfg.Seed^0x9e3779b97f4a7c15)
	for id, newFn := range strategyConstructors {
		if newFn != nil {
			s.strategies[id] = newFn()
		}
	}
	s.resetNetwork()
	s.hist.record(0, s.left)
	s.fillLeftView()
	return s, nil
}

// newWorld builds a world in the initial state (for simulating receivers).
func (s *Session) newWorld() *cubes.World {
	w, err := cubes.NewWorld(s.cfg.World, s.cfg.Physics)
	if err != nil {
		// The same configuration built the left world already.
		panic(err)
	}
	return w
}

// resetNetwork empties both links and endpoints and resets the active
// strategy: packets of an old strategy must never reach a new one.
func (s *Session) resetNetwork() {
	s.toRight.Reset(s.cfg.Seed + uint64(s.frame))
	s.toLeft.Reset((s.cfg.Seed + uint64(s.frame)) ^ 0x9e3779b97f4a7c15)
	s.leftEP = net.NewEndpoint(net.DefaultEndpointConfig())
	s.rightEP = net.NewEndpoint(net.DefaultEndpointConfig())
	s.metrics = Metrics{LastPacketFrame: -1}
	s.second = [net.TicksPerSecond]net.Breakdown{}
	s.timelineSent = s.timelineSent[:0]
	s.hasPrev = false
	s.strategies[s.active].Reset(&s.ctx)
}

// Frame is the number of ticks the left world has taken.
func (s *Session) Frame() int { return s.frame }

// Left is the authoritative world.
func (s *Session) Left() *cubes.World { return s.left }

// LeftAt returns cube i of the left world at (fractional) frame t, from
// the history the error metrics compare against, and false when frame t is
// no longer (or not yet) kept. Tools use it to judge the right against the
// left at any delay they choose.
func (s *Session) LeftAt(t float64, i int) (mgl64.Vec3, mgl64.Quat, bool) {
	return s.hist.pose(t, i)
}

// Strategy returns the active strategy.
func (s *Session) Strategy() Strategy { return s.strategies[s.active] }

// StrategyID returns the id of the active strategy.
func (s *Session) StrategyID() StrategyID { return s.active }

// StrategyByID returns the strategy with this id (to change its settings).
func (s *Session) StrategyByID(id StrategyID) Strategy { return s.strategies[id] }

// SetStrategy switches strategy. The right side and the links start over;
// the left world carries on.
func (s *Session) SetStrategy(id StrategyID) error {
	if id < 0 || id >= NumStrategies || s.strategies[id] == nil {
		return fmt.Errorf("game: no strategy %d", id)
	}
	s.active = id
	s.resetNetwork()
	return nil
}

// Restart resets the active strategy and the links without touching the
// left world (after a setting that changes the packet format).
func (s *Session) Restart() { s.resetNetwork() }

// Link returns the current link conditions.
func (s *Session) Link() net.LinkConfig { return s.cfg.Link }

// SetLink changes the conditions of both directions live; packets in
// flight keep the delay they were given.
func (s *Session) SetLink(c net.LinkConfig) {
	s.cfg.Link = c
	s.toRight.SetConfig(c)
	s.toLeft.SetConfig(c)
}

// Outage drops every packet sent in either direction for the next ticks.
func (s *Session) Outage(ticks int) {
	s.toRight.StartOutage(net.Tick(s.frame), ticks)
	s.toLeft.StartOutage(net.Tick(s.frame), ticks)
}

// HoldOutage drops everything while held is true (a key held down).
func (s *Session) HoldOutage(held bool) {
	s.toRight.SetHeld(net.Tick(s.frame), held)
	s.toLeft.SetHeld(net.Tick(s.frame), held)
}

// InOutage reports whether the link is dropping everything right now.
func (s *Session) InOutage() bool { return s.toRight.InOutage(net.Tick(s.frame)) }

func (s *Session) inputAt(f int) cubes.Input {
	if f < 0 || f > s.frame || s.frame-f >= len(s.inputs) {
		return cubes.Input{}
	}
	return s.inputs[f%len(s.inputs)]
}

// Step advances the session by one tick with the presenter's input.
func (s *Session) Step(in cubes.Input) {
	// 1. The left world.
	s.inputs[s.frame%len(s.inputs)] = in
	s.left.Step(in)
	s.frame++
	s.hist.record(s.frame, s.left)
	now := net.Tick(s.frame)
	st := s.strategies[s.active]

	// 2. Acks reaching the left.
	for _, d := range s.toLeft.Receive(now) {
		var h net.AckHeader
		s.r.Reset(d.Data)
		if h.Serialize(s.r) != nil {
			continue
		}
		acked, _ := s.leftEP.Received(now, h, len(d.Data))
		for _, seq := range acked {
			st.Acked(&s.ctx, seq)
		}
	}

	// 3. The sender.
	s.sentNow = false
	s.second[s.frame%len(s.second)] = net.Breakdown{}
	st.Send(&s.ctx)

	// 4. The receiver.
	for _, d := range s.toRight.Receive(now) {
		s.r.Reset(d.Data)
		var seq uint16
		s.r.SetCategory(net.CategoryHeader)
		if net.SerializeUint16(s.r, &seq) != nil {
			s.metrics.Rejected++
			continue
		}
		// Duplicates and packets too old to track are dropped here (the
		// endpoint still counts them); a packet that merely arrives out of
		// order is fresh.
		hdr := net.AckHeader{Sequence: seq}
		if !s.rightEP.IsFresh(seq) {
			s.rightEP.Received(now, hdr, len(d.Data))
			continue
		}
		// Only a packet the strategy accepted is acknowledged: the left
		// uses acked packets as delta baselines, so acking one the right
		// threw away would leave the two sides disagreeing on a baseline.
		if err := st.Receive(&s.ctx, seq, s.r); err != nil {
			s.metrics.Rejected++
			continue
		}
		s.rightEP.Received(now, hdr, len(d.Data))
	}
	st.Update(&s.ctx)

	// 5. The right acks what it has, every tick.
	s.sendAck(now)

	// 6. Views and metrics.
	s.fillLeftView()
	s.right.Cubes = s.right.Cubes[:0]
	shown, ok := st.View(&s.right)
	s.updateMetrics(shown, ok)
}

func (s *Session) sendAck(now net.Tick) {
	h := s.rightEP.Header()
	if !h.HasAck {
		return
	}
	s.w.Reset(s.sendBuf)
	if h.Serialize(s.w) != nil || s.w.SerializeAlign() != nil {
		return
	}
	pkt := s.w.Bytes()
	s.rightEP.Sent(now, len(pkt))
	s.toLeft.Send(now, pkt)
}

// send frames and sends a data packet from the left.
func (s *Session) send(p Payload) (int, error) {
	if s.sentNow {
		return 0, errors.New("game: one packet per tick")
	}
	now := net.Tick(s.frame)
	seq := uint16(s.frame)
	s.w.Reset(s.sendBuf)
	s.w.SetCategory(net.CategoryHeader)
	if err := net.SerializeUint16(s.w, &seq); err != nil {
		return 0, err
	}
	if err := p.Serialize(s.w); err != nil {
		return 0, err
	}
	if err := s.w.SerializeAlign(); err != nil {
		return 0, err
	}
	pkt := s.w.Bytes()
	s.leftEP.SkipTo(seq)
	s.leftEP.Sent(now, len(pkt))
	id := s.toRight.Send(now, pkt)
	s.sentNow = true
	b := s.w.Breakdown()
	s.metrics.LastPacket = b
	s.metrics.LastPacketBytes = len(pkt)
	s.metrics.LastPacketFrame = s.frame
	s.second[s.frame%len(s.second)] = b
	s.recordPacket(id, seq, len(pkt))
	return len(pkt), nil
}

// measure counts the bits of p after the sequence number.
func (s *Session) measure(p Payload) (net.Breakdown, error) {
	s.m.Reset()
	var seq uint16
	s.m.SetCategory(net.CategoryHeader)
	if err := net.SerializeUint16(s.m, &seq); err != nil {
		return net.Breakdown{}, err
	}
	err := p.Serialize(s.m)
	return s.m.Breakdown(), err
}

func (s *Session) fillLeftView() {
	s.leftView.Cubes = s.leftView.Cubes[:0]
	s.leftView.Player = cubes.Player
	for i := 0; i < s.left.NumCubes(); i++ {
		c := s.left.Cube(i)
		s.leftView.Cubes = append(s.leftView.Cubes, CubeView{
			Position:    c.Position,
			Orientation: c.Orientation,
			HalfExtent:  s.left.HalfExtent(i),
			Player:      i == cubes.Player,
			Interacting: c.Interacting,
			AtRest:      s.left.AtRest(i),
		})
	}
}

// LeftView is the authoritative world as the left shows it.
func (s *Session) LeftView() *View { return &s.leftView }

// RightView is the world the strategy rebuilt.
func (s *Session) RightView() *View { return &s.right }

// GhostView is the left world at the frame the right is showing, for the
// ghost overlay; nil when there is nothing to compare.
func (s *Session) GhostView() *View {
	if !s.metrics.Valid {
		return nil
	}
	return &s.ghost
}

// Metrics are this tick's figures.
func (s *Session) Metrics() *Metrics { return &s.metrics }

func (s *Session) updateMetrics(shown float64, ok bool) {
	m := &s.metrics
	now := net.Tick(s.frame)
	m.Frame = s.frame
	m.SentKbps = s.leftEP.SentKbps(now)
	m.AckKbps = s.rightEP.SentKbps(now)
	st := s.toRight.Stats()
	m.PacketsSent, m.PacketsDelivered = st.Sent, st.Delivered
	m.PacketsLost = st.Lost + st.OutageDropped + st.QueueDropped + st.OverflowDropped
	m.RTTms, m.HasRTT = s.leftEP.RTT()
	m.Loss = s.leftEP.PacketLoss()
	m.SecondBits = net.Breakdown{}
	for i := range s.second {
		m.SecondBits.Add(s.second[i])
	}

	m.Valid = false
	m.ShownFrame = shown
	if !ok || len(s.right.Cubes) != s.left.NumCubes() {
		s.hasPrev = false
		return
	}
	m.DelayMs = (float64(s.frame) - shown) * 1000 / net.TicksPerSecond
	s.ghost.Cubes = s.ghost.Cubes[:0]
	s.ghost.Player = cubes.Player
	var sum, maxPos, maxAng, maxPop float64
	for i := range s.right.Cubes {
		p, q, ok := s.hist.pose(shown, i)
		if !ok {
			s.hasPrev = false
			return
		}
		rc := &s.right.Cubes[i]
		s.ghost.Cubes = append(s.ghost.Cubes, CubeView{Position: p, Orientation: q, HalfExtent: rc.HalfExtent, Player: rc.Player})
		d := rc.Position.Sub(p)
		e := d.Len()
		sum += e * e
		maxPos = math.Max(maxPos, e)
		maxAng = math.Max(maxAng, angleBetween(rc.Orientation, q))
		if s.hasPrev {
			maxPop = math.Max(maxPop, d.Sub(s.prevErr[i]).Len())
		}
		s.prevErr[i] = d
	}
	n := float64(len(s.right.Cubes))
	m.Valid = true
	m.PosRMSCm = 100 * math.Sqrt(sum/n)
	m.PosMaxCm = 100 * maxPos
	m.OrientMaxDeg = maxAng * 180 / math.Pi
	m.MaxPopCm = 0
	if s.hasPrev {
		m.MaxPopCm = 100 * maxPop
	}
	s.hasPrev = true
}
