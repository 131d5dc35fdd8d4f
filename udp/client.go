package udp

import (
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"

	"netcubes/wire"
)

// Client is the right: it connects to one left and keeps trying until the
// left answers, whichever was started first. A refusal is kept with its
// reason until something else happens; a left that stops answering is
// noticed (Status: silent since when) and, after TimeoutTicks, dropped for
// a new attempt.
//
// Per tick: Poll(now) with a tick that always advances (the retries and
// timeouts count in it), then Accepted, Received and Send.
type Client struct {
	*socket
	token  Token
	server netip.AddrPort

	state     ClientState
	priv      *ecdh.PrivateKey
	pub       []byte
	hsToLeft  cipher.AEAD
	hsToRight cipher.AEAD
	hsSeq     uint64
	cookie    []byte
	challenge wire.Tick // when the kept challenge arrived

	toLeft, toRight cipher.AEAD
	sendSeq         uint64
	window          replayWindow
	slot            int
	slots           int
	players         int
	generation      uint64
	accepted        []byte
	fresh           bool
	refusal         Refusal
	// Refusals for the token or the version on consecutive attempts,
	// with no challenge between them, and when the first came.
	refusals   int
	refusedAt  wire.Tick
	refusedSeq uint64 // the request the last counted refusal answered
	gaveUp     bool

	now, lastHeard, lastSent wire.Tick
	heard, started           bool
	received                 [numKinds][][]byte
	scratch                  []byte
	pool                     [][]byte
	events                   []ClientEvent
}

// ClientState is where a right is in the handshake.
type ClientState uint8

// The states of a right.
const (
	ClientConnecting ClientState = iota // sending connect requests
	ClientResponding                    // sending the challenge's cookie back
	ClientConnected                     // accepted: in a slot
)

// String names the state.
func (s ClientState) String() string {
	switch s {
	case ClientResponding:
		return "answering the left's challenge"
	case ClientConnected:
		return "connected"
	}
	return "connecting"
}

// ClientStatus is what a right knows of its connection.
type ClientStatus struct {
	State  ClientState
	Server netip.AddrPort
	Slot   int // once connected
	// Players is how many of the left's slots are players' (the rest are
	// spectators'), once connected.
	Players int
	// Refusal is the left's last refusal, kept until a challenge or an
	// accept shows it no longer holds; zero when none.
	Refusal Refusal
	// Heard says whether the left was ever heard (an authentic datagram);
	// LastHeard is the tick of the newest one.
	Heard     bool
	LastHeard wire.Tick
	// Silent: a left heard once has sent nothing authentic for
	// SilentTicks; since LastHeard. Figures that came from it are stale.
	Silent bool
	// GaveUp: the left refused this right's token (or version) on
	// Config.RefusalsToGiveUp attempts in a row; it no longer asks.
	GaveUp bool
}

// ClientEventKind says what happened to a right's connection.
type ClientEventKind uint8

// The events of a right.
const (
	ClientAccepted  ClientEventKind = iota // the left took this right
	ClientRefused                          // the left refused, or refuses for another reason
	ClientTimedOut                         // the left went silent for TimeoutTicks
	ClientClosed                           // the left said goodbye
	ClientPromoted                         // the left moved this right into another slot (a player's that freed)
	ClientRestarted                        // the left no longer knows this session (it restarted): connecting again at once
	ClientGaveUp                           // refused for the token or version too many times: no longer asking
)

// ClientEvent is one thing that happened during a Poll.
type ClientEvent struct {
	Kind    ClientEventKind
	Left    netip.AddrPort
	Slot    int
	Refusal Refusal
	Silent  int // ClientTimedOut: ticks
}

// String says the event in a sentence.
func (e ClientEvent) String() string {
	switch e.Kind {
	case ClientAccepted:
		return fmt.Sprintf("connected to the left at %v (slot %d)", e.Left, e.Slot)
	case ClientRefused:
		return e.Refusal.String()
	case ClientTimedOut:
		return fmt.Sprintf("the left at %v went silent for %.0f s: connecting again", e.Left, float64(e.Silent)/wire.TicksPerSecond)
	case ClientClosed:
		return fmt.Sprintf("the left at %v closed the session: connecting again", e.Left)
	case ClientPromoted:
		return fmt.Sprintf("a player's slot freed: this right moves from a spectator's slot into slot %d (player %d)", e.Slot, e.Slot+1)
	case ClientRestarted:
		return fmt.Sprintf("the left at %v restarted (it no longer knows this session): connecting again", e.Left)
	case ClientGaveUp:
		return e.Refusal.String() + ": giving up"
	}
	return "unknown event"
}

