package game

import (
	"errors"

	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: the session is one process's session. What differs between
// running both halves here (oneProcess, below) and one half of a
// two-process session (leftProcess and rightProcess, twoproc_process.go)
// is behind this interface: the tick loop, the clients and the figures ask
// it, and never which half this process runs. The role is read once, by
// newProcess, which builds the one that fits.
type process interface {
	// start runs once the session is built (a left publishes its first
	// state: a right may connect before the first tick).
	start(s *Session)
	// step runs this process's half of the tick after the inputs are in.
	step(s *Session, now wire.Tick)
	// botsHere says whether the bots drive their players here: they run
	// where the world is.
	botsHere() bool
	// presenter is the input that drives player p's client this tick.
	presenter(s *Session, p int) int
	// inputClients is how many clients send inputs to the left.
	inputClients(s *Session) int
	// linkFigures fills the link's figures of m (client c) that depend on
	// where the two ends are.
	linkFigures(c *client, m *viewmodel.Metrics, now wire.Tick)
	// readsCharged says whether a packet read here charges its bits to the
	// bits bar (no writer here to charge them).
	readsCharged() bool
	// measuresRight says whether the right's own figures (a strategy's
	// OwnError) are measured here.
	measuresRight() bool
	// refresh refills the views after a change between ticks.
	refresh(s *Session)
	// setPlayers says whether this process may change the players, and
	// whether its clients follow them one per player.
	setPlayers(s *Session) (follow bool, err error)
	// fencesPresenter says whether the presenter's own keys stop at the
	// field's edge here.
	fencesPresenter() bool
	// playersElsewhere says whether every player is driven in another
	// process (the left): this one shows them.
	playersElsewhere() bool
	// halves says which halves of the session run here.
	halves() (left, right bool)
	// timeline appends the shown client's packets of the last seconds.
	timeline(s *Session, c *client, dst []viewmodel.PacketRecord) []viewmodel.PacketRecord
}

// newProcess builds the process for cfg's role: the one place that reads it.
func newProcess(cfg Config, tp *twoProc) process {
	switch cfg.Role {
	case RoleLeft:
		return leftProcess{tp}
	case RoleRight:
		return rightProcess{tp}
	}
	return oneProcess{}
}

// oneProcess runs the whole session: the left world, every client, the
// simulated links between them.
type oneProcess struct{}

func (oneProcess) start(*Session)                                     {}
func (oneProcess) step(s *Session, now wire.Tick)                     { s.stepBoth(now) }
func (oneProcess) botsHere() bool                                     { return true }
func (oneProcess) presenter(_ *Session, p int) int                    { return p }
func (oneProcess) inputClients(s *Session) int                        { return len(s.clients) }
func (oneProcess) linkFigures(*client, *viewmodel.Metrics, wire.Tick) {}
func (oneProcess) readsCharged() bool                                 { return false }
func (oneProcess) measuresRight() bool                                { return true }
func (oneProcess) refresh(s *Session)                                 { s.finish() }
func (oneProcess) fencesPresenter() bool                              { return true }
func (oneProcess) halves() (bool, bool)                               { return true, true }
func (oneProcess) playersElsewhere() bool                             { return false }

func (oneProcess) setPlayers(s *Session) (bool, error) { return s.cfg.Clients == 0, nil }

func (oneProcess) timeline(s *Session, c *client, dst []viewmodel.PacketRecord) []viewmodel.PacketRecord {
	return s.sentTimeline(c, dst)
}

var errLeftSetsPlayers = errors.New("the left sets the players")

// SetsPlayers reports whether this process may change the players (a
// right process follows its left's).
func (s *Session) SetsPlayers() bool {
	_, err := s.proc.setPlayers(s)
	return err == nil
}

// FencesPresenter reports whether the presenter's own keys stop at the
// field's edge in this process (KeepOnField).
func (s *Session) FencesPresenter() bool { return s.proc.fencesPresenter() }

// PlayersElsewhere reports whether the players are driven in another
// process (the left's presenter and bots): this one only shows them.
func (s *Session) PlayersElsewhere() bool { return s.proc.playersElsewhere() }

// Halves says which halves of the session this process runs: both in one
// process, the left or the right in two. The screen shows the views it has.
func (s *Session) Halves() (left, right bool) { return s.proc.halves() }
