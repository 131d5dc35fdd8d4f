package net

import (
	"errors"
	"math"
	"testing"
)

func TestAckHeaderSerialize(t *testing.T) {
	tests := []struct {
		name string
		h    AckHeader
		bits int
	}{
		{"nothing received yet", AckHeader{Sequence: 7}, 17},
		{"acks", AckHeader{Sequence: 65535, HasAck: true, Ack: 0, AckBits: 0xFFFFFFFF}, 65},
		{"sparse acks", AckHeader{Sequence: 1, HasAck: true, Ack: 40000, AckBits: 0x80000001}, 65},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := roundTrip(t, tc.h, tc.bits, func(s Stream, h *AckHeader) error { return h.Serialize(s) })
			if got != tc.h {
				t.Fatalf("got %+v, want %+v", got, tc.h)
			}
			m := NewMeasureStream()
			h := tc.h
			_ = h.Serialize(m)
			b := m.Breakdown()
			if b[CategoryHeader] != 16 || b[CategoryAcks] != tc.bits-16 {
				t.Fatalf("breakdown %v", b)
			}
		})
	}
	// Without "has ack", whatever the destination held is cleared.
	w := NewWriteStream(make([]byte, 16))
	h := AckHeader{Sequence: 3}
	_ = h.Serialize(w)
	out := AckHeader{Ack: 9, AckBits: 9}
	if err := out.Serialize(NewReadStream(w.Bytes())); err != nil || out != (AckHeader{Sequence: 3}) {
		t.Fatalf("got %+v, %v", out, err)
	}
	// A truncated header is an error.
	h = AckHeader{Sequence: 3, HasAck: true, Ack: 2, AckBits: 1}
	w.Reset(make([]byte, 16))
	_ = h.Serialize(w)
	if err := out.Serialize(NewReadStream(w.Bytes()[:6])); !errors.Is(err, ErrEndOfData) {
		t.Fatalf("truncated: %v", err)
	}
}

func TestAckHeaderAcked(t *testing.T) {
	h := AckHeader{HasAck: true, Ack: 1, AckBits: 1<<0 | 1<<2 | 1<<31}
	tests := []struct {
		seq  uint16
		want bool
	}{
		{1, true},              // ack itself
		{0, true},              // bit 0
		{65535, false},         // bit 1
		{65534, true},          // bit 2, across the wrap
		{65536 + 1 - 32, true}, // bit 31
		{65536 + 1 - 33, false},
		{2, false}, // newer than ack
	}
	for _, tc := range tests {
		if got := h.Acked(tc.seq); got != tc.want {
			t.Errorf("Acked(%d) = %v, want %v", tc.seq, got, tc.want)
		}
	}
	if (&AckHeader{}).Acked(0) {
		t.Error("no ack acks nothing")
	}
}

// ackHarness runs two endpoints over two links and keeps the ground truth of
// what the right side received, to check the acks against.
type ackHarness struct {
	t           *testing.T
	left, right *Endpoint
	fwd, back   *Link
	buf         []byte
	w           *WriteStream
	r           *ReadStream
	tick        Tick
	payload     int
	received    [65536]bool // sequences from the left that the right received
	sentTick    [65536]Tick
	newest      uint16
	any         bool
	checkBits   bool
	acksChecked int
	newlyAcked  int
}

func newAckHarness(t *testing.T, fwd, back LinkConfig, initial uint16) *ackHarness {
	cfg := DefaultEndpointConfig()
	cfg.InitialSequence = initial
	return &ackHarness{
		t:         t,
		left:      NewEndpoint(cfg),
		right:     NewEndpoint(cfg),
		fwd:       NewLink(fwd, 100),
		back:      NewLink(back, 200),
		buf:       make([]byte, 256),
		w:         NewWriteStream(nil),
		r:         NewReadStream(nil),
		payload:   40,
		checkBits: true,
	}
}

