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
	sources   *sourceBudget      // connects and responses per source address
	keys      *keyBudget         // challenges per right public key
	wall      int64              // Config.Clock at this Poll, Unix ms
	players   int                // slots below this are players' (SetPlayers)
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
	// the nonce sent there, and the bytes in and out (out ≤ 3 × in). Once
	// that address answered (proven), the old one is probed (oldNonce):
	// an answer from it keeps the slot where it is.
	path             netip.AddrPort
	pathNonce        [8]byte
	pathIn, pathOut  int
	pathSentAt       wire.Tick
	pendingChallenge bool
	proven           bool
	provenAt         wire.Tick
	oldNonce         [8]byte

	// After a move: bytes a tick the session may send (0: no limit),
	// doubling each tick the right is heard from its new address.
	budget, budgetUsed int
	budgetAt, grownAt  wire.Tick

	// movedTo: this slot's right was promoted to slot movedTo-1 (0: not):
	// a datagram it sends before it heard of it still finds it.
	movedTo int

	received [numKinds][][]byte
	pool     [][]byte
}

// SlotStats are one slot's figures since its right joined.
type SlotStats struct {
	Received, Sent    uint64 // datagrams
	BytesIn, BytesOut uint64
	Dropped           uint64 // datagrams naming this slot refused (replayed, or failing its key)
	HeldBack          uint64 // datagrams the session sent that the budget after a move held back
	MovesRefused      uint64 // times a new address answered but the old one still did: not moved
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
	EventMoved                     // its right proved it receives at a new address, and the old one went quiet (NAT rebinding)
	EventStayed                    // its datagrams came from a new address, but the old one still answers: not moved
	EventPromoted                  // a spectator moved into a player's slot that freed (From: the slot it left)
)

// Event is one thing that happened to a slot during a Poll.
type Event struct {
	Kind EventKind
	Slot int
	Addr netip.AddrPort // the right's address (for EventMoved, the new one)
	From netip.AddrPort // EventMoved: the old address
	// Silent is, for EventTimedOut, how long it had been silent in ticks.
	Silent int
	// FromSlot is, for EventPromoted, the spectator's slot before.
	FromSlot int
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
	case EventStayed:
		return fmt.Sprintf("datagrams of the right in slot %d came from %v, but it still answers at %v: not moved (a copy sent from elsewhere)", e.Slot, e.From, e.Addr)
	case EventPromoted:
		return fmt.Sprintf("the spectator at %v takes the free slot %d, player %d's (it was in slot %d)", e.Addr, e.Slot, e.Slot+1, e.FromSlot)
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
	sock, err := listenUDP(ua, cfg)
	if err != nil {
		return nil, err
	}
	s, err := Serve(sock, token, cfg)
	if err != nil {
		sock.Close()
	}
	return s, err
}

// Serve runs the left on conn, which it owns from now on (Close closes
// it): Listen's socket, or another carrier of datagrams (package room's
// browsers).
func Serve(sock Conn, token Token, cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var ck [keyBytes]byte
	if _, err := rand.Read(ck[:]); err != nil {
		return nil, err
	}
	s := &Server{socket: newSocket(sock, cfg), token: token, cookieKey: newAEAD(ck[:]), plain: make([]byte, MaxDatagram)}
	s.slots = make([]slot, s.cfg.MaxClients)
	perTick := func(perSecond int) float64 { return float64(perSecond) / wire.TicksPerSecond }
	s.denies = bucket{rate: perTick(s.cfg.DeniesPerSecond), burst: max(1, float64(s.cfg.DeniesPerSecond)/2)}
	s.challs = bucket{rate: perTick(s.cfg.ChallengesPerSecond), burst: max(1, float64(s.cfg.ChallengesPerSecond)/4)}
	s.sources = newSourceBudget(s.cfg.SourceRequestsPerSecond)
	s.keys = newKeyBudget(s.cfg.KeyChallengesPerSecond)
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

// SetPlayers says that slots 0..n-1 are players' (the rest spectators'):
// when one of them frees, the spectator that joined first moves into it
// (EventPromoted; its right hears it in a new accept). 0: no promotion.
func (s *Server) SetPlayers(n int) { s.players = min(max(n, 0), len(s.slots)) }

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

// Poll takes the datagrams that arrived since the last call, runs the
// handshakes, drops what is not for a slot, and keeps each slot's bodies
// for Received. It also sends keep-alives and frees the slots of rights
// that went silent. Call it once per tick with a tick that advances.
func (s *Server) Poll(now wire.Tick) {
	s.now = now
	s.wall = s.cfg.Clock()
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
		case s.peerGone(c.addr):
			// The carrier knows its peer closed (a browser's tab): the
			// slot frees now instead of after the timeout.
			s.events = append(s.events, Event{Kind: EventLeft, Slot: i, Addr: c.addr})
			s.free(i)
		case now-c.lastHeard > wire.Tick(s.cfg.TimeoutTicks):
			s.events = append(s.events, Event{Kind: EventTimedOut, Slot: i, Addr: c.addr, Silent: int(now - c.lastHeard)})
			s.free(i)
		case c.proven && now-c.provenAt >= wire.Tick(s.cfg.RetryTicks):
			s.move(i)
		case now-c.lastSent >= wire.Tick(s.cfg.KeepAliveTicks):
			s.sendSession(i, KindKeepAlive, nil)
		}
	}
	s.promote()
}

