package adapt

import (
	"errors"
	"fmt"
	"math/bits"

	"netcubes/internal/valid"
	"netcubes/wire"
)

// Design note: congestion avoidance on one slide. The state sync article
// says the budget "can even be adjusted on the fly … if you detect the
// connection is having difficulty you can reduce the amount of bandwidth
// sent (congestion avoidance) … if the network connection seems like it
// should be able to handle more bandwidth later on then you can raise the
// bandwidth limit." How to detect it, from three designs that work:
//
//   - LEDBAT (RFC 6817) watches the queueing delay: the delay now minus the
//     lowest delay seen (the "base", the empty path), and keeps it under a
//     target (100 ms), backing off when above and growing gently below.
//   - WebRTC's congestion control (GCC, draft-ietf-rmcat-gcc) is delay-based
//     too (a delay that keeps growing means a queue filling), bounded by
//     loss; when it backs off, it sets the rate to 0.85 × the rate that is
//     actually getting through, not to a fraction of its own rate, and it
//     never lets its estimate exceed 1.5 × that received rate.
//   - BBR measures the bottleneck directly: the rate at which acks come
//     back is the rate the path delivers, and the lowest round trip over a
//     few seconds is the path without a queue.
//
// Ours takes one idea from each, and decides every tick:
//
//	q = RTT now − base RTT           RTT now: mean of the last 133 ms;
//	                                 base: lowest 250-ms mean of the last 5 s
//	D = bytes acked per second       over the last 333 ms: what gets through
//	q > target and q growing         → rate = 0.85 × D ("queue building"),
//	  (or loss ≥ 10 % at a queue)      lower if the queue is deep (to drain
//	                                   it in 0.5 s, at least 0.5 × D), but
//	                                   at most halved; then hold for a
//	                                   round trip
//	q > target, not growing          → hold (the queue drains, or the path
//	                                   got slower: after 2 s steady, re-base)
//	start                            → slow start: from 128 kbit/s, doubling
//	                                   each second until a queue shows (so
//	                                   the base is seen on an empty path)
//	q ≤ target                       → increase: +50 %/s far below the rate
//	                                   of the last back-off, +8 %/s near and
//	                                   past it, +25 %/s once it is 5 s old
//	                                   (GCC's multiplicative and additive
//	                                   regions);
//	                                   never above 1.5 × D (do not grow
//	                                   while the sender does not use it)
//	                                   nor above the setting.
//
// Loss alone is not congestion: a drop-tail queue drops only when it is
// full, which the delay shows first, while wireless and random loss comes
// with no queue at all (the "terrible" and "intercontinental" presets):
// backing off for those would starve the sender for nothing. Loss counts
// when the delay also says there is a queue.
//
// The target is 50 ms of queueing, or more on a jittery path: four times
// the noise of a 250-ms mean of round trips (the spread of the samples
// over √n), so the jitter of the "terrible" preset (±100 ms each way) is
// not mistaken for a queue. A queue that keeps growing past twice the
// target is cut whatever the noise.
//
// Everything is integer arithmetic on ticks and bits per second, with no
// wall clock and no map: the same samples give the same rates on every
// machine, so a run that adapts repeats bit for bit.

