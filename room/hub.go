package room

import (
	"errors"
	"net"
	"net/netip"
	"sync"
	"time"
)

// Design note: the hub is the server's one "socket" for every browser. A
// browser connection (a data channel or a WebSocket) gets an address of
// its own, made up (fd6e:6574::/32, a private IPv6 range, with the
// connection's number), so the udp.Server keys its slots, budgets and
// path checks on it as it does on a UDP source address. What a browser
// sends is queued for the server's next Poll; a connection over its rate
// is cut off at its own door (its messages dropped and counted), so a
// flood from one browser never delays another's. Writes go straight to
// the connection: a data channel's send does not block; a WebSocket's
// goes through a bounded queue of its own (sendQueue), so a slow TCP
// connection holds back only itself.

// Transport names how a browser is connected.
type Transport uint8

// The transports.
const (
	DataChannel Transport = iota + 1 // WebRTC, unordered, no retransmission: UDP's semantics
	WebSocket                        // TCP: in order, a lost segment holds back every later one
)

func (t Transport) String() string {
	switch t {
	case DataChannel:
		return "WebRTC data channel"
	case WebSocket:
		return "WebSocket (TCP)"
	}
	return "none"
}

// Short is the transport in a table cell.
func (t Transport) Short() string {
	switch t {
	case DataChannel:
		return "WebRTC"
	case WebSocket:
		return "WebSocket"
	}
	return "-"
}

// carrier sends a connection's messages and closes it.
type carrier interface {
	send(b []byte) error
	close()
}

// Limits bound what one browser connection may send.
type Limits struct {
	// MessagesPerSecond and BytesPerSecond: a right sends one data packet
	// a tick (acks and inputs, under 200 bytes) and a few handshake
	// datagrams: 60 a second and 20 kB/s at most. Above the rate, messages
	// are dropped (and counted) before they reach the shared queue.
	MessagesPerSecond int
	BytesPerSecond    int
	// Burst is how many seconds of the rate may come at once (a tab that
	// was in the background sends what it held).
	BurstSeconds float64
	// MaxMessage is the largest message taken: the largest datagram a
	// right ever sends is its report (game.MaxReportCubes cubes: at most
	// about 1.3 kB, three a second); 2 kB leaves room.
	MaxMessage int
}

// DefaultLimits: four times what a right needs.
func DefaultLimits() Limits {
	return Limits{MessagesPerSecond: 240, BytesPerSecond: 80 << 10, BurstSeconds: 1, MaxMessage: 2048}
}

// Counts are a room's joins and refusals, for the host's screen.
type Counts struct {
	Joined, BadToken, Full, Malformed, Busy, Forced, Failed uint64
}

// Peer is a browser connection's figures, for the host's table.
type Peer struct {
	Addr      netip.AddrPort // its address on the hub (what udp.SlotInfo says)
	Remote    string         // where it really is (the HTTP request's address)
	Transport Transport
	Since     time.Time
	MsgsIn    uint64
	BytesIn   uint64
	MsgsOut   uint64
	BytesOut  uint64
	Limited   uint64 // messages dropped by the rate limit
	Oversized uint64 // messages larger than Limits.MaxMessage
	SendFull  uint64 // messages to it dropped: its send queue was full
	Closed    bool
}

type peer struct {
	Peer
	c                  carrier
	msgTokens, bTokens float64
	last               time.Time
}

// datagram is one message queued for the server.
type datagram struct {
	from netip.AddrPort
	data []byte
}

// Hub is the server's side of every browser connection: a udp.Conn.
type Hub struct {
	limits Limits
	local  netip.AddrPort

	mu     sync.Mutex
	peers  []*peer // in order of joining; closed ones leave at Sweep
	next   uint32
	in     chan datagram
	closed bool
	done   chan struct{}
}

// hubPrefix is the made-up network of browser addresses.
var hubPrefix = [4]byte{0xfd, 0x6e, 0x65, 0x74}

// queueLen bounds the messages waiting for the server's Poll: 64 rights
// at their rate limit for a quarter second.
const queueLen = 4096

// NewHub makes a hub whose connections may send at most limits.
func NewHub(limits Limits) *Hub {
	return &Hub{limits: limits, local: hubAddr(0), in: make(chan datagram, queueLen), done: make(chan struct{})}
}

func hubAddr(n uint32) netip.AddrPort {
	var a [16]byte
	copy(a[:], hubPrefix[:])
	a[12], a[13], a[14], a[15] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	return netip.AddrPortFrom(netip.AddrFrom16(a), uint16(1+n%65000))
}

// add registers a connection and returns its address.
func (h *Hub) add(c carrier, t Transport, remote string) (netip.AddrPort, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return netip.AddrPort{}, net.ErrClosed
	}
	h.next++
	now := time.Now()
	p := &peer{Peer: Peer{Addr: hubAddr(h.next), Remote: remote, Transport: t, Since: now}, c: c, last: now}
	p.msgTokens, p.bTokens = h.burst()
	h.peers = append(h.peers, p)
	return p.Addr, nil
}

