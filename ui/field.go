package ui

// Off the field: with Z and the arrows held a few seconds the ball rolls
// off the 30 × 30 m grid onto empty floor, and the view shows nothing but
// floor. The simulation is left as it is (the left is the authority, and a
// wall would change every figure the talk relies on); instead each view
// says where the cubes are, in the view's own directions (the camera looks
// along +y, so +x is right and +y is ahead), and that F5 starts over.
//
// What counts is where the cubes are, not where the grid was laid: the
// ball carries cubes off the grid and a blow scatters them, so a player
// past the grid's edge is often still among cubes. The player is off the
// field when no cube but its own ball (cubes stuck to it, within
// ballReach) lies within offFieldGap of it.

import (
	"fmt"
	"math"

	"netcubes/viewmodel"
)

// offFieldGap is the distance, metres, from the player to the nearest
// cube beyond which the view is empty floor: a few grid spacings, more
// than the ball's reach.
const offFieldGap = 5.0

// ballReach is how far from the player's centre a red cube counts as
// stuck to its ball (render.BallRadius's reach).
const ballReach = 3.0

// offField says where the nearest cube is seen from m's player, or ok =
// false while a cube other than the ball's is within offFieldGap.
func offField(m *viewmodel.View) (string, bool) {
	if m.Player < 0 || m.Player >= len(m.Cubes) {
		return "", false
	}
	p := m.Cubes[m.Player].Position
	if nearCube(m, p) {
		return "", false
	}
	best, bx, by := math.Inf(1), 0.0, 0.0
	for i := range m.Cubes {
		c := &m.Cubes[i]
		dx, dy := c.Position[0]-p[0], c.Position[1]-p[1]
		if !fieldCube(m, i, dx, dy) {
			continue
		}
		if d := math.Hypot(dx, dy); d < best {
			best, bx, by = d, dx, dy
		}
	}
	if best <= offFieldGap || math.IsInf(best, 1) {
		return "", false
	}
	return fmt.Sprintf("off the field: the nearest cubes are %.0f m %s · F5 starts over", best, direction(bx, by)), true
}

// nearCube reports whether a cube other than the ball's lies within
// offFieldGap of p: offField's answer for a player among cubes, which is
// nearly always the answer, found without a square root a cube (every
// frame, both views, 901 cubes). A distance within a centimetre of either
// bound is measured as offField measures it.
func nearCube(m *viewmodel.View, p [3]float64) bool {
	const margin = 0.01
	for i := range m.Cubes {
		c := &m.Cubes[i]
		dx, dy := c.Position[0]-p[0], c.Position[1]-p[1]
		d2 := dx*dx + dy*dy
		if d2 >= (offFieldGap+margin)*(offFieldGap+margin) || !fieldCube(m, i, dx, dy) {
			continue
		}
		if d2 <= (offFieldGap-margin)*(offFieldGap-margin) || math.Hypot(dx, dy) <= offFieldGap {
			return true
		}
	}
	return false
}

// fieldCube reports whether cube i, at (dx, dy) from the player, is one
// the field is measured by: not a player's cube, and not one the ball
// holds (interacting within ballReach), which moves with the player.
func fieldCube(m *viewmodel.View, i int, dx, dy float64) bool {
	c := &m.Cubes[i]
	if i == m.Player || c.Player {
		return false
	}
	return !c.Interacting || math.Hypot(dx, dy) >= ballReach
}

// direction names the way (dx, dy) points in the view.
func direction(dx, dy float64) string {
	switch {
	case dy > 0 && math.Abs(dy) >= math.Abs(dx)*2:
		return "ahead"
	case dy < 0 && math.Abs(dy) >= math.Abs(dx)*2:
		return "behind"
	case dx > 0 && math.Abs(dx) >= math.Abs(dy)*2:
		return "to the right"
	case dx < 0 && math.Abs(dx) >= math.Abs(dy)*2:
		return "to the left"
	}
	ns, ew := "ahead", "right"
	if dy < 0 {
		ns = "behind"
	}
	if dx < 0 {
		ew = "left"
	}
	return ns + " and to the " + ew
}
