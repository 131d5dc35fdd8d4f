package physics

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"unsafe"
)

// The lane kernel (lanes.go, lanes_amd64.s) must give exactly what the Go
// loop (solveDynamic) gives: these tests run one pass both ways on the
// same solver state and compare every bit the pass may write (bodies,
// points, friction). The state comes from a small katamari pile, then is
// shaken at random (velocities, impulses, friction, separations, the
// bodies' motion) so that every branch turns both ways: speculative and
// soft points, idle contacts, the cone's clamp, the twist's clamp.

// lanePile is a world whose solver holds a katamari pile's constraints
// (built once: the fuzz target runs many passes on copies of it).
func lanePile(tb testing.TB) *World {
	pile.Do(func() { pile.w, _ = katamariWorld(tb, 60, 30) })
	if pile.w == nil {
		tb.Fatal("no pile")
	}
	return pile.w
}

var pile struct {
	sync.Once
	w *World
}

// cloneSolverWorld returns a copy of w whose solver can be changed without
// touching w's (the passes read and write only w.sol and read w.cfg).
func cloneSolverWorld(w *World) *World {
	c := *w
	c.sol = solver{
		bodies:      append([]solverBody(nil), w.sol.bodies...),
		constraints: append([]contactConstraint(nil), w.sol.constraints...),
		friction:    append([]patchFriction(nil), w.sol.friction...),
		cpoints:     append([]constraintPoint(nil), w.sol.cpoints...),
		points:      w.sol.points,
		dynamic:     w.sol.dynamic,
		counts:      w.sol.counts,
	}
	return &c
}

// shake changes the solver state at random, keeping every value finite
// unless nan.
func shake(w *World, r *rand.Rand, amount float64, nan bool) {
	s := &w.sol
	u := func() float64 { return (2*r.Float64() - 1) * amount }
	pick := func(p float64) bool { return r.Float64() < p }
	v3 := func() vec3 { return vec3{u(), u(), u()} }
	for i := 1; i < len(s.bodies); i++ {
		b := &s.bodies[i]
		b.v, b.w = add(b.v, v3()), add(b.w, v3())
		b.warmP, b.warmL = v3(), v3()
		if pick(0.5) {
			b.dp = add(b.dp, scale(v3(), 0.01))
			for k := range b.dR.c {
				b.dR.c[k] = add(b.dR.c[k], scale(v3(), 0.01))
			}
		}
		if pick(0.15) {
			// Signed zeros must stay signed: adding a zero turns −0
			// into +0, so a lane that should change nothing must not
			// add one.
			z := vec3{negZero, negZero, negZero}
			b.v, b.w, b.warmP, b.warmL = z, z, z, z
		}
	}
	for i := range s.cpoints {
		cp := &s.cpoints[i]
		switch r.IntN(4) {
		case 0:
			cp.normalImpulse = 0
		case 1:
			cp.normalImpulse = math.Abs(u())
		}
		cp.sep = u() * 0.01
		switch r.IntN(8) {
		case 0:
			cp.sep = 0 // exactly touching: not speculative
		case 1:
			cp.sep = negZero
		}
		if nan && pick(0.02) {
			// A NaN separation: where maxf and minf's operand order
			// shows most (the Go loop's order is kept for NaNs too).
			cp.sep, cp.baseSep = math.NaN(), math.NaN()
		}
		if nan && pick(0.02) {
			cp.normalImpulse = math.NaN()
		}
		cp.baseSep += u() * 0.01
		cp.totalNormalImpulse = math.Abs(u())
	}
	for i := range s.friction {
		f := &s.friction[i]
		switch r.IntN(3) {
		case 0:
			f.friction, f.twist = [2]float64{}, 0
		case 1:
			f.friction = [2]float64{u() * 10, u() * 10}
			f.twist = u()
		case 2:
			f.friction = [2]float64{negZero, 0}
			f.twist = negZero
		}
	}
	// Some contacts made idle or nearly so (no impulse, a gap, bodies at
	// rest with signed zeros): where the kernel's masks, blends and the
	// operand order of its maxima and minima show.
	zero := vec3{negZero, negZero, negZero}
	for ci := range s.constraints[:s.dynamic] {
		if !pick(0.3) {
			continue
		}
		c := &s.constraints[ci]
		for i := c.first; i < c.first+c.count; i++ {
			cp := &s.cpoints[i]
			cp.normalImpulse, cp.sep = 0, 0.05
			cp.baseSep += 0.05
			if pick(0.3) {
				cp.normalImpulse, cp.sep = negZero, 0
			}
		}
		f := &s.friction[ci]
		f.friction, f.twist = [2]float64{}, 0
		if pick(0.3) {
			f.friction, f.twist = [2]float64{1, 1}, negZero
		}
		if pick(0.5) {
			A, B := &s.bodies[c.a], &s.bodies[c.b]
			A.v, A.w, B.v, B.w = zero, zero, zero, zero
		}
	}
}

