package room

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/pion/webrtc/v4"

	"netcubes/udp"
)

// DialOptions are a browser's choices when it joins.
type DialOptions struct {
	// ForceWebSocket skips the data channel.
	ForceWebSocket bool
	// OpenTimeout: a data channel not open this long after the answer
	// gives way to the WebSocket.
	OpenTimeout time.Duration
}

// RefusedError is the room's refusal in one line.
type RefusedError struct {
	Reason string // "token", "full", "busy", "malformed"
	Msg    string
}

func (e RefusedError) Error() string { return "the room refused: " + e.Msg }

// UnreachableError: the room's server did not answer.
type UnreachableError struct {
	Base string
	Err  error
}

func (e UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach the room at %s (%v)", e.Base, e.Err)
}

func (e UnreachableError) Unwrap() error { return e.Err }

// Conn is a browser's connection to its room: a udp.Conn whose one peer,
// the room's left, is at ServerAddr.
type Conn struct {
	transport Transport
	fallback  string // why the data channel gave way, or ""
	in        chan []byte
	done      chan struct{}
	once      sync.Once
	sendFn    func([]byte) error
	closeFn   func()
	mu        sync.Mutex
	dropped   uint64
}

// ServerAddr is the room's left on a Conn (a made-up address: the
// connection has one peer).
var ServerAddr = hubAddr(0)

// maxBuffered: a data channel whose send buffer holds this much is not
// keeping up (SCTP's congestion window); later messages are dropped as a
// lossy link would, instead of queued without bound.
const maxBuffered = 1 << 20

// recvQueue bounds the messages waiting for the client's reader: a few
// ticks of what the left sends.
const recvQueue = 256

func newConn(t Transport) *Conn {
	return &Conn{transport: t, in: make(chan []byte, recvQueue), done: make(chan struct{})}
}

// Transport is how this connection reaches the room.
func (c *Conn) Transport() Transport { return c.transport }

// Fallback says why the connection is not a data channel ("" when it is,
// or when the WebSocket was asked for).
func (c *Conn) Fallback() string { return c.fallback }

func (c *Conn) deliver(b []byte) {
	select {
	case c.in <- b:
	case <-c.done:
	default:
		c.mu.Lock()
		c.dropped++
		c.mu.Unlock()
	}
}

// ReadFromUDPAddrPort returns the next message from the room (udp.Conn).
func (c *Conn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	select {
	case m := <-c.in:
		if len(m) > len(b) {
			// Longer than the reader's buffer: report it as such (the
			// reader counts it as oversized) rather than cut it.
			copy(b, m)
			return len(b), ServerAddr, nil
		}
		return copy(b, m), ServerAddr, nil
	case <-c.done:
		return 0, netip.AddrPort{}, net.ErrClosed
	}
}

// WriteToUDPAddrPort sends b to the room (udp.Conn).
func (c *Conn) WriteToUDPAddrPort(b []byte, a netip.AddrPort) (int, error) {
	if a != ServerAddr {
		return 0, errGone
	}
	select {
	case <-c.done:
		return 0, net.ErrClosed
	default:
	}
	if err := c.sendFn(b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// LocalAddr is a made-up address (udp.Conn).
func (c *Conn) LocalAddr() net.Addr { return net.UDPAddrFromAddrPort(hubAddr(1)) }

// Close closes the connection (udp.Conn).
func (c *Conn) Close() error {
	c.once.Do(func() {
		close(c.done)
		c.closeFn()
	})
	return nil
}

// Dial joins the room at base (its page's address, "http://host:port")
// with its token: over a data channel, or over the WebSocket where the
// room asks for it or the data channel does not open.
func Dial(ctx context.Context, base string, token udp.Token, o DialOptions) (*Conn, error) {
	if o.OpenTimeout <= 0 {
		o.OpenTimeout = 10 * time.Second
	}
	base = strings.TrimSuffix(base, "/")
	if o.ForceWebSocket {
		return dialSocket(ctx, base, token, "")
	}
	c, err := dialChannel(ctx, base, token, o.OpenTimeout)
	var refused RefusedError
	switch {
	case err == nil:
		return c, nil
	case errors.As(err, &refused) && refused.Reason == "websocket":
		return dialSocket(ctx, base, token, "the room asks for WebSocket")
	case errors.As(err, &refused), errors.As(err, new(UnreachableError)):
		return nil, err
	}
	return dialSocket(ctx, base, token, "the data channel did not connect: "+err.Error())
}

// dialChannel joins over a data channel.
func dialChannel(ctx context.Context, base string, token udp.Token, openTimeout time.Duration) (*Conn, error) {
	pc, err := rtcAPI(isLoopback(base)).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, err
	}
	ordered, retransmits := false, uint16(0)
	dc, err := pc.CreateDataChannel(ChannelLabel, &webrtc.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits})
	if err != nil {
		pc.Close()
		return nil, err
	}
	c := newConn(DataChannel)
	opened := make(chan struct{})
	var openOnce sync.Once
	dc.OnOpen(func() { openOnce.Do(func() { close(opened) }) })
	dc.OnMessage(func(m webrtc.DataChannelMessage) {
		if !m.IsString {
			c.deliver(m.Data)
		}
	})
	dc.OnClose(func() { c.Close() })
	c.sendFn = func(b []byte) error {
		if dc.BufferedAmount() > maxBuffered {
			return errSendFull
		}
		return dc.Send(b)
	}
	c.closeFn = func() { pc.Close() }
	fail := func(err error) (*Conn, error) {
		pc.Close()
		return nil, err
	}
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return fail(err)
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(offer); err != nil {
		return fail(err)
	}
	select {
	case <-gathered:
	case <-time.After(5 * time.Second):
		return fail(errors.New("gathering this browser's addresses timed out"))
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	ans, err := postOffer(ctx, base, Join{Token: token.String(), SDP: pc.LocalDescription().SDP})
	if err != nil {
		return fail(err)
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: ans}); err != nil {
		return fail(err)
	}
	select {
	case <-opened:
		return c, nil
	case <-time.After(openTimeout):
		return fail(fmt.Errorf("not open after %v", openTimeout))
	case <-ctx.Done():
		return fail(ctx.Err())
	}
}

