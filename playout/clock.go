package playout

import (
	"errors"
	"math"

	"netcubes/internal/valid"
)

// ErrInvalidConfig is wrapped by the error ClockConfig.Validate returns.
var ErrInvalidConfig = errors.New("playout: invalid clock config")

// Design note: the playout clock of snapshot interpolation. The receiver
// must decide, every tick, which sender frame to show: late enough that the
// snapshots around it have arrived (the interpolation delay), early enough
// not to waste time. It cannot read the sender's clock; it only sees
// snapshots arrive, each tagged with the frame it was taken at, after a
// latency that varies (jitter). The clock here follows the sender the way
// the entity-interpolation seed (001) does, with a phase-locked loop:
//
//   - predict: the clock keeps an offset x so that "now + x" is the sender
//     frame it expects to be arriving now;
//   - phase detector: on each packet that arrives, the error is
//     e = frame − (now + x) (positive: the packet came early);
//   - filter: a leaky integrator I = a·I + e, and a small adjustment
//     x += clamp(g·I, ±MaxAdjustTicks) (the seed's
//     "integrator = integrator·0.9 + diff; adjustment = clamp(integrator·0.01,
//     ±0.1)");
//   - the shown time is t = now + z, where z follows x − delay smoothly
//     (a first-order follower with a speed limit), so the view never jumps
//     per packet: it only plays a little faster or slower.
//
// Tuning. x is itself an integrator of the adjustments, so the loop is of
// second order: per packet, z² − (1 + a − g)·z + a = 0 (z the
// z-transform variable). The seed's a = 0.9, g = 0.01 has complex poles and
// rings: a latency step overshoots by about 16 % and settles over ~70
// packets. Choosing g = (1 − √a)² puts a double pole at √a, critically
// damped: the fastest response that never overshoots. With √a = 1 − r and
// r = (send interval in ticks) / TimeConstantTicks, the response takes
// about the same time in ticks at 60 Hz and at 10 Hz.
//
// Every packet is measured, late (reordered) ones included. Measuring only
// packets newer than all before, as an in-order stream would, biases the
// estimate toward the early arrivals once the jitter exceeds the send
// interval (by about a tick at 60 Hz with ±2 ticks of jitter); the clock is
// meant to find the MEAN transit time, which the delay's jitter margin is
// sized against.
//
// Start-up: the first packet snaps the clock (x = frame − now, z = x −
// delay); nothing can be smoothed before there is a measurement.
//
// Large changes (the presenter switches from perfect to terrible: the
// latency jumps by 15 ticks): the gentle loop would need many seconds, and
// clamped adjustments more. So the clock RE-LOCKS: when RelockPackets
// packets in a row are all off by more than the re-lock threshold in the
// same direction, x moves at once by their median error and the integrator
// restarts (then runs fast for a while: see AcquireTicks). The threshold is RelockJitterFactor × the measured
// jitter (mean |e|), at least RelockMinTicks, so ordinary jitter never
// triggers it. The estimate jumps; the shown time does not: z follows at up
// to MaxSlew ticks per tick (0.5: the view plays at half speed, or 1.5×,
// for a moment), which is the visible, documented cost of a re-lock.

// ClockConfig tunes a Clock.
type ClockConfig struct {
	// TimeConstantTicks is the loop's response time, in ticks: a small
	// offset is corrected over roughly this long, without overshoot.
	// Shorter follows latency changes faster but lets more jitter through
	// into the shown time.
	TimeConstantTicks float64
	// MaxAdjustTicks bounds the change of the offset estimate per packet
	// in normal tracking, ticks. It keeps one wild packet from moving the
	// clock; large changes are the re-lock's job.
	MaxAdjustTicks float64
	// FollowRate is the fraction of the remaining gap between the shown
	// offset and its target that is closed per tick (0..1): 0.25 smooths a
	// per-packet step over about 4 ticks.
	FollowRate float64
	// MaxSlew bounds how much faster or slower than real time the shown
	// clock may run, in ticks per tick (0.5: between half and 1.5 speed).
	// It sets how long a re-lock or a delay change takes to show.
	MaxSlew float64
	// RelockPackets is the number of consecutive newer packets that must
	// all be off in the same direction by more than the threshold before
	// the clock re-locks. More is safer against jitter, fewer is quicker.
	RelockPackets int
	// RelockMinTicks is the smallest re-lock threshold, ticks.
	RelockMinTicks float64
	// RelockJitterFactor scales the measured jitter (mean absolute phase
	// error) into the re-lock threshold.
	RelockJitterFactor float64
	// JitterSmoothing is the weight of each new sample in the jitter
	// average (0..1).
	JitterSmoothing float64
	// AcquireTicks is how long after the start-up snap and after a re-lock
	// the loop runs AcquireSpeedup times faster: both start from a few
	// noisy packets, and the fast loop removes their error quickly before
	// the slow one takes over to filter jitter (a PLL's acquisition and
	// tracking bandwidths).
	AcquireTicks   float64
	AcquireSpeedup float64
}

