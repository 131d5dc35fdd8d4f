package link

import (
	"encoding/binary"
	"math"
	"testing"

	"netcubes/wire"
)

// linkRun is what a test sees of a link: per packet, when it first arrived
// and how many copies arrived, and the order of all deliveries.
type linkRun struct {
	sent    []wire.Tick
	arrival []wire.Tick // first delivery, -1 if never
	copies  []int
	order   []uint64 // IDs in delivery order, copies included
	stats   Stats
	fates   []Fate
}

// runLink sends `packets` packets of `size` bytes (size >= 8), perTick per
// tick from tick 0, receives every tick until drain ticks after the last
// send, and checks every delivered payload. hook, if not nil, runs at the
// start of each tick.
func runLink(t *testing.T, l *Link, packets, perTick, size int, drain wire.Tick, hook func(wire.Tick)) linkRun {
	t.Helper()
	r := linkRun{
		sent:    make([]wire.Tick, packets),
		arrival: make([]wire.Tick, packets),
		copies:  make([]int, packets),
		fates:   make([]Fate, packets),
	}
	for i := range r.arrival {
		r.arrival[i] = -1
	}
	buf := make([]byte, size)
	next := 0
	lastSend := wire.Tick(-1)
	for tick := wire.Tick(0); next < packets || tick <= lastSend+drain; tick++ {
		if hook != nil {
			hook(tick)
		}
		for k := 0; k < perTick && next < packets; k++ {
			if size > 8 {
				buf[size-1] = byte(next)
			}
			binary.LittleEndian.PutUint64(buf, uint64(next))
			id := l.Send(tick, buf)
			if id != uint64(next) {
				t.Fatalf("Send returned id %d, want %d", id, next)
			}
			r.sent[next] = tick
			next++
			lastSend = tick
		}
		for _, d := range l.Receive(tick) {
			id := binary.LittleEndian.Uint64(d.Data)
			if id != d.ID || len(d.Data) != size || (size > 8 && d.Data[size-1] != byte(id)) {
				t.Fatalf("packet %d corrupted: id %d, %d bytes", d.ID, id, len(d.Data))
			}
			if d.Sent != r.sent[id] {
				t.Fatalf("packet %d: Sent %d, want %d", id, d.Sent, r.sent[id])
			}
			if r.copies[id] == 0 {
				r.arrival[id] = tick
				if d.Duplicate {
					t.Fatalf("packet %d: the copy arrived first but is flagged", id)
				}
			}
			r.copies[id]++
			r.order = append(r.order, id)
		}
	}
	for i := range r.fates {
		if ev, ok := l.Event(uint64(i)); ok {
			r.fates[i] = ev.Fate
		}
	}
	r.stats = l.Stats()
	return r
}

func TestPerfectLink(t *testing.T) {
	// The documented contract: a zero config delivers a packet sent at
	// tick t to a Receive at the same tick t, in send order.
	l := New(Config{}, 1)
	r := runLink(t, l, 1000, 3, 16, 0, nil)
	for i := range r.arrival {
		if r.arrival[i] != r.sent[i] || r.copies[i] != 1 {
			t.Fatalf("packet %d sent at %d arrived at %d (%d copies)", i, r.sent[i], r.arrival[i], r.copies[i])
		}
		if r.order[i] != uint64(i) {
			t.Fatalf("delivery %d is packet %d", i, r.order[i])
		}
	}
	if s := r.stats; s.Sent != 1000 || s.Delivered != 1000 || s.Lost+s.Duplicated+s.QueueDropped+s.OutageDropped != 0 {
		t.Fatalf("stats %+v", s)
	}
	// Receive before Send in a tick gets the packet at the next tick.
	l = New(Config{}, 1)
	if len(l.Receive(5)) != 0 {
		t.Fatal("delivered from nothing")
	}
	l.Send(5, []byte{1})
	if d := l.Receive(5); len(d) != 1 {
		t.Fatalf("same tick: %d deliveries", len(d))
	}
}

func TestLinkCopiesPacket(t *testing.T) {
	l := New(Config{LatencyMs: 20}, 1)
	buf := []byte{1, 2, 3}
	l.Send(0, buf)
	buf[0] = 99 // the caller reuses its buffer
	if d := l.Receive(0); len(d) != 0 {
		t.Fatal("20 ms arrived at once")
	}
	d := l.Receive(2) // 20 ms = 1.2 ticks, rounded up to 2
	if len(d) != 1 || d[0].Data[0] != 1 {
		t.Fatalf("deliveries %v", d)
	}
}

func TestLinkLatencyRoundsUpToTicks(t *testing.T) {
	tests := []struct {
		latencyMs float64
		ticks     wire.Tick
	}{
		{0, 0}, {1, 1}, {16, 1}, {50.0 / 3, 1}, {17, 2}, {100, 6}, {250, 15},
	}
	for _, tc := range tests {
		l := New(Config{LatencyMs: tc.latencyMs}, 1)
		r := runLink(t, l, 50, 1, 8, 30, nil)
		for i := range r.arrival {
			if got := r.arrival[i] - r.sent[i]; got != tc.ticks {
				t.Fatalf("%v ms: packet %d took %d ticks, want %d", tc.latencyMs, i, got, tc.ticks)
			}
		}
	}
	if l := New(PresetLAN.Config(), 1); l.Config().LatencyMs != 1 {
		t.Fatal("LAN preset")
	}
}

