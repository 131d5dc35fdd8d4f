package cubes

// Design note: a presenter made of code. The built-in katamari script was
// recorded from this controller (cmd/genscript), and the physics bench
// (cmd/bench -physics) drives the world with it live. A recorded script
// replays keys open loop: change the physics and the same keys take the
// player somewhere else. The controller closes the loop the way a person
// at the keyboard does, looking at where the player is and pressing the
// arrows that point at the next waypoint of a spiral, so every engine it
// drives (this one before and after a change, or ODE in tools/odebench,
// which implements the same rule) gathers its ball along the same path.

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Spiral steers the player along an Archimedean spiral through the grid
// with katamari held: the gather phase of the standard scenario.
type Spiral struct {
	Drop   int     // ticks of nothing first, while the player lands (60)
	Gather int     // ticks of steering with katamari held (1080)
	Hold   int     // ticks of katamari held standing still at the end (60)
	R0, R1 float64 // spiral radius at the start and the end of the gather, m (2, 10)
	Laps   float64 // turns of the spiral (2)
	Every  int     // ticks between steering decisions, like a person's reaction time (8)

	cur Input // the keys held since the last decision
}

// DefaultSpiral is the controller the katamari script was recorded from.
func DefaultSpiral() Spiral {
	return Spiral{Drop: 60, Gather: 1080, Hold: 60, R0: 2, R1: 10, Laps: 2, Every: 8}
}

// Length is the number of ticks the controller drives: drop, gather, hold.
func (s *Spiral) Length() int { return s.Drop + s.Gather + s.Hold }

// Input returns the keys for frame f, given the player's position at the
// start of that frame. Frames must be asked for in order from 0 (the held
// keys change only every Every ticks). Past Length it holds nothing.
func (s *Spiral) Input(f int, player mgl64.Vec3) Input {
	g := f - s.Drop
	switch {
	case g < 0 || f >= s.Length():
		return Input{}
	case g >= s.Gather:
		return Input{Katamari: true}
	}
	every := max(s.Every, 1)
	if g%every == 0 {
		// The next waypoint on the spiral around the origin.
		u := float64(g) / float64(s.Gather)
		ang := float64(u*s.Laps) * 2 * math.Pi
		r := s.R0 + float64((s.R1-s.R0)*u)
		target := mgl64.Vec3{r * math.Sin(ang), -r * math.Cos(ang), 0}
		d := target.Sub(mgl64.Vec3{player[0], player[1], 0})
		s.cur = Input{Katamari: true}
		if length(d) > 0.3 {
			// The arrow combination closest to the bearing: one of eight.
			oct := (int(math.Round(math.Atan2(d[1], d[0])/(math.Pi/4))) + 8) % 8
			dx := [8]int{1, 1, 0, -1, -1, -1, 0, 1}[oct]
			dy := [8]int{0, 1, 1, 1, 0, -1, -1, -1}[oct]
			s.cur.Right, s.cur.Left, s.cur.Up, s.cur.Down = dx > 0, dx < 0, dy > 0, dy < 0
		}
	}
	return s.cur
}

// BallRadius is the radius, m, within which cubes count as part of the
// katamari ball: the ball size the physics bench and the script generator
// (cmd/genscript) report.
const BallRadius = 2.5

// BallSize counts the cubes (the player excluded) whose centres lie within
// BallRadius of the player's centre.
func (w *World) BallSize() int {
	centre := w.Cube(Player).Position
	n := 0
	for i := 1; i < w.NumCubes(); i++ {
		if length(w.Cube(i).Position.Sub(centre)) < BallRadius {
			n++
		}
	}
	return n
}
