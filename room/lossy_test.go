//go:build !js && !windows

package room

import (
	"context"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"gvisor.dev/gvisor/pkg/buffer"
	"gvisor.dev/gvisor/pkg/tcpip"
	"gvisor.dev/gvisor/pkg/tcpip/link/channel"
	"gvisor.dev/gvisor/pkg/tcpip/network/ipv4"
	"gvisor.dev/gvisor/pkg/tcpip/stack"
	"gvisor.dev/gvisor/pkg/tcpip/transport/tcp"
)

// Design note: the loss for the head-of-line measurement is made in user
// space (this machine's kernel has no netem), but each protocol sees it
// as a real link's: a datagram or a segment that is dropped never
// arrives, and the protocol's own machinery (SCTP's, TCP's) finds out
// and does what it does. The data channel's client reads and writes a
// UDP socket through lossyConn; the WebSocket runs on TCP in gVisor's
// user-space network stack (the same TCP as Linux's in the respects that
// matter here: SACK, RACK, a 200 ms minimum RTO), two stacks joined by a
// lossyLink. Each direction drops with its own RNG seeded the same way
// for both carriers.

// delayLine runs what is pushed onto it a fixed time later, in order: a
// link's one-way delay. A line that holds 4096 packets drops the next
// ones, as a router's full queue would.
type delayLine struct {
	delay time.Duration
	q     chan delayed
	done  chan struct{}
	ended chan struct{}
	once  sync.Once
	// late is the most a packet left after its due time (ns): how much
	// of a measured delay is this process's scheduling, not the link's.
	late atomic.Int64
}

type delayed struct {
	due time.Time
	fn  func()
}

func newDelayLine(d time.Duration) *delayLine {
	l := &delayLine{delay: d, q: make(chan delayed, 4096), done: make(chan struct{}), ended: make(chan struct{})}
	go l.run()
	return l
}

func (l *delayLine) push(fn func()) {
	select {
	case l.q <- delayed{time.Now().Add(l.delay), fn}:
	default:
	}
}

func (l *delayLine) run() {
	defer close(l.ended)
	for {
		select {
		case <-l.done:
			return
		case it := <-l.q:
			time.Sleep(time.Until(it.due))
			if d := int64(time.Since(it.due)); d > l.late.Load() {
				l.late.Store(d)
			}
			it.fn()
		}
	}
}

// close stops the line (what it holds is lost) and waits for it.
func (l *delayLine) close() {
	l.once.Do(func() { close(l.done) })
	<-l.ended
}

// dropper decides which packets a direction of a link loses, and counts
// what went onto it (bytes and packets, dropped ones included: they were
// on the wire).
type dropper struct {
	mu      sync.Mutex
	rng     *rand.Rand
	loss    atomic.Uint64 // parts per million lost
	packets atomic.Int64
	bytes   atomic.Int64
	dropped atomic.Int64
}

func newDropper(seed, stream uint64) *dropper {
	return &dropper{rng: rand.New(rand.NewPCG(seed, stream))}
}

// setLoss sets the share of packets lost, in parts per million.
func (d *dropper) setLoss(ppm uint64) { d.loss.Store(ppm) }

// pass counts a packet of n bytes and says whether it gets through.
func (d *dropper) pass(n int) bool {
	d.packets.Add(1)
	d.bytes.Add(int64(n))
	ppm := d.loss.Load()
	if ppm == 0 {
		return true
	}
	d.mu.Lock()
	lost := d.rng.Uint64N(1_000_000) < ppm
	d.mu.Unlock()
	if lost {
		d.dropped.Add(1)
	}
	return !lost
}

// counts are a direction's totals so far.
func (d *dropper) counts() linkCounts {
	return linkCounts{packets: d.packets.Load(), bytes: d.bytes.Load(), dropped: d.dropped.Load()}
}

type linkCounts struct{ packets, bytes, dropped int64 }

func (a linkCounts) sub(b linkCounts) linkCounts {
	return linkCounts{a.packets - b.packets, a.bytes - b.bytes, a.dropped - b.dropped}
}

// maxLate is the most any of lines ran late.
func maxLate(lines ...*delayLine) time.Duration {
	var m int64
	for _, l := range lines {
		if l != nil {
			m = max(m, l.late.Load())
		}
	}
	return time.Duration(m)
}

// lossyConn is a UDP socket whose datagrams are lost (and delayed) as a
// lossy link's: in drops what arrives, out drops what is sent.
type lossyConn struct {
	net.PacketConn
	in, out *dropper
	// With a delay, a goroutine reads the socket and delivers each
	// datagram through inLine to inq; writes go through outLine.
	inLine, outLine *delayLine
	inq             chan lossyDatagram
	closed          chan struct{}
}

type lossyDatagram struct {
	b    []byte
	from net.Addr
}

// newLossyConn wraps pc; delay is added each way.
func newLossyConn(pc net.PacketConn, seed uint64, delay time.Duration) *lossyConn {
	c := &lossyConn{PacketConn: pc, in: newDropper(seed, 1), out: newDropper(seed, 2), closed: make(chan struct{})}
	if delay > 0 {
		c.inLine, c.outLine = newDelayLine(delay), newDelayLine(delay)
		c.inq = make(chan lossyDatagram, 4096)
		go c.readLoop()
	}
	return c
}

