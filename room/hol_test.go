//go:build !js && !windows

package room

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"
	"gvisor.dev/gvisor/pkg/tcpip/adapters/gonet"
	"gvisor.dev/gvisor/pkg/tcpip/network/ipv4"

	"netcubes/udp"
)

// Head-of-line blocking, measured: the room's server sends one client a
// frame every tick (1/60 s) over a link that loses a share of its packets
// each way, and the client notes when each frame arrives. Over the data
// channel (unordered, no retransmission) a lost frame is lost and the
// next one arrives on time; over the WebSocket, TCP retransmits the lost
// segment and holds every later byte until it arrives. Same seed, same
// loss, same frames for both.

// Frame sizes: state sync's mean packet (532 bytes) and a right's acks
// and inputs (60), each with the session's sealing (udp.Overhead).
const (
	holDown = 532 + udp.Overhead
	holUp   = 60 + udp.Overhead
)

// holLate: a frame later than this after it was sent misses a playout
// buffer of 6 ticks (100 ms, a common interpolation delay). The bench
// also counts the frames later than 1 and 3 ticks (a LAN's buffer).
const holLate = 100 * time.Millisecond

const holTick = time.Second / 60

// holResult is one run's figures.
type holResult struct {
	sent, got  int
	sendFailed int             // the server's carrier refused the frame (queue full)
	delays     []time.Duration // of the frames that arrived, sorted
	down, up   linkCounts      // what went on the link during the frames
	ipHeader   int             // bytes of headers per packet not in the counts
	lineLate   time.Duration   // the most the link's delay lines ran late
}

// quantile is the q-quantile of the arrived frames' delays (nearest rank).
func (r holResult) quantile(q float64) time.Duration {
	if len(r.delays) == 0 {
		return 0
	}
	i := int(q*float64(len(r.delays))+0.999999) - 1
	return r.delays[max(0, min(i, len(r.delays)-1))]
}

// late counts the frames that arrived after holLate.
func (r holResult) late() int { return r.later(holLate) }

// later counts the frames that arrived more than d after they were sent.
func (r holResult) later(d time.Duration) int {
	i, _ := slices.BinarySearch(r.delays, d+1)
	return len(r.delays) - i
}

// wirePerTick is the bytes on the link per frame, IP headers included.
func (r holResult) wirePerTick(c linkCounts) float64 {
	return float64(c.bytes+int64(r.ipHeader)*c.packets) / float64(r.sent)
}

// holClient is one client's end: it sends, and hands every message
// received to onMsg.
type holClient struct {
	send  func([]byte) error
	close func()
	// link: the counts and loss of this client's link.
	down, up *dropper
	ipHeader int
	// lines are the link's delay lines (none without a delay).
	lines []*delayLine
}

// holSetup joins one client to tr's room over a lossy link: a data
// channel (ws false) or a WebSocket on gVisor's TCP.
func holSetup(tb testing.TB, tr *testRoom, ws bool, seed uint64, delay time.Duration, onMsg func([]byte)) *holClient {
	tb.Helper()
	ctx, cancel := deadlineCtx(30 * time.Second)
	defer cancel()
	var c *holClient
	var err error
	if ws {
		c, err = holSocket(ctx, tr, seed, delay, onMsg)
	} else {
		c, err = holChannel(ctx, tr, seed, delay, onMsg)
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.close)
	return c
}

// holChannel joins over a data channel whose client socket is lossy.
func holChannel(ctx context.Context, tr *testRoom, seed uint64, delay time.Duration, onMsg func([]byte)) (*holClient, error) {
	pc0, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	lc := newLossyConn(pc0, seed, delay)
	var se webrtc.SettingEngine
	mux := webrtc.NewICEUDPMux(nil, lc)
	se.SetICEUDPMux(mux)
	se.SetIncludeLoopbackCandidate(true)
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	pc, err := webrtc.NewAPI(webrtc.WithSettingEngine(se)).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		pc0.Close()
		return nil, err
	}
	c := &holClient{down: lc.in, up: lc.out, ipHeader: 20 + 8, lines: []*delayLine{lc.inLine, lc.outLine}, close: func() {
		pc.Close()
		mux.Close()
		pc0.Close()
	}}
	ordered, none := false, uint16(0)
	dc, err := pc.CreateDataChannel(ChannelLabel, &webrtc.DataChannelInit{Ordered: &ordered, MaxRetransmits: &none})
	if err != nil {
		c.close()
		return nil, err
	}
	opened := make(chan struct{})
	var once sync.Once
	dc.OnOpen(func() { once.Do(func() { close(opened) }) })
	dc.OnMessage(func(m webrtc.DataChannelMessage) { onMsg(m.Data) })
	c.send = dc.Send
	if err := holNegotiate(ctx, tr, pc); err != nil {
		c.close()
		return nil, err
	}
	select {
	case <-opened:
		return c, nil
	case <-ctx.Done():
		c.close()
		return nil, errors.New("the data channel did not open")
	}
}