// Config tunes an Estimator. Rates are kbit/s on the wire (IP and UDP
// headers included), times ticks or milliseconds as named.
type Config struct {
	// MinKbps and MaxKbps bound the rate. Max is the sender's own limit
	// (state sync's budget setting): the estimate never asks for more.
	MinKbps, MaxKbps int
	// StartKbps is the rate before anything is known. It grows by
	// StartupPermille per second until the first back-off (a slow start:
	// starting at the setting into a narrower path would fill its queue
	// before the empty path's round trip is known, and a full queue that
	// never drains looks like a slow path, not like a queue). 0 starts
	// from MinKbps and follows 1.5 × the delivery rate up instead (a
	// sender whose own demand sets its rate: snapshots).
	StartKbps int
	// StartupPermille is the growth per second before the first back-off
	// (1000: doubling every second).
	StartupPermille int
	// TargetMs is the queueing delay the estimator keeps under (LEDBAT's
	// target is 100 ms at most; a game wants less). Lower reacts sooner
	// but mistakes jitter for queueing more often.
	TargetMs int
	// NoiseFactor scales the noise of the RTT mean into a higher target on
	// jittery paths (0: the target is fixed). The lowest of BaseBuckets
	// means lies about 2 noise units below their average already.
	NoiseFactor int
	// BucketTicks is the span of the RTT means the base is the lowest of
	// (15: 250 ms). Longer averages out jitter, but needs a longer empty
	// queue to see the base.
	BucketTicks int
	// CurrentTicks is the span of the mean RTT "now" (8: 133 ms). Longer
	// averages out jitter (the target rises with the noise of a short
	// mean), but notices a queue later.
	CurrentTicks int
	// BaseBuckets is how many buckets the base RTT is the lowest of (20: 5
	// s). Longer remembers the empty path through longer queues; shorter
	// follows a path that got slower sooner.
	BaseBuckets int
	// RateWindowTicks is the span over which the send and delivery rates
	// are measured (20: 333 ms).
	RateWindowTicks int
	// LossWindowTicks is the span of the loss figure (60: 1 s).
	LossWindowTicks int
	// DecreasePercent is the back-off: the new rate as a share of the
	// delivery rate (GCC's 85). Lower drains a queue faster and wastes more.
	DecreasePercent int
	// DrainMs: a back-off from a deep queue goes lower still, so that the
	// queue above the target drains in about this long (BBR drains the
	// queue its start-up built the same way), but never below half the
	// delivery rate.
	DrainMs int
	// LossPercent is the loss above the empty path's (the lowest 1-s loss
	// of the base window) that, with a queue, counts as congestion.
	LossPercent int
	// Increases in permille per second, in the ForgetTicks after a
	// back-off: below the band under its delivery rate (Recover), from it
	// on (Probe); else, with no recent back-off (Explore).
	RecoverPermille, ProbePermille, ExplorePermille int
	// NearPercent: the band is 2 × NearPercent below the last back-off's
	// delivery rate.
	NearPercent int
	// ForgetTicks is how long after a back-off its rate matters (the path
	// may have changed since): then the rate explores.
	ForgetTicks int
	// BoundPercent caps the rate at this share of the delivery rate (GCC's
	// 150), so an estimate cannot run away while the sender sends less.
	BoundPercent int
	// ConfirmTicks is how long the queueing delay must stay above the
	// target before it counts (4: 67 ms), unless it is above twice the
	// target: a single noisy mean is not a queue.
	ConfirmTicks int
	// SteadyTicks is how long a queueing delay above target that neither
	// grows nor drains lasts before it is taken as the path's new base.
	SteadyTicks int
}

// DefaultConfig is the estimator the strategies use, for a sender limited
// to maxKbps.
func DefaultConfig(minKbps, maxKbps int) Config {
	return Config{
		MinKbps:         minKbps,
		MaxKbps:         maxKbps,
		StartKbps:       min(maxKbps, 128),
		StartupPermille: 1000,
		TargetMs:        50,
		NoiseFactor:     6,
		BucketTicks:     15,
		CurrentTicks:    8,
		BaseBuckets:     20,
		RateWindowTicks: 20,
		LossWindowTicks: 60,
		DecreasePercent: 85,
		DrainMs:         500,
		LossPercent:     10,
		RecoverPermille: 500,
		ProbePermille:   80,
		ExplorePermille: 250,
		NearPercent:     10,
		ForgetTicks:     5 * wire.TicksPerSecond,
		BoundPercent:    150,
		SteadyTicks:     2 * wire.TicksPerSecond,
		ConfirmTicks:    4,
	}
}

// State is what the estimator is doing.
type State uint8

const (
	StateStarting   State = iota // no round trip measured yet
	StateClear                   // no queue: the rate may grow
	StateLimited                 // no queue, but the sender uses less than the rate allows
	StateBackOff                 // a queue (or loss at one) was seen: the rate was cut
	StateHold                    // waiting a round trip after a back-off to see its effect
	StateDraining                // queueing above target, shrinking
	StateSteady                  // queueing above target, neither growing nor shrinking
	StateNoFeedback              // no ack for a while: nothing to decide on
)

