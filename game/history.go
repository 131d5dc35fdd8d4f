package game

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/geom"
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

// clear forgets every frame.
func (h *history) clear() {
	for i := range h.frames {
		h.frames[i] = -1
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
	return p, geom.Nlerp(h.rot[a][i], h.rot[b][i], u), true
}

// recordPoses stores the poses of frame f from outside a world (the
// two-process right's diagnostics), and fills the frames since prev (the
// previous frame recorded this way, −1 for none) by blending the two, so
// the interpolating lookups in pose work between diagnostics too. Gaps
// longer than the history are not filled.
func (h *history) recordPoses(f, prev int, pos []mgl64.Vec3, rot []mgl64.Quat) {
	if f < 0 || len(pos) != len(h.pos[0]) || len(rot) != len(pos) {
		return
	}
	pk := h.slot(prev)
	if pk >= 0 && f-prev > 1 && f-prev < len(h.frames) {
		for g := prev + 1; g < f; g++ {
			u := float64(g-prev) / float64(f-prev)
			k := g % len(h.frames)
			h.frames[k] = g
			for i := range pos {
				a := h.pos[pk][i]
				h.pos[k][i] = a.Add(pos[i].Sub(a).Mul(u))
				h.rot[k][i] = geom.Nlerp(h.rot[pk][i], rot[i], u)
			}
		}
	}
	k := f % len(h.frames)
	h.frames[k] = f
	copy(h.pos[k], pos)
	copy(h.rot[k], rot)
}
