package snapshot

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
	"netcubes/wire"
	"netcubes/wire/arith"
)

// Level 14 (TurnWithMiss), beyond level 13: a ball cube's orientation is
// predicted from its position's miss; and the changed cubes are coded
// nearest the player first (codeCubes14), each shifted by a learnt share
// of its neighbours' miss (shareNeighbours), the ball's residual classes
// in unary (golombMix3Unary). The measurements and what else was tried:
// docs/design/entropy-coding.md ("Level 14").
//
// A cube riding in the katamari ball that misses its predicted position
// by Δ (grid units, decoded before its orientation) has mostly slid over
// the ball, and a cube that slides over a surface turns as it goes: about
// the axis n × Δ, n the unit direction from the player's centre to the
// cube. On challenge frames exported from ODE the orientation's miss, as
// a rotation vector, correlates with n × Δ by 0.56 to 0.60 per axis. So
// both sides turn the predicted orientation by slope·(n × Δ) before its
// residual is coded: what is left is smaller, and cheaper. Everything it
// uses the decoder holds by then (the player's new pose, the cube's
// prediction and its decoded position), so it costs nothing to send, and
// the slope's fit is carried with the models like every probability: a
// packet still depends on its baseline alone.

// The slope, the turn per grid unit of miss, by distance class
// (turnClass), is learnt as both sides code (a decayedFit) rather than fixed:
// it is a property of the scene. Fixed slopes, tried first, were best at
// 1 to 2 radians per metre on the ODE frames and at half that on our own
// solver's, where a slope tuned for ODE cost bytes.
const (
	numTurnClasses = 4
	// turnPrior is the slope a fresh fit starts from, in 1/16 of a
	// turnUnit per grid unit, and turnPriorWeight how many cubes' worth
	// of evidence it counts as.
	turnPrior       = 16
	turnPriorWeight = 32
	// turnDecay: each cube's update first forgets 1/2^turnDecay of the
	// sums, so the fit follows the ball as it grows and changes.
	turnDecay = 8
	// turnMaxSlope bounds the slope (1/16 units): a hostile stream can
	// only choose among honest predictions.
	turnMaxSlope = 64
	// turnScale: x and w enter the sums in 1/turnScale units.
	turnScale = 16
	// turnClamp bounds each scaled component before the products (an
	// honest miss is a few hundred grid units at most).
	turnClamp = 1 << 15
)

// decayedFit is a running least-squares fit through the origin of y on
// x (the ratio Σxy/Σxx over the three components of every cube added),
// each sum first decayed by 1/2^decay so the fit follows the ball as it
// grows and changes; in integers so both sides agree to the bit. Level 14
// keeps two kinds, carried with the models (a packet starts from the fits
// its baseline's packet ended with): the turn (x = n × Δ, y the
// orientation's miss w: the slope) and the neighbours' share (x their
// mean miss, y the cube's own).
type decayedFit struct{ sxy, sxx int64 }

// reset starts the fit at prior (in 1/unit) with weight's worth of
// evidence (in the units of Σxx).
func (f *decayedFit) reset(weight, prior, unit int64) {
	f.sxx = weight
	f.sxy = f.sxx * prior / unit
}

// ratio is the fit's Σxy/Σxx in 1/unit, 0..most.
func (f *decayedFit) ratio(unit, most int64) int64 {
	if f.sxx <= 0 {
		return 0
	}
	return min(max(f.sxy*unit/f.sxx, 0), most)
}

// add forgets 1/2^decay of the sums, then adds one cube's x and y.
func (f *decayedFit) add(x, y [3]int64, decay uint) {
	f.sxy -= f.sxy >> decay
	f.sxx -= f.sxx >> decay
	for k := range 3 {
		f.sxy += x[k] * y[k]
		f.sxx += x[k] * x[k]
	}
	f.sxx = max(f.sxx, 1)
}

// turnUnit is the unit of w: 1/512 radian.
const turnUnit = 1.0 / 512

