package launch

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/talk"
	"netcubes/ui"
)

// When this variable is set, the test binary behaves as the netcubes
// command itself, so tests run the real app in a subprocess (Ebitengine
// allows one RunGame per process) without a separate go build.
const runAsMainEnv = "NETCUBES_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runAsMainEnv) == "1" || os.Getenv(ui.AudioProbeEnv) == "1" {
		Main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// smallWindow are the flags of a test that runs the app in real time and
// looks at something else than the picture: drawing a small window costs a
// fraction of the default's on the virtual display's software OpenGL.
var smallWindow = []string{"-mute", "-antialias=false", "-width", "480", "-height", "270"}

// runApp runs the app with args (and extra environment) and returns its
// combined output and error.
func runApp(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), runAsMainEnv+"=1"), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.String(), err
}

func loadPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// cubePixels counts pixels in r that look like a cube face: red
// (interacting), the player's blue, or the light grey of resting cubes,
// but not the ground or the sky.
func cubePixels(img image.Image, r image.Rectangle) (red, grey, blue int) {
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			c, g, b, _ := img.At(x, y).RGBA()
			R, G, B := int(c>>8), int(g>>8), int(b>>8)
			switch {
			case R > 150 && G < 90 && B < 90:
				red++
			case B > 150 && R < 110 && G < 170 && B-R > 80:
				blue++
			case R > 200 && G > 200 && B > 190 && abs(R-B) < 20:
				grey++
			}
		}
	}
	return
}

func abs(x int) int { return max(x, -x) }

// distinctColours counts distinct colours in r, stopping at limit.
func distinctColours(img image.Image, r image.Rectangle, limit int) int {
	seen := make(map[[3]uint32]bool)
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			c, g, b, _ := img.At(x, y).RGBA()
			seen[[3]uint32{c, g, b}] = true
			if len(seen) >= limit {
				return limit
			}
		}
	}
	return len(seen)
}

// TestScreenshotEveryStrategy runs the app headless on the katamari script
// for each strategy and checks what it drew: the right size, cubes in both
// halves (and red ones: the ball is forming), and text in the HUD. The
// PNGs are kept in $NETCUBES_SHOTS when set, to look at.
func TestScreenshotEveryStrategy(t *testing.T) {
	dir := os.Getenv("NETCUBES_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, name := range catalog.IDs() {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each is a process of its own
			path := filepath.Join(dir, "shot-"+name+".png")
			// Without anti-aliasing: on the virtual display's software
			// OpenGL it costs ten times the rest of the frame.
			out, err := runApp(t, nil, "-mute", "-antialias=false", "-strategy", name, "-preset", "intercontinental",
				"-script", "katamari", "-frames", "540", "-screenshot", path)
			if err != nil {
				t.Fatalf("app failed: %v\n%s", err, out)
			}
			img := loadPNG(t, path)
			if got := img.Bounds().Size(); got != image.Pt(1600, 900) {
				t.Fatalf("screenshot is %v, want 1600x900", got)
			}
			// The middle band of each half: below the top bar, above the panel.
			left := image.Rect(0, 150, 790, 650)
			right := image.Rect(810, 150, 1600, 650)
			for _, half := range []struct {
				name string
				r    image.Rectangle
			}{{"left", left}, {"right", right}} {
				red, grey, blue := cubePixels(img, half.r)
				ball := red
				if name == "authority" {
					// The ball takes the colour of the machine that
					// simulates it: player 1's blue, not red.
					ball = blue
				}
				if grey < 500 || ball < 200 || blue < 50 {
					t.Errorf("%s half: %d grey, %d red, %d blue cube pixels; want a grid, a red ball and the player", half.name, grey, red, blue)
				}
			}
			for _, hud := range []struct {
				name string
				r    image.Rectangle
			}{{"top bar", image.Rect(0, 0, 1600, 80)}, {"bottom panel", image.Rect(0, 720, 1600, 900)}} {
				if n := distinctColours(img, hud.r, 50); n < 30 {
					t.Errorf("%s has %d colours: blank?", hud.name, n)
				}
			}
		})
	}
}

