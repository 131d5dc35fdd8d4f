package game

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/link"
	"netcubes/strategy"
	"netcubes/udp"
	"netcubes/wire"
)

// Design note: the two-process mode. The same Session runs in both
// processes, each stepping only its half of every tick:
//
//   - the left process (RoleLeft) steps the left world and the strategy's
//     sender, exactly as in one process; its packets go through its own
//     simulated link (so a presenter on a quiet LAN can still show the
//     terrible preset) and then out on the real socket as data datagrams,
//     byte for byte the packets of the one-process mode;
//   - the right process (RoleRight) runs the strategy's receiver and sends
//     its acks (and a strategy's own data) back the same way.
//
// The left is the authority over the session. Its state — a session epoch
// (a new one each time the left restarts), its frame, the active strategy,
// every strategy's live settings (strategy.Shared), the simulated link
// conditions, and the figures only it can measure (RTT and loss from the
// acks) — travels in the accept datagram that connects a right and in
// control datagrams, sent whenever it changes and once a second. The right
// follows: it switches strategy, takes the settings, restarts with a new
// epoch, and impairs its own outgoing packets with the same conditions.
//
// The right cannot see the truth, so its error figure needs a diagnostics
// channel: every DiagEvery ticks the left sends its whole world quantized
// as snapshot level 5 sends it (2 mm, 0.2°; 79 bits a cube, about 9 kB)
// with its state hash. It is not part of any strategy, it is not counted in
// the bandwidth figures, and the HUD says the error is measured against it.
// The right records it in its history, filling the ticks between two
// diagnostics by interpolation, and measures the error as in one process.

// Role says which half of the session a process runs.
type Role uint8

// The roles.
const (
	RoleBoth  Role = iota // one process: both halves, the simulated link between them
	RoleLeft              // the left process: the left world and the strategy's sender
	RoleRight             // the right process: the strategy's receiver
)

// String names the role.
func (r Role) String() string {
	switch r {
	case RoleLeft:
		return "left"
	case RoleRight:
		return "right"
	}
	return "both"
}

// DefaultDiagEvery is the diagnostics period in ticks: every tick, 4.3
// Mbit/s of truth for the right's error figure (a LAN carries it without
// noticing). With a longer period the right fills the ticks between two
// diagnostics by interpolation, which is exact for cubes at rest and off
// by up to a few centimetres for a cube bouncing in between.
const DefaultDiagEvery = 1

// leftState is the state the left publishes now to client k: the
// session's, and the figures only the left can measure of that client.
func (s *Session) leftState(now wire.Tick, k int) remoteState {
	c := s.clients[k]
	rs := remoteState{seq: s.tp.ctlSeq, epoch: s.cfg.Epoch, frame: uint32(s.frame), active: uint8(s.active),
		players: uint8(s.left.NumPlayers()), links: c.link, checksum: s.cfg.Checksum, rtt: -1}
	if rtt, ok := c.leftEP.RTT(); ok {
		rs.rtt = float32(rtt)
	}
	rs.loss = float32(c.leftEP.PacketLoss())
	rs.sentKbps = float32(c.leftEP.SentKbps(now))
	if f, ok := c.st.(strategy.Facts); ok {
		rs.facts = f.Facts()
	}
	return rs
}

