package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"netcubes/catalog"
)

// TestSoakShort runs the soak for 1,200 ticks with an action every 10: every
// kind of action happens, nothing is NaN, the report and the summary print.
func TestSoakShort(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"-ticks", "1200", "-rotate", "10", "-every", "1h"}, &out, &errOut, time.Now); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	text := out.String()
	for _, want := range []string{fmt.Sprintf("soak: %d strategies", len(catalog.All())), "soak: 1200 ticks, 119 actions, 0 restarts, 0 NaN, largest error"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

// TestSoakMem: with -mem every report collects first and the end prints
// the memory table, a line per strategy; -memprofile writes a profile.
func TestSoakMem(t *testing.T) {
	var out, errOut bytes.Buffer
	prof := t.TempDir() + "/heap.pprof"
	if err := run([]string{"-ticks", "600", "-rotate", "10", "-every", "1h", "-mem", "-memprofile", prof}, &out, &errOut, time.Now); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	text := out.String()
	if !strings.Contains(text, "memory per strategy active at a report") {
		t.Fatalf("no memory table:\n%s", text)
	}
	for _, st := range catalog.All() {
		if !strings.Contains(text, "\n  "+st.ID()+" ") {
			t.Errorf("the table has no line for %s:\n%s", st.ID(), text)
		}
	}
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Errorf("heap profile: %v", err)
	}
}

func TestSoakBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-duration", "0"}, "-duration must be > 0, got 0s"},
		{[]string{"-rotate", "0"}, "-rotate must be >= 1, got 0"},
		{[]string{"-every", "x"}, `invalid value "x" for flag -every: parse error`},
		{[]string{"more"}, `unexpected argument "more"`},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		err := run(tt.args, &out, &errOut, time.Now)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: %v, want %q", tt.args, err, tt.want)
		}
	}
}

// TestTortureShort plays the first 300 ticks of the script per strategy and
// condition: every line prints, nothing is NaN.
func TestTortureShort(t *testing.T) {
	var out, errOut bytes.Buffer
	sc := "0-59 -\n60-299 up katamari\n"
	path := t.TempDir() + "/short.txt"
	if err := os.WriteFile(path, []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-torture", "-script", path}, &out, &errOut, time.Now); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if want := 2 + len(catalog.All())*len(conditions()) + 1; len(lines) != want {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), want, out.String())
	}
	for _, l := range lines[2 : len(lines)-1] {
		if f := strings.Fields(l); f[len(f)-1] != "0" {
			t.Errorf("NaN in %q", l)
		}
	}
}

// TestTrackShort plays a short talk track to its end: a line per caption,
// the strategy it names, and the summary with no NaN.
func TestTrackShort(t *testing.T) {
	path := t.TempDir() + "/talk.txt"
	text := "strategy statesync\n0 play katamari\n0 caption 1s \"first\"\n2s strategy lockstep\n2s caption \"second\" \"two lines\"\n3s outage 1s\nend 5s\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"-track", path, "-seed", "3"}, &out, &errOut, time.Now); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want a header, two captions and the summary:\n%s", len(lines), out.String())
	}
	for i, want := range []string{"talk.txt: 0:05, seed 3", "State synchronization", "Deterministic lockstep", "talk.txt: 300 frames in 300 ticks, 0 NaN"} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d is %q, want it to say %q", i+1, lines[i], want)
		}
	}
	if !strings.HasSuffix(lines[1], "first") || !strings.HasSuffix(lines[2], "second") {
		t.Errorf("the caption lines do not end with the captions:\n%s", out.String())
	}
}