// Dial opens the right's socket; the first Poll starts asking the left at
// addr to connect.
func Dial(addr string, token Token, cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, err
	}
	sock, err := listenUDP(nil, cfg)
	if err != nil {
		return nil, err
	}
	return DialOn(sock, unmap(ua.AddrPort()), token, cfg)
}

// DialOn is Dial on conn, which it owns from now on (Close closes it),
// with the left at server on it: another carrier of datagrams than a UDP
// socket (package room's data channel or WebSocket to the room).
func DialOn(sock Conn, server netip.AddrPort, token Token, cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Client{socket: newSocket(sock, cfg), token: token, server: server}, nil
}

// Drops returns the refused datagrams so far.
func (c *Client) Drops() Drops { return c.dropsNow() }

// Counts returns the socket's datagram and byte counts.
func (c *Client) Counts() Counts { return c.counts() }

// Events returns what happened during the last Poll; valid until the next.
func (c *Client) Events() []ClientEvent { return c.events }

// Status is the connection as of the last Poll.
func (c *Client) Status() ClientStatus {
	st := ClientStatus{State: c.state, Server: c.server, Refusal: c.refusal, Heard: c.heard, LastHeard: c.lastHeard}
	if c.state == ClientConnected {
		st.Slot, st.Players = c.slot, c.players
	}
	st.GaveUp = c.gaveUp
	st.Silent = c.heard && c.now-c.lastHeard >= wire.Tick(c.cfg.SilentTicks)
	return st
}

// Accepted returns, once per accept, the state body the left accepted this
// right with and the connection's number (it grows with every accept, so
// the session knows to start over).
func (c *Client) Accepted() ([]byte, uint64, bool) {
	if !c.fresh {
		return nil, 0, false
	}
	c.fresh = false
	return c.accepted, c.generation, true
}

// Received returns the bodies of kind k the last Poll took, in arrival
// order; valid until the next Poll.
func (c *Client) Received(k Kind) [][]byte {
	if k >= numKinds {
		return nil
	}
	return c.received[k]
}

// RefusedError is a right that gave up (Client.GaveUp): the left refused
// its token or its version on every attempt for a while.
type RefusedError struct{ Refusal Refusal }

func (e RefusedError) Error() string {
	return e.Refusal.String() + fmt.Sprintf(": gave up after %d refusals (-keep-trying asks forever)", DefaultConfig().RefusalsToGiveUp)
}

// ExitRefused is the exit code of a right process that gave up.
const ExitRefused = 3

// goodbyes is how many disconnect datagrams a closing side sends: one
// lost would leave the other side waiting for its timeout.
const goodbyes = 3

// Close says goodbye to the left (when connected) and closes the socket.
func (c *Client) Close() error {
	if c.state == ClientConnected {
		for range goodbyes {
			c.sendSession(KindDisconnect, nil)
		}
	}
	c.received, c.pool, c.accepted, c.scratch = [numKinds][][]byte{}, nil, nil, nil
	return c.close()
}

// attempt starts a new attempt to connect with a new key pair.
func (c *Client) attempt() {
	priv, err := x25519.GenerateKey(rand.Reader)
	if err != nil {
		return // the next Poll tries again
	}
	c.priv, c.pub = priv, priv.PublicKey().Bytes()
	c.hsToLeft, c.hsToRight = handshakeKeys(c.token, c.pub)
	c.hsSeq, c.cookie = 0, nil
	c.toLeft, c.toRight, c.sendSeq, c.window = nil, nil, 0, replayWindow{}
	c.state = ClientConnecting
	c.lastSent = c.now - wire.Tick(c.cfg.RetryTicks) // ask at once
}

// Poll takes the datagrams that arrived since the last call, runs the
// handshake and keeps the session's bodies for Received; it sends the
// requests, the responses and keep-alives, and notices a silent left.
// Call it once per tick with a tick that always advances: the retries
// count in it, so a right started before its left keeps asking.
func (c *Client) Poll(now wire.Tick) {
	c.now = now
	c.events = c.events[:0]
	for k := range c.received {
		c.pool = append(c.pool, c.received[k]...)
		c.received[k] = c.received[k][:0]
	}
	if !c.started {
		c.started = true
		c.attempt()
	}
	for _, d := range c.take() {
		c.handle(d)
	}
	if c.priv == nil {
		c.attempt()
		return
	}
	if c.gaveUp {
		return
	}
	switch c.state {
	case ClientConnected:
		switch {
		case now-c.lastHeard > wire.Tick(c.cfg.TimeoutTicks):
			c.events = append(c.events, ClientEvent{Kind: ClientTimedOut, Left: c.server, Silent: int(now - c.lastHeard)})
			c.attempt()
		case now-c.lastSent >= wire.Tick(c.cfg.KeepAliveTicks):
			c.sendSession(KindKeepAlive, nil)
		}
	case ClientResponding:
		if now-c.challenge > wire.Tick(c.cfg.CookieTicks) {
			c.attempt() // the cookie is too old: start over, with a new key
		}
	}
	if c.state != ClientConnected && now-c.lastSent >= wire.Tick(c.cfg.RetryTicks) {
		c.sendHandshake()
	}
}