// delayPMF returns the exact distribution of delivery delays, in ticks, of
// a link whose delay is uniform over the integer micro-ticks in
// [latency-jitter, latency+jitter] (negative delays clamped to 0) and
// rounded up to whole ticks.
func delayPMF(latencyMs, jitterMs float64) map[wire.Tick]float64 {
	lat, jit := msToMicroTicks(latencyMs), msToMicroTicks(jitterMs)
	lo, hi := lat-jit, lat+jit
	n := float64(hi - lo + 1)
	pmf := map[wire.Tick]float64{}
	if lo < 0 {
		pmf[0] += float64(-lo) / n // values below 0 become 0
		lo = 0
	}
	for k := tickOf(lo); k <= tickOf(hi); k++ {
		a := max(lo, (int64(k)-1)*microTicksPerTick+1)
		if k == 0 {
			a = lo
		}
		b := min(hi, int64(k)*microTicksPerTick)
		if b >= a {
			pmf[k] += float64(b-a+1) / n
		}
	}
	return pmf
}

func TestLinkLatencyJitterDistribution(t *testing.T) {
	tests := []struct {
		name   string
		cfg    Config
		preset bool
	}{
		{"intercontinental", PresetIntercontinental.Config(), true},
		{"mobile-like", Config{LatencyMs: 60, JitterMs: 40}, false},
		{"jitter below zero", Config{LatencyMs: 5, JitterMs: 20}, false},
		{"terrible-like", Config{LatencyMs: 250, JitterMs: 100}, false},
	}
	const n = 100000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.LossPercent = 0 // look at delays only
			l := New(cfg, 42)
			r := runLink(t, l, n, 1, 8, 100, nil)
			count := map[wire.Tick]int{}
			sum := 0.0
			for i := range r.arrival {
				d := r.arrival[i] - r.sent[i]
				count[d]++
				sum += float64(d)
			}
			pmf := delayPMF(cfg.LatencyMs, cfg.JitterMs)
			wantMean := 0.0
			for k, p := range pmf {
				wantMean += float64(k) * p
				got := float64(count[k]) / n
				// Binomial standard deviation is at most 0.0016 here.
				if math.Abs(got-p) > 0.008 {
					t.Errorf("P(delay = %d ticks) = %.4f, want %.4f", k, got, p)
				}
			}
			for k, c := range count {
				if _, ok := pmf[k]; !ok {
					t.Errorf("%d packets took %d ticks, outside the configured range", c, k)
				}
			}
			if mean := sum / n; math.Abs(mean-wantMean) > 0.02 {
				t.Errorf("mean delay %.3f ticks, want %.3f", mean, wantMean)
			}
		})
	}
}

func TestLinkLossAndDuplicateRates(t *testing.T) {
	tests := []struct {
		name        string
		cfg         Config
		loss, dup   float64
		tolL, tolDp float64
	}{
		{"1% loss", Config{LossPercent: 1}, 0.01, 0, 0.002, 0},
		{"intercontinental 5%", PresetIntercontinental.Config(), 0.05, 0, 0.004, 0},
		{"terrible 20% + 5% dup", PresetTerrible.Config(), 0.20, 0.05, 0.006, 0.004},
		{"50% loss", Config{LossPercent: 50}, 0.5, 0, 0.006, 0},
		{"10% dup", Config{DuplicatePercent: 10, LatencyMs: 30, JitterMs: 10}, 0, 0.10, 0, 0.005},
		{"100% loss", Config{LossPercent: 100}, 1, 0, 0, 0},
	}
	const n = 100000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New(tc.cfg, 7)
			r := runLink(t, l, n, 1, 8, 200, nil)
			s := r.stats
			lost := 0
			for i := range r.copies {
				if r.copies[i] == 0 {
					lost++
					if r.fates[i] != FateLost && i >= n-EventCapacity {
						t.Fatalf("packet %d never arrived, fate %v", i, r.fates[i])
					}
				}
			}
			if uint64(lost) != s.Lost {
				t.Fatalf("%d packets missing, stats say %d lost", lost, s.Lost)
			}
			if got := float64(lost) / n; math.Abs(got-tc.loss) > tc.tolL {
				t.Errorf("loss %.4f, want %.4f ± %.4f", got, tc.loss, tc.tolL)
			}
			// Duplicates: of the delivered packets, the fraction that came twice.
			delivered := n - lost
			if delivered > 0 {
				twice := 0
				for _, c := range r.copies {
					if c == 2 {
						twice++
					} else if c > 2 {
						t.Fatalf("%d copies", c)
					}
				}
				if uint64(twice) != s.Duplicated || s.DuplicatesDelivered != s.Duplicated {
					t.Fatalf("%d twice, stats %+v", twice, s)
				}
				if got := float64(twice) / float64(delivered); math.Abs(got-tc.dup) > tc.tolDp {
					t.Errorf("duplicates %.4f, want %.4f ± %.4f", got, tc.dup, tc.tolDp)
				}
			}
			if s.Delivered != uint64(delivered) || s.Sent != n {
				t.Fatalf("stats %+v", s)
			}
		})
	}
}

