package authority

import (
	"github.com/go-gl/mathgl/mgl64"
)

// cheat is the cheating bot's machine lying about the cubes it owns: every
// CheatEvery ticks it lifts one of them CheatLift metres and flings it at
// CheatSpeed, in its own world, which is what it then sends. With
// authority the lie is the truth for everyone else, unless the host
// judges it implausible (host.take): the lesson of "it invites cheating".
func (st *Strategy) cheat(f int) {
	if f-st.flung < st.cfg.CheatEvery {
		return
	}
	m := &st.m
	best := -1
	for i, o := range m.t.owner {
		if o == m.me && i != m.own {
			best = i
			break
		}
	}
	if best < 0 {
		return
	}
	st.flung = f
	c := m.w.Cube(best)
	c.Position = c.Position.Add(mgl64.Vec3{0, 0, st.cfg.CheatLift})
	c.LinearVelocity = mgl64.Vec3{st.cfg.CheatSpeed * 0.6, st.cfg.CheatSpeed * 0.6, st.cfg.CheatSpeed * 0.5}
	if m.w.SetCube(best, c) == nil {
		m.stats.Cheats++
		st.lie = best // sent first, this tick
	}
}
