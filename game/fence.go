package game

import "netcubes/cubes"

// Design note: the field's fence. Holding an arrow, the player rolls off
// the 30 × 30 m grid in under 3 s (measured: x = 15 m at frame 165 holding
// right, 54 m after 12 s) and the view shows empty floor, in the middle of
// a talk. A wall in the world would change every figure the bench and the
// README rely on, and the scripts never leave the field, so the fence acts
// on the presenter's own keys only, before they become the tick's input
// (and so before they are recorded or sent): past FenceMetres from the
// centre an arrow pushing further out is let go, and while the player
// still moves outward there it is braked with the opposite arrow (a push
// against the motion has twice the force). Measured the same way: the
// player stops at 13.1 m and stays on the grid.

// FenceMetres is where the fence starts, from the field's centre along x
// or y: the grid's cubes reach ±14.7 m, so the player (0.75 m half edge)
// and the ball around it stop on the field.
const FenceMetres = 12.0

// KeepOnField returns the input in with the arrows that would take player
// p (0-based) of w off the field let go, or turned into a brake, and
// whether it changed anything.
func KeepOnField(w *cubes.World, p int, in cubes.Input) (cubes.Input, bool) {
	if p < 0 || p >= w.NumPlayers() {
		return in, false
	}
	c := w.Cube(w.PlayerCube(p))
	out := in
	// plus pushes along +axis, minus along −axis.
	fence := func(pos, vel float64, plus, minus *bool) {
		switch {
		case pos > FenceMetres:
			*plus = false
			if vel > 0 {
				*minus = true
			}
		case pos < -FenceMetres:
			*minus = false
			if vel < 0 {
				*plus = true
			}
		}
	}
	// x: Right pushes +x, Left −x; y: Up pushes +y, Down −y.
	fence(c.Position[0], c.LinearVelocity[0], &out.Right, &out.Left)
	fence(c.Position[1], c.LinearVelocity[1], &out.Up, &out.Down)
	if out == in {
		return in, false
	}
	// Braking only matters while an arrow is held: with the keys let go the
	// player stops by friction on its own, and the fence must not move it.
	if !in.Left && !in.Right && !in.Up && !in.Down {
		return in, false
	}
	return out, true
}
