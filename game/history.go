package game

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
)

// history keeps the left world's poses for the last few seconds, so the
// right view can be compared with the left at the moment the right is
// showing: an interpolating receiver shows the past on purpose, and judging
// it against the present would charge it for its delay rather than its
// error.
type history struct {
	frames []int // frame stored in each slot, −1 = empty
	pos    [][]mgl64.Vec3
	rot    [][]mgl64.Quat
}

func newHistory(ticks, cubes int) *history {
	h := &history{frames: make([]int, ticks), pos: make([][]mgl64.Vec3, ticks), rot: make([][]mgl64.Quat, ticks)}
	for i := range h.frames {
		h.frames[i] = -1
		h.pos[i] = make([]mgl64.Vec3, cubes)
		h.rot[i] = make([]mgl64.Quat, cubes)
	}
	return h
}

// record stores the world as it is at frame f.
func (h *history) record(f int, w *cubes.World) {
	k := f % len(h.frames)
	h.frames[k] = f
	for i := range h.pos[k] {
		c := w.Cube(i)
		h.pos[k][i] = c.Position
		h.rot[k][i] = c.Orientation
	}
}

// slot returns the slot of frame f, or −1 when it is not kept.
func (h *history) slot(f int) int {
	if f < 0 {
		return -1
	}
	k := f % len(h.frames)
	if h.frames[k] != f {
		return -1
	}
	return k
}

// pose returns cube i at (fractional) frame t, interpolating between the
// two frames around it (linear position, normalized-lerp orientation: over
// 1/60 s the difference from slerp is far below anything measured here).
func (h *history) pose(t float64, i int) (mgl64.Vec3, mgl64.Quat, bool) {
	f := int(math.Floor(t))
	a := h.slot(f)
	if a < 0 {
		return mgl64.Vec3{}, mgl64.Quat{}, false
	}
	u := t - float64(f)
	if u == 0 {
		return h.pos[a][i], h.rot[a][i], true
	}
	b := h.slot(f + 1)
	if b < 0 {
		return h.pos[a][i], h.rot[a][i], true
	}
	p := h.pos[a][i].Add(h.pos[b][i].Sub(h.pos[a][i]).Mul(u))
	return p, nlerp(h.rot[a][i], h.rot[b][i], u), true
}

// nlerp blends two rotations along the shorter arc and renormalizes.
func nlerp(a, b mgl64.Quat, u float64) mgl64.Quat {
	if a.Dot(b) < 0 {
		b = b.Scale(-1)
	}
	q := mgl64.Quat{W: a.W + (b.W-a.W)*u, V: a.V.Add(b.V.Sub(a.V).Mul(u))}
	return q.Normalize()
}

// angleBetween is the rotation angle, in radians, that takes a to b: the
// angle of r = a⁻¹b, 2·atan2(|r.v|, |r.w|). (2·acos(|a·b|) is the same
// angle but loses half its digits near zero, where the errors we report
// live.)
func angleBetween(a, b mgl64.Quat) float64 {
	r := a.Conjugate().Mul(b)
	return 2 * math.Atan2(r.V.Len(), math.Abs(r.W))
}
