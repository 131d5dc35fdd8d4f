package physics

// Scenes shared by the tests and benchmarks: the netcubes world (a 30×30
// grid of 0.4 m cubes at 1 m spacing plus the 1.5 m player), towers,
// pyramids, the katamari pile, and a state quantizer like the network's.

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

const (
	cubeHalf   = 0.2
	playerHalf = 0.75
	gridSide   = 30
)

func newWorld(tb testing.TB, cfg Config) *World {
	tb.Helper()
	w, err := NewWorld(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

func addCube(tb testing.TB, w *World, half float64, pos mgl64.Vec3) BodyID {
	tb.Helper()
	id, err := w.AddBox(BoxDef{
		HalfExtents: mgl64.Vec3{half, half, half},
		Density:     DefaultDensity,
		Position:    pos,
	})
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

// gridWorld builds the netcubes world: the player (body 0) at playerPos and
// 900 cubes resting on the ground in a 30×30 grid at 1 m spacing centred
// on the origin.
func gridWorld(tb testing.TB, cfg Config, playerPos mgl64.Vec3) *World {
	tb.Helper()
	w := newWorld(tb, cfg)
	addCube(tb, w, playerHalf, playerPos)
	for y := 0; y < gridSide; y++ {
		for x := 0; x < gridSide; x++ {
			p := mgl64.Vec3{float64(x) - 14.5, float64(y) - 14.5, cubeHalf}
			addCube(tb, w, cubeHalf, p)
		}
	}
	return w
}

// settle steps until every body sleeps (or maxSteps pass) and returns the
// steps taken.
func settle(w *World, maxSteps int) int {
	for i := 0; i < maxSteps; i++ {
		w.Step()
		if w.Stats().AwakeBodies == 0 {
			return i + 1
		}
	}
	return maxSteps
}

// restingGrid returns the netcubes world with the player dropped onto the
// grid centre from a small height, stepped until everything sleeps.
func restingGrid(tb testing.TB) *World {
	tb.Helper()
	w := gridWorld(tb, DefaultConfig(), mgl64.Vec3{0, 0, 2})
	if n := settle(w, 60*60); n == 60*60 {
		tb.Fatalf("grid did not fall asleep in 60 s: %d awake", w.Stats().AwakeBodies)
	}
	return w
}

// katamariPull applies the game's katamari force: cubes between 0.2 and
// 1.8 m from the player's centre are pulled towards it with acceleration
// 200/d², capped at 2000 m/s², times the cube's mass. Returns how many
// cubes were pulled. It uses the package's FMA-free helpers rather than
// mgl64's, so that its forces, too, are the same bits on every CPU (the
// determinism tests compare builds).
func katamariPull(w *World, player BodyID) int {
	pc := toVec(w.State(player).Position)
	n := 0
	for i := 0; i < w.bodyCount(); i++ {
		id := BodyID(i)
		if id == player {
			continue
		}
		d := sub(toVec(w.State(id).Position), pc)
		dist := length(d)
		if dist < 0.2 || dist > 1.8 {
			continue
		}
		a := math.Min(200/float64(dist*dist), 2000)
		f := scale(d, -float64(a*w.Mass(id))/dist)
		if err := w.ApplyForce(id, f.mgl()); err != nil {
			panic(err)
		}
		n++
	}
	return n
}

// katamariWorld builds the pile scene: the netcubes world in which the
// `pile` cubes nearest the centre have been moved into a loose ball
// around the player (resting on the ground at the centre), the rest of the
// grid asleep. It then runs `warm` steps of pull so the ball forms.
func katamariWorld(tb testing.TB, pile, warm int) (*World, BodyID) {
	tb.Helper()
	w := gridWorld(tb, DefaultConfig(), mgl64.Vec3{0, 0, playerHalf})
	player := BodyID(0)
	// Lattice sites around the player centre, nearest first, skipping the
	// player's own volume and the ground.
	centre := mgl64.Vec3{0, 0, 1.6}
	if err := w.SetState(player, State{Position: centre, Orientation: mgl64.QuatIdent()}); err != nil {
		tb.Fatal(err)
	}
	type site struct {
		p mgl64.Vec3
		d float64
	}
	var sites []site
	const step = 0.45
	for z := -6; z <= 6; z++ {
		for y := -6; y <= 6; y++ {
			for x := -6; x <= 6; x++ {
				p := centre.Add(mgl64.Vec3{float64(x) * step, float64(y) * step, float64(z) * step})
				if p[2] < cubeHalf+0.01 {
					continue
				}
				in := math.Abs(p[0]-centre[0]) < playerHalf+cubeHalf+0.03 &&
					math.Abs(p[1]-centre[1]) < playerHalf+cubeHalf+0.03 &&
					math.Abs(p[2]-centre[2]) < playerHalf+cubeHalf+0.03
				if in {
					continue
				}
				sites = append(sites, site{p, p.Sub(centre).Len()})
			}
		}
	}
	// Sort sites by distance (insertion sort keeps it dependency-free and
	// stable).
	for i := 1; i < len(sites); i++ {
		for j := i; j > 0 && sites[j].d < sites[j-1].d; j-- {
			sites[j], sites[j-1] = sites[j-1], sites[j]
		}
	}
	// The grid cubes nearest the centre move to the sites.
	type cube struct {
		id BodyID
		d  float64
	}
	var cubes []cube
	for i := 1; i < w.bodyCount(); i++ {
		p := w.State(BodyID(i)).Position
		cubes = append(cubes, cube{BodyID(i), math.Hypot(p[0], p[1])})
	}
	for i := 1; i < len(cubes); i++ {
		for j := i; j > 0 && cubes[j].d < cubes[j-1].d; j-- {
			cubes[j], cubes[j-1] = cubes[j-1], cubes[j]
		}
	}
	for k := 0; k < pile; k++ {
		s := State{Position: sites[k].p, Orientation: mgl64.QuatIdent()}
		if err := w.SetState(cubes[k].id, s); err != nil {
			tb.Fatal(err)
		}
	}
	for i := 0; i < warm; i++ {
		katamariPull(w, player)
		w.Step()
	}
	return w, player
}

// pileCount counts cubes within r of the player's centre.
func pileCount(w *World, player BodyID, r float64) int {
	pc := w.State(player).Position
	n := 0
	for i := 0; i < w.bodyCount(); i++ {
		if BodyID(i) != player && w.State(BodyID(i)).Position.Sub(pc).Len() < r {
			n++
		}
	}
	return n
}

// quantizeState rounds a state the way the network's "quantize both sides"
// mode does: positions to 1/4096 m, the orientation through 15-bit
// smallest three (drop the largest component, quantize the other three in
// ±1/√2 to 15 bits, rebuild the largest from unit length, renormalize).
// Velocities are left as they are. (The real quantizer lives in package wire.)
func quantizeState(s State) State {
	for k := 0; k < 3; k++ {
		s.Position[k] = math.Floor(float64(s.Position[k]*4096)+0.5) / 4096
	}
	q := [4]float64{s.Orientation.W, s.Orientation.V[0], s.Orientation.V[1], s.Orientation.V[2]}
	largest := 0
	for i := 1; i < 4; i++ {
		if math.Abs(q[i]) > math.Abs(q[largest]) {
			largest = i
		}
	}
	if q[largest] < 0 {
		for i := range q {
			q[i] = -q[i]
		}
	}
	const bound = math.Sqrt2 / 2
	const maxInt = 1<<15 - 1
	sum := 0.0
	for i := 0; i < 4; i++ {
		if i == largest {
			continue
		}
		x := math.Max(-bound, math.Min(bound, q[i]))
		n := math.Floor(float64((x+bound)/(2*bound)*maxInt) + 0.5)
		q[i] = float64(n/maxInt*2*bound) - bound
		sum += float64(q[i] * q[i])
	}
	q[largest] = math.Sqrt(math.Max(0, 1-sum))
	l := math.Sqrt(float64(q[0]*q[0]) + float64(q[1]*q[1]) + float64(q[2]*q[2]) + float64(q[3]*q[3]))
	for i := range q {
		q[i] /= l
	}
	s.Orientation = mgl64.Quat{W: q[0], V: mgl64.Vec3{q[1], q[2], q[3]}}
	return s
}

// quantizeWorld sets every body to its quantized state.
func quantizeWorld(tb testing.TB, w *World) {
	for i := 0; i < w.bodyCount(); i++ {
		id := BodyID(i)
		if err := w.SetState(id, quantizeState(w.State(id))); err != nil {
			tb.Fatal(err)
		}
	}
}

// maxPlayerPenetration returns how deep (m) any cube corner lies inside
// the player box.
func maxPlayerPenetration(w *World, player BodyID) float64 {
	ps := w.State(player)
	pr := rotationMatrix(fromMgl(ps.Orientation))
	he := w.halfExtents(player)
	worst := 0.0
	for i := 0; i < w.bodyCount(); i++ {
		id := BodyID(i)
		if id == player {
			continue
		}
		s := w.State(id)
		if s.Position.Sub(ps.Position).Len() > 2.5 {
			continue
		}
		r := rotationMatrix(fromMgl(s.Orientation))
		e := w.halfExtents(id)
		for k := 0; k < 8; k++ {
			v := s.Position
			for a := 0; a < 3; a++ {
				sgn := -1.0
				if k&(1<<a) != 0 {
					sgn = 1
				}
				v = v.Add(r.c[a].mgl().Mul(sgn * e[a]))
			}
			local := mulMTV(&pr, toVec(v.Sub(ps.Position)))
			depth := math.Inf(1)
			for a := 0; a < 3; a++ {
				depth = math.Min(depth, he[a]-math.Abs(local.comp(a)))
			}
			worst = math.Max(worst, depth)
		}
	}
	return worst
}

// maxSpeed returns the largest linear speed of any body except skip.
func maxSpeed(w *World, skip BodyID) float64 {
	m := 0.0
	for i := 0; i < w.bodyCount(); i++ {
		if BodyID(i) == skip {
			continue
		}
		m = math.Max(m, w.State(BodyID(i)).LinearVelocity.Len())
	}
	return m
}

// rotationAngle returns the angle (rad) of the rotation between two unit
// quaternions.
func rotationAngle(a, b mgl64.Quat) float64 {
	d := math.Abs(a.W*b.W + a.V.Dot(b.V))
	return 2 * math.Acos(math.Min(1, d))
}
