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
//
// With several players, a line that starts with "p2" … "p8" holds the keys
// of that player ("p2 0-119 up"); lines without it (or with "p1") are
// player 1's, so every one-player script reads as it always did. Each
// player's ranges are in increasing order on their own.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"netcubes/assets"
	"netcubes/internal/cliutil"
)

// Range holds Input for frames From..To inclusive.
type Range struct {
	From, To int
	Input    Input
}

// Script is a timeline of held keys.
type Script struct {
	Name   string
	Ranges []Range // player 1's: increasing, not overlapping
	// Others are the ranges of players 2..MaxPlayers (Others[0] is player
	// 2's), each increasing; empty for a player the script does not drive.
	Others [MaxPlayers - 1][]Range
	Length int // frames; InputAt is idle from Length on
}

// track is player p's ranges (0-based).
func (s *Script) track(p int) *[]Range {
	if p == 0 {
		return &s.Ranges
	}
	return &s.Others[p-1]
}

// Drives reports whether the script holds keys for player p (0-based):
// player 1 always, the others when a line names them.
func (s *Script) Drives(p int) bool {
	return p == 0 || (p < MaxPlayers && len(s.Others[p-1]) > 0)
}

// maxScriptFrames bounds frame numbers (a day at 60 Hz) so a typo cannot
// ask for an absurd run.
const maxScriptFrames = 60 * 60 * 60 * 24

// Limits on what a script file may be, so that a wrong file (a binary, a
// device such as /dev/zero, a file with no line breaks) gets a one-line
// error instead of a long wait, a huge allocation or a huge message.
const (
	// MaxLineBytes bounds one line: a range and its keys take a few dozen
	// bytes; the rest leaves room for a long comment.
	MaxLineBytes = 4096
	// MaxScriptBytes bounds a whole script: an hour's recording with the
	// keys changing every tick is about 5 MB.
	MaxScriptBytes = 16 << 20
	// quoteBytes is how much of a bad token an error message quotes.
	quoteBytes = 32
)

// utf8BOM is the byte-order mark some editors put at the start of a UTF-8
// file; it is not part of the first line.
const utf8BOM = "\ufeff"

// ParseScript reads a script. Every error names the file, the line and what
// was expected there: "katamari.txt:3: unknown key "jump" (keys: left
// right up down blow katamari, or - for none)".
func ParseScript(name string, r io.Reader) (*Script, error) {
	s := &Script{Name: name}
	limited := &io.LimitedReader{R: r, N: MaxScriptBytes + 1}
	sc := bufio.NewScanner(limited)
	sc.Buffer(make([]byte, 0, 256), MaxLineBytes)
	line := 0
	ended := 0 // the line of "end N", 0 before it
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			if strings.HasPrefix(text, "\xff\xfe") || strings.HasPrefix(text, "\xfe\xff") {
				return nil, fail("the file is UTF-16 text: want UTF-8 (plain text)")
			}
			text = strings.TrimPrefix(text, utf8BOM)
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if ended > 0 {
			return nil, fail("nothing may follow the end line (line %d): want it last", ended)
		}
		if fields[0] == "end" {
			if len(fields) != 2 {
				return nil, fail("want \"end N\" with N a frame number, got %s", quote(strings.Join(fields, " ")))
			}
			n, err := parseFrame(fields[1])
			if err != nil {
				return nil, fail("%v", err)
			}
			if last := s.lastFrame(); n <= last {
				return nil, fail("end %d is not after the last range's frame %d: want a larger N", n, last)
			}
			s.Length = n
			ended = line
			continue
		}
		player, fields, err := parsePlayer(fields)
		if err != nil {
			return nil, fail("%v", err)
		}
		rg, err := parseRange(fields)
		if err != nil {
			return nil, fail("%v", err)
		}
		tr := s.track(player)
		if last := lastOf(*tr); rg.From <= last {
			return nil, fail("range %d-%d overlaps or precedes the previous range%s, which ends at %d: want ranges in increasing order",
				rg.From, rg.To, playerSuffix(player), last)
		}
		*tr = append(*tr, rg)
	}
	if err := sc.Err(); err != nil {
		line++ // the line that could not be read
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fail("line %d is longer than %d bytes: want a frame range and its keys (is this a script?)", line, MaxLineBytes)
		}
		return nil, fail("cannot read line %d: %v", line, err)
	}
	if limited.N <= 0 {
		return nil, fail("the script is longer than %d MiB: want a text file of frame ranges", MaxScriptBytes>>20)
	}
	if ended == 0 {
		s.Length = s.lastFrame() + 1
	}
	if s.Length == 0 {
		line = max(line, 1)
		return nil, fail("empty script: want at least one frame range, such as \"0-59 up\", or \"end N\"")
	}
	return s, nil
}

