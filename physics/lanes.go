package physics

// Design note: the body–body contact passes in vector lanes. On amd64
// with AVX, solveContacts hands the body–body constraints to an assembly
// kernel (lanes_amd64.s) that solves four constraints side by side, one
// in each 64-bit lane of a 256-bit register, with the same operations in
// the same order as the Go loop (solveDynamic), so with the same bits.
// The Go loop stays the portable implementation and the reference
// (TestLaneKernelAgainstGo, FuzzLaneKernel).
//
// Why solving four at once gives the same bits as one after the other:
// a constraint reads and writes only its two bodies (their velocities and
// warm-start sums) and its own points and friction. So what a body ends a
// pass with depends only on the order of the constraints that touch it,
// and any order that keeps it for every body gives the same bits. The
// colours already share no body within a colour, but the katamari ball's
// colouring has a long tail: about 45 colours a step, most with a single
// constraint, the player cube's (every cube of the ball's first layer
// touches it). So the kernel takes the colours up to the last one with two
// constraints or more and groups them by a list schedule (buildLanes): a
// constraint joins a group once the constraints before it on both its
// bodies are in earlier groups, so no two of a group share a body, and
// the long chains go first so that the others fill the lanes beside them.
// The tail after that (the player's last contacts, one after the other,
// and the overflow colour) runs after the kernel, one constraint at a
// time: in a kernel of its own where there is one (tail.go), else in the
// Go loop.

// Within a lane the operations are the Go loop's: adds, subtracts,
// multiplies, divides and square roots round each lane as the scalar
// instruction does, no multiply-add is fused, and maxf/minf (a > b ? a :
// b) are MAXPD/MINPD with the operands in the same order (the instruction
// returns its second operand when the first is not greater, as maxf
// does, for NaNs and signed zeros alike). The Go loop's branches become
// masks: the point count (the points past a lane's count are padding that
// changes nothing), speculative or soft (s > 0), the cone's clamp, and the
// idle skip: a lane whose Go loop would `continue` writes neither its
// bodies nor its friction.
//
// The lanes' data is a copy, laid out lane by lane (lanePoint, laneGroup),
// made once a step after prepareSolver (buildLanes, fillGroup) and
// copied back into the constraints before restitution and storeImpulses
// read them (lanesBack). The ground's constraints stay in the Go loop (solveGround):
// a few a step on the katamari scene.

import (
	"math"
	"unsafe"
)

// The kernel's sweeps are written out for four points a contact: this
// fails to compile if a manifold may hold another number.
var _ = [1]struct{}{}[maxManifoldPoints-4]

// lane4 is one value for each of four lanes.
type lane4 [4]float64

// laneParams is what one pass tells the kernel.
type laneParams struct {
	invH       float64
	negMaxPush float64 // −MaxPushOutSpeed
	mu         float64
	useBias    int64 // push-out (1) or relax (0)
	fresh      int64 // compute the separations (1) or read them (0)
	warm       int64 // relax: collect the next warm start
	friction   int64 // relax: mu > 0
}

// lanes is the solver's lane layout for the current step.
type lanes struct {
	on     bool
	groups []laneGroup
	last   []int32 // per body: its last constraint so far
	next   []int32 // per constraint: the next one on its body a, on its body b (-1: none)
	preds  []int32 // per constraint: how many of the one or two before it are not yet in a group
	level  []int32 // per constraint: the longest chain of constraints from it on
	// The ready constraints (whose predecessors are in groups), queued
	// by level and point count: head and tail per queue, link per
	// constraint.
	head, tail, link []int32
	scratch          laneScratch
	split            int // the constraints before split are in lanes, the others in the Go loop
}

// useLanes says whether the solver uses the lane kernel where there is
// one (tests turn it off to run the Go loop).
var useLanes = haveLaneKernel

var negZero = math.Copysign(0, -1)

// bodyBytes is the size of a solverBody: lanes address bodies by byte
// offset.
const bodyBytes = int64(unsafe.Sizeof(solverBody{}))