func (c *lossyConn) readLoop() {
	for {
		b := make([]byte, 2048)
		n, a, err := c.PacketConn.ReadFrom(b)
		if err != nil {
			return
		}
		if c.in.pass(n) {
			d := lossyDatagram{b[:n], a}
			c.inLine.push(func() {
				select {
				case c.inq <- d:
				default:
				}
			})
		}
	}
}

func (c *lossyConn) ReadFrom(b []byte) (int, net.Addr, error) {
	if c.inq != nil {
		select {
		case d := <-c.inq:
			return copy(b, d.b), d.from, nil
		case <-c.closed:
			return 0, nil, net.ErrClosed
		}
	}
	for {
		n, a, err := c.PacketConn.ReadFrom(b)
		if err != nil || c.in.pass(n) {
			return n, a, err
		}
	}
}

func (c *lossyConn) WriteTo(b []byte, a net.Addr) (int, error) {
	if !c.out.pass(len(b)) {
		return len(b), nil // gone on the way, as far as the sender knows
	}
	if c.outLine != nil {
		p := append([]byte(nil), b...)
		c.outLine.push(func() { c.PacketConn.WriteTo(p, a) })
		return len(b), nil
	}
	return c.PacketConn.WriteTo(b, a)
}

func (c *lossyConn) Close() error {
	err := c.PacketConn.Close()
	if c.outLine != nil {
		c.outLine.close()
		c.inLine.close()
	}
	select {
	case <-c.closed:
	default:
		close(c.closed)
	}
	return err
}

// tcpLink is two gVisor network stacks, a server's and a client's, whose
// NICs are joined by a lossy link: down carries the server's packets to
// the client, up the client's to the server.
type tcpLink struct {
	server, client *stack.Stack
	serverAddr     tcpip.FullAddress
	down, up       *dropper
	lines          []*delayLine // with a delay: down's, up's
	cancel         context.CancelFunc
	wg             sync.WaitGroup
}

// The two ends' addresses (a private IPv4 range; these exist only inside
// the process).
var (
	linkServerIP = tcpip.AddrFrom4([4]byte{10, 64, 0, 1})
	linkClientIP = tcpip.AddrFrom4([4]byte{10, 64, 0, 2})
)

const linkMTU = 1500 // Ethernet's

func newTCPLink(seed uint64, delay time.Duration) (*tcpLink, error) {
	l := &tcpLink{down: newDropper(seed, 1), up: newDropper(seed, 2),
		serverAddr: tcpip.FullAddress{NIC: 1, Addr: linkServerIP, Port: 80}}
	se, ce := channel.New(512, linkMTU, ""), channel.New(512, linkMTU, "")
	var err error
	if l.server, err = newStack(se, linkServerIP); err != nil {
		return nil, err
	}
	if l.client, err = newStack(ce, linkClientIP); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	l.wg.Add(2)
	var downLine, upLine *delayLine
	if delay > 0 {
		downLine, upLine = newDelayLine(delay), newDelayLine(delay)
		l.lines = []*delayLine{downLine, upLine}
	}
	go l.carry(ctx, se, ce, l.down, downLine)
	go l.carry(ctx, ce, se, l.up, upLine)
	return l, nil
}

func newStack(ep *channel.Endpoint, ip tcpip.Address) (*stack.Stack, error) {
	s := stack.New(stack.Options{
		NetworkProtocols:   []stack.NetworkProtocolFactory{ipv4.NewProtocol},
		TransportProtocols: []stack.TransportProtocolFactory{tcp.NewProtocol},
	})
	if err := s.CreateNIC(1, ep); err != nil {
		return nil, errTCPIP{err}
	}
	pa := tcpip.ProtocolAddress{Protocol: ipv4.ProtocolNumber, AddressWithPrefix: ip.WithPrefix()}
	if err := s.AddProtocolAddress(1, pa, stack.AddressProperties{}); err != nil {
		return nil, errTCPIP{err}
	}
	// The whole 10.64/16 is on the link.
	sub, err := tcpip.NewSubnet(tcpip.AddrFrom4([4]byte{10, 64, 0, 0}), tcpip.MaskFromBytes([]byte{255, 255, 0, 0}))
	if err != nil {
		return nil, err
	}
	s.SetRouteTable([]tcpip.Route{{Destination: sub, NIC: 1}})
	return s, nil
}

// errTCPIP makes a gVisor error a Go error.
type errTCPIP struct{ e tcpip.Error }

func (e errTCPIP) Error() string { return e.e.String() }

// carry moves every packet the from NIC sends to the to NIC (through
// line, when the link has a delay), but those the dropper loses.
func (l *tcpLink) carry(ctx context.Context, from, to *channel.Endpoint, d *dropper, line *delayLine) {
	defer l.wg.Done()
	if line != nil {
		defer line.close()
	}
	for {
		pkt := from.ReadContext(ctx)
		if pkt == nil {
			return
		}
		v := pkt.ToView()
		pkt.DecRef()
		if !d.pass(v.Size()) {
			v.Release()
			continue
		}
		inject := func() {
			in := stack.NewPacketBuffer(stack.PacketBufferOptions{Payload: buffer.MakeWithView(v)})
			to.InjectInbound(ipv4.ProtocolNumber, in)
			in.DecRef()
		}
		if line == nil {
			inject()
			continue
		}
		line.push(inject)
	}
}

func (l *tcpLink) Close() {
	l.cancel()
	l.wg.Wait()
	l.server.Close()
	l.client.Close()
}

// deadlineCtx is a context that ends after d (a dial's bound).
func deadlineCtx(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
