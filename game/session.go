package game

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/geom"
	"netcubes/internal/cputime"
	"netcubes/link"
	"netcubes/physics"
	"netcubes/strategy"
	"netcubes/udp"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Config sets up a session.
type Config struct {
	Seed    uint64         // seeds the two links; same seed and inputs, same run
	World   cubes.Config   // the cube world
	Physics physics.Config // its solver
	Link    link.Config    // conditions of both directions
	// Strategies are the strategies the session can switch between, in
	// menu order (the number keys); the list is built in one place
	// (package catalog) and each entry is one instance with its own
	// settings. Start is the index of the one to start with.
	Strategies []strategy.Strategy
	Start      int
	// HistoryTicks is how far back the left is remembered for the error
	// figures and the ghost overlay; it must exceed the longest delay a
	// strategy shows (the snapshot buffer at 10 Hz with a nudged delay).
	HistoryTicks int
	// InputTicks is how many past inputs are kept for strategies that send
	// them redundantly (state sync sends the last 32).
	InputTicks int

	// The two-process mode (twoproc.go): Role says which half this process
	// runs, Server (the left) or Client (the right) is its connection,
	// Epoch numbers the left's sessions (a left that restarts gives the
	// new session a larger one, and its right starts over), DiagEvery is
	// the diagnostics period in ticks (0: none).
	Role      Role
	Server    *udp.Server
	Client    *udp.Client
	Epoch     uint32
	DiagEvery int
	// TruthKbps is the left's budget for that truth, kbit/s for all its
	// rights together, the session's sealing included (0: none, every
	// right every DiagEvery ticks). A right's truth is a whole world
	// (about 9 kB with 901 cubes); with more rights than the budget
	// carries at DiagEvery, each right gets it less often, and its error
	// figure is older (truthpace.go). Higher: fresher error figures on
	// many screens, more of the room's network spent on diagnostics.
	TruthKbps int
	// ChosenLink starts with the link the start strategy's mode asks for
	// (strategy.LinkChooser: lockstep's modes) instead of Link; the app
	// sets it when no network flag was given.
	ChosenLink bool

	// Several players (client.go). The world's Players (World.Players)
	// are driven by the presenter (player 1), a script, or bots. Clients
	// is how many clients the server has (0: one per player); client k
	// owns player k and clients past the players are spectators.
	// Up, when set, is the right → left direction's conditions where they
	// differ from Link's (the "asymmetric" preset: a phone's uplink).
	// ClientLinks[k], when given, are client k's conditions instead of
	// Link. Bots are the kinds of the bots that drive players 2.. in turn
	// (empty: cubes.DefaultBots).
	Clients     int
	Up          *link.Config
	ClientLinks []link.Pair
	Bots        []cubes.BotKind
	// Thin makes every client but the shown one thin: it decodes, acks
	// and sends inputs, but a strategy may skip simulating and drawing for
	// it (strategy.Context.Thin). The scale bench uses it to measure the
	// server's cost per client without N client simulations on top.
	Thin bool
	// Checksum appends a CRC-32C to every packet on the simulated links
	// and drops a packet whose CRC does not match (checksum.go).
	Checksum bool
	// Timing measures the server's share of every tick in CPU time of the
	// calling thread (ServerNanos; lock the goroutine to its thread):
	// reading the clients' packets, the world's step, the acks and every
	// client's encoding, not the clients' own work; and the clients' own
	// work apart (RightNanos). Only measured, never fed back into the
	// simulation.
	Timing bool

	// Tap, when set, sees every packet the session puts on a link, as it
	// leaves: toRight for data packets, false for the ack packets going
	// back. data is only valid during the call. Tests and fuzz harnesses
	// use it to capture real packets; the app leaves it nil.
	Tap func(toRight bool, data []byte)
}

// DefaultConfig is the demo as it starts: a perfect link, no strategies yet
// (give it catalog.All(), or the ones a test needs).
func DefaultConfig() Config {
	return Config{
		Seed:         1,
		World:        cubes.DefaultConfig(),
		Physics:      physics.DefaultConfig(),
		HistoryTicks: 300,
		InputTicks:   128,
		DiagEvery:    DefaultDiagEvery,
	}
}

// maxPacketBytes bounds one packet: the uncompressed snapshot (901 × 321
// bits ≈ 36 kB) must fit, as it does in a maximum-size UDP datagram.
const maxPacketBytes = 64 * 1024

// MaxTruthKbps bounds Config.TruthKbps: 1 Gbit/s.
const MaxTruthKbps = 1_000_000

// MaxClients bounds the clients of one session: the scale bench runs 64.
const MaxClients = 64

