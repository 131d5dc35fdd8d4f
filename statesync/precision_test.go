package statesync

import (
	"testing"

	"netcubes/geom"
	"netcubes/link"
	"netcubes/wire"
)

// TestStateSyncCoarsePrecisionPops: the article's first precision (512 per
// metre, 9-bit orientations) under "quantize both sides" makes a held ball
// pop: every tick the grid pushes its cubes into each other and the solver
// pushes them out, seconds after the ball at 4,096 per metre and 15 bits
// has come to rest. Counted on the left world (both sides quantize alike,
// so the right is the same) over the last 3 s of a 5 s hold: the
// cube-ticks that moved more than 1 mm, and the largest one-tick move.
func TestStateSyncCoarsePrecisionPops(t *testing.T) {
	t.Parallel() // two session runs of their own
	const from = holdFrom
	run := func(coarse bool) (moves int, largest float64) {
		s, st := stateSyncSession(t, link.Config{}, 6)
		set := st.Settings()
		set.Coarse = coarse
		st.SetSettings(set)
		sc := scenario(t, holdScenario)
		var h holdCount
		for f := 0; f < sc.Length; f++ {
			s.Step(sc.InputAt(f))
			h.add(s.Left(), f >= from)
		}
		moves, largest = h.moves, h.largest
		if st.snd.quant.coarse != coarse {
			t.Errorf("the left's quantizer ran coarse=%v", st.snd.quant.coarse)
		}
		return moves, largest
	}
	fine, fineMax := run(false)
	coarse, coarseMax := run(true)
	t.Logf("held ball, last %d s: 4,096/15-bit %d cube-ticks moved > 1 mm (largest %.2f mm); 512/9-bit %d (largest %.2f mm)",
		(holdLength(t)-from)/wire.TicksPerSecond, fine, 1000*fineMax, coarse, 1000*coarseMax)
	if coarse < 10*(fine+10) {
		t.Errorf("512/9-bit: %d moves > 1 mm against %d at 4,096/15-bit: the coarse grid should keep the held ball popping", coarse, fine)
	}
}

func holdLength(t *testing.T) int { return scenario(t, holdScenario).Length }

// TestCoarseGrid: the coarse grid's positions are every 8th point of the
// fine grid, and its orientations requantize to the same code (but at a
// tie for the largest component), so the fine fields carry them;
// velocities are the fine grid's.
func TestCoarseGrid(t *testing.T) {
	s, _ := stateSyncSession(t, link.Config{}, 8)
	sc := scenario(t, ballScenario)
	for f := 0; f < 150; f++ {
		s.Step(sc.InputAt(f))
	}
	for i := range s.Left().NumCubes() {
		c := s.Left().Cube(i)
		q := quantizeCube(&c, true)
		for k := range q.Position {
			if q.Position[k]%coarseStep != 0 {
				t.Fatalf("cube %d: position %v off the 512 grid", i, q.Position)
			}
		}
		// Requantized, the same grid point; where two components tie
		// for largest, smallest three may pick the other one, a
		// neighbouring point of the 9-bit grid (the quantizers keep a
		// cube's code while it does not move, so both sides agree).
		back := stateFromQuantized(&q, false)
		again := quantizeCube(&back, true)
		twice := stateFromQuantized(&again, false)
		if again.Position != q.Position || again.Orientation.Largest == q.Orientation.Largest && again != q ||
			geom.AngleBetween(twice.Orientation, back.Orientation) > 0.006 {
			t.Fatalf("cube %d: the coarse state requantizes to %+v, not %+v", i, again, q)
		}
		if fine := quantizeCube(&c, false); fine.LinearVelocity != q.LinearVelocity || fine.AngularVelocity != q.AngularVelocity {
			t.Fatalf("cube %d: coarse velocities differ from the fine ones", i)
		}
	}
}
