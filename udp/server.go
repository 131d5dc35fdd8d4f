package udp

import (
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"

	"netcubes/wire"
)

// Server is the left: it listens on one socket and keeps up to
// Config.MaxClients rights in slots. A slot is bound to the address the
// right proved it receives at and to the session keys of its handshake: a
// datagram counts for a slot only if it opens with that slot's key, and a
// fresh sequence; nothing another right (even one holding the token) sends
// can act for it.
//
// Per tick: Poll(now), then read Events and Received, then Send. The left
// sets with SetAccept the state a newly accepted right starts from.
type Server struct {
	*socket
	token     Token
	cookieKey cipher.AEAD
	cookieSeq uint64 // nonces under cookieKey
	hsSeq     uint64 // nonces of challenges (each right key has its own left → right key, but a connect may be replayed)
	slots     []slot
	accept    []byte
	now       wire.Tick
	events    []Event
	denies    bucket
	challs    bucket
	closedPub [32][keyBytes]byte // public keys of sessions that ended: a replayed response cannot revive one
	closedAt  int
	plain     []byte // scratch for bodies before sealing
}

// slot is one right.
type slot struct {
	used       bool
	addr       netip.AddrPort
	rightPub   [keyBytes]byte
	toLeft     cipher.AEAD
	toRight    cipher.AEAD
	sendSeq    uint64
	window     replayWindow
	generation uint64 // grows with every right that takes the slot
	joined     wire.Tick
	lastHeard  wire.Tick
	lastSent   wire.Tick
	lastAccept wire.Tick
	stats      SlotStats

	// A path being validated: the address an authentic datagram came from,
	// the nonce sent there, and the bytes in and out (out ≤ 3 × in).
	path             netip.AddrPort
	pathNonce        [8]byte
	pathIn, pathOut  int
	pathSentAt       wire.Tick
	received         [numKinds][][]byte
	pool             [][]byte
	pendingChallenge bool
}

// SlotStats are one slot's figures since its right joined.
type SlotStats struct {
	Received, Sent    uint64 // datagrams
	BytesIn, BytesOut uint64
	Dropped           uint64 // datagrams naming this slot refused (replayed, or failing its key)
}

// SlotInfo is what the left knows of one slot.
type SlotInfo struct {
	Connected  bool
	Addr       netip.AddrPort
	Generation uint64    // changes each time a new right takes the slot
	Joined     wire.Tick // when the current right was accepted
	LastHeard  wire.Tick // its last authentic datagram
	Stats      SlotStats
}

// EventKind says what happened to a slot.
type EventKind uint8

// The events of a slot.
const (
	EventJoined   EventKind = iota // a right proved itself and took the slot
	EventLeft                      // its right said goodbye
	EventTimedOut                  // its right went silent for TimeoutTicks
	EventMoved                     // its right proved it receives at a new address (NAT rebinding)
)

// Event is one thing that happened to a slot during a Poll.
type Event struct {
	Kind EventKind
	Slot int
	Addr netip.AddrPort // the right's address (for EventMoved, the new one)
	From netip.AddrPort // EventMoved: the old address
	// Silent is, for EventTimedOut, how long it had been silent in ticks.
	Silent int
}

// String says the event in a sentence for the screen or a log.
func (e Event) String() string {
	switch e.Kind {
	case EventJoined:
		return fmt.Sprintf("a right joined from %v (slot %d)", e.Addr, e.Slot)
	case EventLeft:
		return fmt.Sprintf("the right at %v disconnected (slot %d is free)", e.Addr, e.Slot)
	case EventTimedOut:
		return fmt.Sprintf("the right at %v went silent for %.0f s: dropped (slot %d is free)", e.Addr, float64(e.Silent)/wire.TicksPerSecond, e.Slot)
	case EventMoved:
		return fmt.Sprintf("the right in slot %d moved from %v to %v", e.Slot, e.From, e.Addr)
	}
	return "unknown event"
}