// diffSolvers reports (as a test error) the first word that differs
// between two solvers' states after a pass, and whether they are the same.
func diffSolvers(t testing.TB, a, b *solver) bool {
	t.Helper()
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || (x != x && y != y)
	}
	for i := range a.bodies {
		x := (*[unsafe.Sizeof(solverBody{}) / 8]float64)(unsafe.Pointer(&a.bodies[i]))
		y := (*[unsafe.Sizeof(solverBody{}) / 8]float64)(unsafe.Pointer(&b.bodies[i]))
		for k := range x {
			if !same(x[k], y[k]) {
				t.Errorf("body %d word %d: Go %v (%#x), lanes %v (%#x)", i, k, x[k], math.Float64bits(x[k]), y[k], math.Float64bits(y[k]))
				return false
			}
		}
	}
	for i := range a.cpoints {
		p, q := &a.cpoints[i], &b.cpoints[i]
		if !same(p.sep, q.sep) || !same(p.normalImpulse, q.normalImpulse) || !same(p.totalNormalImpulse, q.totalNormalImpulse) {
			t.Errorf("point %d: Go sep %v λ %v total %v, lanes %v %v %v", i, p.sep, p.normalImpulse, p.totalNormalImpulse, q.sep, q.normalImpulse, q.totalNormalImpulse)
			return false
		}
	}
	for i := range a.friction {
		f, g := &a.friction[i], &b.friction[i]
		if !same(f.friction[0], g.friction[0]) || !same(f.friction[1], g.friction[1]) || !same(f.twist, g.twist) {
			t.Errorf("friction %d: Go %v %v, lanes %v %v", i, f.friction, f.twist, g.friction, g.twist)
			return false
		}
	}
	return true
}

// lanePass is one pass's settings.
type lanePass struct {
	useBias, fresh, warm bool
	mu                   float64
}

var lanePasses = []lanePass{
	{true, true, false, 0.6},   // the first push-out
	{true, false, false, 0.6},  // the later push-outs
	{false, true, true, 0.6},   // relax, warm start for the next substep
	{false, true, false, 0.6},  // the last relax
	{false, true, true, 0},     // no friction
	{false, true, false, 0},    // no friction, last
	{true, true, false, 0},     // push-out without friction
	{false, true, true, 1e-12}, // friction that almost always slides
	{false, false, true, 0.6},  // relax on the stored separations (not a pass Step makes)
	{true, false, false, 0.6},  // push-out with no speed bound (maxPush 0)
}

// compareLanes runs pass p on two copies of w's solver, one by the Go loop
// and one by the kernel, and compares them. A few passes follow on both,
// so that the kernel also starts from its own results.
func compareLanes(t testing.TB, w *World, p lanePass, passes int) bool {
	t.Helper()
	g, l := cloneSolverWorld(w), cloneSolverWorld(w)
	l.sol.lanes.on = false
	saved := useLanes
	useLanes = true
	l.sol.buildLanes()
	useLanes = saved
	if !l.sol.lanes.on {
		t.Fatal("no lanes built")
	}
	sw := normalSweep{invH: 480, maxPush: w.cfg.MaxPushOutSpeed, useBias: p.useBias, fresh: p.fresh}
	if p == lanePasses[len(lanePasses)-1] {
		sw.maxPush = 0
	}
	for range passes {
		g.solveDynamic(sw, p.mu, p.warm, 0)
		l.solveLanes(sw, p.mu, p.warm)
	}
	l.sol.lanesBack()
	return diffSolvers(t, &g.sol, &l.sol)
}