// Session is one run of the demo: the server's world (the left) and its
// clients (client.go).
type Session struct {
	cfg        Config
	left       *cubes.World
	initial    []cubes.CubeState
	frame      int
	inputs     []cubes.Inputs // every player's input, by frame
	hist       *history
	strategies []strategy.Strategy // the menu: client 0's instances
	active     int
	presenter  cubes.Inputs // this tick's inputs from the keys, the script or the bots
	bots       []cubes.Bot  // the bots of players 2.. (bots[p-1])

	clients []*client
	shown   int    // the client whose screen the right view shows
	linkBy  string // what set cfg.Link, the conditions new clients start on
	// before are the links the presenter had (cfg.Link, then each
	// client's) when a strategy that chooses its link (lockstep's modes)
	// was selected: leaving that strategy brings them back (nil: no
	// strategy chose). restored says the last SetStrategy did.
	before   []link.Pair
	restored bool
	chosen   string // the name of the link a sub-mode chose last ("": none)
	// serverNs is the server's share of the last tick (Config.Timing): on
	// the critical path (the serial part and the slowest of the parallel
	// sends, workerNs) and in all (serverCPU).
	serverNs, serverCPU int64
	workerNs            []int64
	plan                sendPlan // the order of the parallel sends (sendplan.go)
	// rightNs is the clients' side of the last tick (Config.Timing), the
	// same two ways (parallel_receive.go); rightWorkerNs its workers'.
	rightNs, rightCPU int64
	rightWorkerNs     []int64
	rightOrder        rightOrder // tests: how the right sides run

	r       *wire.ReadStream
	setBuf  []byte            // the active strategy's settings as client 0 has them
	setPrev []byte            // … as the other clients last took them
	setW    *wire.WriteStream // writes setBuf, kept: a new one each tick escaped to the heap

	leftView viewmodel.View
	right    viewmodel.View
	ghost    viewmodel.View
	errs     errorState
	grid     []gridClient          // the clients the grid shows besides the shown one (grid.go)
	pairs    []physics.ContactPair // scratch for HardestImpact

	// The two-process mode (twoproc.go): its connection, formats' buffers
	// and what a right knows of the left; nil in one process.
	tp     *twoProc
	proc   process  // what this process runs of each tick (process.go)
	events []string // the session's own notes for Events

	onSend func(pkt []byte) // tests: sees every data packet the left sends to client 0
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("game: invalid config")

// Validate reports the first setting out of its range, naming it (the
// error wraps ErrInvalidConfig, or the world's, physics' or link's own).
// New refuses an invalid Config.
func (c *Config) Validate() error {
	if c.HistoryTicks < 2 || c.InputTicks < 32 {
		return fmt.Errorf("%w: HistoryTicks = %d, InputTicks = %d: want ≥ 2 and ≥ 32", ErrInvalidConfig, c.HistoryTicks, c.InputTicks)
	}
	if len(c.Strategies) == 0 {
		return fmt.Errorf("%w: Strategies is empty", ErrInvalidConfig)
	}
	if c.Start < 0 || c.Start >= len(c.Strategies) {
		return fmt.Errorf("%w: Start = %d: want 0..%d", ErrInvalidConfig, c.Start, len(c.Strategies)-1)
	}
	for i, st := range c.Strategies {
		if st == nil {
			return fmt.Errorf("%w: Strategies[%d] is nil", ErrInvalidConfig, i)
		}
		for _, o := range c.Strategies[:i] {
			if o.ID() == st.ID() || o == st {
				return fmt.Errorf("%w: Strategies: %q is in the list twice", ErrInvalidConfig, st.ID())
			}
		}
	}
	if err := c.checkConnection(); err != nil {
		return err
	}
	if c.DiagEvery < 0 || c.TruthKbps < 0 || c.TruthKbps > MaxTruthKbps {
		return fmt.Errorf("%w: DiagEvery = %d, TruthKbps = %d: want ≥ 0 and 0..%d", ErrInvalidConfig, c.DiagEvery, c.TruthKbps, MaxTruthKbps)
	}
	if c.Clients < 0 || c.Clients > MaxClients {
		return fmt.Errorf("%w: Clients = %d: want 0..%d", ErrInvalidConfig, c.Clients, MaxClients)
	}
	if err := c.World.Validate(); err != nil {
		return err
	}
	if err := c.Physics.Validate(); err != nil {
		return err
	}
	return c.validateLinks()
}

// New creates a session at frame 0 with cfg.Strategies, starting with
// cfg.Start. The session keeps the strategies (they are not copied): a
// caller may hold on to one to change its settings between Steps; the
// other clients' instances are clones that follow those settings.
func New(cfg Config) (*Session, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, active: cfg.Start, strategies: cfg.Strategies, tp: newTwoProc(cfg)}
	s.proc = newProcess(cfg, s.tp)
	left, err := cubes.NewWorld(cfg.World, cfg.Physics)
	if err != nil {
		return nil, err
	}
	s.left = left
	s.initial = left.States(nil)
	s.inputs = make([]cubes.Inputs, cfg.InputTicks)
	s.hist = newHistory(cfg.HistoryTicks, left.NumCubes())
	s.errs.prevErr = make([]mgl64.Vec3, left.NumCubes())
	s.r = wire.NewReadStream(nil)
	s.setBots()
	n := cfg.Clients
	if n == 0 {
		n = left.NumPlayers()
	}
	for k := range n {
		s.addClient(k)
	}
	if cfg.ChosenLink {
		s.followChosenLink(true)
	} else if lc, ok := s.strategies[s.active].(strategy.LinkChooser); ok {
		// Started on the command line's links: the choice is seen, so a
		// key that leaves it as it was (a delay) leaves them alone.
		if _, name, chooses := lc.ChosenLink(); chooses {
			s.chosen = name
		}
	}
	s.resetNetwork()
	s.hist.record(0, s.left)
	s.fillLeftView()
	s.proc.start(s)
	return s, nil
}