// Listen opens the left's socket on addr ("host:port"; ":0" picks a free
// port) for rights holding token.
func Listen(addr string, token Token, cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, err
	}
	sock, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, err
	}
	var ck [keyBytes]byte
	if _, err := rand.Read(ck[:]); err != nil {
		sock.Close()
		return nil, err
	}
	s := &Server{socket: newSocket(sock, cfg), token: token, cookieKey: newAEAD(ck[:]), plain: make([]byte, MaxDatagram)}
	s.slots = make([]slot, s.cfg.MaxClients)
	perTick := func(perSecond int) float64 { return float64(perSecond) / wire.TicksPerSecond }
	s.denies = bucket{rate: perTick(s.cfg.DeniesPerSecond), burst: max(1, float64(s.cfg.DeniesPerSecond)/2)}
	s.challs = bucket{rate: perTick(s.cfg.ChallengesPerSecond), burst: max(1, float64(s.cfg.ChallengesPerSecond)/4)}
	return s, nil
}

// LocalAddr is the address the socket is bound to.
func (s *Server) LocalAddr() net.Addr { return s.sock.LocalAddr() }

// Token is the session's token.
func (s *Server) Token() Token { return s.token }

// MaxClients is the number of slots.
func (s *Server) MaxClients() int { return len(s.slots) }

// Clients is the number of slots taken.
func (s *Server) Clients() int {
	n := 0
	for i := range s.slots {
		if s.slots[i].used {
			n++
		}
	}
	return n
}

// Slot returns what the left knows of slot i.
func (s *Server) Slot(i int) SlotInfo {
	if i < 0 || i >= len(s.slots) {
		return SlotInfo{}
	}
	c := &s.slots[i]
	return SlotInfo{Connected: c.used, Addr: c.addr, Generation: c.generation, Joined: c.joined, LastHeard: c.lastHeard, Stats: c.stats}
}

// Drops returns the refused datagrams so far (of every slot and of no
// slot).
func (s *Server) Drops() Drops { return s.dropsNow() }

// Counts returns the socket's datagram and byte counts.
func (s *Server) Counts() Counts { return s.counts() }

// SetAccept sets the body an accepted right receives with its slot (the
// session's state it starts from). It is copied.
func (s *Server) SetAccept(body []byte) { s.accept = append(s.accept[:0], body...) }

// Events returns what happened during the last Poll; valid until the next.
func (s *Server) Events() []Event { return s.events }

// Received returns the bodies of kind k slot i sent that the last Poll
// took, in arrival order; valid until the next Poll.
func (s *Server) Received(i int, k Kind) [][]byte {
	if i < 0 || i >= len(s.slots) || k >= numKinds {
		return nil
	}
	return s.slots[i].received[k]
}

// Close tells every right goodbye (a few times, as a datagram may be
// lost) and closes the socket.
func (s *Server) Close() error {
	for i := range s.slots {
		if s.slots[i].used {
			for range goodbyes {
				s.sendSession(i, KindDisconnect, nil)
			}
		}
	}
	return s.close()
}

// Disconnect frees slot i, telling its right.
func (s *Server) Disconnect(i int) {
	if i < 0 || i >= len(s.slots) || !s.slots[i].used {
		return
	}
	s.sendSession(i, KindDisconnect, nil)
	s.free(i)
	s.events = append(s.events, Event{Kind: EventLeft, Slot: i, Addr: s.slots[i].addr})
}

// Poll takes the datagrams that arrived since the last call, runs the
// handshakes, drops what is not for a slot, and keeps each slot's bodies
// for Received. It also sends keep-alives and frees the slots of rights
// that went silent. Call it once per tick with a tick that advances.
func (s *Server) Poll(now wire.Tick) {
	s.now = now
	s.events = s.events[:0]
	for i := range s.slots {
		c := &s.slots[i]
		for k := range c.received {
			c.pool = append(c.pool, c.received[k]...)
			c.received[k] = c.received[k][:0]
		}
	}
	for _, d := range s.take() {
		s.handle(d)
	}
	for i := range s.slots {
		c := &s.slots[i]
		switch {
		case !c.used:
		case now-c.lastHeard > wire.Tick(s.cfg.TimeoutTicks):
			s.events = append(s.events, Event{Kind: EventTimedOut, Slot: i, Addr: c.addr, Silent: int(now - c.lastHeard)})
			s.free(i)
		case now-c.lastSent >= wire.Tick(s.cfg.KeepAliveTicks):
			s.sendSession(i, KindKeepAlive, nil)
		}
	}
}

