package udp

import (
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"sync"
	"time"

	"netcubes/wire"
)

// Design note: one UDP socket per process. Time: nothing here reads the
// clock but Config.Clock, read once per Poll on the left and once per
// connect on the right, only to stamp and judge a connect's freshness. The process calls Poll once per tick with a tick count that
// always advances, and every timeout, retry and rate is counted in ticks,
// like everything else in netcubes. Only the operating system's socket runs
// on its own time: a goroutine reads datagrams as they come and queues
// copies for the next Poll, in arrival order. The queue is bounded in bytes
// (a flood of the largest datagrams cannot hold more than QueueBytes), and
// what is obviously not ours (too short, another protocol id, larger than
// this protocol ever sends) is counted and dropped before it is copied.

// Config holds the transport's tunables (both sides).
type Config struct {
	// TimeoutTicks: a peer silent this long (1/60 s ticks) is gone; the
	// left frees its slot, the right starts connecting again. Shorter
	// notices a dead peer sooner; too short drops a peer over one long
	// outage (a window opening on a slow machine can stall a process for a
	// few seconds).
	TimeoutTicks int
	// RetryTicks is how often a right repeats its connect request or its
	// response while the left does not answer.
	RetryTicks int
	// KeepAliveTicks: a side that has sent nothing for this long sends a
	// keep-alive, so the other does not time it out.
	KeepAliveTicks int
	// SilentTicks: a right that has heard nothing from its left for this
	// long says so (the HUD greys the left's figures) before TimeoutTicks
	// gives up on it. The left sends every tick, so one second is a
	// certain sign.
	SilentTicks int
	// CookieTicks is how long a challenge's cookie stays good: long enough
	// for a slow round trip, short enough that a recorded response cannot
	// be replayed much later.
	CookieTicks int
	// QueueBytes bounds the bytes waiting for the next Poll; beyond it
	// datagrams are dropped (a process that stops polling, or a flood,
	// cannot grow without bound). The left sends about 10 kB a tick; a
	// process stalled for seconds needs a few MB.
	QueueBytes int
	// ReceiveBufferBytes is the size asked of the operating system for the
	// UDP socket's own receive buffer (SO_RCVBUF), which holds what
	// arrives while the reader goroutine waits for a CPU; what does not
	// fit is dropped by the kernel, uncounted. Linux's default (about
	// 200 small datagrams) overflows in one burst of a flood on a busy
	// machine, a genuine connect with it. The system caps the size
	// (net.core.rmem_max on Linux) and charges it only as datagrams
	// wait. Larger rides out longer stalls; smaller bounds the kernel
	// memory a flood can hold. Listen and Dial only: a Conn of the caller's
	// is left as it is.
	ReceiveBufferBytes int
	// MaxClients is the left's number of slots (1..MaxClients).
	MaxClients int
	// DeniesPerSecond and ChallengesPerSecond bound what the left sends to
	// addresses it has not validated: a deny or a challenge costs little,
	// but a flood of requests must not make the left a flood of replies
	// (or spend its time on key exchanges).
	DeniesPerSecond     int
	ChallengesPerSecond int
	// SourceRequestsPerSecond bounds the connects and responses the left
	// looks at from one source address (a table of buckets indexed by a
	// keyed hash of the address), before any key work: a flood from one
	// address costs a hash and a compare. A right retries twice a second;
	// more only shortens a wait nobody has.
	SourceRequestsPerSecond int
	// KeyChallengesPerSecond bounds the challenges one right's public key
	// gets (the last 64 keys that authenticated are remembered): a
	// replayed connect gets this many a second and nothing more, without
	// key work, while a new right's key gets its challenge at once. Two:
	// a right whose challenge was lost asks again after RetryTicks.
	KeyChallengesPerSecond int
	// FreshSeconds: the left refuses a connect stamped further than this
	// from its own clock (either way), before any key work. Shorter makes
	// a captured connect worthless sooner; too short refuses a right whose
	// clock is off (machines on NTP agree within a second; one set by hand
	// may be a minute off).
	FreshSeconds int
	// MoveStartBytes is what the left sends a right a tick right after it
	// moved to a new address; the budget doubles each tick the right is
	// heard from there, and is lifted at MaxDatagram·4. Lower protects a
	// victim better if an attacker ever made a slot move; higher gives a
	// right that truly moved its full stream sooner (a few ticks either
	// way).
	MoveStartBytes int
	// RefusalsToGiveUp: a right refused for its token (or its version) on
	// this many attempts in a row, over at least TimeoutTicks, with no
	// challenge between them, gives up (Client.GaveUp; the app exits with
	// a code). Denies travel in clear, so an off-path attacker could forge
	// them: the count and the span make that take seconds of guessing the
	// right's port. 0 or less: never give up (keep trying).
	RefusalsToGiveUp int
	// Clock returns the wall-clock time in Unix milliseconds: the right
	// stamps its connects with it, the left judges them by it. nil:
	// time.Now. (Tests set it; nothing else here reads the clock.)
	Clock func() int64
}

