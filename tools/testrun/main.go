// Command testrun runs the phases of `make test` so that the person
// waiting sees what is happening: each phase says when it starts, prints a
// line at least every 45 s while it works (the tests every 30 s), and ends with its wall and CPU
// time; the tests print each package as it finishes; a summary at the end
// lists every phase.
//
//	testrun phase NAME CMD [ARG...]   run one phase
//	testrun gotest [GO TEST ARGS]      go test -json, one line per package
//	testrun fuzz [-time T] [-jobs N] PKG:Target...
//	                                   the fuzz targets, a bounded time each
//	testrun summary                    the table of the phases run so far
//
// The phases are recorded in the file $TESTRUN_LOG (the Makefile sets it),
// which `summary` reads and removes.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// heartbeat is the longest the tests stay silent: past it, a line says
// what is still running. A phase says it is still running after
// phaseHeartbeat of silence: longer, so that the tests' own line (which
// names what runs) comes first, and well under a minute.
const (
	heartbeat      = 30 * time.Second
	phaseHeartbeat = 45 * time.Second
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "phase":
		if len(os.Args) < 4 {
			usage()
		}
		err = phase(os.Args[2], os.Args[3:], os.Stdout)
	case "gotest":
		err = gotest(os.Args[2:], os.Stdout)
	case "fuzz":
		err = fuzz(os.Args[2:], os.Stdout)
	case "summary":
		err = summary(os.Stdout)
	default:
		usage()
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() > 0 {
			os.Exit(ee.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "testrun:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: testrun phase NAME CMD [ARG...] | testrun gotest [ARGS] | testrun fuzz [-time T] [-jobs N] PKG:Target... | testrun summary")
	os.Exit(2)
}

// phase runs the command, passing its output through, says "still
// running" after every heartbeat of silence, and records the outcome.
func phase(name string, argv []string, out io.Writer) error {
	fmt.Fprintf(out, "── %s: %s\n", name, shorten(strings.Join(argv, " "), 100))
	start := time.Now()
	cmd := exec.Command(argv[0], argv[1:]...)
	w := newWatchedWriter(out)
	cmd.Stdout, cmd.Stderr = w, w
	err := cmd.Start()
	if err == nil {
		stop := w.watch(phaseHeartbeat, func(silent time.Duration) {
			fmt.Fprintf(out, "   %s: still running (%s)\n", name, seconds(time.Since(start)))
		})
		err = cmd.Wait()
		stop()
	}
	wall := time.Since(start)
	var cpu time.Duration
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	status := "ok"
	if err != nil {
		status = "FAILED"
	}
	fmt.Fprintf(out, "── %s: %s in %s (CPU %s)\n", name, status, seconds(wall), seconds(cpu))
	record(fmt.Sprintf("phase\t%s\t%s\t%.1f\t%.1f", name, status, wall.Seconds(), cpu.Seconds()))
	return err
}

// shorten cuts s to n runes, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// seconds writes d as "12.3 s" or "4 min 05 s".
func seconds(d time.Duration) string {
	s := d.Seconds()
	if s < 100 {
		return fmt.Sprintf("%.1f s", s)
	}
	m := int(s) / 60
	return fmt.Sprintf("%d min %02d s", m, int(s)-60*m)
}

// record appends a line to $TESTRUN_LOG, if set.
func record(line string) {
	path := os.Getenv("TESTRUN_LOG")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintln(f, line)
	f.Close()
}

// summary prints the phases recorded in $TESTRUN_LOG and removes it; the
// test counts of every gotest run, added up, come last, as the run's
// closing line.
func summary(out io.Writer) error {
	path := os.Getenv("TESTRUN_LOG")
	if path == "" {
		return errors.New("TESTRUN_LOG is not set")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	os.Remove(path)
	var wall, cpu float64
	var passed, failedTests, skipped, runs int
	failed := false
	fmt.Fprintln(out, "── summary")
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		switch {
		case len(f) == 5 && f[0] == "phase":
			var w, c float64
			fmt.Sscan(f[3], &w)
			fmt.Sscan(f[4], &c)
			wall += w
			cpu += c
			failed = failed || f[2] != "ok"
			fmt.Fprintf(out, "   %-16s %-6s %10s   CPU %10s\n", f[1], f[2], seconds(secs(w)), seconds(secs(c)))
		case len(f) == 4 && f[0] == "counts":
			var p, fl, sk int
			fmt.Sscan(f[1], &p)
			fmt.Sscan(f[2], &fl)
			fmt.Sscan(f[3], &sk)
			passed, failedTests, skipped, runs = passed+p, failedTests+fl, skipped+sk, runs+1
		}
	}
	status := "passed"
	if failed {
		status = "FAILED"
	}
	fmt.Fprintf(out, "   %-16s %-6s %10s   CPU %10s\n", "make test", status, seconds(secs(wall)), seconds(secs(cpu)))
	if runs > 0 {
		fmt.Fprintf(out, "tests: %d passed, %d failed, %d skipped\n", passed, failedTests, skipped)
	}
	return nil
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// watchedWriter passes writes through and remembers when the last one was.
type watchedWriter struct {
	mu   sync.Mutex
	out  io.Writer
	last time.Time
}

func newWatchedWriter(out io.Writer) *watchedWriter {
	return &watchedWriter{out: out, last: time.Now()}
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last = time.Now()
	return w.out.Write(p)
}

// watch calls quiet from a goroutine whenever nothing was written for
// limit; the returned function stops it.
func (w *watchedWriter) watch(limit time.Duration, quiet func(silent time.Duration)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				w.mu.Lock()
				silent := now.Sub(w.last)
				w.mu.Unlock()
				if silent >= limit {
					quiet(silent)
					w.mu.Lock()
					w.last = now
					w.mu.Unlock()
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
