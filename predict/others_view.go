package predict

import (
	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/viewmodel"
)

// Where the client's View draws the players and the marks of other players.

// drawnMe is where the View draws the client's own player.
func (st *Strategy) drawnMe(c *client) mgl64.Vec3 {
	s := c.drawnPlayer()
	p, _ := c.smooth.Rendered(c.me, s.Position, s.Orientation)
	return p
}

// drawnPose is where the View draws other player q: its drawn state, with
// the client's smoothing offset when the world simulates it.
func (st *Strategy) drawnPose(c *client, q int) cubes.CubeState {
	d := &st.oth.drawn[q]
	s := d.state
	if c.simulatedHere() {
		i := c.w.PlayerCube(q)
		s.Position, s.Orientation = c.smooth.Rendered(i, s.Position, s.Orientation)
	}
	return s
}

// otherAt returns where the View draws cube i when it is another player
// drawn by this file's rules.
func (st *Strategy) otherAt(i int) (cubes.CubeState, bool) {
	c := &st.cli
	q := c.w.PlayerOf(i)
	if q < 0 || q == c.player || q >= c.w.NumPlayers() || !st.oth.drawn[q].has {
		return cubes.CubeState{}, false
	}
	return st.drawnPose(c, q), true
}

// othersMarks adds the other players' marks to the view: the server's
// truth at its present (green, the ghost's colour: how far behind or ahead
// the drawn player is), when the truth is at hand, and the disputed tags
// (red: where the client saw the target, a line to where the server judged
// it).
func (st *Strategy) othersMarks(v *viewmodel.View, h float64) {
	c := &st.cli
	n := c.w.NumPlayers()
	if n < 2 {
		return
	}
	if f, ok := st.truth.newest(); ok {
		for q := range n {
			if !c.isOther(q, n) {
				continue
			}
			if s, ok := st.truth.at(f, q); ok {
				v.Marks = append(v.Marks, viewmodel.Mark{Kind: viewmodel.MarkTruth, Position: s.Position,
					Orientation: s.Orientation, HalfExtent: h})
			}
		}
	}
	for _, d := range st.tcli.disputes {
		if d.ticks > 0 {
			v.Marks = append(v.Marks, viewmodel.Mark{Kind: viewmodel.MarkDisputed, Position: d.at,
				Orientation: mgl64.QuatIdent(), HalfExtent: h, To: d.to})
		}
	}
}