// stepLeftProcess is a tick of the left process: the left half, its
// packets out through the simulated link onto the socket, and the state
// and diagnostics for the right.
func (s *Session) stepLeftProcess(now wire.Tick) {
	srv := s.tp.server
	srv.Poll(now)
	s.tp.noteServer()
	s.followSlots()
	for k, c := range s.clients {
		c.receiveBack(srv.Received(k, udp.KindData))
		s.takeReports(k, srv.Received(k, udp.KindReport))
	}
	s.leftHalf(now)
	for k, c := range s.clients {
		s.flush(k, c.toRight, now)
	}

	// The state: in every accept, and as control when it changed (the
	// session, the strategy, the settings, the players or a link; not the
	// figures, which change every tick) or once a second, since a control
	// datagram can be lost. Each right gets its own link and figures.
	key := s.writeState(s.tp.keyW, s.tp.keyBuf, remoteState{epoch: s.cfg.Epoch, active: uint8(s.active),
		players: uint8(s.left.NumPlayers()), links: s.defaultLinks(), checksum: s.cfg.Checksum})
	for _, c := range s.clients {
		s.tp.keyW.Reset(s.tp.keyBuf[len(key):])
		if c.link.Down.Serialize(s.tp.keyW) == nil && c.link.Up.Serialize(s.tp.keyW) == nil {
			key = s.tp.keyBuf[:len(key)+len(s.tp.keyW.Bytes())]
		}
	}
	changed := string(key) != string(s.tp.lastKey)
	if changed {
		s.tp.lastKey = append(s.tp.lastKey[:0], key...)
	}
	if changed || int(now)%wire.TicksPerSecond == 0 {
		s.tp.ctlSeq++
		for k := range s.clients {
			if !srv.Slot(k).Connected {
				continue
			}
			if body := s.writeState(s.tp.ctlW, s.tp.ctlBuf, s.leftState(now, k)); body != nil {
				srv.Send(k, udp.KindControl, body)
			}
		}
	}
	if body := s.writeState(s.tp.ctlW, s.tp.ctlBuf, s.leftState(now, 0)); body != nil {
		srv.SetAccept(body)
	}
	s.sendTruth()
	s.fillLeftView()
	s.right.Cubes = s.right.Cubes[:0]
	s.updateMetrics(0, false)
	for k, c := range s.clients {
		if !srv.Slot(k).Connected {
			// The sender runs on (a right may join at any tick), but
			// nothing reaches the socket: no bandwidth, no RTT, no loss
			// to show.
			m := &c.metrics
			m.SentKbps, m.AckKbps, m.RTTms, m.HasRTT, m.Loss = 0, 0, 0, false, 0
			m.PacketsSent, m.PacketsDelivered, m.PacketsLost = 0, 0, 0
		}
	}
}

// followSlots keeps a client for every slot of the left's server up to the
// highest a right has joined, and starts the network side over when a
// right joins or leaves: the joining right starts from the state in its
// accept, so every sender starts over (no baseline, no acked packet of an
// old right), and no figure of a gone right stays on screen as if
// current. A strategy whose rights all run one world from one start
// (strategy.Joiner: lockstep) starts only the slot that changed over, and
// gives a joining right the world itself: starting everyone over would
// throw every other right's world back to the start.
func (s *Session) followSlots() {
	srv := s.tp.server
	// Slot k's right drives player k+1: a spectator takes a player's slot
	// that frees (udp.EventPromoted).
	srv.SetPlayers(s.left.NumPlayers())
	var changed uint64 // bit k: slot k's right changed (udp.MaxClients ≤ 64)
	for k := range srv.MaxClients() {
		g := srv.Slot(k)
		if k >= len(s.clients) {
			if !g.Connected {
				continue
			}
			for len(s.clients) <= k {
				s.addClient(len(s.clients))
			}
		}
		t := s.tp.slot(k)
		if g.Generation != t.generation || (!g.Connected && t.had) {
			t.generation, t.had = g.Generation, g.Connected
			changed |= 1 << k
			s.tp.rep.forget(k) // another right, or none: its report is gone
		}
		s.clients[k].absent = !g.Connected
	}
	s.parkEmpty()
	if changed == 0 {
		return
	}
	if _, ok := s.strategies[s.active].(strategy.Joiner); !ok {
		s.resetNetwork()
		return
	}
	for k, c := range s.clients {
		if changed&(1<<k) != 0 {
			c.join(srv.Slot(k).Connected)
		}
	}
	if changed&(1<<s.shown) != 0 {
		s.errs.hasPrev, s.errs.validTicks = false, 0
	}
}

// parkEmpty parks the clients of empty slots (client.parked): their
// instances go (a fresh clone takes their place), and with them every
// buffer kept for a right that left. Parked spectators' clients at the end
// go altogether (followSlots adds them again for a right that joins). A
// client a right joined is unparked; the reset its join causes starts it
// over.
func (s *Session) parkEmpty() {
	for k, c := range s.clients {
		park := k > 0 && k != s.shown && c.absent
		if park && !c.parked {
			c.st = s.strategies[s.active].Clone()
		}
		c.parked = park
	}
	for n := len(s.clients); n > max(1, s.left.NumPlayers()) && s.clients[n-1].parked; n-- {
		s.clients[n-1] = nil
		s.clients = s.clients[:n-1]
	}
}

