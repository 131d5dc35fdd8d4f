package physics

// Design note: small vector, quaternion and matrix helpers used inside the
// step. They exist (instead of calling mgl64's methods) for one reason:
// determinism across CPUs.
//
// The Go specification lets a compiler fuse x*y + z into one fused
// multiply-add (FMA) instruction, which rounds once instead of twice. The
// result is a last-bit difference, and a physics step amplifies last-bit
// differences into visibly different worlds within seconds. Go does fuse on
// arm64, ppc64le, s390x and riscv64, and on amd64 when built with
// GOAMD64=v3 or later; it does not on plain amd64. A lockstep demo between an
// x86 laptop and an ARM laptop would silently diverge.
//
// The specification also says an explicit conversion float64(x*y) rounds the
// product and so forbids fusing it with the following addition. Every helper
// below writes its products that way, even a lone product (as in scale):
// after inlining, a bare product in one helper fuses with the addition in
// the next. mgl64's methods are not written this way, so the step never
// calls them. TestNoFusedMultiplyAdd compiles the package for arm64 and
// amd64 v3 and fails on any fused instruction.
//
// The only other operations in the step are +, -, *, /, comparisons and
// math.Sqrt, all of which IEEE 754 defines to be correctly rounded, so they
// give the same bits on every conforming CPU. No sin, cos or exp is used.

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// vec3 is the internal 3-vector. It is a struct rather than mgl64.Vec3
// (an array) for speed: the Go compiler keeps small structs in registers,
// but it keeps arrays of more than one element in memory, which made the
// solver's inner loops about three times slower. The public API speaks
// mgl64 and converts at the boundary.
type vec3 struct{ x, y, z float64 }

func toVec(v mgl64.Vec3) vec3  { return vec3{v[0], v[1], v[2]} }
func (v vec3) mgl() mgl64.Vec3 { return mgl64.Vec3{v.x, v.y, v.z} }

// comp returns component k (0 = x, 1 = y, 2 = z), for loops over axes.
func (v vec3) comp(k int) float64 {
	switch k {
	case 0:
		return v.x
	case 1:
		return v.y
	}
	return v.z
}

// dot returns a·b without fusion.
func dot(a, b vec3) float64 {
	return float64(a.x*b.x) + float64(a.y*b.y) + float64(a.z*b.z)
}

// cross returns a×b without fusion.
func cross(a, b vec3) vec3 {
	return vec3{
		float64(a.y*b.z) - float64(a.z*b.y),
		float64(a.z*b.x) - float64(a.x*b.z),
		float64(a.x*b.y) - float64(a.y*b.x),
	}
}

func add(a, b vec3) vec3 { return vec3{a.x + b.x, a.y + b.y, a.z + b.z} }
func sub(a, b vec3) vec3 { return vec3{a.x - b.x, a.y - b.y, a.z - b.z} }

// scale returns s·a. Its products are wrapped too: once inlined, a bare
// product here would fuse with whatever addition consumes the result.
func scale(a vec3, s float64) vec3 {
	return vec3{float64(a.x * s), float64(a.y * s), float64(a.z * s)}
}

// madd returns a + s·b without fusion.
func madd(a vec3, s float64, b vec3) vec3 {
	return vec3{a.x + float64(s*b.x), a.y + float64(s*b.y), a.z + float64(s*b.z)}
}

// msub returns a - s·b without fusion.
func msub(a vec3, s float64, b vec3) vec3 {
	return vec3{a.x - float64(s*b.x), a.y - float64(s*b.y), a.z - float64(s*b.z)}
}

func lengthSq(a vec3) float64 { return dot(a, a) }
func length(a vec3) float64   { return math.Sqrt(dot(a, a)) }

// maxf and minf are max and min for values known not to be NaN. They
// inline to a compare, where math.Max is a function call (it has to
// order NaN and signed zeros) that the profiler showed in the solver.
func maxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

func minf(a, b float64) float64 {
	if a < b {
		return a
	}
	return b
}

