package statesync

import (
	"errors"
	"fmt"
	"netcubes/diverge"
	"strings"

	"netcubes/cubes"
	"netcubes/internal/valid"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/transfer"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: state synchronization (Glenn Fiedler, "State
// Synchronization", and its summary). Both sides simulate. The left sends
// its inputs and the state of a few cubes each tick; the right runs its own
// world a few frames behind, steps it with the left's inputs, and snaps the
// cubes it hears about to the state it was sent. Between updates the right's
// own simulation fills in, which is why a few dozen cube updates per packet
// are enough for 901 cubes.
//
// The presenter walks the article's build-up with eight cumulative steps
// (StepSettings); every step is also a setting of its own, safe to
// change between two game.Session.Steps:
//
//  1. state updates: inputs + up to 64 uncompressed updates per packet,
//     chosen by current priority only;
//  2. the priority accumulator, filling packets to a byte budget;
//  3. the jitter buffer;
//  4. the mistake as a step of its own: the simulation blended halfway
//     toward each update instead of snapped to it (every other step
//     snaps, as the article does from the start);
//  5. compressed updates;
//  6. quantize both sides;
//  7. adaptive visual smoothing;
//  8. beyond the article's basics: positions relative to the player,
//     delta encoding against acked bases, and the at-rest commit.
//
// The session's order and "quantize both sides": the article quantizes each
// world before each of its steps. The session steps the left world and then
// calls Send, so quantizing the left at the start of Send, right after step
// n, is the same as quantizing it before step n+1; the packet then carries
// exactly the state the left will continue from. (The session records the
// left for its error figures just before Send, so the left it compares with
// is unquantized: a difference of at most 0.12 mm and 0.003°.) The right
// quantizes its own world before each of its steps in Update.

// BandwidthSteps are the bandwidth limits the presenter steps
// through, kbit/s including IP and UDP headers at 60 packets per second.
var BandwidthSteps = []int{32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048}

// Limits of the live settings.
const (
	// MinKbps is the lowest bandwidth limit: 32 kbit/s leave 38
	// bytes per packet after the IP and UDP headers, which hold the
	// sequence and the 32 inputs but no cube update (a resting cube costs
	// 118 bits until it has a delta base): the right then runs on inputs
	// alone, deterministic lockstep without the waiting. From 48 kbit/s the
	// player fits. Lower limits could not carry the inputs.
	MinKbps = 32
	// MaxKbps is the highest limit offered.
	MaxKbps = 4096
	// MaxJitterFrames bounds the jitter buffer setting.
	MaxJitterFrames = 10
	// Steps is the number of build-up steps.
	Steps = 8
	// BlendStep is the build-up step that blends the simulation toward
	// updates instead of snapping (the mistake the article warns against);
	// every other step snaps, as the article does.
	BlendStep = 4
)

// Settings are the live settings of state synchronization. Each
// field is one step of the article's build-up (or a teaching switch).
type Settings struct {
	// Accumulate sorts cubes by accumulated priority (the priority
	// accumulator). Off: by current priority only, so the grey cubes
	// beyond the first few dozen are never sent.
	Accumulate bool
	// LimitBandwidth fills each packet only up to the byte budget of
	// BandwidthKbps. Off: up to 64 updates whatever they cost.
	LimitBandwidth bool
	// BandwidthKbps is the limit in kbit/s, IP and UDP headers included, at
	// 60 packets per second (256: 505 bytes of payload per packet). Lower
	// means fewer updates per packet, so each cube is corrected less often
	// and the right drifts further between corrections.
	BandwidthKbps int
	// JitterFrames is how many frames the right holds packets beyond the
	// fastest transit (0..10). More absorbs more jitter but shows the world
	// later; 0 applies packets as soon as the fastest ones could arrive, so
	// slower ones are applied out of phase.
	JitterFrames int
	// Snap sets the right's physics state exactly to each update, as the
	// article does from its first step. Off (build-up step 4 only,
	// BlendStep): blend the simulation halfway toward it
	// (Config.BlendFactor), the tempting mistake the article warns
	// against: the simulation then extrapolates from a state that never
	// existed.
	Snap bool
	// Compressed sends quantized updates (bounded positions at 4096 per
	// metre, smallest-three orientations at 15 bits, bounded velocities):
	// 117 bits for a resting cube instead of 235, so about twice as many
	// updates fit. Off: float32s.
	Compressed bool
	// Quantize snaps both worlds to the wire's precision before every
	// step, so the right extrapolates from exactly what the left does.
	// Costs one quantization of every cube per tick on each side.
	Quantize bool
	// Smoothing hides corrections in error offsets that fade over a few
	// ticks; it changes only what is drawn, never the simulation.
	Smoothing replication.SmoothingMode
	// RelativeToPlayer sends positions within ±2 m of the player as
	// offsets from it (compressed only): 43 bits instead of 59.
	RelativeToPlayer bool
	// DeltaEncoding encodes updates against the same cube's state in a
	// packet the right acked (compressed only): a resting cube costs 19
	// bits instead of 117.
	DeltaEncoding bool
	// RestCommit keeps a cube that just came to rest at the priority of an
	// interacting cube until a packet carrying its resting state is acked,
	// so a lost last update cannot leave it in the wrong place for long;
	// once committed, a cube lying still drops to grey priority even while
	// it is still red (the right has nothing left to learn about it).
	RestCommit bool
	// SyncOff stops the right from applying state updates: it only gets
	// inputs and drifts away from the left wherever it already differs
	// (with a deterministic simulation started in sync it stays in sync:
	// that is deterministic lockstep).
	SyncOff bool
	// CongestionAvoidance (beyond the article's build-up, which it
	// mentions) keeps the budget at min(BandwidthKbps, what the path is
	// measured to carry): down fast when a queue builds, up carefully
	// (adapt.go). Off: the budget is the setting, whatever the path.
	CongestionAvoidance bool
	// SimpleCongestion, with CongestionAvoidance, uses the source
	// articles' simple congestion avoidance instead of the estimator: two
	// modes, the whole budget (good) or a third of it (bad: the articles'
	// 10 packets a second of 30) when the averaged round trip passes 250
	// ms (simple.go). The baseline the estimator is measured against.
	SimpleCongestion bool
	// Divergence makes the right's machine differ from the left's (float
	// noise, another solver: package diverge), so its world drifts and the
	// updates correct it, as on real clients (diverge.go). Off: the same
	// bit-exact solver, and from step 6 on no update changes anything.
	Divergence diverge.Mode
	// Relevance (beyond the article) scales each client's priorities by
	// the cubes' nearness to that client's own player (relevance.go).
	Relevance bool
	// Coarse quantizes at the article's first precision, 512 values per
	// metre and 9-bit smallest-three components, instead of its fix (4,096
	// and 15 bits): under "quantize both sides" the grid pushes cubes
	// into each other and the pile pops (precision.go).
	Coarse bool
	// SoftContacts gives both worlds the original sync demo's softer
	// contacts (34 Hz springs at ζ 1.8, push-out capped at 1 m/s) instead
	// of netcubes' own (contacts.go).
	SoftContacts bool
	// AdaptiveJitter sizes the jitter buffer from the jitter the right
	// measures instead of JitterFrames (which still says whether there is
	// a buffer): fewer frames of delay on a steady link, enough on a
	// jittery one (adapt.go).
	AdaptiveJitter bool
}

// StepSettings returns the cumulative settings of build-up step n
// (clamped to 1..8), with the default bandwidth and jitter buffer.
func StepSettings(n int) Settings {
	n = min(max(n, 1), Steps)
	s := Settings{BandwidthKbps: 256}
	s.Accumulate = n >= 2
	s.LimitBandwidth = n >= 2
	if n >= 3 {
		s.JitterFrames = 5
	}
	// The article snaps from the start ("without any smoothing the
	// result is already pretty good"); step 4 alone blends, to show the
	// tempting mistake as a step of its own.
	s.Snap = n != BlendStep
	s.Compressed = n >= 5
	s.Quantize = n >= 6
	if n >= 7 {
		s.Smoothing = replication.SmoothingAdaptive
	}
	s.RelativeToPlayer = n >= 8
	s.DeltaEncoding = n >= 8
	s.RestCommit = n >= 8
	return s
}

// Step returns the build-up step these settings are, whatever the bandwidth
// and the jitter buffer's depth (only whether there is one), or 0 when they
// match no step ("custom").
func (s Settings) Step() int {
	for n := Steps; n >= 1; n-- {
		t := StepSettings(n)
		t.BandwidthKbps, t.JitterFrames = s.BandwidthKbps, s.JitterFrames
		t.CongestionAvoidance, t.AdaptiveJitter = s.CongestionAvoidance, s.AdaptiveJitter
		t.SimpleCongestion, t.Divergence, t.Relevance = s.SimpleCongestion, s.Divergence, s.Relevance
		t.Coarse, t.SoftContacts = s.Coarse, s.SoftContacts
		if (n >= 3) != (s.JitterFrames > 0) {
			continue
		}
		if t == s {
			return n
		}
	}
	return 0
}

// WithStep returns s moved to build-up step n: every toggle as the step has
// it, the bandwidth limit kept, and the jitter buffer's depth kept (5 if it
// was off) from step 3 on, off before.
func (s Settings) WithStep(n int) Settings {
	t := StepSettings(n)
	t.BandwidthKbps = s.BandwidthKbps
	t.CongestionAvoidance, t.AdaptiveJitter = s.CongestionAvoidance, s.AdaptiveJitter
	t.SimpleCongestion, t.Divergence, t.Relevance = s.SimpleCongestion, s.Divergence, s.Relevance
	t.Coarse, t.SoftContacts = s.Coarse, s.SoftContacts
	if t.JitterFrames > 0 && s.JitterFrames > 0 {
		t.JitterFrames = s.JitterFrames
	}
	return t
}

// Validate reports the first setting out of its range, naming it, its
// value and the range (the error wraps ErrInvalidConfig).
func (s Settings) Validate() error {
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "BandwidthKbps", V: float64(s.BandwidthKbps), Lo: MinKbps, Hi: MaxKbps},
		valid.Field{Name: "JitterFrames", V: float64(s.JitterFrames), Hi: MaxJitterFrames},
		valid.Field{Name: "Smoothing", V: float64(s.Smoothing), Hi: float64(replication.NumSmoothingModes - 1)},
		valid.Field{Name: "Divergence", V: float64(s.Divergence), Hi: float64(diverge.NumModes - 1)},
	)
}

