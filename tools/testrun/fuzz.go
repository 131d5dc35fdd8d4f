package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"
)

// fuzz runs each fuzz target (pkg:Target) for a bounded time on top of its
// seed corpus, -jobs at a time with one fuzzing worker each, printing a
// line per target as it ends; it fails if any target found a failing
// input. With one worker per target and one target per core, a target gets
// as many executions in -time as it would with every core in half that
// time, and the build and corpus-loading overheads of the targets overlap.
//
// Go 1.26's fuzz coordinator can report its own end-of-time deadline as a
// failure, "context deadline exceeded" with no failing input written
// (go.dev/issue/75804, fixed in Go 1.27): that alone is not a failure.
func fuzz(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
	fuzztime := fs.String("time", "4s", "how long each target fuzzes (go test -fuzztime)")
	minimize := fs.String("minimize", "100x", "bound on minimizing a new input (go test -fuzzminimizetime)")
	jobs := fs.Int("jobs", runtime.NumCPU(), "targets fuzzed at once, one worker each")
	if err := fs.Parse(args); err != nil {
		return err
	}
	targets := fs.Args()
	type result struct {
		line   string
		failed bool
		log    string
	}
	results := make(chan result)
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, *jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				pkg, name, _ := strings.Cut(targets[i], ":")
				start := time.Now()
				cmd := exec.Command("go", "test", "-run", "^$", "-fuzz", "^"+name+"$", "-fuzztime", *fuzztime,
					"-fuzzminimizetime", *minimize, "-parallel", "1", pkg)
				log, err := cmd.CombinedOutput()
				failed := err != nil && !(bytes.Contains(log, []byte("context deadline exceeded")) &&
					!bytes.Contains(log, []byte("Failing input written")))
				status := "ok"
				if failed {
					status = "FAILED"
				}
				results <- result{
					line: fmt.Sprintf("fuzz %s %s: %s, %s inputs in %s", pkg, name, status,
						lastExecs(log), seconds(time.Since(start))),
					failed: failed,
					log:    string(log),
				}
			}
		}()
	}
	go func() {
		for i := range targets {
			next <- i
		}
		close(next)
		wg.Wait()
		close(results)
	}()
	n, failed := 0, 0
	for r := range results {
		n++
		if r.failed {
			failed++
			fmt.Fprint(out, r.log)
		}
		fmt.Fprintf(out, "%2d/%d %s\n", n, len(targets), r.line)
	}
	if failed > 0 {
		return errors.New(fmt.Sprint(failed, " fuzz targets failed"))
	}
	return nil
}

var execsRE = regexp.MustCompile(`execs: (\d+)`)

// lastExecs is the last execution count the fuzzer reported.
func lastExecs(log []byte) string {
	m := execsRE.FindAllSubmatch(log, -1)
	if len(m) == 0 {
		return "?"
	}
	return string(m[len(m)-1][1])
}