func TestLinkReorder(t *testing.T) {
	cfg := Config{LatencyMs: 50, ReorderPercent: 10, ReorderExtraMs: 50}
	l := New(cfg, 3)
	const n = 100000
	r := runLink(t, l, n, 1, 8, 100, nil)
	held := 0
	for i := range r.arrival {
		switch d := r.arrival[i] - r.sent[i]; d {
		case 3: // 50 ms
		case 6: // 100 ms: held back
			held++
		default:
			t.Fatalf("packet %d took %d ticks", i, d)
		}
	}
	if uint64(held) != r.stats.HeldBack {
		t.Fatalf("held %d, stats %d", held, r.stats.HeldBack)
	}
	if got := float64(held) / n; math.Abs(got-0.10) > 0.005 {
		t.Errorf("held back %.4f, want 0.10", got)
	}
	inversions := 0
	for i := 1; i < len(r.order); i++ {
		if r.order[i] < r.order[i-1] {
			inversions++
		}
	}
	if inversions == 0 {
		t.Fatal("reordering produced no out-of-order deliveries")
	}
}

// lossRuns returns the mean length of runs of consecutive lost packets.
func lossRuns(copies []int) (mean float64, runs int) {
	total, cur := 0, 0
	for _, c := range copies {
		if c == 0 {
			cur++
			continue
		}
		if cur > 0 {
			total += cur
			runs++
			cur = 0
		}
	}
	if cur > 0 {
		total += cur
		runs++
	}
	if runs == 0 {
		return 0, 0
	}
	return float64(total) / float64(runs), runs
}

func TestLinkBurstLoss(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantRun float64 // expected mean loss-run length
	}{
		// Bad state loses everything: a run is a bad period, mean 1/r.
		{"bad loses all", Config{Burst: BurstLoss{GoodToBadPercent: 1, BadToGoodPercent: 20, BadLossPercent: 100}}, 5},
		// Run continues while the next packet stays bad (1-r) and is lost (h).
		{"bad loses 80%", Config{Burst: BurstLoss{GoodToBadPercent: 2, BadToGoodPercent: 25, BadLossPercent: 80}}, 1 / (1 - 0.75*0.8)},
		{"long bursts", Config{Burst: BurstLoss{GoodToBadPercent: 0.5, BadToGoodPercent: 10, BadLossPercent: 100}}, 10},
	}
	const n = 200000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New(tc.cfg, 11)
			r := runLink(t, l, n, 1, 8, 10, nil)
			mean, runs := lossRuns(r.copies)
			if runs < 500 {
				t.Fatalf("only %d runs", runs)
			}
			if math.Abs(mean-tc.wantRun)/tc.wantRun > 0.06 {
				t.Errorf("mean loss run %.3f, want %.3f", mean, tc.wantRun)
			}
			loss := float64(r.stats.Lost) / n
			want := tc.cfg.expectedLoss()
			if math.Abs(loss-want) > 0.1*want {
				t.Errorf("loss %.4f, want %.4f", loss, want)
			}
			// Independent loss at the same rate makes much shorter runs:
			// 1/(1-p), about 1.05 here. That is what "bursty" means.
			li := New(Config{LossPercent: 100 * want}, 11)
			ri := runLink(t, li, n, 1, 8, 10, nil)
			meanI, _ := lossRuns(ri.copies)
			if mean < 1.5*meanI || mean <= 1 {
				t.Errorf("burst runs %.3f not longer than independent runs %.3f", mean, meanI)
			}
			// Events remember the state.
			sawBurst := false
			for id := uint64(n - EventCapacity); id < n; id++ {
				ev, _ := l.Event(id)
				sawBurst = sawBurst || ev.Burst
			}
			if !sawBurst {
				t.Error("no event in the bad state")
			}
		})
	}
}

