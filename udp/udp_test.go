package udp

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"netcubes/wire"
)

var testToken = Token{0x9e, 0x37, 0x79, 0xb9, 0x7f, 0x4a, 0x7c, 0x15, 1, 2, 3, 4, 5, 6, 7, 8}

// lan is a left and its rights on the loopback interface, ticked by hand.
type lan struct {
	t      *testing.T
	left   *Server
	rights []*Client
	tick   wire.Tick
	// Events seen so far, for the tests to read.
	leftEvents  []Event
	rightEvents [][]ClientEvent
}

func newLAN(t *testing.T, cfg Config, rights int) *lan {
	t.Helper()
	l, err := Listen("127.0.0.1:0", testToken, cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := &lan{t: t, left: l}
	t.Cleanup(func() { l.Close() })
	for range rights {
		n.addRight(testToken, cfg)
	}
	return n
}

func (n *lan) addRight(tok Token, cfg Config) *Client {
	n.t.Helper()
	r, err := Dial(n.left.LocalAddr().String(), tok, cfg)
	if err != nil {
		n.t.Fatal(err)
	}
	n.t.Cleanup(func() { r.Close() })
	n.rights = append(n.rights, r)
	n.rightEvents = append(n.rightEvents, nil)
	return r
}

// step polls every side once and advances the tick.
func (n *lan) step() {
	n.left.Poll(n.tick)
	n.leftEvents = append(n.leftEvents, n.left.Events()...)
	for i, r := range n.rights {
		r.Poll(n.tick)
		n.rightEvents[i] = append(n.rightEvents[i], r.Events()...)
	}
	n.tick++
}

// until steps (sleeping a little between ticks, so the sockets deliver)
// until cond holds, failing after 20 s of wall time: datagrams on the
// loopback interface arrive in microseconds, so this bounds a broken test,
// it does not time anything. The bound is generous because a wait can be
// a timeout of 60 ticks or more, and on a machine loaded with other work
// each tick's sleep can last tens of milliseconds (5 s ran out once).
func (n *lan) until(what string, cond func() bool) {
	n.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			n.t.Fatalf("gave up waiting for %s", what)
		}
		n.step()
		time.Sleep(200 * time.Microsecond)
	}
}

// readBy waits until the left's socket has read at least want datagrams
// (Counts.Arrived), so that a test sending bursts does not outrun the
// reader goroutine on a loaded machine, where the kernel's receive buffer
// fills and drops the rest without a trace. It gives up after 2 s of wall
// time (a datagram the kernel dropped all the same never arrives) and says
// so; it returns the count read, for the next want.
func (n *lan) readBy(want uint64) (uint64, bool) {
	deadline := time.Now().Add(2 * time.Second)
	for {
		got := n.left.Counts().Arrived
		if got >= want {
			return got, true
		}
		if time.Now().After(deadline) {
			return got, false
		}
		time.Sleep(50 * time.Microsecond)
	}
}

func (n *lan) connected(i int) bool {
	return n.rights[i].Status().State == ClientConnected && n.left.Slot(n.rights[i].Status().Slot).Connected
}

func TestHandshakeAndData(t *testing.T) {
	n := newLAN(t, DefaultConfig(), 1)
	n.left.SetAccept([]byte("frame 42"))
	n.until("the connection", func() bool { return n.connected(0) })
	r := n.rights[0]
	body, gen, ok := r.Accepted()
	if !ok || string(body) != "frame 42" || gen != 1 {
		t.Fatalf("accepted %q %d %v", body, gen, ok)
	}
	if _, _, again := r.Accepted(); again {
		t.Fatal("Accepted returned the same accept twice")
	}
	if len(n.leftEvents) != 1 || n.leftEvents[0].Kind != EventJoined || n.leftEvents[0].Slot != 0 {
		t.Fatalf("left events %v", n.leftEvents)
	}
	msg := []byte{1, 2, 3, 4, 5}
	if got := n.left.Send(0, KindData, msg); got != len(msg)+Overhead {
		t.Fatalf("sent %d bytes, want %d", got, len(msg)+Overhead)
	}
	n.left.Send(0, KindControl, []byte("control"))
	n.left.Send(0, KindDiag, []byte("diag"))
	r.Send(KindData, []byte("ack"))
	var got, ctl, diag, back [][]byte
	keep := func(dst *[][]byte, src [][]byte) {
		for _, d := range src {
			*dst = append(*dst, append([]byte(nil), d...))
		}
	}
	n.until("the data", func() bool {
		keep(&got, r.Received(KindData))
		keep(&ctl, r.Received(KindControl))
		keep(&diag, r.Received(KindDiag))
		keep(&back, n.left.Received(0, KindData))
		return len(got) > 0 && len(ctl) > 0 && len(back) > 0 && len(diag) > 0
	})
	if !bytes.Equal(got[0], msg) || string(ctl[0]) != "control" || string(diag[0]) != "diag" || string(back[0]) != "ack" {
		t.Fatalf("got %q %q %q %q", got, ctl, diag, back)
	}
	// The kinds the session may not send are refused at Send.
	if n.left.Send(0, KindAccept, nil) != 0 || r.Send(KindControl, nil) != 0 || n.left.Send(1, KindData, msg) != 0 {
		t.Fatal("Send took a transport kind, a right's control or a free slot")
	}
	if d := n.left.Drops(); d.Total() != 0 {
		t.Errorf("left dropped %+v", d)
	}
	if d := r.Drops(); d.Total() != 0 {
		t.Errorf("right dropped %+v", d)
	}
	si := n.left.Slot(0)
	if si.Stats.Received == 0 || si.Stats.Sent == 0 || si.Generation != 1 {
		t.Errorf("slot figures %+v", si)
	}
}