// holNegotiate sends pc's offer to the room and takes its answer.
func holNegotiate(ctx context.Context, tr *testRoom, pc *webrtc.PeerConnection) error {
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return err
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(offer); err != nil {
		return err
	}
	select {
	case <-gathered:
	case <-ctx.Done():
		return ctx.Err()
	}
	ans, err := postOffer(ctx, tr.http.URL, Join{Token: tr.room.cfg.Token.String(), SDP: pc.LocalDescription().SDP})
	if err != nil {
		return err
	}
	return pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: ans})
}

// holSocket serves the room's endpoints on a gVisor TCP stack and joins
// over a WebSocket from another stack, across a lossy link.
func holSocket(ctx context.Context, tr *testRoom, seed uint64, delay time.Duration, onMsg func([]byte)) (*holClient, error) {
	link, err := newTCPLink(seed, delay)
	if err != nil {
		return nil, err
	}
	ln, err := gonet.ListenTCP(link.server, link.serverAddr, ipv4.ProtocolNumber)
	if err != nil {
		link.Close()
		return nil, err
	}
	hs := &http.Server{Handler: tr.room.Handler(nil), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return gonet.DialContextTCP(ctx, link.client, link.serverAddr, ipv4.ProtocolNumber)
	}}}
	u, err := socketURL("http://"+link.serverAddr.Addr.String(), tr.room.cfg.Token)
	if err != nil {
		return nil, err
	}
	ws, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		hs.Close()
		link.Close()
		return nil, err
	}
	rctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			_, b, err := ws.Read(rctx)
			if err != nil {
				return
			}
			onMsg(b)
		}
	}()
	// Headers not in the link's counts: none (gVisor's packets are whole
	// IP packets).
	return &holClient{down: link.down, up: link.up, lines: link.lines, close: func() {
		cancel()
		ws.CloseNow()
		<-done
		hs.Close()
		link.Close()
	}, send: func(b []byte) error {
		wctx, wcancel := context.WithTimeout(rctx, 5*time.Second)
		defer wcancel()
		return ws.Write(wctx, websocket.MessageBinary, b)
	}}, nil
}

// holArrivals records when each frame arrives, and answers it as a right
// would (its acks and inputs).
type holArrivals struct {
	mu     sync.Mutex
	start  time.Time
	at     map[uint64]time.Duration // frame → delay
	client *holClient
	up     []byte
}

func (a *holArrivals) onMsg(b []byte) {
	if len(b) < 16 {
		return
	}
	now := time.Since(a.start)
	seq := binary.LittleEndian.Uint64(b)
	sent := time.Duration(binary.LittleEndian.Uint64(b[8:]))
	a.mu.Lock()
	if _, dup := a.at[seq]; !dup {
		a.at[seq] = now - sent
	}
	c := a.client
	a.mu.Unlock()
	if c != nil {
		c.send(a.up)
	}
}

// unlimitedRoom is a room on 127.0.0.1 with no session's server (the
// measurements read the hub themselves) and no rate limit. The limits
// are set under the hub's lock: the room already serves joins.
func unlimitedRoom(tb testing.TB) *testRoom {
	tr := newRoomTB(tb, false, false)
	h := tr.room.hub
	h.mu.Lock()
	h.limits = Limits{MessagesPerSecond: 1 << 30, BytesPerSecond: 1 << 40, BurstSeconds: 1, MaxMessage: 2048}
	h.mu.Unlock()
	return tr
}

// holRunner is a room with one client on a lossy link, ready to send.
type holRunner struct {
	tr   *testRoom
	c    *holClient
	arr  *holArrivals
	peer netip.AddrPort
}