// DefaultClockConfig returns the settings the demo uses.
func DefaultClockConfig() ClockConfig {
	return ClockConfig{
		TimeConstantTicks:  60,
		MaxAdjustTicks:     0.25,
		FollowRate:         0.25,
		MaxSlew:            0.5,
		RelockPackets:      6,
		RelockMinTicks:     3,
		RelockJitterFactor: 3,
		JitterSmoothing:    0.05,
		AcquireTicks:       90,
		AcquireSpeedup:     4,
	}
}

// snapMaxRelockPackets bounds RelockPackets (the error history is a fixed array).
const snapMaxRelockPackets = 16

// Clock turns the arrival of tagged packets into a smooth playout
// time. Times are ticks: "now" is the receiver's tick count, frames are the
// sender's. The zero value is not usable; call NewClock.
type Clock struct {
	cfg ClockConfig

	started bool
	x       float64 // offset estimate: the frame arriving now is now + x
	integ   float64 // leaky integrator of phase errors
	jitter  float64 // mean |phase error|, ticks
	errs    [snapMaxRelockPackets]float64
	nErrs   int // consecutive errors beyond the threshold, same sign
	relocks int
	acquire float64 // ticks of fast acquisition left

	delay    float64 // target interpolation delay, ticks
	interval float64 // ticks between the sender's packets
	z        float64 // shown offset: playout time = now + z
}

// Validate reports the first setting out of its range, naming it, its
// value and the range (the error wraps ErrInvalidConfig).
func (c *ClockConfig) Validate() error {
	const most = valid.Finite
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "Clock.TimeConstantTicks", V: c.TimeConstantTicks, Lo: 1, Hi: most},
		valid.Field{Name: "Clock.MaxAdjustTicks", V: c.MaxAdjustTicks, Hi: most, AboveLo: true},
		valid.Field{Name: "Clock.FollowRate", V: c.FollowRate, Hi: 1, AboveLo: true},
		valid.Field{Name: "Clock.MaxSlew", V: c.MaxSlew, Hi: most, AboveLo: true},
		valid.Field{Name: "Clock.RelockPackets", V: float64(c.RelockPackets), Lo: 1, Hi: snapMaxRelockPackets},
		valid.Field{Name: "Clock.RelockMinTicks", V: c.RelockMinTicks, Hi: most},
		valid.Field{Name: "Clock.RelockJitterFactor", V: c.RelockJitterFactor, Hi: most},
		valid.Field{Name: "Clock.JitterSmoothing", V: c.JitterSmoothing, Hi: 1},
		valid.Field{Name: "Clock.AcquireTicks", V: c.AcquireTicks, Hi: most},
		valid.Field{Name: "Clock.AcquireSpeedup", V: c.AcquireSpeedup, Lo: 1, Hi: most},
	)
}

// NewClock returns a clock that has seen no packet. cfg must be valid
// (Validate; DefaultClockConfig is): an invalid one is a programming error
// and panics.
func NewClock(cfg ClockConfig) *Clock {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	return &Clock{cfg: cfg, interval: 1}
}

// config returns the clock's settings.
func (c *Clock) config() ClockConfig { return c.cfg }

// Reset forgets every measurement (the delay and interval are kept).
func (c *Clock) Reset() {
	*c = Clock{cfg: c.cfg, delay: c.delay, interval: c.interval}
}

