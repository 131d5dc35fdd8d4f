package udp

import (
	"bytes"
	"net"
	"testing"
	"time"

	"netcubes/wire"
)

// pair is a left and a right on the loopback interface, ticked by hand.
type pair struct {
	t           *testing.T
	left, right *Conn
	tick        wire.Tick
}

func newPair(t *testing.T, token Token, cfg Config) *pair {
	t.Helper()
	l, err := Listen("127.0.0.1:0", token, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Dial(l.LocalAddr().String(), token, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := &pair{t: t, left: l, right: r}
	t.Cleanup(func() { l.Close(); r.Close() })
	return p
}

// step polls both sides once and advances the tick.
func (p *pair) step() {
	p.left.Poll(p.tick)
	p.right.Poll(p.tick)
	p.tick++
}

// until steps (sleeping a little between ticks, so the sockets deliver)
// until cond holds, failing after 5 s of wall time: datagrams on the
// loopback interface arrive in microseconds, so this bounds a broken test,
// it does not time anything.
func (p *pair) until(what string, cond func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			p.t.Fatalf("gave up waiting for %s", what)
		}
		p.step()
		time.Sleep(time.Millisecond)
	}
}

func TestHandshakeAndData(t *testing.T) {
	p := newPair(t, 0x9e3779b97f4a7c15, DefaultConfig())
	p.left.SetAccept([]byte("frame 42"))
	p.until("the connection", func() bool {
		lc, _ := p.left.Connected()
		rc, _ := p.right.Connected()
		return lc && rc
	})
	body, epoch, ok := p.right.Accepted()
	if !ok || string(body) != "frame 42" || epoch != 1 {
		t.Fatalf("accepted %q %d %v", body, epoch, ok)
	}
	msg := []byte{1, 2, 3, 4, 5}
	p.left.Send(KindData, msg)
	p.left.Send(KindControl, []byte("control"))
	p.right.Send(KindData, []byte("ack"))
	var got, ctl, back [][]byte
	p.until("the data", func() bool {
		for _, d := range p.right.Data() {
			got = append(got, append([]byte(nil), d...))
		}
		for _, d := range p.right.Control() {
			ctl = append(ctl, append([]byte(nil), d...))
		}
		for _, d := range p.left.Data() {
			back = append(back, append([]byte(nil), d...))
		}
		return len(got) > 0 && len(ctl) > 0 && len(back) > 0
	})
	if !bytes.Equal(got[0], msg) || string(ctl[0]) != "control" || string(back[0]) != "ack" {
		t.Fatalf("got %q %q %q", got, ctl, back)
	}
	if d := p.left.Drops(); d.Total() != 0 {
		t.Errorf("left dropped %+v", d)
	}
	if d := p.right.Drops(); d.Total() != 0 {
		t.Errorf("right dropped %+v", d)
	}
}

// TestHostileDatagrams sends a third party's datagrams at both sides: noise,
// a truncated header, the wrong version, the wrong token, a replayed data
// packet from another address, 64 KiB: every one is dropped and counted,
// none reaches the session, nothing panics.
func TestHostileDatagrams(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxDatagram = 40000
	p := newPair(t, 0xfeed, cfg)
	p.until("the connection", func() bool { c, _ := p.right.Connected(); return c })
	p.until("the left", func() bool { c, _ := p.left.Connected(); return c })

	evil, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer evil.Close()
	header := func(version uint8, kind Kind, token Token) []byte {
		buf := make([]byte, 64)
		w := wire.NewWriteStream(buf)
		h := Header{Protocol: ProtocolID, Version: version, Kind: kind, Token: token}
		if err := h.Serialize(w); err != nil {
			t.Fatal(err)
		}
		return append([]byte(nil), w.Bytes()...)
	}
	valid := append(header(Version, KindData, 0xfeed), 9, 9, 9)
	cases := []struct {
		name string
		data []byte
		want func(d Drops) uint64
	}{
		{"noise", []byte("GET / HTTP/1.1\r\n\r\n"), func(d Drops) uint64 { return d.NotOurs }},
		{"truncated header", header(Version, KindData, 0xfeed)[:9], func(d Drops) uint64 { return d.NotOurs }},
		{"empty", nil, func(d Drops) uint64 { return d.NotOurs }},
		{"wrong version", header(Version+1, KindData, 0xfeed), func(d Drops) uint64 { return d.WrongVersion }},
		{"wrong token", header(Version, KindData, 0xbad), func(d Drops) uint64 { return d.WrongToken }},
		{"wrong token connect", header(Version, KindConnect, 0xbad), func(d Drops) uint64 { return d.WrongToken }},
		{"replayed from elsewhere", valid, func(d Drops) uint64 { return d.WrongAddress }},
		{"64 KiB", append(append([]byte(nil), valid...), make([]byte, 64000)...), func(d Drops) uint64 { return d.Oversized }},
		{"bad kind", append(header(Version, 7, 0xfeed)[:5], 0xff, 0xff, 0xff), func(d Drops) uint64 { return d.NotOurs + d.Malformed + d.WrongAddress + d.WrongToken }},
	}
	for _, target := range []*Conn{p.left, p.right} {
		for _, tc := range cases {
			before := tc.want(target.Drops())
			to := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: target.sock.LocalAddr().(*net.UDPAddr).Port}
			if _, err := evil.WriteToUDP(tc.data, to); err != nil {
				t.Fatal(err)
			}
			p.until(tc.name, func() bool {
				if len(target.Data())+len(target.Control())+len(target.Diag()) > 0 {
					t.Fatalf("%s reached the session", tc.name)
				}
				return tc.want(target.Drops()) > before
			})
		}
		if c, _ := target.Connected(); !c {
			t.Error("the hostile datagrams broke the connection")
		}
	}
}

