package physics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The tail kernel (tail.go, tail_amd64.s) must give exactly what the Go
// loop (solveDynamic) gives, as the lane kernel must (lanes_test.go):
// these tests run passes both ways on copies of the pile's solver state,
// unshaken and shaken, over the lanes' tail and over every body–body
// constraint (more constraints, more kinds), and compare every bit.

// compareTail runs pass p from constraint from on, passes times, on two
// copies of w's solver, by the Go loop and by the kernel, and compares
// them.
func compareTail(t testing.TB, w *World, p lanePass, from, passes int) bool {
	t.Helper()
	g, k := cloneSolverWorld(w), cloneSolverWorld(w)
	sw := normalSweep{invH: 480, maxPush: w.cfg.MaxPushOutSpeed, useBias: p.useBias, fresh: p.fresh}
	if p == lanePasses[len(lanePasses)-1] {
		sw.maxPush = 0
	}
	params := makeLaneParams(sw, p.mu, p.warm)
	saved := useTail
	useTail = true
	defer func() { useTail = saved }()
	for range passes {
		g.solveDynamic(sw, p.mu, p.warm, from)
		k.solveTail(sw, p.mu, p.warm, &params, from)
	}
	return diffSolvers(t, &g.sol, &k.sol)
}

// tailStart is where the lanes' tail starts on w's solver.
func tailStart(t testing.TB, w *World) int {
	c := cloneSolverWorld(w)
	saved := useLanes
	useLanes = true
	c.sol.buildLanes()
	useLanes = saved
	if c.sol.lanes.split >= c.sol.dynamic {
		t.Fatal("no tail")
	}
	return c.sol.lanes.split
}

// swapBodies returns a copy of w whose body–body constraints from from on
// have their bodies a and b swapped where swap says: on the pile's tail,
// whose constraints all hold the player cube as body a, the body the
// kernel keeps in its registers from one constraint to the next then
// changes role (a to b, b to a) or keeps role b. (The passes then solve
// another problem, but the Go loop and the kernel must agree on it.)
func swapBodies(w *World, from int, swap func(i int) bool) *World {
	c := cloneSolverWorld(w)
	for i := from; i < c.sol.dynamic; i++ {
		if k := &c.sol.constraints[i]; swap(i) {
			k.a, k.b = k.b, k.a
		}
	}
	return c
}

func TestTailKernelAgainstGo(t *testing.T) {
	if !haveTailKernel {
		t.Skip("no tail kernel on this platform")
	}
	pile := lanePile(t)
	split := tailStart(t, pile)
	r := rand.New(rand.NewPCG(3, 4))
	worlds := []struct {
		name string
		w    *World
		from int
	}{
		{"tail", pile, split},
		{"all", pile, 0},
		{"tail, every other swapped", swapBodies(pile, split, func(i int) bool { return i%2 == 0 }), split},
		{"tail, all swapped", swapBodies(pile, split, func(int) bool { return true }), split},
		{"tail, every third swapped", swapBodies(pile, split, func(i int) bool { return i%3 == 0 }), split},
	}
	for _, tw := range worlds {
		w, from := tw.w, tw.from
		for _, p := range lanePasses {
			if !compareTail(t, w, p, from, 1) || !compareTail(t, w, p, from, 3) {
				t.Fatalf("%s, pass %+v: the kernel differs from the Go loop (unshaken)", tw.name, p)
			}
			for _, amount := range []float64{0.001, 0.1, 3} {
				for range 3 {
					c := cloneSolverWorld(w)
					shake(c, r, amount, false)
					if !compareTail(t, c, p, from, 2) {
						t.Fatalf("%s, pass %+v, shaken by %g: the kernel differs from the Go loop", tw.name, p, amount)
					}
					c = cloneSolverWorld(w)
					shake(c, r, amount, true)
					if !compareTail(t, c, p, from, 1) {
						t.Fatalf("%s, pass %+v, shaken by %g with NaNs: the kernel differs from the Go loop", tw.name, p, amount)
					}
				}
			}
		}
	}
}

// FuzzTailKernel: the tail kernel against the Go loop on the pile shaken
// by the fuzzer's seed and amount, from the fuzzer's constraint on.
func FuzzTailKernel(f *testing.F) {
	if !haveTailKernel {
		f.Skip("no tail kernel on this platform")
	}
	f.Add(uint64(1), 0.1, uint8(0), uint16(0))
	f.Add(uint64(2), 3.0, uint8(2), uint16(150))
	f.Add(uint64(3), 0.0, uint8(3), uint16(190))
	f.Fuzz(func(t *testing.T, seed uint64, amount float64, pass uint8, from uint16) {
		if !(math.Abs(amount) <= 1e3) {
			return
		}
		w := cloneSolverWorld(lanePile(t))
		shake(w, rand.New(rand.NewPCG(seed, 9)), amount, pass&8 != 0)
		p := lanePasses[int(pass)%len(lanePasses)]
		if !compareTail(t, w, p, int(from)%(w.sol.dynamic+1), 1+int(pass>>4)%3) {
			t.Fatalf("pass %+v: the kernel differs from the Go loop", p)
		}
	})
}

// BenchmarkContactTail: one pass over the lanes' tail alone (the pile's
// constraints past the split: the player cube's last contacts, one
// chain), by the Go loop and by the tail kernel.
func BenchmarkContactTail(b *testing.B) {
	for _, p := range []struct {
		name string
		lanePass
	}{{"pushout", lanePasses[1]}, {"relax", lanePasses[2]}} {
		sw := normalSweep{invH: 480, maxPush: 3, useBias: p.useBias, fresh: p.fresh}
		params := makeLaneParams(sw, p.mu, p.warm)
		for _, kernel := range []bool{false, true} {
			name := p.name + "/go"
			if kernel {
				if !haveTailKernel {
					continue
				}
				name = p.name + "/kernel"
			}
			b.Run(name, func(b *testing.B) {
				w := cloneSolverWorld(lanePile(b))
				from := tailStart(b, w)
				saved := useTail
				useTail = kernel
				defer func() { useTail = saved }()
				b.ReportAllocs()
				for b.Loop() {
					w.solveTail(sw, p.mu, p.warm, &params, from)
				}
			})
		}
	}
}

// TestTailPreconditions: the constraints the solver makes are what the
// tail kernel expects (tail.go): 1 to 4 points, two distinct bodies, on
// the pile and on the grid after a blast (every body awake, colliding).
func TestTailPreconditions(t *testing.T) {
	check := func(name string, w *World) {
		s := &w.sol
		if s.dynamic == 0 {
			t.Fatalf("%s: no body–body constraint", name)
		}
		for i, c := range s.constraints[:s.dynamic] {
			if c.count < 1 || c.count > maxManifoldPoints || c.a == c.b || c.a == 0 || c.b == 0 {
				t.Fatalf("%s: constraint %d: %d points, bodies %d and %d", name, i, c.count, c.a, c.b)
			}
		}
	}
	check("pile", lanePile(t))
	w := restingGrid(t)
	blast(t, w)
	for range 5 {
		w.Step()
	}
	check("blast", w)
}