// quote writes a token for an error message: quoted, and cut to its first
// quoteBytes bytes (at a character boundary) with its length when longer,
// so a huge bad token cannot make a huge message.
func quote(tok string) string { return cliutil.QuoteCut(tok, quoteBytes) }

// lastFrame is the last frame any range of any player covers, or −1.
func (s *Script) lastFrame() int {
	last := lastOf(s.Ranges)
	for _, o := range s.Others {
		last = max(last, lastOf(o))
	}
	return last
}

// lastOf is the last frame ranges cover, or −1.
func lastOf(ranges []Range) int {
	if len(ranges) == 0 {
		return -1
	}
	return ranges[len(ranges)-1].To
}

// parsePlayer takes a leading "pN" off a line's fields: the player it
// names (0-based), or player 1 when there is none.
func parsePlayer(fields []string) (int, []string, error) {
	f := fields[0]
	if len(f) < 2 || f[0] != 'p' || f[1] < '0' || f[1] > '9' {
		return 0, fields, nil
	}
	n, err := strconv.Atoi(f[1:])
	if err != nil || n < 1 || n > MaxPlayers {
		return 0, nil, fmt.Errorf("bad player %s: want p1 to p%d", quote(f), MaxPlayers)
	}
	if len(fields) == 1 {
		return 0, nil, fmt.Errorf("player %s has no range: want \"%s FROM-TO keys\"", quote(f), f)
	}
	return n - 1, fields[1:], nil
}

// playerSuffix names player p (0-based) in an error, "" for player 1.
func playerSuffix(p int) string {
	if p == 0 {
		return ""
	}
	return fmt.Sprintf(" of p%d", p+1)
}

func parseFrame(f string) (int, error) {
	n, err := strconv.Atoi(f)
	switch {
	case err != nil:
		return 0, fmt.Errorf("bad frame %s: want a whole number", quote(f))
	case n < 0:
		return 0, fmt.Errorf("negative frame %d: want 0 or more", n)
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
		return rg, fmt.Errorf("negative frame %s: want 0 or more", quote("-"+to))
	}
	var err error
	if rg.From, err = parseFrame(from); err != nil {
		return rg, err
	}
	rg.To = rg.From
	if isRange {
		if strings.HasPrefix(to, "-") {
			return rg, fmt.Errorf("negative frame %s: want 0 or more", quote(to))
		}
		if rg.To, err = parseFrame(to); err != nil {
			return rg, err
		}
		if rg.To < rg.From {
			return rg, fmt.Errorf("range %d-%d ends before it starts: want FROM-TO with TO ≥ FROM", rg.From, rg.To)
		}
	}
	if len(fields) == 1 {
		return rg, fmt.Errorf("range %s has no keys: want keys after it (- to hold nothing)", quote(fields[0]))
	}
	rg.Input, err = ParseKeys(fields[1:])
	return rg, err
}

// ParseKeys reads the keys of a script line ("up katamari", "-" for
// none), with the error a script gives for a word that is not a key. The
// talk tracks (package track) read their input lines with it.
func ParseKeys(words []string) (Input, error) {
	var in Input
	for _, k := range words {
		if k == "-" {
			continue
		}
		switch k {
		case "left":
			in.Left = true
		case "right":
			in.Right = true
		case "up":
			in.Up = true
		case "down":
			in.Down = true
		case "blow":
			in.Blow = true
		case "katamari":
			in.Katamari = true
		default:
			return in, fmt.Errorf("unknown key %s (keys: %s, or - for none)", quote(k), strings.Join(keyNames[:], " "))
		}
	}
	return in, nil
}

// IsKey reports whether word is a key of a script line, or "-".
func IsKey(word string) bool {
	if word == "-" {
		return true
	}
	for _, k := range keyNames {
		if k == word {
			return true
		}
	}
	return false
}

