package snapshot

import (
	"fmt"
	"strings"

	"netcubes/adapt"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: snapshots adapting to the path (package adapt has the
// estimator's design on one slide). Two settings, off by default (the
// articles' figures are for a fixed rate and the fixed delay of three send
// intervals; the bench's tables keep them):
//
//   - CongestionAvoidance: the left measures its own packets and the
//     estimator says when the path pushes back. A snapshot sender has no
//     budget to turn down, only its rate (60, 30, 20, 10 Hz), so on a
//     back-off it drops at once to the highest rate whose bandwidth (the
//     current one, scaled by the rate: delta packets at a lower rate are a
//     little larger, so this errs high and a second back-off may follow)
//     fits the estimate, at least one step. Going up is a probe: after
//     ProbeWaitTicks of clear path it tries the next rate toward the
//     presenter's; a back-off within ProbeGraceTicks of a probe sends it
//     back down and doubles the wait (up to MaxProbeWaitTicks), a probe
//     that holds resets it. The estimator alone cannot say when to go up
//     (it never grows past 1.5 × what the sender uses, and one step up is
//     ×1.5 to ×2), so the probe asks the path itself. The compression
//     level stays the presenter's: it is the articles' lesson, and at 10 Hz
//     a level that does not fit is what the HUD says.
//   - AdaptiveDelay: the right measures the transit of every snapshot and
//     the loss from gaps in their frames, and the delay is (1 + n) ×
//     interval + 2σ + 1 ticks (adapt.SnapshotDelay: n lost snapshots in a
//     row ridden out, σ the jitter), up at once and down slowly
//     (adapt.Hold); the presenter's nudge still adds to it. It applies to
//     the interpolating render modes (linear, hermite): the others have no
//     delay to size.

// Tunables of the rate adaptation.
const (
	// ProbeWaitTicks is how long the path must be clear after a change of
	// rate before the next rate up is tried (1.5 s).
	ProbeWaitTicks = 90
	// MaxProbeWaitTicks bounds the wait after failed probes (8 s: a path
	// that got better is found within that).
	MaxProbeWaitTicks = 8 * wire.TicksPerSecond
	// ProbeGraceTicks: a back-off this soon after a probe means the probe
	// failed (2 s).
	ProbeGraceTicks = 2 * wire.TicksPerSecond
	// adaptMinKbps and adaptMaxKbps bound the estimate: the header of an
	// all-at-rest delta packet at 10 Hz, and more than uncompressed
	// snapshots at 60 Hz.
	adaptMinKbps = 16
	adaptMaxKbps = 100_000
	// maxDelayTransit is the oldest a snapshot may be (ticks since its
	// frame) and still count for the jitter: 10 s.
	maxDelayTransit = 10 * wire.TicksPerSecond
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

// snapshotAdapt is the left's rate adaptation.
type snapshotAdapt struct {
	tr  adapt.Tracker
	est *adapt.Estimator
	ctr sentCounter
	on  bool // congestion avoidance was on last tick
	// observe, when set (the bench), sees every tick's sample.
	observe func(adapt.Sample)
	// simple is the articles' simple congestion avoidance (simple.go).
	simple adapt.SimpleRule
	// chosen is the presenter's rate, the ceiling; applied the rate this
	// adaptation last set (a different Rate means the presenter chose).
	chosen, applied Rate
	changedAt       int // frame of the last change of rate
	probeWait       int
	probeAt         int // frame of the last probe up, −1: none pending
	last            string
	lastAt          int
}

// estimator is the left's estimator, made on first use (the strategy's
// HUD text may be asked for before the session's first Reset).
func (a *snapshotAdapt) estimator() *adapt.Estimator {
	if a.est == nil {
		cfg := adapt.DefaultConfig(adaptMinKbps, adaptMaxKbps)
		cfg.StartKbps = 0 // follow what the sender uses
		a.est = adapt.New(cfg)
		a.tr.Reset()
		a.probeAt, a.probeWait = -1, ProbeWaitTicks
	}
	return a.est
}

func (a *snapshotAdapt) reset(st *Strategy) {
	a.estimator().Reset()
	a.tr.Reset()
	a.on = false
	a.simple.Rule().Reset()
	a.simple.On = false
	if st.cfg.Rate != a.applied || a.chosen == 0 {
		a.chosen = st.cfg.Rate // the presenter's, not one this adaptation set
	}
	st.cfg.Rate, a.applied = a.chosen, a.chosen // a new start from the presenter's rate
	a.changedAt, a.probeWait, a.probeAt = 0, ProbeWaitTicks, -1
	a.last, a.lastAt = "", 0
}

// send is the left's tick: the estimate, the rate, the sender and the
// packet it sent.
func (a *snapshotAdapt) send(st *Strategy, ctx strategy.Context) {
	now := ctx.Frame()
	cfg := &st.cfg
	a.estimator()
	if cfg.Rate != a.applied {
		a.chosen, a.applied = cfg.Rate, cfg.Rate // the presenter chose
	}
	on := cfg.CongestionAvoidance
	switch {
	case on && !a.on:
		a.est.Reset()
		a.changedAt, a.probeWait, a.probeAt = now, ProbeWaitTicks, -1
		a.last = ""
	case !on && a.on:
		a.setRate(cfg, a.chosen, now)
	}
	a.on = on
	sample := a.tr.Tick(now, a.est.LossWaitTicks())
	if a.observe != nil {
		a.observe(sample)
	}
	a.est.Update(sample)
	a.simpleSend(cfg, sample, now)
	if on && !cfg.SimpleCongestion {
		a.adaptRate(cfg, now)
	}
	a.ctr = sentCounter{Context: ctx}
	st.send.send(&a.ctr, cfg)
	if a.ctr.sent {
		a.tr.Sent(now, wire.WireBytes(a.ctr.bytes))
	}
	a.ctr.Context = nil
}

func (a *snapshotAdapt) setRate(cfg *Config, r Rate, now int) {
	cfg.Rate, a.applied, a.changedAt = r, r, now
}

// lower is the next rate down (Rates are in decreasing order), or r at 10 Hz.
func lower(r Rate) Rate {
	if r == Rates[len(Rates)-1] {
		return r
	}
	return r.Next()
}

// adaptRate moves the rate for this tick: down on a back-off, up one step
// as a probe after a clear wait.
func (a *snapshotAdapt) adaptRate(cfg *Config, now int) {
	e := a.est
	if e.State() == adapt.StateBackOff {
		if a.probeAt >= 0 && now-a.probeAt < ProbeGraceTicks {
			a.probeWait = min(a.probeWait*3/2, MaxProbeWaitTicks)
		}
		a.probeAt = -1
		from := cfg.Rate
		sending, fits := e.SendingKbps(), float64(e.Kbps())
		r := lower(from)
		for r != lower(r) && sending*float64(r)/float64(from) > fits {
			r = lower(r)
		}
		a.setRate(cfg, r, now)
		if r != from {
			a.last = fmt.Sprintf("%s: %s → %s (the path ≈ %d kbit/s)", e.Cause(), from, r, e.Kbps())
		} else {
			a.last = fmt.Sprintf("%s: already at %s (the path ≈ %d kbit/s)", e.Cause(), r, e.Kbps())
		}
		a.lastAt = now
		return
	}
	if a.probeAt >= 0 && now-a.probeAt >= ProbeGraceTicks {
		a.probeWait, a.probeAt = ProbeWaitTicks, -1 // the probe held
	}
	clear := e.State() == adapt.StateClear || e.State() == adapt.StateLimited
	if clear && cfg.Rate != a.chosen && now-a.changedAt >= a.probeWait {
		from := cfg.Rate
		a.setRate(cfg, from.Prev(), now)
		a.probeAt = now
		a.last = fmt.Sprintf("clear for %.0f s: %s → %s, probing", float64(a.probeWait)/wire.TicksPerSecond, from, cfg.Rate)
		a.lastAt = now
	}
}

// acked records the ack of the packet seq, received at this tick.
func (a *snapshotAdapt) acked(ctx strategy.Context, seq uint16) {
	if f, ok := wire.FrameOf(seq, ctx.Frame()); ok {
		a.tr.Acked(f, ctx.Frame())
	}
}

// reason is the line for the HUD: the last change of rate for 5 s, else
// what the estimator is doing.
func (a *snapshotAdapt) reason(now int) string {
	if a.last != "" && now-a.lastAt < 5*wire.TicksPerSecond {
		return a.last
	}
	if a.simple.On {
		return a.simpleReason()
	}
	return a.estimator().Reason()
}

// recvAdapt is the right's adaptive delay.
type recvAdapt struct {
	jit   adapt.Jitter
	loss  adapt.Losses
	hold  adapt.Hold
	ticks int // the adaptive delay before the nudge (0: none yet)
	n     int // lost snapshots in a row it rides out
	iv    int // the send interval it was sized for
}

func (a *recvAdapt) reset() { *a = recvAdapt{} }

// arrived measures a snapshot of frame f that arrived at tick now.
func (a *recvAdapt) arrived(now, f, interval int) {
	if f > now || now-f > maxDelayTransit {
		return
	}
	a.jit.Add(now - f)
	a.loss.Arrived(f, interval)
}

// tick sizes the delay for this tick (call once per tick, before update).
func (a *recvAdapt) tick(cfg *Config) {
	if !cfg.AdaptiveDelay || a.jit.Count() < 2 {
		a.ticks = 0
		a.hold.Reset()
		return
	}
	a.iv = cfg.Rate.Interval()
	a.n = adapt.RunsToCover(a.loss.Permille())
	a.ticks = a.hold.Update(adapt.SnapshotDelay(a.iv, a.jit.SigmaMilli(), a.loss.Permille()))
}

// delayTicks is the interpolation delay in force: the adaptive one when it
// applies, nudge included and clamped as DelayTicks clamps, else the
// settings'.
func (r *snapshotReceiver) delayTicks(cfg *Config) int {
	if !cfg.AdaptiveDelay || !cfg.Render.interpolates() || r.ad.ticks == 0 {
		return cfg.DelayTicks()
	}
	return min(max(r.ad.ticks+cfg.DelayNudgeTicks, 0), MaxDelayTicks)
}

// adaptiveDelay reports whether the adaptive delay is in force.
func (st *Strategy) adaptiveDelay() bool {
	return st.cfg.AdaptiveDelay && st.cfg.Render.interpolates() && st.recv.ad.ticks > 0
}

// mode is Mode: the settings, with the rate and delay in force when they
// adapt ("30 of 60 Hz", "delay 117 ms (adaptive)").
func (a *snapshotAdapt) mode(st *Strategy) string {
	out := st.cfg.String()
	if st.cfg.CongestionAvoidance && st.cfg.Rate != a.chosen {
		out = strings.Replace(out, st.cfg.Rate.String(), fmt.Sprintf("%d of %s", int(st.cfg.Rate), a.chosen), 1)
	}
	if st.adaptiveDelay() {
		out = strings.Replace(out, st.cfg.DelayString(), st.delayString(), 1)
	}
	switch {
	case st.cfg.CongestionAvoidance && st.cfg.SimpleCongestion:
		out += " · simple congestion avoidance"
	case st.cfg.CongestionAvoidance:
		out += " · congestion avoidance"
	}
	return out
}

// delayString is the adaptive delay for the HUD: "delay 117 ms (adaptive)".
func (st *Strategy) delayString() string {
	s := fmt.Sprintf("delay %.0f ms (adaptive)", ticksToMs(float64(st.recv.delayTicks(&st.cfg))))
	if st.cfg.DelayNudgeTicks != 0 {
		s += fmt.Sprintf(" (%+d ticks)", st.cfg.DelayNudgeTicks)
	}
	return s
}

// explain is Explain while something adapts, "" otherwise.
func (a *snapshotAdapt) explain(st *Strategy) string {
	switch {
	case st.cfg.CongestionAvoidance && st.cfg.SimpleCongestion:
		return a.simpleExplain()
	case st.cfg.CongestionAvoidance:
		return "Congestion avoidance: " + a.reason(st.send.stats.lastTick) +
			". Queue = RTT − lowest RTT: when it builds, drop to the rate that fits; when clear, probe one rate up."
	case st.adaptiveDelay():
		ad := &st.recv.ad
		return fmt.Sprintf("Adaptive delay %.0f ms = %d × %.0f ms + 2 × %.0f ms jitter + 17 ms (loss %.1f %% measured: %d lost in a row covered); up at once, down after 3 s.",
			ticksToMs(float64(ad.ticks)), 1+ad.n, ticksToMs(float64(ad.iv)), ad.jit.SigmaMs(), float64(ad.loss.Permille())/10, ad.n)
	}
	return ""
}

// facts leads the facts line while something adapts.
func (a *snapshotAdapt) facts(st *Strategy) string {
	out := ""
	switch {
	case st.cfg.CongestionAvoidance && st.cfg.SimpleCongestion:
		out += "simple: " + a.reason(st.send.stats.lastTick) + " · "
	case st.cfg.CongestionAvoidance:
		out += "adaptive: " + a.reason(st.send.stats.lastTick) + " · "
	}
	if st.adaptiveDelay() {
		out += fmt.Sprintf("delay %.0f ms (jitter ±%.0f ms measured) · ", ticksToMs(float64(st.recv.delayTicks(&st.cfg))), st.recv.ad.jit.SigmaMs())
	}
	return out
}

// chosenRate is the presenter's send rate; Rate is the one in force, lower
// under congestion avoidance when the path pushed back.
func (st *Strategy) chosenRate() Rate {
	if st.adapt.chosen == 0 {
		return st.cfg.Rate
	}
	return st.adapt.chosen
}