func TestPresets(t *testing.T) {
	tests := []struct {
		p                   Preset
		name                string
		latency, jitter     float64
		totalLoss           float64 // the table's "total loss"
		dup, reorder, burst bool
	}{
		{PresetPerfect, "perfect", 0, 0, 0, false, false, false},
		{PresetLAN, "LAN", 1, 0, 0, false, false, false},
		{PresetWiFi, "Wi-Fi", 5, 5, 0.01, false, false, true},
		{PresetIntercontinental, "intercontinental", 100, 10, 0.05, false, false, false},
		{PresetMobile, "mobile", 60, 40, 0.03, false, true, true},
		{PresetTerrible, "terrible", 250, 100, 0.20, true, true, false},
		{PresetDSL, "DSL", 15, 3, 0, false, false, false},
		{PresetCongested, "congested", 40, 10, 0.01, false, false, false},
		{PresetAsymmetric, "asymmetric", 35, 5, 0.002, false, false, false},
		{PresetBottleneck, "bottleneck", 20, 2, 0, false, false, false},
	}
	if len(tests) != NumPresets {
		t.Fatal("a preset is not tested")
	}
	for _, tc := range tests {
		c := tc.p.Config()
		if tc.p.String() != tc.name {
			t.Errorf("%d: name %q", tc.p, tc.p.String())
		}
		if p, ok := PresetByName(tc.name); !ok || p != tc.p {
			t.Errorf("LinkPresetByName(%q) = %v, %v", tc.name, p, ok)
		}
		if c.LatencyMs != tc.latency || c.JitterMs != tc.jitter {
			t.Errorf("%s: %v ms ± %v", tc.name, c.LatencyMs, c.JitterMs)
		}
		if math.Abs(c.expectedLoss()-tc.totalLoss) > 0.0005 {
			t.Errorf("%s: expected loss %.4f, table says %.4f", tc.name, c.expectedLoss(), tc.totalLoss)
		}
		if (c.DuplicatePercent > 0) != tc.dup || (c.ReorderPercent > 0) != tc.reorder || (c.Burst.GoodToBadPercent > 0) != tc.burst {
			t.Errorf("%s: knobs %+v", tc.name, c)
		}
		capped := tc.p == PresetDSL || tc.p == PresetCongested
		scheduled := tc.p == PresetBottleneck
		if c.TCPLike || (c.BandwidthKbps != 0) != capped || (c.MTUBytes != 0) != (capped || scheduled) || c.CapSchedule.On() != scheduled {
			t.Errorf("%s: TCP-like %v, cap %v kbit/s, MTU %d", tc.name, c.TCPLike, c.BandwidthKbps, c.MTUBytes)
		}
		// Measured loss over 100k packets matches.
		r := runLink(t, New(c, 5), 100000, 1, 8, 60, nil)
		if got := float64(r.stats.Lost) / 100000; math.Abs(got-tc.totalLoss) > 0.15*tc.totalLoss+0.001 {
			t.Errorf("%s: measured loss %.4f, want %.4f", tc.name, got, tc.totalLoss)
		}
	}
	if _, ok := PresetByName("wifi"); !ok {
		t.Error("wifi")
	}
	if _, ok := PresetByName("dial-up"); ok {
		t.Error("dial-up exists")
	}
	if Preset(99).Config() != (Config{}) || Preset(99).String() != "unknown" {
		t.Error("unknown preset")
	}
}

func TestLinkDeterminism(t *testing.T) {
	cfg := PresetTerrible.Config()
	cfg.Burst = BurstLoss{GoodToBadPercent: 1, BadToGoodPercent: 30, BadLossPercent: 70}
	a := runLink(t, New(cfg, 1234), 20000, 2, 8, 100, nil)
	b := runLink(t, New(cfg, 1234), 20000, 2, 8, 100, nil)
	c := runLink(t, New(cfg, 1235), 20000, 2, 8, 100, nil)
	if len(a.order) != len(b.order) || a.stats != b.stats {
		t.Fatal("same seed, different runs")
	}
	for i := range a.order {
		if a.order[i] != b.order[i] {
			t.Fatalf("same seed: delivery %d differs", i)
		}
	}
	for i := range a.arrival {
		if a.arrival[i] != b.arrival[i] {
			t.Fatalf("same seed: packet %d arrival differs", i)
		}
	}
	differ := 0
	for i := range a.arrival {
		if a.arrival[i] != c.arrival[i] {
			differ++
		}
	}
	if differ < 1000 {
		t.Fatalf("a different seed changed only %d arrivals", differ)
	}
	// Reset restarts the schedule.
	l := New(cfg, 1234)
	runLink(t, l, 500, 1, 8, 10, nil)
	l.Reset(1234)
	d := runLink(t, l, 20000, 2, 8, 100, nil)
	for i := range a.arrival {
		if a.arrival[i] != d.arrival[i] {
			t.Fatalf("after Reset: packet %d arrival differs", i)
		}
	}
}

