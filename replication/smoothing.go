package replication

import (
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/internal/valid"
)

// Design note: visual smoothing for state synchronization (Glenn Fiedler,
// "State Synchronization", "Visual Smoothing").
//
// The receiver snaps its physics state hard to every update, because the
// simulation must extrapolate from a real physics state, not a blend. But a
// snap after a burst of packet loss is a visible pop. So the smoothing lives
// only in what is drawn: each cube keeps a position error offset and an
// orientation error quaternion, and is drawn at
//
//	rendered position    = simulation position + position error
//	rendered orientation = orientation error ⊗ simulation orientation
//
// When an update moves the simulation from (p, q) to (p', q'), the errors are
// reset so that the rendered pose does not move at all:
//
//	position error'    = (p + position error) − p'
//	orientation error' = (orientation error ⊗ q) ⊗ conj(q')
//
// (the conjugate of a unit quaternion is its inverse, so this "subtracts" q'
// the way the first line subtracts p'). Then every tick the errors shrink
// toward zero and identity by a factor f: position error × f, orientation
// error slerped from identity by f (its angle × f). That is an exponential
// moving average toward the true pose; errors below a tiny threshold are
// cleared outright so they never decay into denormal numbers.
//
// Basic smoothing uses one factor (0.9 per tick). Adaptive smoothing picks
// the factor from the size of the error: 0.95 for position errors up to
// 25 cm (small jitter is smoothed gently), 0.85 from 1 m up (a big pop after
// seconds of loss is corrected quickly, not dragged out), blended linearly in
// between. For orientation the article blends the same factors "between dot
// 0.1 and 0.5" of the error and the identity; we read that as the measure
// 1 − |w| of the error quaternion (w is its dot product with the identity),
// which is 0 for no error, 0.1 at 52° and 0.5 at 120°. (The original
// demo's code blended on |w| itself between 0.2 and 0.5; we keep the
// article's words, and step 7's line on screen says so.)
//
// The 2004 rule ("Networked Physics (2004)", on corrections of a player the
// client does not own) is the same offset with the article's thresholds
// instead of a factor: an error over 2 m is dropped (the drawn pose snaps),
// one over 10 cm shrinks by 10 % per tick, a smaller one is left alone for
// good ("otherwise do nothing"): the drawn pose may stay up to 10 cm off.
// The article gives no orientation figures; an orientation error shrinks by
// the same 10 % while its angle exceeds 0.1 rad (5.7°, the 10 cm at the
// half-metre lever of a cube's corner) and snaps beyond 2 rad.

// SmoothingMode selects how the receiver shows corrections.
type SmoothingMode int

const (
	// SmoothingNone draws the simulation as it is: every correction is a
	// visible snap.
	SmoothingNone SmoothingMode = iota
	// SmoothingBasic fades errors by one factor per tick.
	SmoothingBasic
	// SmoothingAdaptive fades small errors gently and large ones quickly.
	SmoothingAdaptive
	// Smoothing2004 is the rule of "Networked Physics (2004)": snap
	// beyond 2 m, 10 % of the way beyond 10 cm, else nothing.
	Smoothing2004
	// NumSmoothingModes counts the modes.
	NumSmoothingModes
)

// String names the mode for the HUD.
func (m SmoothingMode) String() string {
	switch m {
	case SmoothingNone:
		return "no smoothing"
	case SmoothingBasic:
		return "basic smoothing"
	case SmoothingAdaptive:
		return "adaptive smoothing"
	case Smoothing2004:
		return "2004 smoothing"
	}
	return fmt.Sprintf("smoothing(%d)", int(m))
}

// SmoothingConfig holds the smoothing tunables.
type SmoothingConfig struct {
	// BasicFactor is what basic smoothing keeps of an error each tick
	// (0..1). 0.9 halves an error in 6.6 ticks (0.11 s); closer to 1 is
	// smoother but leaves the drawn pose wrong for longer.
	BasicFactor float64
	// SmallFactor applies to errors up to SmallPosition (metres) or
	// SmallOrientation (1 − |w|); LargeFactor from LargePosition /
	// LargeOrientation up; linear in between. The article: 0.95 and 0.85,
	// 0.25 m and 1 m, 0.1 and 0.5.
	SmallFactor, LargeFactor           float64
	SmallPosition, LargePosition       float64
	SmallOrientation, LargeOrientation float64
	// ClearPosition (metres) and ClearAngle (radians) are the errors below
	// which an offset is set to exactly zero (or identity).
	ClearPosition, ClearAngle float64
	// The 2004 rule: errors over SnapPosition (m) or SnapAngle (rad)
	// snap; over MovePosition or MoveAngle they shrink by MoveFraction per
	// tick; below, they stay. The article: 2 m, 10 cm, 10 %.
	SnapPosition, MovePosition float64
	SnapAngle, MoveAngle       float64
	MoveFraction               float64
}

