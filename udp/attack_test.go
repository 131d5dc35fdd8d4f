package udp

// The attack suite: the attacks on the loopback interface, bounded
// in count and time. An on-path attacker is a relay between the right and
// the left that records every datagram and can replay, change or forge
// them; an off-path attacker is another socket, holding the token or not.

import (
	"encoding/binary"
	"math/rand/v2"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"testing"
	"time"

	"netcubes/wire"
)

// relay sits between a right and a left: the right dials front; what the
// right sends leaves through back[cur] (so the left sees back[cur]'s
// address), what the left sends to any back socket goes to the right
// through front, unless that socket is muted (a NAT mapping that died).
type relay struct {
	t     *testing.T
	left  netip.AddrPort
	front *net.UDPConn
	back  []*net.UDPConn

	mu    sync.Mutex
	right netip.AddrPort
	cur   int
	muted map[int]bool
	rec   []recorded
	// dup: what the right sends leaves through every back socket (an
	// attacker copying it with other sources); in[i], out[i]: bytes
	// back[i] sent the left and got from it.
	dup     bool
	in, out []int
}

type recorded struct {
	toLeft bool
	data   []byte
}

func newRelay(t *testing.T, left net.Addr, backs int) *relay {
	t.Helper()
	r := &relay{t: t, left: unmap(left.(*net.UDPAddr).AddrPort()), muted: map[int]bool{}}
	listen := func() *net.UDPConn {
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	r.front = listen()
	for range backs {
		r.back = append(r.back, listen())
	}
	go r.pump(r.front, -1)
	for i, b := range r.back {
		go r.pump(b, i)
	}
	return r
}

func (r *relay) addr() string { return r.front.LocalAddr().String() }

func (r *relay) pump(c *net.UDPConn, i int) {
	buf := make([]byte, MaxDatagram+1)
	for {
		n, from, err := c.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		d := append([]byte(nil), buf[:n]...)
		r.mu.Lock()
		toLeft := i < 0
		if toLeft {
			r.right = unmap(from)
		}
		r.rec = append(r.rec, recorded{toLeft: toLeft, data: d})
		cur, right, muted, dup := r.back[r.cur], r.right, r.muted[i], r.dup
		if len(r.in) == 0 {
			r.in, r.out = make([]int, len(r.back)), make([]int, len(r.back))
		}
		if toLeft {
			for j := range r.back {
				if j == r.cur || dup {
					r.in[j] += n
				}
			}
		} else {
			r.out[i] += n
		}
		r.mu.Unlock()
		switch {
		case toLeft && dup:
			// The copies first: the genuine datagram, arriving after one,
			// is then the replay.
			for j := len(r.back) - 1; j >= 0; j-- {
				r.back[j].WriteToUDPAddrPort(d, r.left)
			}
		case toLeft:
			cur.WriteToUDPAddrPort(d, r.left)
		case !muted && right.IsValid():
			r.front.WriteToUDPAddrPort(d, right)
		}
	}
}

// backBytes returns the bytes back[i] sent the left and got from it.
func (r *relay) backBytes(i int) (in, out int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.in) == 0 {
		return 0, 0
	}
	return r.in[i], r.out[i]
}

// recorded returns copies of what crossed so far.
func (r *relay) recorded() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.rec...)
}

// inject sends d as the relay would: to the left from back[cur], or to the
// right from front.
func (r *relay) inject(toLeft bool, d []byte) {
	r.mu.Lock()
	cur, right := r.back[r.cur], r.right
	r.mu.Unlock()
	if toLeft {
		cur.WriteToUDPAddrPort(d, r.left)
	} else {
		r.front.WriteToUDPAddrPort(d, right)
	}
}

// kindOf reads a datagram's kind (for sorting recordings).
func kindOf(d []byte) (Kind, bool) {
	var h Header
	if h.Serialize(wire.NewReadStream(d)) != nil {
		return 0, false
	}
	return h.Kind, true
}