func TestLinkOutage(t *testing.T) {
	cfg := PresetMobile.Config()
	const n = 5000
	base := runLink(t, New(cfg, 9), n, 1, 8, 100, nil)
	tests := []struct {
		name     string
		from, to wire.Tick // packets sent in [from, to) are dropped
		hook     func(l *Link) func(wire.Tick)
	}{
		{"timed", 1000, 1120, func(l *Link) func(wire.Tick) {
			return func(tick wire.Tick) {
				if tick == 1000 {
					l.StartOutage(tick, 120)
				}
			}
		}},
		{"extended", 2000, 2100, func(l *Link) func(wire.Tick) {
			return func(tick wire.Tick) {
				if tick == 2000 {
					l.StartOutage(tick, 60)
				}
				if tick == 2050 {
					l.StartOutage(tick, 50) // overlaps: ends at 2100
				}
			}
		}},
		{"held", 3000, 3045, func(l *Link) func(wire.Tick) {
			return func(tick wire.Tick) {
				if tick == 3000 {
					l.SetHeld(tick, true)
				}
				if tick == 3045 {
					l.SetHeld(tick, false)
				}
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New(cfg, 9)
			hook := tc.hook(l)
			r := runLink(t, l, n, 1, 8, 100, func(tick wire.Tick) {
				hook(tick)
				if tick == tc.to { // packet IDs are send ticks here
					if ev, ok := l.Event(uint64(tc.from)); !ok || ev.Fate != FateOutage {
						t.Errorf("event %+v, %v", ev, ok)
					}
					if ev, ok := l.Event(uint64(tc.from - 1)); !ok || ev.Fate == FateOutage {
						t.Errorf("event before the outage %+v, %v", ev, ok)
					}
				}
			})
			for i := range r.arrival {
				in := r.sent[i] >= tc.from && r.sent[i] < tc.to
				if in {
					if r.copies[i] != 0 {
						t.Fatalf("packet %d sent at %d during the outage arrived", i, r.sent[i])
					}
					continue
				}
				// Outside the window everything is exactly as without it.
				if r.arrival[i] != base.arrival[i] || r.copies[i] != base.copies[i] {
					t.Fatalf("packet %d sent at %d: arrival %d/%d copies, without outage %d/%d",
						i, r.sent[i], r.arrival[i], r.copies[i], base.arrival[i], base.copies[i])
				}
			}
			if r.stats.OutageDropped != uint64(tc.to-tc.from) {
				t.Fatalf("outage dropped %d, want %d", r.stats.OutageDropped, tc.to-tc.from)
			}
		})
	}
}

func TestLinkBandwidthCap(t *testing.T) {
	t.Run("under the cap", func(t *testing.T) {
		// 100-byte payloads: 128 bytes on the wire, 61.4 kbit/s at 60 Hz.
		// Each takes 10.24 ms to clock out at 100 kbit/s: one tick.
		l := New(Config{BandwidthKbps: 100}, 1)
		r := runLink(t, l, 3000, 1, 100, 10, nil)
		for i := range r.arrival {
			if r.arrival[i]-r.sent[i] != 1 {
				t.Fatalf("packet %d took %d ticks", i, r.arrival[i]-r.sent[i])
			}
		}
		if r.stats.QueueDropped != 0 {
			t.Fatalf("dropped %d", r.stats.QueueDropped)
		}
	})
	t.Run("over the cap", func(t *testing.T) {
		// 1000-byte payloads: 493 kbit/s offered to a 100 kbit/s link with
		// the default queue (250 ms at the cap = 3125 bytes).
		l := New(Config{BandwidthKbps: 100, LatencyMs: 20}, 1)
		const n = 6000 // 100 s
		r := runLink(t, l, n, 1, 1000, 120, nil)
		delivered := 0
		var first, last wire.Tick = -1, 0
		maxDelay := wire.Tick(0)
		for i := range r.arrival {
			if r.copies[i] == 0 {
				if r.fates[i] != FateQueueDropped && i >= n-EventCapacity {
					t.Fatalf("packet %d: fate %v", i, r.fates[i])
				}
				continue
			}
			delivered++
			if first < 0 {
				first = r.arrival[i]
			}
			last = max(last, r.arrival[i])
			maxDelay = max(maxDelay, r.arrival[i]-r.sent[i])
		}
		if uint64(delivered)+r.stats.QueueDropped != n {
			t.Fatalf("delivered %d + dropped %d != %d", delivered, r.stats.QueueDropped, n)
		}
		// Throughput equals the cap.
		kbps := float64(delivered*wire.WireBytes(1000)*8) / (float64(last-first+1) / wire.TicksPerSecond) / 1000
		if math.Abs(kbps-100) > 3 {
			t.Errorf("throughput %.1f kbit/s, want 100", kbps)
		}
		// Delay is bounded by the queue: 250 ms of queue + 82 ms to clock
		// the packet out + 20 ms latency = 352 ms, 22 ticks rounded up.
		if maxDelay > 22 {
			t.Errorf("max delay %d ticks, queue should bound it at 22", maxDelay)
		}
		if maxDelay < 15 {
			t.Errorf("max delay %d ticks: the queue never filled", maxDelay)
		}
	})
	t.Run("packet larger than the queue", func(t *testing.T) {
		// An empty queue admits a datagram larger than its limit (as a
		// socket buffer does); one arriving behind it is dropped.
		l := New(Config{BandwidthKbps: 256, QueueLimitBytes: 1500}, 1)
		l.Send(0, make([]byte, 2000))
		l.Send(0, make([]byte, 100))
		if ev, _ := l.Event(0); ev.Fate != FateInFlight {
			t.Fatalf("first: fate %v", ev.Fate)
		}
		if ev, _ := l.Event(1); ev.Fate != FateQueueDropped {
			t.Fatalf("second: fate %v", ev.Fate)
		}
	})
}

// bottleneckRun sends a payload of size bytes every interval ticks for
// ticks ticks and measures what a bottleneck does with them.
type bottleneckRun struct {
	sent, delivered int
	maxDelay        wire.Tick // ticks from send to arrival
	maxInFlight     int
	maxQueueBytes   int
	slots           int // packet copies the link allocated
	inOrder         bool
}

func runBottleneck(t *testing.T, c Config, size, interval, ticks int) bottleneckRun {
	t.Helper()
	l := New(c, 7)
	r := bottleneckRun{inOrder: true}
	buf := make([]byte, size)
	sentAt := map[uint64]wire.Tick{}
	last := uint64(0)
	for tick := wire.Tick(0); tick < wire.Tick(ticks); tick++ {
		if int(tick)%interval == 0 {
			id := l.Send(tick, buf)
			sentAt[id] = tick
			r.sent++
		}
		r.maxInFlight = max(r.maxInFlight, l.inFlight())
		r.maxQueueBytes = max(r.maxQueueBytes, l.queueBytes(tick))
		for _, d := range l.Receive(tick) {
			if d.Duplicate {
				continue
			}
			if d.ID < last {
				r.inOrder = false
			}
			last = d.ID
			r.delivered++
			r.maxDelay = max(r.maxDelay, tick-sentAt[d.ID])
		}
	}
	r.slots = len(l.slots)
	return r
}

// TestLinkBottleneck: a capped link behaves like a link. Offered more than
// its cap it delivers about cap/offered of the datagrams, whatever their
// size (a 36 kB snapshot included: the old queue refused anything larger
// than itself, so 0 % arrived); the queue bounds the delay; storage stays
// bounded; and TCP-like mode over a cap neither grows without end (it
// reached 4,096 packets, 213 MB and 455 s of delay) nor reorders.
func TestLinkBottleneck(t *testing.T) {
	uncompressed := 36100 // bytes: a 901-cube uncompressed snapshot
	tests := []struct {
		name           string
		cfg            Config
		size, interval int
	}{
		{"10 Hz uncompressed snapshots at 1 Mbit/s", Config{BandwidthKbps: 1000, LatencyMs: 20}, uncompressed, 6},
		{"10 Hz uncompressed snapshots at 256 kbit/s", Config{BandwidthKbps: 256, LatencyMs: 20}, uncompressed, 6},
		{"the same in fragments (MTU 1500)", Config{BandwidthKbps: 1000, LatencyMs: 20, MTUBytes: 1500}, uncompressed, 6},
		{"60 Hz, 500 bytes at 128 kbit/s", Config{BandwidthKbps: 128, LatencyMs: 50}, 500, 1},
		{"60 Hz, 500 bytes under the cap", Config{BandwidthKbps: 384, LatencyMs: 50}, 500, 1},
		{"a large buffer bounded in time", Config{BandwidthKbps: 128, QueueLimitBytes: 1 << 20, QueueLimitMs: 100}, 500, 1},
		{"TCP-like, 10 Hz uncompressed at 1 Mbit/s", Config{BandwidthKbps: 1000, LatencyMs: 20, TCPLike: true}, uncompressed, 6},
		{"TCP-like, lossy, 60 Hz 500 bytes at 128 kbit/s", Config{BandwidthKbps: 128, LatencyMs: 50, LossPercent: 5, TCPLike: true}, 500, 1},
	}
	const ticks = 100 * wire.TicksPerSecond
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runBottleneck(t, tt.cfg, tt.size, tt.interval, ticks)
			p := makeParams(tt.cfg)
			_, onWire := fragments(tt.size, p.mtu)
			if tt.cfg.TCPLike {
				onWire = wire.WireBytes(tt.size)
			}
			offered := float64(onWire*8) * wire.TicksPerSecond / float64(tt.interval) / 1000
			want := min(1, tt.cfg.BandwidthKbps/offered) * (1 - tt.cfg.expectedLoss()*boolTo(!tt.cfg.TCPLike))
			got := float64(r.delivered) / float64(r.sent)
			// Delay: latency, at most QueueLimitMs of waiting, one
			// datagram's clocking out, one tick of rounding; TCP adds
			// retransmission timeouts.
			queueMs := math.Min(float64(p.queueLimit*8)/tt.cfg.BandwidthKbps, float64(p.queueLimitTime)/microTicksPerTick*1000/wire.TicksPerSecond)
			txMs := float64(onWire*8) / tt.cfg.BandwidthKbps
			boundMs := tt.cfg.LatencyMs + queueMs + txMs + 1000.0/wire.TicksPerSecond
			if tt.cfg.TCPLike && tt.cfg.LossPercent > 0 {
				boundMs += 4 * DefaultMaxRTOMs
			}
			delayMs := float64(r.maxDelay) * 1000 / wire.TicksPerSecond
			t.Logf("offered %.0f kbit/s: delivered %.3f (cap/offered %.3f), max delay %.0f ms (bound %.0f), queue ≤ %d bytes, %d in flight, %d slots",
				offered, got, want, delayMs, boundMs, r.maxQueueBytes, r.maxInFlight, r.slots)
			if math.Abs(got-want) > 0.03+0.05*want {
				t.Errorf("delivered %.3f of the datagrams, want about %.3f", got, want)
			}
			if delayMs > boundMs {
				t.Errorf("max delay %.0f ms, the queue should bound it at %.0f", delayMs, boundMs)
			}
			if int64(r.maxQueueBytes) > p.queueLimit+int64(onWire) {
				t.Errorf("queue held %d bytes, limit %d + one datagram", r.maxQueueBytes, p.queueLimit)
			}
			// Storage: what the queue and the wire's latency hold, plus a
			// datagram.
			perTick := 1.0 / float64(tt.interval)
			bound := int(float64(boundMs)/1000*wire.TicksPerSecond*perTick) + 4
			if r.maxInFlight > bound || r.slots > bound {
				t.Errorf("%d packets in flight, %d slots; want ≤ %d", r.maxInFlight, r.slots, bound)
			}
			if tt.cfg.TCPLike && !r.inOrder {
				t.Error("TCP-like delivered out of order")
			}
		})
	}
}