// DefaultConfig: a 5 s timeout, a retry every half second, a keep-alive
// after a quarter second of silence, 64 slots.
func DefaultConfig() Config {
	return Config{
		TimeoutTicks:        5 * wire.TicksPerSecond,
		RetryTicks:          wire.TicksPerSecond / 2,
		KeepAliveTicks:      wire.TicksPerSecond / 4,
		SilentTicks:         wire.TicksPerSecond,
		CookieTicks:         5 * wire.TicksPerSecond,
		QueueBytes:          8 << 20,
		ReceiveBufferBytes:  1 << 20,
		MaxClients:          MaxClients,
		DeniesPerSecond:     10,
		ChallengesPerSecond: 120,

		SourceRequestsPerSecond: 10,
		KeyChallengesPerSecond:  2,
		FreshSeconds:            60,
		MoveStartBytes:          1200,
		RefusalsToGiveUp:        5,
	}
}

// fill replaces out-of-range fields with their defaults.
func (c Config) fill() Config {
	d := DefaultConfig()
	pos := func(v *int, def int) {
		if *v < 1 {
			*v = def
		}
	}
	pos(&c.TimeoutTicks, d.TimeoutTicks)
	pos(&c.RetryTicks, d.RetryTicks)
	pos(&c.KeepAliveTicks, d.KeepAliveTicks)
	pos(&c.SilentTicks, d.SilentTicks)
	pos(&c.CookieTicks, d.CookieTicks)
	pos(&c.QueueBytes, d.QueueBytes)
	pos(&c.ReceiveBufferBytes, d.ReceiveBufferBytes)
	pos(&c.DeniesPerSecond, d.DeniesPerSecond)
	pos(&c.ChallengesPerSecond, d.ChallengesPerSecond)
	pos(&c.SourceRequestsPerSecond, d.SourceRequestsPerSecond)
	pos(&c.KeyChallengesPerSecond, d.KeyChallengesPerSecond)
	pos(&c.FreshSeconds, d.FreshSeconds)
	pos(&c.MoveStartBytes, d.MoveStartBytes)
	if c.Clock == nil {
		c.Clock = func() int64 { return time.Now().UnixMilli() }
	}
	if c.MaxClients < 1 || c.MaxClients > MaxClients {
		c.MaxClients = d.MaxClients
	}
	return c
}

// Drops counts the datagrams refused, by reason: each refused datagram
// once, under the first reason found. The HUD shows them.
type Drops struct {
	NotOurs      uint64 // shorter than a header, or another protocol id
	WrongVersion uint64
	Oversized    uint64 // larger than this protocol sends
	QueueFull    uint64 // the receive queue held QueueBytes already
	Malformed    uint64 // wrong size for its kind, a kind going the wrong way, a body that does not parse
	Forged       uint64 // failed authentication: wrong key, changed on the way, made up
	Replayed     uint64 // a sequence seen before, or older than the replay window
	Expired      uint64 // a response whose cookie is too old
	Stale        uint64 // a connect stamped too far from the left's clock (an old capture, or a clock that is off)
	WrongAddress uint64 // on a right: not from its left
	Misdirected  uint64 // genuine, but from an address it does not belong to: a response or a session's key from another address, a datagram sent back to its sender
	NotConnected uint64 // a session datagram for a free slot, or before the accept
	Ignored      uint64 // on a connected right: a deny (in clear, so anyone could have sent it)
	Unanswered   uint64 // a request dropped by a rate limit (per source, per key, in all), before any key work
}

// Total is the sum of every reason.
func (d Drops) Total() uint64 {
	return d.NotOurs + d.WrongVersion + d.Oversized + d.QueueFull + d.Malformed + d.Forged + d.Replayed +
		d.Expired + d.Stale + d.WrongAddress + d.Misdirected + d.NotConnected + d.Ignored + d.Unanswered
}

// datagram is one received datagram, copied out of the socket's buffer.
type datagram struct {
	from netip.AddrPort
	data []byte
}

// Conn is what the transport sends and receives datagrams on: a UDP socket
// (*net.UDPConn), or anything else that carries whole datagrams between
// addresses, such as the classroom's browser connections (package room),
// where each browser has an address of its own. Every datagram read from a
// Conn goes through the same checks as one from a UDP socket.
type Conn interface {
	// ReadFromUDPAddrPort blocks until a datagram arrives; it returns
	// net.ErrClosed once the Conn is closed.
	ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error)
	WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error)
	LocalAddr() net.Addr
	Close() error
}

