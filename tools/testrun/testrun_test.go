package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTally feeds a go test -json stream: a passing package is one line,
// a failing test's output is shown under its package's FAIL line, and the
// counts close the run.
func TestTally(t *testing.T) {
	t.Setenv("TESTRUN_LOG", filepath.Join(t.TempDir(), "log"))
	stream := []event{
		{Action: "start", Package: "p/ok"},
		{Action: "run", Package: "p/ok", Test: "TestA"},
		{Action: "output", Package: "p/ok", Test: "TestA", Output: "quiet\n"},
		{Action: "pass", Package: "p/ok", Test: "TestA", Elapsed: 1.5},
		{Action: "run", Package: "p/ok", Test: "TestB"},
		{Action: "run", Package: "p/ok", Test: "TestB/sub"},
		{Action: "skip", Package: "p/ok", Test: "TestB/sub"},
		{Action: "pass", Package: "p/ok", Test: "TestB", Elapsed: 0.1},
		{Action: "pass", Package: "p/ok", Elapsed: 1.7},
		{Action: "start", Package: "p/bad"},
		{Action: "run", Package: "p/bad", Test: "TestC"},
		{Action: "output", Package: "p/bad", Test: "TestC", Output: "    c_test.go:9: want 2, got 3\n"},
		{Action: "fail", Package: "p/bad", Test: "TestC", Elapsed: 0.2},
		{Action: "fail", Package: "p/bad", Elapsed: 0.3},
	}
	var out bytes.Buffer
	tl := newTally()
	for _, e := range stream {
		tl.add(&out, e)
	}
	tl.finish(&out, 2*time.Second)
	got := out.String()
	for _, want := range []string{
		"ok    p/ok                            1.7 s\n",
		"FAIL  p/bad                           0.3 s\n    c_test.go:9: want 2, got 3\n",
		"slowest: p/ok.TestA 1.5 s, p/bad.TestC 0.2 s, p/ok.TestB 0.1 s\n",
		"tests: 2 passed, 1 failed, 1 skipped\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output\n%s\nlacks\n%s", got, want)
		}
	}
	if strings.Contains(got, "quiet") {
		t.Errorf("a passing test's output was shown:\n%s", got)
	}
	b, _ := os.ReadFile(os.Getenv("TESTRUN_LOG"))
	if string(b) != "counts\t2\t1\t1\n" {
		t.Errorf("log %q", b)
	}
}

// TestPhaseAndSummary runs two phases, one failing, and checks the
// summary's table ends with the counts line.
func TestPhaseAndSummary(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	t.Setenv("TESTRUN_LOG", log)
	var out bytes.Buffer
	if err := phase("one", []string{"go", "version"}, &out); err != nil {
		t.Fatal(err)
	}
	if err := phase("two", []string{"go", "no-such-command"}, &out); err == nil {
		t.Fatal("a failing command passed")
	}
	record("counts\t3\t0\t1")
	record("counts\t2\t0\t0")
	out.Reset()
	if err := summary(&out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(strings.TrimSpace(lines[1]), "one") || !strings.Contains(lines[2], "FAILED") ||
		!strings.Contains(lines[3], "make test        FAILED") || lines[4] != "tests: 5 passed, 0 failed, 1 skipped" {
		t.Errorf("summary:\n%s", out.String())
	}
	if _, err := os.Stat(log); !os.IsNotExist(err) {
		t.Errorf("the log is still there: %v", err)
	}
}
