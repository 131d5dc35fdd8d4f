package snapshot

import (
	"errors"
	"fmt"
	"math"

	"netcubes/playout"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: the settings of snapshot interpolation and compression, as
// the presenter changes them live (the UI calls the setters between Steps;
// every one takes effect at the next tick without restarting anything,
// because each packet carries its own level and the receiver's clock
// glides to a new delay instead of jumping).
//
// The four knobs and what they trade:
//   - Rate: snapshots per second. Fewer packets cost proportionally less
//     bandwidth, but the receiver must wait longer (its delay is about three
//     send intervals) and interpolate across longer gaps.
//   - Render: how the right builds its view from the snapshots (latest only,
//     linear, hermite, extrapolate; see interp.go).
//   - Level: the compression level 1..14 (level.go).
//   - Delay nudge: ticks added to (or taken from) the default interpolation
//     delay: less delay shows a fresher world but starves more often when
//     packets are late or lost.

// Rate is the number of snapshots the left sends per second.
type Rate int

// The rates the demo offers: every tick, every 2nd, 3rd and 6th tick.
const (
	Rate60 Rate = 60
	Rate30 Rate = 30
	Rate20 Rate = 20
	Rate10 Rate = 10
)

// Rates lists the rates in the order a key cycles through them.
var Rates = [...]Rate{Rate60, Rate30, Rate20, Rate10}

// Valid reports whether r is one of Rates.
func (r Rate) Valid() bool {
	for _, v := range Rates {
		if r == v {
			return true
		}
	}
	return false
}

// Interval is the number of ticks between snapshots: a snapshot leaves
// when frame % Interval == 0.
func (r Rate) Interval() int {
	if !r.Valid() {
		return 1
	}
	return wire.TicksPerSecond / int(r)
}

// String is "60 Hz".
func (r Rate) String() string { return fmt.Sprintf("%d Hz", int(r)) }

// Prev is the preceding rate in Rates, wrapping around.
func (r Rate) Prev() Rate {
	for i, v := range Rates {
		if v == r {
			return Rates[(i+len(Rates)-1)%len(Rates)]
		}
	}
	return Rates[0]
}

// Next is the following rate in Rates, wrapping around.
func (r Rate) Next() Rate {
	for i, v := range Rates {
		if v == r {
			return Rates[(i+1)%len(Rates)]
		}
	}
	return Rates[0]
}

// Valid reports whether m is a render mode.
func (m RenderMode) Valid() bool { return int(m) < NumRenderModes }

// next is the following mode, wrapping around.
func (m RenderMode) next() RenderMode { return m.Step(+1) }

// Step moves dir modes on (or back, dir < 0), wrapping around.
func (m RenderMode) Step(dir int) RenderMode {
	return RenderMode(((int(m)+dir)%NumRenderModes + NumRenderModes) % NumRenderModes)
}

// interpolates reports whether the mode plays the buffer back with a
// delay (linear and hermite).
func (m RenderMode) interpolates() bool {
	return m == RenderLinear || m == RenderHermite || m == RenderHermiteAhead
}

var renderExplains = [NumRenderModes]string{
	RenderLatest:       "The right shows the newest snapshot as it arrives: no added delay, but motion hitches with every late or lost packet.",
	RenderLinear:       "The right runs no physics: it plays snapshots back about three send intervals late and blends between them, so two lost packets in a row still leave one to move toward.",
	RenderHermite:      "The right plays snapshots back late and curves between them with each cube's velocity (hermite), following arcs that straight lines cut.",
	RenderExtrapolate:  "The right guesses ahead from the newest snapshot at constant velocity: no delay, but falling cubes sink into the floor and katamari cubes fly off on tangents.",
	RenderHermiteAhead: "The original demo's hermite extrapolation: both snapshots pushed 0.2 s ahead along their velocity, then curved between: fresher, but cubes overshoot every bounce and turn.",
}

// Explain is one line for the HUD about the mode.
func (m RenderMode) Explain() string {
	if !m.Valid() {
		return ""
	}
	return renderExplains[m]
}

// Config holds the settings of the snapshot strategy.
type Config struct {
	// Rate is the number of snapshots per second (60, 30, 20 or 10).
	Rate Rate
	// Render is how the right builds its view.
	Render RenderMode
	// Level is the compression level, 1..14.
	Level Level
	// PlayerPrediction (levels 9-13, beyond the article): delta-encode the
	// cubes near the player against where the player's own motion since
	// the baseline carried them, instead of against the baseline (see
	// predict.go). On the katamari run over the
	// intercontinental link it saves about a third of the bits of a changed
	// cube; off, the levels are exactly the article's.
	PlayerPrediction bool
	// DelayNudgeTicks is added to the default interpolation delay
	// (DefaultDelayTicks), in ticks of 1/60 s; negative shows a fresher
	// world and starves more. At most ±MaxDelayNudgeTicks.
	DelayNudgeTicks int
	// StarveExtrapolateTicks is how long, in ticks, an interpolating right
	// that ran out of snapshots moves cubes on at their last velocity
	// before it holds them. More hides a late packet; too much shows
	// extrapolation's errors. 0 holds at once.
	StarveExtrapolateTicks float64
	// ExtrapolateLimitTicks is how far past the newest snapshot the
	// extrapolation mode goes, ticks: the mode is meant to fail visibly,
	// but not to fling cubes across the map during an outage.
	ExtrapolateLimitTicks float64
	// Clock tunes the playout clock (ClockConfig).
	Clock playout.ClockConfig
	// SenderSnapshots is how many sent snapshots the left keeps as
	// candidate baselines (the newest acked one is used). At 60 Hz, 64 is
	// a little over a second: a round trip longer than that (or an ack
	// outage) falls back to the initial state, which always works.
	SenderSnapshots int
	// ReceiverSnapshots is how many received snapshots the right keeps:
	// the interpolation buffer and the baselines the left may refer to.
	// It must exceed SenderSnapshots plus the packets that can overtake
	// one in flight, or a packet may refer to a baseline already dropped
	// (it is then rejected cleanly).
	ReceiverSnapshots int
	// CarryModels (levels 12-13): start each packet's adaptive models where
	// the packet of its baseline ended (both sides hold them, since only an
	// acked snapshot is a baseline) instead of from one half. Costs a copy
	// of the models (316 kB) per snapshot kept, on both sides; buys
	// models that already know this scene's statistics from the first cube.
	CarryModels bool
	// CongestionAvoidance (beyond the articles) lowers the send rate when
	// the path pushes back (a queue building, or loss at one) and probes
	// back up toward Rate when it is clear (adapt.go): fewer snapshots
	// and a longer delay instead of seconds of queue. Rate stays the
	// presenter's choice and the ceiling.
	CongestionAvoidance bool
	// SimpleCongestion, with CongestionAvoidance, uses the source
	// articles' simple congestion avoidance instead of the estimator: 30
	// snapshots a second, or 10 once the averaged round trip passes 250 ms,
	// never above Rate (simple.go). The baseline the estimator is measured
	// against.
	SimpleCongestion bool
	// AdaptiveDelay sizes the interpolation delay from the jitter and loss
	// the right measures, (1 + n) × interval + 2σ + 1 ticks, instead of
	// DefaultDelayTicks (adapt.go); the nudge still applies.
	AdaptiveDelay bool
	// AtRestFlag (level 3 only): each cube carries an at-rest bit, and a
	// resting cube's velocity (3 × 11 bits) is not sent: 127 bits for a
	// resting cube, 160 for a moving one. Off, no cube carries the bit and
	// every cube sends its velocity, 159 bits each: one bit less for a
	// moving cube, 32 more for a resting one. On is the article's level 3
	// and the default; off is the original compression demo's mode 3
	// ("linear velocity"), the step before its mode 4 added the flag. A
	// header bit of every level-3 packet says which, so a change never
	// misdecodes packets in flight.
	AtRestFlag bool
}

// Limits of the live settings.
const (
	// MaxDelayNudgeTicks bounds DelayNudgeTicks (±2 s).
	MaxDelayNudgeTicks = 120
	// MaxDelayTicks bounds the interpolation delay (3 s), well inside the
	// 5 s of left history the session's error figures compare against.
	MaxDelayTicks = 180
	// MinExtrapolateDelayTicks is the most negative delay of extrapolation
	// mode: it may guess up to half a second ahead of the newest snapshot.
	MinExtrapolateDelayTicks = -30
)

// DefaultConfig is the compression demo: every level's effect is
// easiest to see (and the article measures it) at 60 Hz, level 11, linear.
func DefaultConfig() Config {
	c := Config{
		StarveExtrapolateTicks: 3,
		ExtrapolateLimitTicks:  30,
		Clock:                  playout.DefaultClockConfig(),
		SenderSnapshots:        64,
		ReceiverSnapshots:      128,
		CarryModels:            true,
		AtRestFlag:             true,
	}
	c.UseCompressionDemo()
	return c
}

// UseInterpolationDemo sets the article's snapshot interpolation setup:
// uncompressed snapshots (with velocity) at 10 Hz, hermite, default delay.
func (c *Config) UseInterpolationDemo() {
	c.Rate, c.Render, c.Level, c.DelayNudgeTicks = Rate10, RenderHermite, Uncompressed, 0
}

// UseCompressionDemo sets the compression article's setup: 60 Hz, level
// 11, linear interpolation, default delay.
func (c *Config) UseCompressionDemo() {
	c.Rate, c.Render, c.Level, c.DelayNudgeTicks = Rate60, RenderLinear, ChangedFields, 0
	c.PlayerPrediction = true
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("snapshot: invalid config")

// maxHeldSnapshots bounds SenderSnapshots and ReceiverSnapshots: half the
// 16-bit sequence space, so that no two snapshots a buffer holds can share
// a sequence number.
const maxHeldSnapshots = 1 << 15

// Validate reports the first setting out of its range, naming it, its
// value and the range (the error wraps ErrInvalidConfig). A Config is
// checked, never repaired (docs/design/config-validation.md): New and
// SetConfig refuse an invalid one.
func (c *Config) Validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("%w: %s = %v, want %s", ErrInvalidConfig, name, v, want)
	}
	switch {
	case !c.Rate.Valid():
		return bad("Rate", int(c.Rate), "60, 30, 20 or 10")
	case !c.Render.Valid():
		return bad("Render", int(c.Render), fmt.Sprintf("0..%d", NumRenderModes-1))
	case !c.Level.Valid():
		return bad("Level", int(c.Level), fmt.Sprintf("%d..%d", MinLevel, MaxLevel))
	case c.DelayNudgeTicks < -MaxDelayNudgeTicks || c.DelayNudgeTicks > MaxDelayNudgeTicks:
		return bad("DelayNudgeTicks", c.DelayNudgeTicks, fmt.Sprintf("%d..%d", -MaxDelayNudgeTicks, MaxDelayNudgeTicks))
	case !nonNegative(c.StarveExtrapolateTicks):
		return bad("StarveExtrapolateTicks", c.StarveExtrapolateTicks, "finite, 0 or more")
	case !nonNegative(c.ExtrapolateLimitTicks):
		return bad("ExtrapolateLimitTicks", c.ExtrapolateLimitTicks, "finite, 0 or more")
	case c.SenderSnapshots < 4 || c.SenderSnapshots > maxHeldSnapshots:
		return bad("SenderSnapshots", c.SenderSnapshots, fmt.Sprintf("4..%d", maxHeldSnapshots))
	case c.ReceiverSnapshots < c.SenderSnapshots+8 || c.ReceiverSnapshots > maxHeldSnapshots:
		return bad("ReceiverSnapshots", c.ReceiverSnapshots, fmt.Sprintf("SenderSnapshots + 8 (%d)..%d", c.SenderSnapshots+8, maxHeldSnapshots))
	}
	if err := c.Clock.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	return nil
}

