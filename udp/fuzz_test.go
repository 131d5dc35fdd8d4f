package udp

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"netcubes/wire"
)

// fuzzPair is a left and a right connected over the loopback interface,
// with a copy of every datagram each received while they connected (for
// seeds: genuine datagrams, replays once the fuzzer hands them back).
type fuzzPair struct {
	left            *Server
	right           *Client
	toLeft, toRight [][]byte
}

func newFuzzPair(f *testing.F) *fuzzPair {
	f.Helper()
	l, err := Listen("127.0.0.1:0", testToken, DefaultConfig())
	if err != nil {
		f.Fatal(err)
	}
	r, err := Dial(l.LocalAddr().String(), testToken, DefaultConfig())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { l.Close(); r.Close() })
	p := &fuzzPair{left: l, right: r}
	deadline := time.Now().Add(5 * time.Second)
	for tick := wire.Tick(0); ; tick++ {
		p.pollBoth(tick)
		if r.Status().State == ClientConnected && tick > 40 {
			break
		}
		if time.Now().After(deadline) {
			f.Fatal("no connection within 5 s")
		}
		if r.Status().State == ClientConnected {
			l.Send(0, KindData, []byte{byte(tick)})
			l.Send(0, KindControl, []byte("control"))
			l.Send(0, KindDiag, []byte("diag"))
			r.Send(KindData, []byte{byte(tick), 1})
		}
		time.Sleep(time.Millisecond)
	}
	return p
}

// pollBoth polls both, keeping copies of what each took.
func (p *fuzzPair) pollBoth(tick wire.Tick) {
	p.toLeft = append(p.toLeft, p.peek(p.left.socket)...)
	p.left.Poll(tick)
	p.toRight = append(p.toRight, p.peek(p.right.socket)...)
	p.right.Poll(tick)
}

// peek copies what waits in a socket's queue.
func (p *fuzzPair) peek(s *socket) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out [][]byte
	for _, d := range s.queue {
		out = append(out, append([]byte(nil), d.data...))
	}
	return out
}

// FuzzHandshake hands a left with one right in slot 0 arbitrary datagrams
// (seeded with the genuine connect, response, keep-alives and data it took
// while connecting) from the right's own address or a stranger's. None may
// spend a slot, move or free slot 0, or reach the session: a holder of the
// token sent none of them (the genuine ones are replays by now).
func FuzzHandshake(f *testing.F) {
	p := newFuzzPair(f)
	for _, d := range p.toLeft {
		f.Add(true, d)
		f.Add(false, d)
	}
	f.Add(false, []byte("NCUB\x03"))
	right := unmap(p.right.LocalAddr().(*net.UDPAddr).AddrPort())
	right = netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), right.Port())
	stranger := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), 9)
	slot := p.left.Slot(0)
	tick := wire.Tick(1000)
	f.Fuzz(func(t *testing.T, fromRight bool, data []byte) {
		from := stranger
		if fromRight {
			from = right
		}
		tick++
		p.left.now = tick
		for k := range p.left.slots[0].received {
			p.left.slots[0].received[k] = p.left.slots[0].received[k][:0]
		}
		p.left.events = p.left.events[:0]
		p.left.handle(datagram{from: from, data: append([]byte(nil), data...)})
		s := p.left.Slot(0)
		if !s.Connected || s.Addr != slot.Addr || s.Generation != slot.Generation || p.left.Clients() != 1 || len(p.left.events) != 0 {
			t.Fatalf("slot 0 %+v → %+v, %d clients, events %v", slot, s, p.left.Clients(), p.left.events)
		}
		for k := range Kind(numKinds) {
			if len(p.left.Received(0, k)) != 0 {
				t.Fatalf("a %v body reached the session", k)
			}
		}
	})
}

// FuzzOpen hands a connected right arbitrary datagrams from its left's
// address (seeded with every genuine datagram it took: challenge, accept,
// keep-alives, data, control, diagnostics), and checks the decryption path
// directly: nothing opens without the key, no replay is taken, the right
// stays connected in its slot.
func FuzzOpen(f *testing.F) {
	p := newFuzzPair(f)
	for _, d := range p.toRight {
		f.Add(d)
	}
	f.Add([]byte("NCUB\x03"))
	r := p.right
	st := r.Status()
	f.Fuzz(func(t *testing.T, data []byte) {
		for k := range r.received {
			r.received[k] = r.received[k][:0]
		}
		r.events = r.events[:0]
		r.handle(datagram{from: r.server, data: append([]byte(nil), data...)})
		if got := r.Status(); got.State != ClientConnected || got.Slot != st.Slot || len(r.events) != 0 {
			t.Fatalf("the right went from %+v to %+v (events %v)", st, got, r.events)
		}
		for k := range Kind(numKinds) {
			if len(r.Received(k)) != 0 {
				t.Fatalf("a %v body reached the session", k)
			}
		}
		// The AEAD itself, on the same bytes under the session key.
		if len(data) >= Overhead {
			var h Header
			if h.Serialize(wire.NewReadStream(data)) == nil && r.window.fresh(h.Sequence) {
				if _, err := open(r.toRight, &r.nc, h.Sequence, append([]byte(nil), data...), 0); err == nil {
					t.Fatal("a datagram the fuzzer made opened with the session key")
				}
			}
		}
	})
}

// FuzzConnecting hands a right that is still connecting (its left answers
// nobody: the datagrams come from the fuzzer, from the left's address)
// arbitrary datagrams, seeded with a genuine connect, challenge, deny and
// accept of another right's handshake: the challenge and deny readers
// never panic, and nothing the fuzzer makes connects the right or gives
// it a slot (only a challenge sealed for its own key could start that).
func FuzzConnecting(f *testing.F) {
	p := newFuzzPair(f)
	for _, d := range p.toRight {
		f.Add(d)
	}
	for _, d := range p.toLeft {
		f.Add(d)
	}
	f.Add([]byte("NCUB\x03"))
	f.Add([]byte("NCUB\x02\x04\x00\x00\x00\x00\x00\x00\x00\x00\x01\x02"))
	r, err := Dial(p.left.LocalAddr().String(), testToken, DefaultConfig())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { r.Close() })
	r.started = true
	r.attempt()
	f.Fuzz(func(t *testing.T, data []byte) {
		r.events = r.events[:0]
		r.handle(datagram{from: r.server, data: append([]byte(nil), data...)})
		if st := r.Status(); st.State == ClientConnected || r.fresh {
			t.Fatalf("a fuzzed datagram connected the right: %+v", st)
		}
		for _, e := range r.events {
			if e.Kind != ClientRefused {
				t.Fatalf("event %v", e)
			}
		}
		if r.state == ClientResponding {
			r.attempt() // a challenge the fuzzer replayed for this key (none here): start over
		}
	})
}