// handle sorts one datagram.
func (s *Server) handle(d datagram) {
	h, ok := s.readHeader(d.data)
	if !ok {
		if h.Version != Version && len(d.data) >= DenyBytes {
			s.deny(d.from, ReasonVersion)
		}
		return
	}
	if toLeft&(1<<h.Kind) == 0 {
		s.count(func(x *Drops) { x.Malformed++ })
		return
	}
	switch h.Kind {
	case KindConnect:
		s.handleConnect(d, h)
	case KindResponse:
		s.handleResponse(d, h)
	default:
		s.handleSession(d, h)
	}
}

// handleConnect answers a connect request with a challenge (or a deny),
// keeping nothing: what the left needs later travels in the cookie.
func (s *Server) handleConnect(d datagram, h Header) {
	if len(d.data) != ConnectBytes || h.Slot != 0 {
		s.count(func(x *Drops) { x.Malformed++ })
		return
	}
	rightPub := d.data[HeaderBytes : HeaderBytes+keyBytes]
	toLeft, toRight := handshakeKeys(s.token, rightPub)
	if _, err := open(toLeft, &s.nc, h.Sequence, d.data, keyBytes); err != nil {
		s.count(func(x *Drops) { x.Forged++ })
		s.deny(d.from, ReasonKey)
		return
	}
	if s.Clients() == len(s.slots) && s.slotOf(rightPub) < 0 {
		s.deny(d.from, ReasonFull)
		return
	}
	if !s.challs.take(s.now) {
		s.count(func(x *Drops) { x.Unanswered++ })
		return
	}
	priv, err := x25519.GenerateKey(rand.Reader)
	if err != nil {
		return
	}
	ck := cookie{issued: uint64(s.now)}
	copy(ck.rightPub[:], rightPub)
	copy(ck.leftPriv[:], priv.Bytes())
	ck.addr, ck.port = addrBytes(d.from)
	// The challenge's plaintext: the left's public key, the cookie's
	// nonce, the sealed cookie.
	p := s.plain[:0]
	p = append(p, priv.PublicKey().Bytes()...)
	s.cookieSeq++
	p = binary.LittleEndian.AppendUint64(p, s.cookieSeq)
	var cbuf [cookiePlain]byte
	s.w.Reset(cbuf[:])
	if ck.Serialize(s.w) != nil || len(s.w.Bytes()) != cookiePlain {
		return
	}
	p = s.cookieKey.Seal(p, s.nc.set(s.cookieSeq), cbuf[:], nil)
	s.hsSeq++
	pkt := seal(s.w, &s.nc, s.buf, Header{Kind: KindChallenge, Sequence: s.hsSeq}, toRight, nil, p)
	if len(pkt) > len(d.data) { // never: ChallengeBytes == ConnectBytes
		return
	}
	s.write(d.from, pkt)
}