// nonNegative reports whether v is finite and 0 or more (false for NaN).
func nonNegative(v float64) bool { return v >= 0 && v <= math.MaxFloat64 }

// DefaultDelayTicks is the interpolation delay at a send rate before any
// nudge: three send intervals, so that two lost packets in a row still leave
// a third snapshot to interpolate toward, plus a jitter margin of 3 ticks
// (50 ms). At 60 Hz the margin is 2 ticks: a late packet is covered by the
// next one a tick later. This gives the design brief's figures: 5 ticks
// (83 ms) at 60 Hz, 9 (150 ms) at 30 Hz, 12 (200 ms) at 20 Hz, 21 (350 ms)
// at 10 Hz. Extrapolation has no delay at all, and showing the latest
// snapshot ignores the delay.
func DefaultDelayTicks(r Rate, m RenderMode) int {
	if m == RenderExtrapolate {
		return 0
	}
	iv := r.Interval()
	return 3*iv + min(3, iv+1)
}

// DelayTicks is the interpolation delay the settings ask for, nudge
// included and clamped.
func (c *Config) DelayTicks() int {
	d := DefaultDelayTicks(c.Rate, c.Render) + c.DelayNudgeTicks
	lo := 0
	if c.Render == RenderExtrapolate {
		lo = MinExtrapolateDelayTicks
	}
	return min(max(d, lo), MaxDelayTicks)
}

