package predict

import (
	"errors"
	"fmt"
	"math"

	"netcubes/diverge"
	"netcubes/internal/valid"
	"netcubes/transfer"
)

// Design note: every number the client and the server use to decide
// something is here, with its unit and what moving it costs. The article
// gives only the smoothing rule's numbers (2 m, 10 cm, 10 %); the rest are
// ours, and each field says why it has its value.

// Config holds the tunables of the 2004 strategy.
type Config struct {
	// MoveRing is how many frames of moves {frame, input, player state}
	// the client keeps, in ticks, and the most frames of saved worlds. A
	// correction older than the saves cannot be replayed (it is applied
	// at the present instead and counted). 128 ticks (2.1 s) covers the
	// terrible preset's 500 ms round trip with 100 ms of jitter twice
	// over. A move is 120 bytes; the saves are what cost (see MinSaves).
	MoveRing int
	// MinSaves and SaveMargin size the saved worlds the client keeps (a
	// whole-world save is about 0.3-0.7 MB for 901 cubes): the frames a
	// correction can rewind to, measured as the largest lag of the
	// server's states as they arrive (the client's frame minus the
	// state's) over the last three to four seconds, plus a quarter, plus
	// SaveMargin ticks for the jitter to come; at least MinSaves, at most
	// MoveRing. 4 ticks and 8 saves keep every correction of the presets
	// replayable (TestSavesFollowTheRoundTrip); less margin risks
	// corrections snapped at the present when the lag jumps, more holds
	// memory nobody rewinds to.
	MinSaves, SaveMargin int
	// MaxInputs is the most inputs one client packet repeats: every input
	// the server has not acknowledged, up to one second (60). More costs
	// 6 bits each; fewer means a loss burst longer than that loses input.
	MaxInputs int

	// CorrectPosition (metres) and CorrectAngle (radians) are the
	// correction threshold: the client rewinds and replays only when the
	// server's state for frame f differs from the state it predicted for f
	// by more than this. The article gives no figure. Ours is what the
	// screen can show: the app's ghost outline appears at 2 cm or 3° (a
	// 1.5 m cube moved 2 cm is under a pixel at stage distance), and the
	// wire's own precision is 0.25 mm, far below. Lower replays more often
	// for differences nobody sees; higher lets a visible drift stand.
	CorrectPosition, CorrectAngle float64

	// The 2004 smoothing rule on the drawn pose (article): an error larger
	// than SnapDistance (m) snaps, one larger than SmoothDistance (m) moves
	// SmoothFraction of the way each tick, a smaller one stays. Velocities
	// always snap (they are part of the simulated state, not of the drawn
	// pose).
	SnapDistance, SmoothDistance, SmoothFraction float64

	// TargetEarly is how many ticks before the server needs it an input
	// should arrive, at the least, over the server's report window: the
	// client's jitter margin. 2 ticks (33 ms) absorbs the link's jitter
	// around the report's minimum; more adds latency to every correction,
	// less lets jitter make inputs late.
	TargetEarly int
	// EarlyBand is the dead band above TargetEarly, in ticks: the client
	// slows down only when inputs arrive more than TargetEarly + EarlyBand
	// ticks early, so the clock does not hunt.
	EarlyBand int
	// AdjustEvery is the ticks between two tick-rate adjustments: the
	// client takes 2 steps (or 0) in one tick out of AdjustEvery, so 4
	// bounds the change of rate to ±25 %. Faster converges sooner but the
	// player visibly speeds up or stalls.
	AdjustEvery int
	// EarlyWindow is the server's report window, in ticks: it reports the
	// smallest earliness (newest input's frame − the frame it is about to
	// simulate) among the packets that reached it in the last EarlyWindow
	// ticks. A second (60) sees a full cycle of jitter.
	EarlyWindow int

	// BandwidthKbps is the budget of the server's packets (state
	// synchronization's default): the priority accumulator fills each
	// packet up to it, the player first.
	BandwidthKbps int
	// MaxUpdates bounds the cube updates per packet (replication.MaxUpdates).
	MaxUpdates int
	// PlayerPriority, InteractingPriority and RestingPriority are the
	// accumulator's increments per tick (state synchronization's values).
	PlayerPriority, InteractingPriority, RestingPriority float64

	// MarkTicks is how long the marker of a replay's jump stays on screen,
	// in ticks (half a second: long enough to see, short enough not to
	// pile up when corrections come every tick).
	MarkTicks int

	// ClampBurstTicks is the slack of the article's server's clamp against
	// speed hacks (step 6), ticks: a player's time may run ahead of the
	// server's by this much before the server stops advancing it (the
	// allowance grows by one frame a tick, real time, up to this). 6 ticks
	// (100 ms) pass an honest client's jitter on the presets up to
	// Wi-Fi's; less clamps honest players (the comments: "the difficult
	// thing is detecting the difference between cheating and bad network
	// conditions"), more lets a cheat bank a burst.
	ClampBurstTicks int
	// SpeedHackEvery is how often the speed hack takes an extra step: one
	// tick in SpeedHackEvery the cheating client stamps two inputs, so its
	// clock runs 1 + 1/SpeedHackEvery as fast (4: +25 %).
	SpeedHackEvery int

	// RadiusM is the radius scope's reach, m: the client predicts the
	// cubes within it of its player (radius.go). 4 m holds a katamari ball
	// (its cubes are pulled from 1.8 m) and the cubes it is about to hit at
	// a run; larger costs more per replayed frame, smaller lets the cubes
	// the player pushes come from the server's past.
	RadiusM float64

	// Others tunes how other players are drawn and tagged (others.go).
	Others OthersConfig

	// Join cuts the server's world a client joins from into pieces
	// (join.go): its fragment size and resend delay.
	Join transfer.Config
}