// BandwidthString is the limit as the HUD shows it.
func (s Settings) BandwidthString() string {
	if !s.LimitBandwidth {
		return "no limit"
	}
	return fmt.Sprintf("%d kbit/s", s.BandwidthKbps)
}

// JitterString is the jitter buffer as the HUD shows it.
func (s Settings) JitterString() string {
	if s.JitterFrames == 0 {
		return "no jitter buffer"
	}
	return fmt.Sprintf("jitter %d", s.JitterFrames)
}

// String is the one-line mode: "step 7 · 256 kbit/s · jitter 5 · quantize ·
// adaptive smoothing".
func (s Settings) String() string {
	var b strings.Builder
	if n := s.Step(); n > 0 {
		fmt.Fprintf(&b, "step %d", n)
	} else {
		b.WriteString("custom")
	}
	part := func(p string) { b.WriteString(" · "); b.WriteString(p) }
	part(s.BandwidthString())
	part(s.JitterString())
	if !s.Accumulate {
		part("current priority")
	}
	if !s.Snap {
		part("blend")
	}
	if s.Compressed {
		part("compressed")
	} else {
		part("float32")
	}
	if s.Quantize {
		part("quantize")
	}
	if s.Smoothing != replication.SmoothingNone {
		part(s.Smoothing.String())
	}
	if s.Compressed && s.RelativeToPlayer {
		part("relative")
	}
	if s.Compressed && s.DeltaEncoding {
		part("delta")
	}
	if s.RestCommit {
		part("rest commit")
	}
	if s.SyncOff {
		part("SYNC OFF")
	}
	if s.CongestionAvoidance && s.LimitBandwidth {
		part(congestionPart(s.SimpleCongestion))
	}
	if s.AdaptiveJitter && s.JitterFrames > 0 {
		part("adaptive jitter buffer")
	}
	if s.Divergence != diverge.Off {
		part("right: " + s.Divergence.String())
	}
	if s.Relevance {
		part("relevance")
	}
	if s.Coarse && (s.Compressed || s.Quantize) {
		part("coarse 512/m, 9-bit")
	}
	if s.SoftContacts {
		part("soft contacts")
	}
	return b.String()
}