// validateLinks refuses conditions out of range, naming the field.
func (cfg *Config) validateLinks() error {
	if err := cfg.Link.Validate(); err != nil {
		return fmt.Errorf("game: Link: %w", err)
	}
	if cfg.Up != nil {
		if err := cfg.Up.Validate(); err != nil {
			return fmt.Errorf("game: Up: %w", err)
		}
	}
	for k, p := range cfg.ClientLinks {
		if err := p.Validate(); err != nil {
			return fmt.Errorf("game: ClientLinks[%d]: %w", k, err)
		}
	}
	return nil
}

// addClient appends client k on its conditions, with a clone of the active
// strategy (client 0 uses the menu's own instance).
func (s *Session) addClient(k int) {
	c, by := s.defaultLinks(), s.linkBy
	if k < len(s.cfg.ClientLinks) {
		c, by = s.cfg.ClientLinks[k], ""
	}
	st := s.strategies[s.active]
	if k > 0 {
		st = st.Clone()
	}
	cl := newClient(s, k, c, st)
	cl.linkBy = by
	s.clients = append(s.clients, cl)
}

// setBots gives players 2.. their bots, the kinds taken in turn.
func (s *Session) setBots() {
	kinds := s.cfg.Bots
	if len(kinds) == 0 {
		kinds = cubes.DefaultBots
	}
	s.bots = s.bots[:0]
	for p := 1; p < s.left.NumPlayers(); p++ {
		s.bots = append(s.bots, cubes.NewBot(kinds[(p-1)%len(kinds)]))
	}
}

// newWorld builds a world in the initial state (for simulating receivers).
func (s *Session) newWorld() *cubes.World {
	w, err := cubes.NewWorld(s.cfg.World, s.cfg.Physics)
	if err != nil {
		// The same configuration built the left world already.
		panic(err)
	}
	return w
}

// resetNetwork empties every client's links and endpoints and resets its
// strategy instance: packets of an old strategy must never reach a new one.
func (s *Session) resetNetwork() { s.startOver(false) }

// startOver is resetNetwork; with restart, after a sub-mode step that
// starts the right over (strategy.Restarter), each instance is restarted
// instead of reset.
func (s *Session) startOver(restart bool) {
	s.errs.hasPrev = false
	s.errs.validTicks = 0
	// The presenter's instance first: its Reset may change what its
	// settings say (lockstep's start frame), which the clones then take.
	s.clients[0].startOver(restart)
	s.syncSettings(true)
	for _, c := range s.clients[1:] {
		c.startOver(restart)
	}
}

// syncSettings gives the other clients' instances the settings the
// presenter's has (strategy.Shared: the same bytes that carry them to a
// right process), when they changed or when force is set.
func (s *Session) syncSettings(force bool) {
	if len(s.clients) < 2 {
		return
	}
	sh, ok := s.strategies[s.active].(strategy.Shared)
	if !ok {
		return
	}
	if s.setBuf == nil {
		s.setBuf = make([]byte, 4096)
		s.setW = wire.NewWriteStream(s.setBuf)
	}
	w := s.setW
	w.Reset(s.setBuf)
	if sh.SerializeSettings(w) != nil || w.SerializeAlign() != nil {
		return
	}
	b := w.Bytes()
	if !force && string(b) == string(s.setPrev) {
		return
	}
	s.setPrev = append(s.setPrev[:0], b...)
	for _, c := range s.clients[1:] {
		if o, ok := c.st.(strategy.Shared); ok {
			s.r.Reset(b)
			_ = o.SerializeSettings(s.r)
		}
	}
}

// Context is the session as client 0's strategy instance sees it, for a
// test or a fuzzer that drives a strategy's methods directly.
func (s *Session) Context() strategy.Context { return &s.clients[0].ctx }

// InjectPacketTo puts data on client k's link towards the right (toRight)
// or the left as if the other side had sent it this tick: a test or a
// fuzzer hands a side hostile bytes the way the network would.
func (s *Session) InjectPacketTo(k int, toRight bool, data []byte) {
	c := s.clients[k]
	if toRight {
		c.toRight.Send(wire.Tick(s.frame), data)
	} else {
		c.toLeft.Send(wire.Tick(s.frame), data)
	}
}