// DefaultConfig returns the values above.
func DefaultConfig() Config {
	return Config{
		MoveRing:            128,
		MinSaves:            8,
		SaveMargin:          4,
		MaxInputs:           60,
		CorrectPosition:     0.02,
		CorrectAngle:        3 * math.Pi / 180,
		SnapDistance:        2,
		SmoothDistance:      0.1,
		SmoothFraction:      0.1,
		TargetEarly:         2,
		EarlyBand:           2,
		AdjustEvery:         4,
		EarlyWindow:         60,
		BandwidthKbps:       256,
		MaxUpdates:          64,
		PlayerPriority:      1e6,
		InteractingPriority: 100,
		RestingPriority:     1,
		MarkTicks:           30,
		ClampBurstTicks:     6,
		SpeedHackEvery:      4,
		RadiusM:             4,
		Others:              DefaultOthersConfig(),
		Join:                transfer.DefaultConfig(),
	}
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("predict: invalid config")

// Validate reports the first setting out of its range, naming it, its
// value and the range (the error wraps ErrInvalidConfig). A Config is
// checked, never repaired (docs/design/config-validation.md): New panics
// on an invalid one.
func (c *Config) Validate() error {
	const most = valid.Finite
	ring := float64(c.MoveRing)
	err := valid.Check(ErrInvalidConfig,
		valid.Field{Name: "MoveRing", V: ring, Lo: 8, Hi: 1024},
		valid.Field{Name: "MinSaves", V: float64(c.MinSaves), Lo: 1, Hi: ring},
		valid.Field{Name: "SaveMargin", V: float64(c.SaveMargin), Hi: ring},
		valid.Field{Name: "MaxInputs", V: float64(c.MaxInputs), Lo: 1, Hi: MaxInputs},
		valid.Field{Name: "CorrectPosition", V: c.CorrectPosition, Hi: most},
		valid.Field{Name: "CorrectAngle", V: c.CorrectAngle, Hi: most},
		valid.Field{Name: "SnapDistance", V: c.SnapDistance, Hi: most},
		valid.Field{Name: "SmoothDistance", V: c.SmoothDistance, Hi: most},
		valid.Field{Name: "SmoothFraction", V: c.SmoothFraction, Hi: 1},
		valid.Field{Name: "TargetEarly", V: float64(c.TargetEarly), Hi: most},
		valid.Field{Name: "EarlyBand", V: float64(c.EarlyBand), Hi: most},
		valid.Field{Name: "AdjustEvery", V: float64(c.AdjustEvery), Lo: 1, Hi: most},
		valid.Field{Name: "EarlyWindow", V: float64(c.EarlyWindow), Lo: 1, Hi: most},
		valid.Field{Name: "BandwidthKbps", V: float64(c.BandwidthKbps), Lo: 8, Hi: most},
		valid.Field{Name: "MaxUpdates", V: float64(c.MaxUpdates), Lo: 1, Hi: 64},
		valid.Field{Name: "PlayerPriority", V: c.PlayerPriority, Hi: most},
		valid.Field{Name: "InteractingPriority", V: c.InteractingPriority, Hi: most},
		valid.Field{Name: "RestingPriority", V: c.RestingPriority, Hi: most},
		valid.Field{Name: "MarkTicks", V: float64(c.MarkTicks), Hi: most},
		valid.Field{Name: "ClampBurstTicks", V: float64(c.ClampBurstTicks), Lo: 1, Hi: serverInputRing / 4},
		valid.Field{Name: "SpeedHackEvery", V: float64(c.SpeedHackEvery), Lo: 1, Hi: most},
		valid.Field{Name: "RadiusM", V: c.RadiusM, Hi: 100, AboveLo: true},
	)
	if err != nil {
		return err
	}
	if err := c.Others.Validate(); err != nil {
		return err
	}
	return c.Join.Validate()
}

// Mode is a step of the article's build-up (the `[`/`]` sub-modes).
type Mode int

const (
	// NoPrediction: the client draws the server's state as it arrives;
	// its own input shows one round trip later.
	NoPrediction Mode = iota + 1
	// PredictOnly: the client applies its input at once and ignores the
	// server's corrections of its player: no lag, and drift.
	PredictOnly
	// Replay: corrections beyond the threshold rewind and replay.
	Replay
	// ReplaySmooth: the same, with the drawn pose smoothed.
	ReplaySmooth
	// Katamari: the limit the article ends on, and the two ways out.
	Katamari
	// ArticleServer: the article's own server, which advances each
	// player's physics as that player's inputs arrive (a time stream per
	// client, stream.go), with the client of step 4 predicting its player
	// alone; the fixed tick of steps 1-5 is what replaced it.
	ArticleServer
	// NumModes is the number of sub-modes.
	NumModes = int(ArticleServer)
)

// modeNames are the HUD's names of the sub-modes.
var modeNames = [...]string{"", "no prediction", "prediction, no correction", "rewind and replay",
	"replay + smoothing", "katamari: the limit", "the article's server: a time stream per player"}

// String names the mode.
func (m Mode) String() string {
	if m < NoPrediction || int(m) > NumModes {
		return fmt.Sprintf("mode(%d)", int(m))
	}
	return modeNames[m]
}

// predicts reports whether the client predicts its player in this mode.
func (m Mode) predicts() bool { return m >= PredictOnly }

// corrects reports whether the client rewinds and replays on corrections.
func (m Mode) corrects() bool { return m >= Replay }

// streams reports whether the server advances each player as its inputs
// arrive (the article's server) rather than on its fixed tick.
func (m Mode) streams() bool { return m == ArticleServer }

// Scope is what a replay re-simulates.
type Scope int

const (
	// ScopeWorld restores the saved local world and replays every cube:
	// cubes the player pushes are re-predicted too, at the cost of a
	// whole-world step per replayed frame.
	ScopeWorld Scope = iota
	// ScopePlayer predicts and replays the player alone (in a world of
	// its own, on the ground plane) and draws the other cubes as the
	// server last said: cheap, and wrong wherever the player pushes cubes.
	ScopePlayer
	// ScopeRadius predicts and replays the player and the cubes within
	// Config.RadiusM of it (radius.go), the others as the server last said:
	// the middle the article's comments propose.
	ScopeRadius
	numScopes
)

// scopeOrder is W's cycle: from the whole world through the radius to the
// player alone.
var scopeOrder = [numScopes]Scope{ScopeWorld, ScopeRadius, ScopePlayer}

// next is the scope after s in W's cycle (dir +1) or before it (−1).
func (s Scope) next(dir int) Scope {
	for k, o := range scopeOrder {
		if o == s {
			n := len(scopeOrder)
			return scopeOrder[((k+dir)%n+n)%n]
		}
	}
	return ScopeWorld
}

// String names the scope.
func (s Scope) String() string {
	switch s {
	case ScopePlayer:
		return "player only"
	case ScopeRadius:
		return "within the radius"
	}
	return "whole world"
}

// Smoothing is how the client draws a correction.
type Smoothing int

const (
	// SmoothNone draws the corrected state at once: a visible pop.
	SmoothNone Smoothing = iota
	// Smooth2004 is the article's rule: snap beyond 2 m, move 10 % of the
	// way beyond 10 cm, else leave it.
	Smooth2004
	// SmoothAdaptive is state synchronization's adaptive smoothing (0.95
	// per tick for small errors, 0.85 for large).
	SmoothAdaptive
	numSmoothings
)

// smoothingNames are the values of S and -predict-smoothing.
var smoothingNames = []string{"none", "2004", "adaptive"}

// String names the smoothing.
func (s Smoothing) String() string {
	if s < 0 || s >= numSmoothings {
		return fmt.Sprintf("smoothing(%d)", int(s))
	}
	return smoothingNames[s]
}

// Settings are the presenter's live choices.
type Settings struct {
	Mode      Mode
	Smoothing Smoothing
	Scope     Scope
	// How other players are drawn and tags judged (others.go): not part
	// of the article's steps, so a change of step keeps them.
	OthersSettings
	// Divergence makes the client's machine differ from the server's
	// (diverge.go); a change of step keeps it.
	Divergence diverge.Mode
	// Speed is the speed hack and the server's clamp against it (step 6,
	// stream.go); a change of step keeps it.
	Speed Speed
}

// ModeSettings returns the settings sub-mode m starts with: smoothing from
// step 4 on, the player-only scope in step 5 (the article's own model, whose
// limit step 5 shows; W switches to the whole world).
func ModeSettings(m Mode) Settings {
	s := Settings{Mode: m, OthersSettings: DefaultOthersSettings()}
	if m >= ReplaySmooth {
		s.Smoothing = Smooth2004
	}
	if m == Katamari || m == ArticleServer {
		s.Scope = ScopePlayer
	}
	return s
}
