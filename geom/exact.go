package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Rotation maths both ends of a link must agree on to the bit. A snapshot
// packet at levels 9-13 is coded against a prediction (a cube carried by
// the player's rotation, or turned on along its own), and the decoder must
// compute the same prediction as the encoder, on whatever CPU it runs. Go
// lets a compiler fuse x*y + z into one multiply-add instruction, which
// rounds once instead of twice (it does on arm64, and on amd64 from
// GOAMD64=v3): the same source would then give other bits on another
// machine. Writing each product float64(x*y) forbids the fusion (the Go
// specification: an explicit conversion rounds), so these functions give
// the same bits everywhere. mgl64's Quat.Mul and Rotate compute the same
// values but may fuse; the other functions of this package are for
// drawing and figures, where the last bit does not matter.

// QuatMul is the Hamilton product a·b (rotate by b, then by a), each
// product rounded on its own.
func QuatMul(a, b mgl64.Quat) mgl64.Quat {
	return mgl64.Quat{
		W: float64(a.W*b.W) - float64(a.V[0]*b.V[0]) - float64(a.V[1]*b.V[1]) - float64(a.V[2]*b.V[2]),
		V: mgl64.Vec3{
			float64(a.W*b.V[0]) + float64(a.V[0]*b.W) + float64(a.V[1]*b.V[2]) - float64(a.V[2]*b.V[1]),
			float64(a.W*b.V[1]) - float64(a.V[0]*b.V[2]) + float64(a.V[1]*b.W) + float64(a.V[2]*b.V[0]),
			float64(a.W*b.V[2]) + float64(a.V[0]*b.V[1]) - float64(a.V[1]*b.V[0]) + float64(a.V[2]*b.W),
		},
	}
}

// Rotate turns v by the unit quaternion q: v + 2w(u×v) + 2u×(u×v), u =
// q.V (two cross products instead of two quaternion products), each
// product rounded on its own.
func Rotate(q mgl64.Quat, v mgl64.Vec3) mgl64.Vec3 {
	t := cross(q.V, v)
	t = mgl64.Vec3{float64(2 * t[0]), float64(2 * t[1]), float64(2 * t[2])}
	t2 := cross(q.V, t)
	return mgl64.Vec3{
		v[0] + float64(q.W*t[0]) + t2[0],
		v[1] + float64(q.W*t[1]) + t2[1],
		v[2] + float64(q.W*t[2]) + t2[2],
	}
}

// cross is a×b, each product rounded on its own.
func cross(a, b mgl64.Vec3) mgl64.Vec3 {
	return mgl64.Vec3{
		float64(a[1]*b[2]) - float64(a[2]*b[1]),
		float64(a[2]*b[0]) - float64(a[0]*b[2]),
		float64(a[0]*b[1]) - float64(a[1]*b[0]),
	}
}

// Dot is a·b, each product rounded on its own (mgl64's Vec3.Dot may fuse).
func Dot(a, b mgl64.Vec3) float64 {
	return float64(a[0]*b[0]) + float64(a[1]*b[1]) + float64(a[2]*b[2])
}

// Len is |v|, each square rounded on its own (mgl64's Vec3.Len may fuse):
// for the distances whose comparison with a threshold decides something
// two machines must agree on (who owns a cube, which cubes a prediction
// simulates, whether a packet is plausible).
func Len(v mgl64.Vec3) float64 { return math.Sqrt(Dot(v, v)) }

// QuatLen is |q| as a 4-vector, each square rounded on its own (mgl64's
// Quat.Len may fuse): for normalizing an orientation read from a packet.
func QuatLen(q mgl64.Quat) float64 {
	return math.Sqrt(float64(q.W*q.W) + float64(q.V[0]*q.V[0]) + float64(q.V[1]*q.V[1]) + float64(q.V[2]*q.V[2]))
}