// turnClass is the fit a cube's turn uses, by its distance d (d2 = d²,
// grid units) from the player's centre and the size of its slide (x2 =
// |n × Δ|²): the cubes touching the player (d under 600 grid units, 1.17
// m) turn less than those further out, and slides of more than 4 grid
// units turn the cube by a slope of their own (small ones are partly
// quantization noise and jostling in place).
func turnClass(d2 int64, x2 float64) int {
	c := 0
	if d2 >= 600*600 {
		c = 1
	}
	if x2 > 4*4 {
		c += 2
	}
	return c
}

// turnWork is what turnWithMiss leaves for learnTurn, for the cube being
// coded.
type turnWork struct {
	on       bool
	class    int
	x        [3]float64         // n × Δ, grid units
	unturned wire.QuantizedQuat // the prediction before the turn
	slide    int                // slideClass of the position's miss
}

// Level 14's second models of a ball cube's residuals. The turn takes
// out the orientation's miss that goes with the slide, not its spread: a
// cube that missed its position by far is jostled, and its orientation's
// residual is wider after the turn too, so the orientation's second model
// is keyed by the size of the position's miss Δ (slideClass; by |n × Δ|
// instead, or also by distance or by mixClass, it coded more). The
// position's second model keeps the cube's memory class and splits the
// neighbours' mean miss finer than mixClass's three classes (nbrClass).
const (
	numSlideClasses = 5
	numNbrClasses   = 6
)

// slideClass buckets |Δ|² (grid units²): under 3, 6, 12, 24 grid units,
// or more.
func slideClass(x2 float64) int {
	c := 0
	for t := 3.0; c < numSlideClasses-1 && x2 > t*t; t *= 2 {
		c++
	}
	return c
}

// nbrClass buckets the neighbours' mean miss (cubeCoding.nbrMean): none
// coded before this cube, under 2, 4, 8, 16 grid units, or more.
func nbrClass(mean int64) int {
	if mean < 0 {
		return 0
	}
	c := 1
	for t := int64(2); c < numNbrClasses-1 && mean >= t; t *= 2 {
		c++
	}
	return c
}

// turnWithMiss turns a player-predicted cube's predicted orientation by
// its position's miss (level 14). It runs after the position is coded
// (the decoder knows the miss by then) and before the orientation; n is
// taken from the player's new position to the cube's predicted one, and
// Δ against that prediction, both before the neighbour correction
// (refPos): a cube predicted to slide with its neighbours is predicted
// to turn with them too (each beat the alternative: the design note).
func (e *entropyState) turnWithMiss(cc *cubeCoding, player *Cube) {
	tw := &e.tw
	tw.on = false
	if cc.kind != refPlayer || !cc.posChanged {
		return
	}
	var off, miss [3]float64
	var d2 int64
	for k := range 3 {
		o := int64(cc.refPos[k]) - int64(player.Position[k])
		d2 += o * o
		off[k] = float64(o)
		miss[k] = float64(cc.c.Position[k] - cc.refPos[k])
	}
	if d2 == 0 {
		return
	}
	// x = n × Δ, n = off/|off|: each product rounded on its own, so
	// both sides agree to the bit.
	inv := 1 / math.Sqrt(float64(d2))
	tw.x = [3]float64{
		float64(float64(off[1]*miss[2])-float64(off[2]*miss[1])) * inv,
		float64(float64(off[2]*miss[0])-float64(off[0]*miss[2])) * inv,
		float64(float64(off[0]*miss[1])-float64(off[1]*miss[0])) * inv,
	}
	tw.on, tw.class, tw.unturned = true, turnClass(d2, float64(tw.x[0]*tw.x[0])+float64(tw.x[1]*tw.x[1])+float64(tw.x[2]*tw.x[2])), cc.pred.Orientation
	tw.slide = slideClass(float64(miss[0]*miss[0]) + float64(miss[1]*miss[1]) + float64(miss[2]*miss[2]))
	// The half-angle vector h = slope·x/2 in radians.
	s := float64(e.models.turn[tw.class].ratio(16, turnMaxSlope)) * (turnUnit / 16 / 2)
	h := [3]float64{float64(tw.x[0] * s), float64(tw.x[1] * s), float64(tw.x[2] * s)}
	if h == [3]float64{} {
		return
	}
	n := 1 / math.Sqrt(1+float64(h[0]*h[0])+float64(h[1]*h[1])+float64(h[2]*h[2]))
	dq := mgl64.Quat{W: n, V: mgl64.Vec3{float64(h[0] * n), float64(h[1] * n), float64(h[2] * n)}}
	const bits = wire.SnapshotOrientationBits
	cc.pred.Orientation = wire.QuantizeQuat(geom.QuatMul(dq, wire.DequantizeQuat(cc.pred.Orientation, bits)), bits)
}

