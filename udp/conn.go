package udp

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"

	"netcubes/wire"
)

// Design note: one UDP socket per process and a small state machine on
// top. The left listens on the address it was given and nothing else; the
// right sends connect requests to the left until it is accepted. From then
// on each side takes datagrams only from the peer it knows, with the
// session's token, in the protocol's version; anything else is dropped and
// counted by reason, never handed to a strategy, never a panic.
//
// Time: a Conn never reads the clock. The process calls Poll once per tick
// with its tick count, and timeouts and retries are counted in ticks, like
// everything else in netcubes. (Only the operating system's socket runs on
// its own time: a goroutine reads datagrams as they come and queues copies
// for the next Poll, in arrival order.)
//
// Reconnect: a right that restarts sends a new connect request with the
// token; the left takes it, from whatever address, and drops the old peer.
// A left that hears nothing from its right for TimeoutTicks forgets it and
// says so; a right that hears nothing from its left does the same and goes
// back to asking to connect.

// Config holds a Conn's tunables.
type Config struct {
	// MaxDatagram is the largest datagram accepted, bytes; larger ones are
	// dropped as oversized. 65,507 is the most UDP over IPv4 carries; an
	// uncompressed snapshot (36 kB) must fit.
	MaxDatagram int
	// TimeoutTicks: a peer silent this long (1/60 s ticks) is gone. Shorter
	// notices a dead peer sooner; too short drops a peer over one long
	// outage.
	TimeoutTicks int
	// RetryTicks is how often the right repeats its connect request, and
	// either side sends a keep-alive when it has sent nothing else.
	RetryTicks int
	// QueueDatagrams bounds the datagrams waiting for the next Poll; beyond
	// it they are dropped (a process that stops polling must not grow
	// without bound).
	QueueDatagrams int
}

// DefaultConfig: a 5 s timeout (a window opening on a slow machine can
// stall a process for a few seconds), a retry every half second.
func DefaultConfig() Config {
	return Config{MaxDatagram: 65507, TimeoutTicks: 5 * wire.TicksPerSecond, RetryTicks: wire.TicksPerSecond / 2, QueueDatagrams: 4096}
}

// Drops counts the datagrams a Conn refused, by reason. The HUD shows them.
type Drops struct {
	NotOurs      uint64 // wrong protocol id, or shorter than a header
	WrongVersion uint64
	WrongToken   uint64
	WrongAddress uint64 // from an address that is not our peer
	Oversized    uint64
	Malformed    uint64 // a body that does not parse, or a kind out of place
	NotConnected uint64 // data from the peer before (or after) the connection
	QueueFull    uint64
}

// Total is the sum of every reason.
func (d Drops) Total() uint64 {
	return d.NotOurs + d.WrongVersion + d.WrongToken + d.WrongAddress + d.Oversized + d.Malformed + d.NotConnected + d.QueueFull
}

// Role says which side a Conn is.
type Role uint8

// The roles.
const (
	Left  Role = iota // listens, authoritative
	Right             // connects
)

// datagram is one received datagram, copied out of the socket's buffer.
type datagram struct {
	from *net.UDPAddr
	data []byte
}

// Conn is one side of a two-process session.
type Conn struct {
	role  Role
	cfg   Config
	token Token
	sock  *net.UDPConn

	mu     sync.Mutex
	queue  []datagram
	closed bool
	rdErr  error

	peer      *net.UDPAddr // the right (on the left) or the left (on the right) once connected
	connected bool
	lastHeard wire.Tick
	lastSent  wire.Tick
	now       wire.Tick // the tick of the last Poll
	started   bool
	events    []string // what happened since the last Events call ("right connected from …")
	accept    []byte   // the body of the accept the left answers with
	accepted  []byte   // on the right: the body of the accept it received, for the session
	fresh     bool     // accepted not yet taken
	epochs    uint64   // connections made so far

	drops   Drops
	sent    uint64 // datagrams sent
	arrived uint64 // datagrams read from the socket (queued or dropped)
	// What Poll delivered: data, control and diagnostics bodies, valid until
	// the next Poll.
	data, control, diag [][]byte
	pool                [][]byte

	out *wire.WriteStream
	in  *wire.ReadStream
	buf []byte
}

