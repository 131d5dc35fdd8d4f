package snapshot

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
	"netcubes/wire"
)

// Level 14, beyond level 13: a ball cube's orientation is predicted from
// its position's miss. See docs/design/entropy-coding.md ("Level 14").
//
// A cube riding in the katamari ball that misses its predicted position
// by Δ (grid units, decoded before its orientation) has mostly slid over
// the ball's surface, and a cube that slides over a surface turns as it
// goes: about the axis n × Δ, n the unit direction from the player's
// centre to the cube. On the challenge frames exported from ODE the
// orientation's miss, as a rotation vector, correlates with n × Δ by 0.56
// to 0.60 per axis. So both sides turn the predicted orientation by
// turnSlope·(n × Δ) before its residual is coded: what is left is
// smaller, and cheaper.

// turnSlope is the turn per grid unit of miss, in 1/512 radian units
// scaled by 1/16 (the regression slope of the orientation's miss on
// n × Δ), by distance class (turnClass): the cubes touching the player
// turn less than those further out.
var turnSlope = [2]int64{16, 32}

// turnClass: 0 for a cube within 600 grid units (1.17 m) of the player's
// centre in the baseline, else 1.
func turnClass(d2 int64) int {
	if d2 < 600*600 {
		return 0
	}
	return 1
}

// turnWithMiss turns a player-predicted cube's predicted orientation by
// its position's miss (level 14). It runs after the position is coded
// (the decoder knows the miss by then) and before the orientation.
func (cc *cubeCoding) turnWithMiss(player *Cube) {
	if cc.kind != refPlayer || !cc.posChanged {
		return
	}
	var off, miss [3]float64
	var d2 int64
	for k := range 3 {
		o := int64(cc.b.Position[k]) - int64(player.Position[k])
		d2 += o * o
		off[k] = float64(o)
		miss[k] = float64(cc.c.Position[k] - cc.pred.Position[k])
	}
	if d2 == 0 || miss == [3]float64{} {
		return
	}
	// The half-angle vector h = slope·(n × Δ)/2 in radians, n = off/|off|:
	// each product rounded on its own, so both sides agree to the bit.
	s := float64(turnSlope[turnClass(d2)]) / (16 * wire.SnapshotPositionResolution * 2) / math.Sqrt(float64(d2))
	h := [3]float64{
		float64(float64(off[1]*miss[2])-float64(off[2]*miss[1])) * s,
		float64(float64(off[2]*miss[0])-float64(off[0]*miss[2])) * s,
		float64(float64(off[0]*miss[1])-float64(off[1]*miss[0])) * s,
	}
	n := 1 / math.Sqrt(1+float64(h[0]*h[0])+float64(h[1]*h[1])+float64(h[2]*h[2]))
	dq := mgl64.Quat{W: n, V: mgl64.Vec3{float64(h[0] * n), float64(h[1] * n), float64(h[2] * n)}}
	const bits = wire.SnapshotOrientationBits
	cc.pred.Orientation = wire.QuantizeQuat(geom.QuatMul(dq, wire.DequantizeQuat(cc.pred.Orientation, bits)), bits)
}
