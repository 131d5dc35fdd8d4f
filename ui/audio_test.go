package ui

import (
	"testing"
	"time"
)

// TestUnmuteAfterMuteFlag: -mute opens nothing; M then looks for a device
// and says so, instead of "sound no device" (the stage report).
func TestUnmuteAfterMuteFlag(t *testing.T) {
	for _, c := range []struct {
		name   string
		device bool
		final  string
	}{
		{"a device answers", true, "on"},
		{"no device", false, "unavailable: no sound device answered"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSounds(true)
			if s.status() != "muted" || s.state.Load() != audioNotProbed {
				t.Fatalf("-mute: status %q, state %d", s.status(), s.state.Load())
			}
			release := make(chan struct{})
			probe := func() bool { <-release; return c.device }
			if got := s.toggleMute(probe); got != "sound on as soon as the sound device answers" {
				t.Errorf("M after -mute says %q", got)
			}
			close(release)
			deadline := time.Now().Add(5 * time.Second)
			for s.state.Load() == audioProbing && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			if got := s.status(); got != c.final {
				t.Errorf("after the probe: %q, want %q", got, c.final)
			}
			if got := s.toggleMute(probe); got != "sound muted" {
				t.Errorf("M again says %q", got)
			}
		})
	}
}