var stateNames = [...]string{"starting", "clear", "app-limited", "backing off", "holding", "queue draining", "steady delay", "no acks"}

// String names the state.
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "unknown"
}

// ringTicks is the span of the estimator's per-tick history: more than any
// window it looks back over (a bucket, the rate windows, a round trip).
const ringTicks = 256

// milli is the fixed point of round trips: milli-ticks.
const milli = 1000

// warmBuckets is how many buckets of samples are skipped before the base
// RTT and any decision: the first acks to come back are those of the
// fastest packets (the slower ones sent at the same time are still on
// their way), so their mean is lower than the path's and would make a
// queue of plain jitter.
const warmBuckets = 2

// tickRecord is one tick of the estimator's history.
type tickRecord struct {
	sentBytes, ackedBytes int64
	acked, lost           int
	rtts                  int
	rttSum, rttSumSq      int64
	q                     int64 // queueing delay measured that tick, milli-ticks (−1: none)
}

// event is the last decision worth a line on the HUD.
type event struct {
	tick     int
	state    State
	from, to int64 // bit/s
	qMs      int64
	lossPct  int
}

// Estimator turns per-tick samples of a sender's packets into the rate the
// path can carry. It never allocates after New.
type Estimator struct {
	cfg Config

	ring    [ringTicks]tickRecord
	now     int
	started bool
	first   int // first tick sampled

	// Base RTT: the mean RTT of each complete bucket, newest last; and the
	// loss of the second before each, for the loss on the empty path.
	buckets    []int64 // milli-ticks; −1: no sample
	losses     []int   // permille; −1: none
	bucketSum  int64
	bucketN    int
	bucketTick int // ticks into the current bucket
	warm       int // buckets with samples closed (the first are skipped)

	spread    int64 // smoothed spread (σ) of the RTT samples, milli-ticks ×16 (−1: none yet)
	above     int   // consecutive ticks with the queueing delay above target
	rate      int64 // bit/s
	cutRate   int64 // delivery rate at the last back-off (0: none yet)
	cutTick   int
	holdUntil int
	steady    int // ticks of steady queueing
	state     State
	last      event

	// The latest figures, for the HUD.
	qMilli, baseMilli, curMilli, targetMilli int64
	delivery, sending                        int64 // bit/s
	lossPermille                             int
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("adapt: invalid config")

// Validate reports the first field out of its range, naming it, its value
// and the range (the error wraps ErrInvalidConfig). 0 is in every range
// but the rates': it means DefaultConfig's value.
func (c Config) Validate() error {
	const most = valid.Finite
	f := func(name string, v int, hi float64) valid.Field {
		return valid.Field{Name: name, V: float64(v), Hi: hi}
	}
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "MinKbps", V: float64(c.MinKbps), Lo: 1, Hi: most},
		valid.Field{Name: "MaxKbps", V: float64(c.MaxKbps), Lo: float64(c.MinKbps), Hi: most},
		f("StartKbps", c.StartKbps, most), f("StartupPermille", c.StartupPermille, most),
		f("TargetMs", c.TargetMs, most), f("NoiseFactor", c.NoiseFactor, most),
		f("BucketTicks", c.BucketTicks, ringTicks/4), f("CurrentTicks", c.CurrentTicks, ringTicks/4),
		f("BaseBuckets", c.BaseBuckets, most),
		f("RateWindowTicks", c.RateWindowTicks, ringTicks/2), f("LossWindowTicks", c.LossWindowTicks, ringTicks/2),
		f("DecreasePercent", c.DecreasePercent, 100), f("DrainMs", c.DrainMs, most),
		f("LossPercent", c.LossPercent, 100), f("RecoverPermille", c.RecoverPermille, most),
		f("ProbePermille", c.ProbePermille, most), f("ExplorePermille", c.ExplorePermille, most),
		f("NearPercent", c.NearPercent, 100), f("ForgetTicks", c.ForgetTicks, most),
		f("BoundPercent", c.BoundPercent, most), f("ConfirmTicks", c.ConfirmTicks, most),
		f("SteadyTicks", c.SteadyTicks, most),
	)
}

