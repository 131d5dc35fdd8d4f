package talk

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"netcubes/internal/cliutil"
	"os"
	"sort"
	"strings"

	"netcubes/assets"
	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/strategy"
)

// Track is a parsed track: setup lines, a timeline of commands, and the
// players' keys.
type Track struct {
	Name string
	// Setup are the lines without a time, in order: they configure the
	// session before its first frame, as command-line flags do (and over
	// them).
	Setup []Command
	// Events are the timed commands, in time order (line order within a
	// frame).
	Events []Event
	// Input holds the players' key ranges (player 1's in Ranges, the
	// others' in Others), as a script without commands has them.
	Input *cubes.Script
	// Length is the track's length in frames: it plays frames 0..Length−1.
	Length int
	// plays are each player's play commands, in time order.
	plays [cubes.MaxPlayers][]playSpan
}

// Event is a command at a frame of the track.
type Event struct {
	At   int
	Cmd  Command
	Line int // the line it was read from (0 when written by the app)
}

// playSpan is a player's keys taken from a script from frame From on.
type playSpan struct {
	From   int
	Script *cubes.Script // nil: play off
}

// HasCommands reports whether the track does more than hold keys: a plain
// script (the katamari input) plays over whatever the presenter set up; a
// track with commands sets up what it needs.
func (t *Track) HasCommands() bool { return len(t.Setup) > 0 || len(t.Events) > 0 }

// Drives reports whether the track holds player p's keys (0-based): player
// 1 always, another when it has ranges or a play command for it.
func (t *Track) Drives(p int) bool {
	return t.Input.Drives(p) || (p >= 0 && p < cubes.MaxPlayers && len(t.plays[p]) > 0)
}

// InputAt is player p's keys at frame f: its range there, else the script
// it plays from an earlier play command (from that script's frame 0 at
// the play's frame), else nothing.
func (t *Track) InputAt(p, f int) cubes.Input {
	if p < 0 || p >= cubes.MaxPlayers || f < 0 || f >= t.Length {
		return cubes.Input{}
	}
	if in := t.Input.PlayerInputAt(p, f); in != (cubes.Input{}) {
		return in
	}
	ps := t.plays[p]
	i := sort.Search(len(ps), func(i int) bool { return ps[i].From > f }) - 1
	if i < 0 || ps[i].Script == nil {
		return cubes.Input{}
	}
	return ps[i].Script.InputAt(f - ps[i].From)
}

// Captions are the times of the track's captions (for jumping between
// them).
func (t *Track) Captions() []int {
	var at []int
	for _, e := range t.Events {
		if e.Cmd.Op == OpCaption && e.Cmd.Lines != nil {
			at = append(at, e.At)
		}
	}
	return at
}

// Limits on what a track file may be, so that a wrong file (a binary, a
// device such as /dev/zero, a file with no line breaks) gets a one-line
// error instead of a long wait, a huge allocation or a huge message.
const (
	MaxLineBytes  = cubes.MaxLineBytes
	MaxTrackBytes = cubes.MaxScriptBytes
)

// Loader finds a script a play command names: a built-in name or a file.
type Loader func(nameOrFile string) (*cubes.Script, error)

// parseContext resolves the names a track's lines give.
type parseContext struct {
	all   []strategy.Strategy // fresh instances, to check names against (built when first needed)
	load  Loader
	setup bool // the line has no time
}

// list is the strategies of the catalog, to check names against.
func (ctx *parseContext) list() []strategy.Strategy {
	if ctx.all == nil {
		ctx.all = catalog.All()
	}
	return ctx.all
}

func (ctx *parseContext) fresh(i int) strategy.Strategy { return catalog.All()[i] }

func (ctx *parseContext) parseStrategy(c *Command, args []word) error {
	if err := want(args, 1, "strategy NAME"); err != nil {
		return err
	}
	list := ctx.list()
	i, ok := catalog.Find(list, args[0].s)
	if !ok {
		return fmt.Errorf("unknown strategy %s (strategies: %s, or 1 to %d)", quote(args[0].s), strings.Join(catalog.IDs(), ", "), len(list))
	}
	c.Name = list[i].ID()
	return nil
}

