package statesync

import (
	"fmt"
	"strings"

	"netcubes/adapt"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: state synchronization adapting to the path (package adapt
// has the estimator's design on one slide). The article: the budget "can
// even be adjusted on the fly … if you detect the connection is having
// difficulty you can reduce the amount of bandwidth sent (congestion
// avoidance) and the quality of state synchronization scales back
// automatically". Two settings, both off by default (the article's
// build-up teaches the fixed budget first, and the bench's tables keep
// their figures):
//
//   - CongestionAvoidance: the left measures its own packets (what it sent,
//     which were acked and when, all of which the session already tells
//     it) and the budget becomes min(setting, estimate). The priority
//     accumulator does the rest: fewer updates per packet, the important
//     cubes still first, the others corrected less often. The estimator
//     runs whether the setting is on or not (the HUD shows the queue it
//     measures either way) and starts over, with a slow start, when the
//     setting is turned on.
//   - AdaptiveJitter: the right measures the transit time of every packet
//     it accepts and sizes the jitter buffer, in frames beyond the fastest
//     transit, as (mean − fastest) + 2σ + 1 (adapt.JitterFrames), up at
//     once and down slowly (adapt.Hold). It applies only while there is a
//     jitter buffer (JitterFrames > 0, build-up step 3 on).

// Limits of the adaptation.
const (
	// MinAdaptKbps is the lowest budget congestion avoidance goes to: at
	// 64 kbit/s a packet still carries the inputs, the player and a few
	// cubes.
	MinAdaptKbps = 64
	// MaxAdaptiveJitterFrames bounds the adaptive jitter buffer (the
	// JitterBuffer holds 64 packets; 20 frames is 333 ms, the "terrible"
	// preset's ±100 ms and then some).
	MaxAdaptiveJitterFrames = 20
)

// sentCounter passes a strategy.Context through and notes the size of the
// packet sent, if any.
type sentCounter struct {
	strategy.Context
	bytes int
	sent  bool
}

// Send implements strategy.Context.
func (c *sentCounter) Send(p strategy.Payload) (int, error) {
	n, err := c.Context.Send(p)
	if err == nil {
		c.bytes, c.sent = n, true
	}
	return n, err
}

// stateSyncAdapt is the adaptation's state on both sides.
type stateSyncAdapt struct {
	// Left.
	tr  adapt.Tracker
	est *adapt.Estimator
	ctr sentCounter
	on  bool // congestion avoidance was in force last tick
	// observe, when set (the bench), sees every tick's sample.
	observe func(adapt.Sample)
	// simple is the articles' simple congestion avoidance (simple.go).
	simple simpleRule
	// Right.
	jit    adapt.Jitter
	hold   adapt.Hold
	frames int // the adaptive jitter buffer, frames (0: not in force)
}

// estimator is the left's estimator, made on first use (the strategy's
// HUD text may be asked for before the session's first Reset).
func (a *stateSyncAdapt) estimator() *adapt.Estimator {
	if a.est == nil {
		a.est = adapt.New(adapt.DefaultConfig(MinAdaptKbps, MaxKbps))
		a.tr.Reset()
	}
	return a.est
}

func (a *stateSyncAdapt) reset(st *Strategy) {
	a.estimator().SetMaxKbps(st.set.BandwidthKbps)
	a.est.Reset()
	a.tr.Reset()
	a.on = st.congestionAvoidance()
	a.simple.Rule().Reset()
	a.simple.On = st.simpleCongestion()
	a.jit.Reset()
	a.hold.Reset()
	a.frames = 0
}

// congestionAvoidance reports whether the budget adapts: the setting, with
// a budget to adapt.
func (st *Strategy) congestionAvoidance() bool {
	return st.set.CongestionAvoidance && st.set.LimitBandwidth
}

// budgetKbps is the budget in force: the setting, or less under congestion
// avoidance.
func (st *Strategy) budgetKbps() int {
	switch {
	case st.simpleCongestion():
		return st.adapt.simple.simpleBudgetKbps(st.set.BandwidthKbps)
	case st.congestionAvoidance():
		return min(st.set.BandwidthKbps, st.adapt.estimator().Kbps())
	}
	return st.set.BandwidthKbps
}

// send is the left's tick: the estimate from the samples so far, the
// sender, and the packet it sent.
func (a *stateSyncAdapt) send(st *Strategy, ctx strategy.Context) {
	now := ctx.Frame()
	a.estimator()
	on := st.congestionAvoidance()
	if on && !a.on {
		a.est.Reset() // a fresh start: the slow start finds the empty path
	}
	a.on = on
	a.est.SetMaxKbps(st.set.BandwidthKbps)
	sample := a.tr.Tick(now, a.est.LossWaitTicks())
	if a.observe != nil {
		a.observe(sample)
	}
	a.est.Update(sample)
	a.simple.update(st, sample)
	a.ctr = sentCounter{Context: ctx}
	st.snd.send(st, &a.ctr)
	if a.ctr.sent {
		a.tr.Sent(now, wire.WireBytes(a.ctr.bytes))
	}
	a.ctr.Context = nil
}

// acked records the ack of the packet seq, received at this tick.
func (a *stateSyncAdapt) acked(ctx strategy.Context, seq uint16) {
	if f, ok := wire.FrameOf(seq, ctx.Frame()); ok {
		a.tr.Acked(f, ctx.Frame())
	}
}

// arrived measures the transit of a packet the right accepted.
func (a *stateSyncAdapt) arrived(ctx strategy.Context, seq uint16) {
	now := ctx.Frame()
	if f, ok := wire.FrameOf(seq, now); ok && now-f <= maxClockTransit {
		a.jit.Add(now - f)
	}
}

// sizeJitterBuffer sets the playout clock's delay for this tick: adaptive
// when the setting says so and there is something measured, else the
// setting.
func (a *stateSyncAdapt) sizeJitterBuffer(st *Strategy) {
	c := st.rcv.clock
	fastest, ok := c.Transit()
	if !st.set.AdaptiveJitter || st.set.JitterFrames == 0 || !ok || a.jit.Count() == 0 {
		if a.frames != 0 {
			a.frames = 0
			a.hold.Reset()
			c.SetDelayFrames(st.set.JitterFrames)
		}
		return
	}
	want := adapt.JitterFrames(a.jit.MeanMilli(), fastest, a.jit.SigmaMilli())
	a.frames = a.hold.Update(min(want, MaxAdaptiveJitterFrames))
	c.SetDelayFrames(a.frames)
}

// jitterFrames is the jitter buffer in force, frames.
func (st *Strategy) jitterFrames() int {
	if st.adapt.frames > 0 {
		return st.adapt.frames
	}
	return st.set.JitterFrames
}

// mode is Mode: the settings' line, with the budget and the jitter buffer
// in force when they adapt ("211 of 512 kbit/s", "jitter 7 (adaptive)").
func (a *stateSyncAdapt) mode(st *Strategy) string {
	out := st.mode
	if st.congestionAvoidance() {
		bw := st.set.BandwidthString()
		out = strings.Replace(out, bw, fmt.Sprintf("%d of %s", st.budgetKbps(), bw), 1)
	}
	if a.frames > 0 {
		out = strings.Replace(out, st.set.JitterString(), fmt.Sprintf("jitter %d (adaptive)", a.frames), 1)
	}
	return out
}

// explain is Explain under congestion avoidance or an adaptive jitter
// buffer: what it is doing and the rule, or "" when neither is on.
func (a *stateSyncAdapt) explain(st *Strategy) string {
	switch {
	case st.simpleCongestion():
		return a.simple.explain(st.set.BandwidthKbps)
	case st.congestionAvoidance():
		return "Congestion avoidance: " + a.estimator().Reason() +
			". Queue = RTT − lowest RTT: above the target, back off to 0.85 × what the acks say gets through; below, grow slowly."
	case a.frames > 0:
		return fmt.Sprintf("Adaptive jitter buffer: %d frames = (mean − fastest transit) + 2σ + 1, jitter ±%.0f ms measured; up at once, down after 3 s.",
			a.frames, a.jit.SigmaMs())
	}
	return ""
}

// facts leads the facts line while something adapts: the estimator's
// reason and the jitter buffer's figures.
func (a *stateSyncAdapt) facts(st *Strategy) string {
	out := ""
	switch {
	case st.simpleCongestion():
		out += "simple: " + a.simple.reason(st.set.BandwidthKbps) + " · "
	case st.congestionAvoidance():
		out += "adaptive: " + a.estimator().Reason() + " · "
	}
	if a.frames > 0 {
		out += fmt.Sprintf("delay %.0f ms (jitter ±%.0f ms measured) · ", float64(a.frames)*1000/wire.TicksPerSecond, a.jit.SigmaMs())
	}
	return out
}

// Estimator is the congestion estimator of the left (for the bench and
// tests).
func (st *Strategy) Estimator() *adapt.Estimator { return st.adapt.estimator() }

// JitterBufferFrames is the jitter buffer in force on the right, frames:
// the setting, or the adaptive size.
func (st *Strategy) JitterBufferFrames() int { return st.jitterFrames() }