// flush moves the packets that came out of a simulated link this tick onto
// the socket: the left's to the right in slot k, the right's to its left.
func (s *Session) flush(k int, l *link.Link, now wire.Tick) {
	for _, d := range l.Receive(now) {
		if s.tp.server != nil {
			s.tp.server.Send(k, udp.KindData, d.Data)
		} else {
			s.tp.client.Send(udp.KindData, d.Data)
		}
	}
}

// stepRightProcess is a tick of the right process: the left's state and
// truth, then the right half, its packets out through the simulated link
// onto the socket.
func (s *Session) stepRightProcess(wire.Tick) {
	// The connection's retries and timeouts count in ticks of this
	// process, which always advance (the session's frame stands still
	// until the first accept, and jumps when the right follows its left).
	c := s.tp.client
	s.tp.tick++
	c.Poll(s.tp.tick)
	s.tp.noteClient()
	if body, _, ok := c.Accepted(); ok {
		s.applyState(body, true)
	}
	for _, body := range c.Received(udp.KindControl) {
		s.applyState(body, false)
	}
	if !s.tp.joined {
		s.fillLeftView()
		s.right.Cubes = s.right.Cubes[:0]
		s.updateMetrics(0, false)
		return
	}
	for _, body := range c.Received(udp.KindDiag) {
		s.recordDiag(body)
	}
	st := s.strategies[s.active]
	s.frame++
	s.followLeft(s.tp.leftFrame)
	data := c.Received(udp.KindData)
	for _, d := range data {
		s.followData(d)
	}
	now := wire.Tick(s.frame)
	cl := s.clients[0]
	cl.second[s.frame%len(cl.second)] = wire.Breakdown{}
	cl.receive(now, data)
	s.flush(0, cl.toLeft, now)
	s.right.Cubes = s.right.Cubes[:0]
	shown, ok := st.View(&s.right)
	s.markPlayers(&s.right)
	s.updateMetrics(shown, ok)
	s.sendReport(shown, ok)
}

// applyState follows the left's state (an accept or a control datagram).
// A body that does not parse is counted and changes nothing.
func (s *Session) applyState(body []byte, accept bool) {
	// Read into a scratch copy first: a hostile body must not leave half
	// its settings behind. The strategies' settings are read in place only
	// when the header part parsed.
	var rs remoteState
	s.r.Reset(body)
	if err := s.readStateHeader(&rs); err != nil || int(rs.active) >= len(s.strategies) {
		s.clients[0].metrics.RejectedBack++
		return
	}
	if !accept && !s.takeControl(&rs) {
		return
	}
	s.r.Reset(body)
	if err := s.serializeState(s.r, &rs); err != nil {
		s.clients[0].metrics.RejectedBack++
		return
	}
	if accept {
		// This right's client is the slot its left gave it: it owns that
		// slot's player (a spectator past the players).
		s.clients[0].id = s.tp.client.Status().Slot
	}
	if int(rs.players) != s.left.NumPlayers() {
		if err := s.resizeWorld(int(rs.players)); err != nil {
			s.clients[0].metrics.RejectedBack++
			return
		}
		accept = true // a world of another shape: start over
	}
	restart := accept || !s.tp.joined
	if !restart && int(rs.frame) > s.frame+resyncTicks {
		// This process fell behind the left (it could not keep up with
		// real time, or it was suspended), as two controls a second or
		// more apart agree (takeControl): start over at the left's frame
		// rather than decode packets from its future.
		restart = true
		s.events = append(s.events, fmt.Sprintf("this right fell %.1f s behind the left: starting over at the left's frame", float64(int(rs.frame)-s.frame)/wire.TicksPerSecond))
	}
	s.tp.ctlAt, s.tp.behind = s.tp.tick, behindClaim{}
	switchTo := int(rs.active) != s.active
	s.tp.remote, s.tp.joined = rs, true
	if rs.links != s.clients[0].link {
		s.SetLinks(rs.links)
	}
	s.cfg.Checksum = rs.checksum
	if !restart && int(rs.frame) > s.tp.leftFrame {
		s.tp.leftFrame = int(rs.frame) // followed at the tick (stepRightProcess)
	}
	switch {
	case restart:
		s.restartAt(int(rs.frame))
	case switchTo:
		s.activate(int(rs.active))
		s.resetNetwork()
	}
}