// KeyNames are the keys a script line names, in bit order.
func KeyNames() []string { return keyNames[:] }

// InputAt is player 1's input at frame f (idle outside every range).
func (s *Script) InputAt(f int) Input { return inputIn(s.Ranges, f) }

// PlayerInputAt is player p's (0-based) input at frame f.
func (s *Script) PlayerInputAt(p, f int) Input {
	if p < 0 || p >= MaxPlayers {
		return Input{}
	}
	return inputIn(*s.track(p), f)
}

func inputIn(ranges []Range, f int) Input {
	i := sort.Search(len(ranges), func(i int) bool { return ranges[i].To >= f })
	if i < len(ranges) && ranges[i].From <= f {
		return ranges[i].Input
	}
	return Input{}
}

// WriteTo writes the script in the text format ParseScript reads.
func (s *Script) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %d frames (%.1f s at 60 Hz)\n", s.Name, s.Length, float64(s.Length)/60)
	for p := range MaxPlayers {
		prefix := ""
		if p > 0 {
			prefix = fmt.Sprintf("p%d ", p+1)
		}
		for _, r := range *s.track(p) {
			span := strconv.Itoa(r.From)
			if r.To != r.From {
				span += "-" + strconv.Itoa(r.To)
			}
			fmt.Fprintf(&b, "%s%-12s %s\n", prefix, span, r.Input)
		}
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
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("script %q is a directory: want a script file", nameOrFile)
	}
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

// Add records player 1's input of the next frame.
func (r *Recorder) Add(in Input) { r.AddAll(&Inputs{in}, 1) }

// AddAll records the inputs of the next frame of players 1..players.
func (r *Recorder) AddAll(ins *Inputs, players int) {
	f := r.frame
	r.frame++
	for p := range min(players, MaxPlayers) {
		addRange(r.s.track(p), f, ins[p])
	}
}

// addRange records input in at frame f on a track, extending its last
// range when the keys are the same as on the frame before.
func addRange(tr *[]Range, f int, in Input) {
	if in == (Input{}) {
		return
	}
	if n := len(*tr); n > 0 && (*tr)[n-1].To == f-1 && (*tr)[n-1].Input == in {
		(*tr)[n-1].To = f
		return
	}
	*tr = append(*tr, Range{From: f, To: f, Input: in})
}

// Script returns the recording so far (a copy).
func (r *Recorder) Script() *Script {
	s := r.s
	s.Ranges = append([]Range(nil), r.s.Ranges...)
	for p := range s.Others {
		s.Others[p] = append([]Range(nil), r.s.Others[p]...)
	}
	s.Length = max(r.frame, 1)
	return &s
}

// Design note: a recording that survives any stop. A presenter's rehearsal
// recorded with -record must not depend on the app ending with Ctrl+Q: the
// app saves the recording as it goes (every second), and again when it is
// stopped by a signal or a closed window, so a kill loses at most the last
// second and a crash nothing before its last save. Each save writes the
// whole script to a temporary file in the same directory and renames it
// over the recording: rename is atomic, so a reader (or a kill in the
// middle of a save) sees the previous recording or the new one, never half
// of one. Saves are not forced to the disk (fsync), which could stall a
// frame on a busy disk: a killed process loses nothing saved, a power cut
// may lose the last seconds.

// CheckRecordPath reports, before a run starts, whether a recording can be
// saved at path: not a directory, in a directory that exists and takes new
// files, and not an existing file that cannot be written. Its errors are one
// line naming the path.
func CheckRecordPath(path string) error {
	if path == "" {
		return errors.New("no file named")
	}
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory: want a file name", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write %s: %v", path, errors.Unwrap(err))
		}
		f.Close()
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("cannot save %s: the directory %s does not exist", path, dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".check-*")
	if err != nil {
		return fmt.Errorf("cannot save %s: cannot create files in %s: %v", path, dir, errors.Unwrap(err))
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// SaveText writes what s writes to path atomically: to a temporary file
// in path's directory, then renamed over path (see the design note
// above). A script and a talk track's recording are saved the same way.
func SaveText(path string, s io.WriterTo) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".saving-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// A temporary file is private (0600); the recording is an ordinary
	// text file.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := s.WriteTo(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