// send writes a header and padding to the payload size.
func (h *ackHarness) send(e *Endpoint, l *Link) {
	hdr := e.Header()
	h.w.Reset(h.buf)
	if err := hdr.Serialize(h.w); err != nil {
		h.t.Fatal(err)
	}
	n := max(len(h.w.Bytes()), h.payload)
	e.Sent(h.tick, n)
	l.Send(h.tick, h.buf[:n])
}

func (h *ackHarness) read(data []byte) AckHeader {
	var hdr AckHeader
	h.r.Reset(data)
	if err := hdr.Serialize(h.r); err != nil {
		h.t.Fatal(err)
	}
	return hdr
}

// step runs one tick: the left reads acks and sends; the right receives and
// sends its acks back.
func (h *ackHarness) step() {
	t := h.t
	for _, d := range h.back.Receive(h.tick) {
		acked, _ := h.left.Received(h.tick, h.read(d.Data), len(d.Data))
		for k, seq := range acked {
			if !h.received[seq] {
				t.Fatalf("tick %d: sequence %d acked but never received", h.tick, seq)
			}
			if k > 0 && !SequenceGreaterThan(seq, acked[k-1]) {
				t.Fatalf("acks out of order: %v", acked)
			}
			h.newlyAcked++
		}
	}
	h.sentTick[h.left.NextSequence()] = h.tick
	h.send(h.left, h.fwd)
	for _, d := range h.fwd.Receive(h.tick) {
		hdr := h.read(d.Data)
		h.received[hdr.Sequence] = true
		if !h.any || SequenceGreaterThan(hdr.Sequence, h.newest) {
			h.newest, h.any = hdr.Sequence, true
		}
		h.right.Received(h.tick, hdr, len(d.Data))
	}
	if h.checkBits {
		hdr := h.right.Header()
		if hdr.HasAck != h.any || (h.any && hdr.Ack != h.newest) {
			t.Fatalf("tick %d: ack %d (%v), newest received %d", h.tick, hdr.Ack, hdr.HasAck, h.newest)
		}
		if h.any {
			for k := range uint16(AckBitsCount + 1) {
				seq := hdr.Ack - k
				if hdr.Acked(seq) != h.received[seq] {
					t.Fatalf("tick %d: ack bits say %d received=%v, truth %v", h.tick, seq, hdr.Acked(seq), h.received[seq])
				}
				h.acksChecked++
			}
		}
	}
	h.send(h.right, h.back)
	h.tick++
}

func TestAcksUnderLossAcrossWrap(t *testing.T) {
	lossy := LinkConfig{LatencyMs: 40, JitterMs: 20, LossPercent: 30}
	h := newAckHarness(t, lossy, lossy, 65000)
	const ticks = 3000 // sequences 65000 .. 2463: across the wrap
	for range ticks {
		h.step()
	}
	if h.acksChecked < 33*2900 {
		t.Fatalf("checked only %d ack bits", h.acksChecked)
	}
	// Every packet received long enough ago, and still remembered, is acked;
	// no other packet is.
	last := h.left.NextSequence()
	for k := uint16(60); k < 200; k++ {
		seq := last - k
		if h.left.IsAcked(seq) != h.received[seq] {
			t.Fatalf("sequence %d: acked %v, received %v", seq, h.left.IsAcked(seq), h.received[seq])
		}
	}
	s := h.left.Stats()
	if s.Acked != uint64(h.newlyAcked) || s.Sent != ticks {
		t.Fatalf("stats %+v, newly acked %d", s, h.newlyAcked)
	}
	if !SequenceLessThan(65000, last) || last > 3000 {
		t.Fatalf("sequence did not wrap: %d", last)
	}
}

