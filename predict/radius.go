package predict

import (
	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/geom"
	"netcubes/replication"
)

// Design note: the middle prediction scope, proposed in the 2004 article's
// comments ("what if we ran the full physics simulation on a limited subset
// of game world objects ... the player, objects the player is touching ...
// other nearby objects"): the client predicts its player and the cubes
// within a radius of it, and draws every other cube as the server last
// said. Between the whole world (every cube re-predicted: exact, a
// whole-world step per replayed frame) and the player alone (a few
// microseconds, wrong wherever it pushes cubes).
//
// The radius world is a world of the full world's cubes (the same indices)
// in which only the cubes near the player are kept up to date: a cube that
// comes within RadiusM of the predicted player is set to the server's state
// as the client's mirror holds it (in the past: the article's limit at the
// edge of the radius) and predicted from then on; one that goes farther than
// RadiusM + radiusHysteresis is dropped: stopped where it is, so it falls
// asleep and costs nothing, and drawn from the mirror again. What costs in a
// step is the moving cubes: the whole world moves every cube anyone pushes,
// here only those near the player (the other players beyond the radius are
// parked, so they push nothing here). A resting cube taken in is set to
// almost the state it already has, which keeps it asleep. Which cubes are
// predicted is part of the saved history (a replay from frame f starts from
// the set of frame f), so a replay reproduces the forward prediction.
//
// Tried first: a small world whose slots were lent to the cubes near the
// player. Every cube taken in moved from its parking spot, which woke it,
// and the player crossing the grid kept ninety cubes awake: the bench
// measured twice the whole world's cost for the prediction.

// radiusHysteresis is how much farther than the radius a predicted cube
// must go before it is dropped, m: a cube on the edge does not swap
// between predicted and the server's past every tick.
const radiusHysteresis = 1

// radiusWorld is the radius scope's predicting world and which of its
// cubes it predicts.
type radiusWorld struct {
	w     *cubes.World
	me    int    // the client's player's cube in w
	in    []bool // cube i is predicted (within the radius)
	maps  [][]bool
	mapAt []int // the frame maps[k] holds (−1: none)
}

// newRadiusWorld builds the radius world for a client whose world is
// mirror: the same configuration and cubes.
func newRadiusWorld(mirror *cubes.World, ring int) (*radiusWorld, error) {
	w, err := cubes.NewWorld(mirror.Config(), mirror.Physics().Config())
	if err != nil {
		return nil, err
	}
	n := w.NumCubes()
	r := &radiusWorld{w: w, in: make([]bool, n), maps: make([][]bool, ring), mapAt: make([]int, ring)}
	r.clear(mirror)
	return r, nil
}

// clear predicts no cube and takes every cube's state from mirror; the
// history of the predicted set goes.
func (r *radiusWorld) clear(mirror *cubes.World) {
	for i := range r.in {
		r.in[i] = false
	}
	for k := range r.mapAt {
		r.mapAt[k] = -1
	}
	if mirror.NumCubes() == r.w.NumCubes() {
		_ = r.w.SetStates(mirror.States(nil))
	}
}

// slot returns the cube of the radius world predicting cube i of the full
// world (the same index), or −1 when it is not predicted.
func (r *radiusWorld) slot(i int) int {
	if i < 0 || i >= len(r.in) || !r.in[i] {
		return -1
	}
	return i
}

// Predicted counts the cubes the radius world predicts now.
func (r *radiusWorld) Predicted() int {
	n := 0
	for _, in := range r.in {
		if in {
			n++
		}
	}
	return n
}

// choose takes in and drops cubes before a step, in cube order
// (deterministic): cubes farther than radius + radiusHysteresis from the
// player are dropped (stopped where they are), cubes of mirror within
// radius not yet predicted are taken in with the mirror's state; the other
// players beyond the radius are parked, far away, where they push nothing.
func (r *radiusWorld) choose(mirror *cubes.World, radius float64) {
	centre := r.w.Cube(r.me).Position
	out := radius + radiusHysteresis
	for i := range r.in {
		if r.w.IsPlayer(i) {
			if i != r.me && geom.Len(r.w.Cube(i).Position.Sub(centre)) > out {
				r.parkPlayer(i)
			}
			continue
		}
		if r.in[i] {
			if c := r.w.Cube(i); geom.Len(c.Position.Sub(centre)) > out {
				r.in[i] = false
				c.LinearVelocity, c.AngularVelocity = mgl64.Vec3{}, mgl64.Vec3{}
				_ = r.w.SetCube(i, c)
			}
			continue
		}
		c := mirror.Cube(i)
		if geom.Len(c.Position.Sub(centre)) <= radius && r.w.SetCube(i, c) == nil {
			r.in[i] = true
		}
	}
}

// parkPlayer moves another player's cube i far away, a spot of its own.
func (r *radiusWorld) parkPlayer(i int) {
	c := r.w.Cube(i)
	c.Position = parkedCube.Add(mgl64.Vec3{float64(5 * (i % 50)), 20, 1})
	c.LinearVelocity, c.AngularVelocity = mgl64.Vec3{}, mgl64.Vec3{}
	_ = r.w.SetCube(i, c)
}

// saveSlots records which cubes are predicted at frame f (beside the
// ring's saved world of f).
func (r *radiusWorld) saveSlots(f int) {
	k := f % len(r.maps)
	if r.maps[k] == nil {
		r.maps[k] = make([]bool, len(r.in))
	}
	copy(r.maps[k], r.in)
	r.mapAt[k] = f
}

// restoreSlots takes back the set of frame f (after the ring restored the
// world of f); false when it was not kept.
func (r *radiusWorld) restoreSlots(f int) bool {
	k := f % len(r.maps)
	if f < 0 || r.mapAt[k] != f {
		return false
	}
	copy(r.in, r.maps[k])
	return true
}

// applyRadius snaps the cubes the radius world predicts to the packet's
// states (a correction, at the packet's frame, before the replay).
func (c *client) applyRadius(p *ServerPacket) {
	for k := int32(0); k < p.State.NumUpdates; k++ {
		u := &p.State.Updates[k]
		if s := c.rw.slot(int(u.Index)); s >= 0 && s != c.rw.me {
			_ = c.rw.w.SetCube(s, stateOf(u))
		}
	}
}

// radiusBefore keeps the drawn poses of the predicted cubes before a
// replay; radiusAfter hands the smoother the jump of each that is still
// predicted after it, so the ball does not pop when the player does not.
func (c *client) radiusBefore() {
	if !c.radius {
		return
	}
	for i := range c.n {
		c.oldIn[i] = false
		if k := c.rw.slot(i); k >= 0 {
			s := c.rw.w.Cube(k)
			c.oldPos[i], c.oldRot[i], c.oldIn[i] = s.Position, s.Orientation, true
		}
	}
}

func (c *client) radiusAfter(mode replication.SmoothingMode) {
	if !c.radius {
		return
	}
	for i := range c.n {
		if k := c.rw.slot(i); k >= 0 && c.oldIn[i] {
			s := c.rw.w.Cube(k)
			c.smooth.Corrected(mode, i, c.oldPos[i], c.oldRot[i], s.Position, s.Orientation)
		}
	}
}