func (ctx *parseContext) parseKey(c *Command, args []word) error {
	if err := want(args, 1, "key K or key shift+K (a strategy's setting key)"); err != nil {
		return err
	}
	k := args[0].s
	if rest, ok := strings.CutPrefix(k, "shift+"); ok {
		k, c.Dir = rest, -1
	}
	for _, st := range ctx.list() {
		if _, ok := ControlByKey(st, k); ok {
			c.Name = k
			return nil
		}
	}
	return fmt.Errorf("%s is no strategy's setting key (keys: %s)", quote(args[0].s), strings.Join(controlKeys(ctx.list()), " "))
}

func (ctx *parseContext) parseSet(c *Command, args []word) error {
	if err := want(args, 2, "set NAME VALUE"); err != nil {
		return err
	}
	c.Name, c.Value = args[0].s, args[1].s
	return checkSetting(catalog.All(), ctx.fresh, c.Name, c.Value)
}

func (ctx *parseContext) parsePlay(c *Command, args []word) error {
	if err := want(args, 1, "play NAME (a built-in script or a file), or play off"); err != nil {
		return err
	}
	if args[0].s == "off" && !args[0].quoted {
		return nil
	}
	sc, err := ctx.load(args[0].s)
	if err != nil {
		// The loader's words may repeat the name whole (a file system's
		// error does): the line stays one short line.
		return fmt.Errorf("play: %s", cliutil.OneLine(err.Error()))
	}
	c.Name, c.Script = args[0].s, sc
	return nil
}

// ParseWith reads a track, loading play commands' scripts with load
// (cubes.LoadScript reads the built-in ones and files). Every error names
// the file, the line and the word that is wrong:
// "tour.txt:12: unknown preset "terrble" (presets: …)".
func ParseWith(name string, r io.Reader, load Loader) (*Track, error) {
	p := &parser{
		t:   &Track{Name: name, Input: &cubes.Script{Name: name}},
		ctx: parseContext{load: load},
	}
	if err := p.read(name, r); err != nil {
		return nil, err
	}
	return p.t, nil
}

// parser is the state of one ParseWith.
type parser struct {
	t        *Track
	ctx      parseContext
	line     int
	ended    int  // the line of "end N", 0 before it
	timeline int  // the first timed line, 0 before it
	lastAt   int  // the last command's time
	hasAt    bool // a command was timed
	end      int  // frames the timeline needs
}

func (p *parser) fail(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.t.Name, p.line, fmt.Sprintf(format, args...))
}