func TestAcksPerfectLinkWrap(t *testing.T) {
	h := newAckHarness(t, LinkConfig{}, LinkConfig{}, 65530)
	for range 20 {
		h.step()
	}
	// On a perfect link the right side acks a packet in the tick it was
	// sent, and the left learns it at the start of the next tick: every
	// packet but the last is acked, across 65535 -> 0.
	for seq := uint16(65530); seq != h.left.NextSequence()-1; seq++ {
		if !h.left.IsAcked(seq) {
			t.Fatalf("%d not acked", seq)
		}
	}
	if rtt, ok := h.left.RTT(); !ok || rtt != Tick(1).Milliseconds() {
		t.Fatalf("RTT %v (%v), want one tick", rtt, ok)
	}
	if h.left.PacketLoss() != 0 {
		t.Fatalf("loss %v", h.left.PacketLoss())
	}
}

func TestRTTEstimate(t *testing.T) {
	tests := []struct {
		latencyMs float64
		want      float64
	}{
		{100, 200}, // 6 ticks each way
		{50, 100},
		{250, 500},
	}
	for _, tc := range tests {
		link := LinkConfig{LatencyMs: tc.latencyMs}
		h := newAckHarness(t, link, link, 0)
		for range 600 {
			h.step()
		}
		rtt, ok := h.left.RTT()
		if !ok || math.Abs(rtt-tc.want) > 0.1*tc.want {
			t.Errorf("latency %v ms: RTT %.1f ms, want %.0f ± 10%%", tc.latencyMs, rtt, tc.want)
		}
	}
	// With jitter the smoothed RTT still tracks the mean.
	h := newAckHarness(t, PresetIntercontinental.Config(), PresetIntercontinental.Config(), 0)
	for range 3000 {
		h.step()
	}
	if rtt, _ := h.left.RTT(); math.Abs(rtt-210) > 25 {
		// Each way: 100 ms ± 10 rounded up to ticks, mean ≈ 105 ms.
		t.Errorf("intercontinental RTT %.1f ms", rtt)
	}
}

func TestMeasuredLoss(t *testing.T) {
	tests := []struct {
		name string
		fwd  LinkConfig
	}{
		{"intercontinental", PresetIntercontinental.Config()},
		{"terrible", PresetTerrible.Config()},
		{"mobile bursts", PresetMobile.Config()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newAckHarness(t, tc.fwd, tc.fwd, 0)
			h.checkBits = false // duplicates and reordering: checked elsewhere
			sum, samples := 0.0, 0
			for i := range 30000 {
				h.step()
				if i >= 1000 {
					sum += h.left.PacketLoss()
					samples++
				}
			}
			s := h.left.Stats()
			measured := float64(s.Lost) / float64(s.Judged)
			ls := h.fwd.Stats()
			truth := float64(ls.Lost) / float64(ls.Sent)
			if math.Abs(measured-truth) > 0.003 {
				t.Errorf("measured loss %.4f, the link lost %.4f", measured, truth)
			}
			want := tc.fwd.ExpectedLoss()
			if math.Abs(measured-want) > 0.15*want {
				t.Errorf("measured loss %.4f, configured %.4f", measured, want)
			}
			if avg := sum / float64(samples); math.Abs(avg-want) > 0.15*want {
				t.Errorf("windowed loss averages %.4f, configured %.4f", avg, want)
			}
			if s.LateAcks > s.Lost/50 {
				t.Errorf("%d late acks for %d losses: the loss wait is too short", s.LateAcks, s.Lost)
			}
			if dup := h.right.Stats().Duplicates; dup != ls.DuplicatesDelivered {
				t.Errorf("right saw %d duplicates, link delivered %d", dup, ls.DuplicatesDelivered)
			}
		})
	}
}

