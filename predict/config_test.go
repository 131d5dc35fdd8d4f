package predict

import (
	"errors"
	"strings"
	"testing"
)

// TestConfigValidate: the defaults validate; a field out of its range is
// refused by name, and New panics on it rather than run with other
// settings.
func TestConfigValidate(t *testing.T) {
	d := DefaultConfig()
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"MoveRing", func(c *Config) { c.MoveRing = 4 }},
		{"SmoothFraction", func(c *Config) { c.SmoothFraction = 2 }},
		{"Others.MaxRewindTicks", func(c *Config) { c.Others.MaxRewindTicks = 0 }},
		{"Clock.FollowRate", func(c *Config) { c.Others.Clock.FollowRate = 0 }},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		err := c.Validate()
		if !errors.Is(err, ErrInvalidConfig) && !strings.Contains(tc.name, "Clock") || err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: %v", tc.name, err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: New did not panic", tc.name)
				}
			}()
			New(c)
		}()
	}
}