// NewToken draws a session token from the operating system's random source
// (not the simulation's: it is a secret, and nothing simulated depends on
// it).
func NewToken() (Token, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, err
	}
	return Token(binary.LittleEndian.Uint64(b[:])), nil
}

// ParseToken reads a token as the left prints it (16 hex digits).
func ParseToken(s string) (Token, error) {
	var t uint64
	if len(s) != 16 {
		return 0, fmt.Errorf("a token is 16 hex digits, got %q", shorten(s))
	}
	if _, err := fmt.Sscanf(s, "%016x", &t); err != nil {
		return 0, fmt.Errorf("a token is 16 hex digits, got %q", shorten(s))
	}
	return Token(t), nil
}

// String is the token as the left prints it.
func (t Token) String() string { return fmt.Sprintf("%016x", uint64(t)) }

func shorten(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}

// Listen opens the left's socket on addr ("host:port"; ":0" picks a free
// port) and waits for a right presenting token.
func Listen(addr string, token Token, cfg Config) (*Conn, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, err
	}
	sock, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, err
	}
	return newConn(Left, sock, token, cfg, nil), nil
}

// Dial opens the right's socket and starts asking the left at addr to
// connect.
func Dial(addr string, token Token, cfg Config) (*Conn, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, err
	}
	sock, err := net.ListenUDP("udp", nil)
	if err != nil {
		return nil, err
	}
	return newConn(Right, sock, token, cfg, ua), nil
}

func newConn(role Role, sock *net.UDPConn, token Token, cfg Config, peer *net.UDPAddr) *Conn {
	if cfg.MaxDatagram <= HeaderBytes || cfg.MaxDatagram > 65507 {
		cfg.MaxDatagram = 65507
	}
	if cfg.TimeoutTicks < 1 {
		cfg.TimeoutTicks = DefaultConfig().TimeoutTicks
	}
	if cfg.RetryTicks < 1 {
		cfg.RetryTicks = DefaultConfig().RetryTicks
	}
	if cfg.QueueDatagrams < 1 {
		cfg.QueueDatagrams = DefaultConfig().QueueDatagrams
	}
	c := &Conn{role: role, cfg: cfg, token: token, sock: sock, peer: peer}
	c.buf = make([]byte, 65536)
	c.out = wire.NewWriteStream(c.buf)
	c.in = wire.NewReadStream(nil)
	go c.readLoop()
	return c
}

// LocalAddr is the address the socket is bound to.
func (c *Conn) LocalAddr() net.Addr { return c.sock.LocalAddr() }

// Close closes the socket, telling the peer first.
func (c *Conn) Close() error {
	if c.connected {
		c.send(KindDisconnect, nil)
	}
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	return c.sock.Close()
}

// readLoop copies every datagram out of the socket into the queue. It reads
// one byte more than MaxDatagram allows, so an oversized datagram is seen as
// such instead of being silently cut.
func (c *Conn) readLoop() {
	buf := make([]byte, 65536)
	for {
		n, from, err := c.sock.ReadFromUDP(buf)
		c.mu.Lock()
		if err == nil {
			c.arrived++
		}
		if err != nil {
			if c.closed || errors.Is(err, net.ErrClosed) {
				c.mu.Unlock()
				return
			}
			c.rdErr = err
			c.mu.Unlock()
			continue
		}
		switch {
		case n > c.cfg.MaxDatagram:
			c.drops.Oversized++
		case len(c.queue) >= c.cfg.QueueDatagrams:
			c.drops.QueueFull++
		default:
			c.queue = append(c.queue, datagram{from: from, data: append([]byte(nil), buf[:n]...)})
		}
		c.mu.Unlock()
	}
}

// Connected reports whether the peer is connected, and its address.
func (c *Conn) Connected() (bool, net.Addr) {
	if !c.connected {
		return false, nil
	}
	return true, c.peer
}

// Token is the session's token.
func (c *Conn) Token() Token { return c.token }

// Epoch counts the connections made so far: it changes when a right
// connects, reconnects or is replaced, so the left's session knows to start
// its strategy over for the newcomer.
func (c *Conn) Epoch() uint64 { return c.epochs }

