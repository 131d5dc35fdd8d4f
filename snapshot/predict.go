package snapshot

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
	"netcubes/wire"
)

// Design note: player-relative prediction, a step beyond the article.
//
// Delta encoding sends each cube's change since the baseline, and the
// baseline is about a round trip old (13 frames on the intercontinental
// preset). The cubes that change are mostly the katamari ball, rolling with
// the player at several metres per second: in 13 frames a cube moves
// further than the delta codes' large range and its position goes out
// absolute (51 bits).
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
// same codes (about half the bits of a ball cube's position over the
// intercontinental link: docs/design/player-prediction.md). "Near" is a
// baseline position within PredictRadius of the player's, tested in
// integers; cubes further away (or everything, when the player did not
// move) are delta-encoded against the baseline as before. "Changed" is
// still judged against the baseline, so level 11's changed bits mean what
// they did.
//
// The article hints at this ("a much better result for delta encoded
// orientations using the previous baseline orientation values to estimate
// angular velocity and predict"); predicting from the player rather than
// from each cube's own history needs no second baseline, and it matches
// what the katamari ball does. It is a header bit (Packet.Predict),
// so it can be switched live and compared with the article's plain level.
//
// Determinism: sender and receiver must compute the same prediction to the
// bit. Both run this code, whose rotations (geom.QuatMul, geom.Rotate) and
// other products are rounded one by one (float64(x*y): no fused
// multiply-add on any CPU); wire.QuantizePosition and wire.QuantizeQuat
// then snap it onto the shared grid.

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
	pr.r = geom.QuatMul(qn, qb.Conjugate())
}

// The correction (levels 12-13, beyond the article). The player's new
// pose is quantized like any cube's (its orientation to 9-bit smallest
// three), so the rotation R the prediction applies is off by a few
// thousandths of a radian, from both quantized poses. Carried out to a
// cube 1-2 m from the centre that is several grid units, the same for
// every cube of the ball: a shared error, which one small rotation fixes
// for all. The encoder, which knows the cubes' true positions, fits it
// (correctionFit) and sends it, three integers of CorrectionStep radians
// and a shift of three grid units; both sides then turn R by it. The fit
// can be any computation, since only the integers it sends matter: the
// decoder never repeats it. What it saves: docs/design/player-prediction.md.

// Correction limits: CorrectionStep radians per unit of rotation (fine
// enough for the error, coarse enough to stay a small integer),
// CorrectionMax units at most.
const (
	CorrectionStep = 1.0 / 512
	CorrectionMax  = 64
)

// correct applies a correction: c[0:3] a rotation vector in
// CorrectionStep units turning R, c[3:6] a shift of the player's new
// position in grid units. The rotation is the unit quaternion
// (1, w/2) normalized, exact enough for angles this small and with no
// trigonometry (math.Sqrt is exactly rounded everywhere, so both sides
// agree to the bit).
func (pr *snapPredictor) correct(c [6]int32) {
	var h [3]float64
	for k := range 3 {
		h[k] = float64(c[k]) * (CorrectionStep / 2)
	}
	n := 1 / math.Sqrt(1+float64(h[0]*h[0])+float64(h[1]*h[1])+float64(h[2]*h[2]))
	dq := mgl64.Quat{W: n, V: mgl64.Vec3{float64(h[0] * n), float64(h[1] * n), float64(h[2] * n)}}
	pr.r = geom.QuatMul(dq, pr.r)
	const res = wire.SnapshotPositionResolution
	pr.pn = pr.pn.Add(mgl64.Vec3{float64(c[3]) / res, float64(c[4]) / res, float64(c[5]) / res})
}

// correctionFit is the encoder's scratch for fitting a correction: no
// allocation per packet.
type correctionFit struct {
	d [MaxCubes]mgl64.Vec3 // R·(cube − player) in the baseline, grid units
	r [MaxCubes][3]float64 // residual of the uncorrected prediction
	w [MaxCubes]float64    // robust weights
}

// fit returns the correction that best carries the changed cubes the
// predictor predicts: a linearized rigid motion, residual ≈ ω × d + t, by
// least squares reweighted toward the cubes that fit (iteratively
// reweighted, weights 1/|error|, about a least-absolute fit): the ball's
// loose cubes have large residuals of their own, and plain least squares
// would let them drag the correction away from the many that fit. The
// decoder never repeats the fit,
// but its products are still rounded one by one (float64(x*y), no fused
// multiply-add) so that the encoder chooses the same integers, and writes
// the same packets, on every platform.
func (f *correctionFit) fit(pr *snapPredictor, base, cur []Cube) (c [6]int32) {
	n := 0
	for i := 1; i < len(cur) && i < MaxCubes; i++ {
		b := &base[i]
		if cur[i].sameState(b) {
			continue
		}
		// The prediction's position only (its orientation is not
		// fitted), from the offset d is made of: the same values as
		// predict's, at a third of its cost.
		off, ok := pr.offset(b)
		if !ok {
			continue
		}
		f.d[n] = off.Mul(wire.SnapshotPositionResolution)
		p := pr.position(off)
		for k := range 3 {
			f.r[n][k] = float64(cur[i].Position[k] - p[k])
		}
		f.w[n] = 1
		n++
	}
	if n < 6 {
		return c // too few cubes to tell a shared error from their own
	}
	var x [6]float64
	for range 6 {
		var a [6][6]float64
		var v [6]float64
		for j := range n {
			// ∂residual/∂(ω, t), row k: three of its six entries are
			// zero, and a zero term adds ±0 to a finite sum, which
			// changes nothing: only the nonzero ones (column, value) are
			// summed, in the same order, the same bits at a quarter of
			// the products. Row by row (normalRow), each entry of a
			// and v summed in the order of j, then k.
			d, w, r := &f.d[j], f.w[j], &f.r[j]
			normalRow(&a, &v, w, r[0], 1, 2, 3, d[2], -d[1], 1)
			normalRow(&a, &v, w, r[1], 0, 2, 4, -d[2], d[0], 1)
			normalRow(&a, &v, w, r[2], 0, 1, 5, d[1], -d[0], 1)
		}
		x = solve6(a, v)
		f.reweigh(x, n)
	}
	return roundCorrection(x)
}