func TestEndpointBandwidth(t *testing.T) {
	h := newAckHarness(t, LinkConfig{}, LinkConfig{}, 0)
	h.payload = 100
	for range 120 {
		h.step()
	}
	now := h.tick - 1
	// (100 + 28) bytes × 8 bits × 60 packets/s = 61.44 kbit/s.
	want := Kbps(100, 60)
	if want != 61.44 {
		t.Fatalf("Kbps(100, 60) = %v", want)
	}
	for _, m := range []struct {
		name string
		got  float64
	}{
		{"sent", h.left.SentKbps(now)},
		{"received", h.right.ReceivedKbps(now)},
		{"acked", h.left.AckedKbps(now)},
	} {
		if math.Abs(m.got-want) > 1e-9 {
			t.Errorf("%s: %.3f kbit/s, want %.2f", m.name, m.got, want)
		}
	}
	// Stale and duplicate packets.
	e := NewEndpoint(DefaultEndpointConfig())
	if _, fresh := e.Received(0, AckHeader{Sequence: 1000}, 10); !fresh {
		t.Fatal("first packet not fresh")
	}
	if _, fresh := e.Received(0, AckHeader{Sequence: 1000}, 10); fresh {
		t.Fatal("duplicate is fresh")
	}
	if _, fresh := e.Received(0, AckHeader{Sequence: 1000 - 300}, 10); fresh {
		t.Fatal("stale packet is fresh")
	}
	if s := e.Stats(); s.Received != 1 || s.Duplicates != 1 || s.Stale != 1 {
		t.Fatalf("stats %+v", s)
	}
}

func TestEndpointZeroAllocs(t *testing.T) {
	lossy := LinkConfig{LatencyMs: 40, JitterMs: 20, LossPercent: 10}
	h := newAckHarness(t, lossy, lossy, 0)
	h.checkBits = false
	for range 2000 {
		h.step()
	}
	allocs := testing.AllocsPerRun(1000, h.step)
	if allocs != 0 {
		t.Fatalf("%v allocs per tick", allocs)
	}
}

func TestEndpointSkipTo(t *testing.T) {
	left := NewEndpoint(DefaultEndpointConfig())
	right := NewEndpoint(DefaultEndpointConfig())
	// Send every sixth frame, as a 10 Hz snapshot sender does, with the
	// frame as the sequence, across the wrap.
	var sent []uint16
	for f := 65500; f < 65500+120; f += 6 {
		left.SkipTo(uint16(f))
		seq := left.Sent(Tick(f), 10)
		if seq != uint16(f) {
			t.Fatalf("sent sequence %d, want %d", seq, uint16(f))
		}
		sent = append(sent, seq)
		if _, fresh := right.Received(Tick(f), AckHeader{Sequence: seq}, 10); !fresh {
			t.Fatalf("frame %d not fresh", f)
		}
		acked, _ := left.Received(Tick(f), right.Header(), 0)
		if len(acked) != 1 || acked[0] != seq {
			t.Fatalf("frame %d: acked %v, want [%d]", f, acked, seq)
		}
	}
	left.SkipTo(sent[0]) // backwards: ignored
	if got := left.NextSequence(); got != sent[len(sent)-1]+1 {
		t.Errorf("SkipTo backwards moved NextSequence to %d", got)
	}
	if loss := left.PacketLoss(); loss != 0 {
		t.Errorf("gaps in the sequence counted as loss: %v", loss)
	}
}

func TestEndpointIsFresh(t *testing.T) {
	e := NewEndpoint(DefaultEndpointConfig())
	if !e.IsFresh(5) {
		t.Fatal("nothing received yet, but 5 is not fresh")
	}
	if !e.IsFresh(5) || e.Header().HasAck {
		t.Fatal("IsFresh must not record the packet")
	}
	e.Received(1, AckHeader{Sequence: 5}, 10)
	if e.IsFresh(5) {
		t.Error("a received sequence is still fresh")
	}
	if !e.IsFresh(4) {
		t.Error("an older sequence not yet received should be fresh (reordering)")
	}
	e.Received(2, AckHeader{Sequence: 1000}, 10)
	if e.IsFresh(5) || e.IsFresh(1000-uint16(e.Config().ReceivedPackets)-1) {
		t.Error("sequences too old to track should not be fresh")
	}
}
