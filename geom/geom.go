// Package geom holds the small pieces of rotation and curve arithmetic that
// the session (its error figures) and several strategies (interpolation,
// smoothing, blending) share: blending and measuring quaternions, a hermite
// curve, and turning an orientation change into an angular velocity and
// back. Plain float64 arithmetic on mathgl types, deterministic for the same
// inputs.
package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Nlerp blends two rotations along the shorter arc and renormalizes.
func Nlerp(a, b mgl64.Quat, u float64) mgl64.Quat {
	if a.Dot(b) < 0 {
		b = b.Scale(-1)
	}
	q := mgl64.Quat{W: a.W + (b.W-a.W)*u, V: a.V.Add(b.V.Sub(a.V).Mul(u))}
	return q.Normalize()
}

// AngleBetween is the rotation angle, in radians, that takes a to b: the
// angle of r = a⁻¹b, 2·atan2(|r.v|, |r.w|). (2·acos(|a·b|) is the same
// angle but loses half its digits near zero, where the errors we report
// live.)
func AngleBetween(a, b mgl64.Quat) float64 {
	r := a.Conjugate().Mul(b)
	return 2 * math.Atan2(r.V.Len(), math.Abs(r.W))
}

// Slerp interpolates between rotations a and b along the shorter arc at
// constant angular speed: sin((1−u)θ)/sin θ · a + sin(uθ)/sin θ · b, where
// cos θ = a·b. When the two are nearly equal, sin θ → 0 and the formula
// loses its digits, so it falls back to a normalized lerp (the same curve
// to well below a micro-radian there).
func Slerp(a, b mgl64.Quat, u float64) mgl64.Quat {
	d := a.Dot(b)
	if d < 0 {
		b, d = b.Scale(-1), -d // q and −q are the same rotation: take the short way
	}
	if d > 0.9995 {
		q := mgl64.Quat{W: a.W + (b.W-a.W)*u, V: a.V.Add(b.V.Sub(a.V).Mul(u))}
		return q.Normalize()
	}
	theta := math.Acos(d)
	s := math.Sin(theta)
	wa, wb := math.Sin((1-u)*theta)/s, math.Sin(u*theta)/s
	return a.Scale(wa).Add(b.Scale(wb)).Normalize()
}

// Hermite evaluates the cubic hermite curve from p0 to p1 with tangents m0
// and m1 (units per second) over an interval of dt seconds, at s in [0, 1]:
//
//	p(s) = h00 p0 + h10 dt m0 + h01 p1 + h11 dt m1
//	h00 = 2s³ − 3s² + 1, h10 = s³ − 2s² + s, h01 = −2s³ + 3s², h11 = s³ − s²
//
// It passes through both points with the given velocities, so a ballistic
// arc sampled with its true velocities is reproduced exactly (a parabola is
// a cubic), where a straight line between the samples cuts the corner.
func Hermite(p0, m0, p1, m1 mgl64.Vec3, dt, s float64) mgl64.Vec3 {
	s2 := s * s
	s3 := s2 * s
	h00 := 2*s3 - 3*s2 + 1
	h10 := s3 - 2*s2 + s
	h01 := -2*s3 + 3*s2
	h11 := s3 - s2
	return p0.Mul(h00).Add(m0.Mul(h10 * dt)).Add(p1.Mul(h01)).Add(m1.Mul(h11 * dt))
}

// AngularVelocity is the constant angular velocity (rad/s, world axes) that
// turns a into b in dt seconds: the relative rotation r = b·a⁻¹ written as
// axis × angle, divided by dt. The angle is 2·atan2(|r.v|, r.w) with r.w ≥ 0
// (the shorter way round), which keeps its digits for small rotations.
func AngularVelocity(a, b mgl64.Quat, dt float64) mgl64.Vec3 {
	r := b.Mul(a.Conjugate())
	if r.W < 0 {
		r = r.Scale(-1)
	}
	s := r.V.Len()
	if s < 1e-12 || dt <= 0 {
		return mgl64.Vec3{}
	}
	angle := 2 * math.Atan2(s, r.W)
	return r.V.Mul(angle / (s * dt))
}

// RotateBy turns q by angular velocity w (rad/s, world axes) for dt
// seconds: q' = exp(w·dt/2)·q, the rotation of angle |w|·dt about w.
func RotateBy(q mgl64.Quat, w mgl64.Vec3, dt float64) mgl64.Quat {
	l := w.Len()
	if l < 1e-12 || dt == 0 {
		return q
	}
	half := l * dt / 2
	r := mgl64.Quat{W: math.Cos(half), V: w.Mul(math.Sin(half) / l)}
	return r.Mul(q).Normalize()
}
