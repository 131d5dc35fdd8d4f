package track

import (
	"fmt"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
)

// Setup lines configure the session before its first frame, over what the
// command line set, as more flags would: the seed, the players and their
// bots, the strategy to start with, every client's link, the checksum,
// the strategies' settings, the overlays.

// applySetup applies setup commands to cfg (its strategies too) and to the
// stage; the commands that act on a built session (show client) are
// returned for after it is built.
func applySetup(cfg *game.Config, st *stage, cmds []Command) (after []Command, slow bool, err error) {
	chose, linked := false, false
	for i := range cmds {
		c := &cmds[i]
		switch c.Op {
		case OpSeed:
			cfg.Seed = c.Seed
		case OpPlayers:
			cfg.World.Players = c.N
		case OpBots:
			kinds, err := cubes.ParseBots(c.Name)
			if err != nil {
				return nil, false, err
			}
			cfg.Bots = kinds
		case OpStrategy:
			k, ok := catalog.Find(cfg.Strategies, c.Name)
			if !ok {
				return nil, false, fmt.Errorf("no strategy %q in this session", c.Name)
			}
			cfg.Start, chose = k, true
		case OpPreset:
			linked = true
			p, _ := link.PresetByName(c.Name)
			setupLinks(cfg, st, c.Client, &LinkChoice{Preset: p}, func(link.Pair) link.Pair { return p.Pair() })
		case OpLink:
			linked = true
			setupLinks(cfg, st, c.Client, nil, func(q link.Pair) link.Pair { return q.Apply(c.Edits) })
		case OpChosen:
			cfg.ChosenLink = true
		case OpChecksum:
			cfg.Checksum = c.On
		case OpSet:
			if err := setEverywhere(cfg.Strategies, -1, nil, c.Name, c.Value); err != nil {
				return nil, false, err
			}
		case OpKey:
			s := cfg.Strategies[cfg.Start]
			if k, ok := controlByKey(s, c.Name); ok {
				s.Controls()[k].Do(c.Dir)
			}
		case OpSubMode:
			cfg.Strategies[cfg.Start].SubMode(c.Dir)
		case OpSlow:
			slow = c.On
		case OpShow:
			after = append(after, *c)
		default:
			if !applyView(&st.view, c) {
				return nil, false, fmt.Errorf("%s cannot be a setup line", c.Op)
			}
		}
		if c.Op == OpChosen {
			linked = false
		}
	}
	// As on the command line: a strategy whose modes are network conditions
	// starts on its mode's link unless the setup chose the network.
	if chose || linked {
		_, lc := cfg.Strategies[cfg.Start].(strategy.LinkChooser)
		switch {
		case linked:
			cfg.ChosenLink = false
		case lc:
			cfg.ChosenLink = true
		}
	}
	return after, slow, nil
}

// setupLinks changes the links a session will start on: client k's (its
// choice becomes ch, or custom when ch is nil: an edit of the figures),
// or every client's and the default (AllClients).
func setupLinks(cfg *game.Config, st *stage, k int, ch *LinkChoice, f func(link.Pair) link.Pair) {
	def := link.Symmetric(cfg.Link)
	if cfg.Up != nil {
		def.Up = *cfg.Up
	}
	choose := func(old LinkChoice) LinkChoice {
		if ch == nil {
			old.Custom = true
			return old
		}
		return *ch
	}
	if k == AllClients {
		def = f(def)
		cfg.Link, cfg.Up = def.Down, nil
		if !def.IsSymmetric() {
			up := def.Up
			cfg.Up = &up
		}
		for i := range cfg.ClientLinks {
			cfg.ClientLinks[i] = f(cfg.ClientLinks[i])
		}
		st.def = choose(st.def)
		for i := range st.links {
			st.links[i] = choose(st.links[i])
		}
		return
	}
	for len(cfg.ClientLinks) <= k {
		cfg.ClientLinks = append(cfg.ClientLinks, def)
	}
	cfg.ClientLinks[k] = f(cfg.ClientLinks[k])
	c := st.choice(k)
	*c = choose(*c)
}

// applyView applies an overlay command to v; false when c is none.
func applyView(v *View, c *Command) bool {
	switch c.Op {
	case OpGhost:
		v.NoGhost = !c.On
	case OpTint:
		for i, n := range TintNames {
			if n == c.Name {
				v.Tint = i
			}
		}
	case OpOffsets:
		v.Offsets = c.On
	case OpChart:
		v.Chart = c.Kind != ChartOff
	case OpHelp:
		v.Help = c.On
	default:
		return false
	}
	return true
}

