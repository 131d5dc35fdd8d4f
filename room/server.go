//go:build !js

package room

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"

	"netcubes/udp"
)

// Config holds the room's tunables.
type Config struct {
	// Token is the room's secret: the page's address carries it, and a
	// join without it is refused (here, and again by the session's
	// handshake, whose keys it seals every datagram with).
	Token udp.Token
	// ForceWebSocket refuses data channels, so every browser joins over
	// the TCP fallback: the head-of-line-blocking lesson on a real network.
	ForceWebSocket bool
	// MaxConnections bounds the open browser connections (players and
	// spectators); one more gets "the room is full".
	MaxConnections int
	// JoinsPerSecond bounds join requests (offers and WebSockets) from
	// everyone together, and JoinsPerAddress from one address per
	// second: a connection costs a DTLS handshake, so joining is rate
	// limited before any of it is built.
	JoinsPerSecond  int
	JoinsPerAddress int
	// PendingJoins bounds the offers being answered at once (each waits
	// for its ICE gathering, up to GatherTimeout).
	PendingJoins  int
	GatherTimeout time.Duration
	// OpenTimeout: a peer connection whose data channel has not opened
	// this long after its answer is closed.
	OpenTimeout time.Duration
	// Loopback serves data channels only on the loopback interface (a
	// room on 127.0.0.1: tests and the bench). Otherwise the host's
	// addresses on every interface but loopback.
	Loopback bool
	// UDPPort is the one UDP port every data channel uses (0: any free
	// port). One port is one firewall rule.
	UDPPort int
	// Limits bound each connection's messages.
	Limits Limits
}

// MaxConnections bounds Config.MaxConnections: a classroom of 64. (The
// session takes udp.MaxClients of them; the others are refused by its
// handshake, as a full left refuses a right.)
const MaxConnections = 64

// DefaultConfig: 64 connections (udp.MaxClients), 20 joins a second, 2
// from one address.
func DefaultConfig() Config {
	return Config{MaxConnections: udp.MaxClients, JoinsPerSecond: 20, JoinsPerAddress: 2, PendingJoins: 8,
		GatherTimeout: 5 * time.Second, OpenTimeout: 15 * time.Second, Limits: DefaultLimits()}
}

// Room serves the join endpoints and owns the hub.
type Room struct {
	cfg  Config
	hub  *Hub
	api  *webrtc.API
	mux  ice.UDPMux
	udpc net.PacketConn

	mu      sync.Mutex
	counts  Counts
	pending int
	// opening counts WebSockets admitted and not yet in the hub: the
	// client's handshake completes before the hub counts the connection,
	// so a full room counts them too.
	opening int
	all     bucketT
	perAddr map[string]*bucketT
	pcs     []*webrtc.PeerConnection
}

// New makes a room: its hub (the udp.Conn to serve the session on) and
// its WebRTC side, listening for data channels on cfg.UDPPort.
func New(cfg Config) (*Room, error) {
	if cfg.MaxConnections < 1 || cfg.MaxConnections > MaxConnections {
		return nil, fmt.Errorf("room: MaxConnections = %d: want 1..%d", cfg.MaxConnections, MaxConnections)
	}
	if cfg.JoinsPerSecond < 1 || cfg.JoinsPerAddress < 1 || cfg.PendingJoins < 1 {
		return nil, errors.New("room: JoinsPerSecond, JoinsPerAddress and PendingJoins must be at least 1")
	}
	r := &Room{cfg: cfg, hub: NewHub(cfg.Limits), perAddr: map[string]*bucketT{}}
	r.all = newBucket(float64(cfg.JoinsPerSecond))
	host := ""
	if cfg.Loopback {
		host = "127.0.0.1"
	}
	pc, err := net.ListenPacket("udp4", net.JoinHostPort(host, fmt.Sprint(cfg.UDPPort)))
	if err != nil {
		return nil, fmt.Errorf("room: UDP port for the data channels: %w", err)
	}
	r.udpc = pc
	r.mux = webrtc.NewICEUDPMux(nil, pc)
	var se webrtc.SettingEngine
	se.SetICEUDPMux(r.mux)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	// Browsers hide their addresses behind mDNS names; the server needs
	// none of its own (it learns a browser's address from its checks).
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	if cfg.Loopback {
		se.SetIncludeLoopbackCandidate(true)
		se.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
	}
	r.api = webrtc.NewAPI(webrtc.WithSettingEngine(se))
	return r, nil
}

// Hub is the room's udp.Conn: serve the session on it (udp.Serve).
func (r *Room) Hub() *Hub { return r.hub }

// Open is the number of browsers connected now.
func (r *Room) Open() int { return r.hub.Open() }

// Peers are the browsers' connections (Hub.Peers).
func (r *Room) Peers() []Peer { return r.hub.Peers() }

