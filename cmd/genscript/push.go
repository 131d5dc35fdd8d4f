package main

// The push script (assets/scripts/push.txt): two players shoving each
// other, the pushing-under-lag lesson of the 2004 strategy with several
// players. Steering controllers, like a person at the keyboard, deciding
// every few ticks; recorded open loop, as the katamari script is.
//
//	go run ./cmd/genscript -push > assets/scripts/push.txt

import (
	"fmt"
	"io"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/physics"
)

// The script: player 1 shoves player 2 (who drops 9 m east of it) east
// for 10 s, by running into it from behind again and again; then, for
// 10 s, player 2 is the push bot (cubes.BotPush), which chases player 1
// and runs into it, as `-bots push` does live. The pushed player holds
// nothing.
const (
	ramTicks = 600
	botTicks = 600
)

// ramGoal is where player 1 shoves player 2 toward.
var ramGoal = mgl64.Vec3{30, 0, 0}

// pushSteerEvery is the ticks between two steering decisions (a person's
// reaction time, as the bots').
const pushSteerEvery = 8

// writePush records the push script to out and says on log how far each
// phase moved the pushed player.
func writePush(out io.Writer, log io.Writer) error {
	cfg := cubes.DefaultConfig()
	cfg.Players = 2
	w, err := cubes.NewWorld(cfg, physics.DefaultConfig())
	if err != nil {
		return err
	}
	rec := cubes.NewRecorder("push")
	step := func(ins *cubes.Inputs) {
		rec.AddAll(ins, 2)
		w.StepAll(ins)
	}
	rest := func(n int) {
		for range n {
			step(&cubes.Inputs{})
		}
	}
	pos := func(p int) mgl64.Vec3 { return w.Cube(w.PlayerCube(p)).Position }
	rest(60) // both players land
	from := pos(1)
	var r rammer
	var cur cubes.Input
	for t := range ramTicks {
		if t%pushSteerEvery == 0 {
			cur = r.steer(pos(0), pos(1), ramGoal)
		}
		step(&cubes.Inputs{cur})
	}
	rest(60)
	fmt.Fprintf(log, "genscript: player 1 shoved player 2 %.1f m: (%.1f, %.1f) → (%.1f, %.1f)\n",
		flat(pos(1).Sub(from)).Len(), from[0], from[1], pos(1)[0], pos(1)[1])
	from = pos(0)
	bot := cubes.NewBot(cubes.BotPush)
	for range botTicks {
		var ins cubes.Inputs
		ins[1] = bot.Input(w, 1)
		step(&ins)
	}
	rest(120)
	fmt.Fprintf(log, "genscript: the push bot shoved player 1 %.1f m: (%.1f, %.1f) → (%.1f, %.1f)\n",
		flat(pos(0).Sub(from)).Len(), from[0], from[1], pos(0)[0], pos(0)[1])
	_, err = rec.Script().WriteTo(out)
	return err
}

// rammer is a pusher's state: pushing a resting player is not possible
// in this world (its friction holds it), so a pusher shoves it by running
// into it from a few metres behind and backing off again, as the push bot
// does (it aims beyond the player it chases).
type rammer struct {
	charging  bool
	decisions int // decisions since the charge began
}

// chargeDecisions bounds a charge (12 decisions: about 1.6 s).
const chargeDecisions = 12

// steer is the pusher's keys: to a point 9.5 m behind (a run-up: the hit
// moves the other player only with speed) the pushed player
// (away from the goal), going round it on the side the pusher is on;
// from there, a charge through it toward the goal; after the hit, back.
func (r *rammer) steer(me, it, goal mgl64.Vec3) cubes.Input {
	u := flat(goal.Sub(it))
	if u.Len() < 1e-6 {
		return cubes.Input{}
	}
	u = u.Normalize()
	rel := flat(me.Sub(it))
	along := rel.Dot(u)           // > 0: on the goal's side
	side := rel.Sub(u.Mul(along)) // sideways offset from the push line
	through := it.Add(u.Mul(2))
	if r.charging {
		r.decisions++
		if r.decisions <= chargeDecisions && along < -0.3 {
			return steer(flat(through.Sub(me)))
		}
		r.charging = false
	}
	if along < -8 && side.Len() < 1.2 {
		r.charging, r.decisions = true, 0
		return steer(flat(through.Sub(me)))
	}
	target := it.Sub(u.Mul(9.5))
	if along > -1.5 {
		// In front or beside: go round on this side.
		n := side
		if n.Len() < 1e-3 {
			n = mgl64.Vec3{-u[1], u[0], 0}
		}
		target = it.Add(n.Normalize().Mul(2.5)).Sub(u.Mul(3))
	}
	return steer(flat(target.Sub(me)))
}

// steer holds the arrows closest to direction d (one of eight), or none
// when d is short.
func steer(d mgl64.Vec3) cubes.Input {
	var in cubes.Input
	if d.Len() < 0.3 {
		return in
	}
	const tan22 = 0.41421356
	ax, ay := max(d[0], -d[0]), max(d[1], -d[1])
	if ax > tan22*ay {
		in.Right, in.Left = d[0] > 0, d[0] < 0
	}
	if ay > tan22*ax {
		in.Up, in.Down = d[1] > 0, d[1] < 0
	}
	return in
}

func flat(v mgl64.Vec3) mgl64.Vec3 { return mgl64.Vec3{v[0], v[1], 0} }
