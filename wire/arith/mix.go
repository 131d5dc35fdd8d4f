package arith

import "math/bits"

// Design note: mixing two models. A context model must choose how finely
// to split its contexts: a fine split (many contexts) says more about each
// decision but learns slowly, since each context sees few decisions; a
// coarse one learns fast but blurs. Logistic mixing (as in the PAQ family
// of compressors) uses both: each decision is predicted by two Probs, one
// from a fine context and one from a coarse (or a different) one, and the
// coder uses
//
//	p = squash(w0·stretch(p0) + w1·stretch(p1)),  stretch(p) = ln(p/(1−p))
//
// whose weights a Mixer learns online, by gradient descent on the coding
// cost: after each decision each weight moves by its input times the error
// (what was seen minus p). Where the fine context knows better its weight
// grows. Both Probs adapt as they always do.
//
// Everything is integer so that encoder and decoder agree to the bit on
// every machine: stretch is a table (the inverse of squash), squash a
// linear interpolation between 33 fixed points of the logistic function
// 4096/(1 + e^(−x/256)), x in [−2048, 2048].

// squashPoints are 4096/(1+e^(−x/256)) at x = −2048 + 128·j, rounded.
var squashPoints = [33]int32{1, 2, 4, 6, 10, 17, 27, 45, 74, 120, 194, 311, 488, 747, 1102, 1546,
	2048, 2550, 2994, 3349, 3608, 3785, 3902, 3976, 4022, 4051, 4069, 4079, 4086, 4090, 4092, 4094, 4095}

// squash maps a stretched probability (1/256 units, clamped to ±2047) to
// a probability in 1/4096, inside (0, 4096).
func squash(x int32) int32 {
	x = min(max(x, -2047), 2047)
	x += 2048
	j, f := x>>7, x&127
	return squashPoints[j] + (squashPoints[j+1]-squashPoints[j])*f>>7
}

// stretchTable[p] is the least x with squash(x) ≥ p: stretch, the inverse
// of squash, built from squash itself so the two agree exactly.
var stretchTable [probOne]int16

func init() {
	x := int32(-2047)
	for p := range int32(probOne) {
		for x < 2047 && squash(x) < p {
			x++
		}
		stretchTable[p] = int16(x)
		stretch32[p] = x
	}
}

// Mixer holds the weights of one mixed decision, in 1/65536, one per
// input (two or three).
type Mixer struct{ w [6]int32 }

// mixerStart: each input weighs 0.46 at first, about their mean.
const mixerStart = 30000

// mixShift sets the mixer's learning rate: a weight moves by
// input·error / 2^mixShift.
const mixShift = 11

// Reset puts the weights back to their start.
func (m *Mixer) Reset() {
	m.w = [6]int32{mixerStart / 2, mixerStart / 2, mixerStart / 2, mixerStart / 2, mixerStart3 / 2, mixerStart3 / 2}
}

// mixerStart3 is the third input's start.
const mixerStart3 = 20000

// ResetMixers resets every Mixer of ms.
func ResetMixers(ms []Mixer) {
	for i := range ms {
		ms[i].Reset()
	}
}

// mixIn are the stretched inputs of one decision.
type mixIn [6]int32

// mix returns the mixed probability of a 0 and sets s to the stretched
// inputs (c may be nil: a two-input decision, whose third inputs are 0).
// s is the caller's, not a result: a server codes millions of decisions
// a second, and copying the inputs out of a call was a tenth of it.
func (m *Mixer) mix(a, b, c *Prob, s *mixIn) uint32 {
	av, bv := *a, *b
	s[0], s[1] = stretch32[av&probMask], stretch32[av>>20]
	s[2], s[3] = stretch32[bv&probMask], stretch32[bv>>20]
	w := &m.w
	// Each product fits in 32 bits (|w| ≤ 2^20, |s| < 2^11), the sum
	// does not.
	dot := int64(w[0]*s[0]) + int64(w[1]*s[1]) + int64(w[2]*s[2]) + int64(w[3]*s[3])
	if c != nil {
		cv := *c
		s[4], s[5] = stretch32[cv&probMask], stretch32[cv>>20]
		dot += int64(w[4]*s[4]) + int64(w[5]*s[5])
	}
	// squash's values lie in [1, 4095]: a probability the coder takes.
	return uint32(squashTable[clampMix(int32(dot>>16))+2047])
}