// TestHelpOverlay starts with the help shown (-show help): over the views
// the screen is the help panel's dark colour, with text on it, where
// without it are the sky and the grid.
func TestHelpOverlay(t *testing.T) {
	t.Parallel() // the app runs in processes of its own
	dir := t.TempDir()
	dark := func(path string) float64 {
		img := loadPNG(t, path)
		n, all := 0, 0
		for y := 150; y < 650; y += 3 {
			for x := 100; x < 1500; x += 3 {
				r, g, b, _ := img.At(x, y).RGBA()
				if r>>8 < 0x40 && g>>8 < 0x40 && b>>8 < 0x50 {
					n++
				}
				all++
			}
		}
		if c := distinctColours(img, image.Rect(100, 150, 1500, 650), 20); c < 20 {
			t.Errorf("%s: %d colours over the views: no text?", path, c)
		}
		return float64(n) / float64(all)
	}
	var frac [2]float64
	for i, show := range []string{"help", ""} {
		path := filepath.Join(dir, fmt.Sprintf("help-%d.png", i))
		out, err := runApp(t, nil, "-mute", "-antialias=false", "-show", show, "-frames", "3", "-screenshot", path)
		if err != nil {
			t.Fatalf("app failed: %v\n%s", err, out)
		}
		frac[i] = dark(path)
	}
	if frac[0] < 0.6 || frac[1] > 0.2 {
		t.Errorf("dark share over the views: %.2f with the help, %.2f without; want > 0.6 and < 0.2", frac[0], frac[1])
	}
}

