package snapshot

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
	"netcubes/wire"
)

// Level 14 (TurnWithMiss), beyond level 13: a ball cube's orientation is
// predicted from its position's miss. The measurements and what else was
// tried: docs/design/entropy-coding.md ("Level 14").
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
// (turnClass), is learnt as both sides code (turnFit) rather than fixed:
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

// turnFit is the running least-squares fit of the orientation's miss w
// on x = n × Δ (the slope Σxw/Σxx), each sum decayed, in integers so both
// sides agree to the bit. It is carried with the models: a packet starts
// from the slope its baseline's packet ended with.
type turnFit struct{ sxy, sxx int64 }

func (f *turnFit) reset(prior int64) {
	f.sxx = turnPriorWeight * turnScale * turnScale
	f.sxy = f.sxx * prior / 16
}

// slope is the fit's slope in 1/16 units, 0..turnMaxSlope.
func (f *turnFit) slope() int64 {
	if f.sxx <= 0 {
		return 0
	}
	return min(max(f.sxy*16/f.sxx, 0), turnMaxSlope)
}

// add adds one cube's x and w (each in 1/turnScale units).
func (f *turnFit) add(x, w [3]int64) {
	f.sxy -= f.sxy >> turnDecay
	f.sxx -= f.sxx >> turnDecay
	for k := range 3 {
		f.sxy += x[k] * w[k]
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
	s := float64(e.models.turn[tw.class].slope()) * (turnUnit / 16 / 2)
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
	e.models.turn[tw.class].add(xi, wi)
}

// scaledTurn is v in 1/turnScale units, rounded and clamped.
func scaledTurn(v float64) int64 {
	return int64(min(max(math.Round(float64(v*turnScale)), -turnClamp), turnClamp))
}