// isFinite3 reports whether all three components are neither NaN nor ±Inf.
func isFinite3(a vec3) bool {
	return isFinite(a.x) && isFinite(a.y) && isFinite(a.z)
}

// isFinite reports whether x is neither NaN nor ±Inf. x-x is 0 for every
// finite x and NaN otherwise, so the comparison is false for NaN and Inf.
func isFinite(x float64) bool { return x-x == 0 }

// clampLength scales v down to length max when it is longer. It is safe
// for very large finite components: when |v|² would overflow, v is first
// divided by its largest component so the square stays finite.
func clampLength(v vec3, max float64) vec3 {
	l2 := dot(v, v)
	if l2 <= float64(max*max) {
		return v
	}
	if l2 > math.MaxFloat64 { // overflowed to +Inf
		m := maxf(math.Abs(v.x), maxf(math.Abs(v.y), math.Abs(v.z)))
		if m > math.MaxFloat64 {
			// An infinite component (inputs are checked, so this is only
			// defence in depth): keep the direction of the infinities.
			v = vec3{infSign(v.x), infSign(v.y), infSign(v.z)}
		} else {
			v = scale(v, 1/m)
		}
		l2 = dot(v, v)
	}
	return scale(v, max/math.Sqrt(l2))
}

// infSign returns ±1 for ±Inf and 0 otherwise.
func infSign(x float64) float64 {
	switch {
	case x > math.MaxFloat64:
		return 1
	case x < -math.MaxFloat64:
		return -1
	}
	return 0
}

// quat is the internal quaternion: w + (x, y, z). It has the same meaning
// as mgl64.Quat{W: w, V: {x, y, z}}; it is a plain struct of four floats so
// the hot loops read well.
type quat struct{ w, x, y, z float64 }

var quatIdentity = quat{1, 0, 0, 0}

func fromMgl(q mgl64.Quat) quat { return quat{q.W, q.V[0], q.V[1], q.V[2]} }
func (q quat) mgl() mgl64.Quat  { return mgl64.Quat{W: q.w, V: mgl64.Vec3{q.x, q.y, q.z}} }

// qmul returns the Hamilton product a⊗b (apply b, then a) without fusion.
func qmul(a, b quat) quat {
	return quat{
		float64(a.w*b.w) - float64(a.x*b.x) - float64(a.y*b.y) - float64(a.z*b.z),
		float64(a.w*b.x) + float64(a.x*b.w) + float64(a.y*b.z) - float64(a.z*b.y),
		float64(a.w*b.y) - float64(a.x*b.z) + float64(a.y*b.w) + float64(a.z*b.x),
		float64(a.w*b.z) + float64(a.x*b.y) - float64(a.y*b.x) + float64(a.z*b.w),
	}
}

func qdot(a, b quat) float64 {
	return float64(a.w*b.w) + float64(a.x*b.x) + float64(a.y*b.y) + float64(a.z*b.z)
}

// qnormalize returns q/|q|. Callers guarantee |q| is well away from zero
// (the step only normalizes quaternions that were unit a moment ago).
func qnormalize(q quat) quat {
	inv := 1 / math.Sqrt(qdot(q, q))
	return quat{q.w * inv, q.x * inv, q.y * inv, q.z * inv}
}

// qintegrate advances the orientation q by angular velocity ω (rad/s,
// world frame) over h seconds:
//
//	q ← normalize(q + ½·h·(ω ⊗ q))
//
// where ω is the pure quaternion (0, ω). This is the first-order
// (explicit Euler) form of dq/dt = ½·ω⊗q, the standard quaternion
// kinematics equation (see e.g. Baraff, "Physically Based Modeling",
// SIGGRAPH course notes). The exact update would be
// exp(½·h·ω)⊗q, which needs sin and cos; the first-order form plus a
// normalization is accurate to O((h·|ω|)²) per substep, about 0.004 rad² at
// the 16 rad/s clamp and 240 Hz, and uses only +, ×, and one sqrt, which are
// bit-reproducible everywhere.
func qintegrate(q quat, w vec3, h float64) quat {
	hh := 0.5 * h
	wx, wy, wz := float64(w.x*hh), float64(w.y*hh), float64(w.z*hh)
	// (0, ω')⊗q with ω' = ½hω
	q = quat{
		q.w - float64(wx*q.x) - float64(wy*q.y) - float64(wz*q.z),
		q.x + float64(wx*q.w) + float64(wy*q.z) - float64(wz*q.y),
		q.y - float64(wx*q.z) + float64(wy*q.w) + float64(wz*q.x),
		q.z + float64(wx*q.y) - float64(wy*q.x) + float64(wz*q.w),
	}
	return qnormalize(q)
}