// TestNoteShowsOverTheHelp: a key's note (here a track's key press, then
// its end) is drawn over the help panel, so a presenter who presses a key
// with the help open still sees what it did. The same run without the
// track has no note: the difference is the note's accent-coloured text.
func TestNoteShowsOverTheHelp(t *testing.T) {
	t.Parallel() // the app runs in processes of its own
	dir := t.TempDir()
	track := filepath.Join(dir, "key.track")
	if err := os.WriteFile(track, []byte("1s key F\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The band above the bottom panel, across the middle, where the note is.
	band := image.Rect(300, 520, 1300, 680)
	accent := func(path string) int {
		img := loadPNG(t, path)
		n := 0
		for y := band.Min.Y; y < band.Max.Y; y++ {
			for x := band.Min.X; x < band.Max.X; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				if r>>8 > 0xe0 && g>>8 > 0xa8 && g>>8 < 0xe0 && b>>8 < 0x70 {
					n++
				}
			}
		}
		return n
	}
	var n [2]int
	for i, script := range []string{track, ""} {
		path := filepath.Join(dir, fmt.Sprintf("note-%d.png", i))
		args := []string{"-mute", "-antialias=false", "-strategy", "compression", "-show", "help", "-frames", "90", "-screenshot", path}
		if script != "" {
			args = append(args, "-script", script)
		}
		out, err := runApp(t, nil, args...)
		if err != nil {
			t.Fatalf("app failed: %v\n%s", err, out)
		}
		n[i] = accent(path)
	}
	if n[0] < n[1]+300 {
		t.Errorf("accent-coloured pixels where the note goes: %d with a note, %d without; want the note's text over the help", n[0], n[1])
	}
}

// TestStuckAudioDoesNotStopTheApp makes the audio probe hang: the app must
// run its frames and exit normally, silently.
func TestStuckAudioDoesNotStopTheApp(t *testing.T) {
	t.Parallel() // the app runs in processes of its own
	path := filepath.Join(t.TempDir(), "shot.png")
	out, err := runApp(t, []string{"NETCUBES_AUDIO_PROBE_HANG=1"}, "-frames", "30", "-screenshot", path)
	if err != nil {
		t.Fatalf("app failed with a hanging audio device: %v\n%s", err, out)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// TestNoProcessOutlivesTheApp: the app's copy of itself that probes the
// sound device (here stuck, as a hung driver would be) ends with the app,
// even when the app exits long before the probe's time limit. Every
// process started under the test carries a marker in its environment;
// after the app exits, none may be left (Linux: read from /proc).
func TestNoProcessOutlivesTheApp(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc to list processes")
	}
	t.Parallel() // the app runs in processes of its own
	marker := fmt.Sprintf("NETCUBES_TEST_MARKER=%d-%d", os.Getpid(), time.Now().UnixNano())
	path := filepath.Join(t.TempDir(), "shot.png")
	// The probe's time limit is longer than the app's run: the app exits
	// first, with its probe still waiting.
	env := []string{"NETCUBES_AUDIO_PROBE_HANG=1", "NETCUBES_AUDIO_PROBE_LIMIT=10m", marker}
	out, err := runApp(t, env, "-frames", "30", "-screenshot", path)
	if err != nil {
		t.Fatalf("app failed: %v\n%s", err, out)
	}
	// The probe sees the end of its input at once; give it a moment to exit.
	var left []int
	for range 100 {
		if left = marked(marker); len(left) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, pid := range left {
		if p, err := os.FindProcess(pid); err == nil {
			p.Kill()
		}
	}
	t.Errorf("processes %v started by the app outlived it", left)
}

// marked lists the processes whose environment holds marker.
func marked(marker string) []int {
	dirs, _ := os.ReadDir("/proc")
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + d.Name() + "/environ")
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + d.Name() + "/stat")
		if bytes.Contains(stat, []byte(") Z ")) {
			continue // a zombie is already gone, waiting to be reaped
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if string(kv) == marker {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// TestMissingAudioDoesNotStopTheApp runs with sound enabled on a machine
// that may have no sound device (this one has none): the probe must see it
// and the app carry on without sound.
func TestMissingAudioDoesNotStopTheApp(t *testing.T) {
	t.Parallel() // the app runs in processes of its own
	out, err := runApp(t, nil, "-frames", "240", "-antialias=false", "-width", "480", "-height", "270", "-script", "katamari")
	if err != nil {
		t.Fatalf("app failed with sound enabled: %v\n%s", err, out)
	}
}

// TestRecordWritesAReplayableScript: -record writes the run as a talk
// track: the command line's settings as setup lines and the player's keys
// frame for frame. (That it replays bit for bit, with every kind of event,
// is package track's test.)
func TestRecordWritesAReplayableScript(t *testing.T) {
	t.Parallel() // the app runs in processes of its own
	path := filepath.Join(t.TempDir(), "rec.txt")
	out, err := runApp(t, nil, append(smallWindow, "-script", "katamari", "-preset", "terrible", "-level", "9",
		"-frames", "400", "-record", path)...)
	if err != nil {
		t.Fatalf("app failed: %v\n%s", err, out)
	}
	rec, err := talk.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var setup []string
	for _, c := range rec.Setup {
		setup = append(setup, c.String())
	}
	if got, want := strings.Join(setup, "; "), "seed 1; strategy interpolation; preset terrible; set level 9"; got != want {
		t.Errorf("the recording's setup is %q, want %q", got, want)
	}
	src, _ := cubes.LoadScript("katamari")
	for f := 0; f < rec.Length; f++ {
		if rec.InputAt(0, f) != src.InputAt(f) {
			t.Fatalf("frame %d: recorded %v, script %v", f, rec.InputAt(0, f), src.InputAt(f))
		}
	}
	if rec.Length < 300 {
		t.Errorf("recording is %d frames long", rec.Length)
	}
}

func TestBadFlagsExitTwo(t *testing.T) {
	t.Parallel() // the app runs in processes of its own
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-frames", "-3"}, "netcubes: -frames must be >= 0, got -3"},
		{[]string{"-screenshot", "x.png"}, "netcubes: -screenshot needs -frames N with N > 0"},
		{[]string{"-width", "10"}, "netcubes: window must be 320x240 to 8192x8192 pixels, got 10x900"},
		{[]string{"-width", "20000", "-height", "20000"}, "netcubes: window must be 320x240 to 8192x8192 pixels, got 20000x20000"},
		{[]string{"-width", "65536", "-height", "300"}, "netcubes: window must be 320x240 to 8192x8192 pixels, got 65536x300"},
		{[]string{"-width", "2147483647"}, "netcubes: window must be 320x240 to 8192x8192 pixels, got 2147483647x900"},
		{[]string{"-text-scale", "NaN"}, "netcubes: -text-scale must be in 0.6..2, got NaN"},
		{[]string{"-text-scale", "+Inf"}, "netcubes: -text-scale must be in 0.6..2, got +Inf"},
		{[]string{"-latency", "NaN"}, "netcubes: -latency must be in 0..5000 ms, got NaN"},
		{[]string{"-loss", "-Inf"}, "netcubes: -loss must be in 0..100 %, got -Inf"},
		{[]string{"-cap", "NaN"}, "netcubes: -cap must be in 0..1e+06 kbit/s, got NaN"},
		{[]string{"-cap", "-5"}, "netcubes: -cap must be in 0..1e+06 kbit/s, got -5"},
		{[]string{"-level", "1\n2"}, `netcubes: -level must be 1..14, got "1\n2"`},
		{[]string{"-level", strings.Repeat("9", 60000)}, `netcubes: -level must be 1..14, got "9999999999999999999999999999999999999999"… (60000 bytes)`},
		{[]string{"-frames", "1\n2"}, `netcubes: invalid value "1\n2" for flag -frames: parse error`},
		{[]string{"-record", "/no/such/dir/rec.txt"}, "netcubes: -record: cannot save /no/such/dir/rec.txt: the directory /no/such/dir does not exist"},
		{[]string{"-record", os.TempDir()}, "netcubes: -record: " + os.TempDir() + " is a directory: want a file name"},
		{[]string{"-frames", "ten"}, `netcubes: invalid value "ten" for flag -frames: parse error`},
		{[]string{"-nosuch"}, "netcubes: flag provided but not defined: -nosuch"},
		{[]string{"extra"}, `netcubes: unexpected argument "extra"`},
		{[]string{"-preset", "moon"}, `netcubes: unknown -preset "moon" (presets: ` + presetNames() + ")"},
		{[]string{"-strategy", "magic"}, fmt.Sprintf("netcubes: unknown -strategy %q (strategies: %s)", "magic", strings.Join(catalog.IDs(), ", "))},
		{[]string{"-loss", "120"}, "netcubes: -loss must be in 0..100 %, got 120"},
		{[]string{"-latency", "-5"}, "netcubes: -latency must be in 0..5000 ms, got -5"},
		{[]string{"-text-scale", "9"}, "netcubes: -text-scale must be in 0.6..2, got 9"},
		{[]string{"-show", "help,fireworks"}, `netcubes: unknown -show item "fireworks" (items: help, priority, updated, offsets, no-ghost, chart, grid)`},
		{[]string{"-role", "middle"}, `netcubes: -role must be left or right, got "middle"`},
		{[]string{"-role", "left"}, "netcubes: -role left needs -listen ADDR (e.g. -listen :40000)"},
		{[]string{"-role", "right", "-connect", "host:1"}, "netcubes: -role right needs -connect HOST:PORT and -token (the left prints both)"},
		{[]string{"-role", "right", "-connect", "host:1", "-token", "xyz"}, "netcubes: -token: a token is 32 hex digits (the left prints it), got 3 characters"},
		{[]string{"-headless"}, "netcubes: -listen and -headless go with -role left"},
		{[]string{"-connect", "host:1"}, "netcubes: -connect goes with -role right"},
		{[]string{"-keep-trying"}, "netcubes: -keep-trying goes with -role right"},
		{[]string{"-diag-every", "-1"}, "netcubes: -diag-every must be 0..600 ticks, got -1"},
		{[]string{"-script", "nope"}, `netcubes: script "nope" is neither built in (idle, katamari, push, tour) nor a readable file: open nope: no such file or directory`},
	}
	for _, tt := range tests {
		out, err := runApp(t, nil, tt.args...)
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 2 {
			t.Errorf("%v: err = %v, want exit code 2", tt.args, err)
		}
		if got := strings.TrimSpace(out); got != tt.want {
			t.Errorf("%v: output\n%q\nwant\n%q", tt.args, got, tt.want)
		}
	}
}

// TestWithoutDisplay runs the app with no display at all (DISPLAY and
// WAYLAND_DISPLAY unset, as on a server): -h prints the flags and exits 0,
// a bad flag prints one line and exits 2, and a real run prints one line
// saying what to do and exits 1 — never a panic or a goroutine trace.
func TestWithoutDisplay(t *testing.T) {
	t.Parallel() // the app runs in processes of its own
	if runtime.GOOS != "linux" {
		t.Skip("only X11 needs $DISPLAY: macOS and Windows always have a window system")
	}
	noDisplay := []string{"DISPLAY=", "WAYLAND_DISPLAY="}
	tests := []struct {
		args  []string
		code  int
		lines int // 0: any number
		want  string
	}{
		{[]string{"-h"}, 0, 0, "usage: netcubes [flags]"},
		{[]string{"-nosuch"}, 2, 1, "netcubes: flag provided but not defined: -nosuch"},
		{[]string{"-mute", "-frames", "1"}, 1, 1, "netcubes: no display to open a window on: run it in a desktop session, or under a virtual display"},
	}
	for _, tt := range tests {
		out, err := runApp(t, noDisplay, tt.args...)
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		out = strings.TrimSpace(out)
		if code != tt.code {
			t.Errorf("%v: exit code %d, want %d\n%s", tt.args, code, tt.code, out)
		}
		if !strings.HasPrefix(out, tt.want) {
			t.Errorf("%v: output\n%s\nwant it to start with %q", tt.args, out, tt.want)
		}
		if n := strings.Count(out, "\n") + 1; tt.lines > 0 && n != tt.lines {
			t.Errorf("%v: %d lines, want %d:\n%s", tt.args, n, tt.lines, out)
		}
		if strings.Contains(out, "goroutine") || strings.Contains(out, "panic") {
			t.Errorf("%v: a trace:\n%s", tt.args, out)
		}
	}
}

// TestReadmeListsEveryKey keeps the README's keys table in step with the
// app's key bindings.
func TestReadmeListsEveryKey(t *testing.T) {
	t.Chdir("../..") // the repository's root: the README, the Makefile, the packages
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ui.KeyTable() {
		if k.Key == "" {
			continue
		}
		row := fmt.Sprintf("| %s | %s |", "`"+k.Key+"`", k.Help)
		if !bytes.Contains(readme, []byte(row)) {
			t.Errorf("README has no row %q", row)
		}
	}
}

// TestRerunCommand: the no-display line's command can be pasted: make run
// with the same flags for make run's and go run's temporary binary (which
// is gone by then), the same binary otherwise, quoted for the shell.
func TestRerunCommand(t *testing.T) {
	for _, tt := range []struct {
		exe  string
		args []string
		want string
	}{
		{"/tmp/go-build123/b001/exe/netcubes", nil, "xvfb-run -a make run"},
		{"/tmp/go-build123/b001/exe/netcubes", []string{"-strategy", "statesync"}, "xvfb-run -a make run ARGS='-strategy statesync'"},
		{"./netcubes", []string{"-show", "help,chart", "-caption", "it's"}, `xvfb-run -a ./netcubes -show help,chart -caption 'it'\''s'`},
		{"/opt/net cubes/netcubes", nil, "xvfb-run -a '/opt/net cubes/netcubes'"},
	} {
		if got := rerunCommand(tt.exe, tt.args); got != tt.want {
			t.Errorf("rerunCommand(%q, %q) = %s, want %s", tt.exe, tt.args, got, tt.want)
		}
	}
}