// stream runs n ticks of a session: the left sends one data datagram to
// slot 0 each tick and the right one back; it returns how many each got.
func (n *lan) stream(ticks int, between func(tick int)) (rightGot, leftGot int) {
	r := n.rights[0]
	for k := range ticks {
		n.left.Send(0, KindData, []byte{byte(k), 1, 2, 3})
		r.Send(KindData, []byte{byte(k), 9})
		if between != nil {
			between(k)
		}
		time.Sleep(300 * time.Microsecond)
		n.step()
		rightGot += len(r.Received(KindData))
		leftGot += len(n.left.Received(0, KindData))
	}
	return rightGot, leftGot
}

// settle waits until count() reaches want or stops growing for 100 ms
// (what the kernel dropped never arrives), 5 s at the most: a bound for a
// broken test, not a timing.
func settle(count func() uint64, want uint64) {
	last, lastAt := count(), time.Now()
	for deadline := lastAt.Add(5 * time.Second); last < want && time.Now().Before(deadline); {
		time.Sleep(200 * time.Microsecond)
		if c := count(); c != last {
			last, lastAt = c, time.Now()
		} else if time.Since(lastAt) > 100*time.Millisecond {
			return
		}
	}
}

// TestTakeoverRefused: another right with the token, from another port,
// connects five times a second while the genuine right streams. With one
// slot it is refused ("every slot is taken"); with 64 it gets a slot
// of its own; either way it never acts for slot 0, the genuine right is
// never dropped, and it keeps at least 95 % of its data.
func TestTakeoverRefused(t *testing.T) {
	for _, slots := range []int{1, MaxClients} {
		cfg := DefaultConfig()
		cfg.MaxClients = slots
		n := newLAN(t, cfg, 1)
		n.until("the genuine right", func() bool { return n.connected(0) })
		genuine := n.left.Slot(0)
		var attackers []*Client
		const ticks = 300
		rightGot, leftGot := n.stream(ticks, func(k int) {
			if k%12 == 0 { // five times a second, a new attacker
				a, err := Dial(n.left.LocalAddr().String(), testToken, cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { a.Close() })
				attackers = append(attackers, a)
			}
			for _, a := range attackers {
				a.Poll(n.tick)
				if a.Status().State == ClientConnected {
					// Acting for slot 0 with its own keys: refused.
					a.slot = 0
					a.Send(KindData, []byte("i am slot 0"))
				}
			}
		})
		if s := n.left.Slot(0); s.Generation != genuine.Generation || s.Addr != genuine.Addr || !s.Connected {
			t.Fatalf("%d slots: slot 0 changed hands: %+v → %+v", slots, genuine, s)
		}
		if rightGot < ticks*95/100 || leftGot < ticks*95/100 {
			t.Fatalf("%d slots: the genuine right got %d of %d, the left %d of %d", slots, rightGot, ticks, leftGot, ticks)
		}
		for _, ev := range n.leftEvents {
			if ev.Slot == 0 && ev.Kind != EventJoined {
				t.Fatalf("%d slots: slot 0 event %v", slots, ev)
			}
		}
		// Sealed with its own keys, the attacker's datagrams fail slot 0's
		// replay window or its key.
		refused, forged := 0, n.left.Drops().Forged+n.left.Drops().Replayed
		for _, a := range attackers {
			if a.Status().Refusal.Reason == ReasonFull {
				refused++
			}
		}
		if slots == 1 && refused == 0 {
			t.Errorf("no attacker was told the left is full")
		}
		if slots == MaxClients && forged == 0 {
			t.Errorf("no attacker datagram for slot 0 was refused as forged")
		}
		t.Logf("%d slots: genuine right got %d/%d, left %d/%d; %d attackers, %d refused as full, %d forged datagrams",
			slots, rightGot, ticks, leftGot, ticks, len(attackers), refused, forged)
	}
}

