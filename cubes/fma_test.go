package cubes

// Determinism across CPUs: no fused multiply-add in the game's rules.

import (
	"testing"

	"netcubes/internal/fmatest"
)

// TestNoFusedMultiplyAdd compiles this package for CPUs on which the Go
// compiler fuses x*y+z into one FMA instruction (arm64, and amd64 at
// GOAMD64=v3) and fails if any fused instruction appears in the assembly.
// Fusion rounds once instead of twice, so a fused build would compute
// different bits from an unfused one and break lockstep between, say, an
// x86 and an ARM machine: the katamari gather's world differed from the
// second second on. The fix is always the same: write the product as
// float64(x*y), and use the helpers of exact.go instead of mgl64's Dot,
// Len, Cross, Normalize and Quat.Rotate.
func TestNoFusedMultiplyAdd(t *testing.T) {
	fmatest.RequireNone(t, "the game's rules")
}
