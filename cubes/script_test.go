package cubes

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"netcubes/assets"
)

func TestParseScriptValid(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		ranges []Range
		length int
	}{
		{"single range", "0-9 up", []Range{{0, 9, Input{Up: true}}}, 10},
		{"single frame and comment", "# hi\n5 blow # puff\n", []Range{{5, 5, Input{Blow: true}}}, 6},
		{"several keys", "0-1 up left katamari", []Range{{0, 1, Input{Up: true, Left: true, Katamari: true}}}, 2},
		{"dash holds nothing", "0-9 -\n10-11 down", []Range{{0, 9, Input{}}, {10, 11, Input{Down: true}}}, 12},
		{"end extends", "0-9 right\nend 100", []Range{{0, 9, Input{Right: true}}}, 100},
		{"only end", "end 300", nil, 300},
		{"blank lines and tabs", "\n\t0-2\tup\n\n", []Range{{0, 2, Input{Up: true}}}, 3},
	}
	for _, tt := range tests {
		s, err := ParseScript("t", strings.NewReader(tt.text))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(s.Ranges, tt.ranges) || s.Length != tt.length {
			t.Errorf("%s: got %+v length %d, want %+v length %d", tt.name, s.Ranges, s.Length, tt.ranges, tt.length)
		}
	}
}

// TestParseScriptErrors pins the exact text of every error: the file, the
// line, what is wrong and what was expected, with at most a short prefix of
// a bad token.
func TestParseScriptErrors(t *testing.T) {
	long := strings.Repeat("7", 60000)
	token := strings.Repeat("7", 4000)
	tests := []struct {
		text, want string
	}{
		{"0-9 jump", `t:1: unknown key "jump" (keys: left right up down blow katamari, or - for none)`},
		{"\n-5 up", `t:2: negative frame "-5": want 0 or more`},
		{"3--5 up", `t:1: negative frame "-5": want 0 or more`},
		{"10-5 up", "t:1: range 10-5 ends before it starts: want FROM-TO with TO ≥ FROM"},
		{"0-9 up\n5-12 down", "t:2: range 5-12 overlaps or precedes the previous range, which ends at 9: want ranges in increasing order"},
		{"0-9 up\n9 down", "t:2: range 9-9 overlaps or precedes the previous range, which ends at 9: want ranges in increasing order"},
		{"x-9 up", `t:1: bad frame "x": want a whole number`},
		{"0-9", `t:1: range "0-9" has no keys: want keys after it (- to hold nothing)`},
		{"0-9 up\nend 5", "t:2: end 5 is not after the last range's frame 9: want a larger N"},
		{"end 10\n20 up", "t:2: nothing may follow the end line (line 1): want it last"},
		{"end", `t:1: want "end N" with N a frame number, got "end"`},
		{"end 5 6", `t:1: want "end N" with N a frame number, got "end 5 6"`},
		{"0-99999999 up", "t:1: frame 99999999 is beyond the limit of 5184000 (24 h)"},
		{"# nothing\n", `t:1: empty script: want at least one frame range, such as "0-59 up", or "end N"`},
		{"", `t:1: empty script: want at least one frame range, such as "0-59 up", or "end N"`},
		// A huge bad token is quoted by its first 32 bytes only.
		{"0-9 up\n" + token + "x up", `t:2: bad frame "77777777777777777777777777777777"… (4001 bytes): want a whole number`},
		{"0 " + strings.Repeat("é", 40), `t:1: unknown key "éééééééééééééééé"… (80 bytes) (keys: left right up down blow katamari, or - for none)`},
		// Binary junk is quoted, not printed.
		{"\x00\x01 up", `t:1: bad frame "\x00\x01": want a whole number`},
		// A line longer than MaxLineBytes, and a file with no line breaks.
		{"0-9 up\n# " + long + "\n10 down", "t:2: line 2 is longer than 4096 bytes: want a frame range and its keys (is this a script?)"},
		{"\xff\xfe0\x00-\x009\x00", "t:1: the file is UTF-16 text: want UTF-8 (plain text)"},
	}
	for _, tt := range tests {
		_, err := ParseScript("t", strings.NewReader(tt.text))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%.40q: error\n%v\nwant\n%s", tt.text, err, tt.want)
		}
	}
}