// TestNoAmplification: from one address that never proves it receives
// there (it reads nothing back), every kind of request, with the token and
// without: valid connect requests, wrong-key and wrong-version ones,
// responses with made-up cookies, session datagrams. The left sends that
// address at most 3× the bytes it received (here: never more than it
// received), and no slot is spent.
func TestNoAmplification(t *testing.T) {
	n := newLAN(t, DefaultConfig(), 0)
	victim, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()
	var got int
	var gotMu sync.Mutex
	go func() {
		buf := make([]byte, MaxDatagram+1)
		for {
			k, _, err := victim.ReadFromUDP(buf)
			if err != nil {
				return
			}
			gotMu.Lock()
			got += k
			gotMu.Unlock()
		}
	}()
	// The requests: a real right's connect (sealed with the token), a
	// wrong key's, another version's, responses with a forged cookie,
	// session datagrams, noise.
	real, err := Dial(n.left.LocalAddr().String(), testToken, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer real.Close()
	real.started = true
	real.attempt()
	buf := make([]byte, MaxDatagram)
	w := wire.NewWriteStream(nil)
	var nc nonceBuf
	var pad [connectPad]byte
	wrongTok := testToken
	wrongTok[3] ^= 0x40
	wl, _ := handshakeKeys(wrongTok, real.pub)
	rng := rand.New(rand.NewPCG(1, 2))
	junkCookie := make([]byte, cookieBytes)
	for i := range junkCookie {
		junkCookie[i] = byte(rng.Uint32())
	}
	clear := binary.LittleEndian.AppendUint64(append([]byte(nil), real.pub...), uint64(time.Now().UnixMilli()))
	requests := [][]byte{
		append([]byte(nil), seal(w, &nc, buf, Header{Kind: KindConnect, Sequence: 1}, real.hsToLeft, clear, pad[:])...),
		append([]byte(nil), seal(w, &nc, buf, Header{Kind: KindConnect, Sequence: 1}, wl, clear, pad[:])...),
		append([]byte(nil), seal(w, &nc, buf, Header{Kind: KindResponse, Sequence: 2}, real.hsToLeft, real.pub, junkCookie)...),
		append([]byte(nil), seal(w, &nc, buf, Header{Kind: KindData, Sequence: 3}, real.hsToLeft, nil, []byte("data"))...),
	}
	other := append([]byte(nil), requests[0]...)
	other[4] = Version + 1
	requests = append(requests, other, []byte("NCUB\x03 noise"))
	sent := 0
	const rounds = 120
	for round := range rounds {
		for _, q := range requests {
			k, err := victim.WriteToUDPAddrPort(q, n.left.LocalAddr().(*net.UDPAddr).AddrPort())
			if err != nil {
				t.Fatal(err)
			}
			sent += k
		}
		if round%4 == 0 {
			time.Sleep(time.Millisecond)
		}
		n.step()
	}
	time.Sleep(20 * time.Millisecond)
	n.step()
	gotMu.Lock()
	defer gotMu.Unlock()
	if got > sent || n.left.Clients() != 0 {
		t.Fatalf("the left sent %d bytes to an address that sent %d (and has %d clients)", got, sent, n.left.Clients())
	}
	d := n.left.Drops()
	if len(requests[0]) != ConnectBytes || d.Forged == 0 || d.WrongVersion == 0 || d.Unanswered == 0 {
		t.Errorf("drops %+v", d)
	}
	t.Logf("sent %d bytes in %d datagrams, got back %d bytes (%.2f×); drops %+v", sent, rounds*len(requests), got, float64(got)/float64(sent), d)
}

// TestForgedReplayedFlippedDropped: an on-path attacker records a session
// (every kind of datagram, both ways), then replays each one, flips one
// bit of each, truncates each and forges bodies under real headers. Every
// session datagram so treated is dropped and counted; replayed handshake
// datagrams change nothing; the session carries on.
func TestForgedReplayedFlippedDropped(t *testing.T) {
	n := newLAN(t, DefaultConfig(), 0)
	rl := newRelay(t, n.left.LocalAddr(), 1)
	r, err := Dial(rl.addr(), testToken, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n.rights, n.rightEvents = []*Client{r}, [][]ClientEvent{nil}
	n.until("the connection through the relay", func() bool { return n.connected(0) })
	n.left.Send(0, KindControl, []byte("ctl"))
	n.left.Send(0, KindDiag, []byte("diag"))
	n.stream(30, nil)
	for range DefaultConfig().KeepAliveTicks + 5 { // idle: keep-alives both ways
		time.Sleep(300 * time.Microsecond)
		n.step()
	}
	byKind := map[Kind][]recorded{}
	for _, rc := range rl.recorded() {
		if k, ok := kindOf(rc.data); ok {
			byKind[k] = append(byKind[k], rc)
		}
	}
	for _, k := range []Kind{KindConnect, KindChallenge, KindResponse, KindAccept, KindKeepAlive, KindData, KindControl, KindDiag} {
		if len(byKind[k]) == 0 {
			t.Fatalf("no %v datagram recorded", k)
		}
	}
	before := struct {
		left, right Drops
		gen         uint64
	}{n.left.Drops(), r.Drops(), n.left.Slot(0).Generation}
	rng := rand.New(rand.NewPCG(3, 4))
	injected := map[bool]int{} // toLeft → session datagrams that must be dropped
	for k := range Kind(numKinds) {
		for _, rc := range byKind[k] {
			d := rc.data
			session := k >= KindKeepAlive || k == KindAccept
			// Replay as is.
			rl.inject(rc.toLeft, d)
			if session {
				injected[rc.toLeft]++
			}
			// One bit flipped, anywhere.
			f := append([]byte(nil), d...)
			bit := rng.IntN(8 * len(f))
			f[bit/8] ^= 1 << (bit % 8)
			rl.inject(rc.toLeft, f)
			injected[rc.toLeft]++
			// Truncated, and a forged body under the real header.
			rl.inject(rc.toLeft, d[:len(d)-1])
			injected[rc.toLeft]++
			g := append([]byte(nil), d...)
			for i := HeaderBytes; i < len(g); i++ {
				g[i] = byte(rng.Uint32())
			}
			rl.inject(rc.toLeft, g)
			injected[rc.toLeft]++
		}
		time.Sleep(2 * time.Millisecond)
		n.step()
	}
	// Wait (stepping) until both sides counted what was injected, up to
	// 5 s: on a loaded machine a reader goroutine can wait longer than
	// any fixed pause for a CPU.
	ld, rd := uint64(0), uint64(0)
	for deadline := time.Now().Add(5 * time.Second); ; {
		n.step()
		ld, rd = n.left.Drops().Total()-before.left.Total(), r.Drops().Total()-before.right.Total()
		if int(ld) >= injected[true] && int(rd) >= injected[false] || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if int(ld) < injected[true] || int(rd) < injected[false] {
		t.Errorf("dropped %d of %d injected to the left, %d of %d to the right\nleft %+v\nright %+v",
			ld, injected[true], rd, injected[false], n.left.Drops(), r.Drops())
	}
	if s := n.left.Slot(0); !s.Connected || s.Generation != before.gen || n.left.Clients() != 1 || r.Status().State != ClientConnected {
		t.Fatalf("the attack changed the session: slot %+v, %d clients, right %v", s, n.left.Clients(), r.Status().State)
	}
	for _, ev := range n.leftEvents[1:] {
		t.Errorf("left event during the attack: %v", ev)
	}
	// Nothing injected reached the session: the stream still counts as it
	// should, and the right's data is the stream's only.
	rightGot, leftGot := n.stream(60, nil)
	if rightGot < 57 || leftGot < 57 {
		t.Errorf("after the attack: right got %d, left %d of 60", rightGot, leftGot)
	}
	t.Logf("injected %d datagrams to the left, %d to the right; drops left %+v right %+v", injected[true], injected[false], n.left.Drops(), r.Drops())
}

// TestNATRebinding: the right's address changes mid-session (the relay
// sends from a second port, and the old mapping dies). The left keeps
// taking its authentic datagrams, sends the new address nothing but a path
// challenge (within 3× what came from it) until it answers and the old
// address stays silent for RetryTicks, then follows, with a sending budget
// that starts at MoveStartBytes a tick and grows as the right is heard.
func TestNATRebinding(t *testing.T) {
	n := newLAN(t, DefaultConfig(), 0)
	rl := newRelay(t, n.left.LocalAddr(), 2)
	r, err := Dial(rl.addr(), testToken, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n.rights, n.rightEvents = []*Client{r}, [][]ClientEvent{nil}
	n.until("the connection", func() bool { return n.connected(0) })
	old := n.left.Slot(0).Addr
	rl.mu.Lock()
	rl.cur, rl.muted[0] = 1, true
	rl.mu.Unlock()
	moveTick := -1
	n.stream(DefaultConfig().RetryTicks+30, func(k int) {
		if moveTick < 0 && n.left.Slot(0).Addr != old {
			moveTick = k
			// Right after the move: a body over the budget is held back.
			if n.left.Send(0, KindData, make([]byte, DefaultConfig().MoveStartBytes)) != 0 || n.left.Slot(0).Stats.HeldBack != 1 {
				t.Errorf("a %d-byte body went out right after the move", DefaultConfig().MoveStartBytes)
			}
		}
	})
	if moveTick < DefaultConfig().RetryTicks {
		t.Errorf("moved at tick %d of the stream, before the old address had RetryTicks to answer", moveTick)
	}
	s := n.left.Slot(0)
	newAddr := unmap(rl.back[1].LocalAddr().(*net.UDPAddr).AddrPort())
	if s.Addr != newAddr || s.Generation != 1 {
		t.Fatalf("slot 0 at %v (old %v, new %v), generation %d", s.Addr, old, newAddr, s.Generation)
	}
	moved := false
	for _, ev := range n.leftEvents {
		moved = moved || (ev.Kind == EventMoved && ev.From == old && ev.Addr == newAddr)
	}
	if !moved {
		t.Errorf("events %v", n.leftEvents)
	}
	rightGot, _ := n.stream(60, nil)
	if rightGot < 57 {
		t.Errorf("after the move the right got %d of 60", rightGot)
	}
}

// TestFloodBoundedByBytes: 64 KB datagrams flood a right that does not
// poll (a stalled process): what waits is bounded by QueueBytes, the rest
// is counted as dropped, and the heap grows by no more than the queue.
func TestFloodBoundedByBytes(t *testing.T) {
	cfg := DefaultConfig()
	cfg.QueueBytes = 1 << 20
	r, err := Dial("127.0.0.1:9", testToken, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	flood, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer flood.Close()
	big := make([]byte, MaxDatagram)
	copy(big, "NCUB\x03")
	to := r.LocalAddr().(*net.UDPAddr).AddrPort()
	to = netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), to.Port())
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	// 400 datagrams (26 MB) in bursts of 16 (1 MB); until the queue is
	// full, each burst once the reader has taken what the kernel kept of
	// the one before: a reader waiting for a CPU on a loaded machine
	// leaves the kernel's buffer (a few of these datagrams) to drop the
	// rest, and the queue would never fill.
	const count, burst = 400, 16
	arrived := func() uint64 { return r.Counts().Arrived }
	for sent := 0; sent < count; {
		for range burst {
			if _, err := flood.WriteToUDPAddrPort(big, to); err != nil {
				t.Fatal(err)
			}
			sent++
		}
		if r.Drops().QueueFull == 0 {
			settle(arrived, uint64(sent))
		}
	}
	settle(arrived, count)
	c := r.Counts()
	runtime.ReadMemStats(&m1)
	if c.QueuedBytes > cfg.QueueBytes || c.Arrived <= uint64(cfg.QueueBytes/MaxDatagram) {
		t.Fatalf("queued %d bytes (bound %d), %d arrived", c.QueuedBytes, cfg.QueueBytes, c.Arrived)
	}
	if r.Drops().QueueFull == 0 {
		t.Errorf("no datagram dropped for a full queue: %+v", r.Drops())
	}
	if grow := int64(m1.HeapInuse) - int64(m0.HeapInuse); grow > int64(2*cfg.QueueBytes) {
		t.Errorf("the heap grew by %d bytes for a %d-byte queue", grow, cfg.QueueBytes)
	}
	r.Poll(0) // takes the queue: every one of them is malformed
	if got := r.Counts(); got.QueuedBytes != 0 {
		t.Errorf("after Poll %d bytes still queued", got.QueuedBytes)
	}
	t.Logf("%d datagrams arrived, %d queued (%d bytes), drops %+v", c.Arrived, c.Queued, c.QueuedBytes, r.Drops())
}
