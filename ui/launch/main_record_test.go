//go:build unix

package launch

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"netcubes/cubes"
	"netcubes/physics"
	"netcubes/talk"
)

// startApp starts the app (this test binary as main) with args and returns
// the command, whose combined output goes to out.
func startApp(t *testing.T, out *bytes.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runAsMainEnv+"=1")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// savedFrames is the length of the recording at path, or 0.
func savedFrames(path string) int {
	s, err := talk.Load(path)
	if err != nil {
		return 0
	}
	return s.Length
}

// appWindow finds the window of process pid on the display.
func appWindow(t *testing.T, pid int) string {
	t.Helper()
	out, err := exec.Command("xdotool", "search", "--pid", strconv.Itoa(pid)).Output()
	if err != nil || len(bytes.Fields(out)) == 0 {
		out, err = exec.Command("xdotool", "search", "--name", "netcubes").Output()
	}
	ids := strings.Fields(string(out))
	if err != nil || len(ids) == 0 {
		t.Skipf("no window found with xdotool: %v", err)
	}
	return ids[len(ids)-1]
}

// closeWindowScript asks the window to close as a window manager's close
// button does: a WM_DELETE_WINDOW client message, sent through libX11 from
// Python (xdotool of this vintage can only destroy a window, not ask it).
const closeWindowScript = `
import ctypes, sys
x = ctypes.cdll.LoadLibrary("libX11.so.6")
x.XOpenDisplay.restype = ctypes.c_void_p
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
d = x.XOpenDisplay(None)
if not d:
    sys.exit("no display")
x.XInternAtom.restype = ctypes.c_ulong
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
class ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("l", ctypes.c_long * 5)]
class XEvent(ctypes.Union):
    _fields_ = [("xclient", ClientMessage), ("pad", ctypes.c_long * 24)]
ev = XEvent()
w = int(sys.argv[1])
ev.xclient.type = 33  # ClientMessage
ev.xclient.window = w
ev.xclient.message_type = x.XInternAtom(d, b"WM_PROTOCOLS", 0)
ev.xclient.format = 32
ev.xclient.l[0] = x.XInternAtom(d, b"WM_DELETE_WINDOW", 0)
x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
x.XSendEvent(d, w, 0, 0, ctypes.byref(ev))
x.XFlush.argtypes = [ctypes.c_void_p]
x.XFlush(d)
`

// TestRecordingSurvivesAnyStop records the katamari script with -record and
// stops the app every way it can be stopped: SIGTERM, SIGINT (Ctrl+C in
// the terminal), SIGHUP (the terminal closed), the window's close button,
// and the ways nothing can catch: SIGKILL and a destroyed window (an X
// error ends the process). Each time the file loads, its inputs are the
// script's frame for frame, and replaying it gives the run's state hashes
// up to its last frame. A caught stop saves everything and says where; an
// uncatchable one keeps the save of the last second.
func TestRecordingSurvivesAnyStop(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the app six times")
	}
	src, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		stop   func(t *testing.T, cmd *exec.Cmd)
		code   int
		caught bool // the app saves on the way out and says so
		window bool // finds the window by its title: one at a time
	}{
		{"SIGTERM", signalStop(syscall.SIGTERM), 128 + int(syscall.SIGTERM), true, false},
		{"SIGINT", signalStop(syscall.SIGINT), 128 + int(syscall.SIGINT), true, false},
		{"SIGHUP", signalStop(syscall.SIGHUP), 128 + int(syscall.SIGHUP), true, false},
		{"close button", func(t *testing.T, cmd *exec.Cmd) {
			if _, err := exec.LookPath("python3"); err != nil {
				t.Skip("no python3 to send WM_DELETE_WINDOW")
			}
			w := appWindow(t, cmd.Process.Pid)
			if out, err := exec.Command("python3", "-c", closeWindowScript, w).CombinedOutput(); err != nil {
				t.Fatalf("close: %v %s", err, out)
			}
		}, 0, true, true},
		{"SIGKILL", signalStop(syscall.SIGKILL), -1, false, false},
		{"window destroyed", func(t *testing.T, cmd *exec.Cmd) {
			w := appWindow(t, cmd.Process.Pid)
			if out, err := exec.Command("xdotool", "windowclose", w).CombinedOutput(); err != nil {
				t.Fatalf("xdotool: %v %s", err, out)
			}
		}, 1, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.window {
				t.Parallel()
			}
			path := filepath.Join(t.TempDir(), "rec.txt")
			var out bytes.Buffer
			cmd := startApp(t, &out, append(smallWindow, "-script", "katamari", "-record", path)...)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Wait for two saves (the file is saved every second).
			deadline := time.Now().Add(90 * time.Second)
			for savedFrames(path) < 120 {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("no recording of 2 s after 90 s:\n%s", out.String())
				}
				time.Sleep(100 * time.Millisecond)
			}
			before := savedFrames(path)
			tt.stop(t, cmd)
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("the app did not stop:\n%s", out.String())
			}
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Errorf("exit code %d, want %d\n%s", code, tt.code, out.String())
			}
			rec, err := talk.Load(path)
			if err != nil {
				t.Fatalf("the recording does not load: %v", err)
			}
			if rec.Length < before {
				t.Errorf("the recording shrank from %d to %d frames", before, rec.Length)
			}
			if tt.caught {
				want := fmt.Sprintf("netcubes: recording of %d ticks (%.1f s) saved to %s", rec.Length, float64(rec.Length)/60, path)
				if !strings.Contains(out.String(), want) {
					t.Errorf("output\n%s\nwant a line %q", out.String(), want)
				}
			} else if rec.Length%recordSaveEvery != 0 {
				t.Errorf("%d frames after an uncatchable stop: not a save of the running recording", rec.Length)
			}
			replayMatches(t, rec, src)
			t.Logf("%s: %d frames recorded (%d when stopped)", tt.name, rec.Length, before)
		})
	}
}

// recordSaveEvery is how often the app saves a recording (ui.recordSaveTicks).
const recordSaveEvery = 60

func signalStop(sig syscall.Signal) func(t *testing.T, cmd *exec.Cmd) {
	return func(t *testing.T, cmd *exec.Cmd) {
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
	}
}

// replayMatches plays the recording and the script it recorded on two
// worlds and compares their state hashes at every frame the recording
// holds.
func replayMatches(t *testing.T, rec *talk.Track, src *cubes.Script) {
	t.Helper()
	a, err := cubes.NewWorld(cubes.DefaultConfig(), physics.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := cubes.NewWorld(cubes.DefaultConfig(), physics.DefaultConfig())
	for f := 0; f < rec.Length; f++ {
		if rec.InputAt(0, f) != src.InputAt(f) {
			t.Fatalf("frame %d: recorded %v, the script held %v", f, rec.InputAt(0, f), src.InputAt(f))
		}
		a.Step(rec.InputAt(0, f))
		b.Step(src.InputAt(f))
		if a.StateHash() != b.StateHash() {
			t.Fatalf("frame %d: the replay's hash %x, the run's %x", f, a.StateHash(), b.StateHash())
		}
	}
}
