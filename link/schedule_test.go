package link

import (
	"math"
	"testing"

	"netcubes/wire"
)

func TestCapScheduleAt(t *testing.T) {
	s := CapSchedule{Steps: [MaxCapSteps]CapStep{{1000, 10}, {256, 20}, {500, 5}}}
	tests := []struct {
		t      int
		kbps   float64
		step   int
		repeat bool
	}{
		{-5, 1000, 0, false}, {0, 1000, 0, false}, {9, 1000, 0, false}, {10, 256, 1, false},
		{29, 256, 1, false}, {30, 500, 2, false}, {34, 500, 2, false}, {35, 500, 2, false}, {1000, 500, 2, false},
		{35, 1000, 0, true}, {46, 256, 1, true}, {35*3 + 31, 500, 2, true},
	}
	for _, tc := range tests {
		s.Repeat = tc.repeat
		if kbps, step := s.At(tc.t); kbps != tc.kbps || step != tc.step {
			t.Errorf("At(%d) repeat %v = %v, %d; want %v, %d", tc.t, tc.repeat, kbps, step, tc.kbps, tc.step)
		}
	}
	if s.Len() != 3 || s.Period() != 35 || !s.On() {
		t.Errorf("Len %d, Period %d, On %v", s.Len(), s.Period(), s.On())
	}
	var off CapSchedule
	if kbps, step := off.At(7); off.On() || kbps != 0 || step != -1 {
		t.Errorf("empty schedule: %v, %d", kbps, step)
	}
	// A cap set by hand wins over the schedule.
	c := Config{CapSchedule: s}
	if c.CapAt(12) != 256 {
		t.Errorf("CapAt(12) = %v", c.CapAt(12))
	}
	c.BandwidthKbps = 64
	if c.CapAt(12) != 64 {
		t.Errorf("with a cap set by hand, CapAt = %v", c.CapAt(12))
	}
}

// TestLinkCapSchedule: a link whose cap steps from 1,000 kbit/s to 256 and
// back carries 493 kbit/s of offered datagrams whole while the cap is
// above it, the cap's rate while it is below (the queue builds, then
// drops), and all of it again once the cap rises and the queue drains.
// CapKbps follows the schedule, counted from the first tick.
func TestLinkCapSchedule(t *testing.T) {
	const s = wire.TicksPerSecond
	sched := CapSchedule{Steps: [MaxCapSteps]CapStep{{1000, 10 * s}, {256, 20 * s}, {1000, 10 * s}}}
	const start = 500 // the schedule counts from the link's first tick
	l := New(Config{LatencyMs: 20, CapSchedule: sched}, 3)
	const size = 1000 // 1,028 bytes on the wire per tick: 493 kbit/s
	buf := make([]byte, size)
	var bytesIn [45]int // delivered wire bytes per second of the schedule
	var maxDelay [45]wire.Tick
	sentAt := map[uint64]wire.Tick{}
	for tick := wire.Tick(start); tick < start+45*s; tick++ {
		sec := int(tick-start) / s
		want := 1000.0
		if sec >= 10 && sec < 30 {
			want = 256
		}
		if got := l.CapKbps(tick); got != want {
			t.Fatalf("tick %d: CapKbps %v, want %v", tick, got, want)
		}
		if tick < start+40*s {
			sentAt[l.Send(tick, buf)] = tick
		}
		for _, d := range l.Receive(tick) {
			bytesIn[sec] += wire.WireBytes(len(d.Data))
			maxDelay[sec] = max(maxDelay[sec], tick-sentAt[d.ID])
		}
	}
	kbps := func(from, to int) float64 {
		b := 0
		for _, x := range bytesIn[from:to] {
			b += x
		}
		return float64(8*b) / float64(to-from) / 1000
	}
	offered := float64(8*wire.WireBytes(size)*s) / 1000
	t.Logf("offered %.0f kbit/s; delivered %.0f, %.0f, %.0f kbit/s; delay %d, %d, %d ticks",
		offered, kbps(1, 10), kbps(12, 30), kbps(32, 40), maxDelay[5], maxDelay[20], maxDelay[35])
	if math.Abs(kbps(1, 10)-offered) > 5 || math.Abs(kbps(32, 40)-offered) > 5 {
		t.Errorf("above the cap: %.0f and %.0f kbit/s, offered %.0f", kbps(1, 10), kbps(32, 40), offered)
	}
	if math.Abs(kbps(12, 30)-256) > 5 {
		t.Errorf("under the 256 kbit/s step: %.0f kbit/s", kbps(12, 30))
	}
	// Delay: 20 ms and 8 ms of clocking out at 1,000 kbit/s (2 ticks);
	// the 250 ms queue and 32 ms of clocking at 256 (19 ticks).
	if maxDelay[5] > 2 || maxDelay[35] > 2 || maxDelay[20] < 15 || maxDelay[20] > 19 {
		t.Errorf("max delay %d, %d, %d ticks", maxDelay[5], maxDelay[20], maxDelay[35])
	}
	if l.Stats().QueueDropped == 0 {
		t.Error("the queue never dropped")
	}

	// The schedule restarts with Reset, and with a SetConfig that changes
	// it (not with one that keeps it).
	l.Reset(3)
	l.Send(1000, buf)
	if l.CapKbps(1000+12*s) != 256 || l.CapKbps(1000+5*s) != 1000 {
		t.Errorf("after Reset: %v at 5 s, %v at 12 s", l.CapKbps(1000+5*s), l.CapKbps(1000+12*s))
	}
	now := wire.Tick(1000 + 12*s)
	l.Receive(now)
	c := l.Config()
	c.LatencyMs = 40
	l.SetConfig(c)
	if l.CapKbps(now) != 256 {
		t.Errorf("a change of latency restarted the schedule: %v", l.CapKbps(now))
	}
	c.CapSchedule.Steps[1].Kbps = 128
	l.SetConfig(c)
	if l.CapKbps(now) != 1000 || l.CapKbps(now+10*s) != 128 {
		t.Errorf("a new schedule: %v now, %v 10 s later", l.CapKbps(now), l.CapKbps(now+10*s))
	}
}

// TestBottleneckPreset: the preset's schedule is the one its table gives,
// repeating every 50 s.
func TestBottleneckPreset(t *testing.T) {
	c := PresetBottleneck.Config()
	const s = wire.TicksPerSecond
	for _, tc := range []struct {
		sec  float64
		kbps float64
	}{{0, 1000}, {9.9, 1000}, {10, 256}, {29.9, 256}, {30, 1000}, {49.9, 1000}, {50, 1000}, {60, 256}} {
		if got := c.CapAt(int(tc.sec * s)); got != tc.kbps {
			t.Errorf("at %.1f s: %v kbit/s, want %v", tc.sec, got, tc.kbps)
		}
	}
}
