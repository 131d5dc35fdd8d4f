package authority

import (
	"errors"

	"netcubes/internal/valid"
	"netcubes/replication"
)

// Config holds the tunables of distributed authority. Each field says its
// unit and what moving it costs.
type Config struct {
	// BandwidthKbps is every machine's budget for the cube updates it
	// sends, per peer it sends to (state synchronization's default: 256
	// kbit/s). Each machine fills each packet by its priority accumulator
	// up to it: more sends more cubes per tick (less lag for the cubes
	// nobody owns on that machine), less leaves the far cubes staler.
	BandwidthKbps int
	// MaxUpdates caps the cube updates per packet (at most MaxUpdates).
	MaxUpdates int
	// PlayerPriority, OwnedPriority, InteractingPriority and
	// RestingPriority are the accumulator's increments per tick: a player
	// cube most, then a cube that changed hands or is moving under an
	// authority, then a red cube, then the rest (state synchronization's
	// scale: 1,000,000 / 100 / 1).
	PlayerPriority, OwnedPriority, InteractingPriority, RestingPriority float64
	// ReturnTicks is how long a cube must rest under a player's authority
	// before it returns to the default (step 5). 60 ticks (1 s): the
	// original used about 100; shorter hands a settled cube back before a
	// player walks on to the next one (so the lower id does not hold a
	// pile it left), longer keeps a cube that paused between two pushes
	// with its pusher. A cube counts as resting by the world's rule (0.1 s
	// below 0.25 m/s), so the whole wait is 66 ticks after it stops.
	ReturnTicks int
	// HostReturnMargin is how much longer the host waits than the owner
	// before it takes a resting cube back itself (the owner's release is
	// one packet, which may be lost): 30 ticks (0.5 s).
	HostReturnMargin int
	// FlashTicks is how long a cube that changed hands flashes on screen
	// (0.3 s); DisputeTicks how long a disputed cube stays outlined (1 s).
	FlashTicks, DisputeTicks int

	// The host's plausibility check on what a client says about its
	// cubes. A new claim must be within ReachMetres of the claimant's
	// player in the host's world (a chain of touching cubes reaches about
	// that far: a 1.5 m player, a katamari ball of radius 1.8 m, a few
	// 0.4 m cubes); farther is refused. A state is judged for what no
	// push can do: a speed over MaxSpeed (m/s; the solver clamps at 32),
	// an energy per kilogram over MaxEnergy (J/kg: g·height + v²/2; a cube
	// at the speed limit on a 6 m heap has 632), and a jump from the
	// host's own copy beyond MaxJumpMetres plus what both could have moved
	// at the speed limit since the host last heard of it. Chaos alone
	// cannot fail these (the katamari's pull may change a cube's velocity
	// by 30 m/s in a tick, so velocity changes are not judged). Each
	// excess (one per limit broken, and the jump's metres) accumulates per
	// player and decays by DivergenceDecay per tick (0.995: a half-life of
	// 2.3 s); past DivergenceLimit the host flags the player and takes its
	// cubes back for SuspendTicks. Tighter catches sooner and risks false
	// alarms; looser lets small lies through (a lie within physics is not
	// caught at all: the scheme's price).
	ReachMetres, MaxSpeed, MaxEnergy, MaxJumpMetres float64
	DivergenceDecay, DivergenceLimit                float64
	SuspendTicks                                    int
	// CheatEvery is how often the cheating bot lies about a cube it owns
	// (ticks): it lifts it CheatLift metres and flings it at CheatSpeed
	// m/s, beyond what physics allows, so the check can see it.
	CheatEvery            int
	CheatLift, CheatSpeed float64
}

// MaxUpdates is the most cube updates a packet carries.
const MaxUpdates = 64

// DefaultConfig returns the values above.
func DefaultConfig() Config {
	return Config{
		BandwidthKbps: 256, MaxUpdates: MaxUpdates,
		PlayerPriority: 1e6, OwnedPriority: 300, InteractingPriority: 100, RestingPriority: 1,
		ReturnTicks: 60, HostReturnMargin: 30, FlashTicks: 18, DisputeTicks: 60,
		ReachMetres: 8, MaxSpeed: 40, MaxEnergy: 700, MaxJumpMetres: 1.5,
		DivergenceDecay: 0.995, DivergenceLimit: 3, SuspendTicks: 180,
		CheatEvery: 45, CheatLift: 10, CheatSpeed: 50,
	}
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("authority: invalid config")

// Validate refuses a value out of its range, naming the field.
func (c *Config) Validate() error {
	const most = valid.Finite
	minKbps := float64((replication.MinUpdateBits(901)+8*8)*60/1000 + 1)
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "BandwidthKbps", V: float64(c.BandwidthKbps), Lo: minKbps, Hi: 100000},
		valid.Field{Name: "MaxUpdates", V: float64(c.MaxUpdates), Lo: 1, Hi: MaxUpdates},
		valid.Field{Name: "PlayerPriority", V: c.PlayerPriority, Hi: most},
		valid.Field{Name: "OwnedPriority", V: c.OwnedPriority, Hi: most},
		valid.Field{Name: "InteractingPriority", V: c.InteractingPriority, Hi: most},
		valid.Field{Name: "RestingPriority", V: c.RestingPriority, Hi: most},
		valid.Field{Name: "ReturnTicks", V: float64(c.ReturnTicks), Lo: 1, Hi: 3600},
		valid.Field{Name: "HostReturnMargin", V: float64(c.HostReturnMargin), Hi: 3600},
		valid.Field{Name: "FlashTicks", V: float64(c.FlashTicks), Hi: 600},
		valid.Field{Name: "DisputeTicks", V: float64(c.DisputeTicks), Hi: 600},
		valid.Field{Name: "ReachMetres", V: c.ReachMetres, Hi: most, AboveLo: true},
		valid.Field{Name: "MaxSpeed", V: c.MaxSpeed, Hi: most, AboveLo: true},
		valid.Field{Name: "MaxJumpMetres", V: c.MaxJumpMetres, Hi: most, AboveLo: true},
		valid.Field{Name: "MaxEnergy", V: c.MaxEnergy, Hi: most, AboveLo: true},
		valid.Field{Name: "DivergenceDecay", V: c.DivergenceDecay, Hi: 1},
		valid.Field{Name: "DivergenceLimit", V: c.DivergenceLimit, Hi: most, AboveLo: true},
		valid.Field{Name: "SuspendTicks", V: float64(c.SuspendTicks), Lo: 1, Hi: 36000},
		valid.Field{Name: "CheatEvery", V: float64(c.CheatEvery), Lo: 1, Hi: 36000},
		valid.Field{Name: "CheatLift", V: c.CheatLift, Hi: most},
		valid.Field{Name: "CheatSpeed", V: c.CheatSpeed, Hi: most},
	)
}
