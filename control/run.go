package control

import (
	"fmt"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/talk"
	"netcubes/viewmodel"
)

// mode says where a command comes from: the presenter, a track, the log
// re-simulated when going back in time, or a track's setup (after the
// session is built).
type mode uint8

const (
	modeLive mode = iota
	modeTrack
	modeResim
	modeSetup
)

// run is one line of time: a session and everything the presenter sees
// with it that the simulation decides (the stage, the captions of what
// happened, the comparison chart, the bandwidth graph). Going back in
// time builds a new run and re-simulates it up to the moment.
type run struct {
	d        *Director
	sess     *game.Session
	st       stage
	captions game.Captions
	compare  *viewmodel.Comparison
	kbps     *Series
	at       int // frame of the log

	// How the session was built (a restart point keeps them): the config
	// without its strategies, the strategies' settings, the commands
	// applied after the build, and the link choices of the clients the
	// config named (a client added later takes its own back).
	cfg     game.Config
	snaps   []snap
	after   []talk.Command
	choices []LinkChoice
}

// build starts the run on a new session: cfg with fresh strategies that
// have the settings of snaps.
func (r *run) build(cfg game.Config, snaps []snap) error {
	cfg.Strategies = r.d.instances(snaps)
	r.d.epoch++
	cfg.Epoch = r.d.epoch
	s, err := game.New(cfg)
	if err != nil {
		return err
	}
	cfg.Strategies = nil
	r.sess, r.cfg, r.snaps = s, cfg, snaps
	r.choices = nil
	for k := range cfg.ClientLinks {
		r.choices = append(r.choices, *r.st.choice(k))
	}
	r.compare.Break() // the world starts over: a new showing
	r.captions.Reset()
	r.kbps.Clear()
	s.Refresh()
	r.d.gen++
	return nil
}

// step advances the session one frame with the keys of the players in
// given (the others are the bots'), and what the HUD keeps of it.
func (r *run) step(ins *cubes.Inputs, given uint8) {
	r.sess.StepPlayers(ins, given)
	r.at++
	r.compare.Add(r.shownNow(), r.sess.Metrics())
	r.captions.Observe(r.sess)
	r.kbps.Push(r.sess.Metrics().SentKbps)
	if c := &r.st.caption; c.Left > 0 {
		c.Left--
		c.Age++
	}
}

// clientPrefix names the client a note is about, when there are several.
func (r *run) clientPrefix(k int) string {
	if k == talk.AllClients || r.sess.NumClients() < 2 {
		return ""
	}
	return fmt.Sprintf("client %d ", k+1)
}

// targets are the clients a command acts on.
func (r *run) targets(k int) []int {
	if k != talk.AllClients {
		if k < r.sess.NumClients() {
			return []int{k}
		}
		return nil
	}
	out := make([]int, r.sess.NumClients())
	for i := range out {
		out[i] = i
	}
	return out
}

// apply applies a command and returns its note (what the HUD says after
// the key).
func (r *run) apply(c *talk.Command, m mode) string {
	s := r.sess
	if changesMode(c.Op) {
		// Every caption belongs to the mode that raised it: a desync or
		// a stall of the mode before must not be read as this one's.
		r.captions.Reset()
	}
	switch c.Op {
	case talk.OpStrategy:
		i, ok := catalog.Find(s.Strategies(), c.Name)
		if !ok {
			return fmt.Sprintf("no strategy %s in this session", c.Name)
		}
		if err := s.SetStrategy(i); err != nil {
			return err.Error()
		}
		if mp, ok := s.Strategy().(strategy.Multiplayer); ok && s.NumPlayers() < mp.MinPlayers() && s.Role() != game.RoleRight {
			// A strategy about several players starts with them.
			r.players(mp.MinPlayers())
		}
		s.Refresh()
		r.kbps.Clear()
		r.d.gen++
		if s.LinksRestored() {
			// The strategy left had chosen the link (lockstep's modes):
			// the presenter's is back.
			r.renameRestored()
			return fmt.Sprintf("%s · link restored: %s", s.Strategy().Name(), r.LinkName(s.Shown()))
		}
		return s.Strategy().Name()
	case talk.OpSubMode:
		return s.SubMode(c.Dir)
	case talk.OpKey:
		st := s.Strategy()
		k, ok := talk.ControlByKey(st, c.Name)
		if !ok {
			return r.notMine(c.Name)
		}
		note := st.Controls()[k].Press(c.Dir)
		// A key may switch the strategy to a mode list that chooses the
		// link (the original demos' modes), or back.
		s.SettingsChanged()
		return note
	case talk.OpSet:
		note := r.set(c)
		s.SettingsChanged()
		return note
	case talk.OpPreset:
		return r.preset(c)
	case talk.OpLink:
		return r.link(c)
	case talk.OpOutage:
		for _, k := range r.targets(c.Client) {
			switch c.Kind {
			case talk.OutageStart:
				s.HoldClientOutage(k, true)
			case talk.OutageEnd:
				s.HoldClientOutage(k, false)
			default:
				s.ClientOutage(k, c.N)
			}
		}
		if c.Kind == talk.OutageEnd {
			return ""
		}
		return r.clientPrefix(c.Client) + "outage: every packet dropped"
	case talk.OpChecksum:
		s.SetChecksum(c.On)
		return "checksum: " + strategy.OnOff(c.On)
	case talk.OpPlayers:
		return r.players(c.N)
	case talk.OpShow:
		if err := s.SetShown(c.N); err != nil {
			return fmt.Sprintf("no client %d to show (%d clients)", c.N+1, s.NumClients())
		}
		r.kbps.Clear()
		r.d.gen++
		return "showing " + r.ClientTitle(c.N)
	case talk.OpGhost, talk.OpTint, talk.OpOffsets, talk.OpChart, talk.OpHelp, talk.OpGrid:
		return r.view(c)
	case talk.OpCaption:
		r.st.caption = Caption{}
		if c.Lines != nil {
			r.st.caption = Caption{Lines: append([]string(nil), c.Lines...), Left: talk.CaptionTicks(c.N)}
		}
		return ""
	case talk.OpReset, talk.OpScene, talk.OpRestart:
		return r.restart(c.Op, m)
	}
	return ""
}