// SetInterval tells the clock how many ticks apart the sender sends (1 at
// 60 Hz, 6 at 10 Hz): the loop's gain per packet is scaled by it so that
// its response takes the same time at every rate.
func (c *Clock) SetInterval(ticks float64) { c.interval = math.Max(ticks, 1) }

// SetDelay sets the target interpolation delay in ticks: how far behind
// the frame it expects to be arriving the clock plays. A change is shown
// gradually (at most MaxSlew per tick).
func (c *Clock) SetDelay(ticks float64) { c.delay = ticks }

// targetDelay is the target interpolation delay, ticks.
func (c *Clock) targetDelay() float64 { return c.delay }

// Started reports whether a packet has been seen.
func (c *Clock) Started() bool { return c.started }

// OnPacket measures a packet of sender frame `frame` that arrived at tick
// now (call it once per packet, not for duplicates).
func (c *Clock) OnPacket(frame, now int) {
	if !c.started {
		c.started = true
		c.x = float64(frame - now)
		c.z = c.x - c.delay
		c.acquire = c.cfg.AcquireTicks
		return
	}
	e := float64(frame) - (float64(now) + c.x)

	// Re-lock: RelockPackets errors in a row beyond the threshold, all
	// the same sign. The jitter average only takes errors within the
	// threshold: errors beyond it are what it is there to detect, and
	// letting them in would raise the bar as fast as they come.
	thr := math.Max(c.cfg.RelockMinTicks, c.cfg.RelockJitterFactor*c.jitter)
	if math.Abs(e) <= thr {
		c.jitter += c.cfg.JitterSmoothing * (math.Abs(e) - c.jitter)
	}
	if math.Abs(e) > thr && (c.nErrs == 0 || (e > 0) == (c.errs[0] > 0)) {
		c.errs[c.nErrs] = e
		c.nErrs++
	} else {
		c.nErrs = 0
		if math.Abs(e) > thr {
			c.errs[0] = e
			c.nErrs = 1
		}
	}
	if c.nErrs >= c.cfg.RelockPackets {
		c.x += snapMedian(c.errs[:c.nErrs])
		c.integ = 0
		c.nErrs = 0
		c.relocks++
		c.acquire = c.cfg.AcquireTicks
		return
	}

	// The loop: critically damped, see the design note. While acquiring
	// (after the start-up snap or a re-lock, both made from few noisy
	// samples) it runs AcquireSpeedup times faster.
	tau := c.cfg.TimeConstantTicks
	if c.acquire > 0 {
		tau /= c.cfg.AcquireSpeedup
		c.acquire -= c.interval
	}
	r := math.Min(c.interval/tau, 0.5)
	sa := 1 - r
	c.integ = sa*sa*c.integ + e
	adj := r * r * c.integ
	adj = math.Max(-c.cfg.MaxAdjustTicks, math.Min(c.cfg.MaxAdjustTicks, adj))
	c.x += adj
}

// Advance moves the shown clock by one tick toward its target offset.
// Call it once per tick, after the tick's packets.
func (c *Clock) Advance() {
	if !c.started {
		return
	}
	diff := c.x - c.delay - c.z
	step := c.cfg.FollowRate * diff
	step = math.Max(-c.cfg.MaxSlew, math.Min(c.cfg.MaxSlew, step))
	c.z += step
}

// Time is the playout time at tick now: the (fractional) sender frame to
// show. Meaningless before Started.
func (c *Clock) Time(now int) float64 { return float64(now) + c.z }

// shownDelayTicks is how far behind "now" the shown time is, in ticks: the
// latency estimate plus the interpolation delay, while locked.
func (c *Clock) shownDelayTicks() float64 { return -c.z }

// LatencyTicks is the estimated transit time of a packet in ticks (how far
// behind now the newest arriving frame is).
func (c *Clock) LatencyTicks() float64 { return -c.x }

// Jitter is the mean absolute phase error, ticks.
func (c *Clock) Jitter() float64 { return c.jitter }

// Relocks counts the re-locks since the clock started.
func (c *Clock) Relocks() int { return c.relocks }

// median of a few values (sorted in place; at most snapMaxRelockPackets).
func snapMedian(v []float64) float64 {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