// MaxWarpFrame bounds Warp: a few times the 16-bit sequence space, so a
// test can put a session past several wraps of the sequence numbers.
const MaxWarpFrame = 1 << 20

// Warp moves the session to frame f at once, without simulating the frames
// in between: the left world keeps its state and takes f as its frame
// number, the input record and the history are forgotten, and the links
// and the active strategy start over (as after Restart), so everything the
// strategy then sees is as consistent as after a switch of strategy at
// frame f. A fuzz harness uses it to try a packet at frame 70,000 (past a
// wrap of the sequence numbers) in microseconds instead of 20 minutes of
// simulation; the app never calls it.
func (s *Session) Warp(f int) error {
	if f < 0 || f > MaxWarpFrame {
		return fmt.Errorf("game: cannot warp to frame %d (0..%d)", f, MaxWarpFrame)
	}
	s.frame = f
	s.left.SetFrame(f)
	for i := range s.inputs {
		s.inputs[i] = cubes.Inputs{}
	}
	s.hist.clear()
	s.hist.record(f, s.left)
	s.resetNetwork()
	s.fillLeftView()
	s.right.Cubes = s.right.Cubes[:0]
	return nil
}

// Frame is the number of ticks the left world has taken.
func (s *Session) Frame() int { return s.frame }

// Left is the authoritative world.
func (s *Session) Left() *cubes.World { return s.left }

// LeftAt returns cube i of the left world at (fractional) frame t, from
// the history the error metrics compare against, and false when frame t is
// no longer (or not yet) kept. Tools use it to judge the right against the
// left at any delay they choose.
func (s *Session) LeftAt(t float64, i int) (mgl64.Vec3, mgl64.Quat, bool) {
	return s.hist.pose(t, i)
}

// Strategy returns the active strategy (the presenter's instance, whose
// settings the keys change).
func (s *Session) Strategy() strategy.Strategy { return s.strategies[s.active] }

// ClientStrategy returns client k's instance of the active strategy.
func (s *Session) ClientStrategy(k int) strategy.Strategy { return s.clients[k].st }

// StrategyIndex returns the index of the active strategy in the list.
func (s *Session) StrategyIndex() int { return s.active }

// Strategies returns the session's strategies, in menu order (the caller
// must not change the slice).
func (s *Session) Strategies() []strategy.Strategy { return s.strategies }

// SetStrategy switches to strategy i of the list. The right side and the
// links start over; the left world carries on. Leaving a strategy whose
// sub-mode chose the link (strategy.LinkChooser) for one that chooses none
// brings back the links the presenter had before it, on every client still
// on the chosen link (LinksRestored says so): the lockstep mode's TCP-like
// 125 ms / 5 % must not become the next strategy's conditions unasked.
func (s *Session) SetStrategy(i int) error {
	if i < 0 || i >= len(s.strategies) {
		return fmt.Errorf("game: no strategy %d", i)
	}
	if r, ok := s.strategies[s.active].(strategy.Releaser); ok && i != s.active {
		r.Release() // nothing large kept for a strategy that is not running
	}
	s.activate(i)
	s.restored = false
	if !s.keepOwnLinks() {
		s.followChosenLink(true)
	}
	s.resetNetwork()
	return nil
}

// keepOwnLinks reports whether a switch to the active strategy keeps the
// clients' links although it chooses one (lockstep's modes), and takes
// note of its choice: when the clients are on links of their own (a
// per-client preset list), as when the app starts in that strategy with
// them. The lesson of several players in lockstep (the slowest link
// stalls everyone) needs the links; a sub-mode step then applies the
// mode's own as usual.
func (s *Session) keepOwnLinks() bool {
	lc, ok := s.strategies[s.active].(strategy.LinkChooser)
	if !ok || s.before != nil || !s.ownLinks() {
		return false
	}
	_, name, chooses := lc.ChosenLink()
	if chooses {
		s.chosen = name
	}
	return chooses
}

// ownLinks reports whether the clients' links are not all the same.
func (s *Session) ownLinks() bool {
	for _, c := range s.clients[1:] {
		if c.link != s.clients[0].link {
			return true
		}
	}
	return false
}

// SettingsChanged tells the session that a key changed the active
// strategy's settings (ui: a strategy control): when that changes the
// link its sub-mode chooses (a switch to or from the original demo's mode
// list), the session applies the new choice, or brings back the
// presenter's links. A key that leaves the choice as it was leaves the
// links alone, so the link keys' changes since stay.
func (s *Session) SettingsChanged() {
	s.errs.hasPrev = false // a new setting's first picture is not a pop
	restored := s.restored
	s.followChosenLink(false)
	s.restored = restored
}

