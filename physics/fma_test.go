package physics

// Determinism across CPUs: no fused multiply-add in the compiled step.

import (
	"testing"

	"netcubes/internal/fmatest"
)

// TestNoFusedMultiplyAdd compiles this package for CPUs on which the Go
// compiler fuses x*y+z into one FMA instruction (arm64, and amd64 at
// GOAMD64=v3) and fails if any fused instruction appears in the assembly.
// Fusion rounds once instead of twice, so a fused build would compute
// different bits from an unfused one and break lockstep between, say, an
// x86 and an ARM machine. The fix is always the same: write the product
// as float64(x*y) (see vecmath.go).
func TestNoFusedMultiplyAdd(t *testing.T) {
	fmatest.RequireNone(t, "the step")
}