// PeerCloser is a Conn that knows when the peer at an address has closed
// its connection (package room's browsers); a UDP socket cannot know.
type PeerCloser interface {
	PeerClosed(addr netip.AddrPort) bool
}

// peerGone says whether the carrier knows the peer at addr closed.
func (s *Server) peerGone(addr netip.AddrPort) bool {
	pc, ok := s.sock.(PeerCloser)
	return ok && pc.PeerClosed(addr)
}

// promote moves spectators into players' slots that are free, the one that
// joined first first. The right keeps its keys, its sequences and its
// address; it learns its new slot from an accept sealed with its own key.
func (s *Server) promote() {
	for j := range s.players {
		if s.slots[j].used {
			continue
		}
		from := -1
		for i := s.players; i < len(s.slots); i++ {
			if s.slots[i].used && (from < 0 || s.slots[i].joined < s.slots[from].joined) {
				from = i
			}
		}
		if from < 0 {
			return
		}
		gen, pool := s.slots[j].generation+1, s.slots[j].pool
		s.slots[j] = s.slots[from]
		c := &s.slots[j]
		c.generation, c.pool, c.joined = gen, pool, s.now
		for k := range c.received {
			c.received[k] = nil
		}
		old := &s.slots[from]
		old.used, old.movedTo, old.pool = false, j+1, nil
		s.events = append(s.events, Event{Kind: EventPromoted, Slot: j, FromSlot: from, Addr: c.addr})
		s.sendAccept(j)
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
// keeping nothing for the stranger: what the left needs later travels in
// the cookie. The cheap checks and the budgets come first, the key work
// last: a connect refused before the key work costs a hash and a few
// compares.
func (s *Server) handleConnect(d datagram, h Header) {
	if len(d.data) != ConnectBytes || h.Slot != 0 {
		s.count(func(x *Drops) { x.Malformed++ })
		return
	}
	rightPub := d.data[HeaderBytes : HeaderBytes+keyBytes]
	if !s.sources.take(d.from, s.now) {
		s.count(func(x *Drops) { x.Unanswered++ })
		return
	}
	// The stamp is authenticated (the seal covers it), so a captured
	// connect cannot be restamped; it is judged before the key work, and
	// a forged one that passes here fails the seal below.
	stamp := int64(binary.LittleEndian.Uint64(d.data[HeaderBytes+keyBytes:]))
	if skew := stamp - s.wall; skew > 1000*int64(s.cfg.FreshSeconds) || skew < -1000*int64(s.cfg.FreshSeconds) {
		s.count(func(x *Drops) { x.Stale++ })
		s.deny(d.from, ReasonStale)
		return
	}
	known := s.keys.find(rightPub)
	if known >= 0 && s.keys.empty(known, s.now) {
		s.count(func(x *Drops) { x.Unanswered++ }) // a replay of a key that had its challenges
		return
	}
	if _, err := open(handshakeToLeft(s.token, rightPub), &s.nc, h.Sequence, d.data, connectClear); err != nil {
		s.count(func(x *Drops) { x.Forged++ })
		s.deny(d.from, ReasonKey)
		return
	}
	if !s.keys.take(rightPub, s.now) {
		s.count(func(x *Drops) { x.Unanswered++ })
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
	s.challenge(d, rightPub)
}

// challenge sends the challenge: the left's public key for this attempt
// and the cookie, sealed with the right's handshake key.
func (s *Server) challenge(d datagram, rightPub []byte) {
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
	pkt := seal(s.w, &s.nc, s.buf, Header{Kind: KindChallenge, Sequence: s.hsSeq}, handshakeToRight(s.token, rightPub), nil, p)
	if len(pkt) > len(d.data) { // never: ChallengeBytes == ConnectBytes
		return
	}
	s.write(d.from, pkt)
}

// handleResponse takes a right that proved it holds the token and receives
// at its address: it gets a slot and the accept. As for a connect, the
// cheap checks come first.
func (s *Server) handleResponse(d datagram, h Header) {
	if len(d.data) != ResponseBytes || h.Slot != 0 {
		s.count(func(x *Drops) { x.Malformed++ })
		return
	}
	if !s.sources.take(d.from, s.now) {
		s.count(func(x *Drops) { x.Unanswered++ })
		return
	}
	rightPub := d.data[HeaderBytes : HeaderBytes+keyBytes]
	if i := s.slotOf(rightPub); i >= 0 && s.slots[i].addr != d.from {
		// A response of a right already in a slot, from elsewhere: a copy.
		s.count(func(x *Drops) { x.Misdirected++ })
		return
	}
	for _, p := range s.closedPub {
		if string(p[:]) == string(rightPub) {
			s.count(func(x *Drops) { x.Replayed++ })
			return
		}
	}
	rightPub = append([]byte(nil), rightPub...)
	blob, err := open(handshakeToLeft(s.token, rightPub), &s.nc, h.Sequence, d.data, keyBytes)
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
	if ck.Serialize(s.r) != nil || string(ck.rightPub[:]) != string(rightPub) {
		s.count(func(x *Drops) { x.Malformed++ })
		return
	}
	if addr, port := addrBytes(d.from); ck.addr != addr || ck.port != port {
		s.count(func(x *Drops) { x.Misdirected++ }) // a copy sent from another address
		return
	}
	if ck.issued > uint64(s.now) || uint64(s.now)-ck.issued > uint64(s.cfg.CookieTicks) {
		s.count(func(x *Drops) { x.Expired++ })
		return
	}
	if i := s.slotOf(rightPub); i >= 0 {
		// The accept was lost (or this is a replay from the same address):
		// say it again, at most once per RetryTicks.
		if s.now-s.slots[i].lastAccept >= wire.Tick(s.cfg.RetryTicks)/2 {
			s.sendAccept(i)
		}
		return
	}
	free := s.freeSlot()
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

// freeSlot is the first free slot, or -1.
func (s *Server) freeSlot() int {
	for i := range s.slots {
		if !s.slots[i].used {
			return i
		}
	}
	return -1
}

// sendAccept sends slot i its accept: the number of slots, the number of
// players' slots, then the state.
func (s *Server) sendAccept(i int) {
	c := &s.slots[i]
	body := append(append(s.plain[:0], byte(len(s.slots)), byte(s.players)), s.accept...)
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
	if i < len(s.slots) && !s.slots[i].used && s.slots[i].movedTo > 0 {
		// Its right was promoted and has not heard yet: its datagrams
		// name the old slot. One that opens with the new slot's key gets
		// the accept again (at most twice a RetryTicks).
		j := s.slots[i].movedTo - 1
		if c := &s.slots[j]; c.used && d.from == c.addr && c.window.fresh(h.Sequence) {
			if _, err := open(c.toLeft, &s.nc, h.Sequence, s.scratch(d.data), 0); err == nil {
				if s.now-c.lastAccept >= wire.Tick(s.cfg.RetryTicks)/2 {
					s.sendAccept(j)
				}
				i, h.Slot = j, uint8(j)
			}
		}
	}
	if i >= len(s.slots) || !s.slots[i].used {
		s.count(func(x *Drops) { x.NotConnected++ })
		if s.slotAt(d.from) < 0 && len(d.data) >= DenyBytes {
			// Not a right of this left's: most likely one of a left that
			// restarted on this port. Tell it (in clear: a right judges it).
			s.deny(d.from, ReasonNoSession)
		}
		return
	}
	c := &s.slots[i]
	if !c.window.fresh(h.Sequence) {
		if s.reflected(c, h, d.data) {
			s.count(func(x *Drops) { x.Misdirected++ })
		} else {
			s.count(func(x *Drops) { x.Replayed++ })
		}
		c.stats.Dropped++
		return
	}
	body, err := open(c.toLeft, &s.nc, h.Sequence, s.scratch(d.data), 0)
	if err != nil {
		if s.reflected(c, h, d.data) {
			s.count(func(x *Drops) { x.Misdirected++ })
		} else {
			s.count(func(x *Drops) { x.Forged++ })
		}
		c.stats.Dropped++
		return
	}
	c.window.mark(h.Sequence)
	c.lastHeard = s.now
	c.stats.Received++
	c.stats.BytesIn += uint64(len(d.data))
	// Authentic and fresh from an address not yet proved (a NAT
	// rebinding, or a copy an attacker sent from elsewhere): its content
	// counts, but nothing more than a path challenge goes there until it
	// answers one and the old address stops answering.
	if h.Kind == KindPathResponse && c.proven && string(body) == string(c.oldNonce[:]) {
		// The probe went only to the old address, and the right answered
		// it (from wherever an attacker copied the answer to): it still
		// receives there, so it never moved.
		s.events = append(s.events, Event{Kind: EventStayed, Slot: i, Addr: c.addr, From: c.path})
		c.stats.MovesRefused++
		c.path, c.pendingChallenge, c.proven = netip.AddrPort{}, false, false
		return
	}
	if d.from != c.addr {
		if s.followPath(i, d, h, body) {
			return
		}
	} else {
		s.grow(c)
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

// scratch copies d into the left's scratch buffer: a failed open wipes
// what it was given, and a datagram may be tried with a second key.
func (s *Server) scratch(d []byte) []byte { return append(s.plain[:0], d...) }

// reflectBytes bounds the datagrams tried with a second key to tell a
// reflection from a forgery (a forged 64 kB flood must not cost twice).
const reflectBytes = 2048

// reflected reports whether d, which failed slot c's right → left key or
// window, is a datagram the left itself sent that slot (sent back to it).
func (s *Server) reflected(c *slot, h Header, d []byte) bool {
	if len(d) > reflectBytes || !AppToRight(h.Kind) && h.Kind != KindKeepAlive && h.Kind != KindDisconnect {
		return false
	}
	_, err := open(c.toRight, &s.nc, h.Sequence, s.scratch(d), 0)
	return err == nil
}

// slotAt is the slot whose right is at addr, or -1.
func (s *Server) slotAt(addr netip.AddrPort) int {
	for i := range s.slots {
		if s.slots[i].used && s.slots[i].addr == addr {
			return i
		}
	}
	return -1
}

// followPath handles an authentic datagram of slot i from an address other
// than the slot's (RFC 9000 §8.2, §9.3): a path response from there with
// the nonce sent proves it, and the old address is probed in turn (the
// slot moves in Poll if that probe goes unanswered for RetryTicks);
// anything else starts (or continues) validating that address, sending
// there within 3× the bytes it sent. It returns true when the datagram was
// the path response.
func (s *Server) followPath(i int, d datagram, h Header, body []byte) bool {
	c := &s.slots[i]
	if c.path != d.from {
		c.path, c.pathIn, c.pathOut, c.pendingChallenge, c.proven = d.from, 0, 0, false, false
	}
	c.pathIn += len(d.data)
	if h.Kind == KindPathResponse && c.pendingChallenge && !c.proven && string(body) == string(c.pathNonce[:]) {
		if _, err := rand.Read(c.oldNonce[:]); err != nil {
			return true
		}
		c.proven, c.provenAt = true, s.now
		s.sendSession(i, KindPathChallenge, c.oldNonce[:]) // to the old address, proven long ago
		return true
	}
	if c.proven || c.pendingChallenge && s.now-c.pathSentAt < wire.Tick(s.cfg.RetryTicks) {
		return false
	}
	if c.pathOut+PathBytes > 3*c.pathIn {
		return false // the 3× bound: wait for more from there
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

// move moves slot i to its proven new address: the old one did not answer
// its probe for RetryTicks. The sending budget restarts low.
func (s *Server) move(i int) {
	c := &s.slots[i]
	old := c.addr
	c.addr, c.path, c.pendingChallenge, c.proven = c.path, netip.AddrPort{}, false, false
	c.budget, c.budgetUsed, c.budgetAt, c.grownAt = s.cfg.MoveStartBytes, 0, s.now, s.now
	s.events = append(s.events, Event{Kind: EventMoved, Slot: i, Addr: c.addr, From: old})
}

// grow doubles the budget after a move once a tick the right is heard
// from its address, and lifts it past 4 maximum datagrams a tick.
func (s *Server) grow(c *slot) {
	if c.budget == 0 || c.grownAt == s.now {
		return
	}
	c.grownAt = s.now
	if c.budget *= 2; c.budget > 4*MaxDatagram {
		c.budget = 0
	}
}

// free empties slot i, remembering its key so a replayed response cannot
// bring it back, and dropping what it held.
func (s *Server) free(i int) {
	c := &s.slots[i]
	s.closedPub[s.closedAt%len(s.closedPub)] = c.rightPub
	s.closedAt++
	c.used = false
	c.toLeft, c.toRight = nil, nil
	// The bodies kept for its right (this tick's, and the pool they are
	// recycled through) go with it.
	c.received, c.pool = [numKinds][][]byte{}, nil
}

// Send seals body as a datagram of kind k to slot i's right and returns its
// size (0 if the slot is free, the kind is not the session's, or the body
// is larger than MaxBody).
func (s *Server) Send(i int, k Kind, body []byte) int {
	if i < 0 || i >= len(s.slots) || !s.slots[i].used || !AppToRight(k) || len(body) > MaxBody {
		return 0
	}
	if c := &s.slots[i]; c.budget > 0 {
		if c.budgetAt != s.now {
			c.budgetAt, c.budgetUsed = s.now, 0
		}
		if c.budgetUsed+Overhead+len(body) > c.budget {
			c.stats.HeldBack++
			return 0
		}
		c.budgetUsed += Overhead + len(body)
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
		return // the request was counted for what it was; it goes unanswered
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