// DefaultSmoothingConfig returns the article's values.
func DefaultSmoothingConfig() SmoothingConfig {
	return SmoothingConfig{
		BasicFactor:      0.9,
		SmallFactor:      0.95,
		LargeFactor:      0.85,
		SmallPosition:    0.25,
		LargePosition:    1,
		SmallOrientation: 0.1,
		LargeOrientation: 0.5,
		ClearPosition:    1e-4,
		ClearAngle:       1e-4,
		SnapPosition:     2,
		MovePosition:     0.1,
		SnapAngle:        2,
		MoveAngle:        0.1,
		MoveFraction:     0.1,
	}
}

// Validate reports the first factor or distance out of its range, naming
// it (the error wraps ErrInvalidConfig).
func (c SmoothingConfig) Validate() error {
	const most = valid.Finite
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "Smoothing.BasicFactor", V: c.BasicFactor, Hi: 1},
		valid.Field{Name: "Smoothing.SmallFactor", V: c.SmallFactor, Hi: 1},
		valid.Field{Name: "Smoothing.LargeFactor", V: c.LargeFactor, Hi: 1},
		valid.Field{Name: "Smoothing.SmallPosition", V: c.SmallPosition, Hi: most},
		valid.Field{Name: "Smoothing.LargePosition", V: c.LargePosition, Lo: c.SmallPosition, Hi: most, AboveLo: true},
		valid.Field{Name: "Smoothing.SmallOrientation", V: c.SmallOrientation, Hi: most},
		valid.Field{Name: "Smoothing.LargeOrientation", V: c.LargeOrientation, Lo: c.SmallOrientation, Hi: most, AboveLo: true},
		valid.Field{Name: "Smoothing.ClearPosition", V: c.ClearPosition, Hi: most},
		valid.Field{Name: "Smoothing.ClearAngle", V: c.ClearAngle, Hi: most},
		valid.Field{Name: "Smoothing.SnapPosition", V: c.SnapPosition, Hi: most},
		valid.Field{Name: "Smoothing.MovePosition", V: c.MovePosition, Hi: most},
		valid.Field{Name: "Smoothing.SnapAngle", V: c.SnapAngle, Hi: most},
		valid.Field{Name: "Smoothing.MoveAngle", V: c.MoveAngle, Hi: most},
		valid.Field{Name: "Smoothing.MoveFraction", V: c.MoveFraction, Hi: 1},
	)
}

// AdaptiveFactor blends between small and large by where x lies between
// lo and hi: small at or below lo, large at or above hi.
func AdaptiveFactor(x, lo, hi, small, large float64) float64 {
	if !(x > lo) || !(hi > lo) {
		return small
	}
	if x >= hi {
		return large
	}
	t := (x - lo) / (hi - lo)
	return small + (large-small)*t
}

// smoother keeps the error offsets of every cube. It allocates only in
// reset when the cube count grows.
type smoother struct {
	cfg SmoothingConfig
	pos []mgl64.Vec3
	rot []mgl64.Quat
}

func (s *smoother) reset(n int) {
	if cap(s.pos) < n {
		s.pos = make([]mgl64.Vec3, n)
		s.rot = make([]mgl64.Quat, n)
	}
	s.pos, s.rot = s.pos[:n], s.rot[:n]
	for i := range s.pos {
		s.pos[i] = mgl64.Vec3{}
		s.rot[i] = mgl64.QuatIdent()
	}
}

// corrected re-bases cube i's errors when its simulation pose jumps from
// (oldPos, oldRot) to (newPos, newRot), so the rendered pose stays put.
func (s *smoother) corrected(mode SmoothingMode, i int, oldPos mgl64.Vec3, oldRot mgl64.Quat, newPos mgl64.Vec3, newRot mgl64.Quat) {
	if mode == SmoothingNone {
		return
	}
	s.pos[i] = oldPos.Add(s.pos[i]).Sub(newPos)
	e := s.rot[i].Mul(oldRot).Mul(newRot.Conjugate())
	if n := e.Len(); n > 0 {
		e = e.Scale(1 / n)
	} else {
		e = mgl64.QuatIdent()
	}
	if e.W < 0 {
		e = e.Scale(-1) // the same rotation, along the shorter arc
	}
	s.rot[i] = e
}

