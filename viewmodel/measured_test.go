package viewmodel

import (
	"strings"
	"testing"

	"netcubes/link"
)

// TestLossOnTCPLikeLinks: the ack-measured loss is called loss on a lossy
// link, and "unacked" with a note on a TCP-like one, where what the acks
// miss arrived late (the note does not claim that nothing is lost: the
// counter under it may say otherwise). With too few packets judged it
// says it is measuring: one lost packet of one judged read 100 % after a
// switch.
func TestLossOnTCPLikeLinks(t *testing.T) {
	for _, tc := range []struct {
		lc      link.Config
		samples int
		fig     string
		note    bool
	}{
		{link.Config{LossPercent: 5}, 256, "loss 23.8 %", false},
		{link.Config{LossPercent: 5, TCPLike: true}, 256, "unacked 23.8 %", true},
		{link.Config{LossPercent: 5}, 1, "loss measuring…", false},
		{link.Config{LossPercent: 5}, MinLossSamples - 1, "loss measuring…", false},
		{link.Config{LossPercent: 5, TCPLike: true}, 4, "unacked measuring…", true},
	} {
		m := &Metrics{Loss: 0.238, LossSamples: tc.samples}
		fig, note, tail := DescribeLoss(m, tc.lc)
		if fig != tc.fig || (note != "") != tc.note || strings.Contains(note+tail, "nothing is lost") {
			t.Errorf("%+v, %d judged: %q, note %q", tc.lc, tc.samples, fig, note)
		}
	}
}

// TestDescribeRTT: the round trip says what it is made of in one process
// ("RTT 17 ms" on a 0 ms link was a question from the audience), every
// part named so that the printed parts add up to the printed figure (the
// jitter, last, takes the rounding), its explanation a tail the HUD drops
// first; with too few acks behind it, it says it is measuring (one ack is
// one packet's round trip).
func TestDescribeRTT(t *testing.T) {
	const tick = 1000.0 / 60
	for _, c := range []struct {
		rtt, lat float64
		parts    RTTParts
		tcp, one bool
		samples  int
		want     string
	}{
		{tick, 0, RTTParts{Known: true, HeldMs: tick}, false, true, 20,
			"RTT 17 ms|RTT = 2 × 0 ms on the link +17 ms held for ticks|(each end reads once a tick)"},
		{113.6, 60, RTTParts{Known: true, LinkMs: 120, HeldMs: 20.4, JitterMs: -26.8}, false, true, 20,
			"RTT 114 ms|RTT = 2 × 60 ms on the link +20 ms held for ticks −26 ms jitter|(each end reads once a tick; the earliest of an ack's 33 copies counts)"},
		{100.2, 20, RTTParts{Known: true, LinkMs: 40, HeldMs: 19.4, QueueMs: 40.8}, false, true, 20,
			"RTT 100 ms|RTT = 2 × 20 ms on the link +19 ms held for ticks +41 ms queueing|(each end reads once a tick)"},
		{105, 40, RTTParts{Known: true, LinkMs: 90, HeldMs: 24, QueueMs: 1, JitterMs: -10}, false, true, 20,
			"RTT 105 ms|RTT = 90 ms on the links +24 ms held for ticks +1 ms queueing −10 ms jitter|(each end reads once a tick; the earliest of an ack's 33 copies counts)"},
		{200, 40, RTTParts{Known: true, LinkMs: 80, HeldMs: 13, JitterMs: 107}, true, true, 20,
			"RTT 200 ms|RTT = 2 × 40 ms on the link +13 ms held for ticks +107 ms jitter and resends|(each end reads once a tick)"},
		{33, 0, RTTParts{Known: true, HeldMs: 33}, false, false, 20, "RTT 33 ms||"},
		{150, 100, RTTParts{}, false, true, 20, "RTT 150 ms||"},
		{0, 0, RTTParts{}, false, true, 0, "RTT measuring…||"},
		{233, 100, RTTParts{Known: true, LinkMs: 200, HeldMs: 33}, false, true, 1, "RTT measuring…||"},
		{233, 100, RTTParts{}, false, false, -1, "RTT 233 ms||"},
	} {
		m := &Metrics{RTTms: c.rtt, HasRTT: c.samples != 0, RTTSamples: c.samples, RTTParts: c.parts}
		rtt, why, tail := DescribeRTT(m, link.Config{LatencyMs: c.lat, TCPLike: c.tcp}, c.one)
		if got := rtt + "|" + why + "|" + tail; got != c.want {
			t.Errorf("DescribeRTT(%v ms, link %v ms, %+v, %d acks) =\n%q, want\n%q", c.rtt, c.lat, c.parts, c.samples, got, c.want)
		}
	}
}
