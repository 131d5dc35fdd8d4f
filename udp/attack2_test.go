package udp

// The attack suite, continued: floods of a replayed connect while a new
// right joins, a stale connect, redirection to a victim, a spectator
// taking a freed player's slot, a left that restarted, a wrong token, and
// the drop counts. Loopback only, bounded in datagrams and ticks.

import (
	"hash/maphash"
	"net"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"netcubes/wire"
)

// counter is a socket that counts the datagrams and bytes it receives.
type counter struct {
	conn         *net.UDPConn
	got, gotSize atomic.Int64
}

func newCounter(t *testing.T) *counter {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	k := &counter{conn: c}
	go func() {
		buf := make([]byte, MaxDatagram+1)
		for {
			n, _, err := c.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			k.got.Add(1)
			k.gotSize.Add(int64(n))
		}
	}()
	return k
}

// captureConnect is a genuine connect request, as an observer on the path
// records it: a right's first datagram, sent to a socket of the test's.
func captureConnect(t *testing.T, cfg Config) []byte {
	t.Helper()
	sink, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	r, err := Dial(sink.LocalAddr().String(), testToken, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Poll(0)
	buf := make([]byte, MaxDatagram)
	sink.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, _, err := sink.ReadFromUDPAddrPort(buf)
	if err != nil || n != ConnectBytes {
		t.Fatalf("no connect captured: %d bytes, %v", n, err)
	}
	return buf[:n]
}

// TestJoinDuringConnectFlood: one captured connect is replayed at the left
// at about 750 and 15,000 datagrams a simulated second (12 and 250 a
// tick), from one source and from 16; a new right that retries only once a
// second starts after half a second of flood and must be connected within
// 60 ticks (1 s). The replayed key gets at most its budget of challenges.
//
// What is tested is the left's budgets, not the machine's speed: the flood
// goes out in bursts of 50, each once the left's reader has taken the one
// before (readBy). Sent all at once, 250 datagrams outgrow the kernel's
// receive buffer (about 200 of them fit) whenever the reader goroutine
// waits for a CPU, and the kernel drops what does not fit, the right's
// connect among them, uncounted: on a loaded machine the right then joined
// only on its retry a second later.
func TestJoinDuringConnectFlood(t *testing.T) {
	for _, tc := range []struct {
		perTick, sources int
	}{{12, 1}, {250, 1}, {250, 16}} {
		cfg := DefaultConfig()
		n := newLAN(t, cfg, 0)
		connect := captureConnect(t, cfg)
		var flood []*counter
		for range tc.sources {
			flood = append(flood, newCounter(t))
		}
		to := unmap(n.left.LocalAddr().(*net.UDPAddr).AddrPort())
		sent, lost := uint64(0), 0
		send := func() {
			for i := range tc.perTick {
				flood[i%len(flood)].conn.WriteToUDPAddrPort(connect, to)
				if sent++; i%50 == 49 || i == tc.perTick-1 {
					var ok bool
					if sent, ok = n.readBy(sent); !ok {
						lost++
					}
				}
			}
		}
		const before, during = 30, 90
		slow := cfg
		slow.RetryTicks = wire.TicksPerSecond // a right built on Client that retries once a second
		joinedAt := -1
		for k := range before + during {
			send()
			if k == before {
				apart(t, n.left, flood, n.addRight(testToken, slow))
			}
			time.Sleep(300 * time.Microsecond)
			n.step()
			if k >= before && joinedAt < 0 && n.connected(0) {
				joinedAt = k - before
			}
		}
		challenges := int64(0)
		for _, f := range flood {
			challenges += f.got.Load()
		}
		d := n.left.Drops()
		t.Logf("%d a tick from %d source(s): the new right joined after %d ticks; %d datagrams replayed, %d answered (challenges); drops %+v; %d waits for the left's reader gave up",
			tc.perTick, tc.sources, joinedAt, tc.perTick*(before+during), challenges, d, lost)
		if joinedAt < 0 || joinedAt > wire.TicksPerSecond {
			t.Errorf("%d a tick from %d source(s): the new right did not join within 1 s (joined after %d ticks)", tc.perTick, tc.sources, joinedAt)
		}
		// The replayed key: its budget (burst + rate × time), per source
		// bucket aside.
		secs := float64(before+during) / wire.TicksPerSecond
		if limit := int64(float64(cfg.KeyChallengesPerSecond)*(1+secs)) + 1; challenges > limit {
			t.Errorf("the replayed connect got %d challenges, more than its key's budget %d", challenges, limit)
		}
	}
}

// apart replaces each flood socket whose address shares the right's bucket
// of the left's per-source budget. Such a source empties the right's
// bucket too, and the right is not answered: the budget as designed (the
// table's seed is secret, so an attacker cannot aim at a bucket), but a
// chance of 16 in 4096 with 16 sources, not what the test measures.
func apart(t *testing.T, s *Server, flood []*counter, r *Client) {
	t.Helper()
	right := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(r.LocalAddr().(*net.UDPAddr).Port))
	bucket := func(a netip.AddrPort) uint64 { return maphash.Comparable(s.sources.seed, a) % sourceBuckets }
	for i, f := range flood {
		for try := 0; bucket(unmap(f.conn.LocalAddr().(*net.UDPAddr).AddrPort())) == bucket(right); try++ {
			if try == 100 {
				t.Fatal("no flood socket outside the right's bucket in 100 tries")
			}
			f = newCounter(t)
			flood[i] = f
		}
	}
}