// followChosenLink applies the link the active strategy's sub-mode
// chooses (strategy.LinkChooser), or brings back the presenter's links
// when it chooses none. again applies a choice even when it is the one
// applied last (a switch to the strategy, a sub-mode step); otherwise only
// a new choice is applied.
func (s *Session) followChosenLink(again bool) {
	c, name, chooses := link.Config{}, "", false
	if lc, ok := s.strategies[s.active].(strategy.LinkChooser); ok {
		c, name, chooses = lc.ChosenLink()
	}
	if !chooses {
		s.restoreLinks()
		s.chosen = ""
		return
	}
	if again || name != s.chosen {
		s.applyChosenLink(c, name)
	}
}

// restoreLinks puts back the links saved when a strategy chose its own,
// on every client whose link is still the chosen one (a link the
// presenter changed by hand since stays).
func (s *Session) restoreLinks() {
	if s.before == nil {
		return
	}
	for k, c := range s.clients {
		if c.linkBy == "" {
			continue // set by hand since: it stays
		}
		c.setLinks(s.linkBefore(k))
		c.home = nil
		s.restored = true
	}
	if s.linkBy != "" {
		s.setDefaultLinks(s.before[0])
	}
	s.before = nil
}

// linkBefore is client k's link before a strategy chose one: its own, or
// the session's for a client that joined since.
func (s *Session) linkBefore(k int) link.Pair {
	if k+1 < len(s.before) {
		return s.before[k+1]
	}
	return s.before[0]
}

// LinksRestored reports whether the last SetStrategy brought back the
// links the presenter had before a strategy chose its own.
func (s *Session) LinksRestored() bool { return s.restored }

// LinksBefore are the links the presenter had before the active strategy
// chose its own: the session's, then each client's (nil when no strategy
// chose). A restart (the app's F5) starts the new session on them, so
// leaving the strategy later still brings them back.
func (s *Session) LinksBefore() []link.Pair { return s.before }

// activate makes strategy i the active one on every client: the
// presenter's instance on client 0, fresh clones on the others (reset
// before use by resetNetwork).
func (s *Session) activate(i int) {
	s.active = i
	s.clients[0].st = s.strategies[i]
	for _, c := range s.clients[1:] {
		c.st = s.strategies[i].Clone()
	}
	s.setPrev = s.setPrev[:0]
}

// SubMode steps the active strategy's sub-mode (the `[` and `]` keys) and
// returns what it says; a strategy whose sub-modes are network conditions
// (strategy.LinkChooser) sets the link too, or gives the presenter's back
// when the new sub-mode chooses none.
//
// A strategy whose sub-modes must not carry the right's state over
// (strategy.Restarter: lockstep's modes, state sync stepping down) starts
// over: the links are emptied and every client's instance restarted, so
// no figure of the old sub-mode (a desync, a synced world) survives the
// step.
func (s *Session) SubMode(dir int) string {
	st := s.strategies[s.active]
	msg := st.SubMode(dir)
	// How the right is drawn changed (a render mode, a delay): the jump
	// from the old picture to the new is not a pop.
	s.errs.hasPrev = false
	restored := s.restored
	s.followChosenLink(true)
	s.restored = restored
	if r, ok := st.(strategy.Restarter); ok && r.RestartsAfter(dir) {
		s.startOver(true)
	}
	return msg
}

// applyChosenLink sets conditions c, chosen by a strategy's sub-mode
// (name), on every client, keeping the links the presenter had before the
// first time (restoreLinks).
func (s *Session) applyChosenLink(c link.Config, name string) {
	if s.before == nil {
		s.before = append(s.before, s.defaultLinks())
		for _, cl := range s.clients {
			// A link edited from a strategy's choice is not the
			// presenter's own: its home is what leaving brings back.
			if cl.home != nil {
				s.before = append(s.before, *cl.home)
				continue
			}
			s.before = append(s.before, cl.link)
		}
	}
	for _, cl := range s.clients {
		cl.setLinks(link.Symmetric(c))
		cl.linkBy = name
	}
	s.cfg.Link, s.cfg.Up, s.linkBy, s.chosen = c, nil, name, name
}

// LinkSource names what set the shown client's link conditions when a
// strategy's mode did ("lockstep mode 3"), or "" (a preset or the keys).
func (s *Session) LinkSource() string { return s.clients[s.shown].linkBy }

// Restart resets the active strategy and the links without touching the
// left world (after a setting that changes the packet format).
func (s *Session) Restart() { s.resetNetwork() }

// Link returns the shown client's link conditions, left → right (LinksOf
// gives both directions).
func (s *Session) Link() link.Config { return s.clients[s.shown].link.Down }

// LinksOf returns client k's conditions in both directions.
func (s *Session) LinksOf(k int) link.Pair { return s.clients[k].link }

