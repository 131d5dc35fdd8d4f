package adapt

import (
	"fmt"

	"netcubes/internal/valid"
	"netcubes/wire"
)

// Design note: the simple congestion avoidance of the source articles
// ("Reliability and Congestion Avoidance", the series' article on building
// a reliable protocol over UDP), kept as the baseline the Estimator is
// measured against. It has two modes and one measure:
//
//	round trip: a moving average, each sample moving it 10 % of the way
//	good mode:  30 packets a second
//	bad mode:   10 packets a second
//	bad:        the averaged round trip above 250 ms
//
//	good, and bad            → bad at once; if good had lasted less than
//	                           10 s, the recovery time doubles (at most 60 s)
//	bad, good for recovery   → good
//	good for every 10 s      → the recovery time halves (at least 1 s)
//
// It starts in bad mode with a recovery time of 4 s. What it cannot do,
// and the Estimator does: see a queue before it is 250 ms deep (on a path
// of 40 ms the queue is six times the path before it reacts), choose a
// rate between its two, or tell a long route from a full queue (a path of
// 300 ms is "bad" forever). What it does well: it never flaps faster than
// its recovery time, which doubles while the path keeps failing.
//
// Everything is integer ticks and milli-ticks, so runs repeat bit for bit.

// SimpleConfig tunes the simple congestion avoidance. Times in ticks, the
// round trip in milliseconds.
type SimpleConfig struct {
	// GoodPPS and BadPPS are the packet rates of the two modes (the
	// article's 30 and 10).
	GoodPPS, BadPPS int
	// BadRTTMs is the averaged round trip above which the path is bad
	// (250). Lower reacts to a shallower queue, and calls a long route bad.
	BadRTTMs int
	// SmoothPercent is how far each round-trip sample moves the average
	// (10). Higher reacts sooner and flaps on jitter.
	SmoothPercent int
	// StartRecoveryTicks is the recovery time before anything happened
	// (4 s): how long the path must be good before bad mode goes good.
	StartRecoveryTicks int
	// Min and MaxRecoveryTicks clamp the recovery time (1 s and 60 s).
	MinRecoveryTicks, MaxRecoveryTicks int
	// FlapTicks: a drop to bad mode this soon after going good doubles the
	// recovery time (10 s).
	FlapTicks int
	// ForgiveTicks: each this long in good mode halves it (10 s).
	ForgiveTicks int
}

// DefaultSimpleConfig is the article's.
func DefaultSimpleConfig() SimpleConfig {
	return SimpleConfig{
		GoodPPS: 30, BadPPS: 10, BadRTTMs: 250, SmoothPercent: 10,
		StartRecoveryTicks: 4 * wire.TicksPerSecond,
		MinRecoveryTicks:   1 * wire.TicksPerSecond,
		MaxRecoveryTicks:   60 * wire.TicksPerSecond,
		FlapTicks:          10 * wire.TicksPerSecond,
		ForgiveTicks:       10 * wire.TicksPerSecond,
	}
}

// Simple is the two-mode congestion avoidance. The zero value is not
// ready: use NewSimple.
type Simple struct {
	cfg      SimpleConfig
	good     bool
	rtt      int64  // averaged round trip, milli-ticks (−1: no sample yet)
	recovery int    // ticks of good path bad mode waits for
	clear    int    // ticks the path has been good (in bad mode) or the mode good (in good mode)
	forgive  int    // ticks toward the next halving
	last     string // the last change, for the HUD
}

// Validate reports the first field out of its range, naming it, its value
// and the range (the error wraps ErrInvalidConfig): rates of at least one
// packet a second, the bad one not above the good one, a percentage, and
// recovery times in order.
func (c SimpleConfig) Validate() error {
	const most = valid.Finite
	f := func(name string, v int, lo, hi float64) valid.Field {
		return valid.Field{Name: name, V: float64(v), Lo: lo, Hi: hi}
	}
	return valid.Check(ErrInvalidConfig,
		f("GoodPPS", c.GoodPPS, 1, wire.TicksPerSecond), f("BadPPS", c.BadPPS, 1, float64(c.GoodPPS)),
		f("BadRTTMs", c.BadRTTMs, 1, most), f("SmoothPercent", c.SmoothPercent, 1, 100),
		f("MinRecoveryTicks", c.MinRecoveryTicks, 1, most),
		f("MaxRecoveryTicks", c.MaxRecoveryTicks, float64(c.MinRecoveryTicks), most),
		f("StartRecoveryTicks", c.StartRecoveryTicks, float64(c.MinRecoveryTicks), float64(c.MaxRecoveryTicks)),
		f("FlapTicks", c.FlapTicks, 0, most), f("ForgiveTicks", c.ForgiveTicks, 1, most),
	)
}

