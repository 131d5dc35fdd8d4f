package main

import (
	"bytes"
	"strings"
	"testing"

	"netcubes/internal/cliutil"
)

// TestBadFlags: a bad command line is one line of error (main prints it
// after "bench: " and exits 2), with no list of every flag after it; -h
// lists them.
func TestBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-frames", "ten"}, `invalid value "ten" for flag -frames: parse error`},
		{[]string{"-nosuch"}, "flag provided but not defined: -nosuch"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-preset", "moon"}, `unknown preset "moon" (presets: ` + presetNames() + ")"},
		{[]string{"-frames", "-3"}, "-frames must be >= 0, got -3"},
		{[]string{"-seed", "1\n2"}, `invalid value "1\n2" for flag -seed: parse error`},
		{[]string{"-physics-child"}, "-physics-child wants one argument, the presenter's ticks between decisions"},
		{[]string{"-physics-child", "0"}, "-physics-child wants one argument, the presenter's ticks between decisions"},
		{[]string{"-physics", "-rounds", "0"}, "-rounds must be at least 1"},
		{[]string{"-engine", "noequals"}, `invalid value "noequals" for flag -engine: want NAME=COMMAND, got "noequals"`},
		{[]string{"-clients", "1", "-only", "nothing"}, `no strategy of the scale bench matches -only "nothing"`},
		{[]string{"-script", "nope"}, `script "nope" is neither built in (idle, katamari, push) nor a readable file: open nope: no such file or directory`},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		err := run(tt.args, &out, &errOut)
		if err == nil {
			t.Errorf("%q: no error", tt.args)
			continue
		}
		if _, ok := err.(usageError); !ok {
			t.Errorf("%q: %T is not a usage error", tt.args, err)
		}
		if got := cliutil.OneLine(err.Error()); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.args, got, tt.want)
		}
		if errOut.Len() != 0 || out.Len() != 0 {
			t.Errorf("%q: printed besides the error:\n%s%s", tt.args, out.String(), errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"-h"}, &out, &errOut); err != nil || !strings.Contains(errOut.String(), "-preset") {
		t.Errorf("-h: %v\n%s", err, errOut.String())
	}
}