// setDefaultLinks makes p the conditions new clients start on, unless a
// value is out of its range (then they stay).
func (s *Session) setDefaultLinks(p link.Pair) {
	if p.Validate() != nil {
		return
	}
	s.cfg.Link, s.linkBy, s.cfg.Up = p.Down, "", nil
	if !p.IsSymmetric() {
		up := p.Up
		s.cfg.Up = &up
	}
}

// defaultLinks are the conditions a client starts on (Config.Link, and
// Config.Up when given).
func (s *Session) defaultLinks() link.Pair {
	p := link.Symmetric(s.cfg.Link)
	if s.cfg.Up != nil {
		p.Up = *s.cfg.Up
	}
	return p
}

// DefaultLinks are the conditions a client that joins now starts on.
func (s *Session) DefaultLinks() link.Pair { return s.defaultLinks() }

// SetDefaultLinks changes the conditions clients that join from now on
// start on, not those of the clients there are.
func (s *Session) SetDefaultLinks(p link.Pair) { s.setDefaultLinks(p) }

// SetLink changes the conditions of every client's links, both
// directions, live; packets in flight keep the delay they were given.
func (s *Session) SetLink(c link.Config) { s.SetLinks(link.Symmetric(c)) }

// SetLinks changes the conditions of every client's links, each direction
// its own, live.
func (s *Session) SetLinks(p link.Pair) {
	s.setDefaultLinks(p)
	for k := range s.clients {
		s.SetClientLinks(k, p)
	}
}

// SetClientLinks changes client k's conditions, each direction its own.
func (s *Session) SetClientLinks(k int, p link.Pair) {
	if k >= 0 && k < len(s.clients) {
		c := s.clients[k]
		switch {
		case isPreset(p) || s.before == nil && c.linkBy == "":
			// A preset, or a link set outside any strategy's choice:
			// the presenter's own.
			c.home = nil
		case c.linkBy != "" && c.home == nil && s.before != nil:
			// Numbers edited from a strategy's choice: the link before
			// it is still this client's home.
			home := s.linkBefore(k)
			c.home = &home
		}
		c.setLinks(p)
	}
}

// isPreset reports whether p is one of the link presets.
func isPreset(p link.Pair) bool {
	for q := link.Preset(0); q < link.NumPresets; q++ {
		if q.Pair() == p {
			return true
		}
	}
	return false
}

// ClientLinks are every client's conditions, in client order.
func (s *Session) ClientLinks() []link.Pair {
	out := make([]link.Pair, len(s.clients))
	for k, c := range s.clients {
		out[k] = c.link
	}
	return out
}

// PlayerInputs are this tick's inputs of every player from the keys, the
// script and the bots (what a recording keeps).
func (s *Session) PlayerInputs() cubes.Inputs { return s.presenter }

// Outage drops every packet sent in either direction of the shown
// client's links for the next ticks.
func (s *Session) Outage(ticks int) { s.ClientOutage(s.shown, ticks) }

// ClientOutage is Outage on client k's links.
func (s *Session) ClientOutage(k, ticks int) {
	if k < 0 || k >= len(s.clients) {
		return
	}
	c := s.clients[k]
	c.toRight.StartOutage(wire.Tick(s.frame), ticks)
	c.toLeft.StartOutage(wire.Tick(s.frame), ticks)
}

// HoldClientOutage drops everything on client k's links while held is
// true (a key held down).
func (s *Session) HoldClientOutage(k int, held bool) {
	if k < 0 || k >= len(s.clients) {
		return
	}
	c := s.clients[k]
	c.toRight.SetHeld(wire.Tick(s.frame), held)
	c.toLeft.SetHeld(wire.Tick(s.frame), held)
}

// InOutage reports whether the shown client's link is dropping everything
// right now.
func (s *Session) InOutage() bool {
	return s.clients[s.shown].toRight.InOutage(wire.Tick(s.frame))
}

// inputAt is the input player p used on the left at frame f (idle outside
// the input history).
func (s *Session) inputAt(p, f int) cubes.Input {
	if f < 0 || f > s.frame || s.frame-f >= len(s.inputs) || p < 0 || p >= cubes.MaxPlayers {
		return cubes.Input{}
	}
	return s.inputs[f%len(s.inputs)][p]
}

// Step advances the session by one tick with the presenter's input for
// player 1 (the keys or the script); the bots drive the other players.
func (s *Session) Step(in cubes.Input) { s.StepPlayers(&cubes.Inputs{in}, 1) }

