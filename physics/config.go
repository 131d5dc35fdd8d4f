package physics

// Design note: every tunable of the simulation lives here, in the style of
// Box2D's b2WorldDef: one struct, one DefaultConfig, and on every field a
// comment that gives the unit and what you trade when you turn the knob. A
// World copies its Config when it is created; change it by building a new
// World.

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/internal/valid"
)

// DefaultDensity is the density, in kg/m³, that the netcubes world uses for
// every box. It is 1 as in the original ODE demo, which makes a 0.4 m cube
// weigh 0.064 kg and the 1.5 m player 3.375 kg (a mass ratio of about 53).
// The game scales every force by the body's mass, so the absolute scale
// does not change any motion; it only sets the units of impulses (N·s) that
// the contact queries report. The solver's soft contacts are specified as
// frequencies, which makes their behaviour independent of mass scale too.
const DefaultDensity = 1.0

// MaxCoordinate bounds, in metres, every position a caller may set. Larger
// positions are rejected by SetState and AddBox. The bound keeps the
// broadphase grid's cell coordinates inside int32 and far from the range
// where float64 loses millimetre precision (2^53 mm ≈ 9·10^12 m is far away,
// so the real reason is the grid).
const MaxCoordinate = 1e6

// Config holds the world's tunables. Start from DefaultConfig and change
// fields; NewWorld validates it.
type Config struct {
	// TimeStep is the duration of one Step in seconds. netcubes steps at a
	// fixed 1/60 s. Smaller steps are more accurate and cost proportionally
	// more; the step must be fixed for the simulation to be reproducible.
	TimeStep float64

	// Substeps is how many solver substeps each Step runs (Box2D v3's "soft
	// step"). Each substep integrates velocities, solves contacts, moves
	// bodies and relaxes. More substeps allow stiffer contacts (see
	// ContactHertz), better mass ratios and less penetration; the solver's
	// cost grows linearly with them. Box2D uses 4 for 1 m boxes under
	// 10 m/s² gravity; 0.4 m cubes under 20 m/s² need contacts about
	// (20/0.4)/(10/1) = 5 times stiffer: 90 Hz, which takes 8 substeps
	// (see ContactHertz). 12 substeps stood a ten-cube tower and a
	// pyramid the same (8.4 against 8.0 mm, 1.7 against 2.5 mm in 10 s)
	// at one and a half times the cost; at 6 the tower drifts 2 cm and
	// the pyramid does not sleep.
	Substeps int

	// Gravity is the gravitational acceleration in m/s², z up. The original
	// demo used 20 m/s² (about twice Earth's) so that cubes look snappy at
	// the demo's scale.
	Gravity mgl64.Vec3

	// Friction is the Coulomb friction coefficient μ for every contact:
	// a contact's friction impulse is at most μ times its normal impulse.
	// The original ODE demo used μ≈100, which ODE turns into "never
	// slides". In an impulse solver a huge μ lets friction impulses grow
	// without bound from small normal errors, which makes piles lock up
	// and jitter. What matters for the look is whether a pushed cube slides
	// or tips: a cube pushed at its centre tips over its front edge only
	// when μ exceeds (half its width)/(height of its centre), which is 1
	// for a cube. At μ = 1.5 the player tumbles under the game's push
	// (TestPlayerTumbles), and a cube launched along the ground at 5 m/s
	// stops within 0.4 m, tipping onto its next face; at μ = 0.5 it skates
	// 1.25 m flat. Above 2 little changes.
	Friction float64

	// Restitution is the bounciness of every contact, 0 (none) to 1
	// (elastic). The demo uses 0: cubes land and stay, which also helps
	// them sleep sooner.
	Restitution float64

	// RestitutionThreshold is the approach speed, in m/s, below which a
	// contact does not bounce even when Restitution > 0, so resting bodies
	// do not keep hopping. Box2D uses 1 m/s.
	RestitutionThreshold float64

	// ContactHertz is the stiffness of the contact springs as a natural
	// frequency in Hz ("soft step" soft contacts, Erin Catto's Solver2D).
	// Overlap is resolved like a damped spring of this frequency, so a
	// resting contact sinks by about a/ω² where a is its load per unit
	// effective mass and ω = 2π·ContactHertz: in a tower of ten 0.4 m
	// cubes the contacts together sag by about 13 mm at 60 Hz and 6 mm at
	// 90 Hz. Higher is stiffer, but a spring faster than about a quarter
	// of the substep rate makes the sequential solver overshoot and
	// jitter, so the value is capped there (Box2D v3's rule): 90 Hz needs
	// 360 substeps per second, 6 per step; 8 leave room to spare, and
	// stiffer than 90 made towers jitter at 8 (1 cm at 120 Hz).
	// Ground contacts use twice the value, as in Box2D, because the ground
	// cannot move and a stiffer floor keeps heavy bodies from sinking.
	ContactHertz float64

	// ContactDampingRatio is the damping ratio ζ of the contact springs
	// (1 = critically damped). Box2D uses 10: heavily over-damped, so
	// penetration is removed smoothly without any bounce; lower values
	// make push-out faster and, near 1, springy. With 8 substeps, 5 stands
	// the stacks as 12 substeps did at 10 (the tower's top moves 8.0 mm in
	// 10 s, against 17.6 at 20; the pyramid's 2.5 against 10.6). At 3 the
	// stacks stood a little better still, but under "quantize both sides"
	// a player resting on a cube's edge was pushed back and forth by the
	// quantization and never slept.
	ContactDampingRatio float64

	// MaxPushOutSpeed caps, in m/s, the speed at which the solver pushes
	// overlapping bodies apart. Without a cap a deep overlap (for example
	// after a state snap from the network) would shoot bodies apart; too low
	// a cap lets a heavy pile slowly sink into the player. Box2D uses 3 m/s.
	MaxPushOutSpeed float64

	// SpeculativeDistance is the base distance, in metres, at which contact
	// points are created before bodies touch. On top of it each pair adds
	// how far the two can approach each other in one step (from the motion
	// of one as seen from the other: relative speed, spin and
	// acceleration; see pairMargin), so a cube at 32 m/s (0.53 m per step)
	// still gets a contact point before it reaches the ground or another
	// cube: speculative contacts are how this solver prevents tunnelling
	// without a separate continuous collision pass. Larger values cost
	// more contact points (each one costs solver time, a dense katamari
	// ball has hundreds) and can cause "ghost" collisions with bodies that
	// are merely near; smaller values risk missing contacts that open
	// within a step in ways the motion bound does not see (pushes from
	// third bodies during the step). Box2D uses 4 × slop (2 cm) without a
	// motion bound; with one, 1 cm is plenty, and 0.5 cm would save only
	// 3 % of the katamari gather's points.
	SpeculativeDistance float64

	// LinearSlop is the length, in metres, below which the simulation treats
	// two surfaces as touching. It is the tolerance used to prefer a stable
	// contact feature over a marginally better one (so contact points do not
	// flicker between faces), and a contact counts as touching for the game
	// (Touching, Contacts) when its surfaces are within this distance or it
	// pushed this step. Too small and a resting contact flickers between
	// touching and not; too large and near misses count as touches.
	LinearSlop float64

	// EnableSleep lets bodies that have been still for SleepTime fall asleep
	// together with everything they touch (their island). Sleeping bodies
	// cost nothing per step. A teaching switch: turn it off to see what the
	// resting grid costs when it is simulated every step.
	EnableSleep bool

	// SleepSpeed is the speed, in m/s, under which a body counts as still:
	// the speed of its fastest point, |v| + |ω|·r where r is its bounding
	// radius. Too high and slowly rolling bodies freeze; too low and piles
	// never sleep. Box2D uses 0.05 m/s. (The game's own "at rest" rule is
	// separate: 0.25 m/s for 0.1 s.)
	SleepSpeed float64

	// SleepTime is how long, in seconds, every body of an island must stay
	// under SleepSpeed before the island sleeps. Long enough that a body at
	// the top of its arc or tipping over an edge does not freeze; short
	// enough that settled piles stop costing. Box2D uses 0.5 s.
	SleepTime float64

	// MaxLinearSpeed is the default clamp, in m/s, on each body's linear
	// speed (the original demo's 32 m/s, which the network code also
	// assumes when it bounds velocities). Per body: BoxDef.MaxLinearSpeed.
	MaxLinearSpeed float64

	// MaxAngularSpeed is the default clamp, in rad/s, on each body's angular
	// speed (16 rad/s in the original). It also keeps the first-order
	// orientation integration accurate.
	MaxAngularSpeed float64

	// LinearDamping and AngularDamping slow bodies down by a fraction per
	// second: v ← v / (1 + h·damping) each substep (1/s). 0 in the demo:
	// friction and face contacts stop cubes. Raise them to make flying
	// cubes look like they move through syrup.
	LinearDamping  float64
	AngularDamping float64

	// SetStatePositionTolerance, SetStateAngleTolerance and
	// SetStateSpeedTolerance decide when SetState counts as "no real change"
	// (see SetState). Position in metres, angle in radians, speed in m/s
	// (both the new linear speed and the speed of the fastest point due to
	// the new angular velocity must be under it). A state within tolerance
	// of a sleeping body's resting pose keeps it asleep; anything else wakes
	// it and its island. The defaults (1 mm, 0.0035 rad ≈ 0.2°, and
	// SleepSpeed) are several times the network's quantization steps
	// (0.24 mm, ≈0.005° for 15-bit smallest three), so re-quantizing a
	// resting world keeps it asleep, while a real correction still wakes
	// it. Too large and small corrections are applied to sleeping bodies
	// without waking them (their contacts are not re-checked until
	// something wakes them); too small and quantization wakes the world
	// every step.
	SetStatePositionTolerance float64
	SetStateAngleTolerance    float64
	SetStateSpeedTolerance    float64

	// CellSize is the edge, in metres, of the broadphase's uniform grid
	// cells. About the size of the common body plus its margin: 1 m suits
	// the 0.4 m cubes. Much smaller cells make the 1.5 m player span many
	// cells; much larger cells put many cubes into each cell to be tested
	// pairwise.
	CellSize float64

	// WarmStartDistance is how far apart, in metres, a new contact point
	// and an old one of the same pair may lie (their anchors on the first
	// body) for the new point to take the old one's impulse when no old
	// point has its feature id (see carryImpulses). 0, the default,
	// matches by feature id only. The ids of a box pair's corners change
	// when the boxes tilt by a fraction of a degree, and a stack that
	// loses its impulses sags while they rebuild: at 1 cm a ten-cube
	// tower and the 55-cube pyramid stand on 6 substeps as they stand on
	// 8 by id (6.5 and 2.1 mm in 10 s on 8). Not the default because it
	// bought no speed on the katamari gather at 8 or 7 substeps, and at 6,
	// which stands the stacks, a grazing 32 m/s cube tunnels and a cube
	// dropped on a tower keeps it awake (docs/design/physics-many-worlds.md,
	// fourth round). Larger than a few centimetres and a corner could take
	// the impulse of another corner of a small contact.
	WarmStartDistance float64

	// WarmStarting starts each step's contact solve from the impulses of the
	// previous step, matched by contact feature id. A teaching switch: turn
	// it off to watch stacks sag and jitter, which is why persistent contact
	// ids exist.
	WarmStarting bool
}