func newHOLRunner(tb testing.TB, ws bool, seed uint64, delay time.Duration) *holRunner {
	tb.Helper()
	tr := unlimitedRoom(tb)
	arr := &holArrivals{start: time.Now(), at: map[uint64]time.Duration{}, up: make([]byte, holUp)}
	c := holSetup(tb, tr, ws, seed, delay, arr.onMsg)
	arr.mu.Lock()
	arr.client = c
	arr.mu.Unlock()
	h := tr.room.Hub()
	for deadline := time.Now().Add(10 * time.Second); h.Open() < 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			tb.Fatal("the client never reached the hub")
		}
	}
	go func() { // the server reads what the client sends
		buf := make([]byte, udp.MaxDatagram)
		for {
			if _, _, err := h.ReadFromUDPAddrPort(buf); err != nil {
				return
			}
		}
	}()
	return &holRunner{tr: tr, c: c, arr: arr, peer: h.Peers()[0].Addr}
}

// run sends frames while next() holds, one a tick, over a link losing
// ppm parts per million each way, then waits for the stragglers.
func (r *holRunner) run(ppm uint64, next func() bool) holResult {
	r.c.down.setLoss(ppm)
	r.c.up.setLoss(ppm)
	down0, up0 := r.c.down.counts(), r.c.up.counts()
	frame := make([]byte, holDown)
	var res holResult
	ticker := time.NewTicker(holTick)
	defer ticker.Stop()
	for next() {
		<-ticker.C
		binary.LittleEndian.PutUint64(frame, uint64(res.sent))
		binary.LittleEndian.PutUint64(frame[8:], uint64(time.Since(r.arr.start)))
		if _, err := r.tr.room.Hub().WriteToUDPAddrPort(frame, r.peer); err != nil {
			res.sendFailed++
		}
		res.sent++
	}
	// Stragglers: TCP may be backing off its retransmission timer (200
	// ms, then doubling). Wait until every frame is in, or none has come
	// for 1.5 s.
	last, lastAt := -1, time.Now()
	for time.Since(lastAt) < 1500*time.Millisecond {
		r.arr.mu.Lock()
		n := len(r.arr.at)
		r.arr.mu.Unlock()
		if n == res.sent-res.sendFailed {
			break
		}
		if n != last {
			last, lastAt = n, time.Now()
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.arr.mu.Lock()
	for seq, d := range r.arr.at {
		if seq < uint64(res.sent) {
			res.delays = append(res.delays, d)
		}
	}
	r.arr.mu.Unlock()
	slices.Sort(res.delays)
	res.got = len(res.delays)
	res.down, res.up = r.c.down.counts().sub(down0), r.c.up.counts().sub(up0)
	res.ipHeader = r.c.ipHeader
	res.lineLate = maxLate(r.c.lines...)
	return res
}

// runHOL is one measurement: a fresh room, one client, frames frames.
func runHOL(tb testing.TB, ws bool, ppm, seed uint64, delay time.Duration, frames int) holResult {
	r := newHOLRunner(tb, ws, seed, delay)
	n := 0
	return r.run(ppm, func() bool { n++; return n <= frames })
}

func (r holResult) String() string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }
	return fmt.Sprintf("%d sent, %d arrived, %d late (>%v); delay median %s, p95 %s, p99 %s, max %s; %d+%d packets dropped; delay line at worst %s late",
		r.sent, r.got, r.late(), holLate, ms(r.quantile(0.5)), ms(r.quantile(0.95)), ms(r.quantile(0.99)),
		ms(r.quantile(1)), r.down.dropped, r.up.dropped, ms(r.lineLate))
}