// handleResponse takes a right that proved it holds the token and receives
// at its address: it gets a slot and the accept.
func (s *Server) handleResponse(d datagram, h Header) {
	if len(d.data) != ResponseBytes || h.Slot != 0 {
		s.count(func(x *Drops) { x.Malformed++ })
		return
	}
	rightPub := append([]byte(nil), d.data[HeaderBytes:HeaderBytes+keyBytes]...)
	toLeft, _ := handshakeKeys(s.token, rightPub)
	blob, err := open(toLeft, &s.nc, h.Sequence, d.data, keyBytes)
	if err != nil || len(blob) != cookieBytes {
		s.count(func(x *Drops) { x.Forged++ })
		return
	}
	plain, err := s.cookieKey.Open(blob[8:8], s.nc.set(binary.LittleEndian.Uint64(blob)), blob[8:], nil)
	if err != nil {
		s.count(func(x *Drops) { x.Forged++ })
		return
	}
	var ck cookie
	s.r.Reset(plain)
	if ck.Serialize(s.r) != nil {
		s.count(func(x *Drops) { x.Malformed++ })
		return
	}
	addr, port := addrBytes(d.from)
	if string(ck.rightPub[:]) != string(rightPub) || ck.addr != addr || ck.port != port ||
		ck.issued > uint64(s.now) || uint64(s.now)-ck.issued > uint64(s.cfg.CookieTicks) {
		s.count(func(x *Drops) { x.Expired++ })
		return
	}
	if i := s.slotOf(rightPub); i >= 0 {
		// The accept was lost (or this is a replay from the same address):
		// say it again, at most once per RetryTicks.
		c := &s.slots[i]
		if c.addr == d.from && s.now-c.lastAccept >= wire.Tick(s.cfg.RetryTicks)/2 {
			s.sendAccept(i)
		}
		return
	}
	for _, p := range s.closedPub {
		if string(p[:]) == string(rightPub) {
			s.count(func(x *Drops) { x.Replayed++ })
			return
		}
	}
	free := -1
	for i := range s.slots {
		if !s.slots[i].used {
			free = i
			break
		}
	}
	if free < 0 {
		s.deny(d.from, ReasonFull)
		return
	}
	priv, err := x25519.NewPrivateKey(ck.leftPriv[:])
	if err != nil {
		return
	}
	pub, err := x25519.NewPublicKey(rightPub)
	if err != nil {
		s.count(func(x *Drops) { x.Malformed++ })
		return
	}
	shared, err := priv.ECDH(pub)
	if err != nil { // a low-order public key: no shared secret
		s.count(func(x *Drops) { x.Malformed++ })
		return
	}
	c := &s.slots[free]
	gen := c.generation + 1
	pool := c.pool
	*c = slot{used: true, addr: d.from, generation: gen, joined: s.now, lastHeard: s.now, lastSent: s.now, pool: pool}
	copy(c.rightPub[:], rightPub)
	c.toLeft, c.toRight = sessionKeys(s.token, shared, rightPub, priv.PublicKey().Bytes())
	s.events = append(s.events, Event{Kind: EventJoined, Slot: free, Addr: d.from})
	s.sendAccept(free)
}

// sendAccept sends slot i its accept: the number of slots, then the state.
func (s *Server) sendAccept(i int) {
	c := &s.slots[i]
	body := append(append(s.plain[:0], byte(len(s.slots))), s.accept...)
	c.lastAccept = s.now
	s.sendSession(i, KindAccept, body)
}

// slotOf is the slot of the right with public key pub, or -1.
func (s *Server) slotOf(pub []byte) int {
	for i := range s.slots {
		if s.slots[i].used && string(s.slots[i].rightPub[:]) == string(pub) {
			return i
		}
	}
	return -1
}

// handleSession takes a sealed datagram of a slot's session.
func (s *Server) handleSession(d datagram, h Header) {
	i := int(h.Slot)
	if i >= len(s.slots) || !s.slots[i].used {
		s.count(func(x *Drops) { x.NotConnected++ })
		return
	}
	c := &s.slots[i]
	if !c.window.fresh(h.Sequence) {
		s.count(func(x *Drops) { x.Replayed++ })
		c.stats.Dropped++
		return
	}
	body, err := open(c.toLeft, &s.nc, h.Sequence, d.data, 0)
	if err != nil {
		s.count(func(x *Drops) { x.Forged++ })
		c.stats.Dropped++
		return
	}
	c.window.mark(h.Sequence)
	c.lastHeard = s.now
	c.stats.Received++
	c.stats.BytesIn += uint64(len(d.data))
	// Authentic and fresh from an address not yet proved (a NAT
	// rebinding): its content counts, but nothing more than a path
	// challenge goes there until it answers one.
	if d.from != c.addr && s.followPath(i, d, h, body) {
		return
	}
	switch h.Kind {
	case KindKeepAlive, KindPathResponse:
	case KindDisconnect:
		s.events = append(s.events, Event{Kind: EventLeft, Slot: i, Addr: c.addr})
		s.free(i)
	default:
		var b []byte
		if n := len(c.pool); n > 0 {
			b, c.pool = c.pool[n-1][:0], c.pool[:n-1]
		}
		c.received[h.Kind] = append(c.received[h.Kind], append(b, body...))
	}
}