// TestStaleConnectRefused: a connect stamped 2 minutes before the left's
// clock (a capture replayed later, or a right whose clock is off) is
// refused before any key work, counted as stale, and the right is told why.
func TestStaleConnectRefused(t *testing.T) {
	cfg := DefaultConfig()
	lcfg := cfg
	lcfg.Clock = func() int64 { return time.Now().UnixMilli() + 120_000 }
	n := newLAN(t, lcfg, 0)
	r := n.addRight(testToken, cfg)
	for range 40 {
		time.Sleep(300 * time.Microsecond)
		n.step()
	}
	if n.left.Clients() != 0 || r.Status().State != ClientConnecting {
		t.Fatalf("a stale connect was answered: %d clients, right %v", n.left.Clients(), r.Status().State)
	}
	if d := n.left.Drops(); d.Stale == 0 || d.Forged != 0 {
		t.Errorf("left drops %+v", d)
	}
	if got := r.Status().Refusal.Reason; got != ReasonStale {
		t.Errorf("the right's refusal: %v", r.Status().Refusal)
	}
	t.Logf("right says: %s", r.Status().Refusal)
}

// TestRedirectRefused: an attacker on the path copies every datagram the
// right sends and sends the copy from a victim's address too (it can spoof
// sources); what the left sends the victim, it relays to the right (the
// path challenge included), and the right's answer again reaches the left
// from both. The left sends the victim at most 3× what came from there,
// probes the old address, finds the right still there, and does not move:
// the genuine right keeps its slot and its stream.
func TestRedirectRefused(t *testing.T) {
	n := newLAN(t, DefaultConfig(), 0)
	rl := newRelay(t, n.left.LocalAddr(), 2)
	r, err := Dial(rl.addr(), testToken, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n.rights, n.rightEvents = []*Client{r}, [][]ClientEvent{nil}
	n.until("the connection", func() bool { return n.connected(0) })
	genuine := n.left.Slot(0)
	rl.mu.Lock()
	rl.dup = true // every datagram to the left also leaves from back[1], the victim
	rl.mu.Unlock()
	const ticks = 240
	rightGot, leftGot := n.stream(ticks, nil)
	time.Sleep(10 * time.Millisecond)
	n.step()
	s := n.left.Slot(0)
	if s.Addr != genuine.Addr || s.Generation != genuine.Generation || !s.Connected {
		t.Fatalf("the slot moved: %+v → %+v", genuine, s)
	}
	stayed := 0
	for _, ev := range n.leftEvents {
		switch ev.Kind {
		case EventMoved, EventLeft, EventTimedOut:
			t.Errorf("left event %v", ev)
		case EventStayed:
			stayed++
		}
	}
	in, out := rl.backBytes(1)
	if out > 3*in || stayed == 0 {
		t.Errorf("the victim sent %d bytes and got %d (%d moves refused)", in, out, stayed)
	}
	if rightGot < ticks*95/100 || leftGot < ticks*95/100 {
		t.Errorf("the genuine right got %d of %d, the left %d of %d", rightGot, ticks, leftGot, ticks)
	}
	t.Logf("the victim's address sent the left %d bytes and got %d (%.3f×); %d moves refused; genuine right got %d/%d, left %d/%d",
		in, out, float64(out)/float64(max(in, 1)), stayed, rightGot, ticks, leftGot, ticks)
}

// TestSpectatorTakesFreedPlayerSlot: two players' slots and spectators. The
// right of player 2 crashes (no goodbye); a right rejoining at once is a
// spectator, and when the dead right's slot frees it moves into it, with
// an event on the left and on the right, and the stream follows it there.
func TestSpectatorTakesFreedPlayerSlot(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TimeoutTicks = 60
	n := newLAN(t, cfg, 2)
	n.left.SetPlayers(2)
	n.until("two players", func() bool { return n.connected(0) && n.connected(1) })
	n.rights[1].socket.sock.Close() // kill -9: nothing said
	c := n.addRight(testToken, cfg)
	n.until("the rejoining right", func() bool { return n.connected(2) })
	if got := c.Status().Slot; got != 2 {
		t.Fatalf("the rejoining right took slot %d while player 2's right held its slot", got)
	}
	start := n.tick
	n.until("the promotion", func() bool { return c.Status().Slot == 1 && n.connected(2) })
	if waited := int(n.tick - start); waited > cfg.TimeoutTicks+10 {
		t.Errorf("promoted %d ticks after the rejoin (timeout %d)", waited, cfg.TimeoutTicks)
	}
	promoted := false
	for _, ev := range n.leftEvents {
		promoted = promoted || ev.Kind == EventPromoted && ev.Slot == 1 && ev.FromSlot == 2
	}
	said := false
	for _, ev := range n.rightEvents[2] {
		said = said || ev.Kind == ClientPromoted && ev.Slot == 1
	}
	if !promoted || !said {
		t.Errorf("events: left %v, right %v", n.leftEvents, n.rightEvents[2])
	}
	if n.left.Slot(2).Connected || n.left.Clients() != 2 || c.Status().Players != 2 {
		t.Errorf("slot 2 %+v, %d clients, right sees %d players", n.left.Slot(2), n.left.Clients(), c.Status().Players)
	}
	got := 0
	for range 30 {
		n.left.Send(1, KindData, []byte("to player 2"))
		c.Send(KindData, []byte("from player 2"))
		time.Sleep(300 * time.Microsecond)
		n.step()
		got += len(c.Received(KindData)) + len(n.left.Received(1, KindData))
	}
	if got < 55 {
		t.Errorf("after the promotion %d of 60 datagrams arrived", got)
	}
	t.Logf("left: %v; right: %v", n.leftEvents[len(n.leftEvents)-1], n.rightEvents[2][len(n.rightEvents[2])-1])
}

// TestLeftRestartReconnectsAtOnce: the left dies (no goodbye) and a new
// left starts on the same port within a second. Its denies tell the right
// it does not know the session; the right, hearing nothing authentic from
// its left, connects again at once instead of waiting out its timeout.
func TestLeftRestartReconnectsAtOnce(t *testing.T) {
	cfg := DefaultConfig()
	n := newLAN(t, cfg, 1)
	n.until("the connection", func() bool { return n.connected(0) })
	addr := n.left.LocalAddr().String()
	n.left.socket.sock.Close()
	l2, err := Listen(addr, testToken, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l2.Close() })
	n.left = l2
	start := n.tick
	n.until("the reconnection", func() bool { return n.connected(0) })
	waited := int(n.tick - start)
	if waited >= cfg.TimeoutTicks/2 {
		t.Errorf("reconnected after %d ticks (the timeout is %d)", waited, cfg.TimeoutTicks)
	}
	restarted := false
	for _, ev := range n.rightEvents[0] {
		restarted = restarted || ev.Kind == ClientRestarted
	}
	if !restarted {
		t.Errorf("right events %v", n.rightEvents[0])
	}
	t.Logf("reconnected %d ticks after the new left started (the timeout is %d)", waited, cfg.TimeoutTicks)
}

