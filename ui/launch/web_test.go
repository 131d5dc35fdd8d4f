package launch

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"netcubes/game"
	"netcubes/talk"
	"netcubes/ui"
)

func TestWebArgs(t *testing.T) {
	tests := []struct {
		query string
		want  []string
		err   string
	}{
		{"", nil, ""},
		{"strategy=statesync&preset=mobile", []string{"-strategy=statesync", "-preset=mobile"}, ""},
		{"mute&antialias=false", []string{"-mute", "-antialias=false"}, ""},
		{"-strategy=3&&", []string{"-strategy=3"}, ""},
		{"record=my+run.txt", []string{"-record=my run.txt"}, ""},
		{"latency=-5", []string{"-latency=-5"}, ""},
		{"show=help%2Cpriority", []string{"-show=help,priority"}, ""},
		{"a=b=c", []string{"-a=b=c"}, ""},
		{"level=%zz", nil, `the address's parameter "level=%zz" is not URL-encoded right`},
		{"%zz=1", nil, `the address's parameter "%zz=1" is not URL-encoded right`},
		{"=5", nil, `the address has a parameter without a name: "=5"`},
		{"--", nil, `the address has a parameter without a name: "--"`},
	}
	for _, tt := range tests {
		got, err := webArgs(tt.query)
		if tt.err != "" {
			var u ui.UsageError
			if !errors.As(err, &u) || err.Error() != tt.err {
				t.Errorf("webArgs(%q): error %v, want usage error %q", tt.query, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("webArgs(%q) = %q, %v; want %q", tt.query, got, err, tt.want)
		}
	}
}

// TestWebRefusesFilesAndSockets: what the page cannot do is refused in
// one line, what it does differently is a note, and the rest parses as on
// the desktop.
func TestWebRefusesFilesAndSockets(t *testing.T) {
	defer func(l func(string) (*talk.Track, error), c func(string) error) { loadTrack, checkRecordPath = l, c }(loadTrack, checkRecordPath)
	loadTrack, checkRecordPath = webLoadTrack, func(string) error { return nil }
	tests := []struct {
		query string
		err   string
		notes []string
	}{
		{"strategy=predict&preset=mobile&script=katamari", "", nil},
		{"record=run.txt", "", nil},
		{"script=tour", "", nil},
		{"script=tour&video=clip.gif", "-capture and -video write files, which a web page cannot: use the desktop app", nil},
		{"screenshot=a.png&frames=10", "-screenshot writes a file, which a web page cannot: use the browser's screenshot, or the desktop app", nil},
		{"role=left&listen=:40000", "-role: two processes talk over UDP, which a web page cannot: run the desktop app (go run . -role left -listen :40000)", nil},
		{"script=/etc/passwd", `script "/etc/passwd": a web page reads no files; the built-in scripts are idle, katamari, push, tour`, nil},
		{"width=800&fullscreen", "", []string{
			"-width and -height do not apply here: the app fills the browser window",
			"-fullscreen: a browser goes fullscreen only after a key press: press F11"}},
	}
	for _, tt := range tests {
		args, err := webArgs(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		o, err := parseFlags(args, io.Discard)
		if err == nil {
			err = webCheck(o)
		}
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("?%s: error %v, want %q", tt.query, err, tt.err)
		}
		if err != nil {
			continue
		}
		if notes := webNotes(o); !slices.Equal(notes, tt.notes) {
			t.Errorf("?%s: notes %q, want %q", tt.query, notes, tt.notes)
		}
		if o.net.role != game.RoleBoth {
			t.Errorf("?%s: role %v", tt.query, o.net.role)
		}
	}
}

// FuzzWebArgs: the page's address is input too (a link anyone can make).
// Whatever it holds, webArgs gives flags ("-name" or "-name=value") or a
// one-line usage error, and the flag parser takes them without a panic.
func FuzzWebArgs(f *testing.F) {
	defer func(l func(string) (*talk.Track, error), c func(string) error) { loadTrack, checkRecordPath = l, c }(loadTrack, checkRecordPath)
	loadTrack, checkRecordPath = webLoadTrack, func(string) error { return nil }
	for _, seed := range []string{
		"strategy=statesync&preset=mobile",
		"mute&antialias=false&show=help%2Cpriority",
		"record=a%20b.txt&script=katamari",
		"level=%zz&=&&--&%00=%ff",
		"width=2147483648&text-scale=NaN",
		"h",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, query string) {
		args, err := webArgs(query)
		if err != nil {
			var u ui.UsageError
			if !errors.As(err, &u) {
				t.Fatalf("%q: error %v is not a usage error", query, err)
			}
			return
		}
		for _, a := range args {
			if len(a) < 2 || a[0] != '-' || a[1] == '-' {
				t.Fatalf("%q: argument %q is not a flag", query, a)
			}
		}
		o, err := parseFlags(args, io.Discard)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") {
				t.Fatalf("%q: error of more than one line: %q", query, msg)
			}
			return
		}
		_ = webCheck(o)
		_ = webNotes(o)
	})
}
