package snapshot

// Determinism across CPUs: no fused multiply-add where it matters.

import (
	"testing"

	"netcubes/internal/fmatest"
)

// TestNoFusedMultiplyAdd compiles this package for CPUs on which the Go
// compiler fuses x*y+z into one FMA instruction (arm64, and amd64 at
// GOAMD64=v3) and fails if a fused instruction appears outside the
// functions listed below, whose results are only figures or drawing.
// Fusion rounds once instead of twice, so, fused, a snapshot's decoded
// poses would have other bits on an ARM machine than on an x86 one. The
// fix is always the same: write the product as float64(x*y), or use
// geom.Len, geom.Dot and geom.QuatLen instead of mgl64's Len, Dot and
// Quat.Len.
func TestNoFusedMultiplyAdd(t *testing.T) {
	fmatest.RequireNoneExcept(t, "the snapshots", map[string]string{
		"runCapStep.func2":    "the bench's figures",
		"runSnapshotOn.func1": "the bench's figures",
	})
}