// UDPAddr is the data channels' UDP address.
func (r *Room) UDPAddr() net.Addr { return r.udpc.LocalAddr() }

// ForcesWebSocket says whether the room refuses data channels now.
func (r *Room) ForcesWebSocket() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cfg.ForceWebSocket
}

// Counts returns the refusals so far.
func (r *Room) Counts() Counts {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counts
}

// Close closes every connection and the UDP port.
func (r *Room) Close() error {
	r.hub.Close()
	r.mu.Lock()
	pcs := r.pcs
	r.pcs = nil
	r.mu.Unlock()
	for _, pc := range pcs {
		pc.Close()
	}
	r.mux.Close()
	return r.udpc.Close()
}

// Handler serves the room's endpoints and hands every other request to
// next (the web page).
func (r *Room) Handler(next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(OfferPath, r.serveOffer)
	mux.HandleFunc(SocketPath, r.serveSocket)
	if next != nil {
		mux.Handle("/", next)
	}
	return mux
}

// refuse answers a refused join in one line the page shows.
func refuse(w http.ResponseWriter, code int, reason, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(Answer{Error: msg, Refusal: reason})
}

// admit checks a join's rate and the room's room, counting a refusal.
// It returns the HTTP status and the refusal, or 0.
func (r *Room) admit(req *http.Request) (int, string, string) {
	return r.admitAs(req, false)
}

// admitAs is admit; reserve counts the admitted join in opening (the
// caller calls opened once the hub has it, or gave up).
func (r *Room) admitAs(req *http.Request, reserve bool) (int, string, string) {
	host, _, err := net.SplitHostPort(req.RemoteAddr)
	if err != nil {
		host = req.RemoteAddr
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	b := r.perAddr[host]
	if b == nil {
		if len(r.perAddr) > 4096 {
			clear(r.perAddr) // forget old addresses rather than grow
		}
		nb := newBucket(float64(r.cfg.JoinsPerAddress))
		b = &nb
		r.perAddr[host] = b
	}
	if !b.take(now) || !r.all.take(now) {
		r.counts.Busy++
		return http.StatusTooManyRequests, "busy", "too many joins at once: try again in a second"
	}
	if r.hub.Open()+r.opening >= r.cfg.MaxConnections {
		r.counts.Full++
		return http.StatusServiceUnavailable, "full", fmt.Sprintf("the room is full (%d browsers)", r.cfg.MaxConnections)
	}
	if reserve {
		r.opening++
	}
	return 0, "", ""
}

// opened ends a reservation of admitAs.
func (r *Room) opened() {
	r.mu.Lock()
	r.opening--
	r.mu.Unlock()
}

func (r *Room) checkToken(t udp.Token) bool {
	return subtle.ConstantTimeCompare(t[:], r.cfg.Token[:]) == 1
}

func (r *Room) count(f func(*Counts)) {
	r.mu.Lock()
	f(&r.counts)
	r.mu.Unlock()
}

// serveOffer answers a browser's offer with the server's answer.
func (r *Room) serveOffer(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "POST an offer", http.StatusMethodNotAllowed)
		return
	}
	if r.ForcesWebSocket() {
		// Turned away before the join's rate is counted: the WebSocket
		// the browser opens next is the join, and counts once.
		r.count(func(c *Counts) { c.Forced++ })
		refuse(w, http.StatusConflict, "websocket", "the room asks for WebSocket (TCP)")
		return
	}
	if code, reason, msg := r.admit(req); code != 0 {
		refuse(w, code, reason, msg)
		return
	}
	j, tok, err := ReadJoin(req.Body)
	switch {
	case errors.Is(err, ErrMalformed) && j.Token != "" && tok == (udp.Token{}):
		r.count(func(c *Counts) { c.BadToken++ })
		refuse(w, http.StatusForbidden, "token", "this room's token is not the one in your address")
		return
	case err != nil:
		r.count(func(c *Counts) { c.Malformed++ })
		refuse(w, http.StatusBadRequest, "malformed", "the join request is malformed")
		return
	case !r.checkToken(tok):
		r.count(func(c *Counts) { c.BadToken++ })
		refuse(w, http.StatusForbidden, "token", "this room's token is not the one in your address")
		return
	}
	r.mu.Lock()
	if r.pending >= r.cfg.PendingJoins {
		r.counts.Busy++
		r.mu.Unlock()
		refuse(w, http.StatusTooManyRequests, "busy", "too many joins at once: try again in a second")
		return
	}
	r.pending++
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.pending--
		r.mu.Unlock()
	}()
	answer, err := r.answer(j.SDP, req.RemoteAddr)
	if err != nil {
		r.count(func(c *Counts) { c.Failed++ })
		refuse(w, http.StatusBadRequest, "malformed", "the offer could not be answered")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(Answer{SDP: answer})
}