// Counts returns the datagrams sent and those read from the socket so far
// (queued for Poll or dropped). A test stepping two Conns in one process
// waits on them so that every datagram of a tick is in before the other side
// steps.
func (c *Conn) Counts() (sent, arrived uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent, c.arrived
}

// Drops returns the refused datagrams so far.
func (c *Conn) Drops() Drops {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.drops
}

// Events returns (and forgets) what happened since the last call: a right
// connected, timed out, left; for the app to say on screen.
func (c *Conn) Events() []string {
	e := c.events
	c.events = nil
	return e
}

// SetAccept sets the body a left answers connect requests with (the
// session's state the right starts from). The right reads it with Accepted.
func (c *Conn) SetAccept(body []byte) { c.accept = append(c.accept[:0], body...) }

// Accepted returns the body of the accept that connected this right, and
// the connection's number (it grows with every new connection, so the
// session knows to start over), once.
func (c *Conn) Accepted() ([]byte, uint64, bool) {
	if !c.fresh {
		return nil, 0, false
	}
	c.fresh = false
	return c.accepted, c.epochs, true
}

// Data, Control and Diag return the bodies Poll received this tick, in
// arrival order; they stay valid until the next Poll.
func (c *Conn) Data() [][]byte    { return c.data }
func (c *Conn) Control() [][]byte { return c.control }
func (c *Conn) Diag() [][]byte    { return c.diag }

// Poll takes the datagrams that arrived since the last call, sorts out the
// handshake, drops what is not for us, and keeps data, control and
// diagnostics bodies for Data, Control and Diag. It also sends the right's
// connect requests and keep-alives, and notices timeouts. Call it once per
// tick.
func (c *Conn) Poll(now wire.Tick) {
	if !c.started {
		c.started = true
		c.lastHeard, c.lastSent = now, now-wire.Tick(c.cfg.RetryTicks)
	}
	c.now = now
	c.mu.Lock()
	q := c.queue
	c.queue = nil
	c.mu.Unlock()
	c.pool = append(c.pool, c.data...)
	c.pool = append(c.pool, c.control...)
	c.pool = append(c.pool, c.diag...)
	c.data, c.control, c.diag = c.data[:0], c.control[:0], c.diag[:0]
	for _, d := range q {
		c.handle(now, c.in, d)
	}
	switch {
	case c.connected && now-c.lastHeard > wire.Tick(c.cfg.TimeoutTicks):
		c.connected = false
		who := "the right"
		if c.role == Right {
			who = "the left"
		}
		c.events = append(c.events, fmt.Sprintf("%s at %v went silent for %.0f s: disconnected", who, c.peer, float64(c.cfg.TimeoutTicks)/wire.TicksPerSecond))
	case c.role == Right && !c.connected && now-c.lastSent >= wire.Tick(c.cfg.RetryTicks):
		c.send(KindConnect, nil)
	case c.connected && now-c.lastSent >= wire.Tick(c.cfg.RetryTicks):
		c.send(KindKeepAlive, nil)
	}
}

