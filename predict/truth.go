package predict

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
)

// Design note: the server's history of the players. With several players
// the server keeps, for every frame of the last MaxRewindTicks and more,
// every player's exact state: lag compensation looks "back in time" in it
// (the article's Q&A: "keep a historical buffer of positions for each
// player on the server"), and, in one process, the client's figures read
// it as the truth the drawn other players are measured against (never fed
// into the client's simulation). Each client's strategy instance keeps its
// own: a few dozen kB.

// truthRing is how many frames the history holds, a power of two above
// MaxRewindTicks and the client's furthest represented frame.
const truthRing = 256

// truth is the server's history of the players' states.
type truth struct {
	frame  [truthRing]int
	states [truthRing][cubes.MaxPlayers]cubes.CubeState
	n      int // players
	last   int // newest frame recorded (−1: none)
}

func (t *truth) reset() {
	for k := range t.frame {
		t.frame[k] = -1
	}
	t.last, t.n = -1, 0
}

// record keeps every player's state of world w at frame f.
func (t *truth) record(f int, w *cubes.World) {
	k := f % truthRing
	t.frame[k] = f
	t.n = w.NumPlayers()
	for p := range t.n {
		t.states[k][p] = w.Cube(w.PlayerCube(p))
	}
	t.last = max(t.last, f)
}

// at returns player p's state at frame f, when kept.
func (t *truth) at(f, p int) (cubes.CubeState, bool) {
	if f < 0 || p < 0 || p >= t.n || f > t.last {
		return cubes.CubeState{}, false
	}
	k := f % truthRing
	if t.frame[k] != f {
		return cubes.CubeState{}, false
	}
	return t.states[k][p], true
}

// newest is the newest frame recorded.
func (t *truth) newest() (int, bool) { return t.last, t.last >= 0 }

// pose is player p's position at (fractional) frame tm: the exact states
// of the frames around it, blended linearly.
func (t *truth) pose(tm float64, p int) (mgl64.Vec3, bool) {
	a := int(math.Floor(tm))
	sa, ok := t.at(a, p)
	if !ok {
		return mgl64.Vec3{}, false
	}
	u := tm - float64(a)
	if u == 0 {
		return sa.Position, true
	}
	sb, ok := t.at(a+1, p)
	if !ok {
		return mgl64.Vec3{}, false
	}
	return sa.Position.Add(sb.Position.Sub(sa.Position).Mul(u)), true
}

// seen is player p at (fractional) frame tm as a client that received the
// frames around it draws it: the quantized states, blended as the client's
// interpolation blends them (lerpState), bit for bit.
func (t *truth) seen(tm float64, p int) (cubes.CubeState, bool) {
	a := int(math.Floor(tm))
	sa, ok := t.at(a, p)
	if !ok {
		return cubes.CubeState{}, false
	}
	qa := stateOfSeen(sa)
	if tm == float64(a) {
		return qa, true
	}
	sb, ok := t.at(a+1, p)
	if !ok {
		return cubes.CubeState{}, false
	}
	return lerpState(qa, stateOfSeen(sb), tm-float64(a)), true
}