// buildLanes lays the body–body constraints out in lane groups after
// prepareSolver (see the file comment): a list schedule over the Go
// loop's order. A constraint is ready once the constraints before it on
// both its bodies are in earlier groups; ready constraints never share a
// body (the later of two would wait for the earlier). Each group takes
// the four ready ones with the longest chain of constraints after them,
// so that the long chains start early and the others fill the lanes
// beside them (then the most points: see the queues below).
//
// It reads the colours' ends from s.counts, as prepareSolver leaves them
// (each colour's end, the colours in order).
func (s *solver) buildLanes() {
	L := &s.lanes
	// The lanes take the colours up to the last one with two constraints
	// or more; the rest, a tail of colours of one constraint each (on
	// the katamari ball, the player cube's contacts past the others'
	// colours) and the overflow colour, run after the kernel
	// (solveTail), as they come after in the Go loop's order. In lanes
	// they would fill one lane of four.
	n, end := 0, int32(0)
	for k := range 64 {
		if s.counts[k]-end >= 2 {
			n = int(s.counts[k])
		}
		end = max(end, s.counts[k])
	}
	L.split = n
	L.on = useLanes && n > 0
	if !L.on {
		return
	}
	cons := s.constraints[:n]
	L.last = resize(L.last, len(s.bodies))
	for i := range L.last {
		L.last[i] = -1
	}
	L.next = resize(L.next, 2*n)
	L.preds = resize(L.preds, n)
	for i := range cons {
		c := &cons[i]
		L.next[2*i], L.next[2*i+1], L.preds[i] = -1, -1, 0
		for _, b := range [2]int32{c.a, c.b} {
			if p := L.last[b]; p >= 0 {
				k := 2 * p
				if cons[p].a != b {
					k++
				}
				L.next[k] = int32(i)
				L.preds[i]++
			}
			L.last[b] = int32(i)
		}
	}
	// The chain after each constraint, walking back.
	L.level = resize(L.level, n)
	for i := n - 1; i >= 0; i-- {
		lv := int32(0)
		for _, x := range L.next[2*i : 2*i+2] {
			if x >= 0 {
				lv = max(lv, L.level[x])
			}
		}
		L.level[i] = lv + 1
	}
	// Ready constraints wait in one queue per level and point count
	// (first in, first out: any order of the ready ones gives the same
	// bits), the longer chains first and, within a level, the more
	// points first: consecutive picks then tend to have as many points,
	// and a group's points up to its largest count are all solved.
	top := int32(0) // the last queue that may hold any
	for _, lv := range L.level {
		top = max(top, lv)
	}
	top = 4*top + 3
	L.head = resize(L.head, int(top)+1)
	L.tail = resize(L.tail, int(top)+1)
	for i := range L.head {
		L.head[i], L.tail[i] = -1, -1
	}
	L.link = resize(L.link, n)
	push := func(i int32) {
		q := 4*L.level[i] + cons[i].count - 1 // the queue
		L.link[i] = -1
		if t := L.tail[q]; t >= 0 {
			L.link[t] = i
		} else {
			L.head[q] = i
		}
		L.tail[q] = i
		top = max(top, q)
	}
	for i := range cons {
		if L.preds[i] == 0 {
			push(int32(i))
		}
	}
	L.groups = L.groups[:0]
	var pick [4]int32
	for {
		k := 0
		for k < 4 {
			for top > 0 && L.head[top] < 0 {
				top--
			}
			if top == 0 {
				break
			}
			i := L.head[top]
			if L.head[top] = L.link[i]; L.head[top] < 0 {
				L.tail[top] = -1
			}
			pick[k] = i
			k++
		}
		if k == 0 {
			break
		}
		if len(L.groups) < cap(L.groups) {
			L.groups = L.groups[:len(L.groups)+1]
		} else {
			L.groups = append(L.groups, laneGroup{})
		}
		s.fillGroup(&L.groups[len(L.groups)-1], pick[:k])
		for _, ci := range pick[:k] {
			for _, x := range L.next[2*ci : 2*ci+2] {
				if x >= 0 {
					if L.preds[x]--; L.preds[x] == 0 {
						push(x)
					}
				}
			}
		}
	}
}

