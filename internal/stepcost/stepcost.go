// Package stepcost measures what a whole world costs to simulate, for the
// bench's "worlds per tick" section and the browser build's page hook: the
// katamari gather phase's step time (one world, cubes.Spiral steering),
// the cost of a step when everything is asleep, and the cost of a save and
// a restore (the ring that rollback and the 2004 client's replay keep).
//
// It only reads a clock around calls into the simulation; nothing it
// measures feeds back into a world. The clock is the caller's: the bench
// gives the thread's CPU time (internal/cputime: on a shared machine the
// wall time of a step grows with every other process), the browser the
// wall clock, which is what it has.
package stepcost

import (
	"slices"
	"time"

	"netcubes/cubes"
	"netcubes/physics"
)

// Clock returns a monotonic time; only differences are used.
type Clock func() time.Duration

// TickMs is the budget of one 60 Hz tick, in milliseconds.
const TickMs = 1000.0 / 60

// Gather is the gather phase's figures.
type Gather struct {
	Steps    []float64 // ms of each gather step (frames Drop..Length-1), in order
	Ball     int       // cubes within cubes.BallRadius of the player at the end
	SaveMs   float64   // median of one Save of the world, taken through the gather
	RestMs   float64   // median of one Restore (a rewind of saveEvery steps)
	SaveSize int       // bytes a save holds at the end
}

// Median is the median step, ms.
func (g *Gather) Median() float64 { return Percentile(g.Steps, 0.5) }

// P95 is the 95th percentile step, ms.
func (g *Gather) P95() float64 { return Percentile(g.Steps, 0.95) }

// RunGather plays the gather phase once with the presenter deciding every
// `every` ticks, timing each step; every saveEvery gather steps (0: never)
// it also times a Save and a Restore. The save goes into the Saved that
// held the save of 2 × saveEvery steps before (as a ring reuses its
// oldest), and the restore rewinds to the save of saveEvery steps before
// (as a replay does; the first time, to the save just taken); the present
// is then restored untimed, so the run goes on unchanged. Limit > 0 stops
// after that many ticks from frame 0 (a shorter measurement, the drop
// included).
func RunGather(clock Clock, every, saveEvery, limit int) (Gather, error) {
	w, err := cubes.NewWorld(cubes.DefaultConfig(), physics.DefaultConfig())
	if err != nil {
		return Gather{}, err
	}
	sp := cubes.DefaultSpiral()
	sp.Every = every
	n := sp.Length()
	if limit > 0 {
		n = min(n, limit)
	}
	g := Gather{Steps: make([]float64, 0, n)}
	var saves, rests []float64
	var s1, s2 cubes.Saved
	s, back := &s1, &s2 // the next save goes into s; back holds the one before
	for f := 0; f < n; f++ {
		in := sp.Input(f, w.Cube(cubes.Player).Position)
		t0 := clock()
		w.Step(in)
		t1 := clock()
		if f < sp.Drop {
			continue
		}
		g.Steps = append(g.Steps, ms(t1-t0))
		if saveEvery > 0 && (f-sp.Drop)%saveEvery == 0 {
			t0 = clock()
			w.Save(s)
			t1 = clock()
			to := back
			if !to.Valid() {
				to = s
			}
			if err := w.Restore(to); err != nil {
				return g, err
			}
			t2 := clock()
			if err := w.Restore(s); err != nil { // back to the present, untimed
				return g, err
			}
			saves = append(saves, ms(t1-t0))
			rests = append(rests, ms(t2-t1))
			s, back = back, s
		}
	}
	g.Ball = w.BallSize()
	g.SaveMs, g.RestMs = Percentile(saves, 0.5), Percentile(rests, 0.5)
	if back.Valid() {
		g.SaveSize = back.Bytes()
	}
	return g, nil
}

// Asleep is the cost of stepping a world where nothing moves.
type Asleep struct {
	PhysicsNs float64 // one physics.World.Step, ns
	WorldNs   float64 // one cubes.World.Step with no keys (the game's rules too), ns
	Settled   int     // ticks it took for everything to fall asleep
	Awake     int     // bodies awake at the end (0 unless 1200 ticks were not enough)
}

// RunAsleep drops the player on the grid, lets everything fall asleep (at
// most 1200 ticks), then times reps steps of the physics alone and of the
// whole cubes world.
func RunAsleep(clock Clock, reps int) (Asleep, error) {
	w, err := cubes.NewWorld(cubes.DefaultConfig(), physics.DefaultConfig())
	if err != nil {
		return Asleep{}, err
	}
	var a Asleep
	for a.Settled < 1200 {
		w.Step(cubes.Input{})
		a.Settled++
		if w.Physics().Stats().AwakeBodies == 0 {
			break
		}
	}
	reps = max(reps, 1)
	p := w.Physics()
	t0 := clock()
	for range reps {
		p.Step()
	}
	t1 := clock()
	for range reps {
		w.Step(cubes.Input{})
	}
	t2 := clock()
	a.PhysicsNs = float64(t1-t0) / float64(reps)
	a.WorldNs = float64(t2-t1) / float64(reps)
	a.Awake = p.Stats().AwakeBodies
	return a, nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// Percentile returns the p-quantile (0..1) of xs by the nearest rank (0
// for none).
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}
