package game

import (
	"errors"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: one server, N clients. The left world is the server's; each
// client is what one remote machine would be: its own links both ways, its
// own packet sequence numbers and acks, and its own instance of the active
// strategy (strategy.Strategy.Clone), which holds both the server's state
// for that client (baselines, priority accumulator, input window, clock
// lead) and the client's own receiver. Client k owns player k (client 0,
// the presenter's, owns player 1); clients past the number of players are
// spectators. The server's shared work (stepping the world, recording its
// history) is done once per tick; each client's instance encodes its own
// packets, and a strategy shares what is the same for every client between
// an instance and its clones (state sync quantizes the left once).
//
// With one client the session is the one-player demo: client 0's links are
// seeded as the single links always were, and every call happens in the
// same order, so the bench prints the same figures bit for bit.

// client is one client of the session.
type client struct {
	s   *Session
	id  int
	st  strategy.Strategy // the active strategy's instance for this client
	ctx clientContext
	// absent: the left process has no right in this client's slot; its
	// player, if any, is driven at the server (a bot), as if it had no
	// client.
	absent bool
	// parked: the left process has no right in this slot and nobody
	// shows it (never client 0, whose instance is the menu's): its
	// instance is a fresh clone that holds nothing large, and none of its
	// per-tick methods run, so a room that emptied costs what an empty
	// one does. The right that takes the slot starts it over (Reset).
	parked bool

	link   link.Pair // the conditions of the two directions
	linkBy string    // what set them, when a strategy's mode did
	// home is the presenter's link from before a strategy chose one, kept
	// when the presenter edited the chosen link by hand and the strategy
	// was left: the edit stays on the wire, but a strategy that chooses
	// again must bring back home, not a link derived from its own choice.
	home            *link.Pair
	toRight, toLeft *link.Link
	leftEP, rightEP *wire.Endpoint

	w        *wire.WriteStream
	m        *wire.MeasureStream
	sendBuf  []byte
	sentNow  bool // a data packet left this tick
	back     *wire.WriteStream
	backBuf  []byte
	backSent bool // the strategy wrote a payload for this tick's ack packet
	arrived  [][]byte
	bad      []bool // arrived[i] had a bit flipped by the link (ground truth)
	acksIn   []ackIn
	// arrivedIDs are the link ids of arrived, when they came through a
	// simulated link (collect); rtt splits the left's RTT with them.
	arrivedIDs []uint64
	rtt        *rttParts

	metrics      viewmodel.Metrics
	second       [wire.TicksPerSecond]wire.Breakdown // per-tick bits, for SecondBits
	sentHash     uint64                              // FNV-1a over every data packet sent (determinism checks)
	backHash     uint64                              // … and over every ack packet the right sent
	timelineSent []sentRecord
	timelineRecv []viewmodel.PacketRecord // a right process's arrivals

	// r reads the packets that reach this client's right: a reader of its
	// own, so the clients' right sides may run at once (parallel_receive.go).
	r *wire.ReadStream
}

// clientSeed is the seed of client k's links: client 0's links are seeded
// with the session's seed itself, as the one-player demo's were, and every
// other client's with a different but equally deterministic one.
func clientSeed(seed uint64, k int) uint64 {
	return seed + uint64(k)*0x632be59bd9b4e019
}

// newClient builds client k on conditions c, its strategy instance st.
func newClient(s *Session, k int, c link.Pair, st strategy.Strategy) *client {
	cl := &client{s: s, id: k, st: st, link: c}
	cl.ctx.c = cl
	seed := clientSeed(s.cfg.Seed, k)
	cl.toRight = link.New(c.Down, seed)
	cl.toLeft = link.New(c.Up, seed^0x9e3779b97f4a7c15)
	cl.sendBuf = make([]byte, maxPacketBytes)
	cl.backBuf = make([]byte, maxPacketBytes)
	cl.w = wire.NewWriteStream(cl.sendBuf)
	cl.m = wire.NewMeasureStream()
	cl.back = wire.NewWriteStream(cl.backBuf)
	cl.r = wire.NewReadStream(nil)
	return cl
}

// player is the player this client owns (0-based), or −1 for a spectator.
func (c *client) player() int {
	if c.id < c.s.left.NumPlayers() {
		return c.id
	}
	return -1
}

// startOver empties the client's links and endpoints and resets its
// strategy instance: packets of an old strategy must never reach a new
// one. With restart the instance is restarted after a sub-mode step
// (strategy.Restarter) instead of reset.
func (c *client) startOver(restart bool) {
	c.emptyLinks()
	if c.parked {
		return
	}
	if r, ok := c.st.(strategy.Restarter); ok && restart {
		r.Restart(&c.ctx)
		return
	}
	c.st.Reset(&c.ctx)
}

// join starts this client over for a right that joined its slot, or left
// it, while the others go on (strategy.Joiner): its links and figures
// start over, and its instance serves the new right (none after a leave:
// it waits for the next).
func (c *client) join(joined bool) {
	c.emptyLinks()
	if j, ok := c.st.(strategy.Joiner); ok && joined && !c.parked {
		j.Join(&c.ctx)
	}
}

// emptyLinks empties the client's links and endpoints and clears its
// figures.
func (c *client) emptyLinks() {
	f := uint64(c.s.frame)
	seed := clientSeed(c.s.cfg.Seed, c.id)
	c.toRight.Reset(seed + f)
	c.toLeft.Reset((seed + f) ^ 0x9e3779b97f4a7c15)
	c.leftEP = wire.NewEndpoint(wire.DefaultEndpointConfig())
	c.rightEP = wire.NewEndpoint(wire.DefaultEndpointConfig())
	if c.rtt == nil {
		c.rtt = new(rttParts)
	}
	*c.rtt = rttParts{}
	c.metrics = viewmodel.Metrics{LastPacketFrame: -1, LastBackFrame: -1}
	c.second = [wire.TicksPerSecond]wire.Breakdown{}
	c.timelineSent = c.timelineSent[:0]
	c.timelineRecv = c.timelineRecv[:0]
}

// setLinks changes the conditions of the two directions live; packets in
// flight keep the delay they were given. Conditions out of range are
// refused whole (the client keeps its links): the keys, the talk tracks
// and the wire check a value where it arrives, so this is a last guard.
func (c *client) setLinks(l link.Pair) {
	if l.Validate() != nil {
		return
	}
	c.linkBy = ""
	c.link = l
	_ = c.toRight.SetConfig(l.Down) // valid: checked above
	_ = c.toLeft.SetConfig(l.Up)
}

// collect lists the packets of deliveries (reusing the client's slice).
func (c *client) collect(ds []link.Delivery) [][]byte {
	c.arrived, c.bad, c.arrivedIDs = c.arrived[:0], c.bad[:0], c.arrivedIDs[:0]
	for _, d := range ds {
		c.arrived = append(c.arrived, d.Data)
		c.bad = append(c.bad, d.Corrupted)
		c.arrivedIDs = append(c.arrivedIDs, d.ID)
	}
	return c.arrived
}

// unframe checks packet k of this tick's arrivals (the checksum, when
// packets carry one) and returns its contents, or false when it must be
// dropped. It counts the packets the link damaged.
func (c *client) unframe(k int, d []byte) ([]byte, bool) {
	bad := k < len(c.bad) && c.bad[k]
	if bad {
		c.metrics.Corrupted++
	}
	if !c.s.cfg.Checksum {
		return d, true
	}
	body, ok := stripChecksum(d)
	if !ok {
		c.metrics.CorruptDropped++
	}
	return body, ok
}

// decoded counts what became of a damaged packet that reached a decoder:
// refused, or taken as valid (wrong contents).
func (c *client) decoded(k int, ok bool) {
	if k >= len(c.bad) || !c.bad[k] {
		return
	}
	if ok {
		c.metrics.CorruptAccepted++
	} else {
		c.metrics.CorruptRefused++
	}
}

// frame adds the checksum to a packet about to leave, when packets carry
// one; pkt must have room behind it.
func (c *client) frame(pkt []byte) []byte {
	if c.s.cfg.Checksum {
		return appendChecksum(pkt)
	}
	return pkt
}

// ackIn is an ack packet's header that reached the left this tick.
type ackIn struct {
	h     wire.AckHeader
	bytes int
	id    uint64 // the ack packet's link id, when hasID
	hasID bool
}

// receiveBack reads the packets that reached the left from this client: it
// keeps their ack headers for after the left's step and hands a strategy
// payload that follows a header to the strategy at once.
func (c *client) receiveBack(back [][]byte) {
	s := c.s
	c.acksIn = c.acksIn[:0]
	ids := c.arrivedIDs
	c.arrivedIDs = c.arrivedIDs[:0] // a right process's packets come without
	if c.parked {
		return
	}
	tw, twoWay := c.st.(strategy.TwoWay)
	for k, d := range back {
		d, ok := c.unframe(k, d)
		if !ok {
			continue
		}
		var h wire.AckHeader
		s.r.Reset(d)
		if h.Serialize(s.r) != nil || s.r.SerializeAlign() != nil {
			c.metrics.RejectedBack++
			c.decoded(k, false)
			continue
		}
		a := ackIn{h: h, bytes: len(d)}
		if k < len(ids) && len(ids) == len(back) {
			a.id, a.hasID = ids[k], true
		}
		c.acksIn = append(c.acksIn, a)
		rest := d[len(d)-s.r.BitsRemaining()/8:]
		if len(rest) == 0 {
			continue
		}
		if !twoWay {
			// Data for a strategy that is no longer active, or hostile
			// bytes: the ack itself still counts.
			c.metrics.RejectedBack++
			c.decoded(k, false)
			continue
		}
		s.r.Reset(rest)
		err := tw.ReceiveBack(&c.ctx, s.r)
		if err != nil {
			c.metrics.RejectedBack++
		}
		c.decoded(k, err == nil)
	}
}

// takeAcks hands the acks that reached the left this tick to the strategy,
// after the left stepped.
func (c *client) takeAcks(now wire.Tick) {
	for _, a := range c.acksIn {
		acked, _ := c.leftEP.Received(now, a.h, a.bytes)
		for _, seq := range acked {
			c.rtt.acked(c, seq, a.id, a.hasID)
			c.st.Acked(&c.ctx, seq)
		}
	}
}

// measure counts the bits of p after the sequence number.
func (c *client) measure(p strategy.Payload) (wire.Breakdown, error) {
	c.m.Reset()
	var seq uint16
	c.m.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint16(c.m, &seq); err != nil {
		return wire.Breakdown{}, err
	}
	err := p.Serialize(c.m)
	return c.m.Breakdown(), err
}

// sendData runs the strategy's sender for this client.
func (c *client) sendData() {
	c.sentNow = false
	c.second[c.s.frame%len(c.second)] = wire.Breakdown{}
	if c.parked {
		return
	}
	c.st.Send(&c.ctx)
}

// receive is the client's part of a tick: the packets that reached it, its
// update, and its ack (with the strategy's data for the left).
func (c *client) receive(now wire.Tick, packets [][]byte) {
	s := c.s
	// The receiver.
	for k, d := range packets {
		d, ok := c.unframe(k, d)
		if !ok {
			continue
		}
		c.r.Reset(d)
		var seq uint16
		c.r.SetCategory(wire.CategoryHeader)
		if wire.SerializeUint16(c.r, &seq) != nil {
			c.metrics.Rejected++
			c.decoded(k, false)
			continue
		}
		// The sequence is the frame the left sent it at (send): a packet
		// from a frame the left has not reached, or from before frame 0,
		// is hostile or corrupt. It is dropped before the endpoint sees
		// it, so it cannot move the acks' window and make every real
		// packet after it look stale.
		sentAt, ok := wire.FrameOf(seq, s.frame)
		if !ok {
			c.metrics.Rejected++
			c.decoded(k, false)
			continue
		}
		// Duplicates and packets too old to track are dropped here (the
		// endpoint still counts them); a packet that merely arrives out of
		// order is fresh.
		hdr := wire.AckHeader{Sequence: seq}
		if !c.rightEP.IsFresh(seq) {
			c.rightEP.Received(now, hdr, len(d))
			continue
		}
		// Only a packet the strategy accepted is acknowledged: the left
		// uses acked packets as delta baselines, so acking one the right
		// threw away would leave the two sides disagreeing on a baseline.
		if err := c.st.Receive(&c.ctx, seq, c.r); err != nil {
			c.metrics.Rejected++
			c.decoded(k, false)
			continue
		}
		c.decoded(k, true)
		c.rightEP.Received(now, hdr, len(d))
		if s.proc.readsCharged() {
			// A right process cannot see the left's packets being
			// written: it charges the bits of what it read instead, so
			// its bits bar shows the same breakdown.
			b := c.r.Breakdown()
			c.second[s.frame%len(c.second)].Add(b)
			c.metrics.LastPacket, c.metrics.LastPacketBytes, c.metrics.LastPacketFrame = b, len(d), s.frame
			c.recordArrival(seq, sentAt, len(d))
		}
	}
	c.st.Update(&c.ctx)

	// The right acks what it has, every tick, with the strategy's own
	// data for the left when it has some.
	c.backSent = false
	if tw, ok := c.st.(strategy.TwoWay); ok {
		tw.SendBack(&c.ctx)
	}
	c.sendAck(now)
}

// sendAck sends the right's ack header, followed by the strategy's payload
// when it wrote one this tick (SendBack). A packet goes only when there is
// something to say.
func (c *client) sendAck(now wire.Tick) {
	h := c.rightEP.Header()
	if !h.HasAck && !c.backSent {
		return
	}
	c.w.Reset(c.sendBuf)
	if h.Serialize(c.w) != nil || c.w.SerializeAlign() != nil {
		return
	}
	n := len(c.w.Bytes())
	pkt := c.sendBuf[:n]
	if c.backSent {
		pkt = append(pkt, c.back.Bytes()...)
	}
	pkt = c.frame(pkt)
	c.rightEP.Sent(now, len(pkt))
	c.backHash = hashBytes(c.backHash, pkt)
	if c.s.cfg.Tap != nil {
		c.s.cfg.Tap(false, pkt)
	}
	c.toLeft.Send(now, pkt)
}

// sendBack serializes the strategy's payload for this tick's ack packet.
func (c *client) sendBack(p strategy.Payload) (int, error) {
	if c.backSent {
		return 0, errors.New("game: one payload back per tick")
	}
	c.back.Reset(c.backBuf)
	if err := p.Serialize(c.back); err != nil {
		return 0, err
	}
	if err := c.back.SerializeAlign(); err != nil {
		return 0, err
	}
	if len(c.back.Bytes()) == 0 {
		return 0, errors.New("game: an empty payload back")
	}
	c.backSent = true
	c.metrics.LastBackPacket = c.back.Breakdown()
	c.metrics.LastBackFrame = c.s.frame
	return len(c.back.Bytes()), nil
}

// send frames and sends a data packet from the left to this client.
func (c *client) send(p strategy.Payload) (int, error) {
	if c.sentNow {
		return 0, errors.New("game: one packet per tick")
	}
	s := c.s
	now := wire.Tick(s.frame)
	seq := uint16(s.frame)
	c.w.Reset(c.sendBuf)
	c.w.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint16(c.w, &seq); err != nil {
		return 0, err
	}
	if err := p.Serialize(c.w); err != nil {
		return 0, err
	}
	if err := c.w.SerializeAlign(); err != nil {
		return 0, err
	}
	pkt := c.frame(c.w.Bytes())
	if s.onSend != nil && c.id == 0 {
		s.onSend(pkt)
	}
	c.sentHash = hashBytes(c.sentHash, pkt)
	c.leftEP.SkipTo(seq)
	c.leftEP.Sent(now, len(pkt))
	if s.cfg.Tap != nil {
		s.cfg.Tap(true, pkt)
	}
	id := c.toRight.Send(now, pkt)
	c.rtt.sentData(seq, id)
	c.sentNow = true
	b := c.w.Breakdown()
	if s.cfg.Checksum {
		b[wire.CategoryHeader] += 8 * ChecksumBytes
	}
	c.metrics.LastPacket = b
	c.metrics.LastPacketBytes = len(pkt)
	c.metrics.LastPacketFrame = s.frame
	c.second[s.frame%len(c.second)] = b
	c.recordPacket(id, seq, len(pkt))
	return len(pkt), nil
}

// updateLinkMetrics fills the client's bandwidth, packet, RTT and loss
// figures of this tick (the error figures are the shown client's only:
// updateErrorMetrics).
func (c *client) updateLinkMetrics() {
	s := c.s
	m := &c.metrics
	now := wire.Tick(s.frame)
	m.Frame = s.frame
	m.SentKbps = c.leftEP.SentKbps(now)
	m.AckKbps = c.rightEP.SentKbps(now)
	st := c.toRight.Stats()
	m.PacketsSent, m.PacketsDelivered = st.Sent, st.Delivered
	m.PacketsLost = st.Lost + st.OutageDropped + st.QueueDropped + st.OverflowDropped
	m.RTTms, m.HasRTT = c.leftEP.RTT()
	m.RTTParts = c.rtt.parts()
	m.Loss = c.leftEP.PacketLoss()
	es := c.leftEP.Stats()
	m.RTTSamples, m.LossSamples = int(es.Acked), int(es.Judged)
	s.proc.linkFigures(c, m, now)
	m.SecondBits = wire.Breakdown{}
	for i := range c.second {
		m.SecondBits.Add(c.second[i])
	}
}

// clientContext is the session as one client's strategy instance sees it
// during a tick (strategy.Context): the left world to read, the way to
// send a packet each way on this client's links, the inputs. It is a view
// of the Session, not a copy.
type clientContext struct{ c *client }

var _ strategy.Context = (*clientContext)(nil)

func (x *clientContext) Frame() int                 { return x.c.s.frame }
func (x *clientContext) Left() *cubes.World         { return x.c.s.left }
func (x *clientContext) EditLeft() *cubes.World     { return x.c.s.left }
func (x *clientContext) Initial() []cubes.CubeState { return x.c.s.initial }
func (x *clientContext) NewWorld() *cubes.World     { return x.c.s.newWorld() }
func (x *clientContext) RTT() (float64, bool)       { return x.c.leftEP.RTT() }
func (x *clientContext) Link() link.Config          { return x.c.link.Down }
func (x *clientContext) Client() int                { return x.c.id }
func (x *clientContext) Player() int                { return x.c.player() }
func (x *clientContext) Players() int               { return x.c.s.left.NumPlayers() }
func (x *clientContext) InputClients() int          { return x.c.s.proc.inputClients(x.c.s) }
func (x *clientContext) Thin() bool                 { return x.c.s.cfg.Thin && x.c.id != x.c.s.shown }

// Input is the input this client's player used on the left at frame f.
func (x *clientContext) Input(f int) cubes.Input {
	return x.c.s.inputAt(max(x.c.player(), 0), f)
}

// PlayerInput is the input player p used on the left at frame f.
func (x *clientContext) PlayerInput(p, f int) cubes.Input { return x.c.s.inputAt(p, f) }

// PresenterInput is this tick's input of this client's player, from the
// keys, the script or its bot (idle for a spectator).
func (x *clientContext) PresenterInput() cubes.Input {
	p := x.c.player()
	if p < 0 {
		return cubes.Input{}
	}
	return x.c.s.presenter[x.c.s.proc.presenter(x.c.s, p)]
}

func (x *clientContext) Send(p strategy.Payload) (int, error)     { return x.c.send(p) }
func (x *clientContext) SendBack(p strategy.Payload) (int, error) { return x.c.sendBack(p) }
func (x *clientContext) Measure(p strategy.Payload) (wire.Breakdown, error) {
	return x.c.measure(p)
}

// errorState is the shown client's error bookkeeping between ticks.
type errorState struct {
	prevErr []mgl64.Vec3 // last tick's right − left offset per cube, for pops
	hasPrev bool
	// validTicks counts the ticks in a row the error figures were valid
	// (Metrics.ErrorTicks): a figure measured over a window is honest
	// only once the window holds nothing from before the start.
	validTicks int
}