// TestRightBeforeLeft: a right started first keeps asking, and connects
// once the left is there (today's bug: it sent one request and stopped).
func TestRightBeforeLeft(t *testing.T) {
	// Reserve a port, close it, and point a right at it.
	l, err := Listen("127.0.0.1:0", testToken, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	addr := l.LocalAddr().String()
	l.Close()
	r, err := Dial(addr, testToken, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for tick := range wire.Tick(3 * wire.TicksPerSecond) {
		r.Poll(tick)
	}
	if c := r.Counts(); c.Sent < 5 {
		t.Fatalf("a right with no left sent %d requests in 3 s, want one each RetryTicks", c.Sent)
	}
	l2, err := Listen(addr, testToken, DefaultConfig())
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	defer l2.Close()
	n := &lan{t: t, left: l2, rights: []*Client{r}, rightEvents: [][]ClientEvent{nil}, tick: 3 * wire.TicksPerSecond}
	n.until("the late left", func() bool { return n.connected(0) })
}

// TestManyRights: a classroom's 64 rights fill 64 slots (the first 8
// players', the rest spectators'), the 65th is refused "full" in one line,
// and data reaches each its own slot only; one leaves and the refused one
// takes its slot.
func TestManyRights(t *testing.T) {
	n := newLAN(t, DefaultConfig(), MaxClients)
	n.left.SetPlayers(8)
	n.until("64 rights", func() bool {
		for i := range n.rights {
			if !n.connected(i) {
				return false
			}
		}
		return true
	})
	if n.left.Clients() != MaxClients {
		t.Fatalf("%d clients", n.left.Clients())
	}
	players := 0
	for i, r := range n.rights {
		st := r.Status()
		if st.Players != 8 || !n.left.Slot(st.Slot).Connected {
			t.Errorf("right %d: slot %d of a left with %d players' slots, want 8", i, st.Slot, st.Players)
		}
		if st.Slot < st.Players {
			players++
		}
	}
	if players != 8 {
		t.Errorf("%d rights in players' slots, want 8 (the other 56 spectators)", players)
	}
	extra := n.addRight(testToken, DefaultConfig())
	n.until("the refusal", func() bool { return extra.Status().Refusal.Reason == ReasonFull })
	if r := extra.Status().Refusal.String(); !strings.Contains(r, "every slot is taken") || strings.Contains(r, "\n") {
		t.Errorf("refusal %q", extra.Status().Refusal)
	}
	for i, r := range n.rights[:MaxClients] {
		n.left.Send(r.Status().Slot, KindData, []byte{byte(i)})
	}
	got := make([]int, MaxClients)
	n.until("every right's data", func() bool {
		done := true
		for i, r := range n.rights[:MaxClients] {
			for _, d := range r.Received(KindData) {
				if int(d[0]) != i {
					t.Fatalf("right %d got right %d's data", i, d[0])
				}
				got[i]++
			}
			done = done && got[i] > 0
		}
		return done
	})
	// A player leaves: the refused right gets a slot on a retry.
	gone := n.rights[3].Status().Slot
	n.rights[3].Close()
	n.rights = append(n.rights[:3], n.rights[4:]...)
	n.rightEvents = append(n.rightEvents[:3], n.rightEvents[4:]...)
	n.until("the newcomer in the freed slot", func() bool { return extra.Status().State == ClientConnected })
	// The player's slot that freed went to the spectator who came first
	// (promoted), the newcomer to a spectator's.
	if extra.Status().Slot < 8 || extra.Status().Refusal.Reason != ReasonNone || !n.left.Slot(gone).Connected {
		t.Errorf("newcomer %+v; the freed player's slot %d connected %v", extra.Status(), gone, n.left.Slot(gone).Connected)
	}
}

// TestTimeoutAndReconnect: a right that dies without a word is noticed
// within the timeout and its slot freed; the right notices a silent left,
// says since when, and connects again when it is back.
func TestTimeoutAndReconnect(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TimeoutTicks = 30
	cfg.SilentTicks = 10
	n := newLAN(t, cfg, 1)
	n.until("the connection", func() bool { return n.connected(0) })
	n.rights[0].sock.Close() // a crash: no disconnect datagram
	for range cfg.TimeoutTicks + 2 {
		n.left.Poll(n.tick)
		n.leftEvents = append(n.leftEvents, n.left.Events()...)
		n.tick++
	}
	if n.left.Clients() != 0 {
		t.Fatal("still connected after the right died")
	}
	last := n.leftEvents[len(n.leftEvents)-1]
	if last.Kind != EventTimedOut || !strings.Contains(last.String(), "went silent") {
		t.Errorf("events %v", n.leftEvents)
	}
	// A right whose left goes quiet.
	n.rights = n.rights[:0]
	n.rightEvents = n.rightEvents[:0]
	r := n.addRight(testToken, cfg)
	n.until("the new right", func() bool { return n.connected(0) })
	heard := r.Status().LastHeard
	for i := range wire.Tick(cfg.SilentTicks) {
		r.Poll(n.tick + i) // the left is not polled: it sends nothing
	}
	st := r.Status()
	if !st.Silent || st.LastHeard != heard || st.State != ClientConnected {
		t.Fatalf("a right whose left is quiet: %+v", st)
	}
	n.tick += wire.Tick(cfg.TimeoutTicks + 1)
	r.Poll(n.tick)
	if r.Status().State == ClientConnected || len(r.Events()) != 1 || r.Events()[0].Kind != ClientTimedOut {
		t.Fatalf("after the timeout: %+v %v", r.Status(), r.Events())
	}
	n.until("the reconnection", func() bool { return r.Status().State == ClientConnected })
	if _, gen, ok := r.Accepted(); !ok || gen != 2 {
		t.Errorf("second accept %d %v", gen, ok)
	}
}

// TestRefusalStays: a right with the wrong token is refused with a reason
// it keeps (and keeps asking); a left of another version is named.
func TestRefusalStays(t *testing.T) {
	n := newLAN(t, DefaultConfig(), 0)
	wrong := testToken
	wrong[0] ^= 1
	r := n.addRight(wrong, DefaultConfig())
	n.until("the refusal", func() bool { return r.Status().Refusal.Reason == ReasonKey })
	for range 3 * wire.TicksPerSecond {
		n.step()
	}
	if st := r.Status(); st.Refusal.Reason != ReasonKey || st.State != ClientConnecting {
		t.Fatalf("after 3 s: %+v", st)
	}
	if len(n.rightEvents[0]) != 1 {
		t.Errorf("the same refusal was announced %d times", len(n.rightEvents[0]))
	}
	if n.left.Clients() != 0 {
		t.Fatal("connected with the wrong token")
	}
	if got := r.Status().Refusal.String(); !strings.Contains(got, "wrong token") {
		t.Errorf("refusal %q", got)
	}
	if (Refusal{Reason: ReasonVersion, LeftVersion: 7}).String() == "" {
		t.Error("a version refusal says nothing")
	}
}

func TestToken(t *testing.T) {
	tok, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if len(tok.String()) != 32 {
		t.Fatalf("token %q", tok)
	}
	back, err := ParseToken(tok.String())
	if err != nil || back != tok {
		t.Fatalf("%v → %q → %v, %v", tok, tok.String(), back, err)
	}
	for _, bad := range []string{"", "12", strings.Repeat("z", 32), "0123456789abcdef", strings.Repeat("0", 33)} {
		if _, err := ParseToken(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestReplayWindow(t *testing.T) {
	var w replayWindow
	steps := []struct {
		seq   uint64
		fresh bool
	}{
		{5, true}, {5, false}, {3, true}, {3, false}, {2000, true}, {5, false},
		{2000 - replayBits + 1, true}, {2000 - replayBits, false}, {1999, true}, {2001, true}, {1999, false},
	}
	for i, s := range steps {
		if got := w.fresh(s.seq); got != s.fresh {
			t.Fatalf("step %d: fresh(%d) = %v, want %v", i, s.seq, got, s.fresh)
		}
		if s.fresh {
			w.mark(s.seq)
		}
	}
}

func TestSizes(t *testing.T) {
	if HeaderBytes != 15 || Overhead != 31 || ConnectBytes < ChallengeBytes || DenyBytes > ConnectBytes {
		t.Fatalf("header %d, overhead %d, connect %d, challenge %d, deny %d", HeaderBytes, Overhead, ConnectBytes, ChallengeBytes, DenyBytes)
	}
}