// learnTurn adds the cube just coded to its class's fit: x, and w, the
// rotation from the unturned prediction to the orientation coded (its
// vector part, twice the half-angle's sine: the angle, for these small
// turns), in turnUnit.
func (e *entropyState) learnTurn(cc *cubeCoding) {
	tw := &e.tw
	if !tw.on {
		return
	}
	const bits = wire.SnapshotOrientationBits
	dq := geom.QuatMul(wire.DequantizeQuat(cc.c.Orientation, bits), wire.DequantizeQuat(tw.unturned, bits).Conjugate())
	if dq.W < 0 {
		dq.V = mgl64.Vec3{-dq.V[0], -dq.V[1], -dq.V[2]}
	}
	var xi, wi [3]int64
	for k := range 3 {
		xi[k] = scaledTurn(tw.x[k])
		wi[k] = scaledTurn(float64(dq.V[k] * (2 / turnUnit)))
	}
	e.models.turn[tw.class].add(xi, wi, turnDecay)
}

// scaledTurn is v in 1/turnScale units, rounded and clamped.
func scaledTurn(v float64) int64 {
	return int64(min(max(math.Round(float64(v*turnScale)), -turnClamp), turnClamp))
}

// The neighbours' share. Levels 12-13 shift a predicted cube by half its
// neighbours' mean miss (neighbourCorrection). How much of it a cube
// shares depends on how many neighbours the mean is of (one neighbour's
// miss is mostly its own jostling, four's mostly the clump's) and on the
// scene, so level 14 learns it as both sides code: a least-squares fit
// of the cube's miss on the neighbours' mean, per kind of reference and
// neighbour count (1, 2, 3, 4 or more), carried with the models like the
// turn's. Outliers (a neighbour knocked away) would dominate a plain
// fit's sums, so each component enters them clamped to shareClamp.
const (
	// neighbourRadius14 is level 14's neighbour radius, 0.5625 m, wider
	// than levels 12-13's 0.5 m: touching cubes' centres lie 0.4 to 0.69
	// m apart, and the learnt share weighs the farther ones' miss as it
	// finds it (0.52, 0.56, 0.59, 0.64, 0.70 m: A 215.82, 215.72,
	// 215.71, 215.87, 216.01 bytes a frame, 0.5 m 215.94).
	neighbourRadius14 = wire.SnapshotPositionResolution * 9 / 16
	numShareCounts    = 4
	numShareClasses   = 2 * numShareCounts
	// sharePrior is the share a fresh fit starts from, in 1/64 (a half,
	// levels 12-13's), and sharePriorWeight how many cubes' worth of
	// evidence it counts as.
	sharePrior       = 32
	sharePriorWeight = 32
	// shareDecay: each cube's update first forgets 1/2^shareDecay of the
	// sums.
	shareDecay = 8
	// shareScale: the mean and the miss enter the sums in
	// 1/shareScale grid units; shareClamp bounds each (grid units).
	shareScale = 16
	shareClamp = 16
	// shareMax bounds the share (1/64): a hostile stream can only
	// choose among honest predictions.
	shareMax = 64
)

// shareNeighbours shifts a predicted cube (level 14) by its fit's share
// of its neighbours' mean miss, sum/cnt (cnt ≥ 1), rounded half away
// from zero.
func (e *entropyState) shareNeighbours(cc *cubeCoding, sum [3]int64, cnt int64) {
	c := int(min(cnt, numShareCounts) - 1)
	if cc.kind == refMotion {
		c += numShareCounts
	}
	cc.shareOn, cc.shareClass = true, c
	s := e.models.share[c].ratio(64, shareMax)
	for k := range 3 {
		x := sum[k] * shareScale / cnt
		cc.shareX[k] = x
		v := x * s // in 1/(64·shareScale) grid units
		const one = 64 * shareScale
		if v >= 0 {
			v = (v + one/2) / one
		} else {
			v = -((-v + one/2) / one)
		}
		cc.pred.Position[k] += int32(v)
	}
}

