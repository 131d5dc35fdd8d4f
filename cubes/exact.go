package cubes

// Design note: the same bits on every CPU. Go fuses x*y+z into one
// multiply-add instruction on arm64 and on amd64 built for GOAMD64=v3
// (rounding once instead of twice), unless the product is written
// float64(x*y). mgl64's Vec3 methods (Dot, Len, Cross, Normalize) and
// Quat.Rotate are written without, so a world that applied its forces
// through them drifted, on those CPUs, from the same world on an older
// x86 within about a second of the katamari gather: lockstep between an
// ARM laptop and an x86 desktop would desync. The helpers below compute
// what the mgl64 methods compute on a CPU that does not fuse, to the bit,
// each product rounded on its own; TestNoFusedMultiplyAdd keeps the whole
// package free of fused instructions.

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
)

// dot is a·b (mgl64's Vec3.Dot, unfused).
func dot(a, b mgl64.Vec3) float64 {
	return float64(a[0]*b[0]) + float64(a[1]*b[1]) + float64(a[2]*b[2])
}

// length is |a| (mgl64's Vec3.Len, unfused).
func length(a mgl64.Vec3) float64 { return math.Sqrt(dot(a, a)) }

// cross is a×b (mgl64's Vec3.Cross, unfused).
func cross(a, b mgl64.Vec3) mgl64.Vec3 {
	return mgl64.Vec3{
		float64(a[1]*b[2]) - float64(a[2]*b[1]),
		float64(a[2]*b[0]) - float64(a[0]*b[2]),
		float64(a[0]*b[1]) - float64(a[1]*b[0]),
	}
}

// normalize is a/|a| (mgl64's Vec3.Normalize, unfused).
func normalize(a mgl64.Vec3) mgl64.Vec3 {
	l := 1.0 / length(a)
	return mgl64.Vec3{a[0] * l, a[1] * l, a[2] * l}
}

// rotate turns v by the unit quaternion q: mgl64's Quat.Rotate, whose
// products geom.Rotate rounds one by one (its doublings are exact, so the
// bits are mgl64's on a CPU that does not fuse).
func rotate(q mgl64.Quat, v mgl64.Vec3) mgl64.Vec3 { return geom.Rotate(q, v) }
