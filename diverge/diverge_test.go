package diverge

import (
	"testing"

	"netcubes/cubes"
	"netcubes/physics"
)

func smallWorld(t *testing.T) *cubes.World {
	t.Helper()
	cfg := cubes.DefaultConfig()
	cfg.GridSide = 6
	w, err := cubes.NewWorld(cfg, physics.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestNoiseRoundsMovingCubesOnly: float noise puts every moving cube's
// position on the float32 grid and leaves resting cubes where they are.
func TestNoiseRoundsMovingCubesOnly(t *testing.T) {
	w := smallWorld(t)
	for range 30 {
		w.Step(cubes.Input{Up: true})
	}
	before := w.States(nil)
	Noise.AfterStep(w)
	moved := 0
	for i, c := range w.States(nil) {
		awake := w.Physics().IsAwake(w.BodyID(i))
		for k := range c.Position {
			if awake && c.Position[k] != float64(float32(before[i].Position[k])) {
				t.Fatalf("cube %d: %v not rounded from %v", i, c.Position, before[i].Position)
			}
		}
		if !awake && c.Position != before[i].Position {
			t.Errorf("resting cube %d moved", i)
		}
		if c.Position != before[i].Position {
			moved++
		}
	}
	if moved == 0 {
		t.Error("float noise changed nothing")
	}
	Off.AfterStep(w)
	Machine.AfterStep(w)
}

// TestMachineWorld: another machine is a copy of the world at its frame
// whose solver runs one substep fewer; the same machine is the world
// itself.
func TestMachineWorld(t *testing.T) {
	w := smallWorld(t)
	for range 20 {
		w.Step(cubes.Input{Up: true})
	}
	server := w.Physics().Config().Substeps
	for _, m := range []Mode{Off, Noise} {
		if got, err := World(w, m, server); err != nil || got != w {
			t.Errorf("%s: a new world (%v)", m, err)
		}
	}
	m, err := World(w, Machine, server)
	if err != nil || m == w {
		t.Fatalf("another machine: %v", err)
	}
	if m.Physics().Config().Substeps != server-1 || m.Frame() != w.Frame() {
		t.Errorf("another machine: %d substeps at frame %d, want %d at %d", m.Physics().Config().Substeps, m.Frame(), server-1, w.Frame())
	}
	for i := range w.NumCubes() {
		if m.Cube(i) != w.Cube(i) {
			t.Fatalf("cube %d differs in the copy", i)
		}
	}
	back, err := World(m, Off, server)
	if err != nil || back.Physics().Config().Substeps != server {
		t.Errorf("back to the same machine: %v", err)
	}
	for m := Off; m < NumModes; m++ {
		if m.Next(1).Next(-1) != m || m.String() == "unknown" || m.describe() == "" {
			t.Errorf("mode %d: next/prev, name %q", m, m)
		}
	}
}
