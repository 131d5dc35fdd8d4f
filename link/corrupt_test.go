package link

import (
	"math"
	"math/bits"
	"testing"

	"netcubes/wire"
)

// corruptRun sends n packets of size bytes (a pattern from the packet
// number) over l, one per tick, and compares every delivery with what was
// sent: per packet, the bits that differ in its first copy (−1: never
// arrived) and the bit that was flipped.
type corruptRun struct {
	flips   []int // bits differing in the first copy to arrive, −1 not delivered
	bit     []int // the flipped bit, −1 none
	arrival []wire.Tick
	stats   Stats
}

func pattern(buf []byte, n int) {
	for k := range buf {
		buf[k] = byte(n*131 + k*7)
	}
}

func runCorrupt(t *testing.T, l *Link, n, size int) corruptRun {
	t.Helper()
	r := corruptRun{flips: make([]int, n), bit: make([]int, n), arrival: make([]wire.Tick, n)}
	for i := range r.flips {
		r.flips[i], r.bit[i], r.arrival[i] = -1, -1, -1
	}
	buf, want := make([]byte, size), make([]byte, size)
	for tick := wire.Tick(0); tick < wire.Tick(n)+120; tick++ {
		if int(tick) < n {
			pattern(buf, int(tick))
			l.Send(tick, buf)
		}
		for _, d := range l.Receive(tick) {
			id := int(d.ID)
			pattern(want, id)
			diff, at := 0, -1
			for k := range want {
				x := want[k] ^ d.Data[k]
				diff += bits.OnesCount8(x)
				if x != 0 {
					at = 8*k + bits.TrailingZeros8(x)
				}
			}
			if d.Corrupted != (diff > 0) {
				t.Fatalf("packet %d: %d bits differ, flagged %v", id, diff, d.Corrupted)
			}
			if d.Duplicate {
				if diff != r.flips[id] || at != r.bit[id] {
					t.Fatalf("packet %d: its copy has other damage (%d bits at %d, first %d at %d)", id, diff, at, r.flips[id], r.bit[id])
				}
				continue
			}
			if ev, ok := l.Event(d.ID); ok && ev.Corrupted != d.Corrupted {
				t.Fatalf("packet %d: event says corrupted %v", id, ev.Corrupted)
			}
			r.flips[id], r.bit[id], r.arrival[id] = diff, at, tick
		}
	}
	r.stats = l.Stats()
	return r
}

// TestLinkCorruption: the configured share of the delivered datagrams
// arrives with exactly one bit flipped, anywhere in the payload, counted;
// a duplicate carries the same damage; the same seed flips the same bits;
// and turning corruption on changes no packet's fate or delay.
func TestLinkCorruption(t *testing.T) {
	const n, size = 30000, 40
	cfg := Config{LatencyMs: 50, JitterMs: 30, LossPercent: 10, DuplicatePercent: 5, CorruptPercent: 4}
	a := runCorrupt(t, New(cfg, 77), n, size)
	delivered, corrupted := 0, 0
	var byByte [size]int
	for i := range a.flips {
		switch a.flips[i] {
		case -1:
			continue
		case 0:
		case 1:
			corrupted++
			byByte[a.bit[i]/8]++
		default:
			t.Fatalf("packet %d: %d bits flipped", i, a.flips[i])
		}
		delivered++
	}
	share := float64(corrupted) / float64(delivered)
	t.Logf("%d of %d delivered datagrams corrupted (%.2f %%)", corrupted, delivered, 100*share)
	if math.Abs(share-0.04) > 0.004 {
		t.Errorf("%.3f of the datagrams corrupted, want 0.04", share)
	}
	if a.stats.Corrupted != uint64(corrupted) {
		t.Errorf("Stats.Corrupted %d, counted %d", a.stats.Corrupted, corrupted)
	}
	for k, c := range byByte {
		if c == 0 {
			t.Errorf("no flip in byte %d of %d", k, size)
		}
	}

	b := runCorrupt(t, New(cfg, 77), n, size)
	clean := cfg
	clean.CorruptPercent = 0
	c := runCorrupt(t, New(clean, 77), n, size)
	for i := range a.flips {
		if a.bit[i] != b.bit[i] || a.arrival[i] != b.arrival[i] {
			t.Fatalf("same seed: packet %d flipped bit %d then %d", i, a.bit[i], b.bit[i])
		}
		if a.arrival[i] != c.arrival[i] || (c.flips[i] > 0) {
			t.Fatalf("packet %d: arrived at %d with corruption, %d without (flips %d)", i, a.arrival[i], c.arrival[i], c.flips[i])
		}
	}
	if c.stats.Corrupted != 0 {
		t.Errorf("a clean link counted %d corrupted", c.stats.Corrupted)
	}

	// TCP-like mode ignores corruption (its checksum makes it a resend).
	tcp := cfg
	tcp.TCPLike = true
	if r := runCorrupt(t, New(tcp, 77), 2000, size); r.stats.Corrupted != 0 {
		t.Errorf("TCP-like: %d corrupted", r.stats.Corrupted)
	}
}

// TestLinkCorruptEveryPacket: at 100 % every delivered datagram has one bit
// flipped, an empty one none.
func TestLinkCorruptEveryPacket(t *testing.T) {
	l := New(Config{CorruptPercent: 100}, 1)
	l.Send(0, []byte{0x55})
	l.Send(0, nil)
	ds := l.Receive(0)
	if len(ds) != 2 {
		t.Fatalf("%d deliveries", len(ds))
	}
	if x := ds[0].Data[0] ^ 0x55; bits.OnesCount8(x) != 1 || !ds[0].Corrupted {
		t.Errorf("one-byte packet: %08b (flagged %v)", x, ds[0].Corrupted)
	}
	if ds[1].Corrupted || len(ds[1].Data) != 0 {
		t.Errorf("empty packet flagged %v", ds[1].Corrupted)
	}
	if len(ds[0].Data) != 1 {
		t.Error("length changed")
	}
}