// sendHandshake sends the connect request or the response.
func (c *Client) sendHandshake() {
	c.hsSeq++
	var pkt []byte
	if c.state == ClientConnecting {
		var pad [connectPad]byte
		var clear [connectClear]byte
		copy(clear[:], c.pub)
		binary.LittleEndian.PutUint64(clear[keyBytes:], uint64(c.cfg.Clock()))
		pkt = seal(c.w, &c.nc, c.buf, Header{Kind: KindConnect, Sequence: c.hsSeq}, c.hsToLeft, clear[:], pad[:])
	} else {
		pkt = seal(c.w, &c.nc, c.buf, Header{Kind: KindResponse, Sequence: c.hsSeq}, c.hsToLeft, c.pub, c.cookie)
	}
	if c.write(c.server, pkt) > 0 {
		c.lastSent = c.now
	}
}

// handle sorts one datagram.
func (c *Client) handle(d datagram) {
	if d.from != c.server {
		c.count(func(x *Drops) { x.WrongAddress++ })
		return
	}
	h, ok := c.readHeader(d.data)
	if !ok {
		if h.Protocol == ProtocolID && h.Version != Version && c.state != ClientConnected {
			// A left of another version: whatever it says, that is why.
			c.refuse(Refusal{Reason: ReasonVersion, LeftVersion: h.Version})
			c.countRefusal(ReasonVersion)
		}
		return
	}
	if toRight&(1<<h.Kind) == 0 {
		c.count(func(x *Drops) { x.Misdirected++ }) // a right's own kind, sent back
		return
	}
	switch h.Kind {
	case KindDeny:
		c.handleDeny(d)
	case KindChallenge:
		c.handleChallenge(d, h)
	default:
		c.handleSession(d, h)
	}
}

func (c *Client) handleDeny(d datagram) {
	var dn deny
	c.r.Reset(d.data[HeaderBytes:])
	if len(d.data) != DenyBytes || dn.Serialize(c.r) != nil {
		c.count(func(x *Drops) { x.Malformed++ })
		return
	}
	if c.state == ClientConnected {
		// Denies are not authenticated: a connected right ignores them,
		// except that a left that no longer knows this session, and has
		// sent nothing authentic for longer than its keep-alives allow,
		// has restarted: connect again now rather than after the timeout.
		c.count(func(x *Drops) { x.Ignored++ })
		if dn.reason == ReasonNoSession && c.now-c.lastHeard > 2*wire.Tick(c.cfg.KeepAliveTicks) {
			c.events = append(c.events, ClientEvent{Kind: ClientRestarted, Left: c.server})
			c.attempt()
		}
		return
	}
	if dn.reason == ReasonNoSession {
		c.count(func(x *Drops) { x.Ignored++ }) // not about a connect
		return
	}
	c.refuse(Refusal{Reason: dn.reason, LeftVersion: dn.version})
	c.countRefusal(dn.reason)
}

// countRefusal counts a refusal that no retry can cure (the token, the
// version) once per request, and gives up after RefusalsToGiveUp of them
// in a row spanning TimeoutTicks (a challenge resets the count: the token
// was right after all).
func (c *Client) countRefusal(r Reason) {
	if r != ReasonKey && r != ReasonVersion || c.cfg.RefusalsToGiveUp <= 0 || c.hsSeq == c.refusedSeq {
		return
	}
	c.refusedSeq = c.hsSeq
	if c.refusals == 0 {
		c.refusedAt = c.now
	}
	c.refusals++
	if c.refusals >= c.cfg.RefusalsToGiveUp && c.now-c.refusedAt >= wire.Tick(c.cfg.TimeoutTicks) {
		c.gaveUp = true
		c.events = append(c.events, ClientEvent{Kind: ClientGaveUp, Left: c.server, Refusal: c.refusal})
	}
}

// refuse keeps a refusal, and says so when it changed.
func (c *Client) refuse(r Refusal) {
	if r != c.refusal {
		c.refusal = r
		c.events = append(c.events, ClientEvent{Kind: ClientRefused, Left: c.server, Refusal: r})
	}
}

