package talk

import (
	"fmt"
	"strconv"
	"strings"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
)

// Op is what a command does.
type Op uint8

// The commands. Each is one line of a track ("12s preset terrible") and
// what one key of the app does (N, X, F4, ...): the app turns every key
// that changes the session into one of these, so a recording is the list
// of commands the presenter gave, each at its frame.
const (
	opNone     Op = iota
	OpStrategy    // strategy ID: switch strategy (the number keys)
	OpSubMode     // submode next|prev: the `]` and `[` keys
	OpKey         // key K, key shift+K: a press of a strategy's setting key
	OpSet         // set NAME VALUE: a strategy setting, by its flag or its name
	OpPreset      // preset NAME [client N]: network preset (N)
	OpLink        // link [client N] [down|up] FIELD VALUE …: any link figure (L, U, K, F7, F10, Y)
	OpChosen      // link chosen (setup): start on the link the strategy's mode chooses
	OpOutage      // outage DURATION|start|end [client N]: drop every packet (X)
	OpChecksum    // checksum on|off (F12)
	OpPlayers     // players N (F4)
	OpShow        // show client N: the client the right shows (Tab)
	OpGhost       // ghost on|off (G)
	OpTint        // tint interacting|priority|updated (T)
	OpOffsets     // offsets on|off (E)
	OpChart       // chart on|off|clear (F3)
	OpHelp        // help on|off (H)
	OpCaption     // caption [DURATION] "line" ["line"] | caption off
	OpPause       // pause [DURATION]: hold the simulation (P)
	OpSlow        // slow on|off (,)
	OpReset       // reset: the world over, settings kept (F5)
	OpScene       // scene: the active strategy as at the start (Home)
	OpRestart     // restart: everything as the setup left it, the world over
	OpPlay        // [pN] play NAME|FILE|off: a player's keys from a script
	OpSeed        // seed N (setup)
	OpBots        // bots LIST (setup)
	OpGrid        // grid on|off: the server and up to four clients at once (0)
	numOps
)

// opNames are the commands' words, by Op.
var opNames = [numOps]string{"", "strategy", "submode", "key", "set", "preset", "link", "link chosen", "outage",
	"checksum", "players", "show", "ghost", "tint", "offsets", "chart", "help", "caption", "pause", "slow",
	"reset", "scene", "restart", "play", "seed", "bots", "grid"}

// commandList is the list of commands an unknown word is told about.
const commandList = "strategy submode key set preset link outage checksum players show ghost tint offsets chart help grid caption pause slow reset scene restart play seed bots end"

func (op Op) String() string {
	if op < numOps {
		return opNames[op]
	}
	return "op" + strconv.Itoa(int(op))
}

// Targets of a command that acts on clients.
const (
	// AllClients is every client and the conditions new clients start on
	// (a command written without "client N").
	AllClients = -1
)

// Outage kinds.
const (
	OutageFor   = iota // drop everything for Ticks
	OutageStart        // drop everything until OutageEnd (the key held)
	OutageEnd
)

// Chart actions.
const (
	ChartOff = iota
	ChartOn
	ChartClear
)

// Command is one action on the session or the stage. Which fields mean
// something depends on Op.
type Command struct {
	Op     Op
	Name   string // strategy ID, setting, key, preset, tint, play source, bots list
	Value  string // a setting's value
	Dir    int    // +1, or −1 (submode prev, key shift+K)
	N      int    // players, the client shown (0-based), ticks (outage, pause, caption; 0: none given)
	Seed   uint64
	On     bool
	Client int // 0-based, or AllClients
	Kind   int // OutageFor/Start/End, ChartOff/On/Clear
	Lines  []string
	Edits  []link.Edit
	Player int           // play: the player (0-based)
	Script *cubes.Script // play: the source (nil: off)
}

// ChangesSession reports whether the command changes the simulation (and
// so, given by the presenter during a track, takes over from it). The
// views' overlays, the client shown, captions and time are not: they
// change what is drawn or when, never what is simulated.
func (c *Command) ChangesSession() bool {
	switch c.Op {
	case OpShow, OpGhost, OpTint, OpOffsets, OpChart, OpHelp, OpGrid, OpCaption, OpPause, OpSlow:
		return false
	}
	return true
}

// setupOnly are the commands that configure a session before it is
// built; timedOnly those that act on a running one.
func (c *Command) setupOnly() bool { return c.Op == OpSeed || c.Op == OpBots || c.Op == OpChosen }