// isLoopback says whether base names this machine's loopback interface:
// then a client outside a browser offers only loopback candidates.
func isLoopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	a, err := netip.ParseAddr(u.Hostname())
	return (err == nil && a.IsLoopback()) || u.Hostname() == "localhost"
}

// postOffer sends the join request and reads the answer strictly.
func postOffer(ctx context.Context, base string, j Join) (string, error) {
	body, err := json.Marshal(j)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+OfferPath, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", UnreachableError{Base: base, Err: err}
	}
	defer resp.Body.Close()
	a, err := ReadAnswer(resp.Body)
	if err != nil {
		return "", fmt.Errorf("the room's answer (HTTP %d): %w", resp.StatusCode, err)
	}
	if a.Refusal != "" || a.Error != "" || resp.StatusCode != http.StatusOK {
		return "", RefusedError{Reason: a.Refusal, Msg: a.Error}
	}
	return a.SDP, nil
}

// socketURL is the WebSocket's address for base.
func socketURL(base string, token udp.Token) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("room: address %q is not http or https", base)
	}
	u.Path = SocketPath
	u.RawQuery = url.Values{"token": {token.String()}}.Encode()
	return u.String(), nil
}

// dialSocket joins over the WebSocket.
func dialSocket(ctx context.Context, base string, token udp.Token, why string) (*Conn, error) {
	u, err := socketURL(base, token)
	if err != nil {
		return nil, err
	}
	ws, resp, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		if resp != nil {
			switch resp.StatusCode {
			case http.StatusForbidden:
				return nil, RefusedError{Reason: "token", Msg: "this room's token is not the one in your address"}
			case http.StatusServiceUnavailable:
				return nil, RefusedError{Reason: "full", Msg: "the room is full"}
			case http.StatusTooManyRequests:
				return nil, RefusedError{Reason: "busy", Msg: "too many joins at once: try again in a second"}
			}
		}
		return nil, UnreachableError{Base: base, Err: err}
	}
	ws.SetReadLimit(udp.MaxDatagram)
	c := newConn(WebSocket)
	c.fallback = why
	rctx, cancel := context.WithCancel(context.Background())
	c.sendFn = func(b []byte) error {
		wctx, wcancel := context.WithTimeout(rctx, writeTimeoutClient)
		defer wcancel()
		return ws.Write(wctx, websocket.MessageBinary, b)
	}
	c.closeFn = func() {
		cancel()
		ws.CloseNow()
	}
	go func() {
		defer c.Close()
		for {
			typ, b, err := ws.Read(rctx)
			if err != nil {
				return
			}
			if typ == websocket.MessageBinary {
				c.deliver(b)
			}
		}
	}()
	return c, nil
}

// writeTimeoutClient bounds one write of the browser's (its messages are
// small: a blocked write means the connection is gone).
const writeTimeoutClient = 5 * time.Second