// StepPlayers advances the session by one tick. ins holds the inputs of the
// players the caller drives: player p+1 when bit p of given is set (the
// presenter's keys for player 1, a script's tracks); the bots drive the
// others. The inputs drive the left world, except for a strategy whose
// clients own their players (strategy.RightDriven), where they drive the
// clients and the left steps with what crossed the links. In the
// two-process mode a session runs only its own half (twoproc.go).
func (s *Session) StepPlayers(ins *cubes.Inputs, given uint8) {
	for p := range s.left.NumPlayers() {
		switch {
		case given&(1<<p) != 0:
			s.presenter[p] = ins[p]
		case p > 0 && s.proc.botsHere():
			s.presenter[p] = s.bots[p-1].Input(s.left, p)
		default:
			s.presenter[p] = cubes.Input{}
		}
	}
	s.syncSettings(false)
	s.proc.step(s, wire.Tick(s.frame+1))
}

// stepBoth is the network part of a tick in one process: the acks back to
// the left, the left's half, the packets to every client's right.
func (s *Session) stepBoth(now wire.Tick) {
	var t0 time.Duration
	if s.cfg.Timing {
		t0, _ = cputime.Thread()
		s.workerNs = s.workerNs[:0]
	}
	for _, c := range s.clients {
		c.receiveBack(c.collect(c.toLeft.Receive(now)))
	}
	s.leftHalf(now)
	if s.cfg.Timing {
		s.serverNs, s.serverCPU = partTime(t0, s.workerNs)
	}
	s.receiveAll(now)
	s.finish()
}

// ServerNanos is the CPU time of the server's share of the last tick
// (Config.Timing; 0 without it) on its critical path: what it takes on
// this machine's cores with the clients' encoding spread over them (on
// idle cores, the tick's time). ServerCPU is its CPU time in all.
func (s *Session) ServerNanos() int64 { return s.serverNs }

// ServerCPU is the server's CPU time of the last tick, every core's.
func (s *Session) ServerCPU() int64 { return s.serverCPU }

// leftHalf is the server's part of a tick after the packets from the
// clients were read (client.receiveBack): the left world's step, the
// acks, each client's sender.
func (s *Session) leftHalf(now wire.Tick) {
	// The left world, with every player's input: from the presenter, the
	// scripts and the bots, or, for a strategy whose clients own their
	// players, from what reached the server.
	var in cubes.Inputs
	_, rightDriven := s.strategies[s.active].(strategy.RightDriven)
	for p := range s.left.NumPlayers() {
		in[p] = s.presenter[p]
		if rightDriven && p < len(s.clients) && !s.clients[p].absent {
			c := s.clients[p]
			in[p] = c.st.(strategy.RightDriven).LeftInput(&c.ctx)
		}
	}
	s.inputs[s.frame%len(s.inputs)] = in
	s.left.StepAll(&in)
	s.frame++
	s.hist.record(s.frame, s.left)

	for _, c := range s.clients {
		c.takeAcks(now)
	}
	s.sendAll()
}

// finish fills the views and the metrics of the tick.
func (s *Session) finish() {
	s.fillLeftView()
	c := s.clients[s.shown]
	s.right.Cubes = s.right.Cubes[:0]
	s.right.Marks = s.right.Marks[:0]
	// A strategy says what overlays it fills each tick: the flags of the
	// one before must not outlive a switch (the E legend stayed up in
	// strategies without offsets).
	s.right.HasPriority, s.right.HasErrorOffsets, s.right.HasOwners = false, false, false
	shown, ok := c.st.View(&s.right)
	s.markPlayers(&s.right)
	s.updateMetrics(shown, ok)
	s.fillGrid()
}

func (s *Session) fillLeftView() {
	s.leftView.Cubes = s.leftView.Cubes[:0]
	for i := 0; i < s.left.NumCubes(); i++ {
		c := s.left.Cube(i)
		s.leftView.Cubes = append(s.leftView.Cubes, viewmodel.CubeView{
			Position:    c.Position,
			Orientation: c.Orientation,
			HalfExtent:  s.left.HalfExtent(i),
			Interacting: c.Interacting,
			AtRest:      s.left.AtRest(i),
		})
	}
	s.markPlayers(&s.leftView)
	s.leftView.HasOwners = false
	s.leftView.Marks = s.leftView.Marks[:0]
	if lo, ok := s.clients[s.shown].st.(strategy.LeftOverlay); ok {
		lo.FillLeft(&s.leftView)
	}
}

// markPlayers marks the players' cubes in a view (Player, PlayerNum) and
// points its camera at the shown client's player (player 1 for a
// spectator). Strategies fill their views cube by cube; who is a player is
// the session's to say.
func (s *Session) markPlayers(v *viewmodel.View) { s.markPlayersOf(v, s.shown) }

// markPlayersOf is markPlayers with the camera on client k's player.
func (s *Session) markPlayersOf(v *viewmodel.View, k int) {
	cfg := s.left.Config()
	for i := range v.Cubes {
		p := cubes.PlayerOf(cfg, i)
		v.Cubes[i].Player = p >= 0
		v.Cubes[i].PlayerNum = uint8(p + 1)
	}
	v.Player = cubes.Player
	if p := s.clients[k].player(); p >= 0 && s.left.PlayerCube(p) < len(v.Cubes) {
		v.Player = s.left.PlayerCube(p)
	}
}

