package predict

import (
	"fmt"

	"netcubes/internal/valid"
	"netcubes/playout"
)

// The settings and tunables of other players and tags (others.go, tag.go).

// OthersMode is how a client draws the other players (`I`).
type OthersMode int

// The drawing modes of other players.
const (
	// OthersArrived draws the newest state as it arrives.
	OthersArrived OthersMode = iota + 1
	// OthersInterpolate draws a fixed time in the past from a buffer.
	OthersInterpolate
	// OthersExtrapolate dead-reckons from the newest state, 0.25 s at most
	// past the last packet.
	OthersExtrapolate
	// OthersPredict steps them with their last known inputs inside the
	// rewind-and-replay.
	OthersPredict
	// Others2004 simulates them and pulls them toward the server's states
	// by the article's smoothing rule.
	Others2004
	// NumOthersModes counts the modes.
	NumOthersModes = int(Others2004)
)

var othersNames = [...]string{"", "as it arrives", "interpolated", "extrapolated", "predicted (last inputs)", "2004 smoothing"}

// othersFlagNames are the values of -predict-others.
var othersFlagNames = []string{"arrived", "interpolate", "extrapolate", "predict", "2004"}

// String names the mode on the HUD.
func (m OthersMode) String() string {
	if m < OthersArrived || int(m) > NumOthersModes {
		return fmt.Sprintf("others(%d)", int(m))
	}
	return othersNames[m]
}

// kinematic reports whether the other players are proxies set where they
// are drawn (1-3), not simulated.
func (m OthersMode) kinematic() bool { return m <= OthersExtrapolate }

// AutoTag says which clients tag on their own (the bench's and the bots').
type AutoTag int

// The auto-tag settings.
const (
	AutoTagOff  AutoTag = iota // only the tag key
	AutoTagBots                // the bots' clients (2..)
	AutoTagAll                 // every client, the presenter's too (the bench)
	numAutoTags
)

var autoTagNames = []string{"off", "bots", "all"}

// String names the setting.
func (a AutoTag) String() string {
	if a < 0 || a >= numAutoTags {
		return fmt.Sprintf("autotag(%d)", int(a))
	}
	return autoTagNames[a]
}

// OthersSettings are the presenter's live choices about other players.
type OthersSettings struct {
	Others OthersMode
	// DelayNudge is added to OthersConfig.InterpDelayTicks (D / Shift+D),
	// ticks, within ±MaxDelayNudge.
	DelayNudge int
	// Compensate: the server's verdict on a tag that counts (and marks
	// disputes) is the lag-compensated one. Both are always computed.
	Compensate bool
	AutoTag    AutoTag
}

// MaxDelayNudge bounds OthersSettings.DelayNudge, ticks (±1 s).
const MaxDelayNudge = 60

// DefaultOthersSettings: interpolation (the article's advice: "interpolate
// their motion and accept that it is behind"), lag compensation on, the
// bots tag.
func DefaultOthersSettings() OthersSettings {
	return OthersSettings{Others: OthersInterpolate, Compensate: true, AutoTag: AutoTagBots}
}

// normalize puts every field in range.
func (o *OthersSettings) normalize() {
	if o.Others < OthersArrived || int(o.Others) > NumOthersModes {
		o.Others = OthersInterpolate
	}
	o.DelayNudge = min(max(o.DelayNudge, -MaxDelayNudge), MaxDelayNudge)
	if o.AutoTag < 0 || o.AutoTag >= numAutoTags {
		o.AutoTag = AutoTagOff
	}
}

// OthersConfig holds the tunables of other players and tags.
type OthersConfig struct {
	// InterpDelayTicks is how far behind the newest state the clock plays
	// the other players, ticks: three packet intervals plus a jitter
	// margin of two, snapshot interpolation's value at 60 packets a second
	// (snapshot.DefaultDelayTicks: 5 ticks, 83 ms), so two lost packets in
	// a row still leave a state to move toward. Less shows them fresher
	// and starves more.
	InterpDelayTicks int
	// ExtrapolateLimitTicks is how long after the last packet the
	// extrapolation runs on, ticks: 15, the article's 0.25 s. Longer runs a
	// player who stopped (or timed out) on into walls; shorter freezes it
	// at every burst of loss.
	ExtrapolateLimitTicks int
	// Clock is the playout clock's tuning (snapshot interpolation's).
	Clock playout.ClockConfig

	// TagReach is how close (m, centre to centre) another player must be
	// for a tag to hit: 3 m, a player's own edge (1.5 m) beyond touching,
	// so a tag needs no contact and a player moving 5 m/s crosses the
	// edge of the reach in a fraction of a round trip.
	TagReach float64
	// AutoTagRange is how close the nearest other player must be drawn for
	// an automatic tag, m: 1.5 × the reach, so the automatic tags fall
	// around its edge (hits and misses), where the verdicts can disagree.
	AutoTagRange float64
	// TagCooldownTicks is the least time between two tags of one client,
	// ticks (a quarter second). The server enforces it, which bounds the
	// tags a packet may carry (MaxTags) and the verdicts it sends back.
	TagCooldownTicks int
	// MaxRewindTicks is the furthest back the server rewinds for a tag,
	// ticks (1.5 s): the client's lead, its latency and its interpolation
	// delay on the terrible preset (about 50 ticks) with room to spare.
	// Counter-Strike's sv_maxunlag is 1 s; a claim beyond this is clamped
	// (a cheater cannot reach further into the past).
	MaxRewindTicks int
	// DisputeTicks is how long a disputed tag stays marked, ticks.
	DisputeTicks int
}

// DefaultOthersConfig returns the values above.
func DefaultOthersConfig() OthersConfig {
	return OthersConfig{
		InterpDelayTicks:      5,
		ExtrapolateLimitTicks: 15,
		Clock:                 playout.DefaultClockConfig(),
		TagReach:              3,
		AutoTagRange:          4.5,
		TagCooldownTicks:      15,
		MaxRewindTicks:        90,
		DisputeTicks:          90,
	}
}

// Validate reports the first setting out of its range, naming it (the
// error wraps ErrInvalidConfig).
func (c *OthersConfig) Validate() error {
	const most = valid.Finite
	err := valid.Check(ErrInvalidConfig,
		valid.Field{Name: "Others.InterpDelayTicks", V: float64(c.InterpDelayTicks), Hi: stateRingSize / 2},
		valid.Field{Name: "Others.ExtrapolateLimitTicks", V: float64(c.ExtrapolateLimitTicks), Hi: most},
		valid.Field{Name: "Others.TagReach", V: c.TagReach, Hi: most, AboveLo: true},
		valid.Field{Name: "Others.AutoTagRange", V: c.AutoTagRange, Hi: most},
		valid.Field{Name: "Others.TagCooldownTicks", V: float64(c.TagCooldownTicks), Lo: 1, Hi: most},
		valid.Field{Name: "Others.MaxRewindTicks", V: float64(c.MaxRewindTicks), Lo: 1, Hi: maxViewBack},
		valid.Field{Name: "Others.DisputeTicks", V: float64(c.DisputeTicks), Hi: most},
	)
	if err != nil {
		return err
	}
	return c.Clock.Validate()
}
