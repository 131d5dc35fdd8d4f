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
	}
}

// Mixer holds the two weights of one mixed decision, in 1/65536 (zero
// value: unused, Reset sets the start).
type Mixer struct{ w [2]int32 }

// mixerStart: each input weighs 0.55 at first, about their mean at
// the start (a slight boost, since two agreeing models are surer than one).
const mixerStart = 30000

// mixShift sets the mixer's learning rate: a weight moves by
// input·error / 2^mixShift.
const mixShift = 11

// Reset puts the weights back to their start.
func (m *Mixer) Reset() { m.w = [2]int32{mixerStart, mixerStart} }

// ResetMixers resets every Mixer of ms.
func ResetMixers(ms []Mixer) {
	for i := range ms {
		ms[i].Reset()
	}
}

// mix returns the mixed probability of a 0 and the two inputs.
func (m *Mixer) mix(a, b *Prob) (p uint32, s0, s1 int32) {
	s0, s1 = int32(stretchTable[a.p0()]), int32(stretchTable[b.p0()])
	dot := (int64(m.w[0])*int64(s0) + int64(m.w[1])*int64(s1)) >> 16
	pm := squash(int32(max(min(dot, 2047), -2047)))
	return uint32(min(max(pm, 1), probOne-1)), s0, s1
}

// learn moves the weights toward what was seen and updates both Probs.
func (m *Mixer) learn(a, b *Prob, p uint32, s0, s1 int32, bit int) {
	err := int32(probOne-1)*int32(1-bit) - int32(p)
	m.w[0] += s0 * err >> mixShift
	m.w[1] += s1 * err >> mixShift
	// Bounded, so a hostile stream cannot drive them anywhere odd.
	m.w[0] = min(max(m.w[0], -1<<20), 1<<20)
	m.w[1] = min(max(m.w[1], -1<<20), 1<<20)
	a.update(bit)
	b.update(bit)
}

// EncodeMix codes bit with the mix of a and b, and updates all three.
func (e *Encoder) EncodeMix(a, b *Prob, m *Mixer, bit int) {
	pv, s0, s1 := m.mix(a, b)
	e.encodeP(pv, bit)
	m.learn(a, b, pv, s0, s1, bit)
}

// DecodeMix reads a decision coded with EncodeMix.
func (d *Decoder) DecodeMix(a, b *Prob, m *Mixer) int {
	pv, s0, s1 := m.mix(a, b)
	bit := d.decodeP(pv)
	m.learn(a, b, pv, s0, s1, bit)
	return bit
}

// GolombMixers are the mixers of a Golomb model coded with a second one
// (Golomb.EncodeMix): one per decision of the model.
type GolombMixers struct {
	zero, sign Mixer
	class      [1 << golombClassBits]Mixer
	mant       [GolombMaxClass + 1][1 << golombModelled]Mixer
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

func (e *Encoder) encodeTreeMix(t, u []Prob, ms []Mixer, n int, v uint32) {
	m := uint32(1)
	for i := n - 1; i >= 0; i-- {
		b := int(v >> uint(i) & 1)
		e.EncodeMix(&t[m], &u[m], &ms[m], b)
		m = m<<1 | uint32(b)
	}
}

func (d *Decoder) decodeTreeMix(t, u []Prob, ms []Mixer, n int) uint32 {
	m := uint32(1)
	for range n {
		m = m<<1 | uint32(d.DecodeMix(&t[m], &u[m], &ms[m]))
	}
	return m - 1<<uint(n)
}

// EncodeMix codes v as Encode does, each decision's probability the mix
// of g's and h's, and updates both models and the mixers.
func (g *Golomb) EncodeMix(e *Encoder, h *Golomb, mx *GolombMixers, v int32) {
	if v == 0 {
		e.EncodeMix(&g.zero, &h.zero, &mx.zero, 0)
		return
	}
	e.EncodeMix(&g.zero, &h.zero, &mx.zero, 1)
	m := uint32(v)
	if v < 0 {
		e.EncodeMix(&g.sign, &h.sign, &mx.sign, 1)
		m = uint32(-v)
	} else {
		e.EncodeMix(&g.sign, &h.sign, &mx.sign, 0)
	}
	m = min(m, GolombMax)
	k := bits.Len32(m) - 1
	e.encodeTreeMix(g.class[:], h.class[:], mx.class[:], golombClassBits, uint32(k))
	hi := min(k, golombModelled)
	if hi > 0 {
		e.encodeTreeMix(g.mant[k][:], h.mant[k][:], mx.mant[k][:], hi, m>>uint(k-hi)&(1<<uint(hi)-1))
	}
	if k > hi {
		e.EncodeDirect(m&(1<<uint(k-hi)-1), k-hi)
	}
}

// DecodeMix reads a value coded with EncodeMix; ok is false for a class
// no encoder writes.
func (g *Golomb) DecodeMix(d *Decoder, h *Golomb, mx *GolombMixers) (v int32, ok bool) {
	if d.DecodeMix(&g.zero, &h.zero, &mx.zero) == 0 {
		return 0, true
	}
	neg := d.DecodeMix(&g.sign, &h.sign, &mx.sign) == 1
	k := int(d.decodeTreeMix(g.class[:], h.class[:], mx.class[:], golombClassBits))
	if k > GolombMaxClass {
		return 0, false
	}
	m := uint32(1)
	hi := min(k, golombModelled)
	if hi > 0 {
		m = m<<uint(hi) | d.decodeTreeMix(g.mant[k][:], h.mant[k][:], mx.mant[k][:], hi)
	}
	if k > hi {
		m = m<<uint(k-hi) | d.DecodeDirect(k-hi)
	}
	if neg {
		return -int32(m), true
	}
	return int32(m), true
}