// decay shrinks every error by one tick's factor.
func (s *smoother) decay(mode SmoothingMode) {
	c := &s.cfg
	for i := range s.pos {
		e := s.pos[i]
		q := s.rot[i]
		if e == (mgl64.Vec3{}) && q == mgl64.QuatIdent() {
			continue
		}
		if mode == SmoothingNone {
			s.pos[i], s.rot[i] = mgl64.Vec3{}, mgl64.QuatIdent()
			continue
		}
		if mode == Smoothing2004 {
			s.pos[i], s.rot[i] = c.rule2004(e, q)
			continue
		}
		fp, fr := c.BasicFactor, c.BasicFactor
		if mode == SmoothingAdaptive {
			fp = AdaptiveFactor(e.Len(), c.SmallPosition, c.LargePosition, c.SmallFactor, c.LargeFactor)
			fr = AdaptiveFactor(1-math.Abs(q.W), c.SmallOrientation, c.LargeOrientation, c.SmallFactor, c.LargeFactor)
		}
		e = e.Mul(fp)
		if e.Len() < c.ClearPosition {
			e = mgl64.Vec3{}
		}
		s.pos[i] = e
		s.rot[i] = scaleRotation(q, fr, c.ClearAngle)
	}
}

// rule2004 applies one tick of the 2004 rule to a position error e and an
// orientation error q.
func (c *SmoothingConfig) rule2004(e mgl64.Vec3, q mgl64.Quat) (mgl64.Vec3, mgl64.Quat) {
	switch d := e.Len(); {
	case d > c.SnapPosition:
		e = mgl64.Vec3{}
	case d > c.MovePosition:
		e = e.Mul(1 - c.MoveFraction)
	}
	w := math.Min(1, math.Abs(q.W))
	switch a := 2 * math.Acos(w); {
	case a > c.SnapAngle:
		q = mgl64.QuatIdent()
	case a > c.MoveAngle:
		q = scaleRotation(q, 1-c.MoveFraction, c.ClearAngle)
	}
	return e, q
}

// Smoother is the per-cube visual smoothing of a receiver (state sync's
// right, the 2004 client and the distributed-authority machines draw their
// corrections with it): error offsets
// that keep the drawn pose still when the simulation jumps, then decay.
type Smoother struct{ s smoother }

// NewSmoother returns a smoother for n cubes with cfg's factors.
func NewSmoother(cfg SmoothingConfig, n int) *Smoother {
	sm := &Smoother{s: smoother{cfg: cfg}}
	sm.s.reset(n)
	return sm
}

// Reset clears every offset.
func (sm *Smoother) Reset() { sm.s.reset(len(sm.s.pos)) }

// Resize clears every offset and makes room for n cubes (a zero Smoother
// is ready after SetConfig and Resize).
func (sm *Smoother) Resize(n int) { sm.s.reset(n) }

// SetConfig sets the factors the modes use (from the next Decay).
func (sm *Smoother) SetConfig(cfg SmoothingConfig) { sm.s.cfg = cfg }

// Corrected re-bases cube i's offsets for a jump of its simulation pose.
func (sm *Smoother) Corrected(mode SmoothingMode, i int, oldPos mgl64.Vec3, oldRot mgl64.Quat, newPos mgl64.Vec3, newRot mgl64.Quat) {
	sm.s.corrected(mode, i, oldPos, oldRot, newPos, newRot)
}

// Decay shrinks the offsets by one tick of mode.
func (sm *Smoother) Decay(mode SmoothingMode) { sm.s.decay(mode) }

// Rendered returns cube i's drawn pose for a simulation pose.
func (sm *Smoother) Rendered(i int, p mgl64.Vec3, q mgl64.Quat) (mgl64.Vec3, mgl64.Quat) {
	return sm.s.rendered(i, p, q)
}

// Offset is cube i's position offset (drawn minus simulated), metres.
func (sm *Smoother) Offset(i int) mgl64.Vec3 { return sm.s.pos[i] }

// scaleRotation returns the rotation about the same axis as q by f times its
// angle (slerp from the identity toward q by f), or the identity when that
// angle is below clear.
func scaleRotation(q mgl64.Quat, f, clear float64) mgl64.Quat {
	if q.W < 0 {
		q = q.Scale(-1)
	}
	s := q.V.Len()
	half := math.Atan2(s, q.W) * f
	if 2*half < clear || s == 0 {
		return mgl64.QuatIdent()
	}
	axis := q.V.Mul(1 / s)
	return mgl64.Quat{W: math.Cos(half), V: axis.Mul(math.Sin(half))}
}

// rendered returns cube i's drawn pose for a simulation pose.
func (s *smoother) rendered(i int, p mgl64.Vec3, q mgl64.Quat) (mgl64.Vec3, mgl64.Quat) {
	if s.rot[i] == mgl64.QuatIdent() {
		return p.Add(s.pos[i]), q
	}
	return p.Add(s.pos[i]), s.rot[i].Mul(q)
}

// ErrInvalidConfig is wrapped by the error a Validate of this package
// returns.
var ErrInvalidConfig = errors.New("replication: invalid config")
