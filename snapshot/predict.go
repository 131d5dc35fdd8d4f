package snapshot

import (
	"github.com/go-gl/mathgl/mgl64"

	"netcubes/wire"
)

// Design note: player-relative prediction, a step beyond the article.
//
// Delta encoding sends each cube's change since the baseline, and the
// baseline is about a round trip old (13 frames on the intercontinental
// preset). The cubes that change are mostly the katamari ball, rolling with
// the player at several metres per second: in 13 frames a cube moves
// further than the delta codes' large range and its position goes out
// absolute (51 bits). Measured on the katamari script over that link, the
// article's codes average 41.6 bits per position and 26.5 per orientation
// there, against its 26.1 and 23.3.
//
// But the ball moves with the player: its cubes are pulled to the player's
// centre and roll with it almost as one rigid body. Both sides know the
// baseline and, once cube 0 (the player, always first) is decoded, the
// player's new pose. So both can PREDICT each cube near the player as
// carried rigidly by the player's motion since the baseline:
//
//	R         = q_player_now · q_player_base⁻¹      (the player's rotation)
//	position  ≈ p_player_now + R · (p_cube_base − p_player_base)
//	rotation  ≈ R · q_cube_base
//
// quantize the prediction exactly as a snapshot is quantized, and send the
// cube's delta from the prediction instead of from the baseline, with the
// same codes. On the same run this brings positions to about 23 bits and
// orientations to about 20. "Near" is a baseline position within
// PredictRadius of the player's, tested in integers; cubes further
// away (or everything, when the player did not move) are delta-encoded
// against the baseline as before. "Changed" is still judged against the
// baseline, so level 11's changed bits mean what they did.
//
// The article hints at this ("a much better result for delta encoded
// orientations using the previous baseline orientation values to estimate
// angular velocity and predict"); predicting from the player rather than
// from each cube's own history needs no second baseline, and it matches
// what the katamari ball does. It is a header bit (Packet.Predict),
// so it can be switched live and compared with the article's plain level.
//
// Determinism: sender and receiver must compute the same prediction to the
// bit. Both run this code, with the float64() conversions that keep a
// compiler from fusing a multiply and an add into an FMA (see quantize.go);
// wire.QuantizePosition and wire.QuantizeQuat then snap it onto the shared grid.

// PredictRadius is the distance from the player, in metres, within
// which a cube is predicted to move with the player: the katamari ball (about
// 120 cubes of 0.4 m, some 1.2 m across) around the player's 0.75 m half
// extent, with a margin. Larger predicts loose cubes the player merely
// passes; smaller misses the edge of the ball.
const PredictRadius = 2.5

// snapPredictor holds the player's motion from the baseline to the current
// snapshot, for one packet.
type snapPredictor struct {
	ready, moved bool
	base         wire.QuantizedVec3 // player position in the baseline, grid units
	pb, pn       mgl64.Vec3         // player position in the baseline and now, m
	r            mgl64.Quat         // player rotation from the baseline to now
}

// setup reads the player's baseline b0 and current c0 states.
func (pr *snapPredictor) setup(b0, c0 *Cube) {
	pr.ready = true
	pr.moved = b0.Position != c0.Position || b0.Orientation != c0.Orientation
	if !pr.moved {
		return
	}
	pr.base = b0.Position
	pr.pb = wire.DequantizePosition(b0.Position, wire.SnapshotPositionResolution)
	pr.pn = wire.DequantizePosition(c0.Position, wire.SnapshotPositionResolution)
	qb := wire.DequantizeQuat(b0.Orientation, wire.SnapshotOrientationBits)
	qn := wire.DequantizeQuat(c0.Orientation, wire.SnapshotOrientationBits)
	pr.r = quatMul(qn, qb.Conjugate())
}

// predict writes into out the prediction of a cube whose baseline is b and
// reports true, or reports false when the cube is not predicted (far from
// the player, or the player did not move): then the baseline is the
// reference.
func (pr *snapPredictor) predict(b *Cube, out *Cube) bool {
	if !pr.moved {
		return false
	}
	const r = PredictRadius * wire.SnapshotPositionResolution
	var d2 int64
	for k := range 3 {
		d := int64(b.Position[k]) - int64(pr.base[k])
		d2 += d * d
	}
	if d2 > int64(r*r) {
		return false
	}
	cb := wire.DequantizePosition(b.Position, wire.SnapshotPositionResolution)
	off := rotateVec(pr.r, cb.Sub(pr.pb))
	*out = *b
	out.Position = wire.QuantizePosition(pr.pn.Add(off), wire.SnapshotPositionResolution)
	out.Orientation = wire.QuantizeQuat(quatMul(pr.r, wire.DequantizeQuat(b.Orientation, wire.SnapshotOrientationBits)), wire.SnapshotOrientationBits)
	return true
}

// quatMul is the Hamilton product a·b, each product rounded on its own.
func quatMul(a, b mgl64.Quat) mgl64.Quat {
	return mgl64.Quat{
		W: float64(a.W*b.W) - float64(a.V[0]*b.V[0]) - float64(a.V[1]*b.V[1]) - float64(a.V[2]*b.V[2]),
		V: mgl64.Vec3{
			float64(a.W*b.V[0]) + float64(a.V[0]*b.W) + float64(a.V[1]*b.V[2]) - float64(a.V[2]*b.V[1]),
			float64(a.W*b.V[1]) - float64(a.V[0]*b.V[2]) + float64(a.V[1]*b.W) + float64(a.V[2]*b.V[0]),
			float64(a.W*b.V[2]) + float64(a.V[0]*b.V[1]) - float64(a.V[1]*b.V[0]) + float64(a.V[2]*b.W),
		},
	}
}

// rotateVec turns v by unit quaternion q: v + 2w(u×v) + 2u×(u×v), u = q.V.
func rotateVec(q mgl64.Quat, v mgl64.Vec3) mgl64.Vec3 {
	u := q.V
	cross := func(a, b mgl64.Vec3) mgl64.Vec3 {
		return mgl64.Vec3{
			float64(a[1]*b[2]) - float64(a[2]*b[1]),
			float64(a[2]*b[0]) - float64(a[0]*b[2]),
			float64(a[0]*b[1]) - float64(a[1]*b[0]),
		}
	}
	t := cross(u, v)
	t = mgl64.Vec3{float64(2 * t[0]), float64(2 * t[1]), float64(2 * t[2])}
	t2 := cross(u, t)
	return mgl64.Vec3{
		v[0] + float64(q.W*t[0]) + t2[0],
		v[1] + float64(q.W*t[1]) + t2[1],
		v[2] + float64(q.W*t[2]) + t2[2],
	}
}
