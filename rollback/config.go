package rollback

import (
	"errors"

	"netcubes/internal/valid"
	"netcubes/transfer"
	"netcubes/wire"
)

// Config holds rollback's tunables.
type Config struct {
	// InputDelay is how many frames a machine shows the world behind the
	// inputs as they are made (GGPO's frame delay), 0-MaxInputDelay: its
	// own player answers a key this much later, and the others' inputs
	// have this much longer to arrive before they must be predicted. More
	// delay, fewer and shorter rollbacks.
	InputDelay int
	// PredictionWindow is how many frames a machine may run ahead of the
	// newest frame whose inputs it holds from every player, predicting
	// the rest (GGPO's 8), 0-MaxPredictionWindow. Beyond it the machine
	// stalls, as lockstep does. 0 is lockstep: never predict, always wait.
	PredictionWindow int
	// MaxStepsPerTick is the most physics steps a machine takes in one
	// 60 Hz tick, resimulation and the step forward together (steps). A
	// rollback that needs more is finished in the next ticks and the
	// machine stalls meanwhile rather than dropping frames. The native
	// default resimulates a whole window and steps forward in one tick;
	// the browser build, about three times slower, takes fewer.
	MaxStepsPerTick int
	// SpectatorDelay is how many frames further behind a spectator shows
	// the world (frames): spectators simulate confirmed inputs only, never
	// predicting, and this much slack keeps them from waiting on every
	// late packet.
	SpectatorDelay int
	// SyncTestFrames is how far the sync test rolls back every frame
	// (frames, 1-MaxPredictionWindow): each frame is simulated again this
	// many times and its hash compared with the first run's.
	SyncTestFrames int
	// TimeSync lets a machine that runs ahead of the others (its frame
	// advantage) wait, skipping a tick now and then, as GGPO does: shorter
	// rollbacks on that machine, the world shown a little later.
	TimeSync bool
	// NudgeAfterFrames is when the nudge (the sync test's non-determinism)
	// moves the player, in frames after the strategy starts.
	NudgeAfterFrames int
	// Transfer is how the world goes to a machine that joins a running
	// session (fragment size, resend delay): see package transfer.
	Transfer transfer.Config
}

// Limits of the settings: the packets' and the saves ring's sizes depend on
// them.
const (
	MaxInputDelay       = 8
	MaxPredictionWindow = 15
	// saveRing holds the world's state at the start of each of the last
	// saveRing frames: a rollback never goes back further than the window.
	saveRing = MaxPredictionWindow + 1
)

// DefaultConfig is GGPO's: no input delay, an 8-frame prediction window,
// nine steps a tick (a window's resimulation and the step forward), and
// 100 ms more for spectators.
func DefaultConfig() Config {
	return Config{
		InputDelay:       0,
		PredictionWindow: 8,
		MaxStepsPerTick:  defaultMaxSteps,
		SpectatorDelay:   6,
		SyncTestFrames:   8,
		TimeSync:         true,
		NudgeAfterFrames: wire.TicksPerSecond,
		Transfer:         transfer.DefaultConfig(),
	}
}

// ErrInvalidConfig is what Validate's errors wrap.
var ErrInvalidConfig = errors.New("rollback: invalid config")

// Validate refuses values out of range, naming the field.
func (c Config) Validate() error {
	if err := c.Transfer.Validate(); err != nil {
		return err
	}
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "InputDelay", V: float64(c.InputDelay), Lo: 0, Hi: MaxInputDelay},
		valid.Field{Name: "PredictionWindow", V: float64(c.PredictionWindow), Lo: 0, Hi: MaxPredictionWindow},
		valid.Field{Name: "MaxStepsPerTick", V: float64(c.MaxStepsPerTick), Lo: 1, Hi: 64},
		valid.Field{Name: "SpectatorDelay", V: float64(c.SpectatorDelay), Lo: 0, Hi: 60},
		valid.Field{Name: "SyncTestFrames", V: float64(c.SyncTestFrames), Lo: 1, Hi: MaxPredictionWindow},
		valid.Field{Name: "NudgeAfterFrames", V: float64(c.NudgeAfterFrames), Lo: 0, Hi: 36000},
	)
}

// Step is one step of the build-up on `[` / `]`.
type Step struct {
	Name     string
	Delay    int  // input delay, frames (ignored when Tuned)
	Window   int  // prediction window, frames
	Tuned    bool // input delay from the measured round trip
	SyncTest bool // roll back SyncTestFrames every frame and compare hashes
}

// Steps are the build-up: lockstep for comparison (the same machine with
// no prediction window: it waits), rollback without delay, with 2 frames,
// with a delay tuned from the round trip, and the sync test.
var Steps = []Step{
	{Name: "lockstep (waits)", Delay: 0, Window: 0},
	{Name: "rollback", Delay: 0, Window: 8},
	{Name: "rollback + input delay", Delay: 2, Window: 8},
	{Name: "rollback + delay tuned from the RTT", Window: 8, Tuned: true},
	{Name: "sync test", Delay: 0, Window: 8, SyncTest: true},
}
