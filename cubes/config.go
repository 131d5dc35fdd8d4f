package cubes

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/internal/valid"
)

// Config holds every tunable of the cube world. The defaults reproduce the
// original demo (ODE, 60 Hz, gravity 20 m/s², μ ≈ 100, speed clamps of
// 32 m/s and 16 rad/s, the 901-cube katamari scene); forces are given as
// accelerations (N per kg) and multiplied by each body's mass, so they do not
// depend on the density the physics uses.
type Config struct {
	// Scene layout.
	PlayerSize  float64    // player cube edge, m (1.5 in the original)
	CubeSize    float64    // edge of the other cubes, m (0.4)
	GridSide    int        // cubes per side of the square grid (30 → 900 cubes)
	GridSpacing float64    // distance between neighbouring cube centres, m (1)
	PlayerStart mgl64.Vec3 // where player 1 is dropped from, m (above the grid centre)
	// Players is the number of player cubes, 1..MaxPlayers. Player 1 is
	// cube 0; players 2.. come after the grid and drop from around it
	// (PlayerStart). One player is the original demo.
	Players int

	// Player movement. While an arrow is held the player is pushed
	// horizontally; pushing against its current velocity doubles the force,
	// so it turns and stops quickly.
	//
	// A push at the centre of a cube of half width h tips it over its
	// leading edge when it exceeds g (the torques F·h and m·g·h balance)
	// and slides it when it exceeds μ·g; between the two it tumbles.
	MoveAccel float64 // horizontal force per kg of player, m/s²; higher is twitchier
	// TopSpeed fades the push out as the player's speed along it nears
	// this value, m/s, so a player hovering on a blow cannot accelerate
	// without bound. Higher lets it tear through the grid.
	TopSpeed float64
	// RollAccel is a torque per (kg·m) of player about the horizontal axis
	// at right angles to the push: it tips the cube over its leading edge so
	// it rolls and tumbles instead of sliding. Higher tumbles more wildly.
	RollAccel float64
	// WobbleAccel is a small sideways push (per kg) alternating every
	// WobblePeriod ticks, so the rolling looks alive rather than
	// mechanical. 0 disables it.
	WobbleAccel  float64
	WobblePeriod int // ticks per full wobble cycle
	// UprightAccel is a torque per (kg·m) turning the player's most upward
	// face toward +z while moving; it lets the player land on faces
	// rather than balance on edges. Too high and it cannot tumble at all.
	UprightAccel float64

	// Blow (Space): cubes within BlowRadius of a point on the ground under
	// the player (height BlowOriginZ) are pushed away with acceleration
	// min(BlowStrength/d², BlowCap). The player is pushed too, from a point
	// BlowLiftOffset lower relative to it, with a force (not an
	// acceleration: as in the original it is not scaled by mass) of
	// min(BlowStrength/d², BlowCap) newtons. That force falls off as the
	// player rises, so it hovers where the force equals its weight, about
	// 2.3 m up for the 3.4 kg player under 20 m/s².
	BlowRadius     float64 // m (2)
	BlowOriginZ    float64 // m (−0.1: just below the ground)
	BlowStrength   float64 // m³/s² for cubes, N·m² for the player (200)
	BlowCap        float64 // m/s² for cubes, N for the player (500)
	BlowLiftOffset float64 // m (0.7)
	// While blowing the hovering player bobs: a wobble force and torque
	// (triangle waves of the frame count, with periods of a few seconds),
	// a torque keeping it upright, and damping of its velocity per tick.
	BobForce, BobTorque float64 // N, N·m (2, 1.5)
	BobUpright          float64 // N·m per radian of tilt (100)
	BobDampLinear       float64 // horizontal velocity kept per tick (0.96)
	BobDampVertical     float64 // vertical velocity kept per tick: lower settles the hover sooner (0.95)
	BobDampAngular      float64 // angular velocity kept per tick (0.95)

	// Katamari (Z): cubes between PullMin and PullMax from the player
	// centre are pulled toward it with acceleration min(PullStrength/d²,
	// PullCap). They stay simulated bodies in the ball, not glued on.
	PullMin      float64 // m (0.2)
	PullMax      float64 // m (1.8)
	PullStrength float64 // m³/s² (200)
	PullCap      float64 // m/s² (2000)

	// Rest and interaction.
	RestSpeed       float64 // m/s; a cube slower than this, with no point spinning faster, is resting (0.25)
	RestFrames      int     // ticks below RestSpeed before a cube counts as at rest (6 = 0.1 s)
	InteractionHold int     // ticks at rest before an interacting cube turns grey again (100)
}

