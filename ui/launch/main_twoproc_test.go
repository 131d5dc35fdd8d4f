package launch

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"netcubes/udp"
	"netcubes/wire"
)

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestTwoProcessesOverUDP runs a headless left and a right app (under the
// virtual display) as two processes on the loopback interface: the left
// prints a right command that can be pasted as it is (the real address,
// this program, the token), the right started from it joins, the left's
// status line names it, and SIGTERM ends the headless left with 128 + 15
// as it ends the app.
func TestTwoProcessesOverUDP(t *testing.T) {
	left := exec.Command(os.Args[0], "-role", "left", "-listen", "127.0.0.1:0", "-headless")
	left.Env = append(os.Environ(), runAsMainEnv+"=1")
	stdout, err := left.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var leftErr lockedBuffer
	left.Stderr = &leftErr
	if err := left.Start(); err != nil {
		t.Fatal(err)
	}
	defer left.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(what string) string {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the left ended before %s: %s", what, leftErr.String())
			}
			return l
		case <-time.After(20 * time.Second):
			t.Fatalf("the left printed no %s in 20 s", what)
		}
		return ""
	}
	var cmdLine string
	for cmdLine == "" {
		if l := next("right command"); strings.HasPrefix(l, "start the right with:") {
			cmdLine = strings.TrimSpace(next("right command"))
		}
	}
	// "go run . -role right -connect 127.0.0.1:PORT -token HEX" (the test
	// binary runs from go's build cache, as under go run).
	fields := strings.Fields(cmdLine)
	if len(fields) != 9 || strings.Join(fields[:3], " ") != "go run ." || fields[3] != "-role" || fields[4] != "right" ||
		fields[5] != "-connect" || !strings.HasPrefix(fields[6], "127.0.0.1:") || fields[7] != "-token" || len(fields[8]) != 32 {
		t.Fatalf("the right command is not pasteable: %q", cmdLine)
	}
	// Start the right with exactly the printed flags, for 120 ticks in
	// real time (2 s: a -screenshot run would race through its ticks
	// faster than the handshake's round trips and end before it joined).
	var rightOut lockedBuffer
	right := exec.Command(os.Args[0], append(fields[3:], "-frames", "120", "-mute", "-width", "480", "-height", "270")...)
	right.Env = append(os.Environ(), runAsMainEnv+"=1")
	right.Stdout, right.Stderr = &rightOut, &rightOut
	if err := right.Run(); err != nil {
		t.Fatalf("the right: %v\n%s", err, rightOut.String())
	}
	if !strings.Contains(rightOut.String(), "connecting to the left at "+fields[6]) {
		t.Errorf("the right said:\n%s", rightOut.String())
	}
	joined, gone := false, false
	// The left prints a status line every 5 s, so next alone never times
	// out: the whole wait has its own deadline.
	deadline := time.Now().Add(60 * time.Second)
	for !joined || !gone {
		if time.Now().After(deadline) {
			t.Fatalf("in 60 s the left did not say that the right joined (%v) and left (%v); the right said:\n%s", joined, gone, rightOut.String())
		}
		l := next("join and leave")
		joined = joined || strings.Contains(l, "a right joined from 127.0.0.1:")
		gone = gone || strings.Contains(l, "disconnected (slot 0 is free)")
	}
	if err := left.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for range lines {
	}
	err = left.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 128+int(syscall.SIGTERM) {
		t.Fatalf("the headless left ended with %v, want exit status %d\n%s", err, 128+int(syscall.SIGTERM), leftErr.String())
	}
}

// TestRightCommandHosts: a left on a concrete address names it; a left on
// every address names this machine's.
func TestRightCommandHosts(t *testing.T) {
	o, err := parseFlags([]string{"-role", "left", "-listen", "127.0.0.1:0"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := openNetwork(&o, &out); err != nil {
		t.Fatal(err)
	}
	defer o.ui.Session.Server.Close()
	if !strings.Contains(out.String(), "-connect 127.0.0.1:") || strings.Contains(out.String(), "HOST") {
		t.Errorf("printed:\n%s", out.String())
	}
	o, err = parseFlags([]string{"-role", "left", "-listen", ":0"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := openNetwork(&o, &out); err != nil {
		t.Fatal(err)
	}
	defer o.ui.Session.Server.Close()
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 4 && f[len(f)-4] == "-connect" && (strings.HasPrefix(f[len(f)-3], "0.0.0.0") || strings.HasPrefix(f[len(f)-3], "[::]")) {
			t.Errorf("the right command names the unspecified address: %s", l)
		}
	}
}

// TestWrongTokenExits: a right app started with a token the left does not
// have is refused on every attempt; it says why on stderr, whole, and
// exits with udp.ExitRefused (the left here is a socket of the test's).
func TestWrongTokenExits(t *testing.T) {
	tok, err := udp.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := udp.Listen("127.0.0.1:0", tok, udp.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	stop := make(chan struct{})
	defer close(stop)
	go func() { // the left's ticks
		for tick := wire.Tick(0); ; tick++ {
			select {
			case <-stop:
				return
			case <-time.After(time.Second / wire.TicksPerSecond):
				srv.Poll(tick)
			}
		}
	}()
	wrong := tok
	wrong[0] ^= 1
	var out lockedBuffer
	right := exec.Command(os.Args[0], "-role", "right", "-connect", srv.LocalAddr().String(), "-token", wrong.String(),
		"-frames", "1200", "-mute", "-width", "480", "-height", "270")
	right.Env = append(os.Environ(), runAsMainEnv+"=1")
	right.Stdout, right.Stderr = &out, &out
	err = right.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != udp.ExitRefused {
		t.Fatalf("the right ended with %v, want exit status %d\n%s", err, udp.ExitRefused, out.String())
	}
	if !strings.Contains(out.String(), "wrong token (use the one the left printed): gave up after") {
		t.Errorf("the right said:\n%s", out.String())
	}
}
