package snapshot

import (
	"errors"
	"math"
	"strings"
	"testing"

	"netcubes/playout"
)

// TestConfigValidate: the default and both demos' settings are valid;
// every setting out of its range is refused by Validate with an error
// naming it, by SetConfig (which keeps the current settings) and by New
// (a programming error: it panics); the clock's settings likewise, by
// NewClock.
func TestConfigValidate(t *testing.T) {
	interp, comp := DefaultConfig(), DefaultConfig()
	interp.UseInterpolationDemo()
	comp.UseCompressionDemo()
	for _, c := range []Config{DefaultConfig(), interp, comp} {
		if err := c.Validate(); err != nil {
			t.Fatalf("%v: %v", c.String(), err)
		}
	}
	bad := []struct {
		field string
		set   func(c *Config)
	}{
		{"Rate", func(c *Config) { c.Rate = 7 }},
		{"Render", func(c *Config) { c.Render = NumRenderModes }},
		{"Level", func(c *Config) { c.Level = 0 }},
		{"Level", func(c *Config) { c.Level = MaxLevel + 1 }},
		{"DelayNudgeTicks", func(c *Config) { c.DelayNudgeTicks = MaxDelayNudgeTicks + 1 }},
		{"StarveExtrapolateTicks", func(c *Config) { c.StarveExtrapolateTicks = -1 }},
		{"ExtrapolateLimitTicks", func(c *Config) { c.ExtrapolateLimitTicks = math.NaN() }},
		{"SenderSnapshots", func(c *Config) { c.SenderSnapshots = 3 }},
		{"ReceiverSnapshots", func(c *Config) { c.ReceiverSnapshots = c.SenderSnapshots + 7 }},
		{"ReceiverSnapshots", func(c *Config) { c.SenderSnapshots, c.ReceiverSnapshots = 64, maxHeldSnapshots+1 }},
		{"Clock.TimeConstantTicks", func(c *Config) { c.Clock.TimeConstantTicks = 0.5 }},
		{"Clock.FollowRate", func(c *Config) { c.Clock.FollowRate = 0 }},
		{"Clock.FollowRate", func(c *Config) { c.Clock.FollowRate = 1.5 }},
		{"Clock.MaxSlew", func(c *Config) { c.Clock.MaxSlew = 0 }},
		{"Clock.RelockPackets", func(c *Config) { c.Clock.RelockPackets = 17 }},
		{"Clock.JitterSmoothing", func(c *Config) { c.Clock.JitterSmoothing = math.Inf(1) }},
		{"Clock.AcquireSpeedup", func(c *Config) { c.Clock.AcquireSpeedup = 0.5 }},
	}
	for _, tc := range bad {
		c := DefaultConfig()
		tc.set(&c)
		err := c.Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tc.field+" = ") {
			t.Errorf("%s: %v", tc.field, err)
			continue
		}
		st := New(DefaultConfig())
		before := st.config()
		if err := st.SetConfig(c); !errors.Is(err, ErrInvalidConfig) || st.config() != before {
			t.Errorf("%s: SetConfig took it (%v)", tc.field, err)
		}
		if !panics(func() { New(c) }) {
			t.Errorf("%s: New took it", tc.field)
		}
		if strings.HasPrefix(tc.field, "Clock.") && !panics(func() { playout.NewClock(c.Clock) }) {
			t.Errorf("%s: NewClock took it", tc.field)
		}
	}
	// A valid change is taken.
	st := New(DefaultConfig())
	c := st.config()
	c.Level, c.Rate = MotionPredicted, Rate20
	if err := st.SetConfig(c); err != nil || st.Level() != MotionPredicted || st.rate() != Rate20 {
		t.Errorf("SetConfig of a valid config: %v, %v", err, st.Mode())
	}
}

func panics(f func()) (did bool) {
	defer func() { did = recover() != nil }()
	f()
	return false
}
