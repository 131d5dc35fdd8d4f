package cubes

import (
	"runtime"
	"testing"

	"netcubes/physics"
)

// TestDeterminismAcrossGOMAXPROCS runs the gather phase of the katamari
// scenario (the spiral presenter, cubes.Spiral) once with GOMAXPROCS=1
// and once with GOMAXPROCS=2 and compares the world's StateHash after
// every frame. The step uses no goroutines today; the test keeps it so:
// work shared between cores (parallel narrowphase or colour-by-colour
// solving, which were measured slower on two shared cores and left out)
// must give the same bits however many threads run it.
func TestDeterminismAcrossGOMAXPROCS(t *testing.T) {
	sp := DefaultSpiral()
	frames := sp.Length()
	if testing.Short() {
		frames = sp.Drop + 300
	}
	run := func(procs int) []uint64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		w, err := NewWorld(DefaultConfig(), physics.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		s := sp
		hashes := make([]uint64, frames)
		for f := range hashes {
			w.Step(s.Input(f, w.Cube(Player).Position))
			hashes[f] = w.StateHash()
		}
		if n := w.BallSize(); frames == sp.Length() && n < minBall {
			t.Errorf("GOMAXPROCS=%d: only %d cubes in the ball", procs, n)
		}
		return hashes
	}
	one, two := run(1), run(2)
	for f := range one {
		if one[f] != two[f] {
			t.Fatalf("frame %d: StateHash %x with GOMAXPROCS=1, %x with 2", f, one[f], two[f])
		}
	}
}