// errFrameTooLarge refuses a left's frame past wire.MaxFrame: the
// strategies' 32-bit frame fields would overflow on it.
var errFrameTooLarge = errors.New("game: the left's frame is past wire.MaxFrame")

// followLeft moves the right's frame up to the left's frame f when f is
// ahead of it by at most resyncTicks. The two processes tick on their own
// clocks: a right whose clock runs a little behind would otherwise see the
// left's newest packets as coming from its future and refuse every one
// (wire.FrameOf's rule against hostile sequence numbers). Frames further
// ahead are left to applyState's restart; frames behind change nothing.
func (s *Session) followLeft(f int) {
	if f > s.frame && f <= s.frame+resyncTicks {
		s.frame = f
	}
}

// followData follows the frame of a data packet (its sequence number, the
// left's frame mod 65536), unwrapped against the furthest frame followLeft
// accepts. A packet that does not parse is left to the receiver to count.
func (s *Session) followData(d []byte) {
	var seq uint16
	s.r.Reset(d)
	if wire.SerializeUint16(s.r, &seq) != nil {
		return
	}
	if f, ok := wire.FrameOf(seq, s.frame+resyncTicks); ok {
		s.followLeft(f)
	}
}

// resyncTicks is how far behind the left's frame the right may fall before
// it starts over at the left's frame: 2 s, well beyond any jitter buffer or
// playout delay, so only a process that could not keep up does it.
const resyncTicks = 2 * wire.TicksPerSecond

// Events returns (and forgets) what the two-process mode has to say since
// the last call: the connection's events (a right connected, timed out, was
// refused) and the session's own (the right fell behind). Nil in one
// process.
func (s *Session) Events() []string {
	if s.cfg.Role == RoleBoth {
		return nil
	}
	e := append(s.tp.events, s.events...)
	s.tp.events, s.events = s.tp.events[:0], s.events[:0]
	return e
}

// restartAt starts the right over at the left's frame f: the initial world
// (for the strategies' shapes), an empty history, the links and the active
// strategy reset.
func (s *Session) restartAt(f int) {
	s.activate(int(s.tp.remote.active))
	if err := s.left.SetStates(s.initial); err == nil {
		s.left.SetFrame(0)
	}
	s.frame, s.tp.leftFrame = f, f
	s.hist.clear()
	s.tp.lastDiag = -1
	s.resetNetwork()
}

// sendTruth sends the rights whose turn it is the left's world for their
// error figure (truthpace.go): every DiagEvery ticks, within the room's
// budget for the truth.
func (s *Session) sendTruth() {
	srv := s.tp.server
	if s.cfg.DiagEvery <= 0 || srv.Clients() == 0 {
		return
	}
	if s.tp.diagLen == 0 {
		body, ok := s.diagBody()
		if !ok {
			return
		}
		s.tp.diagLen = len(body)
	}
	connected := func(k int) bool { return srv.Slot(k).Connected }
	s.tp.truthTo = s.tp.pacer.pick(s.frame, s.cfg.DiagEvery, s.cfg.TruthKbps, s.tp.diagLen, connected, len(s.clients), s.tp.truthTo[:0])
	if len(s.tp.truthTo) == 0 {
		return
	}
	body, ok := s.diagBody()
	if !ok {
		return
	}
	s.tp.diagLen = len(body)
	for _, k := range s.tp.truthTo {
		srv.Send(k, udp.KindDiag, body)
		s.tp.pacer.count(len(body))
	}
}