// New returns an estimator with cfg (zero fields take DefaultConfig's).
// cfg must be valid (Validate): an invalid one is a programming error and
// panics.
func New(cfg Config) *Estimator {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	d := DefaultConfig(cfg.MinKbps, cfg.MaxKbps)
	fill := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	fill(&cfg.TargetMs, d.TargetMs)
	fill(&cfg.BucketTicks, d.BucketTicks)
	fill(&cfg.CurrentTicks, d.CurrentTicks)
	fill(&cfg.BaseBuckets, d.BaseBuckets)
	fill(&cfg.RateWindowTicks, d.RateWindowTicks)
	fill(&cfg.LossWindowTicks, d.LossWindowTicks)
	fill(&cfg.DecreasePercent, d.DecreasePercent)
	fill(&cfg.DrainMs, d.DrainMs)
	fill(&cfg.LossPercent, d.LossPercent)
	fill(&cfg.RecoverPermille, d.RecoverPermille)
	fill(&cfg.ProbePermille, d.ProbePermille)
	fill(&cfg.ExplorePermille, d.ExplorePermille)
	fill(&cfg.NearPercent, d.NearPercent)
	fill(&cfg.ForgetTicks, d.ForgetTicks)
	fill(&cfg.BoundPercent, d.BoundPercent)
	fill(&cfg.SteadyTicks, d.SteadyTicks)
	fill(&cfg.ConfirmTicks, d.ConfirmTicks)
	fill(&cfg.StartupPermille, d.StartupPermille)
	e := &Estimator{cfg: cfg, buckets: make([]int64, cfg.BaseBuckets), losses: make([]int, cfg.BaseBuckets)}
	e.Reset()
	return e
}

// Reset forgets everything: the rate starts again from StartKbps.
func (e *Estimator) Reset() {
	e.ring = [ringTicks]tickRecord{}
	for i := range e.ring {
		e.ring[i].q = -1
	}
	for i := range e.buckets {
		e.buckets[i], e.losses[i] = -1, -1
	}
	e.bucketSum, e.bucketN, e.bucketTick, e.warm = 0, 0, 0, 0
	e.spread, e.above = -1, 0
	e.started = false
	e.rate = int64(e.cfg.MinKbps) * 1000
	if e.cfg.StartKbps > 0 {
		e.rate = int64(min(max(e.cfg.StartKbps, e.cfg.MinKbps), e.cfg.MaxKbps)) * 1000
	}
	e.cutRate, e.cutTick, e.holdUntil, e.steady = 0, 0, 0, 0
	e.state = StateStarting
	e.last = event{state: StateStarting}
	e.qMilli, e.baseMilli, e.curMilli, e.targetMilli = 0, 0, 0, 0
	e.delivery, e.sending, e.lossPermille = 0, 0, 0
}

// SetMaxKbps changes the sender's own limit (the presenter moved the
// budget): the rate is clamped to it at once and may grow to it.
func (e *Estimator) SetMaxKbps(kbps int) {
	e.cfg.MaxKbps = max(kbps, e.cfg.MinKbps)
	e.rate = min(e.rate, int64(e.cfg.MaxKbps)*1000)
}

// Kbps is the rate the path is estimated to carry, kbit/s.
func (e *Estimator) Kbps() int { return int(e.rate / 1000) }

// State is what the estimator is doing now.
func (e *Estimator) State() State { return e.state }

// QueueMs is the queueing delay measured (RTT now − base RTT), ms.
func (e *Estimator) QueueMs() float64 { return milliToMs(e.qMilli) }

// SendingKbps is the rate the sender sent at over the last rate window,
// kbit/s.
func (e *Estimator) SendingKbps() float64 { return float64(e.sending) / 1000 }

// LossWaitTicks is how long the tracker should wait for an ack before
// judging a packet lost: twice the round trip measured now, at least 15
// ticks (250 ms), so a queue's delay is not taken for loss; 2 s before
// the first round trip.
func (e *Estimator) LossWaitTicks() int {
	if e.curMilli == 0 {
		return 2 * wire.TicksPerSecond // no round trip yet: be patient
	}
	return max(15, int(2*e.curMilli/milli)+2)
}

