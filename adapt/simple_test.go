package adapt

import (
	"errors"
	"strings"
	"testing"

	"netcubes/wire"
)

// simpleRun feeds s one round-trip sample a tick, rttTicks each, for n
// ticks from tick *t.
func simpleRun(s *Simple, t *int, rttTicks int64, n int) {
	for range n {
		*t++
		s.Update(Sample{Tick: *t, RTTs: 1, RTTSum: rttTicks, RTTSumSq: rttTicks * rttTicks})
	}
}

// TestSimpleModes: the article's rules, step by step: bad at the start,
// good after the recovery time of good path, bad at once when the round
// trip passes 250 ms, the recovery time doubled by a drop within 10 s of
// going good, halved by 10 s of good, clamped to 1-60 s.
func TestSimpleModes(t *testing.T) {
	const sec = wire.TicksPerSecond
	const good, bad = 2, 30 // round trips in ticks: 33 ms and 500 ms
	s := NewSimple(DefaultSimpleConfig())
	tick := 0
	if s.Good() || s.PPS() != 10 || s.RecoveryTicks() != 4*sec {
		t.Fatalf("start: good %v, %d pps, recovery %d", s.Good(), s.PPS(), s.RecoveryTicks())
	}
	simpleRun(s, &tick, good, 4*sec)
	if s.Good() {
		t.Fatalf("good after exactly the recovery time: wanted still bad")
	}
	simpleRun(s, &tick, good, 1)
	if !s.Good() || s.PPS() != 30 {
		t.Fatalf("after 4 s of good path: good %v, %d pps", s.Good(), s.PPS())
	}
	// A round trip of 500 ms: the average passes 250 ms within a few
	// samples, and bad mode comes at once; 5 s after going good, so the
	// recovery time doubles.
	simpleRun(s, &tick, good, 5*sec)
	n := 0
	for s.Good() && n < sec {
		simpleRun(s, &tick, bad, 1)
		n++
	}
	if s.Good() || n > 10 {
		t.Fatalf("500 ms round trips: still good after %d ticks", n)
	}
	if s.RecoveryTicks() != 8*sec {
		t.Fatalf("a drop 5 s after going good: recovery %d ticks, want %d", s.RecoveryTicks(), 8*sec)
	}
	// The average must come back under 250 ms first, then 8 s of good.
	m := 0
	for !s.Good() && m < 20*sec {
		simpleRun(s, &tick, good, 1)
		m++
	}
	if m < 8*sec || m > 9*sec {
		t.Fatalf("back to good after %d ticks, want 8-9 s", m)
	}
	// 10 s of good halves it, 20 s twice; never below 1 s.
	simpleRun(s, &tick, good, 10*sec)
	if s.RecoveryTicks() != 4*sec {
		t.Fatalf("after 10 s of good: recovery %d, want %d", s.RecoveryTicks(), 4*sec)
	}
	simpleRun(s, &tick, good, 60*sec)
	if s.RecoveryTicks() != sec {
		t.Fatalf("after a minute of good: recovery %d, want %d (the floor)", s.RecoveryTicks(), sec)
	}
	// Flapping: every drop within 10 s of going good doubles, up to 60 s.
	for range 10 {
		for s.Good() {
			simpleRun(s, &tick, bad, 1)
		}
		for !s.Good() {
			simpleRun(s, &tick, good, 1)
		}
	}
	if s.RecoveryTicks() != 60*sec {
		t.Fatalf("after ten flaps: recovery %d, want %d (the ceiling)", s.RecoveryTicks(), 60*sec)
	}
}

// TestSimpleThreshold: the mode switches above 250 ms of averaged round
// trip (15 ticks), not at it.
func TestSimpleThreshold(t *testing.T) {
	for _, c := range []struct {
		ticks int64
		good  bool
	}{{12, true}, {15, true}, {16, false}, {24, false}} {
		s := NewSimple(DefaultSimpleConfig())
		tick := 0
		simpleRun(s, &tick, 2, 5*wire.TicksPerSecond) // good mode first
		simpleRun(s, &tick, c.ticks, 3*wire.TicksPerSecond)
		if s.Good() != c.good {
			t.Errorf("round trip %d ticks (averaged %.0f ms): good %v, want %v", c.ticks, s.RTTMs(), s.Good(), c.good)
		}
	}
}

// TestSimpleConfigValidate: the simple rule refuses a bad config naming
// the field, as every Config does; the article's passes.
func TestSimpleConfigValidate(t *testing.T) {
	if err := DefaultSimpleConfig().Validate(); err != nil {
		t.Fatalf("the default: %v", err)
	}
	for _, c := range []struct {
		field string
		set   func(c *SimpleConfig)
	}{
		{"GoodPPS", func(c *SimpleConfig) { c.GoodPPS = 0 }},
		{"BadPPS", func(c *SimpleConfig) { c.BadPPS = c.GoodPPS + 1 }},
		{"SmoothPercent", func(c *SimpleConfig) { c.SmoothPercent = 101 }},
		{"MaxRecoveryTicks", func(c *SimpleConfig) { c.MaxRecoveryTicks = c.MinRecoveryTicks - 1 }},
		{"StartRecoveryTicks", func(c *SimpleConfig) { c.StartRecoveryTicks = c.MaxRecoveryTicks + 1 }},
	} {
		cfg := DefaultSimpleConfig()
		c.set(&cfg)
		err := cfg.Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s out of range: %v", c.field, err)
		}
	}
}
