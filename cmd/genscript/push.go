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
// for 10 s, by running into it from behind again and again (cubes.Rammer);
// then, for 10 s, player 2 is the push bot (cubes.BotPush), which chases
// player 1 and runs into it, as `-bots push` does live. The pushed player
// holds nothing.
const (
	ramTicks = 600
	botTicks = 600
)

// ramGoal is where player 1 shoves player 2 toward.
var ramGoal = mgl64.Vec3{30, 0, 0}

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
	r := cubes.NewRammer(ramGoal)
	for t := range ramTicks {
		step(&cubes.Inputs{r.Input(t, pos(0), pos(1))})
	}
	rest(60)
	fmt.Fprintf(log, "genscript: player 1 shoved player 2 %.1f m: (%.1f, %.1f) → (%.1f, %.1f)\n",
		pos(1).Sub(from).Len(), from[0], from[1], pos(1)[0], pos(1)[1])
	from = pos(0)
	bot := cubes.NewBot(cubes.BotPush)
	for range botTicks {
		var ins cubes.Inputs
		ins[1] = bot.Input(w, 1)
		step(&ins)
	}
	rest(120)
	fmt.Fprintf(log, "genscript: the push bot shoved player 1 %.1f m: (%.1f, %.1f) → (%.1f, %.1f)\n",
		pos(0).Sub(from).Len(), from[0], from[1], pos(0)[0], pos(0)[1])
	_, err = rec.Script().WriteTo(out)
	return err
}