// DefaultConfig returns the configuration netcubes uses.
func DefaultConfig() Config {
	return Config{
		TimeStep:             1.0 / 60,
		Substeps:             8, // see ContactHertz
		Gravity:              mgl64.Vec3{0, 0, -20},
		Friction:             1.5,
		Restitution:          0,
		RestitutionThreshold: 1,
		// 90 Hz: a tower of ten cubes sags about 6 mm in total, against
		// 5 cm at Box2D's 30 Hz (where it would in fact topple).
		ContactHertz:              90,
		ContactDampingRatio:       5,
		MaxPushOutSpeed:           3,
		SpeculativeDistance:       0.01,
		LinearSlop:                0.005,
		EnableSleep:               true,
		SleepSpeed:                0.05,
		SleepTime:                 0.5,
		MaxLinearSpeed:            32,
		MaxAngularSpeed:           16,
		LinearDamping:             0,
		AngularDamping:            0,
		SetStatePositionTolerance: 0.001,
		SetStateAngleTolerance:    0.0035,
		SetStateSpeedTolerance:    0.05,
		CellSize:                  1,
		WarmStarting:              true,
		WarmStartDistance:         0,
	}
}

// ErrInvalidConfig is wrapped by the error Validate (and so NewWorld)
// returns for a bad Config.
var ErrInvalidConfig = errors.New("physics: invalid config")

