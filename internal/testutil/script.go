package testutil

import (
	"testing"

	"netcubes/cubes"
)

// Katamari loads the built-in katamari script, the scenario the
// strategies' tests play.
func Katamari(tb testing.TB) *cubes.Script {
	tb.Helper()
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}
