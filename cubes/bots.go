package cubes

import (
	"fmt"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
)

// Design note: bots. With several players in one process, the presenter
// drives player 1 and code drives the others, so the lessons that need
// other people (other players drawn in the past, one slow link stalling
// everyone in lockstep, the server's cost per client) show without a
// second keyboard. A bot is a presenter made of code, like Spiral: it
// looks at where its player is (in the world the server runs) and holds
// the arrows that point where it wants to go, deciding again every few
// ticks as a person's reaction time would. Everything it decides follows
// from the world, the frame and its player's number, with integer hashing
// instead of a random source and no trigonometry, so runs repeat bit for
// bit on every platform.

// BotKind is what a bot does.
type BotKind uint8

// The bots.
const (
	// BotWander rolls from one waypoint to the next across the field.
	BotWander BotKind = iota
	// BotPush follows player 1 and pushes into it: the pushing-under-lag
	// lesson (another player drawn in the past is hard to push).
	BotPush
	// BotGather circles its start with katamari held, building a ball of
	// its own.
	BotGather
	// BotIdle holds nothing.
	BotIdle
	numBotKinds
)

var botNames = [numBotKinds]string{"wander", "push", "gather", "idle"}

// String is the bot's name on the command line and the HUD.
func (k BotKind) String() string {
	if k < numBotKinds {
		return botNames[k]
	}
	return fmt.Sprintf("bot%d", uint8(k))
}

// BotNames lists the bots' names.
func BotNames() []string { return botNames[:] }

// ParseBots reads a comma-separated list of bot names ("wander,push"); the
// players 2, 3, … take the kinds in turn, the list repeating.
func ParseBots(list string) ([]BotKind, error) {
	var out []BotKind
	for _, w := range strings.Split(list, ",") {
		w = strings.TrimSpace(w)
		found := false
		for k, n := range botNames {
			if w == n {
				out = append(out, BotKind(k))
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown bot %s (bots: %s)", quote(w), strings.Join(botNames[:], ", "))
		}
	}
	return out, nil
}

// DefaultBots are the bots players 2.. get when none are named: one of
// each kind that moves.
var DefaultBots = []BotKind{BotPush, BotGather, BotWander}

// Bot drives one player.
type Bot struct {
	Kind BotKind
	// Every is how many ticks a decision holds (a person's reaction time).
	Every int
	cur   Input
}

// NewBot returns a bot of kind k deciding every 8 ticks.
func NewBot(k BotKind) Bot { return Bot{Kind: k, Every: 8} }

// botField is how far from the grid's centre a bot lets its player go, m:
// inside the 30 m grid with a margin, so it stays on the field and in view.
const botField = 11.0

// Input returns the keys of player p (0-based) for the tick about to be
// stepped, given the world before that step. Ticks must be asked for in
// order (a decision holds Every ticks).
func (b *Bot) Input(w *World, p int) Input {
	f := w.Frame()
	every := max(b.Every, 1)
	if f%every != 0 {
		return b.cur
	}
	pos := w.Cube(w.PlayerCube(p)).Position
	var target mgl64.Vec3
	var in Input
	switch b.Kind {
	case BotWander:
		// A new waypoint every 3 s, anywhere on the field.
		h := mix(uint64(p)*0x9e3779b97f4a7c15 + uint64(f/180))
		target = mgl64.Vec3{float64(unitFloat(h)*2*botField) - botField, float64(unitFloat(h>>32)*2*botField) - botField, 0}
	case BotPush:
		// Aim 1.5 m beyond player 1, so the bot runs through it.
		other := w.Cube(w.PlayerCube(0)).Position
		d := flat(other.Sub(pos))
		if n := length(d); n > 1e-6 {
			target = other.Add(d.Mul(1.5 / n))
		} else {
			target = other
		}
	case BotGather:
		// Round a circle of 4 m about its start, one waypoint of sixteen
		// every second, katamari held.
		home := PlayerStart(w.Config(), p)
		c := circle16[(f/60+p*3)%16]
		target = mgl64.Vec3{home[0] + float64(4*c[0]), home[1] + float64(4*c[1]), 0}
		in.Katamari = true
	default:
		b.cur = Input{}
		return b.cur
	}
	target[0] = min(max(target[0], -botField), botField)
	target[1] = min(max(target[1], -botField), botField)
	steer(&in, flat(target.Sub(pos)))
	b.cur = in
	return in
}

// steer holds the arrows closest to direction d: one of eight, chosen by
// comparing the components (tan 22.5° ≈ 0.4142), or none when d is short.
func steer(in *Input, d mgl64.Vec3) {
	if length(d) < 0.3 {
		return
	}
	const tan22 = 0.41421356
	ax, ay := max(d[0], -d[0]), max(d[1], -d[1])
	if ax > tan22*ay {
		in.Right, in.Left = d[0] > 0, d[0] < 0
	}
	if ay > tan22*ax {
		in.Up, in.Down = d[1] > 0, d[1] < 0
	}
}

func flat(v mgl64.Vec3) mgl64.Vec3 { return mgl64.Vec3{v[0], v[1], 0} }

// circle16 are sixteen points on the unit circle (cos, sin of k·22.5°),
// written out so the bots need no trigonometry.
var circle16 = [16][2]float64{
	{1, 0}, {0.92388, 0.38268}, {0.70711, 0.70711}, {0.38268, 0.92388},
	{0, 1}, {-0.38268, 0.92388}, {-0.70711, 0.70711}, {-0.92388, 0.38268},
	{-1, 0}, {-0.92388, -0.38268}, {-0.70711, -0.70711}, {-0.38268, -0.92388},
	{0, -1}, {0.38268, -0.92388}, {0.70711, -0.70711}, {0.92388, -0.38268},
}

// mix is SplitMix64's finalizer: a well-spread hash of x.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// unitFloat maps the low 24 bits of h to [0, 1).
func unitFloat(h uint64) float64 { return float64(float64(h&0xFFFFFF) / (1 << 24)) }
