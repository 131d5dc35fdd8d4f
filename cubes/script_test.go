package cubes

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
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

func TestParseScriptErrors(t *testing.T) {
	tests := []struct {
		text, want string
	}{
		{"0-9 jump", `t:1: unknown key "jump" (keys: left right up down blow katamari, or - for none)`},
		{"\n-5 up", "t:2: negative frame -5"},
		{"3--5 up", "t:1: negative frame -5"},
		{"10-5 up", "t:1: range 10-5 ends before it starts"},
		{"0-9 up\n5-12 down", "t:2: range 5-12 overlaps or precedes the previous range, which ends at 9"},
		{"0-9 up\n9 down", "t:2: range 9-9 overlaps or precedes the previous range, which ends at 9"},
		{"x-9 up", `t:1: bad frame "x": want a whole number`},
		{"0-9", "t:1: range 0-9 has no keys (use - to hold nothing)"},
		{"0-9 up\nend 5", "t:2: end 5 is not after the last range's frame 9"},
		{"end 10\n20 up", "t:2: nothing may follow the end line"},
		{"end", `t:1: want "end N"`},
		{"0-99999999 up", "t:1: frame 99999999 is beyond the limit of 5184000 (24 h)"},
		{"# nothing\n", "t: empty script"},
	}
	for _, tt := range tests {
		_, err := ParseScript("t", strings.NewReader(tt.text))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.want)
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
	if _, err := LoadScript("no-such-script"); err == nil || !strings.Contains(err.Error(), "neither built in (idle, katamari) nor a readable file") {
		t.Errorf("missing script: %v", err)
	}
}