// handle sorts one datagram.
func (c *Conn) handle(now wire.Tick, r *wire.ReadStream, d datagram) {
	var h Header
	r.Reset(d.data)
	if err := h.Serialize(r); err != nil {
		c.count(func(x *Drops) { x.NotOurs++ })
		return
	}
	body := d.data[HeaderBytes:]
	if h.Version != Version {
		c.count(func(x *Drops) { x.WrongVersion++ })
		if c.role == Left && h.Kind == KindConnect {
			c.sendTo(d.from, h.Token, KindDeny, []byte(fmt.Sprintf("this left speaks protocol version %d, you %d", Version, h.Version)))
		}
		return
	}
	if h.Kind == KindDeny && c.role == Right && !c.connected && sameAddr(c.peer, d.from) {
		c.events = append(c.events, "the left refused: "+printable(body))
		return
	}
	if h.Token != c.token {
		c.count(func(x *Drops) { x.WrongToken++ })
		if c.role == Left && h.Kind == KindConnect {
			// The refusal echoes the token the right presented, so the
			// right (which checks tokens too) can read why.
			c.sendTo(d.from, h.Token, KindDeny, []byte("wrong token: use the one the left printed"))
		}
		return
	}
	if h.Kind == KindConnect {
		if c.role != Left {
			c.count(func(x *Drops) { x.Malformed++ })
			return
		}
		if !c.connected || !sameAddr(c.peer, d.from) {
			c.epochs++
			if c.connected {
				c.events = append(c.events, fmt.Sprintf("the right at %v was replaced by %v", c.peer, d.from))
			} else {
				c.events = append(c.events, fmt.Sprintf("the right connected from %v", d.from))
			}
		}
		c.peer, c.connected, c.lastHeard = d.from, true, now
		c.send(KindAccept, c.accept)
		return
	}
	if c.peer == nil || !sameAddr(c.peer, d.from) {
		c.count(func(x *Drops) { x.WrongAddress++ })
		return
	}
	switch h.Kind {
	case KindAccept:
		if c.role != Right {
			c.count(func(x *Drops) { x.Malformed++ })
			return
		}
		if !c.connected {
			c.epochs++
			c.connected = true
			c.accepted, c.fresh = append(c.accepted[:0], body...), true
			c.events = append(c.events, fmt.Sprintf("connected to the left at %v", d.from))
		}
	case KindDeny:
		return
	case KindDisconnect:
		if c.connected {
			c.connected = false
			c.events = append(c.events, fmt.Sprintf("the peer at %v left", d.from))
		}
		return
	case KindData, KindControl, KindDiag:
		if !c.connected {
			c.count(func(x *Drops) { x.NotConnected++ })
			return
		}
		if c.role == Left && h.Kind != KindData {
			c.count(func(x *Drops) { x.Malformed++ })
			return
		}
		b := c.take(body)
		switch h.Kind {
		case KindData:
			c.data = append(c.data, b)
		case KindControl:
			c.control = append(c.control, b)
		default:
			c.diag = append(c.diag, b)
		}
	}
	c.lastHeard = now
}

// take copies a body into a recycled buffer.
func (c *Conn) take(body []byte) []byte {
	var b []byte
	if n := len(c.pool); n > 0 {
		b = c.pool[n-1][:0]
		c.pool = c.pool[:n-1]
	}
	return append(b, body...)
}

func (c *Conn) count(f func(*Drops)) {
	c.mu.Lock()
	f(&c.drops)
	c.mu.Unlock()
}

// printable keeps a peer's text to a short line of printable ASCII.
func printable(b []byte) string {
	out := make([]byte, 0, min(len(b), 80))
	for _, ch := range b[:min(len(b), 80)] {
		if ch < 32 || ch > 126 {
			ch = '?'
		}
		out = append(out, ch)
	}
	return string(out)
}

func sameAddr(a, b *net.UDPAddr) bool {
	return a != nil && b != nil && a.Port == b.Port && a.IP.Equal(b.IP) && a.Zone == b.Zone
}

// Send sends a strategy's packet to the peer as a data datagram (nothing
// before the peer is connected). It returns the datagram's size.
func (c *Conn) Send(kind Kind, body []byte) int {
	if !c.connected {
		return 0
	}
	return c.send(kind, body)
}

// send writes header + body to the peer.
func (c *Conn) send(kind Kind, body []byte) int {
	if c.peer == nil {
		return 0
	}
	return c.sendTo(c.peer, c.token, kind, body)
}

func (c *Conn) sendTo(to *net.UDPAddr, token Token, kind Kind, body []byte) int {
	if c.sock == nil || HeaderBytes+len(body) > c.cfg.MaxDatagram {
		return 0
	}
	c.out.Reset(c.buf)
	h := Header{Protocol: ProtocolID, Version: Version, Kind: kind, Token: token}
	if h.Serialize(c.out) != nil || len(c.out.Bytes()) != HeaderBytes { // Bytes flushes the last partial word
		return 0
	}
	n := copy(c.buf[HeaderBytes:], body)
	pkt := c.buf[:HeaderBytes+n]
	if _, err := c.sock.WriteToUDP(pkt, to); err != nil {
		return 0
	}
	c.lastSent = c.now
	c.mu.Lock()
	c.sent++
	c.mu.Unlock()
	return len(pkt)
}