// notMine says which strategies a setting key belongs to.
func (r *run) notMine(key string) string {
	list := r.sess.Strategies()
	var fam string
	var members []string
	for i, st := range list {
		if _, ok := talk.ControlByKey(st, key); ok {
			if fam == "" {
				fam = st.Family()
			}
			if st.Family() == fam {
				members = append(members, fmt.Sprint(i+1))
			}
		}
	}
	if fam == "" {
		return fmt.Sprintf("%s is no strategy's key", key)
	}
	return fmt.Sprintf("%s is a %s setting: press %s first", key, fam, orList(members))
}

// orList writes "1 or 2", "1, 2 or 3".
func orList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := s[0]
	for _, x := range s[1 : len(s)-1] {
		out += ", " + x
	}
	return out + " or " + s[len(s)-1]
}

// set applies "set NAME VALUE" to every strategy that has the setting; a
// sub-mode of the active one goes through the session's sub-mode steps.
func (r *run) set(c *talk.Command) string {
	s := r.sess
	note := ""
	err := setEverywhere(s.Strategies(), s.StrategyIndex(), func(n, dir int) {
		for range n {
			note = s.SubMode(dir)
		}
	}, c.Name, c.Value)
	if err != nil {
		return err.Error()
	}
	if note != "" {
		return note
	}
	st := s.Strategy()
	if k, ok := talk.ControlOf(st, c.Name); ok {
		cc := st.Controls()[k]
		return cc.Label + ": " + cc.Value()
	}
	return c.Name + ": " + c.Value
}

// preset sets a preset on the clients named (every client and the
// default, or one).
func (r *run) preset(c *talk.Command) string {
	s := r.sess
	p, _ := link.PresetByName(c.Name)
	ch := LinkChoice{Preset: p}
	if c.Client == talk.AllClients {
		s.SetLinks(p.Pair())
		r.st.def = ch
		for k := range s.NumClients() {
			*r.st.choice(k) = ch
		}
		return "network: " + r.LinkName(s.Shown())
	}
	if c.Client >= s.NumClients() {
		return fmt.Sprintf("no client %d (%d clients)", c.Client+1, s.NumClients())
	}
	s.SetClientLinks(c.Client, p.Pair())
	*r.st.choice(c.Client) = ch
	return r.clientPrefix(c.Client) + "network: " + r.LinkName(c.Client)
}

// link changes link figures of the clients named, each direction from its
// own value; every client's also changes the default.
func (r *run) link(c *talk.Command) string {
	s := r.sess
	if c.Client == talk.AllClients {
		s.SetDefaultLinks(s.DefaultLinks().Apply(c.Edits))
		r.st.def.Custom = true
	}
	shown := s.Shown()
	for _, k := range r.targets(c.Client) {
		s.SetClientLinks(k, s.LinksOf(k).Apply(c.Edits))
		r.st.choice(k).Custom = true
		if c.Client != talk.AllClients {
			shown = k
		}
	}
	if c.Client != talk.AllClients && c.Client >= s.NumClients() {
		return fmt.Sprintf("no client %d (%d clients)", c.Client+1, s.NumClients())
	}
	return r.clientPrefix(c.Client) + "network: " + DescribeLinks(s.LinksOf(shown))
}

// players sets the number of players.
func (r *run) players(n int) string {
	s := r.sess
	if !s.SetsPlayers() {
		return "the left sets the players"
	}
	before := s.NumClients()
	was := s.NumPlayers()
	if err := s.SetPlayers(n); err != nil {
		return err.Error()
	}
	for k := before; k < s.NumClients(); k++ {
		// A client that joins takes the conditions the session gives it:
		// the ones it was built with for it, else the default.
		ch := r.st.def
		if k < len(r.choices) {
			ch = r.choices[k]
		}
		*r.st.choice(k) = ch
	}
	if len(r.st.links) > s.NumClients() {
		r.st.links = r.st.links[:s.NumClients()]
	}
	r.kbps.Clear()
	r.d.gen++
	if n > was {
		b, _ := s.Bot(n - 1)
		return fmt.Sprintf("players: %d (player %d: %s bot)", n, n, b)
	}
	return fmt.Sprintf("players: %d", n)
}