func boolTo(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestLinkFragments: a datagram over the MTU travels as fragments with a
// header each, and is lost when any one is: at 5 % loss a 25-fragment
// snapshot is lost 72 % of the time, a one-fragment packet 5 %.
func TestLinkFragments(t *testing.T) {
	for _, tc := range []struct{ payload, mtu, n, onWire int }{
		{100, 0, 1, 128},
		{1472, 1500, 1, 1500},
		{1473, 1500, 2, 1521},
		{36100, 1500, 25, 36100 + 8 + 25*20},
		{65507, 1500, 45, 65507 + 8 + 45*20},
		{100, 576, 1, 128},
		{1000, 576, 2, 1048},
		{10, 1, 1, 38},   // an MTU below IPv4's 68 is raised to it
		{100, 1, 3, 168}, // 48 bytes per fragment
	} {
		n, w := fragments(tc.payload, makeParams(Config{MTUBytes: tc.mtu}).mtu)
		if n != tc.n || w != tc.onWire {
			t.Errorf("%d bytes, MTU %d: %d fragments, %d on the wire; want %d, %d", tc.payload, tc.mtu, n, w, tc.n, tc.onWire)
		}
	}
	for _, tc := range []struct {
		size int
		want float64
	}{{500, 0.05}, {36100, 1 - math.Pow(0.95, 25)}} {
		l := New(Config{LossPercent: 5, MTUBytes: 1500}, 3)
		const n = 20000
		buf := make([]byte, tc.size)
		for i := range n {
			l.Send(wire.Tick(i), buf)
			l.Receive(wire.Tick(i))
		}
		got := float64(l.Stats().Lost) / n
		if math.Abs(got-tc.want) > 0.015 {
			t.Errorf("%d bytes: lost %.3f, want %.3f", tc.size, got, tc.want)
		}
		if ev, _ := l.Event(n - 1); tc.size > 1500 && ev.Fragments != 25 {
			t.Errorf("%d fragments", ev.Fragments)
		}
		if tc.size > 1500 && l.Stats().FragmentLost == 0 {
			t.Error("no datagram counted as lost by a fragment")
		}
	}
}

func TestLinkTCPLike(t *testing.T) {
	cfg := Config{LatencyMs: 50, LossPercent: 20, DuplicatePercent: 30, ReorderPercent: 30, TCPLike: true}
	rto := cfg.RTOMs()
	if rto != 200 {
		t.Fatalf("RTO %v ms, want max(200, 2×50)", rto)
	}
	if got := (Config{LatencyMs: 100, JitterMs: 10}).RTOMs(); got != 240 {
		t.Fatalf("RTO %v, want 2×100 + 4×10", got)
	}
	l := New(cfg, 5)
	const n = 20000
	r := runLink(t, l, n, 1, 8, 600, nil)
	for i := range r.copies {
		if r.copies[i] != 1 {
			t.Fatalf("packet %d delivered %d times", i, r.copies[i])
		}
		if r.order[i] != uint64(i) {
			t.Fatalf("delivery %d is packet %d: out of order", i, r.order[i])
		}
	}
	if r.stats.Lost != 0 || r.stats.Duplicated != 0 || r.stats.HeldBack != 0 {
		t.Fatalf("stats %+v", r.stats)
	}
	if frac := float64(r.stats.Retransmitted) / n; math.Abs(frac-0.25) > 0.02 {
		// 20% loss per attempt: 0.2/(1-0.2) = 0.25 retransmissions per packet.
		t.Errorf("retransmissions per packet %.3f, want 0.25", frac)
	}
	natural := wire.Tick(3) // 50 ms
	blocked, retransmitted := 0, 0
	for i := range r.arrival {
		ev, _ := l.Event(uint64(i))
		d := r.arrival[i] - r.sent[i]
		if i >= n-EventCapacity && ev.Retransmits > 0 {
			retransmitted++
			// At least one RTO (200 ms = 12 ticks) on top of the latency.
			if d < natural+12 {
				t.Fatalf("retransmitted packet %d took only %d ticks", i, d)
			}
		} else if i >= n-EventCapacity && d > natural {
			blocked++ // never lost, yet late: head-of-line blocking
		}
	}
	if retransmitted == 0 || blocked == 0 {
		t.Fatalf("retransmitted %d, blocked %d: no head-of-line blocking", retransmitted, blocked)
	}
	if blocked < retransmitted {
		t.Errorf("each loss should hold back the ~12 packets behind it: blocked %d, retransmitted %d", blocked, retransmitted)
	}
}

func TestLinkTCPLikeOutage(t *testing.T) {
	cfg := Config{LatencyMs: 30, TCPLike: true}
	tests := []struct {
		name    string
		hook    func(l *Link) func(wire.Tick)
		from    wire.Tick // first tick of the outage
		release wire.Tick // its end
	}{
		{"timed", func(l *Link) func(wire.Tick) {
			return func(tick wire.Tick) {
				if tick == 100 {
					l.StartOutage(tick, 60)
				}
			}
		}, 100, 160},
		{"held", func(l *Link) func(wire.Tick) {
			return func(tick wire.Tick) {
				if tick == 100 {
					l.SetHeld(tick, true)
				}
				if tick == 160 {
					if l.inFlight() < 59 {
						t.Errorf("held packets: %d in flight", l.inFlight())
					}
					l.SetHeld(tick, false)
				}
			}
		}, 100, 160},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New(cfg, 2)
			r := runLink(t, l, 400, 1, 8, 400, tc.hook(l))
			for i := range r.copies {
				if r.copies[i] != 1 || r.order[i] != uint64(i) {
					t.Fatalf("packet %d: %d copies, delivery %d", i, r.copies[i], r.order[i])
				}
				if r.sent[i] >= tc.from && r.sent[i] < tc.release && r.arrival[i] < tc.release {
					t.Fatalf("packet %d sent during the outage arrived at %d", i, r.arrival[i])
				}
				if r.sent[i] < tc.from && r.arrival[i]-r.sent[i] != 2 {
					t.Fatalf("packet %d before the outage took %d ticks", i, r.arrival[i]-r.sent[i])
				}
			}
			if r.stats.OutageDropped != 0 || r.stats.Retransmitted == 0 {
				t.Fatalf("stats %+v", r.stats)
			}
		})
	}
}