// setEverywhere applies "set name value" to every strategy of list that
// has the setting: directly, except the active one (index active), which
// sub reaches through the session's sub-mode steps when the setting is
// its sub-mode. It returns an error when no strategy has the setting or
// the value is wrong.
func setEverywhere(list []strategy.Strategy, active int, sub func(steps, dir int), name, value string) error {
	found := false
	freshOf := func(i int) func() strategy.Strategy {
		id := list[i].ID()
		return func() strategy.Strategy {
			for _, s := range catalog.All() {
				if s.ID() == id {
					return s
				}
			}
			return list[i].Clone()
		}
	}
	byFlag := isFlag(list, name)
	for i, st := range list {
		if f, ok := flagOf(st, name); ok {
			found = true
			if i == active && sub != nil {
				target := copyOf(st, freshOf(i)())
				tf, _ := flagOf(target, name)
				if err := tf.Set(value); err != nil {
					return err
				}
				if sameSettings(st, target) {
					continue
				}
				if n, dir, ok := subModeSteps(st, target, freshOf(i)); ok {
					sub(n, dir)
					continue
				}
			}
			if err := f.Set(value); err != nil {
				return err
			}
			continue
		}
		if k, ok := controlOf(st, name); ok && !byFlag {
			found = true
			n, dir, ok := pressesTo(st, freshOf(i), k, value)
			if !ok {
				return fmt.Errorf("set %s %s: no press of %s gives it", name, value, st.Controls()[k].Key)
			}
			for range n {
				st.Controls()[k].Do(dir)
			}
		}
	}
	if !found {
		return fmt.Errorf("unknown setting %q", name)
	}
	return nil
}

// header is the setup of a recording: the seed, the players, the strategy,
// every client's link, the checksum, the strategy settings and the
// overlays the director started with (the command line's), as setup lines
// that rebuild them.
func header(o *Options) []Command {
	cfg := &o.Config
	var h []Command
	add := func(c Command) { h = append(h, c) }
	add(Command{Op: OpSeed, Seed: cfg.Seed})
	if n := max(cfg.World.Players, 1); n != 1 {
		add(Command{Op: OpPlayers, N: n})
	}
	if len(cfg.Bots) > 0 {
		names := ""
		for i, b := range cfg.Bots {
			if i > 0 {
				names += ","
			}
			names += b.String()
		}
		add(Command{Op: OpBots, Name: names})
	}
	if cfg.Start >= 0 && cfg.Start < len(cfg.Strategies) {
		add(Command{Op: OpStrategy, Name: cfg.Strategies[cfg.Start].ID()})
	}
	def := link.Symmetric(cfg.Link)
	if cfg.Up != nil {
		def.Up = *cfg.Up
	}
	h = append(h, linkLines(o.startChoice(0, true), def, AllClients)...)
	for k, p := range cfg.ClientLinks {
		ch := o.startChoice(k, false)
		if p == def && ch == o.startChoice(0, true) {
			continue
		}
		h = append(h, linkLines(ch, p, k)...)
	}
	if cfg.ChosenLink {
		add(Command{Op: OpChosen})
	}
	if cfg.Checksum {
		add(Command{Op: OpChecksum, On: true})
	}
	for _, s := range o.Settings {
		add(Command{Op: OpSet, Name: s.Name, Value: s.Value})
	}
	v := o.View
	if v.NoGhost {
		add(Command{Op: OpGhost})
	}
	if v.Tint != 0 {
		add(Command{Op: OpTint, Name: TintNames[v.Tint]})
	}
	if v.Offsets {
		add(Command{Op: OpOffsets, On: true})
	}
	if v.Chart {
		add(Command{Op: OpChart, Kind: ChartOn})
	}
	if v.Help {
		add(Command{Op: OpHelp, On: true})
	}
	return h
}

// linkLines are the setup lines that give client k (or every client) the
// pair p chosen as ch: its preset, then the figures that differ from it
// (a no-op edit when the choice is custom with the preset's figures, so
// the name reads "custom" again).
func linkLines(ch LinkChoice, p link.Pair, k int) []Command {
	out := []Command{{Op: OpPreset, Name: ch.Preset.String(), Client: k}}
	edits, _ := link.Diff(ch.Preset.Pair(), p)
	if len(edits) == 0 && ch.Custom {
		edits = []link.Edit{{Dir: link.DirBoth, Field: link.FieldLatency, Value: p.Down.LatencyMs}}
		if !p.IsSymmetric() {
			edits = []link.Edit{{Dir: link.DirDown, Field: link.FieldLatency, Value: p.Down.LatencyMs},
				{Dir: link.DirUp, Field: link.FieldLatency, Value: p.Up.LatencyMs}}
		}
	}
	if len(edits) > 0 {
		out = append(out, Command{Op: OpLink, Edits: edits, Client: k})
	}
	return out
}