func (c *Command) timedOnly() bool {
	switch c.Op {
	case OpOutage, OpCaption, OpPause, OpReset, OpScene, OpRestart, OpPlay:
		return true
	}
	return false
}

// String writes the command as a track line writes it (without its time).
func (c *Command) String() string {
	var b strings.Builder
	if c.Op == OpPlay && c.Player > 0 {
		fmt.Fprintf(&b, "p%d ", c.Player+1)
	}
	b.WriteString(c.Op.String())
	w := func(s string) { b.WriteByte(' '); b.WriteString(s) }
	switch c.Op {
	case OpStrategy, OpTint, OpBots:
		w(c.Name)
	case OpSubMode:
		w(map[bool]string{true: "next", false: "prev"}[c.Dir > 0])
	case OpKey:
		if c.Dir < 0 {
			w("shift+" + c.Name)
		} else {
			w(c.Name)
		}
	case OpSet:
		w(c.Name)
		w(c.Value)
	case OpPreset:
		w(c.Name)
	case OpLink:
		dir := link.DirBoth
		for _, e := range c.Edits {
			if e.Dir != dir {
				dir = e.Dir
				w(dirNames[dir])
			}
			w(e.Field.String())
			w(editValue(e))
		}
	case OpOutage:
		switch c.Kind {
		case OutageStart:
			w("start")
		case OutageEnd:
			w("end")
		default:
			w(Seconds(c.N))
		}
	case OpChecksum, OpGhost, OpOffsets, OpHelp, OpGrid, OpSlow:
		w(onOff(c.On))
	case OpPlayers:
		w(strconv.Itoa(c.N))
	case OpShow:
		w("client " + strconv.Itoa(c.N+1))
	case OpChart:
		w([]string{"off", "on", "clear"}[c.Kind])
	case OpCaption:
		if c.Lines == nil {
			w("off")
			break
		}
		if c.N > 0 {
			w(Seconds(c.N))
		}
		for _, ln := range c.Lines {
			w(quoteText(ln))
		}
	case OpPause:
		if c.N > 0 {
			w(strconv.Itoa(c.N))
		}
	case OpPlay:
		if c.Script == nil {
			w("off")
		} else {
			w(c.Name)
		}
	case OpSeed:
		w(strconv.FormatUint(c.Seed, 10))
	}
	if (c.Op == OpPreset || c.Op == OpLink || c.Op == OpOutage) && c.Client != AllClients {
		w("client " + strconv.Itoa(c.Client+1))
	}
	return b.String()
}

func onOff(b bool) string { return strategy.OnOff(b) }

// Limits of what a command may ask for.
const (
	maxCaptionLines = 2
	// maxCaptionBytes bounds a caption's line: a longer one would not be
	// readable from the back of a hall.
	maxCaptionBytes = 120
)

