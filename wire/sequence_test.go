package wire

import "testing"

func TestSequenceCompare(t *testing.T) {
	tests := []struct {
		a, b    uint16
		greater bool
		diff    int
	}{
		{1, 0, true, 1},
		{0, 1, false, -1},
		{5, 5, false, 0},
		{0, 65535, true, 1}, // the wrap
		{65535, 0, false, -1},
		{2, 65534, true, 4},
		{65534, 2, false, -4},
		{32767, 0, true, 32767},     // half the space ahead: still newer
		{32768, 0, false, -32768},   // exactly half: treated as older
		{100, 32868, false, -32768}, // same distance elsewhere
		{40000, 10000, true, 30000},
		{10000, 45000, true, 30536}, // 35000 behind = 30536 ahead
	}
	for _, tc := range tests {
		if got := SequenceGreaterThan(tc.a, tc.b); got != tc.greater {
			t.Errorf("SequenceGreaterThan(%d, %d) = %v", tc.a, tc.b, got)
		}
		if got := SequenceLessThan(tc.b, tc.a); got != tc.greater {
			t.Errorf("SequenceLessThan(%d, %d) = %v", tc.b, tc.a, got)
		}
		if got := SequenceDiff(tc.a, tc.b); got != tc.diff {
			t.Errorf("SequenceDiff(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.diff)
		}
	}
}

// TestFrameOf unwraps sequences around the receiver's frame: behind it
// (also across the 16-bit wrap) is a frame, ahead of it by any distance or
// before frame 0 is not.
func TestFrameOf(t *testing.T) {
	tests := []struct {
		seq   uint16
		now   int
		frame int
		ok    bool
	}{
		{100, 100, 100, true},
		{99, 100, 99, true},
		{101, 100, 101, false},                               // one frame ahead
		{126, 100, 126, false},                               // 26 ahead (the crash)
		{30100, 100, 30100, false},                           // 30,000 ahead
		{65535, 100, -1, false},                              // before frame 0
		{0, 0, 0, true},                                      // the first frame
		{65535, 65536, 65535, true},                          // across the wrap
		{0, 65536, 65536, true},                              // 65536 is sequence 0
		{1, 65536, 65537, false},                             // ahead, across the wrap
		{uint16(70000 - 32768), 70000, 70000 - 32768, true},  // the oldest that unwraps
		{uint16(70000 - 32769), 70000, 70000 + 32767, false}, // older still: reads as ahead
	}
	for _, tc := range tests {
		f, ok := FrameOf(tc.seq, tc.now)
		if f != tc.frame || ok != tc.ok {
			t.Errorf("FrameOf(%d, %d) = %d, %v; want %d, %v", tc.seq, tc.now, f, ok, tc.frame, tc.ok)
		}
	}
}

func TestSequenceBufferBasics(t *testing.T) {
	b := NewSequenceBuffer[int](100)
	if b.Size() != 128 {
		t.Fatalf("size %d, want 100 rounded up to 128", b.Size())
	}
	if _, ok := b.Newest(); ok {
		t.Fatal("empty buffer has a newest entry")
	}
	*b.Insert(10) = 110
	*b.Insert(12) = 112
	if !b.Exists(10) || b.Exists(11) || !b.Exists(12) {
		t.Fatal("Exists wrong")
	}
	if p := b.Find(12); p == nil || *p != 112 {
		t.Fatal("Find(12) wrong")
	}
	if b.Find(11) != nil || b.Find(12+128) != nil {
		t.Fatal("found a sequence never inserted (same slot, other tag)")
	}
	if n, _ := b.Newest(); n != 12 || b.sequence() != 13 {
		t.Fatalf("newest %d, sequence %d", n, b.sequence())
	}
	// A late (older, in-window) insert is accepted and does not move the head.
	*b.Insert(11) = 111
	if !b.Exists(11) || b.sequence() != 13 {
		t.Fatal("late insert")
	}
	b.Remove(11)
	if b.Exists(11) || !b.Exists(10) {
		t.Fatal("Remove")
	}
	// Re-inserting zeroes the entry.
	if p := b.Insert(12); p == nil || *p != 0 {
		t.Fatal("re-insert did not zero the entry")
	}
	b.Reset()
	if b.Exists(10) || b.Exists(12) {
		t.Fatal("Reset kept entries")
	}
}

func TestSequenceBufferStaleAndJumps(t *testing.T) {
	tests := []struct {
		name     string
		first    uint16
		jump     uint16 // then insert first+jump
		probe    uint16 // then try to insert this
		accepted bool
	}{
		{"oldest in window", 1000, 10, 1000 + 10 + 1 - 16, true},
		{"one older than window", 1000, 10, 1000 + 10 - 16, false},
		{"across wrap: oldest in window", 65530, 10, 65530 + 10 + 1 - 16, true},
		{"across wrap: stale", 65530, 10, 65530 + 10 - 16, false},
		{"far stale", 5, 0, 65536 + 5 - 1000, false},
	}
	for _, tc := range tests {
		b := NewSequenceBuffer[int](16)
		b.Insert(tc.first)
		b.Insert(tc.first + tc.jump)
		if b.IsStale(tc.probe) == tc.accepted {
			t.Errorf("%s: IsStale(%d) = %v", tc.name, tc.probe, !tc.accepted)
		}
		if got := b.Insert(tc.probe) != nil; got != tc.accepted {
			t.Errorf("%s: Insert(%d) accepted = %v, want %v", tc.name, tc.probe, got, tc.accepted)
		}
	}

	// Jumping ahead clears the entries skipped over, even those that held
	// older sequences in the same slots.
	b := NewSequenceBuffer[int](16)
	for s := uint16(65530); s != 4; s++ {
		*b.Insert(s) = int(s)
	}
	for s := uint16(65530); s != 4; s++ {
		if p := b.Find(s); p == nil || *p != int(s) {
			t.Fatalf("across wrap: %d missing", s)
		}
	}
	b.Insert(10) // skips 4..9
	for s := uint16(4); s < 10; s++ {
		if b.Exists(s) {
			t.Fatalf("%d exists after a jump over it", s)
		}
	}
	if !b.Exists(0) || !b.Exists(65535) {
		t.Fatal("jump cleared entries it did not skip")
	}
	b.Insert(10 + 100) // jump beyond the whole window clears everything
	for s := uint16(0); s < 110; s++ {
		if b.Exists(s) {
			t.Fatalf("%d survived a jump past the window", s)
		}
	}
	if !b.Exists(110) {
		t.Fatal("110 missing")
	}
}

func TestSequenceBufferLongRun(t *testing.T) {
	// Insert every sequence for three wraps with 25% of them missing; the
	// buffer must always agree with the ground truth over its window.
	b := NewSequenceBuffer[uint16](64)
	rng := NewRNG(1)
	var present [65536]bool
	seq := uint16(60000)
	for i := range 3 * 65536 {
		if rng.Float64() < 0.75 {
			*b.Insert(seq) = seq
			present[seq] = true
		} else {
			present[seq] = false
		}
		if i%97 == 0 {
			for k := range uint16(64) {
				s := seq - k
				if i < int(k) {
					break
				}
				if b.Exists(s) != present[s] {
					t.Fatalf("i=%d: Exists(%d) = %v, truth %v", i, s, b.Exists(s), present[s])
				}
			}
		}
		seq++
	}
}

func TestSequenceBufferZeroAllocs(t *testing.T) {
	b := NewSequenceBuffer[sentPacket](256)
	seq := uint16(65000)
	allocs := testing.AllocsPerRun(1000, func() {
		b.Insert(seq).sent = 1
		_ = b.Find(seq - 3)
		_ = b.Exists(seq - 7)
		seq++
	})
	if allocs != 0 {
		t.Fatalf("%v allocs", allocs)
	}
}
