package game

import (
	"netcubes/viewmodel"
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

// RTTMeasured reports whether m's RTT rests on enough acks to be shown.
func RTTMeasured(m *viewmodel.Metrics) bool {
	if !m.HasRTT {
		return false
	}
	return m.RTTSamples < 0 || m.RTTSamples >= MinRTTSamples
}

// LossMeasured reports whether m's loss rests on enough judged packets.
// A right process shows the left's figure, whose samples it does not
// know: once the left has an RTT, its loss has been judging packets.
func LossMeasured(m *viewmodel.Metrics) bool {
	if m.LossSamples < 0 {
		return m.HasRTT
	}
	return m.LossSamples >= MinLossSamples
}

// ErrorMeasured reports whether m's error figures (when Valid) can be
// shown: the session's own, measured every tick on the whole view, at
// once; a strategy's own over its last second only once that second holds
// nothing from the start.
func ErrorMeasured(m *viewmodel.Metrics) bool {
	if !m.Valid {
		return false
	}
	return m.ErrorOf == "" || m.ErrorTicks >= OwnErrorSettleTicks
}
