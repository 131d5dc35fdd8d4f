package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"netcubes/link"
	"netcubes/wire"
)

// challengeFrames records the katamari run's first frames in the
// challenge layout.
func challengeFrames(t testing.TB, frames int) [][]Cube {
	sc := loadScript(t, "katamari")
	s, _ := snapSession(t, link.PresetPerfect.Config(), nil)
	out := [][]Cube{ChallengeFrame(s.Left())}
	for f := 0; f < frames; f++ {
		s.Step(sc.InputAt(f))
		out = append(out, ChallengeFrame(s.Left()))
	}
	return out
}

// TestChallengeRoundTrip: frames written in the challenge layout read
// back identical, and every delta level codes them exactly (CodeChallenge
// checks each decode) with level 12 below level 11, 13 below 12 and, with
// player prediction, 14 below 13.
func TestChallengeRoundTrip(t *testing.T) {
	frames := challengeFrames(t, 360)
	var buf bytes.Buffer
	if err := WriteChallenge(&buf, frames); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != len(frames)*NumChallengeCubes*32 {
		t.Fatalf("%d bytes", buf.Len())
	}
	got, err := ReadChallenge(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for f := range frames {
		for i := range frames[f] {
			if got[f][i] != frames[f][i] {
				t.Fatalf("frame %d cube %d: %+v, want %+v", f, i, got[f][i], frames[f][i])
			}
		}
	}
	// Level 12 beats level 11 with and without player prediction, and
	// level 13 beats level 12 with and without it (with it, thanks to
	// what the older baseline tells about each ball cube: its history
	// class, loose cubes coded against their own motion), and with it
	// level 14 beats level 13 (the ball's cubes turn with their misses).
	for _, predict := range []bool{false, true} {
		bytesAt := map[Level]float64{}
		for l := RelativeIndices; l <= MaxLevel; l++ {
			r, err := CodeChallenge(got, l, predict, true)
			if err != nil {
				t.Fatalf("%v: %v", l, err)
			}
			if r.Packets != len(frames)-ChallengeAge {
				t.Fatalf("%v: %d packets", l, r.Packets)
			}
			bytesAt[l] = r.BytesPerFrame()
		}
		if bytesAt[RangeCoded] >= bytesAt[ChangedFields] || bytesAt[MotionPredicted] >= bytesAt[RangeCoded] ||
			(predict && bytesAt[TurnWithMiss] >= bytesAt[MotionPredicted]) {
			t.Errorf("player prediction %v: bytes per frame %v", predict, bytesAt)
		}
		t.Logf("player prediction %v: bytes per frame by level: %v", predict, bytesAt)
	}
}

// TestChallengeFullNineBits: the challenge's own quantizer writes smallest-
// three components 0..511 (every 9-bit code), where ours write 0..510. A
// file holding 511 reads (as 256), writes back to the same bytes, and codes
// exactly at every delta level, with and without player prediction. The
// frames are the katamari run's with a few cubes pinned at 511 in every
// component from some frame on: the player and grid cubes, changed and
// unchanged, near the player and far from it, in both baselines of level
// 13 and in neither.
func TestChallengeFullNineBits(t *testing.T) {
	frames := challengeFrames(t, 90)
	q := wire.SmallestThreeMax(wire.SnapshotOrientationBits)
	for f := range frames {
		for i := range frames[f] {
			if (i == 0 || i%97 == 3) && f >= 20+i%30 {
				frames[f][i].Orientation.Small = [3]int32{q + 1, q + 1, q + 1}
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteChallenge(&buf, frames); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	if binary.LittleEndian.Uint32(raw[(89*NumChallengeCubes+3)*32+4:]) != 511 {
		t.Fatal("the file does not hold 511 where the test put it")
	}
	got, err := ReadChallenge(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := WriteChallenge(&again, got); err != nil || !bytes.Equal(again.Bytes(), raw) {
		t.Fatalf("read and written again, the file changed (%v)", err)
	}
	for _, predict := range []bool{false, true} {
		for l := DeltaBaseline; l <= MaxLevel; l++ {
			if _, err := CodeChallenge(got, l, predict, true); err != nil {
				t.Errorf("%v, prediction %v: %v", l, predict, err)
			}
		}
	}
}

// TestChallengeHostileFiles: every malformed file is an error naming what
// is wrong, never a panic.
func TestChallengeHostileFiles(t *testing.T) {
	frames := challengeFrames(t, 2)
	var buf bytes.Buffer
	if err := WriteChallenge(&buf, frames); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	field := func(f, cube, k int, v int32) []byte {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint32(b[(f*NumChallengeCubes+cube)*32+4*k:], uint32(v))
		return b
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "0 frames"},
		{"one frame", good[:NumChallengeCubes*32], "1 frames"},
		{"cut short", good[:len(good)-3], "frame 2 is cut short"},
		{"largest", field(1, 5, 0, 4), "frame 1 cube 5: orientation largest is 4"},
		{"component", field(2, 900, 3, -1), "frame 2 cube 900: orientation c is -1"},
		{"component past 9 bits", field(2, 7, 2, 512), "frame 2 cube 7: orientation b is 512, outside 0..511"},
		{"position", field(0, 0, 4, 1<<30), "frame 0 cube 0: position x is 1073741824"},
		{"height", field(1, 1, 6, -5), "position z is -5"},
		{"interacting", field(1, 1, 7, 2), "interacting is 2"},
	}
	for _, tc := range tests {
		_, err := ReadChallenge(bytes.NewReader(tc.data))
		if !errors.Is(err, ErrChallengeFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzReadChallenge: any bytes, read as a file and overlaid on a valid
// three-frame file at an offset they choose, give frames or an error that
// wraps ErrChallengeFormat; frames that read code exactly at level 13.
func FuzzReadChallenge(f *testing.F) {
	frames := challengeFrames(f, 8)
	var buf bytes.Buffer
	if err := WriteChallenge(&buf, frames); err != nil {
		f.Fatal(err)
	}
	good := buf.Bytes()
	f.Add([]byte{}, uint32(0), uint32(0))
	f.Add([]byte{1, 2, 3, 4}, uint32(100), uint32(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f}, uint32(32*901+16), uint32(5))
	f.Fuzz(func(t *testing.T, data []byte, at, cut uint32) {
		if _, err := ReadChallenge(bytes.NewReader(data)); err == nil || !errors.Is(err, ErrChallengeFormat) {
			if len(data) >= 2*NumChallengeCubes*32 {
				return // a valid file the fuzzer built: fine
			}
			t.Fatalf("raw bytes: %v", err)
		}
		file := append([]byte(nil), good...)
		copy(file[int(at)%len(file):], data)
		file = file[:len(file)-int(cut)%len(file)]
		got, err := ReadChallenge(bytes.NewReader(file))
		if err != nil {
			if !errors.Is(err, ErrChallengeFormat) {
				t.Fatalf("error %v does not wrap ErrChallengeFormat", err)
			}
			return
		}
		if _, err := CodeChallenge(got, MotionPredicted, true, true); err != nil && len(got) > ChallengeAge {
			t.Fatalf("code: %v", err)
		}
	})
}