// TestParseScriptFiles reads files as a presenter might pass them: saved
// with a byte-order mark and Windows line ends (accepted), /dev/zero, a
// directory, a file larger than any script, a missing file.
func TestParseScriptFiles(t *testing.T) {
	dir := t.TempDir()
	bom := filepath.Join(dir, "bom.txt")
	if err := os.WriteFile(bom, []byte("\ufeff0-59 up\r\n60 blow\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadScript(bom)
	if err != nil || s.Length != 61 || !s.InputAt(0).Up || !s.InputAt(60).Blow {
		t.Errorf("a script saved with a byte-order mark: %v, %+v", err, s)
	}
	big := filepath.Join(dir, "big.txt")
	line := "# a comment line of sixty-four bytes" + strings.Repeat(".", 27) + "\n"
	text := strings.Repeat(line, MaxScriptBytes/len(line)+1)
	if err := os.WriteFile(big, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{"/dev/zero", "/dev/zero:1: line 1 is longer than 4096 bytes: want a frame range and its keys (is this a script?)"},
		{dir, fmt.Sprintf("script %q is a directory: want a script file", dir)},
		{big, big + ":262145: the script is longer than 16 MiB: want a text file of frame ranges"},
		{filepath.Join(dir, "none.txt"), fmt.Sprintf("script %q is neither built in (idle, katamari, push) nor a readable file: open %s: no such file or directory",
			filepath.Join(dir, "none.txt"), filepath.Join(dir, "none.txt"))},
	}
	for _, tt := range tests {
		if _, err := os.Stat(tt.path); err != nil && tt.path == "/dev/zero" {
			continue
		}
		_, err := LoadScript(tt.path)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error\n%v\nwant\n%s", tt.path, err, tt.want)
		}
	}
}

func TestInputAt(t *testing.T) {
	s, err := ParseScript("t", strings.NewReader("5-9 up\n12 blow\nend 20"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]Input{0: {}, 4: {}, 5: {Up: true}, 9: {Up: true}, 10: {}, 12: {Blow: true}, 13: {}, 19: {}, 25: {}}
	for f, in := range want {
		if got := s.InputAt(f); got != in {
			t.Errorf("frame %d: %v, want %v", f, got, in)
		}
	}
}

func TestInputBitsRoundTrip(t *testing.T) {
	for b := 0; b < 1<<InputBits; b++ {
		in := InputFromBits(uint8(b))
		if in.Bits() != uint8(b) {
			t.Errorf("%06b -> %v -> %06b", b, in, in.Bits())
		}
	}
}

func TestRecorderRoundTrip(t *testing.T) {
	src, err := LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder("recorded")
	for f := 0; f < src.Length; f++ {
		rec.Add(src.InputAt(f))
	}
	var buf bytes.Buffer
	if _, err := rec.Script().WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ParseScript("recorded", &buf)
	if err != nil {
		t.Fatalf("recorded script does not parse: %v\n%s", err, buf.String())
	}
	if back.Length != src.Length {
		t.Errorf("length %d, want %d", back.Length, src.Length)
	}
	for f := 0; f < src.Length+10; f++ {
		if back.InputAt(f) != src.InputAt(f) {
			t.Fatalf("frame %d: replay %v, recorded %v", f, back.InputAt(f), src.InputAt(f))
		}
	}
}

func TestLoadScript(t *testing.T) {
	for _, name := range []string{"katamari", "idle"} {
		if s, err := LoadScript(name); err != nil || s.Length < 60 {
			t.Errorf("%s: %v (length %v)", name, err, s)
		}
	}
	if _, err := LoadScript("no-such-script"); err == nil || !strings.Contains(err.Error(), "neither built in (idle, katamari, push) nor a readable file") {
		t.Errorf("missing script: %v", err)
	}
}

// FuzzParseScript reads any bytes as a script: it fails with one short line
// naming the file and the line, or gives a script that is well formed
// (ranges in order, inside its length) and reads back identically after
// WriteTo.
func FuzzParseScript(f *testing.F) {
	for _, name := range assets.ScriptNames() {
		text, _ := assets.Script(name)
		f.Add([]byte(text))
	}
	f.Add([]byte("\ufeff0-59 up\r\n60 blow\r\nend 100\r\n"))
	f.Add([]byte("0-9 up\n5 down"))
	f.Add([]byte("end 5 # done"))
	f.Add([]byte{0xff, 0xfe, '0', 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseScript("f.txt", bytes.NewReader(data))
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "f.txt:") || strings.Contains(msg, "\n") || len(msg) > 300 {
				t.Fatalf("error is not one short line naming the file: %q", msg)
			}
			return
		}
		last := -1
		for _, r := range s.Ranges {
			if r.From <= last || r.To < r.From {
				t.Fatalf("ranges out of order: %+v", s.Ranges)
			}
			last = r.To
		}
		if s.Length <= last || s.Length > maxScriptFrames {
			t.Fatalf("length %d, last range ends at %d", s.Length, last)
		}
		var buf bytes.Buffer
		if _, err := s.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := ParseScript("f.txt", &buf)
		if err != nil {
			t.Fatalf("written script does not parse: %v\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(back.Ranges, s.Ranges) || back.Length != s.Length {
			t.Fatalf("round trip: %+v / %d, want %+v / %d", back.Ranges, back.Length, s.Ranges, s.Length)
		}
	})
}

// FuzzRecording records any sequence of inputs (a byte per tick, its low
// six bits the keys), writes it as the recording file is written, and loads
// it back: every tick's input replays exactly, and the length is the
// number of ticks recorded.
func FuzzRecording(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 4, 4, 4, 36, 36, 16, 0, 0})
	f.Add(bytes.Repeat([]byte{1, 2}, 100))
	f.Fuzz(func(t *testing.T, ticks []byte) {
		rec := NewRecorder("recorded")
		for _, b := range ticks {
			rec.Add(InputFromBits(b))
		}
		var buf bytes.Buffer
		if _, err := rec.Script().WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := ParseScript("rec.txt", &buf)
		if err != nil {
			t.Fatalf("recording does not load: %v\n%s", err, buf.String())
		}
		if want := max(len(ticks), 1); back.Length != want {
			t.Fatalf("length %d, want %d", back.Length, want)
		}
		for k, b := range ticks {
			if got := back.InputAt(k); got != InputFromBits(b) {
				t.Fatalf("tick %d: replays %v, recorded %v", k, got, InputFromBits(b))
			}
		}
	})
}

