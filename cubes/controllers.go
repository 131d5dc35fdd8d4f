package cubes

import "github.com/go-gl/mathgl/mgl64"

// Design note: presenters made of code that play with another player: a
// rammer that shoves it, a passer that goes back and forth past it.
//
// The rammer. A player at rest is hard to move in this world (its friction
// is the original demo's, μ ≈ 100), so a player shoves another by running
// into it: from a few metres behind it (on the far side from where it
// should go), through it, and back for another run. The push script was
// recorded from it (cmd/genscript -push), and the bench's "other players"
// table drives the presenter's player with it from what the presenter's
// client draws, as a person at the keyboard of a lagged client would. Like
// the bots, both decide every few ticks and use no trigonometry.

// Rammer steers a player to shove another toward Goal.
type Rammer struct {
	Goal  mgl64.Vec3
	RunUp float64 // how far behind the other player a run starts, m
	Every int     // ticks between decisions (a person's reaction time)

	charging  bool
	decisions int // decisions since the run began
	cur       Input
}

// NewRammer returns a rammer toward goal with a 4 m run-up, deciding every
// 8 ticks.
func NewRammer(goal mgl64.Vec3) Rammer { return Rammer{Goal: goal, RunUp: 4, Every: 8} }

// rammerRunDecisions bounds a run (12 decisions: about 1.6 s).
const rammerRunDecisions = 12

// Input returns the keys at tick t given the shoving player's position me
// and the other player's it. Ticks must be asked for in order.
func (r *Rammer) Input(t int, me, it mgl64.Vec3) Input {
	if t%max(r.Every, 1) != 0 {
		return r.cur
	}
	r.cur = r.decide(me, it)
	return r.cur
}

func (r *Rammer) decide(me, it mgl64.Vec3) Input {
	var in Input
	u := flat(r.Goal.Sub(it))
	if length(u) < 1e-6 {
		return in
	}
	u = normalize(u)
	rel := flat(me.Sub(it))
	along := dot(rel, u)          // > 0: on the goal's side
	side := rel.Sub(u.Mul(along)) // sideways offset from the push line
	through := it.Add(u.Mul(2))
	if r.charging {
		r.decisions++
		if r.decisions <= rammerRunDecisions && along < -0.3 {
			steer(&in, flat(through.Sub(me)))
			return in
		}
		r.charging = false
	}
	if along < -(r.RunUp-1) && length(side) < 1.2 {
		r.charging, r.decisions = true, 0
		steer(&in, flat(through.Sub(me)))
		return in
	}
	target := it.Sub(u.Mul(r.RunUp))
	if along > -1.5 {
		// In front or beside: go round on this side.
		n := side
		if length(n) < 1e-3 {
			n = mgl64.Vec3{-u[1], u[0], 0}
		}
		target = it.Add(normalize(n).Mul(2.5)).Sub(u.Mul(3))
	}
	steer(&in, flat(target.Sub(me)))
	return in
}

// Passer steers a player back and forth past another one that stands
// still, on a line Offset metres to its side (+x), from Span metres on one
// side (+y) to Span on the other: tags on a player passing by, never
// touching (the bench's and the tests' lag-compensation runs). It starts
// at tick Start, after the drop has settled: the players' drop bounces
// them a few metres.
type Passer struct {
	Offset, Span float64
	Start, Every int

	leg int
	cur Input
}

// NewPasser returns a passer 5 m to the side over ±6 m, from tick 240,
// deciding every 8 ticks.
func NewPasser() Passer { return Passer{Offset: 5, Span: 6, Start: 240, Every: 8} }

// Input returns the keys at tick t given the passing player's position me
// and the standing player's it. Ticks must be asked for in order.
func (p *Passer) Input(t int, me, it mgl64.Vec3) Input {
	if t < p.Start || t%max(p.Every, 1) != 0 {
		return p.cur
	}
	y := p.Span
	if p.leg%2 == 1 {
		y = -y
	}
	target := it.Add(mgl64.Vec3{p.Offset, y, 0})
	if d := target[1] - me[1]; d*d < 1 {
		p.leg++
	}
	p.cur = Input{}
	steer(&p.cur, flat(target.Sub(me)))
	return p.cur
}