func TestLaneKernelAgainstGo(t *testing.T) {
	if !haveLaneKernel {
		t.Skip("no lane kernel on this platform")
	}
	w := lanePile(t)
	if w.sol.dynamic < 20 {
		t.Fatalf("only %d body–body constraints", w.sol.dynamic)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range lanePasses {
		if !compareLanes(t, w, p, 1) || !compareLanes(t, w, p, 3) {
			t.Fatalf("pass %+v: the kernel differs from the Go loop (unshaken)", p)
		}
		for _, amount := range []float64{0.001, 0.1, 3} {
			for range 4 {
				c := cloneSolverWorld(w)
				shake(c, r, amount, false)
				if !compareLanes(t, c, p, 2) {
					t.Fatalf("pass %+v, shaken by %g: the kernel differs from the Go loop", p, amount)
				}
				c = cloneSolverWorld(w)
				shake(c, r, amount, true)
				if !compareLanes(t, c, p, 1) {
					t.Fatalf("pass %+v, shaken by %g with NaNs: the kernel differs from the Go loop", p, amount)
				}
			}
		}
	}
}

// TestLaneSchedule: every body–body constraint before the split is in
// exactly one lane,
// no two lanes of a group share a body, and each body meets its
// constraints in the Go loop's order.
func TestLaneSchedule(t *testing.T) {
	w := cloneSolverWorld(lanePile(t))
	saved := useLanes
	useLanes = true
	w.sol.buildLanes()
	useLanes = saved
	if w.sol.lanes.split < w.sol.dynamic/2 {
		t.Fatalf("only %d of %d constraints in lanes", w.sol.lanes.split, w.sol.dynamic)
	}
	seen := make([]bool, w.sol.lanes.split)
	last := make([]int32, len(w.sol.bodies))
	for i := range last {
		last[i] = -1
	}
	for _, g := range w.sol.lanes.groups {
		bodies := map[int32]bool{}
		for l, ci := range g.con {
			if ci < 0 {
				continue
			}
			c := &w.sol.constraints[ci]
			if seen[ci] {
				t.Fatalf("constraint %d twice", ci)
			}
			seen[ci] = true
			if g.a[l] != int64(c.a)*bodyBytes || g.b[l] != int64(c.b)*bodyBytes {
				t.Fatalf("constraint %d: wrong bodies", ci)
			}
			for _, b := range []int32{c.a, c.b} {
				if bodies[b] {
					t.Fatalf("body %d twice in a group", b)
				}
				bodies[b] = true
				if last[b] > ci {
					t.Fatalf("body %d meets constraint %d after %d", b, ci, last[b])
				}
			}
		}
		for l, ci := range g.con {
			if ci >= 0 {
				c := &w.sol.constraints[ci]
				last[c.a], last[c.b] = ci, ci
			}
			_ = l
		}
	}
	for ci, ok := range seen {
		if !ok {
			t.Fatalf("constraint %d in no lane", ci)
		}
	}
}

// TestKernelsSameWorld: the katamari pile stepped with and without each
// assembly kernel (the lanes; the tail, with the lanes on) ends in the
// same state, bit for bit.
func TestKernelsSameWorld(t *testing.T) {
	for _, k := range []struct {
		name string
		have bool
		use  *bool
	}{
		{"lanes", haveLaneKernel, &useLanes},
		{"tail", haveTailKernel, &useTail},
	} {
		t.Run(k.name, func(t *testing.T) {
			if !k.have {
				t.Skip("no such kernel on this platform")
			}
			run := func(on bool) uint64 {
				saved := *k.use
				*k.use = on
				defer func() { *k.use = saved }()
				w, _ := katamariWorld(t, 60, 40)
				return w.StateHash()
			}
			if a, b := run(false), run(true); a != b {
				t.Fatalf("state hash %#x with the Go loop, %#x with the %s kernel", a, b, k.name)
			}
		})
	}
}

// TestLaneLayout: the kernel addresses a body's fields as runs of doubles
// (v, w, warmP and warmL one after the other, and dp and dR).
func TestLaneLayout(t *testing.T) {
	var b solverBody
	off := func(p unsafe.Pointer) uintptr { return uintptr(p) - uintptr(unsafe.Pointer(&b)) }
	v := off(unsafe.Pointer(&b.v))
	if off(unsafe.Pointer(&b.w)) != v+24 || off(unsafe.Pointer(&b.warmP)) != v+48 ||
		off(unsafe.Pointer(&b.warmL)) != v+72 || off(unsafe.Pointer(&b.dR)) != off(unsafe.Pointer(&b.dp))+24 {
		t.Fatal("solverBody's fields moved: the lane kernel reads them as runs")
	}
}

// TestLaneRuns: fillGroup copies three runs of doubles by transposing
// them; each must be one run, in the same order, on both sides.
func TestLaneRuns(t *testing.T) {
	var c contactConstraint
	var f patchFriction
	var cp constraintPoint
	var g laneGroup
	var p lanePoint
	runs := []struct {
		name          string
		first, last   uintptr // the run's first and last fields' offsets
		lfirst, llast uintptr // the same in the lanes
		n             int     // the run's length in doubles
	}{
		{"contact", unsafe.Offsetof(c.normal), unsafe.Offsetof(c.mB), unsafe.Offsetof(g.n), unsafe.Offsetof(g.mB), headRun},
		{"friction", unsafe.Offsetof(f.t1), unsafe.Offsetof(f.twist), unsafe.Offsetof(g.t1), unsafe.Offsetof(g.twist), frictionRun},
		{"point", unsafe.Offsetof(cp.rA), unsafe.Offsetof(cp.totalNormalImpulse), unsafe.Offsetof(p.rA), unsafe.Offsetof(p.total), pointRun},
	}
	for _, r := range runs {
		if r.last-r.first != uintptr(8*(r.n-1)) || r.llast-r.lfirst != uintptr(32*(r.n-1)) {
			t.Errorf("%s: the run of %d doubles moved (fields added or reordered?)", r.name, r.n)
		}
	}
	if unsafe.Sizeof(cp) != 8*pointRun {
		t.Errorf("constraintPoint is %d bytes, not %d doubles", unsafe.Sizeof(cp), pointRun)
	}
}

// TestTransposeRun: the copy's transpose (assembly on amd64) against its
// Go loop, for every length up to the longest run.
func TestTransposeRun(t *testing.T) {
	var src [4][frictionRun]float64
	for l := range src {
		for i := range src[l] {
			src[l][i] = float64(100*l + i)
		}
	}
	ptrs := [4]unsafe.Pointer{unsafe.Pointer(&src[2]), unsafe.Pointer(&src[0]), unsafe.Pointer(&src[3]), unsafe.Pointer(&src[1])}
	for n := 0; n <= frictionRun; n++ {
		var a, b [frictionRun + 1]lane4
		a[n], b[n] = lane4{7, 7, 7, 7}, lane4{7, 7, 7, 7}
		transposeRun(&a[0], &ptrs, n)
		transposeRunGo(&b[0], &ptrs, n)
		if a != b {
			t.Fatalf("n %d: %v, Go %v", n, a[:n+1], b[:n+1])
		}
	}
}

// FuzzLaneKernel: the kernel against the Go loop on the pile shaken by
// the fuzzer's seed, amount and pass.
func FuzzLaneKernel(f *testing.F) {
	if !haveLaneKernel {
		f.Skip("no lane kernel on this platform")
	}
	f.Add(uint64(1), 0.1, uint8(0))
	f.Add(uint64(2), 3.0, uint8(2))
	f.Add(uint64(3), 0.0, uint8(3))
	f.Fuzz(func(t *testing.T, seed uint64, amount float64, pass uint8) {
		if !(math.Abs(amount) <= 1e3) {
			return
		}
		w := cloneSolverWorld(lanePile(t))
		shake(w, rand.New(rand.NewPCG(seed, 7)), amount, pass&8 != 0)
		p := lanePasses[int(pass)%len(lanePasses)]
		if !compareLanes(t, w, p, 1+int(pass>>4)%3) {
			t.Fatalf("pass %+v: the kernel differs from the Go loop", p)
		}
	})
}

// BenchmarkContactPass: one pass over the pile's body–body constraints,
// by the Go loop and by the lane kernel (the lanes' layout is built once,
// outside the timing; BenchmarkBuildLanes times it).
func BenchmarkContactPass(b *testing.B) {
	for _, p := range []struct {
		name string
		lanePass
	}{{"pushout", lanePasses[1]}, {"relax", lanePasses[2]}} {
		sw := normalSweep{invH: 480, maxPush: 3, useBias: p.useBias, fresh: p.fresh}
		b.Run(p.name+"/go", func(b *testing.B) {
			w := cloneSolverWorld(lanePile(b))
			b.ReportAllocs()
			for b.Loop() {
				w.solveDynamic(sw, p.mu, p.warm, 0)
			}
		})
		if !haveLaneKernel {
			continue
		}
		b.Run(p.name+"/lanes", func(b *testing.B) {
			w := cloneSolverWorld(lanePile(b))
			saved := useLanes
			useLanes = true
			w.sol.buildLanes()
			useLanes = saved
			b.ReportAllocs()
			for b.Loop() {
				w.solveLanes(sw, p.mu, p.warm)
			}
		})
	}
}

// BenchmarkBuildLanes: the lanes' layout of the pile's constraints, made
// once a step, and copied back once a step.
func BenchmarkBuildLanes(b *testing.B) {
	w := cloneSolverWorld(lanePile(b))
	saved := useLanes
	useLanes = true
	defer func() { useLanes = saved }()
	b.ReportAllocs()
	for b.Loop() {
		w.sol.buildLanes()
		w.sol.lanesBack()
	}
}