func (p *parser) read(name string, r io.Reader) error {
	limited := &io.LimitedReader{R: r, N: MaxTrackBytes + 1}
	sc := bufio.NewScanner(limited)
	sc.Buffer(make([]byte, 0, 256), MaxLineBytes)
	for sc.Scan() {
		p.line++
		text := sc.Text()
		if p.line == 1 {
			if strings.HasPrefix(text, "\xff\xfe") || strings.HasPrefix(text, "\xfe\xff") {
				return p.fail("the file is UTF-16 text: want UTF-8 (plain text)")
			}
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if err := p.readLine(text); err != nil {
			return p.fail("%v", err)
		}
	}
	if err := sc.Err(); err != nil {
		p.line++
		if errors.Is(err, bufio.ErrTooLong) {
			return p.fail("line %d is longer than %d bytes: want a time and a command or keys (is this a script?)", p.line, MaxLineBytes)
		}
		return p.fail("cannot read line %d: %v", p.line, err)
	}
	if limited.N <= 0 {
		return p.fail("the script is longer than %d MiB: want a text file of times and commands", MaxTrackBytes>>20)
	}
	t := p.t
	if p.ended == 0 {
		t.Length = p.end
	}
	if t.Length == 0 {
		p.line = max(p.line, 1)
		return p.fail("empty script: want at least one frame range, such as \"0-59 up\", a timed command, or \"end N\"")
	}
	t.Input.Length = t.Length
	return nil
}

func (p *parser) readLine(text string) error {
	ws, err := splitWords(text)
	if err != nil {
		return err
	}
	if len(ws) == 0 {
		return nil
	}
	if p.ended > 0 {
		return fmt.Errorf("nothing may follow the end line (line %d): want it last", p.ended)
	}
	if ws[0].s == "end" && !ws[0].quoted {
		return p.readEnd(ws)
	}
	player := 0
	rest := ws
	if pl, ok := playerPrefix(ws[0].s); ok && len(ws) > 1 {
		player, rest = pl, ws[1:]
	} else if badPlayer(ws[0].s) {
		return fmt.Errorf("bad player %s: want p1 to p%d", quote(ws[0].s), cubes.MaxPlayers)
	}
	if !isTime(rest[0].s) || rest[0].quoted {
		return p.readSetup(ws)
	}
	if p.timeline == 0 {
		p.timeline = p.line
	}
	tw := rest[0].s
	if len(rest) == 1 {
		return fmt.Errorf("time %s has nothing after it: want keys (0-59 up) or a command (12s preset terrible)", quote(tw))
	}
	// A range ("60-299 up") or a frame and keys ("300 blow") is input.
	if (strings.Contains(tw[1:], "-") && !strings.HasPrefix(tw, "+")) || cubes.IsKey(rest[1].s) && !rest[1].quoted {
		return p.readRange(player, tw, rest[1:])
	}
	at, err := p.readAt(tw)
	if err != nil {
		return err
	}
	cmdWords := append([]word(nil), rest[1:]...)
	if player > 0 {
		// "p2 12s play gather": the prefix belongs to the command.
		cmdWords = append([]word{ws[0]}, cmdWords...)
	}
	p.ctx.setup = false
	c, err := parseCommand(cmdWords, &p.ctx)
	if err != nil {
		return err
	}
	p.lastAt, p.hasAt = at, true
	p.t.Events = append(p.t.Events, Event{At: at, Cmd: c, Line: p.line})
	p.need(at + 1)
	switch {
	case c.Op == OpCaption && c.Lines != nil:
		p.need(at + CaptionTicks(c.N))
	case c.Op == OpOutage && c.Kind == OutageFor:
		p.need(at + c.N)
	case c.Op == OpPlay:
		p.t.plays[c.Player] = append(p.t.plays[c.Player], playSpan{From: at, Script: c.Script})
		if c.Script != nil {
			p.need(at + c.Script.Length)
		}
	}
	return nil
}

// need makes the track at least n frames long.
func (p *parser) need(n int) { p.end = max(p.end, min(n, MaxFrames)) }

// readAt reads a command's time: absolute, or "+T" after the command
// before; commands come in time order.
func (p *parser) readAt(w string) (int, error) {
	if rel, ok := strings.CutPrefix(w, "+"); ok {
		d, err := parseTime(rel)
		if err != nil {
			return 0, err
		}
		at := p.lastAt + d
		if at > MaxFrames {
			return 0, fmt.Errorf("time %s is beyond the limit of 24 h", quote(w))
		}
		return at, nil
	}
	at, err := parseTime(w)
	if err != nil {
		return 0, err
	}
	if p.hasAt && at < p.lastAt {
		return 0, fmt.Errorf("%s (%s) comes before the command above it, at %s: want commands in time order",
			quote(w), Clock(at), Clock(p.lastAt))
	}
	return at, nil
}

func (p *parser) readEnd(ws []word) error {
	if len(ws) != 2 {
		return fmt.Errorf("want \"end N\" with N a time, got %s", quote(joinWords(ws)))
	}
	n, err := parseTime(ws[1].s)
	if err != nil {
		return err
	}
	if last := lastFrame(p.t.Input); n <= last {
		return fmt.Errorf("end %d is not after the last range's frame %d: want a larger N", n, last)
	}
	if p.hasAt && n <= p.lastAt {
		return fmt.Errorf("end %s is not after the last command, at %s: want a larger N", quote(ws[1].s), Clock(p.lastAt))
	}
	p.t.Length = n
	p.ended = p.line
	return nil
}

func (p *parser) readSetup(ws []word) error {
	if !p.ctx.setup && p.timeline > 0 {
		return fmt.Errorf("a line without a time (%s) after the timeline started (line %d): setup lines go first",
			quote(ws[0].s), p.timeline)
	}
	if len(ws) >= 2 {
		if _, ok := playerPrefix(ws[0].s); ok && ws[1].s != "play" {
			return fmt.Errorf("player %s has no range: want \"%s FROM-TO keys\"", quote(ws[0].s), ws[0].s)
		}
	}
	p.ctx.setup = true
	defer func() { p.ctx.setup = false }()
	c, err := parseCommand(ws, &p.ctx)
	if err != nil {
		if strings.HasPrefix(err.Error(), "unknown command") && !ws[0].quoted && looksLikeTime(ws[0].s) {
			_, terr := parseTime(ws[0].s)
			return terr
		}
		return err
	}
	p.t.Setup = append(p.t.Setup, c)
	return nil
}

// looksLikeTime is a word a person meant as a time ("-5", "+x").
func looksLikeTime(w string) bool {
	return strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+")
}

func (p *parser) readRange(player int, span string, keys []word) error {
	for _, k := range keys {
		if k.quoted {
			return fmt.Errorf("unknown key %s (keys: %s, or - for none)", quote(k.s), strings.Join(cubes.KeyNames(), " "))
		}
	}
	from, to, isRange := span, span, false
	if i := strings.IndexByte(span[1:], '-'); i >= 0 {
		from, to, isRange = span[:i+1], span[i+2:], true
	}
	if strings.HasPrefix(to, "-") {
		return fmt.Errorf("negative frame %s: want 0 or more", quote(to))
	}
	a, err := parseTime(from)
	if err != nil {
		return err
	}
	b := a
	if isRange {
		if b, err = parseTime(to); err != nil {
			return err
		}
		if !allDigits(to) {
			// A range to a time ("0-1.5s", "0:01-0:02") stops just before
			// it, so the next range can start there: "1.5s-4s left".
			// A range of frames ("0-59") keeps its last frame, as scripts
			// always have.
			b--
		}
		if b < a {
			return fmt.Errorf("range %d-%d ends before it starts: want FROM-TO with TO ≥ FROM", a, b)
		}
	}
	in, err := cubes.ParseKeys(plain(keys))
	if err != nil {
		return err
	}
	tr := &p.t.Input.Ranges
	suffix := ""
	if player > 0 {
		tr = &p.t.Input.Others[player-1]
		suffix = fmt.Sprintf(" of p%d", player+1)
	}
	if n := len(*tr); n > 0 && a <= (*tr)[n-1].To {
		return fmt.Errorf("range %d-%d overlaps or precedes the previous range%s, which ends at %d: want ranges in increasing order",
			a, b, suffix, (*tr)[n-1].To)
	}
	*tr = append(*tr, cubes.Range{From: a, To: b, Input: in})
	p.need(b + 1)
	return nil
}

// Load returns the built-in track or script with this name (see Names), or
// else reads the named file.
func Load(nameOrFile string) (*Track, error) { return LoadWith(nameOrFile, cubes.LoadScript) }

// LoadWith is Load with the loader of play commands' scripts.
func LoadWith(nameOrFile string, load Loader) (*Track, error) {
	if text, ok := builtin(nameOrFile); ok {
		return ParseWith(nameOrFile, strings.NewReader(text), load)
	}
	f, err := os.Open(nameOrFile)
	if err != nil {
		return nil, fmt.Errorf("script %q is neither built in (%s) nor a readable file: %w",
			nameOrFile, strings.Join(Names(), ", "), err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("script %q is a directory: want a script file", nameOrFile)
	}
	return ParseWith(nameOrFile, f, load)
}

// builtin is a built-in track's or script's text.
func builtin(name string) (string, bool) {
	if text, ok := assets.Track(name); ok {
		return text, true
	}
	return assets.Script(name)
}

// Names lists the built-in scripts and tracks, sorted.
func Names() []string {
	names := append(assets.ScriptNames(), assets.TrackNames()...)
	sort.Strings(names)
	return names
}

// badPlayer is a word that looks like a player prefix but names none
// ("p9", "p0").
func badPlayer(w string) bool {
	if len(w) < 2 || w[0] != 'p' {
		return false
	}
	for _, c := range w[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	_, ok := playerPrefix(w)
	return !ok
}

// lastFrame is the last frame any player's range covers, or −1.
func lastFrame(s *cubes.Script) int {
	last := -1
	if n := len(s.Ranges); n > 0 {
		last = s.Ranges[n-1].To
	}
	for _, o := range s.Others {
		if n := len(o); n > 0 {
			last = max(last, o[n-1].To)
		}
	}
	return last
}

// allDigits reports whether s is a plain number of frames.
func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