// parseCommand reads a command from a line's words (the time taken off).
// ctx resolves names (strategies, settings, scripts to play) and says
// whether the line is a setup line.
func parseCommand(ws []word, ctx *parseContext) (Command, error) {
	player := 0
	if p, ok := playerPrefix(ws[0].s); ok {
		if len(ws) < 2 || ws[1].s != "play" {
			return Command{}, fmt.Errorf("a player prefix %s goes with input ranges or play: want \"%s 0-59 up\" or \"%s 12s play katamari\"",
				quote(ws[0].s), ws[0].s, ws[0].s)
		}
		player, ws = p, ws[1:]
	}
	head := ws[0]
	args := ws[1:]
	c := Command{Client: AllClients, Dir: 1}
	if head.quoted {
		return c, fmt.Errorf("unknown command %s (commands: %s)", quote(head.s), commandList)
	}
	var err error
	switch head.s {
	case "strategy":
		c.Op = OpStrategy
		err = ctx.parseStrategy(&c, args)
	case "submode":
		c.Op = OpSubMode
		err = want(args, 1, "submode next or submode prev")
		if err == nil {
			c.Dir, err = nextPrev(args[0].s)
		}
	case "key":
		c.Op = OpKey
		err = ctx.parseKey(&c, args)
	case "set":
		c.Op = OpSet
		err = ctx.parseSet(&c, args)
	case "preset":
		c.Op = OpPreset
		err = parsePreset(&c, args)
	case "link":
		if len(args) == 1 && args[0].s == "chosen" {
			c.Op = OpChosen
			break
		}
		c.Op = OpLink
		err = parseLink(&c, args)
	case "outage":
		c.Op = OpOutage
		err = parseOutage(&c, args)
	case "checksum", "ghost", "offsets", "help", "grid", "slow":
		c.Op = map[string]Op{"checksum": OpChecksum, "ghost": OpGhost, "offsets": OpOffsets, "help": OpHelp, "grid": OpGrid, "slow": OpSlow}[head.s]
		err = want(args, 1, head.s+" on or "+head.s+" off")
		if err == nil {
			c.On, err = parseOnOff(args[0].s)
		}
	case "players":
		c.Op = OpPlayers
		err = parsePlayers(&c, args)
	case "show":
		c.Op = OpShow
		err = parseShow(&c, args)
	case "tint":
		c.Op = OpTint
		err = parseTint(&c, args)
	case "chart":
		c.Op = OpChart
		err = parseChart(&c, args)
	case "caption":
		c.Op = OpCaption
		err = parseCaption(&c, args)
	case "pause":
		c.Op = OpPause
		if len(args) > 1 {
			err = fmt.Errorf("pause takes one duration at most, got %s", quote(joinWords(args)))
		} else if len(args) == 1 {
			c.N, err = parseDuration(args[0].s)
		}
	case "reset", "scene", "restart":
		c.Op = map[string]Op{"reset": OpReset, "scene": OpScene, "restart": OpRestart}[head.s]
		if len(args) > 0 {
			err = fmt.Errorf("%s takes nothing after it, got %s", head.s, quote(joinWords(args)))
		}
	case "play":
		c.Op = OpPlay
		c.Player = player
		err = ctx.parsePlay(&c, args)
	case "seed":
		c.Op = OpSeed
		err = parseSeed(&c, args)
	case "bots":
		c.Op = OpBots
		err = parseBots(&c, args)
	default:
		return c, fmt.Errorf("unknown command %s (commands: %s; or keys for a frame's input: %s -)",
			quote(head.s), commandList, strings.Join(cubes.KeyNames(), " "))
	}
	if err != nil {
		return c, err
	}
	switch {
	case ctx.setup && c.timedOnly():
		return c, fmt.Errorf("%s needs a time: write it as \"12s %s\"", c.Op, head.s)
	case !ctx.setup && c.setupOnly():
		return c, fmt.Errorf("%s is a setup line: write it without a time, before the timeline", c.Op)
	}
	return c, nil
}

// parsePlayers reads "players N".
func parsePlayers(c *Command, args []word) error {
	if err := want(args, 1, fmt.Sprintf("players N, N from 1 to %d", cubes.MaxPlayers)); err != nil {
		return err
	}
	var err error
	c.N, err = parseCount(args[0].s, "players", 1, cubes.MaxPlayers)
	return err
}

// parseShow reads "show client N" (N counted from 1; c.N from 0).
func parseShow(c *Command, args []word) error {
	if err := want(args, 2, "show client N"); err != nil {
		return err
	}
	if args[0].s != "client" {
		return fmt.Errorf("show %s: want \"show client N\" (the client the right view shows)", quote(args[0].s))
	}
	var err error
	c.N, err = parseCount(args[1].s, "client", 1, game.MaxClients)
	c.N--
	return err
}

// parseTint reads "tint NAME".
func parseTint(c *Command, args []word) error {
	if err := want(args, 1, "tint interacting, tint priority or tint updated"); err != nil {
		return err
	}
	c.Name = args[0].s
	if !validTint(c.Name) {
		return fmt.Errorf("unknown tint %s (tints: %s)", quote(c.Name), strings.Join(TintNames, ", "))
	}
	return nil
}

// parseChart reads "chart on", "chart off" or "chart clear".
func parseChart(c *Command, args []word) error {
	if err := want(args, 1, "chart on, chart off or chart clear"); err != nil {
		return err
	}
	switch args[0].s {
	case "on":
		c.Kind = ChartOn
	case "off":
		c.Kind = ChartOff
	case "clear":
		c.Kind = ChartClear
	default:
		return fmt.Errorf("chart %s: want on, off or clear", quote(args[0].s))
	}
	return nil
}

// parseSeed reads "seed N".
func parseSeed(c *Command, args []word) error {
	if err := want(args, 1, "seed N"); err != nil {
		return err
	}
	var err error
	if c.Seed, err = strconv.ParseUint(args[0].s, 10, 64); err != nil {
		return fmt.Errorf("bad seed %s: want a whole number 0 or more", quote(args[0].s))
	}
	return nil
}

// parseBots reads "bots LIST".
func parseBots(c *Command, args []word) error {
	if err := want(args, 1, "bots LIST, such as bots push,gather"); err != nil {
		return err
	}
	c.Name = args[0].s
	_, err := cubes.ParseBots(args[0].s)
	return err
}

