package predict

import (
	"testing"

	"netcubes/strategy"
	"netcubes/strategy/strategytest"
)

// TestConformance: the 2004 strategy passes the checks every strategy must
// (package strategytest).
func TestConformance(t *testing.T) {
	strategytest.Conformance(t, func() strategy.Strategy { return New(DefaultConfig()) })
}