// mat3 is a 3×3 matrix stored as three columns. For a rotation matrix the
// columns are the body's local x, y and z axes expressed in world space,
// which is exactly what box collision wants to read.
type mat3 struct{ c [3]vec3 }

var mat3Identity = mat3{[3]vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}

// mulMV returns M·v.
func mulMV(m *mat3, v vec3) vec3 {
	return vec3{
		float64(m.c[0].x*v.x) + float64(m.c[1].x*v.y) + float64(m.c[2].x*v.z),
		float64(m.c[0].y*v.x) + float64(m.c[1].y*v.y) + float64(m.c[2].y*v.z),
		float64(m.c[0].z*v.x) + float64(m.c[1].z*v.y) + float64(m.c[2].z*v.z),
	}
}

// mulMTV returns Mᵀ·v: the components of v along M's three columns.
func mulMTV(m *mat3, v vec3) vec3 {
	return vec3{dot(m.c[0], v), dot(m.c[1], v), dot(m.c[2], v)}
}

// rotationMatrix converts a unit quaternion to its rotation matrix. The
// formula is the standard one (e.g. Shoemake, "Animating rotation with
// quaternion curves", 1985), written column by column.
func rotationMatrix(q quat) mat3 {
	x2, y2, z2 := q.x+q.x, q.y+q.y, q.z+q.z
	xx, yy, zz := float64(q.x*x2), float64(q.y*y2), float64(q.z*z2)
	xy, xz, yz := float64(q.x*y2), float64(q.x*z2), float64(q.y*z2)
	wx, wy, wz := float64(q.w*x2), float64(q.w*y2), float64(q.w*z2)
	return mat3{[3]vec3{
		{1 - (yy + zz), xy + wz, xz - wy},
		{xy - wz, 1 - (xx + zz), yz + wx},
		{xz + wy, yz - wx, 1 - (xx + yy)},
	}}
}

// worldInverseInertia returns R·diag(inv)·Rᵀ, the inverse inertia tensor of
// a body whose local principal inverse inertia is inv, in world space.
// Column j of the result is Σ_k inv_k · R_k · (R_k)_j, where R_k is column k
// of R (the body's k-th axis).
func worldInverseInertia(r *mat3, inv vec3) mat3 {
	var out mat3
	for j := 0; j < 3; j++ {
		var col vec3
		for k := 0; k < 3; k++ {
			s := float64(inv.comp(k) * r.c[k].comp(j))
			col = madd(col, s, r.c[k])
		}
		out.c[j] = col
	}
	return out
}

// tangentBasis returns two unit vectors that, with the unit normal n, form
// a right-handed orthonormal basis (t1, t2, n). It is a pure function of n,
// so a contact whose normal does not change keeps the same friction axes
// from step to step. The branch picks the construction that avoids dividing
// by a small number: it crosses n with whichever world axis n is least
// aligned with.
func tangentBasis(n vec3) (t1, t2 vec3) {
	if math.Abs(n.x) >= 0.57735 { // 1/√3: n is closest to the x axis
		t1 = vec3{n.y, -n.x, 0}
	} else {
		t1 = vec3{0, n.z, -n.y}
	}
	t1 = scale(t1, 1/length(t1))
	t2 = cross(n, t1)
	return t1, t2
}