func milliToMs(m int64) float64 { return float64(m) * 1000 / wire.TicksPerSecond / milli }

// msToMilli converts milliseconds to milli-ticks.
func msToMilli(ms int) int64 { return int64(ms) * wire.TicksPerSecond }

// Reason says what the estimator did last and why, for the HUD:
// "queue building (q 180 ms): 380 → 240 kbit/s".
func (e *Estimator) Reason() string {
	ev := e.last
	switch e.state {
	case StateStarting:
		return fmt.Sprintf("starting at %d kbit/s: no round trip yet", e.Kbps())
	case StateClear:
		if e.cutRate == 0 && e.rate < int64(e.cfg.MaxKbps)*1000 {
			return fmt.Sprintf("slow start: %d kbit/s, doubling until a queue shows", e.Kbps())
		}
	case StateNoFeedback:
		return fmt.Sprintf("no acks: holding %d kbit/s", e.Kbps())
	case StateBackOff, StateHold:
		if ev.state == StateBackOff {
			return fmt.Sprintf("%s: %d → %d kbit/s", e.Cause(), ev.from/1000, ev.to/1000)
		}
	case StateDraining:
		return fmt.Sprintf("queue draining (%.0f ms): holding %d kbit/s", e.QueueMs(), e.Kbps())
	case StateSteady:
		return fmt.Sprintf("delay +%.0f ms, steady: holding %d kbit/s", e.QueueMs(), e.Kbps())
	case StateLimited:
		return fmt.Sprintf("clear: %d kbit/s (sender uses %.0f)", e.Kbps(), float64(e.sending)/1000)
	}
	if e.rate >= int64(e.cfg.MaxKbps)*1000 {
		return fmt.Sprintf("clear: at the limit, %d kbit/s", e.Kbps())
	}
	return fmt.Sprintf("clear: rising, %d kbit/s", e.Kbps())
}

// Cause says why the last back-off happened ("queue building (180 ms)",
// "loss 12 % at a queue"), or "" before any.
func (e *Estimator) Cause() string {
	ev := e.last
	switch {
	case ev.state != StateBackOff:
		return ""
	case ev.lossPct >= e.cfg.LossPercent:
		return fmt.Sprintf("loss %d %% at a queue", ev.lossPct)
	}
	return fmt.Sprintf("queue building (%d ms)", ev.qMs)
}

// Update feeds one tick's sample (ticks in increasing order; a gap counts
// as ticks without packets or acks) and decides the rate.
func (e *Estimator) Update(s Sample) {
	if s.Tick < 0 {
		return // frames are never negative
	}
	if !e.started {
		e.started, e.first, e.now = true, s.Tick, s.Tick-1
	}
	if s.Tick <= e.now {
		return
	}
	if s.Tick-e.now > ringTicks {
		// A long silence: only the last ringTicks of it are worth
		// recording (as empty ticks), and the history before it is gone.
		e.now = s.Tick - ringTicks - 1
		e.first = max(e.first, e.now+1)
	}
	for e.now+1 < s.Tick {
		e.record(e.now+1, Sample{})
	}
	e.record(s.Tick, s)
	e.decide()
}

// record advances to tick t with sample s: the history ring and the
// buckets of the base RTT.
func (e *Estimator) record(t int, s Sample) {
	e.now = t
	r := &e.ring[t%ringTicks]
	*r = tickRecord{
		sentBytes: int64(s.SentBytes), ackedBytes: int64(s.AckedBytes),
		acked: s.Acked, lost: s.Lost,
		rtts: s.RTTs, rttSum: s.RTTSum, rttSumSq: s.RTTSumSq, q: -1,
	}
	e.bucketSum += s.RTTSum
	e.bucketN += s.RTTs
	e.bucketTick++
	if e.bucketTick == e.cfg.BucketTicks {
		copy(e.buckets, e.buckets[1:])
		mean := int64(-1)
		if e.bucketN > 0 {
			e.warm++
			if e.warm > warmBuckets {
				mean = e.bucketSum * milli / int64(e.bucketN)
			}
		}
		e.buckets[len(e.buckets)-1] = mean
		copy(e.losses, e.losses[1:])
		e.losses[len(e.losses)-1] = -1
		if lw := e.window(t, e.cfg.LossWindowTicks); lw.acked+lw.lost >= 10 {
			e.losses[len(e.losses)-1] = lw.lost * 1000 / (lw.acked + lw.lost)
		}
		e.bucketSum, e.bucketN, e.bucketTick = 0, 0, 0
	}
}