// ownError takes the shown client's strategy's own error figures when it
// has them (strategy.OwnError) and the right is measured in this process.
func (s *Session) ownError() {
	c := s.clients[s.shown]
	oe, has := c.st.(strategy.OwnError)
	if !has || !s.proc.measuresRight() {
		return
	}
	e, ok := oe.OwnError()
	if !ok {
		return
	}
	m := &c.metrics
	m.Valid, m.ErrorOf = true, e.Of
	m.ShownFrame, m.DelayMs, m.MaxPopCm = 0, 0, 0
	m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg = e.RMSCm, e.MaxCm, e.MaxDeg
}

// LeftView is the authoritative world as the left shows it.
func (s *Session) LeftView() *viewmodel.View { return &s.leftView }

// RightView is the world the shown client rebuilt.
func (s *Session) RightView() *viewmodel.View { return &s.right }

// GhostView is the left world at the frame the right is showing, for the
// ghost overlay; nil when there is nothing to compare.
func (s *Session) GhostView() *viewmodel.View {
	m := &s.clients[s.shown].metrics
	if !m.Valid || m.ErrorOf != "" || m.TruthAgeMs > 0 {
		return nil // held figures: no ghosts of another frame
	}
	return &s.ghost
}

// Metrics are this tick's figures of the shown client.
func (s *Session) Metrics() *viewmodel.Metrics { return &s.clients[s.shown].metrics }

// ClientMetrics are this tick's figures of client k: its bandwidth, RTT
// and loss (the error figures are measured for the shown client only).
func (s *Session) ClientMetrics(k int) *viewmodel.Metrics { return &s.clients[k].metrics }

func (s *Session) updateMetrics(shown float64, ok bool) {
	total := 0.0
	for _, c := range s.clients {
		c.updateLinkMetrics()
		total += c.metrics.SentKbps
	}
	c := s.clients[s.shown]
	m := &c.metrics
	m.Clients, m.ServerSentKbps = len(s.clients), total

	m.Valid = false
	m.ShownFrame = shown
	m.ErrorOf = ""
	m.NowRMSCm, m.NowMaxCm, m.HasNow = 0, 0, false
	defer func() {
		// Ticks in a row with figures (Metrics.ErrorTicks).
		if m.Valid {
			s.errs.validTicks++
		} else {
			s.errs.validTicks = 0
		}
		m.ErrorTicks = s.errs.validTicks
	}()
	if !ok || len(s.right.Cubes) != s.left.NumCubes() {
		s.errs.hasPrev = false
		s.ownError()
		return
	}
	m.DelayMs = (float64(s.frame) - shown) * 1000 / wire.TicksPerSecond
	m.TruthAgeMs = 0
	if s.heldError(m, shown) {
		return
	}
	s.ghost.Cubes = s.ghost.Cubes[:0]
	s.ghost.Player = s.right.Player
	var sum, maxPos, maxAng, maxPop, sumNow, maxNow float64
	hasNow := true
	e := &s.errs
	for i := range s.right.Cubes {
		p, q, ok := s.hist.pose(shown, i)
		if !ok {
			e.hasPrev = false
			return
		}
		rc := &s.right.Cubes[i]
		s.ghost.Cubes = append(s.ghost.Cubes, viewmodel.CubeView{Position: p, Orientation: q, HalfExtent: rc.HalfExtent, Player: rc.Player, PlayerNum: rc.PlayerNum})
		d := rc.Position.Sub(p)
		dl := d.Len()
		sum += dl * dl
		maxPos = math.Max(maxPos, dl)
		maxAng = math.Max(maxAng, geom.AngleBetween(rc.Orientation, q))
		if e.hasPrev {
			maxPop = math.Max(maxPop, d.Sub(e.prevErr[i]).Len())
		}
		e.prevErr[i] = d
		// Against the left as it is now (in a right process, the newest
		// truth its diagnostics gave).
		if pn, _, ok := s.hist.pose(float64(s.frame), i); ok && hasNow {
			dn := rc.Position.Sub(pn).Len()
			sumNow += dn * dn
			maxNow = math.Max(maxNow, dn)
		} else {
			hasNow = false
		}
	}
	n := float64(len(s.right.Cubes))
	m.Valid = true
	m.PosRMSCm = 100 * math.Sqrt(sum/n)
	m.PosMaxCm = 100 * maxPos
	m.OrientMaxDeg = maxAng * 180 / math.Pi
	m.HasNow = hasNow
	if hasNow {
		m.NowRMSCm = 100 * math.Sqrt(sumNow/n)
		m.NowMaxCm = 100 * maxNow
	}
	m.MaxPopCm = 0
	if e.hasPrev {
		m.MaxPopCm = 100 * maxPop
	}
	e.hasPrev = true
	s.holdError(m)
}