// TestHeadOfLineBlocking: under the same loss, TCP holds frames behind a
// lost segment and the data channel does not. The figures are compared
// with each other, never with a time: a frame held behind a loss waits
// at least for the next segment to reveal the loss (a tick) and for the
// retransmission, so TCP's slowest frames are several times the data
// channel's, and every TCP frame arrives while the data channel loses
// some. (Loss 5 %, 240 frames, about 4 s a carrier; the bench has the
// 2 % figures: go test -run '^$' -bench HeadOfLine ./room.)
//
// The tails are what the machine's scheduling disturbs: on a machine
// loaded with other work a few data channel frames wait tens of
// milliseconds for a CPU, as long as a frame TCP held (this failed 1 run
// in 5 beside six busy loops on two cores). A pair of runs that does not
// show the difference is measured again, up to holTries pairs: the
// property holds, and a fresh pair is rarely disturbed as much.
func TestHeadOfLineBlocking(t *testing.T) {
	const seed, frames, ppm = 7, 240, 50_000
	for try := 1; ; try++ {
		dc := runHOL(t, false, ppm, seed, 0, frames)
		tcp := runHOL(t, true, ppm, seed, 0, frames)
		t.Logf("data channel: %v", dc)
		t.Logf("WebSocket:    %v", tcp)
		if dc.down.dropped == 0 || tcp.down.dropped == 0 {
			t.Fatalf("the links lost nothing downward (%d, %d packets): the seed makes no loss", dc.down.dropped, tcp.down.dropped)
		}
		if tcp.got != tcp.sent-tcp.sendFailed {
			t.Errorf("TCP delivered %d of %d frames: it retransmits", tcp.got, tcp.sent)
		}
		if dc.got >= dc.sent {
			t.Errorf("the data channel delivered all %d frames through a link that lost %d packets downward", dc.sent, dc.down.dropped)
		}
		// Compare the tails with a generous factor (3): both carriers
		// share the machine's scheduling noise.
		dcT, tcpT := dc.quantile(0.98), tcp.quantile(0.98)
		switch {
		case tcpT >= 3*dcT:
			return
		case try < holTries:
			t.Logf("TCP's 98th-percentile delay %v is not 3× the data channel's %v: the machine's load, most likely; measuring again", tcpT, dcT)
		default:
			t.Errorf("TCP's 98th-percentile delay %v is not well beyond the data channel's %v under the same loss (%d pairs of runs)", tcpT, dcT, try)
			return
		}
	}
}

// holTries bounds TestHeadOfLineBlocking's pairs of runs (about 8 s each).
const holTries = 3

// BenchmarkHeadOfLine: one op is one frame (a tick, 1/60 s of real
// time): -benchtime 3600x is a minute a case. The cases: the loopback
// link as it is (no loss, then 2 % each way), and 2 % with 10 ms added
// each way (a 20 ms round trip: a busy Wi-Fi, or a city away), where a
// retransmission costs a round trip more. Reported: the arrived frames'
// delay (median, p95, p99, max, ms), the share late (more than 1 tick,
// 3 ticks, 100 ms after it was sent) and lost,
// the bytes and packets a tick on the link each way (bytes with IP
// headers), and with a delay, the most the delay line itself ran late
// (this process's scheduling: on a loaded machine it can swamp the
// figures of the delayed cases).
//
//	go test -run '^$' -bench HeadOfLine -benchtime 3600x ./room
func BenchmarkHeadOfLine(b *testing.B) {
	cases := []struct {
		rtt time.Duration
		ppm uint64
	}{{0, 0}, {0, 20_000}, {20 * time.Millisecond, 0}, {20 * time.Millisecond, 20_000}}
	for _, k := range cases {
		for _, ws := range []bool{false, true} {
			name := fmt.Sprintf("rtt=%v/loss=%g%%/%s", k.rtt, float64(k.ppm)/1e4, map[bool]string{false: "datachannel", true: "websocket"}[ws])
			b.Run(name, func(b *testing.B) {
				r := newHOLRunner(b, ws, 1, k.rtt/2)
				res := r.run(k.ppm, b.Loop)
				ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
				b.ReportMetric(ms(res.quantile(0.5)), "p50-ms")
				b.ReportMetric(ms(res.quantile(0.95)), "p95-ms")
				b.ReportMetric(ms(res.quantile(0.99)), "p99-ms")
				b.ReportMetric(ms(res.quantile(1)), "max-ms")
				b.ReportMetric(100*float64(res.later(holTick))/float64(res.sent), "late1tick-%")
				b.ReportMetric(100*float64(res.later(3*holTick))/float64(res.sent), "late3ticks-%")
				b.ReportMetric(100*float64(res.late())/float64(res.sent), "late-%")
				b.ReportMetric(100*float64(res.sent-res.got)/float64(res.sent), "lost-%")
				b.ReportMetric(res.wirePerTick(res.down), "down-B/tick")
				b.ReportMetric(res.wirePerTick(res.up), "up-B/tick")
				b.ReportMetric(float64(res.down.packets)/float64(res.sent), "down-pkt/tick")
				b.ReportMetric(float64(res.up.packets)/float64(res.sent), "up-pkt/tick")
				if k.rtt > 0 {
					b.ReportMetric(ms(res.lineLate), "line-late-ms")
				}
				b.Logf("%s: %v", name, res)
			})
		}
	}
}
