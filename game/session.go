package game

import (
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/geom"
	"netcubes/link"
	"netcubes/physics"
	"netcubes/strategy"
	"netcubes/udp"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Config sets up a session.
type Config struct {
	Seed    uint64         // seeds the two links; same seed and inputs, same run
	World   cubes.Config   // the cube world
	Physics physics.Config // its solver
	Link    link.Config    // conditions of both directions
	// Strategies are the strategies the session can switch between, in
	// menu order (the number keys); the list is built in one place
	// (package catalog) and each entry is one instance with its own
	// settings. Start is the index of the one to start with.
	Strategies []strategy.Strategy
	Start      int
	// HistoryTicks is how far back the left is remembered for the error
	// figures and the ghost overlay; it must exceed the longest delay a
	// strategy shows (the snapshot buffer at 10 Hz with a nudged delay).
	HistoryTicks int
	// InputTicks is how many past inputs are kept for strategies that send
	// them redundantly (state sync sends the last 32).
	InputTicks int

	// The two-process mode (twoproc.go): Role says which half this process
	// runs, Net is its connection (needed unless the role is RoleBoth),
	// Epoch numbers the left's sessions (a left that restarts gives the
	// new session a larger one, and its right starts over), DiagEvery is
	// the diagnostics period in ticks (0: none).
	Role      Role
	Net       *udp.Conn
	Epoch     uint32
	DiagEvery int
	// ChosenLink starts with the link the start strategy's mode asks for
	// (strategy.LinkChooser: lockstep's modes) instead of Link; the app
	// sets it when no network flag was given.
	ChosenLink bool

	// Tap, when set, sees every packet the session puts on a link, as it
	// leaves: toRight for data packets, false for the ack packets going
	// back. data is only valid during the call. Tests and fuzz harnesses
	// use it to capture real packets; the app leaves it nil.
	Tap func(toRight bool, data []byte)
}

// DefaultConfig is the demo as it starts: a perfect link, no strategies yet
// (give it catalog.All(), or the ones a test needs).
func DefaultConfig() Config {
	return Config{
		Seed:         1,
		World:        cubes.DefaultConfig(),
		Physics:      physics.DefaultConfig(),
		HistoryTicks: 300,
		InputTicks:   128,
		DiagEvery:    DefaultDiagEvery,
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
	strategies []strategy.Strategy
	active     int
	ctx        sessionContext
	presenter  cubes.Input // this tick's input from the keys or the script

	toRight, toLeft *link.Link
	leftEP, rightEP *wire.Endpoint

	w        *wire.WriteStream
	r        *wire.ReadStream
	m        *wire.MeasureStream
	sendBuf  []byte
	sentNow  bool // a data packet left this tick
	back     *wire.WriteStream
	backBuf  []byte
	backSent bool // the strategy wrote a payload for this tick's ack packet

	metrics      viewmodel.Metrics
	second       [wire.TicksPerSecond]wire.Breakdown // per-tick bits, for SecondBits
	leftView     viewmodel.View
	right        viewmodel.View
	ghost        viewmodel.View
	acksIn       []ackIn
	arrived      [][]byte              // scratch: the packets of this tick's deliveries
	pairs        []physics.ContactPair // scratch for HardestImpact
	prevErr      []mgl64.Vec3          // last tick's right − left offset per cube, for pops
	hasPrev      bool
	timelineSent []sentRecord
	timelineRecv []viewmodel.PacketRecord // a right process's arrivals
	linkBy       string                   // what set the link, when a strategy's mode did

	// The two-process mode (twoproc.go).
	net               *udp.Conn
	ctlW, keyW, diagW *wire.WriteStream
	ctlBuf, keyBuf    []byte
	diagBuf           []byte
	ctlSeq            uint32
	connEpoch         uint64   // the connection the left's strategy state is for
	events            []string // the session's own notes for Events
	lastKey           []byte
	joined            bool // the right process follows a left
	remote            remoteState
	leftFrame         int // the newest left frame a control datagram gave
	lastDiag          int
	remoteHash        uint64
	remoteHashFrame   int
	diagPos           []mgl64.Vec3
	diagRot           []mgl64.Quat

	onSend func(pkt []byte) // tests: sees every data packet the left sends
}

// New creates a session at frame 0 with cfg.Strategies, starting with
// cfg.Start. The session keeps the strategies (they are not copied): a
// caller may hold on to one to change its settings between Steps.
func New(cfg Config) (*Session, error) {
	if cfg.HistoryTicks < 2 || cfg.InputTicks < 32 {
		return nil, errors.New("game: HistoryTicks must be ≥ 2 and InputTicks ≥ 32")
	}
	if len(cfg.Strategies) == 0 {
		return nil, errors.New("game: no strategies")
	}
	if cfg.Start < 0 || cfg.Start >= len(cfg.Strategies) {
		return nil, fmt.Errorf("game: no strategy %d", cfg.Start)
	}
	for i, st := range cfg.Strategies {
		if st == nil {
			return nil, fmt.Errorf("game: strategy %d is nil", i)
		}
		for _, o := range cfg.Strategies[:i] {
			if o.ID() == st.ID() || o == st {
				return nil, fmt.Errorf("game: strategy %q is in the list twice", st.ID())
			}
		}
	}
	if cfg.Role != RoleBoth && cfg.Net == nil {
		return nil, errors.New("game: the two-process mode needs a connection")
	}
	s := &Session{cfg: cfg, active: cfg.Start, strategies: cfg.Strategies, net: cfg.Net, lastDiag: -1}
	if cfg.Role != RoleBoth {
		s.ctlBuf, s.keyBuf, s.diagBuf = make([]byte, 4096), make([]byte, 4096), make([]byte, maxPacketBytes)
		s.ctlW, s.keyW, s.diagW = wire.NewWriteStream(s.ctlBuf), wire.NewWriteStream(s.keyBuf), wire.NewWriteStream(s.diagBuf)
	}
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
	s.backBuf = make([]byte, maxPacketBytes)
	s.w = wire.NewWriteStream(s.sendBuf)
	s.back = wire.NewWriteStream(s.backBuf)
	s.r = wire.NewReadStream(nil)
	s.m = wire.NewMeasureStream()
	s.toRight = link.New(cfg.Link, cfg.Seed)
	s.toLeft = link.New(cfg.Link, cfg.Seed^0x9e3779b97f4a7c15)
	if cfg.ChosenLink {
		s.applyChosenLink()
	}
	s.resetNetwork()
	s.hist.record(0, s.left)
	s.fillLeftView()
	if cfg.Role == RoleLeft {
		// A right may connect before the first tick: it starts from here.
		if body := s.writeState(s.ctlW, s.ctlBuf, s.leftState(0)); body != nil {
			s.net.SetAccept(body)
		}
	}
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
	s.leftEP = wire.NewEndpoint(wire.DefaultEndpointConfig())
	s.rightEP = wire.NewEndpoint(wire.DefaultEndpointConfig())
	s.metrics = viewmodel.Metrics{LastPacketFrame: -1, LastBackFrame: -1}
	s.second = [wire.TicksPerSecond]wire.Breakdown{}
	s.timelineSent = s.timelineSent[:0]
	s.timelineRecv = s.timelineRecv[:0]
	s.hasPrev = false
	s.strategies[s.active].Reset(&s.ctx)
}

// Context is the session as its active strategy sees it, for a test or a
// fuzzer that drives a strategy's methods directly.
func (s *Session) Context() strategy.Context { return &s.ctx }

// InjectPacket puts data on the link towards the right (toRight) or the
// left as if the other side had sent it this tick: a test or a fuzzer
// hands a side hostile bytes the way the network would.
func (s *Session) InjectPacket(toRight bool, data []byte) {
	if toRight {
		s.toRight.Send(wire.Tick(s.frame), data)
	} else {
		s.toLeft.Send(wire.Tick(s.frame), data)
	}
}

// MaxWarpFrame bounds Warp: a few times the 16-bit sequence space, so a
// test can put a session past several wraps of the sequence numbers.
const MaxWarpFrame = 1 << 20

// Warp moves the session to frame f at once, without simulating the frames
// in between: the left world keeps its state and takes f as its frame
// number, the input record and the history are forgotten, and the links
// and the active strategy start over (as after Restart), so everything the
// strategy then sees is as consistent as after a switch of strategy at
// frame f. A fuzz harness uses it to try a packet at frame 70,000 (past a
// wrap of the sequence numbers) in microseconds instead of 20 minutes of
// simulation; the app never calls it.
func (s *Session) Warp(f int) error {
	if f < 0 || f > MaxWarpFrame {
		return fmt.Errorf("game: cannot warp to frame %d (0..%d)", f, MaxWarpFrame)
	}
	s.frame = f
	s.left.SetFrame(f)
	for i := range s.inputs {
		s.inputs[i] = cubes.Input{}
	}
	s.hist.clear()
	s.hist.record(f, s.left)
	s.resetNetwork()
	s.fillLeftView()
	s.right.Cubes = s.right.Cubes[:0]
	return nil
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
func (s *Session) Strategy() strategy.Strategy { return s.strategies[s.active] }

// StrategyIndex returns the index of the active strategy in the list.
func (s *Session) StrategyIndex() int { return s.active }

// Strategies returns the session's strategies, in menu order (the caller
// must not change the slice).
func (s *Session) Strategies() []strategy.Strategy { return s.strategies }

// SetStrategy switches to strategy i of the list. The right side and the
// links start over; the left world carries on.
func (s *Session) SetStrategy(i int) error {
	if i < 0 || i >= len(s.strategies) {
		return fmt.Errorf("game: no strategy %d", i)
	}
	if r, ok := s.strategies[s.active].(strategy.Releaser); ok && i != s.active {
		r.Release() // nothing large kept for a strategy that is not running
	}
	s.active = i
	s.applyChosenLink()
	s.resetNetwork()
	return nil
}

// SubMode steps the active strategy's sub-mode (the `[` and `]` keys) and
// returns what it says; a strategy whose sub-modes are network conditions
// (strategy.LinkChooser) sets the link too.
func (s *Session) SubMode(dir int) string {
	msg := s.strategies[s.active].SubMode(dir)
	s.applyChosenLink()
	return msg
}

// applyChosenLink sets the link the active strategy's mode asks for.
func (s *Session) applyChosenLink() {
	if lc, ok := s.strategies[s.active].(strategy.LinkChooser); ok {
		c, name := lc.ChosenLink()
		s.SetLink(c)
		s.linkBy = name
	}
}

// LinkSource names what set the current link conditions when a strategy's
// mode did ("lockstep mode 3"), or "" (a preset or the keys).
func (s *Session) LinkSource() string { return s.linkBy }

// Restart resets the active strategy and the links without touching the
// left world (after a setting that changes the packet format).
func (s *Session) Restart() { s.resetNetwork() }

// Link returns the current link conditions.
func (s *Session) Link() link.Config { return s.cfg.Link }

// SetLink changes the conditions of both directions live; packets in
// flight keep the delay they were given.
func (s *Session) SetLink(c link.Config) {
	s.linkBy = ""
	s.cfg.Link = c
	s.toRight.SetConfig(c)
	s.toLeft.SetConfig(c)
}

// Outage drops every packet sent in either direction for the next ticks.
func (s *Session) Outage(ticks int) {
	s.toRight.StartOutage(wire.Tick(s.frame), ticks)
	s.toLeft.StartOutage(wire.Tick(s.frame), ticks)
}

// HoldOutage drops everything while held is true (a key held down).
func (s *Session) HoldOutage(held bool) {
	s.toRight.SetHeld(wire.Tick(s.frame), held)
	s.toLeft.SetHeld(wire.Tick(s.frame), held)
}

// InOutage reports whether the link is dropping everything right now.
func (s *Session) InOutage() bool { return s.toRight.InOutage(wire.Tick(s.frame)) }

func (s *Session) inputAt(f int) cubes.Input {
	if f < 0 || f > s.frame || s.frame-f >= len(s.inputs) {
		return cubes.Input{}
	}
	return s.inputs[f%len(s.inputs)]
}

// Step advances the session by one tick with the presenter's input (the
// keys or the script): it drives the left world, or, for a strategy whose
// right side owns the player (strategy.RightDriven), the right. In the
// two-process mode a session runs only its own half (twoproc.go).
func (s *Session) Step(in cubes.Input) {
	s.presenter = in
	now := wire.Tick(s.frame + 1)
	switch s.cfg.Role {
	case RoleLeft:
		s.stepLeftProcess(now)
		return
	case RoleRight:
		s.stepRightProcess(now)
		return
	}
	st := s.strategies[s.active]
	s.leftHalf(st, now, s.collect(s.toLeft.Receive(now)))
	s.rightHalf(st, now, s.collect(s.toRight.Receive(now)))
	s.finish(st)
}

// collect lists the packets of deliveries (reusing one slice).
func (s *Session) collect(ds []link.Delivery) [][]byte {
	s.arrived = s.arrived[:0]
	for _, d := range ds {
		s.arrived = append(s.arrived, d.Data)
	}
	return s.arrived
}

// leftHalf is the left's part of a tick: the packets that reached it from
// the right (back), the left world's step, the acks, the sender.
func (s *Session) leftHalf(st strategy.Strategy, now wire.Tick, back [][]byte) {
	// 1. Packets reaching the left: the strategy's own data from the right
	// is decoded first, since it may be the input of the step about to
	// happen (a server's client inputs); the acks wait for after the step.
	s.receiveBack(st, back)

	// 2. The left world.
	leftIn := s.presenter
	if rd, ok := st.(strategy.RightDriven); ok {
		leftIn = rd.LeftInput(&s.ctx)
	}
	s.inputs[s.frame%len(s.inputs)] = leftIn
	s.left.Step(leftIn)
	s.frame++
	s.hist.record(s.frame, s.left)

	// 3. Acks reaching the left.
	for _, a := range s.acksIn {
		acked, _ := s.leftEP.Received(now, a.h, a.bytes)
		for _, seq := range acked {
			st.Acked(&s.ctx, seq)
		}
	}

	// 4. The sender.
	s.sentNow = false
	s.second[s.frame%len(s.second)] = wire.Breakdown{}
	st.Send(&s.ctx)
}

// rightHalf is the right's part of a tick: the packets that reached it,
// its update, and its ack (with the strategy's data for the left).
func (s *Session) rightHalf(st strategy.Strategy, now wire.Tick, packets [][]byte) {
	// 5. The receiver.
	for _, d := range packets {
		s.r.Reset(d)
		var seq uint16
		s.r.SetCategory(wire.CategoryHeader)
		if wire.SerializeUint16(s.r, &seq) != nil {
			s.metrics.Rejected++
			continue
		}
		// The sequence is the frame the left sent it at (send): a packet
		// from a frame the left has not reached, or from before frame 0,
		// is hostile or corrupt. It is dropped before the endpoint sees
		// it, so it cannot move the acks' window and make every real
		// packet after it look stale.
		sentAt, ok := wire.FrameOf(seq, s.frame)
		if !ok {
			s.metrics.Rejected++
			continue
		}
		// Duplicates and packets too old to track are dropped here (the
		// endpoint still counts them); a packet that merely arrives out of
		// order is fresh.
		hdr := wire.AckHeader{Sequence: seq}
		if !s.rightEP.IsFresh(seq) {
			s.rightEP.Received(now, hdr, len(d))
			continue
		}
		// Only a packet the strategy accepted is acknowledged: the left
		// uses acked packets as delta baselines, so acking one the right
		// threw away would leave the two sides disagreeing on a baseline.
		if err := st.Receive(&s.ctx, seq, s.r); err != nil {
			s.metrics.Rejected++
			continue
		}
		s.rightEP.Received(now, hdr, len(d))
		if s.cfg.Role == RoleRight {
			// The right process cannot see the left's packets being
			// written: it charges the bits of what it read instead, so
			// its bits bar shows the same breakdown.
			b := s.r.Breakdown()
			s.second[s.frame%len(s.second)].Add(b)
			s.metrics.LastPacket, s.metrics.LastPacketBytes, s.metrics.LastPacketFrame = b, len(d), s.frame
			s.recordArrival(seq, sentAt, len(d))
		}
	}
	st.Update(&s.ctx)

	// 6. The right acks what it has, every tick, with the strategy's own
	// data for the left when it has some.
	s.backSent = false
	if tw, ok := st.(strategy.TwoWay); ok {
		tw.SendBack(&s.ctx)
	}
	s.sendAck(now)
}

// finish fills the views and the metrics of the tick.
func (s *Session) finish(st strategy.Strategy) {
	s.fillLeftView()
	s.right.Cubes = s.right.Cubes[:0]
	s.right.Marks = s.right.Marks[:0]
	shown, ok := st.View(&s.right)
	s.updateMetrics(shown, ok)
}

// ackIn is an ack packet's header that reached the left this tick.
type ackIn struct {
	h     wire.AckHeader
	bytes int
}

// receiveBack reads the packets that reached the left: it keeps their ack
// headers for after the left's step and hands a strategy payload that
// follows a header to the strategy at once.
func (s *Session) receiveBack(st strategy.Strategy, back [][]byte) {
	s.acksIn = s.acksIn[:0]
	tw, twoWay := st.(strategy.TwoWay)
	for _, d := range back {
		var h wire.AckHeader
		s.r.Reset(d)
		if h.Serialize(s.r) != nil || s.r.SerializeAlign() != nil {
			s.metrics.RejectedBack++
			continue
		}
		s.acksIn = append(s.acksIn, ackIn{h, len(d)})
		rest := d[len(d)-s.r.BitsRemaining()/8:]
		if len(rest) == 0 {
			continue
		}
		if !twoWay {
			// Data for a strategy that is no longer active, or hostile
			// bytes: the ack itself still counts.
			s.metrics.RejectedBack++
			continue
		}
		s.r.Reset(rest)
		if tw.ReceiveBack(&s.ctx, s.r) != nil {
			s.metrics.RejectedBack++
		}
	}
}

// sendAck sends the right's ack header, followed by the strategy's payload
// when it wrote one this tick (SendBack). A packet goes only when there is
// something to say.
func (s *Session) sendAck(now wire.Tick) {
	h := s.rightEP.Header()
	if !h.HasAck && !s.backSent {
		return
	}
	s.w.Reset(s.sendBuf)
	if h.Serialize(s.w) != nil || s.w.SerializeAlign() != nil {
		return
	}
	n := len(s.w.Bytes())
	pkt := s.sendBuf[:n]
	if s.backSent {
		pkt = append(pkt, s.back.Bytes()...)
	}
	s.rightEP.Sent(now, len(pkt))
	if s.cfg.Tap != nil {
		s.cfg.Tap(false, pkt)
	}
	s.toLeft.Send(now, pkt)
}

// sendBack serializes the strategy's payload for this tick's ack packet.
func (s *Session) sendBack(p strategy.Payload) (int, error) {
	if s.backSent {
		return 0, errors.New("game: one payload back per tick")
	}
	s.back.Reset(s.backBuf)
	if err := p.Serialize(s.back); err != nil {
		return 0, err
	}
	if err := s.back.SerializeAlign(); err != nil {
		return 0, err
	}
	if len(s.back.Bytes()) == 0 {
		return 0, errors.New("game: an empty payload back")
	}
	s.backSent = true
	s.metrics.LastBackPacket = s.back.Breakdown()
	s.metrics.LastBackFrame = s.frame
	return len(s.back.Bytes()), nil
}

// send frames and sends a data packet from the left.
func (s *Session) send(p strategy.Payload) (int, error) {
	if s.sentNow {
		return 0, errors.New("game: one packet per tick")
	}
	now := wire.Tick(s.frame)
	seq := uint16(s.frame)
	s.w.Reset(s.sendBuf)
	s.w.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint16(s.w, &seq); err != nil {
		return 0, err
	}
	if err := p.Serialize(s.w); err != nil {
		return 0, err
	}
	if err := s.w.SerializeAlign(); err != nil {
		return 0, err
	}
	pkt := s.w.Bytes()
	if s.onSend != nil {
		s.onSend(pkt)
	}
	s.leftEP.SkipTo(seq)
	s.leftEP.Sent(now, len(pkt))
	if s.cfg.Tap != nil {
		s.cfg.Tap(true, pkt)
	}
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
func (s *Session) measure(p strategy.Payload) (wire.Breakdown, error) {
	s.m.Reset()
	var seq uint16
	s.m.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint16(s.m, &seq); err != nil {
		return wire.Breakdown{}, err
	}
	err := p.Serialize(s.m)
	return s.m.Breakdown(), err
}

func (s *Session) fillLeftView() {
	s.leftView.Cubes = s.leftView.Cubes[:0]
	s.leftView.Player = cubes.Player
	for i := 0; i < s.left.NumCubes(); i++ {
		c := s.left.Cube(i)
		s.leftView.Cubes = append(s.leftView.Cubes, viewmodel.CubeView{
			Position:    c.Position,
			Orientation: c.Orientation,
			HalfExtent:  s.left.HalfExtent(i),
			Player:      i == cubes.Player,
			Interacting: c.Interacting,
			AtRest:      s.left.AtRest(i),
		})
	}
}

// ownError takes the active strategy's own error figures when it has them
// (strategy.OwnError) and the right is measured in this process.
func (s *Session) ownError() {
	oe, has := s.strategies[s.active].(strategy.OwnError)
	if !has || s.cfg.Role == RoleLeft {
		return
	}
	e, ok := oe.OwnError()
	if !ok {
		return
	}
	m := &s.metrics
	m.Valid, m.ErrorOf = true, e.Of
	m.ShownFrame, m.DelayMs, m.MaxPopCm = 0, 0, 0
	m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg = e.RMSCm, e.MaxCm, e.MaxDeg
}

// LeftView is the authoritative world as the left shows it.
func (s *Session) LeftView() *viewmodel.View { return &s.leftView }

// RightView is the world the strategy rebuilt.
func (s *Session) RightView() *viewmodel.View { return &s.right }

// GhostView is the left world at the frame the right is showing, for the
// ghost overlay; nil when there is nothing to compare.
func (s *Session) GhostView() *viewmodel.View {
	if !s.metrics.Valid || s.metrics.ErrorOf != "" {
		return nil
	}
	return &s.ghost
}

// Metrics are this tick's figures.
func (s *Session) Metrics() *viewmodel.Metrics { return &s.metrics }

func (s *Session) updateMetrics(shown float64, ok bool) {
	m := &s.metrics
	now := wire.Tick(s.frame)
	m.Frame = s.frame
	m.SentKbps = s.leftEP.SentKbps(now)
	m.AckKbps = s.rightEP.SentKbps(now)
	st := s.toRight.Stats()
	m.PacketsSent, m.PacketsDelivered = st.Sent, st.Delivered
	m.PacketsLost = st.Lost + st.OutageDropped + st.QueueDropped + st.OverflowDropped
	m.RTTms, m.HasRTT = s.leftEP.RTT()
	m.Loss = s.leftEP.PacketLoss()
	switch s.cfg.Role {
	case RoleLeft:
		// The acks and the strategy's data come in over the socket.
		m.AckKbps = s.leftEP.ReceivedKbps(now)
	case RoleRight:
		// The left's data as it arrives here; the RTT and the loss as the
		// left measures them from the acks (its control datagrams say).
		m.SentKbps = s.rightEP.ReceivedKbps(now)
		m.PacketsReceived = s.rightEP.Stats().Received
		r := s.Remote()
		m.RTTms, m.HasRTT, m.Loss = r.RTTms, r.HasRTT, r.Loss
	}
	m.SecondBits = wire.Breakdown{}
	for i := range s.second {
		m.SecondBits.Add(s.second[i])
	}

	m.Valid = false
	m.ShownFrame = shown
	m.ErrorOf = ""
	if !ok || len(s.right.Cubes) != s.left.NumCubes() {
		s.hasPrev = false
		s.ownError()
		return
	}
	m.DelayMs = (float64(s.frame) - shown) * 1000 / wire.TicksPerSecond
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
		s.ghost.Cubes = append(s.ghost.Cubes, viewmodel.CubeView{Position: p, Orientation: q, HalfExtent: rc.HalfExtent, Player: rc.Player})
		d := rc.Position.Sub(p)
		e := d.Len()
		sum += e * e
		maxPos = math.Max(maxPos, e)
		maxAng = math.Max(maxAng, geom.AngleBetween(rc.Orientation, q))
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
