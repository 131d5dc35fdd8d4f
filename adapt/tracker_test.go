package adapt

import "testing"

func TestTracker(t *testing.T) {
	var tr Tracker
	tr.Reset()
	tr.Sent(10, 100)
	tr.Sent(11, 200)
	tr.Sent(12, 300)
	s := tr.Tick(12, 5)
	if s.Sent != 3 || s.SentBytes != 600 || s.Acked != 0 || s.Lost != 0 || s.Tick != 12 {
		t.Fatalf("tick 12: %+v", s)
	}
	tr.Acked(11, 15) // RTT 4
	tr.Acked(11, 15) // twice: ignored
	tr.Acked(99, 15) // never sent (and in the future): ignored
	tr.Acked(3, 15)  // never sent: ignored
	s = tr.Tick(15, 5)
	if s.Acked != 1 || s.AckedBytes != 200 || s.RTTs != 1 || s.RTTSum != 4 || s.RTTSumSq != 16 || s.Lost != 1 {
		t.Fatalf("tick 15: %+v (frame 10 waited 5 ticks: lost)", s)
	}
	// Frame 12 is judged at tick 17; its ack at 20 is late: bytes and
	// round trip count, the loss stays counted.
	if s = tr.Tick(16, 5); s.Lost != 0 {
		t.Fatalf("tick 16: %+v", s)
	}
	if s = tr.Tick(17, 5); s.Lost != 1 {
		t.Fatalf("tick 17: %+v", s)
	}
	tr.Acked(12, 20)
	if s = tr.Tick(20, 5); s.Acked != 1 || s.AckedBytes != 300 || s.RTTSum != 8 || s.Lost != 0 {
		t.Fatalf("tick 20: %+v", s)
	}
	// A jump in time (a strategy switched on late, or a long pause) costs
	// no more than the ring, and judges what it holds.
	tr.Sent(21, 50)
	if s = tr.Tick(1_000_000, 5); s.Lost != 1 || s.Sent != 1 {
		t.Fatalf("after a jump: %+v", s)
	}
	tr.Sent(1_000_000, 70)
	tr.Acked(1_000_000, 1_000_002)
	if s = tr.Tick(1_000_002, 5); s.Acked != 1 || s.RTTSum != 2 {
		t.Fatalf("after the jump: %+v", s)
	}
}

func TestTrackerEvictsUnjudged(t *testing.T) {
	var tr Tracker
	tr.Reset()
	tr.Sent(0, 10)
	// Its slot is reused TrackerTicks later, before any Tick judged it.
	tr.Sent(TrackerTicks, 10)
	if s := tr.Tick(TrackerTicks, 1000); s.Lost != 1 || s.Sent != 2 {
		t.Fatalf("%+v", s)
	}
}