// socket is the part both sides share: the socket, its reader, the queue,
// the drops and the counts.
type socket struct {
	cfg  Config
	sock Conn

	mu      sync.Mutex
	queue   []datagram
	queued  int // bytes in queue
	closed  bool
	drops   Drops
	sent    uint64 // datagrams sent
	arrived uint64 // datagrams read from the socket (queued or dropped)
	bytesIn uint64
	out     uint64 // bytes sent

	taken []datagram // the queue Poll took, recycled
	w     *wire.WriteStream
	r     *wire.ReadStream
	buf   []byte // one outgoing datagram
	nc    nonceBuf
}

func newSocket(sock Conn, cfg Config) *socket {
	s := &socket{cfg: cfg.fill(), sock: sock, buf: make([]byte, MaxDatagram)}
	s.w, s.r = wire.NewWriteStream(nil), wire.NewReadStream(nil)
	go s.readLoop()
	return s
}

// readLoop copies every datagram that might be ours into the queue. It
// reads one byte more than MaxDatagram, so an oversized datagram is seen as
// such instead of being silently cut.
func (s *socket) readLoop() {
	buf := make([]byte, MaxDatagram+1)
	for {
		n, from, err := s.sock.ReadFromUDPAddrPort(buf)
		s.mu.Lock()
		if err != nil {
			done := s.closed || errors.Is(err, net.ErrClosed)
			s.mu.Unlock()
			if done {
				return
			}
			continue
		}
		s.arrived++
		s.bytesIn += uint64(n)
		switch {
		case n > MaxDatagram:
			s.drops.Oversized++
		case n < HeaderBytes || binary.LittleEndian.Uint32(buf) != ProtocolID:
			s.drops.NotOurs++
		case s.queued+n > s.cfg.QueueBytes:
			s.drops.QueueFull++
		default:
			s.queue = append(s.queue, datagram{from: unmap(from), data: append([]byte(nil), buf[:n]...)})
			s.queued += n
		}
		s.mu.Unlock()
	}
}

// take hands Poll the queue.
func (s *socket) take() []datagram {
	s.mu.Lock()
	q := s.queue
	s.queue, s.queued = s.taken[:0], 0
	s.mu.Unlock()
	s.taken = q
	return q
}

func (s *socket) count(f func(*Drops)) {
	s.mu.Lock()
	f(&s.drops)
	s.mu.Unlock()
}

// readHeader reads d's header; on failure it counts the drop and returns
// false.
func (s *socket) readHeader(d []byte) (Header, bool) {
	var h Header
	s.r.Reset(d)
	switch err := h.Serialize(s.r); {
	case err == nil:
		return h, true
	case errors.Is(err, ErrWrongVersion):
		s.count(func(x *Drops) { x.WrongVersion++ })
		return h, false
	default:
		s.count(func(x *Drops) { x.Malformed++ })
		return h, false
	}
}

// write sends one datagram.
func (s *socket) write(to netip.AddrPort, pkt []byte) int {
	if pkt == nil {
		return 0
	}
	if _, err := s.sock.WriteToUDPAddrPort(pkt, to); err != nil {
		return 0
	}
	s.mu.Lock()
	s.sent++
	s.out += uint64(len(pkt))
	s.mu.Unlock()
	return len(pkt)
}

// Counts are a socket's datagrams and bytes.
type Counts struct {
	Sent, Arrived       uint64 // datagrams
	BytesOut, BytesIn   uint64
	Queued, QueuedBytes int // waiting for the next Poll now
}

func (s *socket) counts() Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Counts{Sent: s.sent, Arrived: s.arrived, BytesOut: s.out, BytesIn: s.bytesIn, Queued: len(s.queue), QueuedBytes: s.queued}
}

func (s *socket) dropsNow() Drops {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.drops
}

func (s *socket) close() error {
	s.mu.Lock()
	s.closed = true
	s.queue, s.queued = nil, 0
	s.mu.Unlock()
	s.taken, s.buf = nil, nil // a closed side sends nothing (seal refuses an empty buffer)
	return s.sock.Close()
}

// listenUDP opens a UDP socket on addr (nil: any port) with cfg's receive
// buffer. A system that refuses the size keeps its own: the socket works
// all the same, it only drops sooner under a burst.
func listenUDP(addr *net.UDPAddr, cfg Config) (*net.UDPConn, error) {
	sock, err := net.ListenUDP("udp", addr)
	if err != nil {
		return nil, err
	}
	_ = sock.SetReadBuffer(cfg.fill().ReceiveBufferBytes)
	return sock, nil
}

// unmap turns an IPv4-mapped IPv6 address into IPv4, so one host has one
// spelling.
func unmap(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}
