package predict

// Determinism across CPUs: no fused multiply-add where it matters.

import (
	"testing"

	"netcubes/internal/fmatest"
)

// TestNoFusedMultiplyAdd compiles this package for CPUs on which the Go
// compiler fuses x*y+z into one FMA instruction (arm64, and amd64 at
// GOAMD64=v3) and fails if a fused instruction appears outside the
// functions listed below, whose results are only figures or drawing.
// Fusion rounds once instead of twice, so, fused, the cubes a predicting
// world simulates, its corrections and the tag verdicts would have other
// bits on an ARM machine than on an x86 one. The fix is always the same:
// write the product as float64(x*y), or use geom.Len, geom.Dot and
// geom.QuatLen instead of mgl64's Len, Dot and Quat.Len.
func TestNoFusedMultiplyAdd(t *testing.T) {
	fmatest.RequireNoneExcept(t, "the prediction", map[string]string{
		"(*Stats).addError":      "an error figure",
		"(*Strategy).Event":      "a distance in an event's text",
		"(*others).compare":      "an error figure",
		"(*others).contact":      "a figure (contacts counted)",
		"(*pushEpisode).tick":    "the bench's figures",
		"(*streamBoard).measure": "the bench's figures",
		"benchDiverge.func1":     "the bench's figures",
		"benchSteps.func1":       "the bench's figures",
		"scopeRun.func1":         "the bench's figures",
		"streamRun.func2":        "the bench's figures",
	})
}
