package physics

// Determinism across CPUs: no fused multiply-add in the compiled step.

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestNoFusedMultiplyAdd compiles this package for CPUs on which the Go
// compiler fuses x*y+z into one FMA instruction (arm64, and amd64 at
// GOAMD64=v3) and fails if any fused instruction appears in the assembly.
// Fusion rounds once instead of twice, so a fused build would compute
// different bits from an unfused one and break lockstep between, say, an
// x86 and an ARM machine. The fix is always the same: write the product
// as float64(x*y) (see vecmath.go).
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package twice")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	fused := regexp.MustCompile(`\s(FN?M(ADD|SUB)D?|VFN?M(ADD|SUB)\d*SD)\s`)
	for _, target := range []struct{ goarch, goamd64 string }{
		{"arm64", ""},
		{"amd64", "v3"},
	} {
		cmd := exec.Command(goBin, "build", "-o", os.DevNull, "-gcflags=-S", ".")
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+target.goarch, "CGO_ENABLED=0")
		if target.goamd64 != "" {
			cmd.Env = append(cmd.Env, "GOAMD64="+target.goamd64)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s build failed: %v\n%s", target.goarch, err, out)
		}
		shown := 0
		for _, line := range strings.Split(string(out), "\n") {
			if fused.MatchString(line) && shown < 5 {
				t.Log(line)
				shown++
			}
		}
		if shown > 0 {
			t.Errorf("GOARCH=%s GOAMD64=%s: fused multiply-add instructions in the step", target.goarch, target.goamd64)
		}
	}
}
