package statesync

import (
	"testing"

	"netcubes/wire"
)

func TestJitterBufferOrder(t *testing.T) {
	j := NewJitterBuffer[int](8)
	for _, s := range []uint16{65534, 2, 0, 65535, 1} { // across the wrap
		*j.Insert(s) = int(s)
	}
	if j.Insert(2) != nil {
		t.Fatal("a duplicate was accepted")
	}
	if _, _, ok := j.Pop(65533); ok {
		t.Fatal("popped a packet before its frame")
	}
	var got []uint16
	for {
		s, v, ok := j.Pop(1)
		if !ok {
			break
		}
		if *v != int(s) {
			t.Fatalf("packet %d holds %d", s, *v)
		}
		got = append(got, s)
	}
	want := []uint16{65534, 65535, 0, 1}
	if len(got) != len(want) {
		t.Fatalf("popped %v, want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("popped %v, want %v", got, want)
		}
	}
	if j.Len() != 1 {
		t.Fatalf("%d held, want 1", j.Len())
	}
}

func TestJitterBufferFullDropsOldest(t *testing.T) {
	j := NewJitterBuffer[int](4)
	for s := uint16(10); s < 15; s++ {
		*j.Insert(s) = int(s)
	}
	if j.Len() != 4 {
		t.Fatalf("%d held", j.Len())
	}
	if s, _, _ := j.Pop(100); s != 11 {
		t.Fatalf("oldest popped %d, want 11 (10 dropped)", s)
	}
}

// runClock feeds a playout clock packets sent one per tick (frame = send
// tick) that arrive after delay(frame) ticks, and reports for each tick the
// receiver's frame and how many packets were applied late.
func runClock(t *testing.T, cfg PlayoutConfig, ticks int, delay func(frame int) int) (frames []int, late, perTickMax int) {
	t.Helper()
	c := NewPlayoutClock(cfg)
	j := NewJitterBuffer[int](64)
	arrivals := map[int][]int{}
	for f := 1; f < ticks; f++ {
		if d := delay(f); d >= 0 {
			arrivals[f+d] = append(arrivals[f+d], f)
		}
	}
	for now := 1; now < ticks; now++ {
		for _, f := range arrivals[now] {
			c.Arrived(wire.Tick(now), f)
			*j.Insert(uint16(f)) = f
		}
		if !c.Started() {
			if target, ok := c.Target(wire.Tick(now)); ok {
				c.Start(target)
			}
		} else {
			c.Advance(wire.Tick(now))
		}
		applied := 0
		for {
			_, v, ok := j.Pop(uint16(c.current()))
			if !ok {
				break
			}
			if *v < c.current() {
				late++
			}
			applied++
		}
		if c.Started() {
			perTickMax = max(perTickMax, applied)
		}
		frames = append(frames, c.current())
	}
	return frames, late, perTickMax
}

// jittered is a deterministic delay of 6 ± 2 ticks.
func jittered(f int) int { return 6 + int(uint32(f)*2654435761>>29)%5 - 2 }

// TestPlayoutClockEvensOutJitter: with packets arriving 4..8 ticks after
// they were sent, a 5-frame jitter buffer applies exactly one packet per
// tick and none late; without it, packets are applied in clumps and late.
func TestPlayoutClockEvensOutJitter(t *testing.T) {
	frames, late, clump := runClock(t, PlayoutConfig{DelayFrames: 5, WindowTicks: 120}, 600, jittered)
	if late != 0 || clump != 1 {
		t.Errorf("jitter 5: %d late, up to %d packets per tick", late, clump)
	}
	for k := 1; k < len(frames); k++ {
		if frames[k]-frames[k-1] != 1 && k > 20 {
			t.Fatalf("tick %d: frame moved %d → %d", k, frames[k-1], frames[k])
		}
	}
	// The right shows the left of 4 (fastest) + 5 ticks ago.
	if d := len(frames) - frames[len(frames)-1]; d != 4+5 {
		t.Errorf("delay %d ticks, want 9", d)
	}
	_, late0, clump0 := runClock(t, PlayoutConfig{DelayFrames: 0, WindowTicks: 120}, 600, jittered)
	t.Logf("jitter buffer 5: %d late, ≤ %d per tick; none: %d late, ≤ %d per tick", late, clump, late0, clump0)
	if late0 < 300 || clump0 < 2 {
		t.Errorf("without a jitter buffer: %d late, ≤ %d per tick", late0, clump0)
	}
}

// TestPlayoutClockFollowsChanges: more delay holds the clock one frame per
// tick, less delay double-steps, an outage changes nothing, and a slower
// link is noticed once the fast packets leave the window.
func TestPlayoutClockFollowsChanges(t *testing.T) {
	c := NewPlayoutClock(PlayoutConfig{DelayFrames: 2, WindowTicks: 30})
	now := wire.Tick(0)
	tick := func(arrive bool, latency int) int {
		now++
		if arrive {
			c.Arrived(now, int(now)-latency)
		}
		if !c.Started() {
			target, _ := c.Target(now)
			c.Start(target)
			return 1
		}
		return c.Advance(now)
	}
	for range 10 {
		tick(true, 3)
	}
	if want := int(now) - 3 - 2; c.current() != want {
		t.Fatalf("frame %d, want %d", c.current(), want)
	}
	c.SetDelayFrames(6)
	holds := 0
	for range 10 {
		if tick(true, 3) == 0 {
			holds++
		}
	}
	if holds != 4 || c.current() != int(now)-3-6 {
		t.Fatalf("%d holds, frame %d at %d", holds, c.current(), now)
	}
	c.SetDelayFrames(1)
	doubles := 0
	for range 10 {
		if tick(true, 3) == 2 {
			doubles++
		}
	}
	if doubles != 5 || c.current() != int(now)-3-1 {
		t.Fatalf("%d double steps, frame %d at %d", doubles, c.current(), now)
	}
	// An outage: no packets for 100 ticks, the clock keeps going.
	for range 100 {
		if tick(false, 0) != 1 {
			t.Fatal("the clock changed pace during an outage")
		}
	}
	// The link becomes 4 ticks slower: after the window forgets the fast
	// packets, the clock adds the 4 frames of delay.
	for range 60 {
		tick(true, 7)
	}
	if c.current() != int(now)-7-1 {
		t.Fatalf("frame %d at %d, want %d", c.current(), now, int(now)-8)
	}
}

func TestJitterAllocs(t *testing.T) {
	c := NewPlayoutClock(DefaultPlayoutConfig())
	j := NewJitterBuffer[[64]int](64)
	seq := uint16(0)
	c.Start(0)
	n := testing.AllocsPerRun(100, func() {
		seq++
		c.Arrived(wire.Tick(seq), int(seq)-3)
		j.Insert(seq)
		c.Advance(wire.Tick(seq))
		for {
			if _, _, ok := j.Pop(uint16(c.current())); !ok {
				break
			}
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per tick", n)
	}
}
