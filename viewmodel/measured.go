package viewmodel

import (
	"fmt"
	"math"

	"netcubes/link"
	"netcubes/wire"
)

// Design note: a figure on stage is read as the truth, so a figure with too
// little behind it must say so instead of showing a number. Right after a
// switch the links start over: the first packet judged lost reads 100 %
// loss, one ack is one RTT sample, and a strategy's own error over its
// last second still holds the second it started in (the 2004 client
// catching up to a server mid-game read 204 cm RMS for a second). These
// rules decide when each figure is "measuring…"; the HUD only draws what
// they say. The link's figures are counted in samples, not ticks, so a
// 10 Hz sender measures as honestly as a 60 Hz one, just later.

// MinRTTSamples is how many acks the RTT must rest on: the first sample
// is one packet's round trip, jitter and all, and the smoothed average
// (wire.EndpointConfig.RTTSmoothing, 0.1 per sample) takes a few more to
// settle.
const MinRTTSamples = 8

// MinLossSamples is how many judged packets the loss must rest on: 30
// measure 5 % loss to about ±4 % (one standard deviation), the most a
// figure read to a tenth of a percent can honestly carry; fewer read 0 %,
// 25 % or 100 % by chance.
const MinLossSamples = 30

// OwnErrorSettleTicks is how long a strategy's own error figures
// (strategy.OwnError, measured over the last second) stay "measuring…"
// after they start: a second for the window to be full, and one more for
// it to hold nothing from the start, when the 2004 client is still
// catching up with a server that has been running.
const OwnErrorSettleTicks = 2 * wire.TicksPerSecond

// RTTMeasured reports whether the RTT rests on enough acks to be shown.
func (m *Metrics) RTTMeasured() bool {
	if !m.HasRTT {
		return false
	}
	return m.RTTSamples < 0 || m.RTTSamples >= MinRTTSamples
}

// LossMeasured reports whether the loss rests on enough judged packets.
// A right process shows the left's figure, whose samples it does not
// know: once the left has an RTT, its loss has been judging packets.
func (m *Metrics) LossMeasured() bool {
	if m.LossSamples < 0 {
		return m.HasRTT
	}
	return m.LossSamples >= MinLossSamples
}

// ErrorMeasured reports whether the error figures (when Valid) can be
// shown: the session's own, measured every tick on the whole view, at
// once; a strategy's own over its last second only once that second holds
// nothing from the start.
func (m *Metrics) ErrorMeasured() bool {
	if !m.Valid {
		return false
	}
	return m.ErrorOf == "" || m.ErrorTicks >= OwnErrorSettleTicks
}

// RTTParts is what the left's smoothed RTT is made of, each part smoothed
// over the same acks with the same weights as the RTT itself, so that they
// add up to RTTms. Only one process, which sees both links, knows them.
type RTTParts struct {
	Known bool
	// LinkMs is the two links' latency, down and up.
	LinkMs float64
	// QueueMs is the wait in a capped link's queue and on its wire, both
	// ways.
	QueueMs float64
	// JitterMs is the rest of the two trips: the links' jitter (below 0
	// when the earliest of the redundant acks is the one that counts), the
	// reorder knob's hold, a TCP-like link's resends.
	JitterMs float64
	// HeldMs is ticks: each end reads its packets once a tick, and the
	// right's ack leaves with its next ack packet (a later one when that
	// one is lost).
	HeldMs float64
}

// DescribeRTT writes the round trip the left measures from acks and, in
// one process, what it is made of, every part named so that the sum is
// the figure: "RTT = 2 × 60 ms on the link +17 ms held for ticks −3 ms
// jitter" under "RTT 114 ms" (a perfect link measures 17 ms, one tick:
// the lesson the audience asked for). The parts are rounded to whole
// milliseconds and jitter, the remainder, takes the rounding, so the
// printed sum is exact. why is the lesson, tail its explanation, dropped
// first when the column is narrow. Before enough acks the figure says
// "measuring…" (RTTMeasured).
func DescribeRTT(m *Metrics, lc link.Config, oneProcess bool) (rtt, why, tail string) {
	if !m.RTTMeasured() {
		return "RTT measuring…", "", ""
	}
	shown := math.Round(m.RTTms)
	rtt = fmt.Sprintf("RTT %.0f ms", shown)
	p := &m.RTTParts
	if !oneProcess || !p.Known {
		return rtt, "", ""
	}
	linkMs, linkText := math.Round(p.LinkMs), fmt.Sprintf("%.0f ms on the links", math.Round(p.LinkMs))
	if lat := math.Round(lc.LatencyMs); math.Abs(p.LinkMs-2*lc.LatencyMs) < 0.5 {
		linkMs, linkText = 2*lat, fmt.Sprintf("2 × %.0f ms on the link", lat)
	}
	queue, held := math.Round(p.QueueMs), math.Round(p.HeldMs)
	jitter := shown - linkMs - queue - held
	why = "RTT = " + linkText + signedTerm(held, "held for ticks")
	if queue != 0 {
		why += signedTerm(queue, "queueing")
	}
	if jitter != 0 {
		name := "jitter"
		if lc.TCPLike {
			name = "jitter and resends"
		}
		why += signedTerm(jitter, name)
	}
	tail = "(each end reads once a tick)"
	if jitter < 0 {
		tail = "(each end reads once a tick; the earliest of an ack's 33 copies counts)"
	}
	return rtt, why, tail
}

// signedTerm writes " +17 ms what" or " −3 ms what": the sign against
// its figure, so a line wrapped between words never leaves a lone "−" at
// the end of a line.
func signedTerm(ms float64, what string) string {
	if ms < 0 {
		return fmt.Sprintf(" −%.0f ms %s", -ms, what)
	}
	return fmt.Sprintf(" +%.0f ms %s", ms, what)
}

// DescribeLoss is the loss key figure and, when it needs one, a note. The
// left measures loss from acks: a packet the right's acks never mention
// counts as lost. On a TCP-like link the link resends what it loses, and
// the acks of packets that arrive late behind a retransmission can come
// too late for the ack window (measured: 5 % link loss read as 10-24 %
// over 20 s, with every packet delivered), so there the figure says
// "unacked" and a note says why it is not loss. (The note does not say
// "nothing is lost": the packet counter under it counts what was lost
// before the link turned TCP-like, and a capped TCP-like link refuses
// what its full send buffer cannot take.) Before enough packets have been
// judged the figure says "measuring…" (LossMeasured).
func DescribeLoss(m *Metrics, lc link.Config) (figure, note, tail string) {
	name, value := "loss", fmt.Sprintf("%.1f %%", 100*m.Loss)
	if !m.LossMeasured() {
		value = "measuring…"
	}
	if lc.TCPLike {
		return "unacked " + value, "TCP-like: acks come late", "(the link resends what it loses)"
	}
	return name + " " + value, "", ""
}
