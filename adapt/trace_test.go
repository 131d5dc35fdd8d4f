package adapt

import (
	"math"
	"testing"
)

func TestTrace(t *testing.T) {
	var tr Trace
	// 60 ticks at a round trip of 3, then 60 with a queue of 6 ticks (100
	// ms), then 60 at 3 again; 125 bytes acked a tick (60 kbit/s);
	// value = tick.
	for k := range 180 {
		rtt := int64(3)
		if k >= 60 && k < 120 {
			rtt = 9
		}
		s := Sample{AckedBytes: 125}
		if k%2 == 0 {
			s.RTTs, s.RTTSum = 1, rtt
		}
		tr.Add(s)
		tr.SetValue(float64(k))
	}
	base := tr.BaseRTT(0, 60)
	if base != 3 {
		t.Fatalf("base %v", base)
	}
	q := tr.QueueMs(60, 120, base)
	if len(q) != 30 || q[0] != 100 {
		t.Fatalf("queue %v", q)
	}
	if got := Quantile([]float64{5, 1, 4, 2, 3}, 0.5); got != 3 {
		t.Errorf("median %v", got)
	}
	if got := Quantile([]float64{5, 1, 4, 2, 3}, 0.95); got != 5 {
		t.Errorf("p95 %v", got)
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("quantile of nothing")
	}
	if got := tr.GoodputKbps(0, 180); got != 60 {
		t.Errorf("goodput %v", got)
	}
	if got := tr.QueueSettled(60, 180, base, 50, 20); got != 119 { // tick 119 had no ack: nothing against it
		t.Errorf("settled at %d", got)
	}
	if got := tr.QueueSettled(60, 110, base, 50, 20); got != -1 {
		t.Errorf("settled at %d within the queue", got)
	}
	if got := tr.TicksAbove(0, 180, base, 100); got != 30 {
		t.Errorf("%d ticks at 100 ms or more", got)
	}
	if got := tr.ValueReached(0, 180, 99.5); got != 100 {
		t.Errorf("reached at %d", got)
	}
	if got := tr.MeanValue(0, 10); got != 4.5 {
		t.Errorf("mean %v", got)
	}
}