// ticksToMs converts ticks to milliseconds.
func ticksToMs(t float64) float64 { return t * 1000 / wire.TicksPerSecond }

// RenderString names the render mode with what it can use at this level:
// hermite says so when the level sends no velocity and its tangents are
// derived from the neighbouring snapshots.
func (c *Config) RenderString() string {
	if c.Render == RenderHermite && !c.Level.HasVelocity() {
		return "hermite (derived tangents)+slerp"
	}
	if c.Render == RenderHermiteAhead && !c.Level.HasVelocity() {
		return "hermite+0.2 s (derived velocity)"
	}
	return c.Render.String()
}

// DelayString is the delay for the HUD: "delay 83 ms", "delay 350 ms (+2
// ticks)", or "no delay" when the mode shows the newest snapshot.
func (c *Config) DelayString() string {
	if c.Render == RenderLatest {
		return "no delay"
	}
	s := fmt.Sprintf("delay %.0f ms", ticksToMs(float64(c.DelayTicks())))
	if n := c.DelayNudgeTicks; n != 0 {
		sign := "+"
		if n < 0 {
			sign = "−"
		}
		s += fmt.Sprintf(" (%s%s)", sign, viewmodel.Plural(max(n, -n), "tick"))
	}
	return s
}

// Predicting reports whether packets use the player-relative prediction:
// the setting is on and the level sends deltas (9-13).
func (c *Config) Predicting() bool {
	return c.PlayerPrediction && c.Level >= DeltaPosition
}

// LevelString is the level for the HUD: "level 11", "level 11 +
// prediction" when the player-relative prediction is in use, "level 3,
// no at-rest bit" when AtRestFlag is off.
func (c *Config) LevelString() string {
	if c.Level == BoundedVelocity && !c.AtRestFlag {
		return c.Level.String() + ", no at-rest bit"
	}
	if c.Predicting() {
		return c.Level.String() + " + prediction"
	}
	return c.Level.String()
}

// String is the whole configuration in a few words, the strategy's Mode:
// "level 9 · 60 Hz · linear+slerp · delay 83 ms".
func (c *Config) String() string {
	return c.LevelString() + " · " + c.Rate.String() + " · " + c.RenderString() + " · " + c.DelayString()
}