func (c *Client) handleChallenge(d datagram, h Header) {
	if len(d.data) != ChallengeBytes {
		c.count(func(x *Drops) { x.Malformed++ })
		return
	}
	if c.state != ClientConnecting {
		// Keep the first challenge of an attempt: the left accepts the
		// response to one of them, and its keys must be the ones kept.
		c.count(func(x *Drops) { x.Replayed++ })
		return
	}
	p, err := open(c.hsToRight, &c.nc, h.Sequence, d.data, 0)
	if err != nil || len(p) != keyBytes+cookieBytes {
		c.count(func(x *Drops) { x.Forged++ })
		return
	}
	leftPub, err := x25519.NewPublicKey(p[:keyBytes])
	if err != nil {
		c.count(func(x *Drops) { x.Malformed++ })
		return
	}
	shared, err := c.priv.ECDH(leftPub)
	if err != nil {
		c.count(func(x *Drops) { x.Malformed++ })
		return
	}
	c.toLeft, c.toRight = sessionKeys(c.token, shared, c.pub, p[:keyBytes])
	c.cookie = append(c.cookie[:0], p[keyBytes:]...)
	c.state, c.challenge = ClientResponding, c.now
	c.heard, c.lastHeard = true, c.now
	c.refusal, c.refusals = Refusal{}, 0 // the token is right and there was room
	c.sendHandshake()
}

func (c *Client) handleSession(d datagram, h Header) {
	promoted := c.state == ClientConnected && int(h.Slot) != c.slot && h.Kind == KindAccept
	if c.toRight == nil || (c.state == ClientConnected && int(h.Slot) != c.slot && !promoted) {
		c.count(func(x *Drops) { x.NotConnected++ })
		return
	}
	if !c.window.fresh(h.Sequence) {
		c.count(func(x *Drops) { x.Replayed++ })
		return
	}
	var copyBuf []byte
	if len(d.data) <= reflectBytes && c.toLeft != nil {
		copyBuf = append(c.scratch[:0], d.data...) // a failed open wipes it
		c.scratch = copyBuf
	}
	body, err := open(c.toRight, &c.nc, h.Sequence, d.data, 0)
	if err != nil {
		if copyBuf != nil {
			if _, err := open(c.toLeft, &c.nc, h.Sequence, copyBuf, 0); err == nil {
				c.count(func(x *Drops) { x.Misdirected++ }) // this right's own, sent back
				return
			}
		}
		c.count(func(x *Drops) { x.Forged++ })
		return
	}
	c.window.mark(h.Sequence)
	c.heard, c.lastHeard = true, c.now
	if c.state != ClientConnected || promoted {
		if h.Kind != KindAccept || len(body) < 2 || int(h.Slot) >= int(body[0]) || int(body[1]) > int(body[0]) {
			c.count(func(x *Drops) { x.NotConnected++ })
			return
		}
		c.state, c.slot, c.slots, c.players = ClientConnected, int(h.Slot), int(body[0]), int(body[1])
		c.generation++
		c.accepted, c.fresh = append(c.accepted[:0], body[2:]...), true
		c.refusal, c.refusals = Refusal{}, 0
		kind := ClientAccepted
		if promoted {
			kind = ClientPromoted
		}
		c.events = append(c.events, ClientEvent{Kind: kind, Left: c.server, Slot: c.slot})
		return
	}
	switch h.Kind {
	case KindAccept, KindKeepAlive:
		// A repeated accept (its first copy arrived) or a keep-alive.
	case KindDisconnect:
		c.events = append(c.events, ClientEvent{Kind: ClientClosed, Left: c.server})
		c.attempt()
	case KindPathChallenge:
		if len(body) == 8 {
			c.sendSession(KindPathResponse, body)
		}
	default:
		var b []byte
		if n := len(c.pool); n > 0 {
			b, c.pool = c.pool[n-1][:0], c.pool[:n-1]
		}
		c.received[h.Kind] = append(c.received[h.Kind], append(b, body...))
	}
}

// Send seals body as a datagram of kind k to the left and returns its size
// (0 before the accept, for a kind the right does not send, or a body
// larger than MaxBody).
func (c *Client) Send(k Kind, body []byte) int {
	if c.state != ClientConnected || !AppToLeft(k) || len(body) > MaxBody {
		return 0
	}
	return c.sendSession(k, body)
}

func (c *Client) sendSession(k Kind, body []byte) int {
	c.sendSeq++
	pkt := seal(c.w, &c.nc, c.buf, Header{Kind: k, Slot: uint8(c.slot), Sequence: c.sendSeq}, c.toLeft, nil, body)
	n := c.write(c.server, pkt)
	if n > 0 {
		c.lastSent = c.now
	}
	return n
}
