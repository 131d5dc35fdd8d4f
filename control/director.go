package control

import (
	"fmt"
	"time"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/talk"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Options configure a director.
type Options struct {
	// Config is the session as the command line set it up; its
	// Strategies are the menu, with the command line's settings.
	Config game.Config
	// Fresh returns new instances of the menu's strategies with their
	// default settings (nil: catalog.All). Every session the director
	// builds gets fresh instances with the settings copied over, so a
	// session rebuilt to go back in time is the same computation as the
	// one the presenter saw, sharing nothing with it.
	Fresh func() []strategy.Strategy
	// Preset names the start link ("": custom numbers on the perfect
	// link); Custom says its numbers were adjusted away from the preset;
	// Presets, when given, are each client's (-preset a,b,c).
	Preset  string
	Custom  bool
	Presets []string
	// Settings are the strategy flags the command line gave, in the order
	// they were applied: a recording's header repeats them.
	Settings []Setting
	// View is what the overlays show at the start (-show).
	View View
	// Track is played from its first frame (nil: none).
	Track *talk.Track
	// Unattended says nobody is at the keys (a capture): a track's pause
	// without a duration holds UnattendedPause instead of waiting for P.
	Unattended bool
	// Say shows a note on the HUD (nil: notes are dropped).
	Say func(string)
}

// Setting is a strategy flag and its value ("level", "9").
type Setting struct{ Name, Value string }

// UnattendedPause is what a pause without a duration holds when nobody is
// at the keys.
const UnattendedPause = 3 * wire.TicksPerSecond

// startChoice is the link choice client k starts on (def: the default,
// the one new clients take).
func (o *Options) startChoice(k int, def bool) LinkChoice {
	if !def && k < len(o.Presets) {
		return ChoiceOf(o.Presets[k])
	}
	ch := ChoiceOf(o.Preset)
	ch.Custom = ch.Custom || o.Custom
	return ch
}

// Director runs a session for the app (and for the headless tools and
// tests): it applies the presenter's commands and a track's, steps the
// session with the right keys, holds time still for pauses, logs
// everything, and goes back in time by re-simulating from the log.
type Director struct {
	o     Options
	fresh func() []strategy.Strategy
	cur   *run
	epoch uint32

	// The start: the config after the setup, each entry's settings, the
	// stage; and the header a recording starts with.
	base       game.Config
	baseSnap   []snap
	baseStage  stage
	baseSlow   bool
	baseAfter  []talk.Command
	header     []talk.Command
	presenterT int // frame of the last restart by the presenter: going back stops there

	log    Log
	points []restartPoint

	// Time: the presenter's pause, a track's hold (ticks left; −1 until
	// the presenter resumes), the ticks held since the log last said so,
	// one step asked while paused, slow motion.
	ticks     int
	paused    bool
	hold      int
	held      int
	stepOnce  bool
	slow      bool
	slowPhase int

	// The track playing: its frame 0 is frame trStart of the log; trNext
	// is its next event; trStopped is the frame the presenter took over
	// (−1: never).
	tr        *talk.Track
	trOn      bool
	trStart   int
	trNext    int
	trStopped int

	job           *job
	budget        time.Duration
	outageDown    int // tick the outage key went down (−1: up)
	outageClient  int
	restoredTicks int
	fenced        bool
	gen           int

	// OnStep, when set, is called after every frame stepped (also the
	// frames re-simulated when going back, with resim true).
	OnStep func(resim bool)
}

// New builds the director and its first session at frame 0.
func New(o Options) (*Director, error) {
	d := &Director{o: o, fresh: o.Fresh, outageDown: -1, trStopped: -1}
	if d.fresh == nil {
		d.fresh = catalog.All
	}
	cfg := o.Config
	if len(cfg.Strategies) == 0 {
		return nil, fmt.Errorf("control: no strategies")
	}
	st := stage{def: o.startChoice(0, true), view: o.View}
	for k := range o.Presets {
		st.links = append(st.links, o.startChoice(k, false))
	}
	d.header = header(&o)
	if o.Track != nil {
		after, slow, err := applySetup(&cfg, &st, o.Track.Setup)
		if err != nil {
			return nil, err
		}
		d.header = append(d.header, o.Track.Setup...)
		d.baseAfter, d.baseSlow = after, slow
		d.tr, d.trOn = o.Track, true
	}
	d.base = cfg
	d.baseSnap = d.snapshot(cfg.Strategies)
	d.baseStage = st.clone()
	d.slow = d.baseSlow
	r, err := d.newRun(cfg, d.baseSnap, st)
	if err != nil {
		return nil, err
	}
	for _, c := range d.baseAfter {
		r.apply(&c, modeSetup)
	}
	r.after = d.baseAfter
	d.cur = r
	d.addPoint(0)
	return d, nil
}

// snap is one strategy's settings at a restart: its shared settings, or
// (for a strategy that shares none) a clone to clone again.
type snap struct {
	id       string
	settings []byte
	proto    strategy.Strategy
}

func (d *Director) snapshot(list []strategy.Strategy) []snap {
	out := make([]snap, len(list))
	for i, st := range list {
		out[i] = snap{id: st.ID(), settings: talk.SettingsOf(st)}
		if out[i].settings == nil {
			out[i].proto = st.Clone()
		}
	}
	return out
}

// instances builds a session's strategies from snaps: fresh instances that
// take the settings, then their clones. (The settings bytes are the ones a
// right process reads, which may carry what only a right uses, such as
// lockstep's start frame; a clone has the settings and nothing else, and
// shares its caches only with the instance thrown away.)
func (d *Director) instances(snaps []snap) []strategy.Strategy {
	fresh := d.fresh()
	out := make([]strategy.Strategy, len(snaps))
	for i, s := range snaps {
		for _, f := range fresh {
			if f.ID() == s.id && s.settings != nil && talk.PutSettings(f, s.settings) == nil {
				out[i] = f.Clone()
			}
		}
		if out[i] == nil && s.proto != nil {
			out[i] = s.proto.Clone()
		}
		if out[i] == nil {
			// The settings did not read back: the instance as it is.
			for _, f := range fresh {
				if f.ID() == s.id {
					out[i] = f
				}
			}
		}
	}
	return out
}

// newRun builds a run on a new session from cfg (its Strategies ignored)
// with the strategies' settings snaps.
func (d *Director) newRun(cfg game.Config, snaps []snap, st stage) (*run, error) {
	r := &run{d: d, st: st, compare: viewmodel.NewComparison(viewmodel.DefaultCompareConfig()),
		kbps: NewSeries(10 * wire.TicksPerSecond)}
	if err := r.build(cfg, snaps); err != nil {
		return nil, err
	}
	return r, nil
}

// Session is the session on screen.
func (d *Director) Session() *game.Session { return d.cur.sess }

// Log is what has happened so far.
func (d *Director) Log() *Log { return &d.log }

// Frame is the frame of the log (frames stepped since the director
// started, across resets of the world).
func (d *Director) Frame() int { return d.cur.at }

// Ticks is the number of Tick calls.
func (d *Director) Ticks() int { return d.ticks }

// Generation changes whenever the views should start over (a new session,
// another strategy or client, players added or removed, a jump in time).
func (d *Director) Generation() int { return d.gen }

// View is what the overlays show.
func (d *Director) View() View { return d.cur.st.view }

// Caption is the track's caption on screen, if any.
func (d *Director) Caption() (Caption, bool) {
	c := d.cur.st.caption
	return c, len(c.Lines) > 0 && c.Left > 0
}

// Captions is the board of what just happened (the strategies' events).
func (d *Director) Captions() *game.Captions { return &d.cur.captions }

// Compare is the comparison chart's data.
func (d *Director) Compare() *viewmodel.Comparison { return d.cur.compare }

// Kbps is the last 10 s of the bandwidth figure.
func (d *Director) Kbps() *Series { return d.cur.kbps }

// LinkName names client k's link conditions as the HUD does.
func (d *Director) LinkName(k int) string { return d.cur.LinkName(k) }

// ClientTitle describes client k for the HUD.
func (d *Director) ClientTitle(k int) string { return d.cur.ClientTitle(k) }

// Shown is what the right is showing, as the comparison chart tells
// showings apart.
func (d *Director) Shown() viewmodel.Shown { return d.cur.shownNow() }

// RestoredTicks is how long the network column still says the link a
// strategy chose was given back.
func (d *Director) RestoredTicks() int { return d.restoredTicks }

// Paused reports whether time stands still (the presenter's pause or a
// track's); Slow whether it runs at a quarter of its speed.
func (d *Director) Paused() bool { return d.paused || d.hold != 0 }
func (d *Director) Slow() bool   { return d.slow }

// TrackStatus says what the track does: its name, the frame it is at and
// its length, and whether it plays.
func (d *Director) TrackStatus() (name string, at, length int, on bool) {
	if d.tr == nil {
		return "", 0, 0, false
	}
	return d.tr.Name, d.cur.at - d.trStart, d.tr.Length, d.trOn
}

func (d *Director) say(format string, args ...any) {
	if d.o.Say != nil {
		d.o.Say(fmt.Sprintf(format, args...))
	}
}

// record logs a command given now (src: the track event, −1: the
// presenter), after the ticks time stood still before it.
func (d *Director) record(c talk.Command, src int) {
	switch c.Op {
	case talk.OpPause, talk.OpPlay:
		return // the held ticks are logged as such; the keys a play gives are logged as keys
	}
	d.flushHeld()
	d.log.add(d.cur.at, c, src)
}

// flushHeld logs the ticks time stood still at this frame so far.
func (d *Director) flushHeld() {
	if d.held > 0 {
		d.log.add(d.cur.at, talk.Command{Op: talk.OpPause, N: d.held}, -1)
		d.held = 0
	}
}

// Do applies a command the presenter gave. One that changes the
// simulation while a track plays takes over from the track, which stops
// and says so (Back goes back into it).
func (d *Director) Do(c talk.Command) {
	if d.job != nil {
		if c.ChangesSession() {
			d.say("%s: a moment", d.job.what())
			return
		}
	}
	stopped := ""
	if c.ChangesSession() && d.trOn {
		stopped = d.takeOver()
	}
	switch c.Op {
	case talk.OpPause:
		d.TogglePause()
		return
	case talk.OpSlow:
		d.SetSlow(c.On)
		return
	}
	note := d.cur.apply(&c, modeLive)
	d.record(c, -1)
	if stopped != "" {
		note = stopped + " · " + note
	}
	d.afterApply(&c, note)
}

// afterApply shows a live command's note and what the app's views must
// follow.
func (d *Director) afterApply(c *talk.Command, note string) {
	if isRestart(c.Op) {
		d.addPoint(len(d.log.events))
	}
	if c.Op == talk.OpStrategy && d.cur.sess.LinksRestored() {
		d.restoredTicks = restoredNoteTicks
	}
	if note != "" {
		d.say("%s", note)
	}
}

// restoredNoteTicks is how long the network column says the link was
// restored.
const restoredNoteTicks = 3 * wire.TicksPerSecond

// takeOver stops the track: the presenter has the controls. It returns
// the note that says so.
func (d *Director) takeOver() string {
	d.trOn = false
	d.trStopped = d.cur.at
	d.hold = 0
	return fmt.Sprintf("script stopped at %s: you have the controls (Backspace goes back into it)", talk.Clock(d.cur.at-d.trStart))
}

// TogglePause pauses or resumes (P). Resuming also ends a track's pause.
func (d *Director) TogglePause() {
	if d.paused || d.hold != 0 {
		d.paused, d.hold = false, 0
		return
	}
	d.paused = true
}

// StepOnce steps one frame and stays paused (.).
func (d *Director) StepOnce() {
	d.paused, d.hold, d.stepOnce = true, 0, true
}

// SetSlow turns slow motion on or off (,): a frame every fourth tick.
func (d *Director) SetSlow(on bool) {
	d.slow, d.slowPhase = on, 0
	d.record(talk.Command{Op: talk.OpSlow, On: on}, -1)
	d.say("slow motion %s", strategy.OnOff(on))
}

// Tick is one tick of the app (1/60 s): the presenter's commands were
// given before it (Do). It goes on with a jump in time under way, or
// applies the track's commands that are due and steps the session once,
// unless time stands still.
func (d *Director) Tick(live cubes.Input) {
	d.ticks++
	if d.restoredTicks > 0 {
		d.restoredTicks--
	}
	if d.job != nil {
		d.work()
		return
	}
	for {
		if (d.paused || d.hold != 0) && !d.stepOnce {
			d.held++
			if d.hold > 0 {
				d.hold--
			}
			return
		}
		if d.applyDue() {
			break
		}
		if d.stepOnce {
			d.hold = 0 // a single step goes through a track's pause
		}
	}
	if d.stepOnce {
		d.stepOnce = false
	} else if d.slow {
		d.slowPhase = (d.slowPhase + 1) % 4
		if d.slowPhase != 0 {
			return
		}
	}
	d.flushHeld()
	d.stepLive(live)
}

// applyDue applies the track's commands due at this frame, in order; it
// returns false when one of them holds time (a pause).
func (d *Director) applyDue() bool {
	if !d.trOn {
		return true
	}
	f := d.cur.at - d.trStart
	for d.trNext < len(d.tr.Events) && d.tr.Events[d.trNext].At <= f {
		i := d.trNext
		d.trNext++
		e := d.tr.Events[i]
		if e.Cmd.Op == talk.OpPause {
			d.hold = e.Cmd.N
			if d.hold == 0 {
				d.hold = -1
				if d.o.Unattended {
					d.hold = UnattendedPause
				}
			}
			return false
		}
		c := e.Cmd
		if c.Op == talk.OpSlow {
			d.slow, d.slowPhase = c.On, 0
		}
		note := d.cur.apply(&c, modeTrack)
		d.record(c, i)
		d.afterApply(&c, note)
	}
	return true
}

// stepLive steps one frame with the presenter's keys and the track's.
func (d *Director) stepLive(live cubes.Input) {
	r := d.cur
	if d.trOn && live != (cubes.Input{}) {
		d.say("%s", d.takeOver())
	}
	ins := cubes.Inputs{live}
	given := uint8(1)
	if d.trOn {
		f := r.at - d.trStart
		for p := range r.sess.NumPlayers() {
			if d.tr.Drives(p) {
				ins[p] = d.tr.InputAt(p, f)
				given |= 1 << p
			}
		}
	} else if r.sess.FencesPresenter() {
		// The presenter's own keys stop at the field's edge.
		var fenced bool
		ins[0], fenced = game.KeepOnField(r.sess.Left(), 0, ins[0])
		if fenced && !d.fenced {
			d.say("the edge of the field: the arrows stop here")
		}
		d.fenced = fenced
	}
	r.step(&ins, given)
	used := r.sess.PlayerInputs()
	d.log.step(&used, given, r.sess.NumPlayers())
	if d.OnStep != nil {
		d.OnStep(d.job != nil)
	}
	if d.trOn && r.at-d.trStart >= d.tr.Length {
		d.trOn = false
		d.say("script %s ended at %s", d.tr.Name, talk.Clock(d.tr.Length))
	}
}

// Restart starts the world over (F5). A track starts over too; one that
// sets things up (commands, not just keys) starts from everything as its
// setup left it, so it plays the same way again; after the presenter took
// over from it, its scene starts over instead (sceneAgain).
func (d *Director) Restart() { d.restartBy(talk.OpReset) }

// Scene puts the active strategy back to where it started, its settings
// and link, the world over (Home); with a track that sets things up, as F5.
func (d *Director) Scene() { d.restartBy(talk.OpScene) }

func (d *Director) restartBy(op talk.Op) {
	if d.job != nil {
		d.say("%s: a moment", d.job.what())
		return
	}
	if d.tr != nil && d.tr.HasCommands() {
		if !d.trOn && d.trStopped >= 0 {
			d.sceneAgain()
			return
		}
		op = talk.OpRestart
	}
	c := talk.Command{Op: op}
	note := d.cur.apply(&c, modeLive)
	d.record(c, -1)
	d.afterApply(&c, note)
	d.presenterT = d.cur.at
	if d.tr != nil {
		d.trOn, d.trStart, d.trNext, d.trStopped = true, d.cur.at, 0, -1
		d.hold = 0
	}
}

// sceneAgain goes back to the start of the track's scene the presenter
// took over in (the track's last start of the world over before then, else
// its beginning), and the track plays on from there: a presenter who tried
// something during a 12-minute tour shows that scene again, not the tour
// from its first minute.
func (d *Director) sceneAgain() {
	t := d.trStart
	for i := len(d.log.events) - 1; i >= 0; i-- {
		e := d.log.events[i]
		if e.At < d.trStart {
			break
		}
		if e.Src >= 0 && e.At <= d.trStopped && isRestart(e.Cmd.Op) {
			t = e.At
			break
		}
	}
	if t >= d.cur.at {
		d.say("already at the start of the scene: %s", talk.Clock(t-d.trStart))
		return
	}
	// The track was playing at t: going back there plays it on.
	d.trStopped = -1
	d.GoTo(t)
}

// Presenter actions that depend on what the session shows: they resolve
// to the command a recording keeps.

// target is the client a key acts on: the one shown, written as every
// client when there is only one.
func (d *Director) target() int {
	if d.cur.sess.NumClients() < 2 {
		return talk.AllClients
	}
	return d.cur.sess.Shown()
}

// CyclePreset switches the shown client to the next (dir +1) or previous
// network preset (N).
func (d *Director) CyclePreset(dir int) {
	k := d.target()
	ch := d.cur.st.choice(max(k, 0))
	n := int(link.NumPresets)
	p := link.Preset((int(ch.Preset) + dir + n) % n)
	d.Do(talk.Command{Op: talk.OpPreset, Name: p.String(), Client: k})
}

// AdjustLink changes a figure of the shown client's link (L, U, K, F7,
// F10, Y), both directions each from its own value.
func (d *Director) AdjustLink(e link.Edit) {
	d.Do(talk.Command{Op: talk.OpLink, Edits: []link.Edit{e}, Client: d.target()})
}

// OutageKey drops every packet of the shown client's links while held
// (X); a short tap still drops a full second.
func (d *Director) OutageKey(down bool) {
	if down {
		d.outageDown, d.outageClient = d.ticks, d.target()
		d.Do(talk.Command{Op: talk.OpOutage, Kind: talk.OutageStart, Client: d.outageClient})
		return
	}
	if d.outageDown < 0 {
		return
	}
	held := d.ticks - d.outageDown
	d.outageDown = -1
	d.Do(talk.Command{Op: talk.OpOutage, Kind: talk.OutageEnd, Client: d.outageClient})
	if held < tapOutage {
		d.Do(talk.Command{Op: talk.OpOutage, Kind: talk.OutageFor, N: tapOutage - held, Client: d.outageClient})
	}
}

// tapOutage is what a tap of the outage key drops.
const tapOutage = wire.TicksPerSecond

// CycleClient shows the next (dir +1) or previous client's screen (Tab).
func (d *Director) CycleClient(dir int) {
	s := d.cur.sess
	n := s.NumClients()
	if n < 2 {
		d.say("one client: add players with F4 (or start with -players N)")
		return
	}
	d.Do(talk.Command{Op: talk.OpShow, N: ((s.Shown()+dir)%n + n) % n})
}

// ChangePlayers adds (dir +1) or removes (−1) a player (F4).
func (d *Director) ChangePlayers(dir int) {
	s := d.cur.sess
	if !s.SetsPlayers() {
		d.say("the left sets the players")
		return
	}
	n := s.NumPlayers() + dir
	if n < 1 || n > cubes.MaxPlayers {
		d.say("players: %d (1 to %d)", s.NumPlayers(), cubes.MaxPlayers)
		return
	}
	d.Do(talk.Command{Op: talk.OpPlayers, N: n})
}

// ControlKey presses the active strategy's setting on key (dir −1 with
// Shift), or says which strategies the key belongs to.
func (d *Director) ControlKey(key string, dir int) {
	if _, ok := talk.ControlByKey(d.cur.sess.Strategy(), key); !ok {
		d.say("%s", d.cur.notMine(key))
		return
	}
	d.Do(talk.Command{Op: talk.OpKey, Name: key, Dir: dir})
}

// Recording is the log as a track: the header, every command at its frame
// and every player's keys, and how long time stood still; a recording
// replays the run frame for frame.
func (d *Director) Recording(name string) *talk.Track {
	t := &talk.Track{Name: name, Setup: append([]talk.Command(nil), d.header...), Input: d.log.script(name)}
	t.Length = max(d.log.frames, 1)
	t.Input.Length = t.Length
	for _, e := range d.log.events {
		t.Events = append(t.Events, talk.Event{At: e.At, Cmd: e.Cmd})
	}
	if d.held > 0 {
		t.Events = append(t.Events, talk.Event{At: d.cur.at, Cmd: talk.Command{Op: talk.OpPause, N: d.held}})
	}
	if last := len(t.Events) - 1; last >= 0 && t.Events[last].At >= t.Length {
		t.Length = t.Events[last].At + 1
		t.Input.Length = t.Length
	}
	return t
}