func (h *Hub) burst() (float64, float64) {
	b := max(h.limits.BurstSeconds, 0.1)
	return float64(h.limits.MessagesPerSecond) * b, float64(h.limits.BytesPerSecond) * b
}

func (h *Hub) find(a netip.AddrPort) *peer {
	for _, p := range h.peers {
		if p.Addr == a {
			return p
		}
	}
	return nil
}

// deliver takes a message from connection a: counted, rate-limited,
// copied and queued for the server.
func (h *Hub) deliver(a netip.AddrPort, b []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.find(a)
	if p == nil || p.Closed || h.closed {
		return
	}
	p.MsgsIn++
	p.BytesIn += uint64(len(b))
	if len(b) > h.limits.MaxMessage {
		p.Oversized++
		return
	}
	now := time.Now()
	dt := now.Sub(p.last).Seconds()
	p.last = now
	mb, bb := h.burst()
	p.msgTokens = min(mb, p.msgTokens+dt*float64(h.limits.MessagesPerSecond))
	p.bTokens = min(bb, p.bTokens+dt*float64(h.limits.BytesPerSecond))
	if p.msgTokens < 1 || p.bTokens < float64(len(b)) {
		p.Limited++
		return
	}
	p.msgTokens--
	p.bTokens -= float64(len(b))
	select {
	case h.in <- datagram{from: a, data: append([]byte(nil), b...)}:
	default: // the shared queue is full: dropped, as a full socket would
	}
}

// gone marks connection a closed (its carrier said so, or the host cut
// it): nothing more is sent to it or taken from it.
func (h *Hub) gone(a netip.AddrPort) {
	h.mu.Lock()
	p := h.find(a)
	var c carrier
	if p != nil && !p.Closed {
		p.Closed, c, p.last = true, p.c, time.Now()
	}
	h.mu.Unlock()
	if c != nil {
		c.close()
	}
}

// PeerClosed reports whether the connection at a is closed or unknown:
// its slot frees at once instead of after the timeout (udp.PeerCloser).
func (h *Hub) PeerClosed(a netip.AddrPort) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.find(a)
	return p == nil || p.Closed
}

// Peers returns the connections' figures, open ones first in order of
// joining; closed ones stay listed for a minute.
func (h *Hub) Peers() []Peer {
	h.mu.Lock()
	defer h.mu.Unlock()
	keep := h.peers[:0]
	for _, p := range h.peers {
		if !p.Closed || time.Since(p.last) < time.Minute {
			keep = append(keep, p)
		}
	}
	h.peers = keep
	out := make([]Peer, 0, len(h.peers))
	for _, p := range h.peers {
		if !p.Closed {
			out = append(out, p.Peer)
		}
	}
	for _, p := range h.peers {
		if p.Closed {
			out = append(out, p.Peer)
		}
	}
	return out
}

// Open is the number of open connections.
func (h *Hub) Open() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, p := range h.peers {
		if !p.Closed {
			n++
		}
	}
	return n
}

// ReadFromUDPAddrPort hands the server the next message (udp.Conn).
func (h *Hub) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	select {
	case d := <-h.in:
		return copy(b, d.data), d.from, nil
	case <-h.done:
		return 0, netip.AddrPort{}, net.ErrClosed
	}
}

// errSendFull: a connection's send queue is full; the message is dropped.
var errSendFull = errors.New("room: send queue full")

// errGone: a write to a connection that is closed or unknown.
var errGone = errors.New("room: no such connection")

// WriteToUDPAddrPort sends b to the connection at a (udp.Conn).
func (h *Hub) WriteToUDPAddrPort(b []byte, a netip.AddrPort) (int, error) {
	h.mu.Lock()
	p := h.find(a)
	if p == nil || p.Closed || h.closed {
		h.mu.Unlock()
		return 0, errGone
	}
	c := p.c
	p.MsgsOut++
	p.BytesOut += uint64(len(b))
	h.mu.Unlock()
	if err := c.send(b); err != nil {
		if errors.Is(err, errSendFull) {
			h.mu.Lock()
			p.SendFull++
			h.mu.Unlock()
		}
		return 0, err
	}
	return len(b), nil
}

// LocalAddr is the hub's own made-up address (udp.Conn).
func (h *Hub) LocalAddr() net.Addr { return net.UDPAddrFromAddrPort(h.local) }

// Close closes every connection (udp.Conn).
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	close(h.done)
	var cs []carrier
	for _, p := range h.peers {
		if !p.Closed {
			p.Closed = true
			cs = append(cs, p.c)
		}
	}
	h.mu.Unlock()
	for _, c := range cs {
		c.close()
	}
	return nil
}