// learnShare adds the cube just coded, its miss res before the
// neighbours' share, to its class's fit.
func (e *entropyState) learnShare(cc *cubeCoding, res [3]int32) {
	if !cc.shareOn {
		return
	}
	// Outliers (a neighbour knocked away) would dominate the sums: each
	// component enters them clamped to shareClamp.
	const c = shareClamp * shareScale
	var x, y [3]int64
	for k := range 3 {
		x[k] = min(max(cc.shareX[k], -c), c)
		y[k] = min(max(int64(res[k])*shareScale, -c), c)
	}
	e.models.share[cc.shareClass].add(x, y, shareDecay)
}

// golombMix3Unary is golombMix3 with the class in unary
// (arith.Golomb.EncodeMix3Unary): level 14's ball cubes and swapped
// orientations.
func (e *entropyState) golombMix3Unary(g, h *arith.Golomb, j *arith.GolombContext, mx *arith.GolombMixers, v int32) int32 {
	if e.reading {
		got, ok := g.DecodeMix3Unary(&e.dec, h, j, mx)
		if !ok {
			e.bad = true
		}
		return got
	}
	g.EncodeMix3Unary(&e.enc, h, j, mx, v)
	return v
}

// cubeOrder is level 14's coding order (codeCubes14): the changed cubes,
// and each one's memory, read with its changed decision.
type cubeOrder struct {
	n    int
	key  [MaxCubes]int64 // distance² << 10 | index: sorted, the order
	memv [MaxCubes]uint8
}

// codeCubes14 is codeCubes at level 14, in two passes: first every
// cube's changed decision in index order (the same contexts as levels
// 12-13: they need only the baselines), with cube 0's fields and the
// player prediction's correction where codeCubes codes them; then the
// changed cubes' fields, nearest the player (in the baseline) first.
// The cubes of the ball coded first are those the player's motion
// predicts best, and each cube further out then finds more of its
// neighbours coded before it, whose misses the neighbours' share takes:
// on the ODE frames 37 % of the ball's cubes had no neighbour coded
// before them in index order, 28 % nearest first. Both sides know the
// baselines and the changed decisions before the second pass, so the
// order costs nothing to send.
func (p *Packet) codeCubes14(e *entropyState, base []Cube, mr *motionRef) error {
	prevChanged := false
	e.nbrReset()
	e.nbrRadius, e.nbrShift = neighbourRadius14, nbrCellShift14
	o := &e.order
	o.n = 0
	var cc cubeCoding
	for i := range p.Cubes {
		changed, err := p.codeCubeHead(e, base, mr, i, prevChanged, &cc)
		if err != nil {
			return err
		}
		prevChanged = changed
		if !changed {
			continue
		}
		if i == 0 {
			if err := p.codeFields(e, &cc, base, mr); err != nil {
				return err
			}
			continue
		}
		o.memv[i] = uint8(cc.memv)
		o.key[o.n] = min(distance2(&base[i], &base[0]), 1<<52)<<10 | int64(i)
		o.n++
	}
	if e.reading && (e.bad || e.dec.Overread()) {
		return wire.ErrEndOfData
	}
	slices.Sort(o.key[:o.n])
	for _, key := range o.key[:o.n] {
		i := int(key & 1023)
		cc = cubeCoding{i: i, b: &base[i], c: &p.Cubes[i], hc: -1, memv: int(o.memv[i])}
		cc.moved = mr.base2 != nil && !cc.b.sameState(&mr.base2[i])
		if err := p.codeFields(e, &cc, base, mr); err != nil {
			return err
		}
	}
	return nil
}

// distance2 is the squared distance between two cubes' positions (grid
// units²; below 2^39 inside the quantization's limits, and the sort key
// bounds it anyway), saturating rather than overflowing.
func distance2(a, b *Cube) int64 {
	var d2 int64
	for k := range 3 {
		d := min(max(int64(a.Position[k])-int64(b.Position[k]), -1<<26), 1<<26)
		d2 += d * d
	}
	return d2
}