// fillGroup copies constraints cs (at most four) into group g's lanes:
// its header, and its points up to npts, for every lane. A lane without a
// constraint, or without point j, holds zeros there (and a zero mask),
// except iB, which is −0 at a missing point: the kernel's apply adds δ·iB
// with δ = +0 there, which is −0 and changes no value (w + (+0) would
// turn a −0 into +0).
func (s *solver) fillGroup(g *laneGroup, cs []int32) {
	var head, fric [4]unsafe.Pointer
	g.npts = 0
	for l := range 4 {
		if l >= len(cs) {
			g.a[l], g.b[l], g.con[l] = 0, 0, -1
			head[l], fric[l] = unsafe.Pointer(&padZeros), unsafe.Pointer(&padZeros)
			continue
		}
		ci := cs[l]
		c := &s.constraints[ci]
		g.con[l] = ci
		g.a[l], g.b[l] = int64(c.a)*bodyBytes, int64(c.b)*bodyBytes
		g.npts = max(g.npts, int64(c.count))
		head[l], fric[l] = unsafe.Pointer(&c.normal), unsafe.Pointer(&s.friction[ci].t1)
	}
	transposeRun(&g.n[0], &head, headRun)
	transposeRun(&g.t1[0], &fric, frictionRun)
	for j := int32(0); j < int32(g.npts); j++ {
		var src [4]unsafe.Pointer
		p := &g.p[j]
		for l := range 4 {
			src[l], p.mask[l] = unsafe.Pointer(&padPoint), 0
			if l < len(cs) {
				if c := &s.constraints[cs[l]]; j < c.count {
					src[l], p.mask[l] = unsafe.Pointer(&s.cpoints[c.first+j]), ^uint64(0)
				}
			}
		}
		transposeRun(&p.rA[0], &src, pointRun)
	}
}

// The runs of doubles fillGroup transposes, and the sources of a lane
// without a constraint or a point: zeros, and for a point −0 in iB (see
// fillGroup).
const (
	headRun     = 8  // contactConstraint: normal, soft, mA, mB
	frictionRun = 44 // patchFriction: t1 to twist
	pointRun    = 27 // constraintPoint: all of it
)

var (
	padZeros [frictionRun]float64
	padPoint = constraintPoint{iB: vec3{negZero, negZero, negZero}}
)

// transposeRunGo is transposeRun in Go: n doubles from each of the four
// sources become n vectors of four lanes at dst.
func transposeRunGo(dst *lane4, src *[4]unsafe.Pointer, n int) {
	d := unsafe.Slice(dst, n)
	for l, p := range src {
		for i, x := range unsafe.Slice((*float64)(p), n) {
			d[i][l] = x
		}
	}
}

// lanesBack copies what the passes changed in the lanes back into the
// constraints: the points' impulses and separations, and friction.
func (s *solver) lanesBack() {
	if !s.lanes.on {
		return
	}
	for gi := range s.lanes.groups {
		g := &s.lanes.groups[gi]
		for l, ci := range g.con {
			if ci < 0 {
				break
			}
			c, f := &s.constraints[ci], &s.friction[ci]
			f.friction = [2]float64{g.f1[l], g.f2[l]}
			f.twist = g.twist[l]
			for j := range s.cpoints[c.first : c.first+c.count] {
				cp, p := &s.cpoints[c.first+int32(j)], &g.p[j]
				cp.sep, cp.normalImpulse, cp.totalNormalImpulse = p.sep[l], p.impulse[l], p.total[l]
			}
		}
	}
}

// solveLanes is one pass of solveDynamic over the lane groups.
func (w *World) solveLanes(sw normalSweep, mu float64, warm bool) {
	L := &w.sol.lanes
	p := makeLaneParams(sw, mu, warm)
	L.scratch.sign = lane4{negZero, negZero, negZero, negZero}
	laneKernel(L.groups, &w.sol.bodies[0], &p, &L.scratch)
	w.solveTail(sw, mu, warm, &p, L.split)
}

// makeLaneParams is what one pass tells the kernels (the lanes' and the
// tail's).
func makeLaneParams(sw normalSweep, mu float64, warm bool) laneParams {
	p := laneParams{invH: sw.invH, negMaxPush: -sw.maxPush, mu: mu}
	if sw.useBias {
		p.useBias = 1
	}
	if sw.fresh {
		p.fresh = 1
	}
	if warm {
		p.warm = 1
	}
	if mu > 0 {
		p.friction = 1
	}
	return p
}
