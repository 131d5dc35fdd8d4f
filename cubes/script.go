package cubes

// Scripted input lets a talk replay the same katamari ball every time and
// lets tests and benchmarks across the product run the same scenario. A
// script is plain text, one frame range per line:
//
//	# katamari: gather a ball, then blow it apart
//	0-59        -                 # let the player land
//	60-299      up                # roll into the grid
//	300-899     up left katamari  # circle while pulling
//	end 1800                      # run on, idle, until frame 1800
//
// Frames are 1/60 s ticks counted from 0; "A-B" is inclusive and "A" is a
// single frame. The keys are left, right, up, down, blow and katamari; "-"
// holds nothing. Frames not covered by any range hold nothing. Ranges must
// come in increasing order without overlapping, so a script reads top to
// bottom like a timeline. "end N" (optional, last) makes the script N frames
// long; otherwise it ends after its last range.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"netcubes/assets"
)

// Range holds Input for frames From..To inclusive.
type Range struct {
	From, To int
	Input    Input
}

// Script is a timeline of held keys.
type Script struct {
	Name   string
	Ranges []Range // increasing, not overlapping
	Length int     // frames; InputAt is idle from Length on
}

// maxScriptFrames bounds frame numbers (a day at 60 Hz) so a typo cannot
// ask for an absurd run.
const maxScriptFrames = 60 * 60 * 60 * 24

// ParseScript reads a script. Errors name the line: "katamari.txt:3:
// unknown key "jump" (keys: left right up down blow katamari)".
func ParseScript(name string, r io.Reader) (*Script, error) {
	s := &Script{Name: name}
	sc := bufio.NewScanner(r)
	line := 0
	ended := false
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if ended {
			return nil, fail("nothing may follow the end line")
		}
		if fields[0] == "end" {
			if len(fields) != 2 {
				return nil, fail("want \"end N\"")
			}
			n, err := parseFrame(fields[1])
			if err != nil {
				return nil, fail("%v", err)
			}
			if last := s.lastFrame(); n <= last {
				return nil, fail("end %d is not after the last range's frame %d", n, last)
			}
			s.Length = n
			ended = true
			continue
		}
		rg, err := parseRange(fields)
		if err != nil {
			return nil, fail("%v", err)
		}
		if last := s.lastFrame(); rg.From <= last {
			return nil, fail("range %d-%d overlaps or precedes the previous range, which ends at %d", rg.From, rg.To, last)
		}
		s.Ranges = append(s.Ranges, rg)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !ended {
		s.Length = s.lastFrame() + 1
	}
	if s.Length == 0 {
		return nil, fmt.Errorf("%s: empty script", name)
	}
	return s, nil
}

// lastFrame is the last frame any range covers, or −1.
func (s *Script) lastFrame() int {
	if len(s.Ranges) == 0 {
		return -1
	}
	return s.Ranges[len(s.Ranges)-1].To
}

func parseFrame(f string) (int, error) {
	n, err := strconv.Atoi(f)
	switch {
	case err != nil:
		return 0, fmt.Errorf("bad frame %q: want a whole number", f)
	case n < 0:
		return 0, fmt.Errorf("negative frame %d", n)
	case n > maxScriptFrames:
		return 0, fmt.Errorf("frame %d is beyond the limit of %d (24 h)", n, maxScriptFrames)
	}
	return n, nil
}

func parseRange(fields []string) (Range, error) {
	var rg Range
	from, to, isRange := strings.Cut(fields[0], "-")
	if from == "" && isRange {
		// "-5" is a negative frame, not an open range.
		return rg, fmt.Errorf("negative frame -%s", to)
	}
	var err error
	if rg.From, err = parseFrame(from); err != nil {
		return rg, err
	}
	rg.To = rg.From
	if isRange {
		if rg.To, err = parseFrame(to); err != nil {
			return rg, err
		}
		if rg.To < rg.From {
			return rg, fmt.Errorf("range %d-%d ends before it starts", rg.From, rg.To)
		}
	}
	if len(fields) == 1 {
		return rg, fmt.Errorf("range %s has no keys (use - to hold nothing)", fields[0])
	}
	for _, k := range fields[1:] {
		if k == "-" {
			continue
		}
		switch k {
		case "left":
			rg.Input.Left = true
		case "right":
			rg.Input.Right = true
		case "up":
			rg.Input.Up = true
		case "down":
			rg.Input.Down = true
		case "blow":
			rg.Input.Blow = true
		case "katamari":
			rg.Input.Katamari = true
		default:
			return rg, fmt.Errorf("unknown key %q (keys: %s, or - for none)", k, strings.Join(keyNames[:], " "))
		}
	}
	return rg, nil
}

// InputAt is the input held at frame f (idle outside every range).
func (s *Script) InputAt(f int) Input {
	i := sort.Search(len(s.Ranges), func(i int) bool { return s.Ranges[i].To >= f })
	if i < len(s.Ranges) && s.Ranges[i].From <= f {
		return s.Ranges[i].Input
	}
	return Input{}
}

// WriteTo writes the script in the text format ParseScript reads.
func (s *Script) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %d frames (%.1f s at 60 Hz)\n", s.Name, s.Length, float64(s.Length)/60)
	for _, r := range s.Ranges {
		span := strconv.Itoa(r.From)
		if r.To != r.From {
			span += "-" + strconv.Itoa(r.To)
		}
		fmt.Fprintf(&b, "%-12s %s\n", span, r.Input)
	}
	if s.lastFrame()+1 != s.Length {
		fmt.Fprintf(&b, "end %d\n", s.Length)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// LoadScript returns the built-in script with this name (see
// assets.ScriptNames), or else reads the named file.
func LoadScript(nameOrFile string) (*Script, error) {
	if text, ok := assets.Script(nameOrFile); ok {
		return ParseScript(nameOrFile, strings.NewReader(text))
	}
	f, err := os.Open(nameOrFile)
	if err != nil {
		return nil, fmt.Errorf("script %q is neither built in (%s) nor a readable file: %w",
			nameOrFile, strings.Join(assets.ScriptNames(), ", "), err)
	}
	defer f.Close()
	return ParseScript(nameOrFile, f)
}

// Recorder turns a live sequence of inputs into a Script, merging runs of
// equal input into ranges, so a presenter can record a run once and replay
// it on stage with -script.
type Recorder struct {
	s     Script
	frame int
}

// NewRecorder starts an empty recording.
func NewRecorder(name string) *Recorder { return &Recorder{s: Script{Name: name}} }

// Add records the input of the next frame.
func (r *Recorder) Add(in Input) {
	f := r.frame
	r.frame++
	if in == (Input{}) {
		return
	}
	if n := len(r.s.Ranges); n > 0 && r.s.Ranges[n-1].To == f-1 && r.s.Ranges[n-1].Input == in {
		r.s.Ranges[n-1].To = f
		return
	}
	r.s.Ranges = append(r.s.Ranges, Range{From: f, To: f, Input: in})
}

// Script returns the recording so far (a copy).
func (r *Recorder) Script() *Script {
	s := r.s
	s.Ranges = append([]Range(nil), r.s.Ranges...)
	s.Length = max(r.frame, 1)
	return &s
}