// DefaultConfig is the original demo's world.
func DefaultConfig() Config {
	return Config{
		PlayerSize:  1.5,
		CubeSize:    0.4,
		GridSide:    30,
		GridSpacing: 1,
		PlayerStart: mgl64.Vec3{0, 0, 10},
		Players:     1,

		MoveAccel:    26,
		TopSpeed:     4,
		RollAccel:    12,
		WobbleAccel:  6,
		WobblePeriod: 40,
		UprightAccel: 4,

		BlowRadius:      2,
		BlowOriginZ:     -0.1,
		BlowStrength:    200,
		BlowCap:         500,
		BlowLiftOffset:  0.7,
		BobForce:        2,
		BobTorque:       1.5,
		BobUpright:      100,
		BobDampLinear:   0.96,
		BobDampVertical: 0.95,
		BobDampAngular:  0.95,

		PullMin:      0.2,
		PullMax:      1.8,
		PullStrength: 200,
		PullCap:      2000,

		RestSpeed:       0.25,
		RestFrames:      6,
		InteractionHold: 100,
	}
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("cubes: invalid config")

// Validate reports the first field out of its range, naming it, its value
// and the range (the error wraps ErrInvalidConfig). NewWorld refuses an
// invalid Config. Players 0 means the original one-player demo.
func (c *Config) Validate() error {
	const most = valid.Finite
	num := func(name string, v float64) valid.Field { return valid.Field{Name: name, V: v, Lo: -most, Hi: most} }
	pos := func(name string, v float64) valid.Field { return valid.Field{Name: name, V: v, Hi: most} }
	frac := func(name string, v float64) valid.Field { return valid.Field{Name: name, V: v, Hi: 1} }
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "PlayerSize", V: c.PlayerSize, Hi: most, AboveLo: true},
		valid.Field{Name: "CubeSize", V: c.CubeSize, Hi: most, AboveLo: true},
		valid.Field{Name: "GridSide", V: float64(c.GridSide), Lo: 1, Hi: 100},
		valid.Field{Name: "GridSpacing", V: c.GridSpacing, Lo: c.CubeSize, Hi: most},
		num("PlayerStart.X", c.PlayerStart[0]), num("PlayerStart.Y", c.PlayerStart[1]), num("PlayerStart.Z", c.PlayerStart[2]),
		valid.Field{Name: "Players", V: float64(c.Players), Hi: MaxPlayers},
		num("MoveAccel", c.MoveAccel), pos("TopSpeed", c.TopSpeed), num("RollAccel", c.RollAccel),
		num("WobbleAccel", c.WobbleAccel), valid.Field{Name: "WobblePeriod", V: float64(c.WobblePeriod), Hi: math.MaxInt32},
		num("UprightAccel", c.UprightAccel),
		pos("BlowRadius", c.BlowRadius), num("BlowOriginZ", c.BlowOriginZ), num("BlowStrength", c.BlowStrength),
		pos("BlowCap", c.BlowCap), num("BlowLiftOffset", c.BlowLiftOffset),
		num("BobForce", c.BobForce), num("BobTorque", c.BobTorque), num("BobUpright", c.BobUpright),
		frac("BobDampLinear", c.BobDampLinear), frac("BobDampVertical", c.BobDampVertical), frac("BobDampAngular", c.BobDampAngular),
		pos("PullMin", c.PullMin), valid.Field{Name: "PullMax", V: c.PullMax, Lo: c.PullMin, Hi: most},
		num("PullStrength", c.PullStrength), pos("PullCap", c.PullCap),
		pos("RestSpeed", c.RestSpeed),
		valid.Field{Name: "RestFrames", V: float64(c.RestFrames), Hi: math.MaxInt32},
		valid.Field{Name: "InteractionHold", V: float64(c.InteractionHold), Hi: math.MaxInt32},
	)
}