// answer builds a peer connection for an offer and returns its answer
// with every candidate gathered.
func (r *Room) answer(offer, remote string) (string, error) {
	pc, err := r.api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return "", err
	}
	opened := make(chan struct{})
	var once sync.Once
	pc.OnDataChannel(func(dc *webrtc.DataChannel) { r.takeChannel(pc, dc, remote, opened, &once) })
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		pc.Close()
		return "", err
	}
	ans, err := pc.CreateAnswer(nil)
	if err != nil {
		pc.Close()
		return "", err
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(ans); err != nil {
		pc.Close()
		return "", err
	}
	select {
	case <-gathered:
	case <-time.After(r.cfg.GatherTimeout):
		pc.Close()
		return "", errors.New("room: ICE gathering timed out")
	}
	r.mu.Lock()
	r.pcs = append(r.pcs, pc)
	r.mu.Unlock()
	go func() {
		select {
		case <-opened:
		case <-time.After(r.cfg.OpenTimeout):
			r.closePC(pc)
		}
	}()
	return pc.LocalDescription().SDP, nil
}

func (r *Room) closePC(pc *webrtc.PeerConnection) {
	r.mu.Lock()
	for i, p := range r.pcs {
		if p == pc {
			r.pcs = append(r.pcs[:i], r.pcs[i+1:]...)
			break
		}
	}
	r.mu.Unlock()
	pc.Close()
}

// takeChannel checks a browser's data channel (the room's label,
// unordered, no retransmission: anything else is closed) and puts it on
// the hub when it opens.
func (r *Room) takeChannel(pc *webrtc.PeerConnection, dc *webrtc.DataChannel, remote string, opened chan struct{}, once *sync.Once) {
	if dc.Label() != ChannelLabel || dc.Ordered() || dc.MaxRetransmits() == nil || *dc.MaxRetransmits() != 0 {
		r.count(func(c *Counts) { c.Malformed++ })
		r.closePC(pc)
		return
	}
	dc.OnOpen(func() {
		first := false
		once.Do(func() { first = true; close(opened) })
		if !first {
			dc.Close() // one channel per connection
			return
		}
		addr, err := r.hub.add(&rtcCarrier{pc: pc, dc: dc, room: r}, DataChannel, remote)
		if err != nil {
			r.closePC(pc)
			return
		}
		r.count(func(c *Counts) { c.Joined++ })
		dc.OnMessage(func(m webrtc.DataChannelMessage) {
			if m.IsString {
				r.hub.deliver(addr, nil) // counted, then refused as not ours
				return
			}
			r.hub.deliver(addr, m.Data)
		})
		dc.OnClose(func() { r.hub.gone(addr) })
		pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
			if s == webrtc.PeerConnectionStateFailed || s == webrtc.PeerConnectionStateClosed || s == webrtc.PeerConnectionStateDisconnected {
				r.hub.gone(addr)
			}
		})
	})
}

// rtcCarrier sends on a data channel.
type rtcCarrier struct {
	pc   *webrtc.PeerConnection
	dc   *webrtc.DataChannel
	room *Room
}

func (c *rtcCarrier) send(b []byte) error {
	if c.dc.BufferedAmount() > maxBuffered {
		return errSendFull
	}
	return c.dc.Send(b)
}

func (c *rtcCarrier) close() { go c.room.closePC(c.pc) }

// serveSocket takes a browser over WebSocket: the fallback.
func (r *Room) serveSocket(w http.ResponseWriter, req *http.Request) {
	if code, reason, msg := r.admitAs(req, true); code != 0 {
		refuse(w, code, reason, msg)
		return
	}
	reserved := true
	release := func() {
		if reserved {
			reserved = false
			r.opened()
		}
	}
	defer release()
	tok, err := udp.ParseToken(req.URL.Query().Get("token"))
	if err != nil || !r.checkToken(tok) {
		r.count(func(c *Counts) { c.BadToken++ })
		refuse(w, http.StatusForbidden, "token", "this room's token is not the one in your address")
		return
	}
	conn, err := websocket.Accept(w, req, nil) // same origin only
	if err != nil {
		r.count(func(c *Counts) { c.Malformed++ })
		return
	}
	conn.SetReadLimit(int64(r.cfg.Limits.MaxMessage))
	ctx, cancel := context.WithCancel(context.Background())
	c := newWSCarrier(conn, cancel)
	addr, err := r.hub.add(c, WebSocket, req.RemoteAddr)
	release() // the hub counts it now (or it is gone)
	if err != nil {
		c.close()
		return
	}
	r.count(func(c *Counts) { c.Joined++ })
	go c.writeLoop(ctx)
	defer r.hub.gone(addr)
	for {
		typ, b, err := conn.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageBinary {
			r.hub.deliver(addr, nil)
			continue
		}
		r.hub.deliver(addr, b)
	}
}
