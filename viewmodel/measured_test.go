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
// ("RTT 17 ms" on a 0 ms link was a question from the audience), its
// explanation a tail the HUD drops first; with too few acks behind it, it
// says it is measuring (one ack is one packet's round trip).
func TestDescribeRTT(t *testing.T) {
	for _, c := range []struct {
		rtt, lat float64
		has, one bool
		samples  int
		want     string
	}{
		{17, 0, true, true, 20, "RTT 17 ms|RTT = 2 × 0 ms on the link + 1 tick|(packets and acks leave once a tick)"},
		{233, 100, true, true, 20, "RTT 233 ms|RTT = 2 × 100 ms on the link + 2 ticks|(packets and acks leave once a tick)"},
		{33, 0, true, false, 20, "RTT 33 ms||"},
		{150, 100, true, true, 20, "RTT 150 ms||"},
		{0, 0, false, true, 0, "RTT measuring…||"},
		{233, 100, true, true, 1, "RTT measuring…||"},
		{233, 100, true, false, -1, "RTT 233 ms||"},
	} {
		m := &Metrics{RTTms: c.rtt, HasRTT: c.has, RTTSamples: c.samples}
		rtt, why, tail := DescribeRTT(m, link.Config{LatencyMs: c.lat}, c.one)
		if got := rtt + "|" + why + "|" + tail; got != c.want {
			t.Errorf("DescribeRTT(%v ms, link %v ms, %d acks) = %q, want %q", c.rtt, c.lat, c.samples, got, c.want)
		}
	}
}