// window sums the ring over the last n ticks ending at tick end.
func (e *Estimator) window(end, n int) (r tickRecord) {
	n = min(n, end-e.first+1, ringTicks)
	for t := end - n + 1; t <= end; t++ {
		x := &e.ring[t%ringTicks]
		r.sentBytes += x.sentBytes
		r.ackedBytes += x.ackedBytes
		r.acked += x.acked
		r.lost += x.lost
		r.rtts += x.rtts
		r.rttSum += x.rttSum
		r.rttSumSq += x.rttSumSq
	}
	return r
}

// bitsPerSecond is bytes over n ticks as a rate.
func bitsPerSecond(bytes int64, n int) int64 {
	return bytes * 8 * wire.TicksPerSecond / int64(max(n, 1))
}

// decide measures and decides the rate for the tick just recorded.
func (e *Estimator) decide() {
	cfg := &e.cfg
	now := e.now
	span := min(cfg.RateWindowTicks, now-e.first+1)
	rw := e.window(now, cfg.RateWindowTicks)
	e.sending = bitsPerSecond(rw.sentBytes, span)
	e.delivery = bitsPerSecond(rw.ackedBytes, span)
	lw := e.window(now, cfg.LossWindowTicks)
	e.lossPermille = 0
	if judged := lw.acked + lw.lost; judged > 0 {
		e.lossPermille = lw.lost * 1000 / judged
	}

	// The round trip now: the mean of the last CurrentTicks of samples.
	bw := e.window(now, cfg.CurrentTicks)
	if bw.rtts == 0 {
		if e.state != StateStarting {
			e.state = StateNoFeedback
		}
		return
	}
	cur := bw.rttSum * milli / int64(bw.rtts)
	base := cur
	for _, b := range e.buckets {
		if b >= 0 && b < base {
			base = b
		}
	}
	q := cur - base
	e.curMilli, e.baseMilli, e.qMilli = cur, base, q
	e.ring[now%ringTicks].q = q

	// The target: 50 ms, or NoiseFactor × the noise of the mean RTT,
	// whichever is larger. The noise is the samples' spread (smoothed over
	// a few seconds of clear path) over √n, n the samples in the mean now
	// (fewer during a loss burst: a noisier mean). The lowest of 20 means
	// lies about two noise units below their average, so 6 leave 4
	// between jitter and a queue.
	target := msToMilli(cfg.TargetMs)
	n := int64(bw.rtts)
	if n > 1 && (e.state == StateClear || e.state == StateLimited || e.state == StateStarting || e.spread < 0) {
		// Variance of the samples in ticks², ×milli² to stay integer.
		v := (bw.rttSumSq*n - bw.rttSum*bw.rttSum) * milli * milli / (n * n)
		spread := isqrt(max(v, 0)) * 16
		if e.spread < 0 {
			e.spread = spread
		}
		e.spread += (spread - e.spread) / 64
	}
	if cfg.NoiseFactor > 0 && e.spread > 0 {
		noise := e.spread * milli / (16 * isqrt(n*milli*milli))
		target = max(target, int64(cfg.NoiseFactor)*noise)
	}
	e.targetMilli = target

	// Loss counts above the loss of the empty path: the lowest 1-s loss
	// figure of the base window.
	floor := e.lossPermille
	for _, l := range e.losses {
		if l >= 0 && l < floor {
			floor = l
		}
	}
	lossy := e.lossPermille-floor >= cfg.LossPercent*10

	// Growing or draining: more (less) queue than a round trip and a
	// window ago, by a tick.
	back := int(cur/milli) + cfg.CurrentTicks
	prev := int64(-1)
	if back < ringTicks && now-back >= e.first {
		prev = e.ring[(now-back)%ringTicks].q
	}
	growing := prev >= 0 && q >= prev+milli
	draining := prev >= 0 && q <= prev-milli

	if e.warm <= warmBuckets {
		return // still StateStarting
	}
	if e.state == StateStarting {
		e.state = StateClear
	}
	if now < e.holdUntil {
		e.state = StateHold
		return
	}
	if q > target {
		e.above++
	} else {
		e.above = 0
	}
	switch {
	case q <= target:
		e.steady = 0
		e.increase()
	case e.above < cfg.ConfirmTicks && q <= 2*target:
		e.state = StateClear // not yet: one mean above the target may be jitter
	case draining:
		e.state, e.steady = StateDraining, 0
	case growing || lossy:
		// A queue that grows, or drops packets.
		e.backOff(q)
	default:
		e.state = StateSteady
		e.steady++
		if e.steady >= cfg.SteadyTicks {
			// The path got slower (a longer route, another preset): what
			// looked like queueing is its new base.
			for i := range e.buckets {
				e.buckets[i] = -1
			}
			e.steady = 0
		}
	}
}