// followPath handles an authentic datagram of slot i from an address other
// than the slot's: a path response from there with the nonce sent moves
// the slot (true); anything else starts (or continues) validating that
// address, within 3× the bytes it sent.
func (s *Server) followPath(i int, d datagram, h Header, body []byte) bool {
	c := &s.slots[i]
	if c.path != d.from {
		c.path, c.pathIn, c.pathOut, c.pendingChallenge = d.from, 0, 0, false
	}
	c.pathIn += len(d.data)
	if h.Kind == KindPathResponse && c.pendingChallenge && len(body) == len(c.pathNonce) && string(body) == string(c.pathNonce[:]) {
		old := c.addr
		c.addr, c.path, c.pendingChallenge = d.from, netip.AddrPort{}, false
		s.events = append(s.events, Event{Kind: EventMoved, Slot: i, Addr: d.from, From: old})
		return true
	}
	if c.pendingChallenge && s.now-c.pathSentAt < wire.Tick(s.cfg.RetryTicks) {
		return false
	}
	if c.pathOut+PathBytes > 3*c.pathIn {
		s.count(func(x *Drops) { x.Unanswered++ })
		return false
	}
	if _, err := rand.Read(c.pathNonce[:]); err != nil {
		return false
	}
	c.sendSeq++
	pkt := seal(s.w, &s.nc, s.buf, Header{Kind: KindPathChallenge, Slot: uint8(i), Sequence: c.sendSeq}, c.toRight, nil, c.pathNonce[:])
	if n := s.write(d.from, pkt); n > 0 {
		c.pathOut += n
		c.pathSentAt, c.pendingChallenge = s.now, true
	}
	return false
}

// free empties slot i, remembering its key so a replayed response cannot
// bring it back.
func (s *Server) free(i int) {
	c := &s.slots[i]
	s.closedPub[s.closedAt%len(s.closedPub)] = c.rightPub
	s.closedAt++
	c.used = false
	c.toLeft, c.toRight = nil, nil
}

// Send seals body as a datagram of kind k to slot i's right and returns its
// size (0 if the slot is free, the kind is not the session's, or the body
// is larger than MaxBody).
func (s *Server) Send(i int, k Kind, body []byte) int {
	if i < 0 || i >= len(s.slots) || !s.slots[i].used || !AppToRight(k) || len(body) > MaxBody {
		return 0
	}
	return s.sendSession(i, k, body)
}

func (s *Server) sendSession(i int, k Kind, body []byte) int {
	c := &s.slots[i]
	c.sendSeq++
	pkt := seal(s.w, &s.nc, s.buf, Header{Kind: k, Slot: uint8(i), Sequence: c.sendSeq}, c.toRight, nil, body)
	n := s.write(c.addr, pkt)
	if n > 0 {
		c.lastSent = s.now
		c.stats.Sent++
		c.stats.BytesOut += uint64(n)
	}
	return n
}

// deny tells a right why not, in clear: rate-limited, and only to a
// request at least as large as the deny.
func (s *Server) deny(to netip.AddrPort, r Reason) {
	if !s.denies.take(s.now) {
		s.count(func(x *Drops) { x.Unanswered++ })
		return
	}
	if !writeHeader(s.w, s.buf, Header{Kind: KindDeny}) {
		return
	}
	s.w.Reset(s.buf[HeaderBytes:DenyBytes])
	dn := deny{reason: r, version: Version}
	if dn.Serialize(s.w) != nil || len(s.w.Bytes()) != DenyBytes-HeaderBytes {
		return
	}
	s.write(to, s.buf[:DenyBytes])
}