// reweigh sets each cube's weight for the fit's next round from its
// residual under the solution x: 1/max(|r − (ω × d + t)|₁, 1), so that
// cubes the shared error does not explain (knocked about on their own)
// count less.
func (f *correctionFit) reweigh(x [6]float64, n int) {
	w := mgl64.Vec3{x[0], x[1], x[2]}
	for j := range n {
		d := f.d[j]
		e := mgl64.Vec3{ // ω × d + t
			float64(w[1]*d[2]) - float64(w[2]*d[1]) + x[3],
			float64(w[2]*d[0]) - float64(w[0]*d[2]) + x[4],
			float64(w[0]*d[1]) - float64(w[1]*d[0]) + x[5],
		}
		f.w[j] = 1 / max(math.Abs(f.r[j][0]-e[0])+math.Abs(f.r[j][1]-e[1])+math.Abs(f.r[j][2]-e[2]), 1)
	}
}

// roundCorrection is the fit's solution in the packet's units: the turn
// in CorrectionStep, the shift in grid units, each clamped to
// ±CorrectionMax (a NaN, from a degenerate system, is no correction).
func roundCorrection(x [6]float64) (c [6]int32) {
	for k := range 6 {
		s := 1.0
		if k < 3 {
			s = CorrectionStep
		}
		v := math.Round(x[k] / s)
		if math.IsNaN(v) {
			v = 0
		}
		c[k] = int32(min(max(v, -CorrectionMax), CorrectionMax))
	}
	return c
}

// normalRow adds one row of the linearized residual to the normal
// equations a·x = v: its nonzero entries c0, c1, c2 in columns u0, u1, u2
// (the others are zero), weighed by w, the residual r. Each product is
// rounded on its own (fit).
func normalRow(a *[6][6]float64, v *[6]float64, w, r float64, u0, u1, u2 int, c0, c1, c2 float64) {
	w0, w1, w2 := float64(w*c0), float64(w*c1), float64(w*c2)
	a0, a1, a2 := &a[u0], &a[u1], &a[u2]
	v[u0] += float64(w0 * r)
	a0[u0] += float64(w0 * c0)
	a0[u1] += float64(w0 * c1)
	a0[u2] += float64(w0 * c2)
	v[u1] += float64(w1 * r)
	a1[u0] += float64(w1 * c0)
	a1[u1] += float64(w1 * c1)
	a1[u2] += float64(w1 * c2)
	v[u2] += float64(w2 * r)
	a2[u0] += float64(w2 * c0)
	a2[u1] += float64(w2 * c1)
	a2[u2] += float64(w2 * c2)
}

// solve6 solves a·x = v by Gaussian elimination with partial pivoting,
// a small ridge keeping a degenerate system (cubes all in a line) solvable.
func solve6(a [6][6]float64, v [6]float64) (x [6]float64) {
	for i := range 6 {
		a[i][i] += 1
	}
	for c := range 6 {
		p := c
		for r := c + 1; r < 6; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		v[c], v[p] = v[p], v[c]
		if a[c][c] == 0 {
			return x
		}
		for r := c + 1; r < 6; r++ {
			m := a[r][c] / a[c][c]
			for k := c; k < 6; k++ {
				a[r][k] -= float64(m * a[c][k])
			}
			v[r] -= float64(m * v[c])
		}
	}
	for c := 5; c >= 0; c-- {
		s := v[c]
		for k := c + 1; k < 6; k++ {
			s -= float64(a[c][k] * x[k])
		}
		x[c] = s / a[c][c]
	}
	return x
}

// offset returns the player's rotation applied to a cube's offset from
// the player in the baseline (b: the cube's baseline; metres), and false
// when the cube is not predicted (far from the player, or the player did
// not move).
func (pr *snapPredictor) offset(b *Cube) (mgl64.Vec3, bool) {
	if !pr.moved {
		return mgl64.Vec3{}, false
	}
	const r = PredictRadius * wire.SnapshotPositionResolution
	var d2 int64
	for k := range 3 {
		d := int64(b.Position[k]) - int64(pr.base[k])
		d2 += d * d
	}
	if d2 > int64(r*r) {
		return mgl64.Vec3{}, false
	}
	cb := wire.DequantizePosition(b.Position, wire.SnapshotPositionResolution)
	return geom.Rotate(pr.r, cb.Sub(pr.pb)), true
}

// position is the predicted position of a cube at offset off (offset).
func (pr *snapPredictor) position(off mgl64.Vec3) wire.QuantizedVec3 {
	return wire.QuantizePosition(pr.pn.Add(off), wire.SnapshotPositionResolution)
}

// predict writes into out the prediction of a cube whose baseline is b and
// reports true, or reports false when the cube is not predicted (far from
// the player, or the player did not move): then the baseline is the
// reference.
func (pr *snapPredictor) predict(b *Cube, out *Cube) bool {
	off, ok := pr.offset(b)
	if !ok {
		return false
	}
	*out = *b
	out.Position = pr.position(off)
	out.Orientation = wire.QuantizeQuat(geom.QuatMul(pr.r, wire.DequantizeQuat(b.Orientation, wire.SnapshotOrientationBits)), wire.SnapshotOrientationBits)
	return true
}