// want checks that a command has n words after it.
func want(args []word, n int, form string) error {
	if len(args) != n {
		got := "nothing"
		if len(args) > 0 {
			got = quote(joinWords(args))
		}
		return fmt.Errorf("want %s, got %s", form, got)
	}
	return nil
}

func joinWords(ws []word) string { return strings.Join(plain(ws), " ") }

func nextPrev(w string) (int, error) {
	switch w {
	case "next", "+1":
		return 1, nil
	case "prev", "-1":
		return -1, nil
	}
	return 0, fmt.Errorf("submode %s: want next or prev", quote(w))
}

func parseOnOff(w string) (bool, error) {
	switch w {
	case "on":
		return true, nil
	case "off":
		return false, nil
	}
	return false, fmt.Errorf("%s: want on or off", quote(w))
}

// parseCount reads a whole number in lo..hi naming what it counts.
func parseCount(w, what string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(w)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("bad %s %s: want %d to %d", what, quote(w), lo, hi)
	}
	return n, nil
}

// playerPrefix reads "p2" … "p8": the player (0-based).
func playerPrefix(w string) (int, bool) {
	if len(w) < 2 || w[0] != 'p' || w[1] < '1' || w[1] > '9' {
		return 0, false
	}
	n, err := strconv.Atoi(w[1:])
	if err != nil || n < 1 || n > cubes.MaxPlayers {
		return 0, false
	}
	return n - 1, true
}

// clientSuffix takes a trailing "client N" off args.
func clientSuffix(c *Command, args []word) ([]word, error) {
	n := len(args)
	if n >= 2 && args[n-2].s == "client" {
		k, err := parseCount(args[n-1].s, "client", 1, game.MaxClients)
		if err != nil {
			return nil, err
		}
		c.Client = k - 1
		return args[:n-2], nil
	}
	if n >= 1 && args[n-1].s == "client" {
		return nil, fmt.Errorf("client needs a number: want \"client N\"")
	}
	return args, nil
}

func parsePreset(c *Command, args []word) error {
	args, err := clientSuffix(c, args)
	if err != nil {
		return err
	}
	if err := want(args, 1, "preset NAME [client N]"); err != nil {
		return err
	}
	p, ok := link.PresetByName(args[0].s)
	if !ok {
		return fmt.Errorf("unknown preset %s (presets: %s)", quote(args[0].s), presetList())
	}
	c.Name = p.String()
	return nil
}

// presetList names every preset.
func presetList() string {
	var names []string
	for p := link.Preset(0); p < link.NumPresets; p++ {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

func parseOutage(c *Command, args []word) error {
	args, err := clientSuffix(c, args)
	if err != nil {
		return err
	}
	if err := want(args, 1, "outage DURATION, outage start or outage end (then client N for one client)"); err != nil {
		return err
	}
	switch args[0].s {
	case "start":
		c.Kind = OutageStart
	case "end":
		c.Kind = OutageEnd
	default:
		c.Kind = OutageFor
		c.N, err = parseDuration(args[0].s)
	}
	return err
}

func parseCaption(c *Command, args []word) error {
	if len(args) == 1 && !args[0].quoted && args[0].s == "off" {
		return nil
	}
	if len(args) > 0 && !args[0].quoted {
		n, err := parseDuration(args[0].s)
		if err != nil {
			return fmt.Errorf("caption: %v (a duration, then the text in quotes)", err)
		}
		c.N, args = n, args[1:]
	}
	if len(args) == 0 || len(args) > maxCaptionLines {
		return fmt.Errorf("want caption [DURATION] \"line\" [\"second line\"] (one or two lines in quotes), or caption off")
	}
	c.Lines = []string{}
	for _, a := range args {
		if !a.quoted {
			return fmt.Errorf("caption text %s: want it in quotes", quote(a.s))
		}
		if strings.TrimSpace(a.s) == "" {
			return fmt.Errorf("empty caption line: want some text in the quotes")
		}
		if len(a.s) > maxCaptionBytes {
			return fmt.Errorf("caption line %s is %d bytes: keep it under %d to be read from the back", quote(a.s), len(a.s), maxCaptionBytes)
		}
		c.Lines = append(c.Lines, a.s)
	}
	return nil
}

// TintNames are the words of the T key's tints, in its order.
var TintNames = []string{"interacting", "priority", "updated"}

func validTint(s string) bool {
	for _, n := range TintNames {
		if n == s {
			return true
		}
	}
	return false
}