// TestTimeoutAndReconnect: a right that dies without a word is noticed
// within the timeout, the left keeps running, and a new right with the
// token connects.
func TestTimeoutAndReconnect(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TimeoutTicks = 30
	p := newPair(t, 7, cfg)
	p.until("the connection", func() bool { c, _ := p.left.Connected(); return c })
	p.right.sock.Close() // a crash: no disconnect datagram
	start := p.tick
	for range cfg.TimeoutTicks + 2 {
		p.left.Poll(p.tick)
		p.tick++
	}
	if c, _ := p.left.Connected(); c {
		t.Fatalf("still connected %d ticks after the right died", p.tick-start)
	}
	ev := p.left.Events()
	if len(ev) == 0 || !bytes.Contains([]byte(ev[len(ev)-1]), []byte("went silent")) {
		t.Errorf("events %q", ev)
	}
	r2, err := Dial(p.left.LocalAddr().String(), 7, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	p.right = r2
	p.until("the new right", func() bool {
		lc, _ := p.left.Connected()
		rc, _ := r2.Connected()
		return lc && rc
	})
	if _, epoch, ok := r2.Accepted(); !ok || epoch != 1 {
		t.Errorf("the new right's accept: %d %v", epoch, ok)
	}
}

// TestWrongTokenIsTold: a right with the wrong token is refused with a
// reason it can print.
func TestWrongTokenIsTold(t *testing.T) {
	l, err := Listen("127.0.0.1:0", 1, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r, err := Dial(l.LocalAddr().String(), 2, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := &pair{t: t, left: l, right: r}
	var said []string
	p.until("the refusal", func() bool {
		said = append(said, r.Events()...)
		return len(said) > 0
	})
	if said[0] != "the left refused: wrong token: use the one the left printed" {
		t.Errorf("said %q", said)
	}
	if c, _ := l.Connected(); c {
		t.Error("connected with the wrong token")
	}
}

func TestToken(t *testing.T) {
	tok, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseToken(tok.String())
	if err != nil || back != tok {
		t.Fatalf("%v → %q → %v, %v", tok, tok.String(), back, err)
	}
	for _, bad := range []string{"", "12", "zzzzzzzzzzzzzzzz", "0123456789abcdef0"} {
		if _, err := ParseToken(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzHeader reads arbitrary bytes as a datagram header: an error or a
// header, never a panic.
func FuzzHeader(f *testing.F) {
	buf := make([]byte, 64)
	w := wire.NewWriteStream(buf)
	h := Header{Protocol: ProtocolID, Version: Version, Kind: KindData, Token: 99}
	if err := h.Serialize(w); err != nil {
		f.Fatal(err)
	}
	f.Add(append([]byte(nil), w.Bytes()...))
	f.Add([]byte("NCUB"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var h Header
		r := wire.NewReadStream(data)
		if err := h.Serialize(r); err == nil {
			if h.Protocol != ProtocolID || int(h.Kind) >= numKinds || len(data) < HeaderBytes {
				t.Fatalf("accepted %+v from %d bytes", h, len(data))
			}
		}
	})
}

// FuzzHandle hands a connected left and a connected right arbitrary
// datagrams from their peer's address and from a stranger's: each is
// dropped and counted, or taken as the protocol says; never a panic, and a
// stranger never reaches the session.
func FuzzHandle(f *testing.F) {
	buf := make([]byte, 64)
	w := wire.NewWriteStream(buf)
	for _, k := range []Kind{KindConnect, KindAccept, KindDeny, KindData, KindControl, KindDiag, KindDisconnect, KindKeepAlive} {
		w.Reset(buf)
		h := Header{Protocol: ProtocolID, Version: Version, Kind: k, Token: 42}
		if err := h.Serialize(w); err != nil {
			f.Fatal(err)
		}
		f.Add(true, append(append([]byte(nil), w.Bytes()...), 1, 2, 3))
		f.Add(false, append([]byte(nil), w.Bytes()...))
	}
	peer := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1000}
	stranger := &net.UDPAddr{IP: net.IPv4(10, 0, 0, 9), Port: 2000}
	mk := func(role Role) *Conn {
		return &Conn{role: role, cfg: DefaultConfig(), token: 42, peer: peer, connected: true, in: wire.NewReadStream(nil)}
	}
	left, right := mk(Left), mk(Right)
	f.Fuzz(func(t *testing.T, fromPeer bool, data []byte) {
		from := stranger
		if fromPeer {
			from = peer
		}
		for _, c := range []*Conn{left, right} {
			c.data, c.control, c.diag, c.events = c.data[:0], c.control[:0], c.diag[:0], c.events[:0]
			c.sock = nil // sending is a no-op without a socket
			before := c.drops.Total()
			c.handle(1, c.in, datagram{from: from, data: data})
			got := len(c.data) + len(c.control) + len(c.diag)
			if !fromPeer && got > 0 {
				t.Fatalf("a stranger's datagram reached the session")
			}
			if got == 0 && c.drops.Total() == before && len(data) >= HeaderBytes && fromPeer {
				// Taken by the protocol itself (a connect, an accept, a
				// keep-alive, a disconnect): fine.
				continue
			}
			c.connected, c.peer = true, peer
		}
	})
}