// TestRecordPath: a recording path is checked before the run, with one line
// naming what is wrong; SaveText replaces the file whole and leaves no
// temporary file behind.
func TestRecordPath(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "rec.txt")
	readOnly := filepath.Join(t.TempDir(), "read-only.txt")
	if err := os.WriteFile(readOnly, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{ok, ""},
		{dir, dir + " is a directory: want a file name"},
		{filepath.Join(dir, "no", "rec.txt"), "cannot save " + filepath.Join(dir, "no", "rec.txt") + ": the directory " + filepath.Join(dir, "no") + " does not exist"},
		{readOnly, "cannot write " + readOnly + ": permission denied"},
		{"/proc/rec.txt", "cannot save /proc/rec.txt: cannot create files in /proc: no such file or directory"},
	}
	for _, tt := range tests {
		if strings.HasPrefix(tt.path, "/proc") {
			if _, err := os.Stat("/proc/version"); err != nil {
				continue // not Linux
			}
		}
		if tt.path == readOnly && os.Geteuid() == 0 {
			continue // root writes any file
		}
		err := CheckRecordPath(tt.path)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.path, got, tt.want)
		}
	}
	for n := 1; n <= 3; n++ {
		rec := NewRecorder("recorded")
		for f := 0; f < 100*n; f++ {
			rec.Add(Input{Up: f%7 < 3})
		}
		if err := SaveText(ok, rec.Script()); err != nil {
			t.Fatal(err)
		}
		s, err := LoadScript(ok)
		if err != nil || s.Length != 100*n {
			t.Fatalf("save %d: %v, %+v", n, err, s)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in the directory: %v", entries)
	}
	if fi, err := os.Stat(ok); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("recording mode %v, %v", fi.Mode(), err)
	}
}
