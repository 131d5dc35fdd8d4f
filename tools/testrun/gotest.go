package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	Elapsed     float64
	ImportPath  string // build-output, build-fail
	FailedBuild string
}

// pkgRun is what is known of one package while its tests run.
type pkgRun struct {
	start   time.Time
	running map[string]time.Time // top-level tests started and not ended
	output  map[string]*strings.Builder
	failed  []string // tests that failed, in order
}

// maxKeptOutput bounds the output kept per test (its tail is what tells).
const maxKeptOutput = 64 << 10

// gotest runs go test -json with args and prints one line per package as
// it finishes (with the output of what failed), a line listing what is
// still running after every 30 s of silence, and the counts at the end.
func gotest(args []string, out io.Writer) error {
	start := time.Now()
	cmd := exec.Command("go", append([]string{"test", "-json"}, args...)...)
	w := newWatchedWriter(out)
	cmd.Stderr = w
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	t := newTally()
	stop := w.watch(heartbeat, func(time.Duration) { t.stillRunning(out, start) })
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			fmt.Fprintln(w, sc.Text())
			continue
		}
		t.add(w, e)
	}
	err = cmd.Wait()
	stop()
	t.finish(out, time.Since(start))
	if err == nil && t.failed > 0 {
		err = fmt.Errorf("%d tests failed", t.failed)
	}
	return err
}

// tally follows the event stream.
type tally struct {
	mu                      chan struct{} // a one-slot lock shared with the heartbeat
	pkgs                    map[string]*pkgRun
	build                   map[string]*strings.Builder
	passed, failed, skipped int
	pkgFailed               int
	slow                    []slowTest
}

type slowTest struct {
	name    string
	elapsed float64
}

func newTally() *tally {
	t := &tally{mu: make(chan struct{}, 1), pkgs: map[string]*pkgRun{}, build: map[string]*strings.Builder{}}
	return t
}

func (t *tally) lock()   { t.mu <- struct{}{} }
func (t *tally) unlock() { <-t.mu }

func (t *tally) pkg(name string) *pkgRun {
	p := t.pkgs[name]
	if p == nil {
		p = &pkgRun{start: time.Now(), running: map[string]time.Time{}, output: map[string]*strings.Builder{}}
		t.pkgs[name] = p
	}
	return p
}

func (t *tally) add(out io.Writer, e event) {
	t.lock()
	defer t.unlock()
	switch e.Action {
	case "build-output":
		b := t.build[e.ImportPath]
		if b == nil {
			b = &strings.Builder{}
			t.build[e.ImportPath] = b
		}
		b.WriteString(e.Output)
		return
	case "build-fail":
		if b := t.build[e.ImportPath]; b != nil {
			fmt.Fprint(out, b.String())
		}
		return
	}
	if e.Package == "" {
		return
	}
	p := t.pkg(e.Package)
	top, _, sub := strings.Cut(e.Test, "/")
	switch e.Action {
	case "run":
		if !sub {
			p.running[top] = time.Now()
		}
	case "output":
		b := p.output[e.Test]
		if b == nil {
			b = &strings.Builder{}
			p.output[e.Test] = b
		}
		if b.Len() < maxKeptOutput {
			b.WriteString(e.Output)
		}
	case "pass", "fail", "skip":
		if e.Test == "" {
			t.pkgDone(out, e, p)
			return
		}
		switch e.Action {
		case "pass":
			t.passed++
		case "fail":
			t.failed++
			p.failed = append(p.failed, e.Test)
		case "skip":
			t.skipped++
		}
		if !sub {
			delete(p.running, top)
			t.slow = append(t.slow, slowTest{e.Package + "." + e.Test, e.Elapsed})
		}
	}
}

// pkgDone prints the package's line, and what failed.
func (t *tally) pkgDone(out io.Writer, e event, p *pkgRun) {
	delete(t.pkgs, e.Package)
	pkgOut := ""
	if b := p.output[""]; b != nil {
		pkgOut = b.String()
	}
	switch {
	case e.Action == "skip" || strings.Contains(pkgOut, "[no test files]"):
		return
	case e.Action == "pass" && strings.Contains(pkgOut, "(cached)"):
		fmt.Fprintf(out, "ok    %-28s (cached)\n", e.Package)
		return
	case e.Action == "pass":
		fmt.Fprintf(out, "ok    %-28s %8s\n", e.Package, seconds(secs(e.Elapsed)))
		return
	}
	t.pkgFailed++
	fmt.Fprintf(out, "FAIL  %-28s %8s\n", e.Package, seconds(secs(e.Elapsed)))
	if e.FailedBuild != "" {
		if b := t.build[e.FailedBuild]; b != nil {
			fmt.Fprint(out, b.String())
		}
	}
	shown := map[string]bool{}
	for _, name := range p.failed {
		top, _, _ := strings.Cut(name, "/")
		if shown[top] {
			continue
		}
		shown[top] = true
		for test, b := range sortedOutput(p.output) {
			if test == top || strings.HasPrefix(test, top+"/") {
				fmt.Fprint(out, b)
			}
		}
	}
	if len(p.failed) == 0 || strings.Contains(pkgOut, "panic:") {
		fmt.Fprint(out, tail(pkgOut, 80))
	}
}

// sortedOutput yields the kept outputs in test-name order (a subtest
// after its parent).
func sortedOutput(m map[string]*strings.Builder) func(func(string, string) bool) {
	return func(yield func(string, string) bool) {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if !yield(n, m[n].String()) {
				return
			}
		}
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[... %d lines ...]\n", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "")
}

// stillRunning says which packages are running, with their longest
// running test.
func (t *tally) stillRunning(out io.Writer, start time.Time) {
	t.lock()
	defer t.unlock()
	now := time.Now()
	var parts []string
	names := make([]string, 0, len(t.pkgs))
	for n := range t.pkgs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := t.pkgs[n]
		longest, since := "", now
		for test, at := range p.running {
			if at.Before(since) || (at.Equal(since) && test < longest) {
				longest, since = test, at
			}
		}
		if longest == "" {
			parts = append(parts, n)
			continue
		}
		parts = append(parts, fmt.Sprintf("%s (%s %s)", n, longest, seconds(now.Sub(since))))
	}
	what := "building"
	if len(parts) > 0 {
		what = strings.Join(parts, ", ")
	}
	fmt.Fprintf(out, "   still running after %s: %s\n", seconds(now.Sub(start)), what)
}

// finish prints the slowest tests and the counts, and records the counts
// for the summary.
func (t *tally) finish(out io.Writer, wall time.Duration) {
	t.lock()
	defer t.unlock()
	sort.Slice(t.slow, func(i, j int) bool { return t.slow[i].elapsed > t.slow[j].elapsed })
	var slow []string
	for i := 0; i < len(t.slow) && i < 5; i++ {
		slow = append(slow, fmt.Sprintf("%s %s", t.slow[i].name, seconds(secs(t.slow[i].elapsed))))
	}
	if len(slow) > 0 {
		fmt.Fprintf(out, "slowest: %s\n", strings.Join(slow, ", "))
	}
	counts := fmt.Sprintf("tests: %d passed, %d failed, %d skipped", t.passed, t.failed, t.skipped)
	fmt.Fprintf(out, "go test: %s\n", seconds(wall))
	fmt.Fprintln(out, counts)
	record(fmt.Sprintf("counts\t%d\t%d\t%d", t.passed, t.failed, t.skipped))
	if t.pkgFailed > 0 && t.failed == 0 {
		fmt.Fprintf(os.Stderr, "%d packages failed outside any test (build errors, panics, timeouts)\n", t.pkgFailed)
	}
}
