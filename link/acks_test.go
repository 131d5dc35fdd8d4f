package link

// The acks of wire.Endpoint, tested over this package's lossy links: every
// ack names a packet that really arrived, RTT and loss come out as the link
// was set up, across sequence wrap-around.

import (
	"math"
	"testing"

	"netcubes/wire"
	"netcubes/wire/wiretest"
)

// ackHarness runs two endpoints over two links and keeps the ground truth of
// what the right side received, to check the acks against.
type ackHarness struct {
	t           *testing.T
	left, right *wire.Endpoint
	fwd, back   *Link
	buf         []byte
	w           *wire.WriteStream
	r           *wire.ReadStream
	tick        wire.Tick
	payload     int
	received    [65536]bool // sequences from the left that the right received
	sentTick    [65536]wire.Tick
	newest      uint16
	any         bool
	checkBits   bool
	acksChecked int
	newlyAcked  int
}

func newAckHarness(t *testing.T, fwd, back Config, initial uint16) *ackHarness {
	cfg := wire.DefaultEndpointConfig()
	cfg.InitialSequence = initial
	return &ackHarness{
		t:         t,
		left:      wire.NewEndpoint(cfg),
		right:     wire.NewEndpoint(cfg),
		fwd:       New(fwd, 100),
		back:      New(back, 200),
		buf:       make([]byte, 256),
		w:         wire.NewWriteStream(nil),
		r:         wire.NewReadStream(nil),
		payload:   40,
		checkBits: true,
	}
}

// send writes a header and padding to the payload size.
func (h *ackHarness) send(e *wire.Endpoint, l *Link) {
	hdr := e.Header()
	h.w.Reset(h.buf)
	if err := hdr.Serialize(h.w); err != nil {
		h.t.Fatal(err)
	}
	n := max(len(h.w.Bytes()), h.payload)
	e.Sent(h.tick, n)
	l.Send(h.tick, h.buf[:n])
}

func (h *ackHarness) read(data []byte) wire.AckHeader {
	var hdr wire.AckHeader
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
			if k > 0 && !wire.SequenceGreaterThan(seq, acked[k-1]) {
				t.Fatalf("acks out of order: %v", acked)
			}
			h.newlyAcked++
		}
	}
	h.sentTick[h.left.Header().Sequence] = h.tick
	h.send(h.left, h.fwd)
	for _, d := range h.fwd.Receive(h.tick) {
		hdr := h.read(d.Data)
		h.received[hdr.Sequence] = true
		if !h.any || wire.SequenceGreaterThan(hdr.Sequence, h.newest) {
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
			for k := range uint16(wire.AckBitsCount + 1) {
				seq := hdr.Ack - k
				if wiretest.Acked(hdr, seq) != h.received[seq] {
					t.Fatalf("tick %d: ack bits say %d received=%v, truth %v", h.tick, seq, wiretest.Acked(hdr, seq), h.received[seq])
				}
				h.acksChecked++
			}
		}
	}
	h.send(h.right, h.back)
	h.tick++
}

func TestAcksUnderLossAcrossWrap(t *testing.T) {
	lossy := Config{LatencyMs: 40, JitterMs: 20, LossPercent: 30}
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
	last := h.left.Header().Sequence
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
	if !wire.SequenceLessThan(65000, last) || last > 3000 {
		t.Fatalf("sequence did not wrap: %d", last)
	}
}

func TestAcksPerfectLinkWrap(t *testing.T) {
	h := newAckHarness(t, Config{}, Config{}, 65530)
	for range 20 {
		h.step()
	}
	// On a perfect link the right side acks a packet in the tick it was
	// sent, and the left learns it at the start of the next tick: every
	// packet but the last is acked, across 65535 -> 0.
	for seq := uint16(65530); seq != h.left.Header().Sequence-1; seq++ {
		if !h.left.IsAcked(seq) {
			t.Fatalf("%d not acked", seq)
		}
	}
	if rtt, ok := h.left.RTT(); !ok || rtt != wire.Tick(1).Milliseconds() {
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
		lc := Config{LatencyMs: tc.latencyMs}
		h := newAckHarness(t, lc, lc, 0)
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
		fwd  Config
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
			want := tc.fwd.expectedLoss()
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
	h := newAckHarness(t, Config{}, Config{}, 0)
	h.payload = 100
	for range 120 {
		h.step()
	}
	now := h.tick - 1
	// (100 + 28) bytes × 8 bits × 60 packets/s = 61.44 kbit/s.
	want := float64(wire.WireBytes(100)*8) * wire.TicksPerSecond / 1000
	if want != 61.44 {
		t.Fatalf("100-byte payloads at 60 Hz: %v kbit/s", want)
	}
	for _, m := range []struct {
		name string
		got  float64
	}{
		{"sent", h.left.SentKbps(now)},
		{"received", h.right.ReceivedKbps(now)},
	} {
		if math.Abs(m.got-want) > 1e-9 {
			t.Errorf("%s: %.3f kbit/s, want %.2f", m.name, m.got, want)
		}
	}
	// Stale and duplicate packets.
	e := wire.NewEndpoint(wire.DefaultEndpointConfig())
	if _, fresh := e.Received(0, wire.AckHeader{Sequence: 1000}, 10); !fresh {
		t.Fatal("first packet not fresh")
	}
	if _, fresh := e.Received(0, wire.AckHeader{Sequence: 1000}, 10); fresh {
		t.Fatal("duplicate is fresh")
	}
	if _, fresh := e.Received(0, wire.AckHeader{Sequence: 1000 - 300}, 10); fresh {
		t.Fatal("stale packet is fresh")
	}
	if s := e.Stats(); s.Received != 1 || s.Duplicates != 1 || s.Stale != 1 {
		t.Fatalf("stats %+v", s)
	}
}

func TestEndpointZeroAllocs(t *testing.T) {
	lossy := Config{LatencyMs: 40, JitterMs: 20, LossPercent: 10}
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
