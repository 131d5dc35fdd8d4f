package ui

// Off the field: with Z and the arrows held a few seconds the ball rolls
// off the 30 × 30 m grid onto empty floor, and the view shows nothing but
// floor. The simulation is left as it is (the left is the authority, and a
// wall would change every figure the talk relies on); instead each view
// says where the field is, in the view's own directions (the camera looks
// along +y, so +x is right and +y is ahead), and that F5 starts over.

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// fieldHalf is half the field's side, metres: the 30 × 30 grid of cubes 1 m
// apart spans ±14.5 m between centres, ±15 m to its edge.
const fieldHalf = 15.0

// offField says where the field is seen from pos, or ok = false while pos
// is on it (or within a metre of its edge).
func offField(pos mgl64.Vec3) (string, bool) {
	dx := math.Max(math.Abs(pos[0])-fieldHalf, 0) * -sign(pos[0])
	dy := math.Max(math.Abs(pos[1])-fieldHalf, 0) * -sign(pos[1])
	d := math.Hypot(dx, dy)
	if d <= 1 {
		return "", false
	}
	var dir string
	switch {
	case dy > 0 && math.Abs(dy) >= math.Abs(dx)*2:
		dir = "ahead"
	case dy < 0 && math.Abs(dy) >= math.Abs(dx)*2:
		dir = "behind"
	case dx > 0 && math.Abs(dx) >= math.Abs(dy)*2:
		dir = "to the right"
	case dx < 0 && math.Abs(dx) >= math.Abs(dy)*2:
		dir = "to the left"
	default:
		ns, ew := "ahead", "right"
		if dy < 0 {
			ns = "behind"
		}
		if dx < 0 {
			ew = "left"
		}
		dir = ns + " and to the " + ew
	}
	return fmt.Sprintf("off the field: the grid is %.0f m %s · F5 starts over", d, dir), true
}

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}
