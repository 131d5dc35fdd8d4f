// Package diverge makes a client's world differ from the server's, the way
// real clients do, for the strategies whose clients simulate (state sync,
// the 2004 prediction). netcubes' solver is bit-exact on both sides, so a
// client that simulates the same inputs from the same state never goes
// wrong, and the corrections, replays and pops the articles explain never
// show. Real clients diverge: another CPU, another compiler, another order
// of a contact event. Two ways to say so:
//
//   - Noise: after each step the client rounds the position of every
//     moving cube to float32 (a change of about a micrometre at the
//     scene's distances), as a build that kept positions in single
//     precision would. Tiny, and chaotic contacts make it grow.
//   - Machine: the client's solver runs one substep fewer than the
//     server's, as a client built with another iteration count would:
//     every moving contact comes out a little differently, every step.
//
// Everything here is deterministic: the same run diverges the same way.
package diverge

import (
	"fmt"

	"netcubes/cubes"
	"netcubes/strategy"
)

// Mode is how the client's world differs from the server's.
type Mode uint8

const (
	// Off: the client simulates exactly as the server does.
	Off Mode = iota
	// Noise: moving cubes' positions rounded to float32 after each step.
	Noise
	// Machine: one solver substep fewer than the server's.
	Machine
	// NumModes counts the modes.
	NumModes
)

var modeNames = [...]string{"off", "float noise", "another machine"}

// FlagNames are the values of a -diverge flag, in Mode order.
var FlagNames = []string{"off", "noise", "machine"}

// String names the mode as the HUD shows it.
func (m Mode) String() string {
	if m < NumModes {
		return modeNames[m]
	}
	return "unknown"
}

// describe is the mode's one line for the HUD: what differs on the client.
func (m Mode) describe() string {
	switch m {
	case Noise:
		return "the client rounds moving cubes' positions to float32 after each step (about 1 µm)"
	case Machine:
		return "the client's solver runs one substep fewer than the server's"
	}
	return "the client simulates exactly as the server"
}

// Valid reports whether m is a mode.
func (m Mode) Valid() bool { return m < NumModes }

// Next is the mode after m (dir +1) or before it (−1), wrapping.
func (m Mode) Next(dir int) Mode {
	n := int(NumModes)
	return Mode((int(m) + dir%n + n) % n)
}

// AfterStep is what the mode does to the client's world after each step:
// Noise rounds the moving cubes' positions; the others nothing (Machine
// acts through the world's solver: World).
func (m Mode) AfterStep(w *cubes.World) {
	if m != Noise {
		return
	}
	ph := w.Physics()
	for i := range w.NumCubes() {
		if !ph.IsAwake(w.BodyID(i)) {
			continue // a resting cube is where both sides left it
		}
		c := w.Cube(i)
		p := c.Position
		for k := range p {
			p[k] = float64(float32(p[k]))
		}
		if p == c.Position {
			continue
		}
		c.Position = p
		// A rounded position is finite and in bounds: SetCube cannot fail.
		_ = w.SetCube(i, c)
	}
}

// Substeps is the solver substeps a client of mode m runs where the
// server runs server.
func (m Mode) Substeps(server int) int {
	if m == Machine {
		return max(server-1, 1)
	}
	return server
}

// World returns w, or a copy of it whose solver runs the substeps of mode
// m, when w's do not: the same cubes in the same states at the same frame.
// Called when the mode changes; the copy is a new world (its sleeping and
// rest timers start over, as a client that just joined).
func World(w *cubes.World, m Mode, serverSubsteps int) (*cubes.World, error) {
	pc := w.Physics().Config()
	want := m.Substeps(serverSubsteps)
	if pc.Substeps == want {
		return w, nil
	}
	pc.Substeps = want
	nw, err := cubes.NewWorld(w.Config(), pc)
	if err != nil {
		return nil, fmt.Errorf("diverge: %w", err)
	}
	if err := nw.SetStates(w.States(nil)); err != nil {
		return nil, fmt.Errorf("diverge: %w", err)
	}
	nw.SetFrame(w.Frame())
	return nw, nil
}

// Key cycles the divergence, in every strategy that has the setting (one
// key, the same meaning: state sync's right, the 2004 client).
const Key = "D"

// Flag is -diverge, shared by the strategies that have the setting (one
// flag, the same usage: the app defines it once); set applies the mode.
func Flag(set func(Mode)) strategy.Flag {
	return strategy.ChoiceFlag("diverge", "the client's machine in state sync and prediction (2004), the players' machines in distributed authority: off (the same), noise (float32 positions) or machine (one solver substep fewer)",
		FlagNames, func(i int) { set(Mode(i)) })
}

// Control is the key that cycles the mode (off, float noise, another
// machine) of the machine named whose ("the client's"): get reads the
// setting, set applies one.
func Control(whose string, get func() Mode, set func(Mode)) strategy.Control {
	return strategy.Control{Key: Key, Label: "divergence",
		Help:   whose + " machine: the same / float noise / another solver",
		Action: strategy.Cycle,
		Value:  func() string { return get().String() },
		Do:     func(dir int) { set(get().Next(dir)) }}
}