// stateSyncStepNames and stateSyncExplains describe each build-up step.
var stateSyncStepNames = [Steps + 1]string{
	"custom",
	"state updates",
	"priority accumulator",
	"jitter buffer",
	"blend instead of snap (the mistake)",
	"compressed updates",
	"quantize both sides",
	"adaptive smoothing",
	"delta, relative, rest commit",
}

var stateSyncExplains = [Steps + 1]string{
	"Custom settings: both sides simulate; packets carry inputs and the most important cube states.",
	"Both sides simulate; each packet: 32 inputs + 64 float updates by current priority. Grey cubes far down the list are never sent.",
	"Priority accumulator: priorities add up every tick, sent cubes reset to 0, so every cube gets its turn within the byte budget.",
	"Jitter buffer: packets wait a few frames and are applied in frame order, so corrections land evenly.",
	"The mistake, as a step: blend the simulation halfway toward each update instead of snapping; it extrapolates from states that never were. Step 5 snaps again.",
	"Compressed: bounded, quantized positions and velocities and smallest-three orientations: twice the updates per packet.",
	"Quantize both sides: both worlds snap to the wire's precision before each step, so they extrapolate alike.",
	"Adaptive smoothing: offsets fade gently when small, fast when large; rotations by 1 − |w| from 0.1 to 0.5 (the original's code used |w| 0.2-0.5: near 1 when small, so every rotation faded fast).",
	"Beyond: deltas against acked states, positions relative to the player, and resting cubes resent until acked.",
}

