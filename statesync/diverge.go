package statesync

import (
	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/geom"
	"netcubes/strategy"
	"netcubes/viewmodel"
)

// Design note: divergence on state sync (package diverge). Both sides run
// the same bit-exact solver, so from step 6 on (quantize both sides) the
// right's world is the left's exactly and an update changes nothing: the
// corrections the article's smoothing hides never happen. With the right
// on another machine they do, and the figures say how many and how large:
// a correction is an applied update that moved the cube more than the
// wire's precision (CorrectionMetres, or CorrectionRadians), a pop one
// that moved it more than PopMetres (the ghost outline's 2 cm). (An
// update always moves a cube a little: it carries the quantized state,
// and the right's world is quantized only before the next step.)
// Quantizing both sides does not save a right with float noise: a
// micrometre crosses a 0.24 mm step of the grid now and then, and the
// pile's contacts make the difference grow (the bench: about as many
// corrections as on another solver).

// CorrectionMetres and CorrectionRadians: an update that moves a cube
// further than this corrects it (4 steps of the 4,096-per-metre grid; a
// smallest-three component's step at 15 bits is 0.1 mrad).
const (
	CorrectionMetres  = 0.001
	CorrectionRadians = 0.002
)

// PopMetres is the correction that counts as a pop: the distance at which
// the ghost outline of the true pose shows.
const PopMetres = 0.02

// divergeControl is D: off, float noise, another machine.
func (st *Strategy) divergeControl() strategy.Control {
	return diverge.Control("the right's", func() diverge.Mode { return st.set.Divergence }, st.setDivergence)
}

// divergeFlag is -diverge (one flag for every strategy with the setting).
func (st *Strategy) divergeFlag() strategy.Flag { return diverge.Flag(st.setDivergence) }

// setDivergence applies divergence mode m to the settings.
func (st *Strategy) setDivergence(m diverge.Mode) {
	s := st.set
	s.Divergence = m
	st.SetSettings(s)
}

// follow makes the right's world the machine the setting says (a new
// world when the solver changes), before it steps.
func (r *stateSyncReceiver) follow(st *Strategy) {
	w, err := diverge.World(r.world, st.set.Divergence, r.substeps)
	if err != nil || w == r.world {
		return // the same machine (a copy of a valid world cannot fail)
	}
	r.world = w
}

// CoarseCorrectionMetres and CoarseCorrectionRadians are the same
// measure on the coarse grid (Settings.Coarse: 512 per metre, 9 bits),
// where an update moves a cube up to about 1.7 mm and 1.4 mrad onto the
// grid even when nothing differs: 4 steps of the 512 grid, about 2 steps
// of 9-bit smallest three.
const (
	CoarseCorrectionMetres  = 0.008
	CoarseCorrectionRadians = 0.006
)

// countCorrection counts an applied update that moved cube i from old.
func (st *Strategy) countCorrection(old, now *cubes.CubeState) {
	d := old.Position.Sub(now.Position).Len()
	limM, limR := CorrectionMetres, CorrectionRadians
	if st.set.Coarse {
		limM, limR = CoarseCorrectionMetres, CoarseCorrectionRadians
	}
	if d <= limM && geom.AngleBetween(old.Orientation, now.Orientation) <= limR {
		return
	}
	st.stats.Corrections++
	if d > PopMetres {
		st.stats.Pops++
	}
}

// divergeFacts leads the facts line while the right diverges, or says the
// corrections whenever there were some.
func (st *Strategy) divergeFacts() string {
	ss := &st.stats
	if st.set.Divergence == diverge.Off && ss.Corrections == 0 {
		return ""
	}
	out := viewmodel.Plural(int(ss.Corrections), "correction") + ", " + viewmodel.Plural(int(ss.Pops), "pop") + " > 2 cm · "
	if st.set.Divergence != diverge.Off {
		out = st.set.Divergence.String() + ": " + out
	}
	return out
}