// learn moves the weights toward what was seen and updates the Probs.
func (m *Mixer) learn(a, b, c *Prob, p uint32, s *mixIn, bit int) {
	err := int32(probOne-1)*int32(1-bit) - int32(p)
	w := &m.w
	// Bounded, so a hostile stream cannot drive them anywhere odd.
	w[0] = clampWeight(w[0] + s[0]*err>>mixShift)
	w[1] = clampWeight(w[1] + s[1]*err>>mixShift)
	w[2] = clampWeight(w[2] + s[2]*err>>mixShift)
	w[3] = clampWeight(w[3] + s[3]*err>>mixShift)
	if c != nil {
		w[4] = clampWeight(w[4] + s[4]*err>>mixShift)
		w[5] = clampWeight(w[5] + s[5]*err>>mixShift)
		c.update(bit)
	}
	a.update(bit)
	b.update(bit)
}

// clampWeight bounds a mixer weight to ±2^20 (16 in 1/65536 units).
func clampWeight(w int32) int32 { return min(max(w, -1<<20), 1<<20) }

// EncodeMix3 codes bit with the mix of a, b and c (nil: none).
func (e *Encoder) EncodeMix3(a, b, c *Prob, m *Mixer, bit int) {
	pv := m.mix(a, b, c, &e.mixS)
	e.encodeP(pv, bit)
	m.learn(a, b, c, pv, &e.mixS, bit)
}

// DecodeMix3 reads a decision coded with EncodeMix3.
func (d *Decoder) DecodeMix3(a, b, c *Prob, m *Mixer) int {
	pv := m.mix(a, b, c, &d.mixS)
	bit := d.decodeP(pv)
	m.learn(a, b, c, pv, &d.mixS, bit)
	return bit
}

// GolombMixers are the mixers of a Golomb model coded with a second (and
// third) one (Golomb.EncodeMix3): one per decision of the model.
type GolombMixers struct {
	zero, sign Mixer
	class      [1 << golombClassBits]Mixer
	mant       [golombMantClasses][1 << golombModelled]Mixer
}

// Reset puts every mixer back to its start.
func (g *GolombMixers) Reset() {
	g.zero.Reset()
	g.sign.Reset()
	ResetMixers(g.class[:])
	for i := range g.mant {
		ResetMixers(g.mant[i][:])
	}
}

// at returns &ps[i], or nil when ps is nil (no third model).
func at(ps []Prob, i uint32) *Prob {
	if ps == nil {
		return nil
	}
	return &ps[i]
}

func (e *Encoder) encodeTreeMix(t, u, x []Prob, ms []Mixer, n int, v uint32) {
	m := uint32(1)
	for i := n - 1; i >= 0; i-- {
		b := int(v >> uint(i) & 1)
		e.EncodeMix3(&t[m], &u[m], at(x, m), &ms[m], b)
		m = m<<1 | uint32(b)
	}
}

func (d *Decoder) decodeTreeMix(t, u, x []Prob, ms []Mixer, n int) uint32 {
	m := uint32(1)
	for range n {
		m = m<<1 | uint32(d.DecodeMix3(&t[m], &u[m], at(x, m), &ms[m]))
	}
	return m - 1<<uint(n)
}

// GolombContext is a third model for a mixed Golomb value
// (Golomb.EncodeMix3): the zero, sign and class decisions only. The
// modelled mantissa bits are mixed from two models: a third model of them
// cost bytes (more models learning less each), and leaving it out halves
// the model's size.
type GolombContext struct {
	zero, sign Prob
	class      [1 << golombClassBits]Prob
}

