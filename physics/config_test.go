package physics

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestConfigValidate: DefaultConfig is valid, every field out of its range
// (zero or negative where it must be positive, negative, NaN, infinite,
// past its top) is refused with an error naming it, the edges of the ranges
// are accepted, and NewWorld refuses what Validate refuses.
func TestConfigValidate(t *testing.T) {
	def := DefaultConfig()
	if err := def.Validate(); err != nil {
		t.Fatalf("DefaultConfig: %v", err)
	}
	nan, inf := math.NaN(), math.Inf(1)
	bad := []struct {
		field string
		set   func(c *Config)
	}{
		{"TimeStep", func(c *Config) { c.TimeStep = 0 }},
		{"TimeStep", func(c *Config) { c.TimeStep = inf }},
		{"ContactHertz", func(c *Config) { c.ContactHertz = -90 }},
		{"MaxPushOutSpeed", func(c *Config) { c.MaxPushOutSpeed = nan }},
		{"MaxLinearSpeed", func(c *Config) { c.MaxLinearSpeed = 0 }},
		{"MaxAngularSpeed", func(c *Config) { c.MaxAngularSpeed = 0 }},
		{"CellSize", func(c *Config) { c.CellSize = 0 }},
		{"LinearSlop", func(c *Config) { c.LinearSlop = 0 }},
		{"Friction", func(c *Config) { c.Friction = nan }},
		{"Friction", func(c *Config) { c.Friction = -0.5 }},
		{"Restitution", func(c *Config) { c.Restitution = 1.5 }},
		{"RestitutionThreshold", func(c *Config) { c.RestitutionThreshold = -1 }},
		{"ContactDampingRatio", func(c *Config) { c.ContactDampingRatio = inf }},
		{"SpeculativeDistance", func(c *Config) { c.SpeculativeDistance = -0.01 }},
		{"SleepSpeed", func(c *Config) { c.SleepSpeed = -1 }},
		{"SleepTime", func(c *Config) { c.SleepTime = nan }},
		{"LinearDamping", func(c *Config) { c.LinearDamping = -1 }},
		{"AngularDamping", func(c *Config) { c.AngularDamping = inf }},
		{"SetStatePositionTolerance", func(c *Config) { c.SetStatePositionTolerance = -1 }},
		{"SetStateAngleTolerance", func(c *Config) { c.SetStateAngleTolerance = 2 }},
		{"SetStateSpeedTolerance", func(c *Config) { c.SetStateSpeedTolerance = nan }},
		{"Substeps", func(c *Config) { c.Substeps = 0 }},
		{"Substeps", func(c *Config) { c.Substeps = 65 }},
		{"WarmStartDistance", func(c *Config) { c.WarmStartDistance = -0.01 }},
		{"WarmStartDistance", func(c *Config) { c.WarmStartDistance = nan }},
		{"Gravity", func(c *Config) { c.Gravity[2] = nan }},
	}
	for _, tc := range bad {
		c := DefaultConfig()
		tc.set(&c)
		err := c.Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tc.field+" = ") {
			t.Errorf("%s: %v", tc.field, err)
		}
		if _, werr := NewWorld(c); !errors.Is(werr, ErrInvalidConfig) {
			t.Errorf("%s: NewWorld took it: %v", tc.field, werr)
		}
	}
	edges := []func(c *Config){
		func(c *Config) { c.Restitution = 1 },
		func(c *Config) { c.Friction, c.LinearDamping, c.SleepTime = 0, 0, 0 },
		func(c *Config) { c.Substeps = 1 },
		func(c *Config) { c.Substeps = 64 },
		func(c *Config) { c.SetStateAngleTolerance = 1 },
		func(c *Config) { c.WarmStartDistance = 0 },
	}
	for i, set := range edges {
		c := DefaultConfig()
		set(&c)
		if err := c.Validate(); err != nil {
			t.Errorf("edge %d: %v", i, err)
		}
	}
}