// NewSimple returns the simple congestion avoidance with cfg. cfg must be
// valid (Validate): an invalid one is a programming error and panics, as
// New's does.
func NewSimple(cfg SimpleConfig) *Simple {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	s := &Simple{cfg: cfg}
	s.Reset()
	return s
}

// Reset starts again: bad mode, the starting recovery time.
func (s *Simple) Reset() {
	*s = Simple{cfg: s.cfg, rtt: -1, recovery: s.cfg.StartRecoveryTicks,
		last: fmt.Sprintf("starting in bad mode: %d packets/s", s.cfg.BadPPS)}
}

// Update feeds one tick's sample and decides the mode.
func (s *Simple) Update(smp Sample) {
	if smp.RTTs > 0 {
		// Each sample moves the average SmoothPercent of the way: the
		// tick's samples one after another, in integer milli-ticks.
		mean := smp.RTTSum * milli / int64(smp.RTTs)
		for range smp.RTTs {
			if s.rtt < 0 {
				s.rtt = mean
				continue
			}
			s.rtt += (mean - s.rtt) * int64(s.cfg.SmoothPercent) / 100
		}
	}
	bad := s.rtt > msToMilli(s.cfg.BadRTTMs)
	c := &s.cfg
	if s.good {
		if bad {
			s.good = false
			if s.clear < c.FlapTicks {
				s.recovery = min(2*s.recovery, c.MaxRecoveryTicks)
			}
			s.last = fmt.Sprintf("RTT %.0f ms > %d: bad mode, %d packets/s; good again after %s of good", s.RTTMs(), c.BadRTTMs, c.BadPPS, seconds(s.recovery))
			s.clear, s.forgive = 0, 0
			return
		}
		s.clear++
		s.forgive++
		if s.forgive >= c.ForgiveTicks {
			s.forgive = 0
			if s.recovery > c.MinRecoveryTicks {
				s.recovery = max(s.recovery/2, c.MinRecoveryTicks)
				s.last = fmt.Sprintf("good for 10 s: recovery time halved to %s", seconds(s.recovery))
			}
		}
		return
	}
	if bad || s.rtt < 0 {
		s.clear = 0
		return
	}
	s.clear++
	if s.clear > s.recovery {
		s.good, s.clear, s.forgive = true, 0, 0
		s.last = fmt.Sprintf("RTT %.0f ms ≤ %d for %s: good mode, %d packets/s", s.RTTMs(), c.BadRTTMs, seconds(s.recovery), c.GoodPPS)
	}
}

func seconds(ticks int) string {
	return fmt.Sprintf("%g s", float64(ticks)/wire.TicksPerSecond)
}

// Good reports whether the path is in good mode.
func (s *Simple) Good() bool { return s.good }

// PPS is the packet rate of the mode in force.
func (s *Simple) PPS() int {
	if s.good {
		return s.cfg.GoodPPS
	}
	return s.cfg.BadPPS
}

// RecoveryTicks is the recovery time now: how long bad mode waits for a
// good path.
func (s *Simple) RecoveryTicks() int { return s.recovery }

// RTTMs is the averaged round trip, ms (0 before any sample).
func (s *Simple) RTTMs() float64 { return milliToMs(max(s.rtt, 0)) }

// Config returns the settings.
func (s *Simple) Config() SimpleConfig { return s.cfg }

// ReasonAs says what the mode is and why, for the HUD, with what each mode
// sends in a sender's own words: "bad mode, a third of the budget: RTT
// 290 ms; good after 8 s under 250 ms (2.1 s so far)".
func (s *Simple) ReasonAs(good, bad string) string {
	c := &s.cfg
	if s.good {
		return fmt.Sprintf("good mode, %s: RTT %.0f ms ≤ %d; recovery time %s", good, s.RTTMs(), c.BadRTTMs, seconds(s.recovery))
	}
	return fmt.Sprintf("bad mode, %s: RTT %.0f ms; good after %s under %d ms (%.1f s so far)",
		bad, s.RTTMs(), seconds(s.recovery), c.BadRTTMs, float64(s.clear)/wire.TicksPerSecond)
}

// Last is the last change of mode or recovery time, for the HUD.
func (s *Simple) Last() string { return s.last }

// SimpleRule is a sender's Simple, made on first use (a sender that never
// turns the rule on keeps none), and whether the rule was in force last
// tick (a switch to it starts it over).
type SimpleRule struct {
	s  *Simple
	On bool
}

// Rule is the sender's Simple.
func (r *SimpleRule) Rule() *Simple {
	if r.s == nil {
		r.s = NewSimple(DefaultSimpleConfig())
	}
	return r.s
}