// Validate reports the first field out of its range, naming the field, its
// value and the range (the error wraps ErrInvalidConfig). A Config is
// checked, never repaired (docs/design/config-validation.md): NewWorld
// refuses an invalid one.
func (c *Config) Validate() error {
	const most = valid.Finite
	err := valid.Check(ErrInvalidConfig,
		valid.Field{Name: "TimeStep", V: c.TimeStep, Hi: most, AboveLo: true},
		valid.Field{Name: "ContactHertz", V: c.ContactHertz, Hi: most, AboveLo: true},
		valid.Field{Name: "MaxPushOutSpeed", V: c.MaxPushOutSpeed, Hi: most, AboveLo: true},
		valid.Field{Name: "MaxLinearSpeed", V: c.MaxLinearSpeed, Hi: most, AboveLo: true},
		valid.Field{Name: "MaxAngularSpeed", V: c.MaxAngularSpeed, Hi: most, AboveLo: true},
		valid.Field{Name: "CellSize", V: c.CellSize, Hi: most, AboveLo: true},
		valid.Field{Name: "LinearSlop", V: c.LinearSlop, Hi: most, AboveLo: true},
		valid.Field{Name: "Friction", V: c.Friction, Hi: most},
		valid.Field{Name: "Restitution", V: c.Restitution, Hi: 1},
		valid.Field{Name: "RestitutionThreshold", V: c.RestitutionThreshold, Hi: most},
		valid.Field{Name: "ContactDampingRatio", V: c.ContactDampingRatio, Hi: most},
		valid.Field{Name: "SpeculativeDistance", V: c.SpeculativeDistance, Hi: most},
		valid.Field{Name: "SleepSpeed", V: c.SleepSpeed, Hi: most},
		valid.Field{Name: "SleepTime", V: c.SleepTime, Hi: most},
		valid.Field{Name: "LinearDamping", V: c.LinearDamping, Hi: most},
		valid.Field{Name: "AngularDamping", V: c.AngularDamping, Hi: most},
		valid.Field{Name: "SetStatePositionTolerance", V: c.SetStatePositionTolerance, Hi: most},
		valid.Field{Name: "SetStateAngleTolerance", V: c.SetStateAngleTolerance, Hi: 1},
		valid.Field{Name: "SetStateSpeedTolerance", V: c.SetStateSpeedTolerance, Hi: most},
		valid.Field{Name: "WarmStartDistance", V: c.WarmStartDistance, Hi: most},
		valid.Field{Name: "Substeps", V: float64(c.Substeps), Lo: 1, Hi: 64},
	)
	if err != nil {
		return err
	}
	if !isFinite3(toVec(c.Gravity)) {
		return fmt.Errorf("%w: Gravity = %v, want finite", ErrInvalidConfig, c.Gravity)
	}
	return nil
}