func TestLinkOverflow(t *testing.T) {
	l := New(Config{LatencyMs: 1000, MaxInFlight: 10, MaxPacketBytes: 100}, 1)
	for i := range 12 {
		l.Send(wire.Tick(i), make([]byte, 10))
	}
	l.Send(20, make([]byte, 101))
	if s := l.Stats(); s.OverflowDropped != 3 || l.inFlight() != 10 {
		t.Fatalf("stats %+v, in flight %d", s, l.inFlight())
	}
	if ev, _ := l.Event(10); ev.Fate != FateOverflow {
		t.Fatalf("fate %v", ev.Fate)
	}
}

func TestLinkEvents(t *testing.T) {
	l := New(Config{LatencyMs: 50, LossPercent: 30}, 8)
	r := runLink(t, l, 3000, 1, 8, 10, nil)
	evs := l.appendEvents(make([]Event, 0, EventCapacity), 0)
	if len(evs) != EventCapacity {
		t.Fatalf("%d events", len(evs))
	}
	for k, ev := range evs {
		id := uint64(3000 - EventCapacity + k)
		if ev.ID != id || ev.Sent != r.sent[id] {
			t.Fatalf("event %d: %+v", k, ev)
		}
		switch ev.Fate {
		case FateDelivered:
			if ev.Arrival != r.arrival[id] {
				t.Fatalf("event %d arrival %d, want %d", id, ev.Arrival, r.arrival[id])
			}
		case FateLost:
			if r.copies[id] != 0 {
				t.Fatal("lost packet arrived")
			}
		default:
			t.Fatalf("fate %v", ev.Fate)
		}
	}
	if recent := l.appendEvents(nil, r.sent[2990]); len(recent) != 10 {
		t.Fatalf("%d recent events", len(recent))
	}
	if _, ok := l.Event(0); ok {
		t.Fatal("event 0 should have been overwritten")
	}
	if _, ok := l.Event(5000); ok {
		t.Fatal("future event")
	}
	for f := FateInFlight; f <= FateOverflow+1; f++ {
		if f.String() == "" {
			t.Fatal("empty fate name")
		}
	}
}

func TestLinkZeroAllocs(t *testing.T) {
	for _, p := range []Preset{PresetTerrible, PresetMobile} {
		cfg := p.Config()
		l := New(cfg, 77)
		pkt := make([]byte, 1200)
		evs := make([]Event, 0, EventCapacity)
		tick := wire.Tick(0)
		step := func() {
			l.Send(tick, pkt)
			l.Send(tick, pkt[:100])
			for _, d := range l.Receive(tick) {
				_ = d.Data[0]
			}
			tick++
		}
		for range 20000 { // warm up: storage grows to its working size
			step()
		}
		allocs := testing.AllocsPerRun(2000, func() {
			step()
			evs = l.appendEvents(evs[:0], tick-60)
		})
		if allocs != 0 {
			t.Fatalf("%v: %v allocs per tick", p, allocs)
		}
	}
}

func BenchmarkLinkSendReceive(b *testing.B) {
	l := New(PresetTerrible.Config(), 1)
	pkt := make([]byte, 1200)
	tick := wire.Tick(0)
	b.ReportAllocs()
	for b.Loop() {
		l.Send(tick, pkt)
		l.Receive(tick)
		tick++
	}
}
