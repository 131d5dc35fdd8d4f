package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// When this variable is set, the test binary behaves as the netcubes
// command itself, so tests can run the real app in a subprocess (Ebitengine
// allows one RunGame per process) without a separate go build.
const runAsMainEnv = "NETCUBES_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runAsMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runApp runs the app with args and returns its combined output and error.
func runApp(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runAsMainEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.String(), err
}

func TestScreenshot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shot.png")
	out, err := runApp(t, "-frames", "10", "-screenshot", path)
	if err != nil {
		t.Fatalf("app failed: %v\n%s", err, out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got != image.Pt(1600, 900) {
		t.Errorf("screenshot is %v, want 1600x900", got)
	}
	if n := distinctColours(img, 1000); n < 8 {
		t.Errorf("screenshot has %d distinct colours; looks blank", n)
	}
}

// distinctColours counts distinct colours in img, stopping at limit.
func distinctColours(img image.Image, limit int) int {
	seen := make(map[[4]uint32]bool)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= limit {
				return limit
			}
		}
	}
	return len(seen)
}

func TestBadFlagsExitTwo(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-frames", "-3"}, "netcubes: -frames must be >= 0, got -3"},
		{[]string{"-screenshot", "x.png"}, "netcubes: -screenshot needs -frames N with N > 0"},
		{[]string{"-width", "10"}, "netcubes: window must be at least 320x240, got 10x900"},
		{[]string{"-frames", "ten"}, `netcubes: invalid value "ten" for flag -frames: parse error`},
		{[]string{"-nosuch"}, "netcubes: flag provided but not defined: -nosuch"},
		{[]string{"extra"}, `netcubes: unexpected argument "extra"`},
	}
	for _, tt := range tests {
		out, err := runApp(t, tt.args...)
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 2 {
			t.Errorf("%v: err = %v, want exit code 2", tt.args, err)
		}
		if got := strings.TrimSpace(out); got != tt.want {
			t.Errorf("%v: output %q, want %q", tt.args, got, tt.want)
		}
	}
}
