package strategy

import (
	"netcubes/cubes"
	"netcubes/link"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Strategy is one way of networking the world. The session (package game)
// owns the left world, the links in both directions, the packet sequence
// numbers and the acks; a strategy owns its packet formats, what the left
// sends and how the right rebuilds the world.
//
// Every method runs inside Session.Step or between two Steps, on one
// goroutine. Settings changed between Steps (by the app's keys, the
// command line or a test) take effect at the next tick.
type Strategy interface {
	// ID is the strategy's name on the command line ("statesync"); unique
	// in a session's list.
	ID() string
	// Name is its name on the HUD ("State synchronization").
	Name() string
	// Family names the group of strategies that share their controls
	// ("Snapshots"): the help overlay lists a family's keys once, under
	// the number keys of all its members.
	Family() string
	// Mode describes the current settings in a few words.
	Mode() string
	// Explain is one line saying what the presenter is looking at.
	Explain() string
	// Controls are the strategy's own settings, each on a key. The list
	// may be built once: its Value and Do functions read and change the
	// live settings.
	Controls() []Control
	// SubMode steps the strategy's sub-mode by dir (+1 or −1: the `]` and
	// `[` keys) and says what it is now: a render mode, a compression
	// level, a step of an article's build-up.
	SubMode(dir int) string

	// Clone returns a new instance for one more client of the same
	// session: the same configuration and current settings, none of the
	// state (the session calls Reset before using it). The session keeps
	// the clones' settings equal to the original's through Shared, so
	// only what a strategy keeps beyond its settings matters here. Work
	// the server does once per tick for every client (state sync's
	// quantizing of the left world) may be shared between an instance and
	// its clones.
	Clone() Strategy

	// Reset forgets everything (a new session or a switch to this
	// strategy). The right side starts from the world's initial state,
	// which both sides know.
	Reset(ctx Context)
	// Send runs on the left after the left world stepped. It may send one
	// packet with ctx.Send.
	Send(ctx Context)
	// Acked tells the left that the right received its packet seq.
	Acked(ctx Context, seq uint16)
	// Receive decodes one packet that reached the right. The sequence has
	// been read; s is positioned at the strategy's payload. Returning an
	// error drops the packet (hostile or corrupt bytes): it must never
	// panic, whatever the bytes and the sequence number.
	Receive(ctx Context, seq uint16, s *wire.ReadStream) error
	// Update advances the right side by one tick, after this tick's
	// packets were received.
	Update(ctx Context)
	// View fills the right view model and returns the left frame it shows
	// (fractional while interpolating), or ok = false before it shows
	// anything comparable with the left.
	View(v *viewmodel.View) (shown float64, ok bool)
}

// Payload is a packet body the session frames and sends: one Serialize for
// writing, reading and measuring (package wire).
type Payload interface {
	Serialize(s wire.Stream) error
}

// Context is what a strategy sees of the session during a tick: the
// server's world and the one client this instance serves (its links, its
// player, its inputs).
type Context interface {
	// Frame is the current tick: the number of steps the left world has
	// taken.
	Frame() int
	// Client is the client this instance serves (0-based; 0 is the
	// presenter's). Player is the player it owns (0-based: client k owns
	// player k), or −1 for a spectator; Players is how many players the
	// world has.
	Client() int
	Player() int
	Players() int
	// InputClients is how many clients send their own player's inputs to
	// the server: players 1..InputClients−1 play on their own clients'
	// machines, the others at the server (player 1, the presenter's, is
	// always the server's). In one process the bots play on their clients'
	// side, so this is every client; in the two-process mode the left runs
	// every player's input (but a RightDriven strategy's), so it is 1.
	InputClients() int
	// Thin reports a client that only decodes, acks and sends inputs (the
	// scale bench's): a strategy whose right simulates or interpolates may
	// skip that work for it, since nothing draws it.
	Thin() bool
	// Left is the authoritative world, to read. Only the session steps it.
	Left() *cubes.World
	// EditLeft is the same world for a strategy that must change it
	// between steps (state synchronization's "quantize both sides"). The
	// session records the left for its error figures before Send, so an
	// edit in Send shows from the next tick.
	EditLeft() *cubes.World
	// Input is the input this client's player used in the left world at
	// frame f (idle input for a frame outside the session's input history,
	// and for a spectator). PlayerInput is player p's.
	Input(f int) cubes.Input
	PlayerInput(p, f int) cubes.Input
	// PresenterInput is this tick's input of this client's player: the
	// keys or the script for player 1, a script or a bot for the others.
	// It drives the left world, except for a strategy that implements
	// RightDriven, whose clients own their players.
	PresenterInput() cubes.Input
	// Initial is the world's initial state, known to both sides.
	Initial() []cubes.CubeState
	// NewWorld builds a world in its initial state, for a strategy whose
	// right side simulates.
	NewWorld() *cubes.World

	// Send writes p after the sequence number (the current frame) and
	// sends the packet to the right: at most one per tick. It returns the
	// packet's size in bytes without the IP and UDP headers.
	Send(p Payload) (int, error)
	// SendBack sends p from the right to the left inside this tick's ack
	// packet (a strategy implementing TwoWay calls it from SendBack). It
	// is counted in the right → left bandwidth.
	SendBack(p Payload) (int, error)
	// Measure returns the bits p would take after the sequence number.
	Measure(p Payload) (wire.Breakdown, error)

	// RTT is the round-trip time the left measures from this client's
	// acks, in ms (false before the first ack).
	RTT() (float64, bool)
	// Link is the current configuration of this client's link.
	Link() link.Config
}

// Preparer is implemented by a strategy whose clients' instances share
// work the server does once per tick (Clone): quantizing the world,
// hashing it, relaying inputs. The session calls PrepareSend on one
// instance after the left stepped and before any client's Send; after it,
// Send must only read what the instances share, so the session may run
// the clients' Sends in parallel, each packet the same bits as in a serial
// run.
type Preparer interface {
	PrepareSend(ctx Context)
}

// SendPlanner is implemented by a Preparer whose clients' packets share
// work beyond PrepareSend, claimed by whichever client meets it first
// during the parallel sends: the first client to need a piece of work
// does it and publishes it, the later ones use it (a client that finds it
// claimed and not yet published does its own, the same bits). The
// session then runs each worker's clients in an order that spreads the
// costly firsts over the workers and puts a client whose work another
// worker publishes after that worker's firsts. The order changes who does
// a shared piece first, never a packet's bits.
//
// PlanSend runs on every client's instance after PrepareSend and before
// any Send, one after another; it must only read (the plan is a guess at
// what the Sends will meet, and a Send must not depend on it).
type SendPlanner interface {
	PlanSend(ctx Context) SendShare
}

// SendShare is what one client's packet this tick shares with the other
// clients' (SendPlanner), and what its send costs in each role. The keys
// compare equal for clients that share; 0 shares nothing.
type SendShare struct {
	// Decide: clients whose packets make the same decisions. The first
	// to send decides and publishes them (the Whole cost), the later
	// ones code from them (Reuse).
	Decide uint64
	// Same: clients whose packets are the same bits (their Decide is the
	// same too). The first codes it (in the role its Decide gives it), the
	// later ones copy it (Copy).
	Same uint64
	// The costs of the send in each role, in any unit shared by every
	// instance: Whole, deciding and coding (the first of its Decide, or
	// Decide 0); Reuse, coding decisions another published; Copy,
	// copying a packet another coded. All 0: the client sends nothing.
	Whole, Reuse, Copy int32
}

// IndependentRight is implemented by a strategy whose clients' right sides
// are machines of their own: in one process, each client's Receive,
// Update and SendBack (TwoWay) reads and writes only its own instance,
// and reads only what nobody changes while the clients take their turn
// (the left world, the inputs, the settings, what PrepareSend left for
// every instance). Then no client's turn can see another's, and the
// session may run the clients' right sides at once on the machine's
// cores, every packet and every world the bits of a serial run.
//
// IndependentRight reports whether that holds now: a setting that makes
// the machines talk to each other within the tick (distributed
// authority's peer-to-peer links) returns false, and the session runs the
// clients one after another, in order, as it does for a strategy that
// does not implement the interface.
type IndependentRight interface {
	IndependentRight() bool
}

// Releaser is implemented by a strategy that holds large buffers while it
// runs (worlds of its own, saved worlds, snapshot buffers, carried
// models). The session calls Release when it switches away from the
// strategy: the strategy lets go of them, so that a strategy that is not
// running keeps nothing large, and the next Reset (the switch back)
// builds them again. Its settings and controls stay. Between Release and
// Reset the session calls none of its per-tick methods (Send, Acked,
// Receive, Update, View and the optional ones).
type Releaser interface {
	Release()
}

// Facts is implemented by a strategy that has a line of its own figures
// for the HUD (bits per changed cube, updates per packet, stall time).
type Facts interface {
	Facts() string
}

// OwnError is implemented by a strategy whose right draws parts of the
// world at different frames, so the session's error (the whole right view
// against the left at the one frame View returns) has nothing to compare:
// the 2004 client draws its predicted player ahead of the server, at a
// frame the left has not simulated yet. Such a strategy measures its own
// error when the truth for a frame reaches it, and the HUD shows those
// figures with its words for what they compare. It is consulted only when
// View returns ok = false.
type OwnError interface {
	OwnError() (e ErrorFigures, ok bool)
}

// ErrorFigures are a strategy's own error figures (see OwnError).
type ErrorFigures struct {
	RMSCm, MaxCm, MaxDeg float64 // position RMS and largest (cm), largest angle (degrees)
	Of                   string  // what is compared with what, for the HUD
}

// RightFacts is implemented by a strategy whose figures are the right's
// own (lockstep's sync check, frames waiting, stalls): a right process
// shows this line instead of the left's facts.
type RightFacts interface {
	RightFacts() string
}

// Budgeted is implemented by a strategy with a bandwidth limit: the HUD
// draws it as the budget line. kept is false when the sender is currently
// ignoring it.
type Budgeted interface {
	BudgetKbps() (kbps float64, kept bool)
}

// TwoWay is implemented by a strategy that sends its own data from the
// right to the left (inputs going to a server, acks of inputs), carried in
// the ack packet the session sends every tick.
type TwoWay interface {
	// SendBack runs on the right after Update; it may call ctx.SendBack
	// once.
	SendBack(ctx Context)
	// ReceiveBack decodes a payload that reached the left, before the left
	// steps (so data sent back in time is used for the coming step).
	// Returning an error drops it; it must never panic.
	ReceiveBack(ctx Context, s *wire.ReadStream) error
}

// LinkChooser is implemented by a strategy whose sub-modes are network
// conditions (deterministic lockstep's seven modes, the original demos'
// mode lists of the other strategies). The session applies ChosenLink when
// the strategy is selected, after each sub-mode step, and after a key
// changed the strategy's settings so that it chooses another link (or
// none); the link keys change the conditions afterwards as usual. name
// says on the HUD where the conditions came from. ok is false while the
// current sub-mode chooses no link (a strategy that offers the original's
// mode list beside its own build-up): the session then brings back the
// links the presenter had before a sub-mode chose one.
type LinkChooser interface {
	ChosenLink() (c link.Config, name string, ok bool)
}

// RightDriven is implemented by a strategy whose clients own their
// players: the presenter's keys drive client 0's (ctx.PresenterInput), and
// the left world steps each player with the input that crossed its
// client's link.
type RightDriven interface {
	// LeftInput is the input the left world steps this client's player
	// with this tick, called before the left steps (after ReceiveBack).
	LeftInput(ctx Context) cubes.Input
	// SideLabels name the two views ("SERVER", "CLIENT") with a short
	// subtitle each.
	SideLabels() (left, leftSub, right, rightSub string)
}

// Shared is implemented by a strategy whose live settings can cross the
// network: in the two-process mode the left is the authority over the
// session, and the settings the presenter changes there reach the right in
// a control message. One Serialize writes them on the left and reads them
// on the right, like any packet; reading hostile bytes returns an error and
// leaves the settings as they were.
type Shared interface {
	SerializeSettings(s wire.Stream) error
}

// Restarter is implemented by a strategy whose sub-mode steps must start
// the right over rather than carry its state into the new sub-mode:
// lockstep's modes are each a new experiment (a desync found in the
// non-deterministic mode must not be shown under the line "the error is
// exactly 0" of the next), and state sync stepping down its build-up must
// not keep the world a later step kept in sync (steps 2-4 would read
// 0.0 cm). The session asks after every SubMode; when the answer is yes it
// empties the links and calls Restart on every client's instance instead
// of Reset.
type Restarter interface {
	// RestartsAfter reports whether the sub-mode step just taken (dir, as
	// given to SubMode) starts the right over.
	RestartsAfter(dir int) bool
	// Restart starts this instance over after such a step, at the current
	// frame, with the links emptied. Lockstep restarts both sides from one
	// freshly built world, as a switch to it does; state sync restarts the
	// right from the left's state at this frame.
	Restart(ctx Context)
}

// Alarm is implemented by a strategy with a state the presenter must see
// at once and that its settings line would otherwise hide among them
// (lockstep's "DESYNC at frame 1585"): the HUD draws it in red after the
// settings. An empty string is no alarm.
type Alarm interface {
	Alarm() string
}

// EventKind is what kind of thing a strategy's event is, from most to
// least important: the HUD's caption shows a more important event at once
// and lets a less important one wait until the caption has been read.
type EventKind uint8

const (
	EventDesync     EventKind = iota // the two sides' simulations differ from a frame on
	EventOutage                      // the link drops everything
	EventStall                       // the right is frozen, waiting for something
	EventCorrection                  // a correction moved what the right shows
	EventPop                         // a cube jumped on the right in one tick
	EventLate                        // something arrived too late to be used
	EventNote                        // anything else worth saying
)

// Event is something that just happened on one client that a strategy
// teaches, in a few words for a caption read from the back of a hall
// ("right frozen: waiting for input 412", "correction: 38 cm pop").
type Event struct {
	Kind EventKind
	Text string
	// Size ranks two events of the same kind (the larger correction is
	// the one to show), in the kind's own unit.
	Size float64
}

// Eventful is implemented by a strategy that reports its events. The
// session asks once a tick, after the right's Update; ok is false when
// nothing worth a caption happened (an ongoing state, such as a stall,
// is reported every tick it lasts).
type Eventful interface {
	Event() (e Event, ok bool)
}

// KeyFigures is implemented by a strategy whose price is a figure the
// audience must read from the back of the hall (rollback's resimulation
// per tick, or its stall time when it waits): the HUD draws parts in the
// key figures' large type under the bandwidth, after lead in body text.
type KeyFigures interface {
	KeyFigures() (lead string, parts []string)
}

// Multiplayer is implemented by a strategy that teaches with several
// players from the start (distributed authority: players pushing the same
// pile). When the presenter picks it and the world has fewer players,
// the app adds bots up to MinPlayers; more players stay.
type Multiplayer interface {
	MinPlayers() int
}

// LeftOverlay is implemented by a strategy with something of its own to
// show over the left's world (distributed authority tints each cube by
// the machine that simulates it, as the host sees it). The session calls
// FillLeft on the shown client's instance after it filled the left view
// from the left world.
type LeftOverlay interface {
	FillLeft(v *viewmodel.View)
}

// FrameLane is implemented by a strategy whose machine runs ahead of the
// inputs it holds (rollback): the packet timeline marks its frames under
// the right lane, final ones (every input in hand) apart from predicted
// ones. Frames before final are final, frames from final up to present
// were simulated on predicted inputs. ok is false while it has nothing to
// show.
type FrameLane interface {
	FrameLane() (final, present int, ok bool)
}

// Joiner is implemented by a strategy whose rights all run one world from
// one start (lockstep): in the two-process mode, when a right joins or
// leaves a slot, the session starts only that slot's client over, with
// Join instead of Reset, and every other client, the left world and the
// server's shared state go on. The joining right gets the world from the
// strategy itself (a state transfer), not by starting everyone over.
type Joiner interface {
	// Join starts this instance's serving of a right that joins now, at
	// the current frame, with the links emptied.
	Join(ctx Context)
}