// view changes an overlay.
func (r *run) view(c *talk.Command) string {
	v := &r.st.view
	applyView(v, c)
	switch c.Op {
	case talk.OpGhost:
		return "ghost " + strategy.OnOff(!v.NoGhost)
	case talk.OpTint:
		return "tint: " + c.Name
	case talk.OpOffsets:
		if v.Offsets && !r.sess.RightView().HasErrorOffsets {
			return "error offsets on: none in this strategy (state sync and the 2004 client smooth)"
		}
		return "error offsets " + strategy.OnOff(v.Offsets)
	case talk.OpChart:
		if c.Kind == talk.ChartClear {
			r.compare.Clear()
			v.Chart = true
			return "comparison chart cleared"
		}
		return "comparison chart " + strategy.OnOff(v.Chart)
	case talk.OpGrid:
		if v.Grid && r.sess.NumClients() < 2 {
			return "grid on: one client (add players with F4 or -players N)"
		}
		return "grid " + strategy.OnOff(v.Grid)
	}
	return ""
}

// restart builds a new session: reset (F5) keeps every setting and link,
// scene (Home) puts the active strategy's settings and the links back as
// they started, restart puts everything back as the setup left it.
func (r *run) restart(op talk.Op, m mode) string {
	d := r.d
	old := r.sess
	cfg := d.base
	cfg.World.Players = old.NumPlayers()
	cfg.Start = old.StrategyIndex()
	snaps := d.snapshot(old.Strategies())
	switch op {
	case talk.OpReset:
		// The players and every client's link carry over; a link a
		// strategy chose (lockstep's modes), still as it chose it, is
		// chosen again over the presenter's own, which leaving the
		// strategy brings back.
		setPair(&cfg, old.DefaultLinks())
		cfg.ClientLinks = old.ClientLinks()
		cfg.ChosenLink = false
		if before := old.LinksBefore(); before != nil && old.LinkSource() != "" {
			setPair(&cfg, before[0])
			cfg.ClientLinks, cfg.ChosenLink = before[1:], true
		}
		cfg.Checksum = old.Checksum()
	case talk.OpScene:
		i := cfg.Start
		snaps[i] = d.baseSnap[i]
		// The strategy's own link (lockstep's mode), unless the clients
		// had links of their own at start: a switch keeps those too.
		cfg.ChosenLink = !ownLinks(cfg.ClientLinks)
		base := d.baseStage.clone()
		r.st.links, r.st.def = base.links, base.def
	case talk.OpRestart:
		cfg = d.base
		snaps = d.baseSnap
		r.st = d.baseStage.clone()
		d.slow, d.slowPhase = d.baseSlow, 0
	}
	if err := r.build(cfg, snaps); err != nil {
		return err.Error()
	}
	r.after = nil
	if op == talk.OpRestart {
		r.after = d.baseAfter
		for _, c := range d.baseAfter {
			r.apply(&c, modeSetup)
		}
	}
	switch op {
	case talk.OpScene:
		return fmt.Sprintf("scene: %s from its start · %s link", r.sess.Strategy().Name(), r.LinkName(r.sess.Shown()))
	case talk.OpRestart:
		return "restart: everything as the script's setup left it"
	}
	return "reset"
}

// setPair makes p the config's default conditions.
func setPair(cfg *game.Config, p link.Pair) {
	cfg.Link, cfg.Up = p.Down, nil
	if !p.IsSymmetric() {
		up := p.Up
		cfg.Up = &up
	}
}

// isRestart reports whether op builds a new session.
func isRestart(op talk.Op) bool {
	return op == talk.OpReset || op == talk.OpScene || op == talk.OpRestart
}

// renameRestored names the links the session brought back: a client
// whose link is its preset's again is on that preset, not "custom" (an
// edit of a strategy's chosen link is gone with it).
func (r *run) renameRestored() {
	s := r.sess
	for k := range s.NumClients() {
		if ch := r.st.choice(k); ch.Custom && s.LinksOf(k) == ch.Preset.Pair() {
			ch.Custom = false
		}
	}
	if r.st.def.Custom && s.DefaultLinks() == r.st.def.Preset.Pair() {
		r.st.def.Custom = false
	}
}

// ownLinks reports whether the clients' links are not all the same (a
// per-client preset list).
func ownLinks(l []link.Pair) bool {
	for _, p := range l {
		if p != l[0] {
			return true
		}
	}
	return false
}

// changesMode reports whether op changes what the right shows and how
// (the strategy, its sub-mode, one of its settings), so that what the
// mode before raised is taken down. A restart builds a new run, with a
// new caption board.
func changesMode(op talk.Op) bool {
	return op == talk.OpStrategy || op == talk.OpSubMode || op == talk.OpKey || op == talk.OpSet
}
