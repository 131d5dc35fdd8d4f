package predict

import (
	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
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
// The radius world is a small world of its own (a grid of Config.RadiusSlots
// cubes, parked far away until used, the other players parked too), each
// slot lent to one cube of the full world while that cube is near the
// player: a cube within RadiusM of the predicted player takes a free slot,
// entering with the server's state as the client's mirror holds it (in the
// past: the article's limit at the edge of the radius); one farther than
// RadiusM + radiusHysteresis gives it back. Which slot holds which cube is
// part of the saved history (a replay from frame f starts from the slots
// of frame f), so a replay reproduces the forward prediction exactly.

// radiusHysteresis is how much farther than the radius a predicted cube
// must go before it is dropped, m: a cube on the edge does not swap
// between predicted and the server's past every tick.
const radiusHysteresis = 1

// radiusWorld is the radius scope's predicting world and its slots.
type radiusWorld struct {
	w      *cubes.World
	me     int     // the client's player's cube in w
	idxOf  []int32 // slot cube in w → cube of the full world (−1: free)
	slotOf []int32 // cube of the full world → slot cube in w (−1: not predicted)
	maps   [][]int32
	mapAt  []int // the frame maps[k] holds (−1: none)
	// full counts cubes that were within the radius with no free slot.
	full uint64
}

// newRadiusWorld builds the radius world for a client of left's world:
// left's configuration with a grid of side slots, every grid cube parked.
func newRadiusWorld(left *cubes.World, side, ring, n int) (*radiusWorld, error) {
	cfg := left.Config()
	cfg.GridSide = side
	w, err := cubes.NewWorld(cfg, left.Physics().Config())
	if err != nil {
		return nil, err
	}
	r := &radiusWorld{w: w, idxOf: make([]int32, w.NumCubes()), slotOf: make([]int32, n),
		maps: make([][]int32, ring), mapAt: make([]int, ring)}
	r.clear()
	return r, nil
}

// clear frees every slot and parks its cube; the history of slots goes.
func (r *radiusWorld) clear() {
	for i := range r.slotOf {
		r.slotOf[i] = -1
	}
	for s := range r.idxOf {
		r.idxOf[s] = -1
		if !r.w.IsPlayer(s) {
			r.park(s)
		}
	}
	for k := range r.mapAt {
		r.mapAt[k] = -1
	}
}

// park puts slot cube s at rest far outside anything the player reaches,
// a spot of its own (5 m apart: parked cubes never touch).
func (r *radiusWorld) park(s int) {
	c := r.w.Cube(s)
	c.Position = parkedCube.Add(mgl64.Vec3{float64(5 * (s % 20)), float64(20 + 5*(s/20)), 0})
	c.Orientation = mgl64.QuatIdent()
	c.LinearVelocity, c.AngularVelocity, c.Interacting = mgl64.Vec3{}, mgl64.Vec3{}, false
	_ = r.w.SetCube(s, c)
}

// slot returns the slot cube predicting cube i of the full world, or −1.
func (r *radiusWorld) slot(i int) int {
	if i < 0 || i >= len(r.slotOf) {
		return -1
	}
	return int(r.slotOf[i])
}

// Predicted counts the cubes the radius world predicts now.
func (r *radiusWorld) Predicted() int {
	n := 0
	for _, i := range r.idxOf {
		if i >= 0 {
			n++
		}
	}
	return n
}

// choose lends and takes back slots before a step: cubes farther than
// radius + radiusHysteresis from the player go back to the server's state
// (their slots are freed), cubes of mirror within radius not yet predicted
// take free slots, in cube order (deterministic), with the mirror's state.
func (r *radiusWorld) choose(mirror *cubes.World, radius float64) {
	centre := r.w.Cube(r.me).Position
	out := radius + radiusHysteresis
	for s, i := range r.idxOf {
		if i < 0 {
			continue
		}
		if r.w.Cube(s).Position.Sub(centre).Len() > out {
			r.slotOf[i], r.idxOf[s] = -1, -1
			r.park(s)
		}
	}
	free := 0
	for i := range r.slotOf {
		if r.slotOf[i] >= 0 || mirror.IsPlayer(i) {
			continue
		}
		c := mirror.Cube(i)
		if c.Position.Sub(centre).Len() > radius {
			continue
		}
		for free < len(r.idxOf) && (r.idxOf[free] >= 0 || r.w.IsPlayer(free)) {
			free++
		}
		if free == len(r.idxOf) {
			r.full++
			continue
		}
		if r.w.SetCube(free, c) == nil {
			r.idxOf[free], r.slotOf[i] = int32(i), int32(free)
		}
	}
}

// saveSlots records which slot holds which cube at frame f (beside the
// ring's saved world of f).
func (r *radiusWorld) saveSlots(f int) {
	k := f % len(r.maps)
	if r.maps[k] == nil {
		r.maps[k] = make([]int32, len(r.idxOf))
	}
	copy(r.maps[k], r.idxOf)
	r.mapAt[k] = f
}

// restoreSlots takes back the slots of frame f (after the ring restored
// the world of f); false when they were not kept.
func (r *radiusWorld) restoreSlots(f int) bool {
	k := f % len(r.maps)
	if f < 0 || r.mapAt[k] != f {
		return false
	}
	copy(r.idxOf, r.maps[k])
	for i := range r.slotOf {
		r.slotOf[i] = -1
	}
	for s, i := range r.idxOf {
		if i >= 0 {
			r.slotOf[i] = int32(s)
		}
	}
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
