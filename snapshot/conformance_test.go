package snapshot

import (
	"testing"

	"netcubes/strategy"
	"netcubes/strategy/strategytest"
)

// TestConformance: both snapshot entries pass the checks every strategy
// must (package strategytest).
func TestConformance(t *testing.T) {
	t.Run("interpolation", func(t *testing.T) {
		strategytest.Conformance(t, func() strategy.Strategy { return NewInterpolation() })
	})
	t.Run("compression", func(t *testing.T) {
		strategytest.Conformance(t, func() strategy.Strategy { return NewCompression() })
	})
}