// StepName names build-up step n (0: custom).
func StepName(n int) string {
	if n < 0 || n > Steps {
		n = 0
	}
	return stateSyncStepNames[n]
}

// Config holds the fixed tunables of state synchronization.
type Config struct {
	// Priorities added to a cube's accumulator each tick (the article's):
	// the player 1,000,000 (always first), interacting (red) cubes 100,
	// other cubes 1. RestCommitPriority is what a cube that just came to
	// rest keeps until its resting state is acked (RestCommit): high enough
	// to be resent within a few packets, here the red cubes' priority.
	PlayerPriority, InteractingPriority, RestingPriority, RestCommitPriority float64
	// StarvationTicks guards the accumulator's worst case (beyond the
	// article): a cube not sent for this many ticks is added the red cubes'
	// priority until it is sent. With the article's priorities a grey cube
	// waits about (100 × red cubes + grey cubes) / updates per packet ticks:
	// with a 150-cube ball at 256 kbit/s that is 10 s, long enough for a
	// cube knocked aside to sit visibly wrong. 300 (5 s) caps the wait
	// near 5 s at the cost of a few red-cube updates; 0 turns it off. Only
	// with the accumulator on (the build-up's first step shows starvation
	// on purpose).
	StarvationTicks int
	// MaxUpdates caps the updates per packet (the article's 64, at most
	// replication.MaxUpdates).
	MaxUpdates int
	// BlendFactor is how far the (wrong) blend mode moves the simulation
	// toward an update, 0..1. 0.5: halfway, so a cube's state is a mix of
	// where it is and where it should be.
	BlendFactor float64
	// JitterWindowTicks is how long the jitter buffer remembers the
	// fastest packet (see PlayoutConfig).
	JitterWindowTicks int
	// Smoothing holds the visual smoothing factors.
	Smoothing replication.SmoothingConfig
	// Initial are the settings a new strategy starts with.
	Initial Settings
	// JoinFromInitial starts a right that joins mid-session from the
	// initial world, for the updates to catch up (what a right with no
	// means to learn the whole state must do), instead of from one block
	// of the left's world (join.go). The bench and the tests that measure
	// a right with something to correct set it.
	JoinFromInitial bool
	// Join cuts the block a joining right starts from into pieces and
	// resends them (join.go; package transfer). FragmentBytes: 900 fits
	// a piece and a full 256 kbit/s packet (505 bytes) in one 1,500-byte
	// IP packet; larger pieces join sooner and travel as IP fragments on a
	// link with an MTU. ResendAfterTicks: how long after the round trip a
	// piece not acked goes again.
	Join transfer.Config
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("statesync: invalid config")

// Validate reports the first setting out of its range, naming it, its
// value and the range (the error wraps ErrInvalidConfig). A Config is
// checked, never repaired (docs/design/config-validation.md): New panics on
// an invalid one, a programming error DefaultConfig's test rules out.
func (c Config) Validate() error {
	const most = valid.Finite
	err := valid.Check(ErrInvalidConfig,
		valid.Field{Name: "PlayerPriority", V: c.PlayerPriority, Hi: most},
		valid.Field{Name: "InteractingPriority", V: c.InteractingPriority, Hi: most},
		valid.Field{Name: "RestingPriority", V: c.RestingPriority, Hi: most},
		valid.Field{Name: "RestCommitPriority", V: c.RestCommitPriority, Hi: most},
		valid.Field{Name: "StarvationTicks", V: float64(c.StarvationTicks), Hi: most},
		valid.Field{Name: "MaxUpdates", V: float64(c.MaxUpdates), Lo: 1, Hi: replication.MaxUpdates},
		valid.Field{Name: "BlendFactor", V: c.BlendFactor, Hi: 1},
		valid.Field{Name: "JitterWindowTicks", V: float64(c.JitterWindowTicks), Lo: 1, Hi: most},
	)
	if err != nil {
		return err
	}
	if err := c.Smoothing.Validate(); err != nil {
		return err
	}
	if err := c.Join.Validate(); err != nil {
		return err
	}
	return c.Initial.Validate()
}

// DefaultConfig is the article's configuration, starting at step 8
// at 256 kbit/s with a 5-frame jitter buffer.
func DefaultConfig() Config {
	return Config{
		PlayerPriority:      1e6,
		InteractingPriority: 100,
		RestingPriority:     1,
		RestCommitPriority:  100,
		StarvationTicks:     5 * wire.TicksPerSecond,
		MaxUpdates:          replication.MaxUpdates,
		BlendFactor:         0.5,
		JitterWindowTicks:   2 * wire.TicksPerSecond,
		Smoothing:           replication.DefaultSmoothingConfig(),
		Initial:             StepSettings(Steps),
		Join:                transfer.Config{FragmentBytes: 900, ResendAfterTicks: 6},
	}
}

// Stats are the strategy's own figures for the HUD and the bench.
type Stats struct {
	// The last packet sent.
	LastUpdates    int // cube updates in it
	LastUpdateBits int // bits of those updates
	LastBits       int // payload bits, sequence included
	BudgetBits     int // the payload budget, bits (0 without a limit)

	// Averages over the packets of the last second.
	UpdatesPerPacket float64
	BitsPerUpdate    float64
	BudgetUsed       float64 // fraction of the budget used (0 without a limit)

	// Coverage, on the left: cubes not sent since the strategy started,
	// the longest any cube has waited for an update (ticks), and resting
	// cubes waiting for their at-rest commit.
	NeverSent          int
	OldestUnsentTicks  int
	PendingRestCommits int

	// The right.
	Started           bool // the right has started its clock (a packet arrived)
	ShownFrame        int  // the left frame the right's world is at
	PlayoutDelayTicks int  // how far behind the left it is
	Buffered          int  // packets waiting in the jitter buffer
	Packets           uint64
	LatePackets       uint64 // delivered after their frame: applied out of phase
	AppliedUpdates    uint64
	StaleUpdates      uint64 // skipped: a newer update of the cube was applied already
	IgnoredUpdates    uint64 // skipped because sync is off
	// replication.Inputs: steps taken with the input of that very frame, steps that had
	// to reuse the latest input known, and frames whose input arrived only
	// thanks to the redundant copies (its newest copy was lost or late).
	InputsExact, InputsGuessed, InputsRecovered uint64
	// Corrections: applied updates that moved a cube at all; Pops: those
	// that moved it more than PopMetres (diverge.go).
	Corrections, Pops uint64
}

// Strategy is the state synchronization strategy. Change its settings with
// SetSettings (or the helpers) between game.Session.Steps.
type Strategy struct {
	cfg     Config
	set     Settings
	mode    string // cached Mode()
	n       int
	snd     stateSyncSender
	rcv     stateSyncReceiver
	adapt   stateSyncAdapt
	stats   Stats
	prioMax float64 // accumulator maximum after the last send, for the view

	controls []strategy.Control

	// The original demo's modes (original.go): the mode shown (1-6, 0:
	// the build-up), the last one shown, and the settings to go back to.
	orig           strategy.ModeList
	beforeOriginal Settings

	// joined is how the right joined (join.go).
	joined joinState
	// leftContacts is the left world whose contacts the setting softened
	// (contacts.go), given back by Release.
	leftContacts softened
}

// New returns the strategy with cfg (the session calls Reset before
// using it).
func New(cfg Config) *Strategy {
	if err := cfg.Validate(); err != nil {
		panic(err) // a programming error: see Validate
	}
	st := &Strategy{cfg: cfg}
	st.snd.quant = &quantizer{}
	st.snd.inputs = &tickInputs{at: -1}
	st.rcv.smooth.SetConfig(cfg.Smoothing)
	st.SetSettings(cfg.Initial)
	st.orig.N = len(OriginalModes)
	st.controls = append(st.buildControls(), st.originalControl())
	return st
}

// ID implements strategy.Strategy.
func (st *Strategy) ID() string { return "statesync" }

// Name implements strategy.Strategy.
func (st *Strategy) Name() string { return "State synchronization" }

// Family implements strategy.Strategy.
func (st *Strategy) Family() string { return "State sync" }

// Mode implements strategy.Strategy: the settings in one line (with the
// budget and jitter buffer in use when they adapt).
func (st *Strategy) Mode() string {
	if st.orig.Shown > 0 {
		return st.originalMode() + " · " + st.adapt.mode(st)
	}
	return st.adapt.mode(st)
}

// Explain implements strategy.Strategy: what the current step shows.
func (st *Strategy) Explain() string {
	if st.set.SyncOff {
		return "Sync off: the right gets only inputs and runs on its own; watch it drift wherever it differed."
	}
	if e := st.adapt.explain(st); e != "" {
		return e
	}
	if st.orig.Shown == 5 && st.set == OriginalModes[4].Settings {
		return basicWhy
	}
	if st.set.Coarse && st.set.Quantize {
		return coarseWhy
	}
	return stateSyncExplains[st.set.Step()]
}

// Settings returns the current settings.
func (st *Strategy) Settings() Settings { return st.set }

// BudgetKbps is the bandwidth limit in kbit/s (headers included), the
// adapted one under congestion avoidance, and whether the sender keeps to
// it (off at step 1: the HUD then draws the
// limit as what the sender is ignoring).
func (st *Strategy) BudgetKbps() (float64, bool) {
	return float64(st.budgetKbps()), st.set.LimitBandwidth
}

// SetSettings changes the settings, or refuses settings out of range
// (Validate's error) and keeps the current ones. Every change takes effect
// from the next tick: packets describe their own format, so packets in
// flight stay readable.
func (st *Strategy) SetSettings(s Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	st.set = s
	st.mode = st.set.String()
	if st.rcv.clock != nil {
		st.rcv.clock.SetDelayFrames(st.set.JitterFrames)
	}
	return nil
}

// Step returns the build-up step of the current settings (0: custom).
func (st *Strategy) Step() int { return st.set.Step() }

// SetStep moves to build-up step n (1..8), keeping the bandwidth limit and
// the jitter buffer's depth.
func (st *Strategy) SetStep(n int) { st.SetSettings(st.set.WithStep(n)) }

// NextStep and PrevStep walk the build-up ("]" and "["). From custom
// settings they step from the nearest step (NearestStep): step 8 with sync
// turned off goes back to 7 with "[", not to 1.
func (st *Strategy) NextStep() {
	n := st.Step()
	if n == 0 {
		n = st.set.NearestStep()
	}
	st.SetStep(min(n+1, Steps))
}

// PrevStep goes back one build-up step.
func (st *Strategy) PrevStep() {
	n := st.Step()
	if n == 0 {
		n = st.set.NearestStep()
	}
	st.SetStep(max(n-1, 1))
}

// NearestStep is the build-up step whose settings differ from s in the
// fewest switches (the later step on a tie), for custom settings.
func (s Settings) NearestStep() int {
	best, bestD := Steps, 1<<30
	for n := Steps; n >= 1; n-- {
		t := StepSettings(n)
		d := 0
		for _, diff := range []bool{t.Accumulate != s.Accumulate, t.LimitBandwidth != s.LimitBandwidth,
			(t.JitterFrames > 0) != (s.JitterFrames > 0), t.Snap != s.Snap, t.Compressed != s.Compressed,
			t.Quantize != s.Quantize, t.Smoothing != s.Smoothing, t.RelativeToPlayer != s.RelativeToPlayer,
			t.DeltaEncoding != s.DeltaEncoding, t.RestCommit != s.RestCommit, t.SyncOff != s.SyncOff} {
			if diff {
				d++
			}
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// BandwidthUp and BandwidthDown move the limit to the next of
// BandwidthSteps (and turn the limit on).
func (st *Strategy) BandwidthUp() { st.stepBandwidth(+1) }

// BandwidthDown lowers the limit one step.
func (st *Strategy) BandwidthDown() { st.stepBandwidth(-1) }

func (st *Strategy) stepBandwidth(dir int) {
	s := st.set
	cur := s.BandwidthKbps
	next := cur
	if dir > 0 {
		for _, v := range BandwidthSteps {
			if v > cur {
				next = v
				break
			}
		}
	} else {
		for k := len(BandwidthSteps) - 1; k >= 0; k-- {
			if v := BandwidthSteps[k]; v < cur {
				next = v
				break
			}
		}
	}
	s.BandwidthKbps = next
	s.LimitBandwidth = true
	st.SetSettings(s)
}

// SetJitterFrames sets the jitter buffer (0..10 frames).
func (st *Strategy) SetJitterFrames(n int) {
	s := st.set
	s.JitterFrames = n
	st.SetSettings(s)
}

// SetSmoothing selects the visual smoothing.
func (st *Strategy) SetSmoothing(m replication.SmoothingMode) {
	s := st.set
	s.Smoothing = m
	st.SetSettings(s)
}

// cycleSmoothing goes none → basic → adaptive → none.
func (st *Strategy) cycleSmoothing() {
	st.SetSmoothing((st.set.Smoothing + 1) % replication.NumSmoothingModes)
}

// Stats returns the strategy's figures for this tick.
func (st *Strategy) Stats() Stats { return st.stats }

// Reset implements strategy.Strategy: both sides start over, the right
// from the initial world at frame 0, and past it from one block of the
// left's world (join.go; from the initial world with
// Config.JoinFromInitial).
func (st *Strategy) Reset(ctx strategy.Context) {
	st.n = ctx.Left().NumCubes()
	st.snd.reset(st, ctx)
	st.rcv.reset(st, ctx)
	st.adapt.reset(st)
	st.stats = Stats{}
	st.prioMax = 0
	st.join(ctx)
}

var _ strategy.Releaser = (*Strategy)(nil)

// Release implements strategy.Releaser: the right's world, both sides'
// histories and per-cube state go; Reset builds them again. The
// server's quantizer and inputs are shared with the clients' instances
// (Clone), which the switch drops: they are emptied in place, for the next
// clones.
func (st *Strategy) Release() {
	st.leftContacts.giveBack()
	st.joined = joinState{}
	st.joined.reset(0)
	rec := st.rcv.recordInputs
	q, in := st.snd.quant, st.snd.inputs
	*q, *in = quantizer{}, tickInputs{at: -1}
	st.snd = stateSyncSender{quant: q, inputs: in}
	st.rcv = stateSyncReceiver{recordInputs: rec}
	st.rcv.smooth.SetConfig(st.cfg.Smoothing)
}

// Send implements strategy.Strategy (the left: send.go; adapt.go measures
// the path around it).
func (st *Strategy) Send(ctx strategy.Context) { st.adapt.send(st, ctx) }

// Acked implements strategy.Strategy.
func (st *Strategy) Acked(ctx strategy.Context, seq uint16) {
	st.snd.acked(st, ctx, seq)
	st.adapt.acked(ctx, seq)
}

// Receive implements strategy.Strategy (the right: recv.go).
func (st *Strategy) Receive(ctx strategy.Context, seq uint16, s *wire.ReadStream) error {
	err := st.rcv.receive(st, ctx, seq, s)
	if err == nil {
		st.adapt.arrived(ctx, seq)
	}
	return err
}

// Update implements strategy.Strategy.
// A thin client (the scale bench's) only decodes and acks: it does not
// simulate a world of its own.
func (st *Strategy) Update(ctx strategy.Context) {
	if !ctx.Thin() {
		st.adapt.sizeJitterBuffer(st)
		st.rcv.update(st, ctx)
	}
}

// View implements strategy.Strategy: the right's world as drawn (simulation pose plus
// error offsets), which cubes were updated this tick, and each cube's
// priority accumulator scaled to 0..1. The shown frame is the left frame the
// right's simulation is at.
func (st *Strategy) View(v *viewmodel.View) (float64, bool) {
	r := &st.rcv
	w := r.world
	if st.joined.waiting() {
		return 0, false // nothing to show until the block of the world is in
	}
	v.Player = cubes.Player
	v.HasPriority = true
	v.HasErrorOffsets = true
	scale := 0.0
	if st.prioMax > 0 {
		scale = 1 / st.prioMax
	}
	for i := 0; i < w.NumCubes(); i++ {
		c := w.Cube(i)
		p, q := r.smooth.Rendered(i, c.Position, c.Orientation)
		v.Cubes = append(v.Cubes, viewmodel.CubeView{
			Position:    p,
			Orientation: q,
			HalfExtent:  w.HalfExtent(i),
			Player:      i == cubes.Player,
			Interacting: r.shownColour(st, i, c.Interacting),
			AtRest:      w.AtRest(i),
			Updated:     r.updated[i],
			Priority:    st.snd.prio.Value(i) * scale,
			ErrorOffset: r.smooth.Offset(i),
		})
	}
	if !r.clock.Started() {
		return 0, false
	}
	return float64(r.frame()), true
}

// errFrameOutOfRange rejects a packet whose sequence stands for no frame the
// left can have sent: after the right's frame, or before frame 0.
var errFrameOutOfRange = errors.New("statesync: packet sequence is not a frame the left has reached")

// stateFromQuantized builds a cube state from a quantized one.
func stateFromQuantized(q *replication.QuantizedCubeState, interacting bool) cubes.CubeState {
	p, r, l, a := q.Dequantize()
	return cubes.CubeState{Position: p, Orientation: r, LinearVelocity: l, AngularVelocity: a, Interacting: interacting}
}

// sameState reports whether two cube states have identical poses and
// velocities.
func sameState(a, b *cubes.CubeState) bool {
	return a.Position == b.Position && a.Orientation == b.Orientation &&
		a.LinearVelocity == b.LinearVelocity && a.AngularVelocity == b.AngularVelocity
}

// quantizer computes the quantized state of every cube of a world each tick
// and, for "quantize both sides", snaps the world to it. It remembers each
// cube's state after the last quantization: a cube still in exactly that state
// (every sleeping cube, and cubes a step did not move) keeps its quantized
// state without redoing the arithmetic, which makes a resting world nearly
// free. Quantizing a state already on the grid is then never repeated, so a
// cube's quantized state cannot flicker between two codes (see snapped).
type quantizer struct {
	// coarse is the precision the cached states were quantized at
	// (Settings.Coarse): a change of precision requantizes every cube.
	coarse bool
	q      []replication.QuantizedCubeState
	last   []cubes.CubeState // the cube's state when q was computed (after the snap, if any)
	valid  []bool
	// ranAt is the frame of the last runOnce (−1: none since the reset),
	// applied whether it snapped the world.
	ranAt   int
	applied bool
	// near marks the cubes within the player's box after runOnce: which
	// may be sent relative to the player (the senders' size classes).
	near []bool
}

// runOnce is run, once per frame, and marks the cubes near the player: the
// server's quantizer is shared by every client's instance (Clone), and the
// first to send each tick runs it for all.
func (z *quantizer) runOnce(w *cubes.World, apply, coarse bool) {
	if z.ranAt == w.Frame() && z.applied == apply && z.coarse == coarse {
		return
	}
	z.run(w, apply, coarse)
	z.ranAt, z.applied = w.Frame(), apply
	if len(z.q) == 0 {
		return
	}
	player := z.q[cubes.Player].Position
	for i := range z.near {
		z.near[i] = replication.NearPlayer(z.q[i].Position, player)
	}
}

func (z *quantizer) reset(n int) {
	z.ranAt = -1
	if len(z.q) != n {
		z.q = make([]replication.QuantizedCubeState, n)
		z.last = make([]cubes.CubeState, n)
		z.valid = make([]bool, n)
		z.near = make([]bool, n)
	}
	for i := range z.valid {
		z.valid[i] = false
	}
}

// snapped records that cube i of w was just set to the dequantized q (a
// compressed update applied on the right), so the next run keeps q instead
// of quantizing the dequantized state again. That matters: smallest three is
// not idempotent where two components tie for largest (quantizing the
// dequantized value can pick the other one), and the left, whose quantizer
// remembers q, never re-quantizes it either.
func (z *quantizer) snapped(w *cubes.World, i int, q *replication.QuantizedCubeState) {
	z.q[i] = *q
	z.last[i] = w.Cube(i)
	z.valid[i] = true
}

// run quantizes every cube of w into z.q at the precision coarse says, and
// snaps w to it when apply is set.
func (z *quantizer) run(w *cubes.World, apply, coarse bool) {
	if coarse != z.coarse {
		for i := range z.valid {
			z.valid[i] = false
		}
		z.coarse = coarse
	}
	for i := range z.q {
		c := w.Cube(i)
		if z.valid[i] && sameState(&c, &z.last[i]) {
			continue
		}
		z.q[i] = quantizeCube(&c, coarse)
		z.valid[i] = true
		z.last[i] = c
		if !apply {
			continue
		}
		ns := stateFromQuantized(&z.q[i], c.Interacting)
		if sameState(&ns, &c) {
			continue
		}
		// SetCube fails only for non-finite states, which quantization
		// cannot produce.
		if w.SetCube(i, ns) == nil {
			z.last[i] = w.Cube(i)
		}
	}
}

// Clone implements strategy.Strategy: an instance for one more client,
// with the same settings, sharing the server's quantized world and the
// inputs its packets repeat (read once a tick, whatever the number of
// clients).
func (st *Strategy) Clone() strategy.Strategy {
	c := New(st.cfg)
	c.SetSettings(st.set)
	c.orig, c.beforeOriginal = st.orig, st.beforeOriginal
	c.snd.quant, c.snd.inputs = st.snd.quant, st.snd.inputs
	return c
}

// PrepareSend implements strategy.Preparer: the server's world quantized
// (and, with "quantize both sides", snapped to the grid) and the inputs
// read, once for every client's instance, before any of them sends.
func (st *Strategy) PrepareSend(ctx strategy.Context) {
	st.leftContacts.follow(ctx.EditLeft().Physics(), st.set.SoftContacts)
	st.snd.quant.runOnce(ctx.EditLeft(), st.set.Quantize, st.set.Coarse)
	st.snd.inputs.read(ctx)
}

var _ strategy.IndependentRight = (*Strategy)(nil)

// IndependentRight implements strategy.IndependentRight: a client's right
// (Receive, Update, SendBack) applies updates to its own world, jitter
// buffer and figures. What its instance shares with the other clients'
// (Clone: the quantized world, the inputs read once a tick, the sub-mode
// list) is written in PrepareSend before the clients' turn, or between
// ticks, and the right reads none of it.
func (st *Strategy) IndependentRight() bool { return true }