// backOff cuts the rate to DecreasePercent of what gets through, and holds
// for a round trip and a window, the time its effect takes to show.
func (e *Estimator) backOff(q int64) {
	cfg := &e.cfg
	from := e.rate
	// The share of the delivery rate: DecreasePercent, less what drains
	// the queue above the target in DrainMs, at least half.
	share := int64(cfg.DecreasePercent) * milli / 100
	excess := (q - e.targetMilli) * milli / msToMilli(cfg.DrainMs)
	share = max(min(share, milli-excess), milli/2)
	to := e.delivery * share / milli
	// At most halve the rate in one back-off: acks that pause (a longer
	// route, a burst of loss) make the delivery rate of one window look
	// lower than the path is.
	to = max(to, e.rate/2)
	to = min(to, e.rate) // never a back-off upward
	e.rate = e.clamp(to)
	e.cutRate, e.cutTick = max(e.delivery, e.rate), e.now
	e.holdUntil = e.now + int(e.curMilli/milli) + cfg.RateWindowTicks
	e.state = StateBackOff
	e.last = event{tick: e.now, state: StateBackOff, from: from, to: e.rate,
		qMs: int64(milliToMs(q) + 0.5), lossPct: e.lossPermille / 10}
}

// increase grows the rate for one tick while there is no queue.
func (e *Estimator) increase() {
	cfg := &e.cfg
	bound := e.delivery * int64(cfg.BoundPercent) / 100
	if e.cutRate == 0 && cfg.StartKbps == 0 && bound > e.rate {
		// Nothing has pushed back yet: the path carries at least what it
		// delivers.
		e.rate = e.clamp(bound)
	}
	if e.rate >= bound {
		e.state = StateLimited
		return
	}
	permille := int64(cfg.ExplorePermille)
	if e.cutRate == 0 {
		permille = int64(cfg.StartupPermille)
	}
	if e.cutRate > 0 && e.now-e.cutTick < cfg.ForgetTicks {
		// A recent back-off says where the path's limit was: back to
		// near it quickly, then carefully past it.
		permille = int64(cfg.ProbePermille)
		if e.rate < e.cutRate-e.cutRate*int64(cfg.NearPercent)/50 {
			permille = int64(cfg.RecoverPermille)
		}
	}
	step := max(e.rate*permille/(1000*wire.TicksPerSecond), 1)
	e.rate = e.clamp(min(e.rate+step, bound))
	e.state = StateClear
}

func (e *Estimator) clamp(r int64) int64 {
	return min(max(r, int64(e.cfg.MinKbps)*1000), int64(e.cfg.MaxKbps)*1000)
}

// isqrt is the integer square root of x ≥ 0.
func isqrt(x int64) int64 {
	if x <= 0 {
		return 0
	}
	r := int64(1) << ((bits.Len64(uint64(x)) + 1) / 2)
	for {
		n := (r + x/r) / 2
		if n >= r {
			return r
		}
		r = n
	}
}
