// Package fmatest finds fused multiply-add instructions in a package's
// compiled code, for the tests that keep floating-point results the same
// bits on every CPU (physics, geom). Fusion rounds x*y+z once instead of
// twice, so a fused build computes other bits than an unfused one and
// would break lockstep between, say, an x86 and an ARM machine. It is
// imported only by tests, and imports nothing of netcubes (the physics
// tests could not import a package that imports physics).
package fmatest

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// Target is a CPU on which Go fuses x*y+z into one instruction.
type Target struct{ GOARCH, GOAMD64 string }

// Targets are arm64, and amd64 at GOAMD64=v3.
var Targets = []Target{{"arm64", ""}, {"amd64", "v3"}}

// Build is the assembly of one target: every function's fused
// instructions, and the functions it has code for.
type Build struct {
	Target
	Funcs map[string]bool     // by name without the package path: "Rotate", "(*World).Step"
	Fused map[string][]string // the fused instructions, by function
}

var (
	fusedRE = regexp.MustCompile(`\s(FN?M(ADD|SUB)D?|VFN?M(ADD|SUB)\d*SD)\s`)
	funcRE  = regexp.MustCompile(`^[\w./-]+?\.(\S+) STEXT`)
)

// Compile builds the package in the working directory for every target
// and reads its assembly. It skips the test in -short mode (two compiles)
// or without a go command.
func Compile(t *testing.T) []Build {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles the package twice")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	var out []Build
	for _, target := range Targets {
		cmd := exec.Command(goBin, "build", "-o", os.DevNull, "-gcflags=-S", ".")
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+target.GOARCH, "CGO_ENABLED=0")
		if target.GOAMD64 != "" {
			cmd.Env = append(cmd.Env, "GOAMD64="+target.GOAMD64)
		}
		asm, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s build failed: %v\n%s", target.GOARCH, err, asm)
		}
		b := Build{Target: target, Funcs: map[string]bool{}, Fused: map[string][]string{}}
		cur := ""
		for _, line := range strings.Split(string(asm), "\n") {
			if m := funcRE.FindStringSubmatch(line); m != nil {
				cur = m[1]
				b.Funcs[cur] = true
			}
			if fusedRE.MatchString(line) {
				b.Fused[cur] = append(b.Fused[cur], strings.TrimSpace(line))
			}
		}
		out = append(out, b)
	}
	return out
}

// RequireNone compiles the package in the working directory for every
// target and fails the test if any fused instruction appears, logging
// the first few; what names the package's code in the message ("the
// step", "the game's rules").
func RequireNone(t *testing.T, what string) {
	t.Helper()
	RequireNoneExcept(t, what, nil)
}

// RequireNoneExcept is RequireNone for a package some of whose functions
// may fuse: allowed maps each such function's name (as in Build.Funcs:
// "(*Stats).add", "benchRun.func1") to why its last bit does not matter
// (a figure shown or printed, a local timer). Any other function with a
// fused instruction fails the test, so new code that computes what two
// machines must agree on cannot fuse unnoticed.
func RequireNoneExcept(t *testing.T, what string, allowed map[string]string) {
	t.Helper()
	for _, b := range Compile(t) {
		shown := 0
		for name, lines := range b.Fused {
			if _, ok := allowed[name]; ok {
				continue
			}
			for _, line := range lines {
				if shown < 5 {
					t.Logf("%s: %s", name, line)
					shown++
				}
			}
		}
		if shown > 0 {
			t.Errorf("GOARCH=%s GOAMD64=%s: fused multiply-add instructions in %s", b.GOARCH, b.GOAMD64, what)
		}
	}
}