// recordDiag records the left's truth in the history, filling the frames
// since the previous diagnostics by interpolation.
func (s *Session) recordDiag(body []byte) {
	var f uint32
	var h uint64
	var n int32
	s.r.Reset(body)
	s.r.SetCategory(wire.CategoryHeader)
	if wire.SerializeUint32(s.r, &f) != nil || wire.SerializeUint64(s.r, &h) != nil || wire.SerializeInt(s.r, &n, 1, maxDiagCubes) != nil ||
		int(n) != s.left.NumCubes() {
		s.clients[0].metrics.RejectedBack++
		return
	}
	frame := int(f)
	if frame <= s.tp.lastDiag || frame > s.frame+10*wire.TicksPerSecond || frame < s.frame-10*wire.TicksPerSecond {
		return // old, reordered, or absurd: the history keeps what it has
	}
	if cap(s.tp.diagPos) < int(n) {
		s.tp.diagPos = make([]mgl64.Vec3, n)
		s.tp.diagRot = make([]mgl64.Quat, n)
	}
	pos, rot := s.tp.diagPos[:n], s.tp.diagRot[:n]
	for i := range pos {
		var d diagCube
		if d.serialize(s.r) != nil {
			s.clients[0].metrics.RejectedBack++
			return
		}
		pos[i] = wire.DequantizePosition(d.pos, diagResolution)
		rot[i] = wire.DequantizeQuat(d.rot, diagOrientationBits)
	}
	s.hist.recordPoses(frame, s.tp.lastDiag, pos, rot)
	s.tp.lastDiag = frame
	s.tp.remoteHash, s.tp.remoteHashFrame = h, frame
}

// RemoteState is what the right process knows of the left: whether it has
// joined, the left's RTT and loss, its bandwidth, the frame and hash of
// the newest diagnostics. Zero in one process.
type RemoteState struct {
	Joined    bool
	RTTms     float64
	HasRTT    bool
	Loss      float64
	SentKbps  float64
	DiagFrame int
	DiagHash  uint64
	// Facts is the strategy's line of figures as the left computes them
	// (at most a second old); the right's own instance only receives.
	Facts string
	// Connected: the right is in a slot of its left now (on the left: a
	// right is connected). Figures with nobody behind them are not
	// current: the HUD greys them or says "no right connected".
	Connected bool
	// Silent: the left, heard before, has sent nothing for a second or
	// more (udp.Config.SilentTicks); SilentTicks is for how long. The
	// RTT, loss and bandwidth above are the last it sent.
	Silent      bool
	SilentTicks int
	// Refusal is the left's refusal, in a sentence, kept until it no
	// longer holds ("" when none).
	Refusal string
}

// Remote returns what the right process knows of the left (on the left:
// only Connected).
func (s *Session) Remote() RemoteState {
	if s.tp == nil {
		return RemoteState{}
	}
	r := RemoteState{Joined: s.tp.joined, Loss: float64(s.tp.remote.loss), SentKbps: float64(s.tp.remote.sentKbps),
		DiagFrame: s.tp.remoteHashFrame, DiagHash: s.tp.remoteHash, Facts: s.tp.remote.facts}
	if s.tp.joined && s.tp.remote.rtt >= 0 {
		// Before the first accept the figures are the zero value, which
		// nothing measured.
		r.RTTms, r.HasRTT = float64(s.tp.remote.rtt), true
	}
	switch {
	case s.tp.server != nil:
		r = RemoteState{Connected: s.tp.server.Clients() > 0}
	case s.tp.client != nil:
		st := s.tp.client.Status()
		r.Connected = st.State == udp.ClientConnected
		r.Silent = st.Silent
		if st.Silent {
			r.SilentTicks = int(s.tp.tick - st.LastHeard)
		}
		r.Refusal = st.Refusal.String()
	}
	return r
}

// Role is the half of the session this process runs.
func (s *Session) Role() Role { return s.cfg.Role }

// Server is the left process's connection (nil otherwise).
func (s *Session) Server() *udp.Server {
	if s.tp == nil {
		return nil
	}
	return s.tp.server
}

// Client is the right process's connection (nil otherwise).
func (s *Session) Client() *udp.Client {
	if s.tp == nil {
		return nil
	}
	return s.tp.client
}