// Reset puts the model back to its start.
func (g *GolombContext) Reset() {
	g.zero, g.sign = ProbInit, ProbInit
	ResetProbs(g.class[:])
}

// golombParts are a GolombContext's decisions, nil for none: what the
// mixed coders walk.
type golombParts struct {
	zero, sign *Prob
	class      []Prob
}

func parts(g *GolombContext) golombParts {
	if g == nil {
		return golombParts{}
	}
	return golombParts{&g.zero, &g.sign, g.class[:]}
}

// EncodeMix3 codes v as Encode does, each decision's probability the mix
// of g's, h's and j's (j nil: of g's and h's), and updates the models and
// the mixers. j models the zero, sign and class decisions only.
func (g *Golomb) EncodeMix3(e *Encoder, h *Golomb, j *GolombContext, mx *GolombMixers, v int32) {
	g.encodeMix3(e, h, j, mx, v, false)
}

// encodeMix3 is EncodeMix3 (unary false) and EncodeMix3Unary (true):
// they differ only in how the class is coded.
func (g *Golomb) encodeMix3(e *Encoder, h *Golomb, j *GolombContext, mx *GolombMixers, v int32, unary bool) {
	x := parts(j)
	if v == 0 {
		e.EncodeMix3(&g.zero, &h.zero, x.zero, &mx.zero, 0)
		return
	}
	e.EncodeMix3(&g.zero, &h.zero, x.zero, &mx.zero, 1)
	m := uint32(v)
	if v < 0 {
		e.EncodeMix3(&g.sign, &h.sign, x.sign, &mx.sign, 1)
		m = uint32(-v)
	} else {
		e.EncodeMix3(&g.sign, &h.sign, x.sign, &mx.sign, 0)
	}
	m = min(m, GolombMax)
	k := bits.Len32(m) - 1
	if unary {
		g.encodeClassUnary(e, h, &x, mx, k)
	} else {
		e.encodeTreeMix(g.class[:], h.class[:], x.class, mx.class[:], golombClassBits, uint32(k))
	}
	hi := min(k, golombModelled)
	if hi > 0 {
		e.encodeTreeMix(g.mant[mantIdx(k)][:], h.mant[mantIdx(k)][:], nil, mx.mant[mantIdx(k)][:], hi, m>>uint(k-hi)&(1<<uint(hi)-1))
	}
	if k > hi {
		e.EncodeDirect(m&(1<<uint(k-hi)-1), k-hi)
	}
}

// DecodeMix3 reads a value coded with EncodeMix3; ok is false for a class
// no encoder writes.
func (g *Golomb) DecodeMix3(d *Decoder, h *Golomb, j *GolombContext, mx *GolombMixers) (v int32, ok bool) {
	return g.decodeMix3(d, h, j, mx, false)
}

// decodeMix3 reads what encodeMix3 wrote with the same unary.
func (g *Golomb) decodeMix3(d *Decoder, h *Golomb, j *GolombContext, mx *GolombMixers, unary bool) (v int32, ok bool) {
	x := parts(j)
	if d.DecodeMix3(&g.zero, &h.zero, x.zero, &mx.zero) == 0 {
		return 0, true
	}
	neg := d.DecodeMix3(&g.sign, &h.sign, x.sign, &mx.sign) == 1
	var k int
	if unary {
		k = g.decodeClassUnary(d, h, &x, mx)
	} else {
		k = int(d.decodeTreeMix(g.class[:], h.class[:], x.class, mx.class[:], golombClassBits))
	}
	if k > GolombMaxClass {
		return 0, false
	}
	m := uint32(1)
	hi := min(k, golombModelled)
	if hi > 0 {
		m = m<<uint(hi) | d.decodeTreeMix(g.mant[mantIdx(k)][:], h.mant[mantIdx(k)][:], nil, mx.mant[mantIdx(k)][:], hi)
	}
	if k > hi {
		m = m<<uint(k-hi) | d.DecodeDirect(k-hi)
	}
	if neg {
		return -int32(m), true
	}
	return int32(m), true
}
