package control

import (
	"fmt"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/talk"
)

// Setup lines configure the session before its first frame, over what the
// command line set, as more flags would: the seed, the players and their
// bots, the strategy to start with, every client's link, the checksum,
// the strategies' settings, the overlays.

// applySetup applies setup commands to cfg (its strategies too) and to the
// stage; the commands that act on a built session (show client) are
// returned for after it is built.
func applySetup(cfg *game.Config, st *stage, cmds []talk.Command) (after []talk.Command, slow bool, err error) {
	chose, linked := false, false
	for i := range cmds {
		c := &cmds[i]
		switch c.Op {
		case talk.OpSeed:
			cfg.Seed = c.Seed
		case talk.OpPlayers:
			cfg.World.Players = c.N
		case talk.OpBots:
			kinds, err := cubes.ParseBots(c.Name)
			if err != nil {
				return nil, false, err
			}
			cfg.Bots = kinds
		case talk.OpStrategy:
			k, ok := catalog.Find(cfg.Strategies, c.Name)
			if !ok {
				return nil, false, fmt.Errorf("no strategy %q in this session", c.Name)
			}
			cfg.Start, chose = k, true
		case talk.OpPreset:
			linked = true
			p, _ := link.PresetByName(c.Name)
			setupLinks(cfg, st, c.Client, &LinkChoice{Preset: p}, func(link.Pair) link.Pair { return p.Pair() })
		case talk.OpLink:
			linked = true
			setupLinks(cfg, st, c.Client, nil, func(q link.Pair) link.Pair { return q.Apply(c.Edits) })
		case talk.OpChosen:
			cfg.ChosenLink = true
		case talk.OpChecksum:
			cfg.Checksum = c.On
		case talk.OpSet:
			if err := setEverywhere(cfg.Strategies, -1, nil, c.Name, c.Value); err != nil {
				return nil, false, err
			}
		case talk.OpKey:
			s := cfg.Strategies[cfg.Start]
			if k, ok := talk.ControlByKey(s, c.Name); ok {
				s.Controls()[k].Do(c.Dir)
			}
		case talk.OpSubMode:
			cfg.Strategies[cfg.Start].SubMode(c.Dir)
		case talk.OpSlow:
			slow = c.On
		case talk.OpShow:
			after = append(after, *c)
		default:
			if !applyView(&st.view, c) {
				return nil, false, fmt.Errorf("%s cannot be a setup line", c.Op)
			}
		}
		if c.Op == talk.OpChosen {
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
	if k == talk.AllClients {
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
func applyView(v *View, c *talk.Command) bool {
	switch c.Op {
	case talk.OpGhost:
		v.NoGhost = !c.On
	case talk.OpTint:
		for i, n := range talk.TintNames {
			if n == c.Name {
				v.Tint = i
			}
		}
	case talk.OpOffsets:
		v.Offsets = c.On
	case talk.OpChart:
		v.Chart = c.Kind != talk.ChartOff
	case talk.OpHelp:
		v.Help = c.On
	case talk.OpGrid:
		v.Grid = c.On
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
	byFlag := talk.IsFlag(list, name)
	for i, st := range list {
		if f, ok := talk.FlagOf(st, name); ok {
			found = true
			if i == active && sub != nil {
				target := talk.CopyOf(st, freshOf(i)())
				tf, _ := talk.FlagOf(target, name)
				if err := tf.Set(value); err != nil {
					return err
				}
				if talk.SameSettings(st, target) {
					continue
				}
				if n, dir, ok := talk.SubModeSteps(st, target, freshOf(i)); ok {
					sub(n, dir)
					continue
				}
			}
			if err := f.Set(value); err != nil {
				return err
			}
			continue
		}
		if k, ok := talk.ControlOf(st, name); ok && !byFlag {
			found = true
			n, dir, ok := talk.PressesTo(st, freshOf(i), k, value)
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
func header(o *Options) []talk.Command {
	cfg := &o.Config
	var h []talk.Command
	add := func(c talk.Command) { h = append(h, c) }
	add(talk.Command{Op: talk.OpSeed, Seed: cfg.Seed})
	if n := max(cfg.World.Players, 1); n != 1 {
		add(talk.Command{Op: talk.OpPlayers, N: n})
	}
	if len(cfg.Bots) > 0 {
		names := ""
		for i, b := range cfg.Bots {
			if i > 0 {
				names += ","
			}
			names += b.String()
		}
		add(talk.Command{Op: talk.OpBots, Name: names})
	}
	if cfg.Start >= 0 && cfg.Start < len(cfg.Strategies) {
		add(talk.Command{Op: talk.OpStrategy, Name: cfg.Strategies[cfg.Start].ID()})
	}
	def := link.Symmetric(cfg.Link)
	if cfg.Up != nil {
		def.Up = *cfg.Up
	}
	h = append(h, linkLines(o.startChoice(0, true), def, talk.AllClients)...)
	for k, p := range cfg.ClientLinks {
		ch := o.startChoice(k, false)
		if p == def && ch == o.startChoice(0, true) {
			continue
		}
		h = append(h, linkLines(ch, p, k)...)
	}
	if cfg.ChosenLink {
		add(talk.Command{Op: talk.OpChosen})
	}
	if cfg.Checksum {
		add(talk.Command{Op: talk.OpChecksum, On: true})
	}
	for _, s := range o.Settings {
		add(talk.Command{Op: talk.OpSet, Name: s.Name, Value: s.Value})
	}
	v := o.View
	if v.NoGhost {
		add(talk.Command{Op: talk.OpGhost})
	}
	if v.Tint != 0 {
		add(talk.Command{Op: talk.OpTint, Name: talk.TintNames[v.Tint]})
	}
	if v.Offsets {
		add(talk.Command{Op: talk.OpOffsets, On: true})
	}
	if v.Chart {
		add(talk.Command{Op: talk.OpChart, Kind: talk.ChartOn})
	}
	if v.Help {
		add(talk.Command{Op: talk.OpHelp, On: true})
	}
	return h
}

// linkLines are the setup lines that give client k (or every client) the
// pair p chosen as ch: its preset, then the figures that differ from it
// (a no-op edit when the choice is custom with the preset's figures, so
// the name reads "custom" again).
func linkLines(ch LinkChoice, p link.Pair, k int) []talk.Command {
	out := []talk.Command{{Op: talk.OpPreset, Name: ch.Preset.String(), Client: k}}
	edits, _ := link.Diff(ch.Preset.Pair(), p)
	if len(edits) == 0 && ch.Custom {
		edits = []link.Edit{{Dir: link.DirBoth, Field: link.FieldLatency, Value: p.Down.LatencyMs}}
		if !p.IsSymmetric() {
			edits = []link.Edit{{Dir: link.DirDown, Field: link.FieldLatency, Value: p.Down.LatencyMs},
				{Dir: link.DirUp, Field: link.FieldLatency, Value: p.Up.LatencyMs}}
		}
	}
	if len(edits) > 0 {
		out = append(out, talk.Command{Op: talk.OpLink, Edits: edits, Client: k})
	}
	return out
}
