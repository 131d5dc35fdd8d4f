package scene

import (
	"errors"
	"strings"
	"testing"
)

// TestCameraConfigValidate: the default framing validates; a field out of
// range is refused by name.
func TestCameraConfigValidate(t *testing.T) {
	c := DefaultCameraConfig()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Far = c.Near / 2
	if err := c.Validate(); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "Far") {
		t.Fatalf("Far below Near: %v", err)
	}
}
