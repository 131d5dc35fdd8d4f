package ui

// Design note: Ebitengine calls Update 60 times a second only while
// drawing keeps up: it runs at most 5 Updates per drawn frame to catch up,
// so when one frame takes longer than 5 ticks (83 ms) the simulation falls
// behind real time. That happens on software OpenGL (a virtual display,
// a machine without a GPU driver) with anti-aliasing on: about 3 ticks a
// second at 1080p, a demo that looks broken. The simulation must not pay
// for slow drawing, so the app watches the ticks it reaches per second of
// wall time (the wall clock only decides how to draw, never what is
// simulated) and, when they stay low, takes the cheaper path itself: it
// turns anti-aliasing off and says so, once (F9 turns it back on). If the
// ticks stay low without it, it says that too, once, with what helps.

import "fmt"

// slowTPS is the rate below which a second counts as slow (60 is real
// time; a little below is noise), and slowSeconds how many seconds in a
// row make the app act.
const (
	slowTPS     = 50
	slowSeconds = 3
)

// slowAction is what the app does about slow drawing.
type slowAction int

const (
	slowNothing      slowAction = iota
	slowAntiAliasOff            // turn anti-aliasing off and say why
	slowSay                     // say that drawing holds the simulation back
)

// slowWatch decides from one sample a second of the ticks reached.
type slowWatch struct {
	run      int  // slow seconds in a row
	aaDone   bool // anti-aliasing was turned off by the watch
	saidSlow bool
}

// observe takes the ticks reached in the last second and whether
// anti-aliasing is on, and returns what to do.
func (s *slowWatch) observe(tps float64, antiAlias bool) slowAction {
	if tps >= slowTPS {
		s.run = 0
		return slowNothing
	}
	s.run++
	if s.run < slowSeconds {
		return slowNothing
	}
	s.run = 0
	switch {
	case antiAlias && !s.aaDone:
		s.aaDone = true
		return slowAntiAliasOff
	case !antiAlias && !s.saidSlow:
		s.saidSlow = true
		return slowSay
	}
	return slowNothing
}

// slowNote is what the app says for an action at tps ticks per second.
func slowNote(a slowAction, tps float64) string {
	switch a {
	case slowAntiAliasOff:
		return fmt.Sprintf("drawing is slow here (%.0f ticks/s of 60): smooth edges off, F9 turns them back on", tps)
	case slowSay:
		return fmt.Sprintf("drawing is slow here: the simulation runs at %.0f %% of real time; a smaller window helps", 100*tps/60)
	}
	return ""
}
