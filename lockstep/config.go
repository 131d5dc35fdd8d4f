package lockstep

import (
	"errors"

	"netcubes/internal/valid"
	"netcubes/link"
	"netcubes/transfer"
	"netcubes/wire"
)

// Config holds lockstep's tunables.
type Config struct {
	// WindowFrames is the most inputs one packet carries: every input the
	// right has not acked, up to this many (frames). Larger rides out
	// longer runs of loss; each input costs 1-7 bits.
	WindowFrames int
	// MaxCatchUp is the most frames the right simulates in one tick after
	// a stall (frames per tick). Larger catches up sooner but costs that
	// many physics steps in one tick.
	MaxCatchUp int
	// PerturbAfterFrames is when the non-deterministic mode perturbs the
	// right's world, in frames after the strategy starts: late enough for
	// the audience to see the two sides in sync first.
	PerturbAfterFrames int
	// Transfer is how the world goes to a right that joins a running
	// session (fragment size, resend delay): see package transfer.
	Transfer transfer.Config
}

// DefaultConfig is the demo's lockstep: a 256-frame window (4.3 s), 4
// frames per tick to catch up, the perturbation 1 s in.
func DefaultConfig() Config {
	return Config{WindowFrames: MaxWindow, MaxCatchUp: 4, PerturbAfterFrames: wire.TicksPerSecond, Transfer: transfer.DefaultConfig()}
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("lockstep: invalid config")

// Validate reports the first field out of its range, naming it, its value
// and the range (the error wraps ErrInvalidConfig).
func (c Config) Validate() error {
	if err := c.Transfer.Validate(); err != nil {
		return err
	}
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "WindowFrames", V: float64(c.WindowFrames), Lo: 1, Hi: MaxWindow},
		valid.Field{Name: "MaxCatchUp", V: float64(c.MaxCatchUp), Lo: 1, Hi: valid.Finite},
		valid.Field{Name: "PerturbAfterFrames", V: float64(c.PerturbAfterFrames), Hi: valid.Finite},
	)
}

// MaxWindow is the largest window a packet can carry (its count field).
const MaxWindow = 256

// Mode is one of the original demo's network modes for deterministic
// lockstep: the link conditions, the playout delay, and whether the
// right's simulation is perturbed.
type Mode struct {
	Name             string
	Link             link.Config
	DelayMs          float64 // playout delay: the right runs this far behind the left
	NonDeterministic bool
}

// jitterTick is ±1 tick of jitter, in ms.
const jitterTick = 1000.0 / wire.TicksPerSecond

// Modes are the original demo's seven modes, in `]` order, with the
// original's ±1/60 s of jitter on every lossy link (modes 3-8), and an
// eighth: UDP as the article's video shows it, 2 s of latency and 25 %
// loss (the right plays two seconds behind, and still never waits). TCP-like links deliver every
// packet in order, late (a loss holds back everything behind it until the
// retransmission); UDP links lose packets, and the inputs every packet
// repeats keep the right going.
var Modes = []Mode{
	{Name: "deterministic", Link: link.Config{TCPLike: true}, DelayMs: 100},
	{Name: "non-deterministic", Link: link.Config{TCPLike: true}, DelayMs: 100, NonDeterministic: true},
	{Name: "TCP-like 50 ms, 1 % loss", Link: link.Config{LatencyMs: 50, LossPercent: 1, JitterMs: jitterTick, TCPLike: true}, DelayMs: 100},
	{Name: "TCP-like 100 ms, 2 % loss", Link: link.Config{LatencyMs: 100, LossPercent: 2, JitterMs: jitterTick, TCPLike: true}, DelayMs: 100},
	{Name: "TCP-like 125 ms, 5 % loss", Link: link.Config{LatencyMs: 125, LossPercent: 5, JitterMs: jitterTick, TCPLike: true}, DelayMs: 100},
	{Name: "UDP 125 ms, 25 % loss", Link: link.Config{LatencyMs: 125, LossPercent: 25, JitterMs: jitterTick}, DelayMs: 100},
	{Name: "UDP 125 ms, 50 % loss", Link: link.Config{LatencyMs: 125, LossPercent: 50, JitterMs: jitterTick}, DelayMs: 250},
	{Name: "UDP 2 s, 25 % loss (the article's video)", Link: link.Config{LatencyMs: 2000, LossPercent: 25, JitterMs: jitterTick}, DelayMs: 100},
}