// TestWrongTokenGivesUp: a right with the wrong token is refused on every
// attempt; after RefusalsToGiveUp of them over TimeoutTicks it gives up
// and sends nothing more. A right told to keep trying never does.
func TestWrongTokenGivesUp(t *testing.T) {
	cfg := DefaultConfig()
	cfg.RetryTicks, cfg.TimeoutTicks = 10, 60
	wrong := testToken
	wrong[0] ^= 1
	n := newLAN(t, cfg, 0)
	r := n.addRight(wrong, cfg)
	keep := cfg
	keep.RefusalsToGiveUp = 0
	k := n.addRight(wrong, keep)
	n.until("giving up", func() bool { return r.Status().GaveUp })
	sent := r.Counts().Sent
	for range 60 {
		time.Sleep(200 * time.Microsecond)
		n.step()
	}
	if r.Counts().Sent != sent || k.Status().GaveUp || k.Status().Refusal.Reason != ReasonKey {
		t.Errorf("after giving up the right sent %d more; the one keeping on: %+v", r.Counts().Sent-sent, k.Status())
	}
	last := n.rightEvents[0][len(n.rightEvents[0])-1]
	if last.Kind != ClientGaveUp {
		t.Errorf("events %v", n.rightEvents[0])
	}
	t.Logf("gave up at tick %d: %v", n.tick, last)
}

// TestDropsCountedOnce: 210 connects that fail authentication from one
// address are 210 refused datagrams: each counted once, whether a deny
// went out, the deny's rate limit kept it or the source's budget dropped
// it first.
func TestDropsCountedOnce(t *testing.T) {
	n := newLAN(t, DefaultConfig(), 0)
	wrong := testToken
	wrong[5] ^= 1
	r := n.addRight(wrong, DefaultConfig())
	n.rights = nil // polled by hand below
	r.started = true
	const forged = 210
	for i := range forged {
		r.attempt()
		r.sendHandshake()
		if i%20 == 19 {
			time.Sleep(time.Millisecond)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for n.left.Counts().Arrived < forged && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	n.step()
	d := n.left.Drops()
	if d.Total() != forged || d.Forged+d.Unanswered != forged {
		t.Errorf("%d forged connects counted as %d refused: %+v", forged, d.Total(), d)
	}
	t.Logf("%d forged connects: %+v", forged, d)
}