// twoProc is the two-process mode's own state: the connection, its tick,
// the events for Events, and the guards on the left's control datagrams.
type twoProc struct {
	server *udp.Server
	client *udp.Client
	tick   wire.Tick // a right process's own tick: always advances
	events []string
	slots  []slotState // the left: what it last saw of each slot

	ctlAt  wire.Tick   // the right: tick of the last control taken
	behind behindClaim // the right: a control that says it fell far behind

	// The formats' buffers: control, key (accept) and diagnostics.
	ctlW, keyW, diagW       *wire.WriteStream
	ctlBuf, keyBuf, diagBuf []byte
	ctlSeq                  uint32 // the left: the last control's sequence
	lastKey                 []byte

	// What a right knows of the left.
	joined          bool // the right process follows a left
	remote          remoteState
	leftFrame       int // the newest left frame a control datagram gave
	lastDiag        int
	remoteHash      uint64
	remoteHashFrame int
	diagPos         []mgl64.Vec3
	diagRot         []mgl64.Quat
	// The left: who gets the truth when (truthpace.go), and its size.
	pacer   truthPacer
	truthTo []int
	diagLen int
	held    heldFigures // the right: its last error figures (truthpace.go)

	rep *reportState // a right's reports, or a left's record of them (report.go)
}

// slotState is what the left last saw of a slot: the right's generation,
// and whether one was connected.
type slotState struct {
	generation uint64
	had        bool
}

// slot is the left's record of slot k.
func (t *twoProc) slot(k int) *slotState {
	for len(t.slots) <= k {
		t.slots = append(t.slots, slotState{})
	}
	return &t.slots[k]
}

// newTwoProc takes the connection of cfg's role (and only that one), with
// the formats' buffers; nil in one process.
func newTwoProc(cfg Config) *twoProc {
	if cfg.Role == RoleBoth {
		return nil
	}
	t := &twoProc{lastDiag: -1, rep: newReportState()}
	if cfg.Role == RoleLeft {
		t.server = cfg.Server
	} else {
		t.client = cfg.Client
	}
	t.ctlBuf, t.keyBuf, t.diagBuf = make([]byte, 4096), make([]byte, 4096), make([]byte, maxPacketBytes)
	t.ctlW, t.keyW, t.diagW = wire.NewWriteStream(t.ctlBuf), wire.NewWriteStream(t.keyBuf), wire.NewWriteStream(t.diagBuf)
	return t
}

// behindClaim is a control datagram whose frame is far ahead of the
// right's: taken only once a later control, at least a second later,
// agrees with it.
type behindClaim struct {
	valid bool
	frame int
	at    wire.Tick
}

// noteServer and noteClient turn the connection's events into sentences.
func (t *twoProc) noteServer() {
	for _, e := range t.server.Events() {
		t.events = append(t.events, e.String())
	}
}

func (t *twoProc) noteClient() {
	for _, e := range t.client.Events() {
		t.events = append(t.events, e.String())
	}
}

// Guards on a control datagram (defence in depth: a control is
// authenticated and fresh before it gets here, but one datagram must not
// wedge the right even if it were not). A control may not start a new
// session (only an accept does), its sequence must be ahead of the last
// taken by no more than the left could have counted since (one a tick at
// most, and a margin), and a frame far ahead of the right's must be
// confirmed by a later control that agrees with it.
const (
	ctlReach        = 64 // sequences ahead taken at once
	ctlReachPerTick = 2  // and more per tick since the last control taken
	behindConfirm   = wire.TicksPerSecond
	behindSlack     = wire.TicksPerSecond / 2
)

// takeControl judges a control's header (before anything is applied).
func (s *Session) takeControl(rs *remoteState) bool {
	if !s.tp.joined || rs.epoch != s.tp.remote.epoch {
		s.clients[0].metrics.RejectedBack++ // only an accept starts a session
		return false
	}
	ahead := rs.seq - s.tp.remote.seq // serial arithmetic: wraps like the counter
	reach := uint64(ctlReach) + uint64(ctlReachPerTick)*uint64(max(s.tp.tick-s.tp.ctlAt, 0))
	if ahead == 0 || ahead >= 1<<31 {
		return false // a repeat, or an older control that arrived late
	}
	if uint64(ahead) > reach {
		s.clients[0].metrics.RejectedBack++
		return false
	}
	if int(rs.frame) <= s.frame+resyncTicks {
		return true
	}
	b := &s.tp.behind
	elapsed := int(s.tp.tick - b.at)
	if b.valid && elapsed >= behindConfirm && elapsed <= 5*behindConfirm {
		if d := int(rs.frame) - b.frame - elapsed; d >= -behindSlack && d <= behindSlack {
			return true
		}
	}
	*b = behindClaim{valid: true, frame: int(rs.frame), at: s.tp.tick}
	return false
}
