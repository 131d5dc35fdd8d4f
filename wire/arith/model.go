package arith

import "math/bits"

// Design note: the models. Each is a set of Probs that must start from the
// same values and see the same decisions on both sides; Reset puts a model
// back to its start. Adaptation: after each decision the probability moves
// toward what was seen, fast at first and then at two settled rates whose
// estimates are mixed (fastShifts, slowShifts): models must learn within
// one packet when they start fresh, and track slow changes when the
// snapshot coder carries them from packet to packet (snapshot/entropy.go).
//
//   - Prob: one binary decision.
//   - Tree: an n-bit integer as n decisions down a binary tree, each node
//     its own Prob, so the second bit's probability depends on the first
//     (LZMA's bit tree). 2^n Probs.
//   - Golomb: a signed integer, typically a residual (value minus
//     prediction), mostly small but sometimes large. A "zero?" decision,
//     then the sign, then the magnitude m ≥ 1 as its class k = ⌊log2 m⌋
//     (a 5-bit Tree) and the k bits below its leading one: the top two of
//     them modelled per class (they carry the shape of the distribution),
//     the rest direct. This is the adaptive cousin of exp-Golomb coding,
//     whose prefix is the class in unary and whose suffix is raw.

// Two rates, mixed. A Prob is two estimates of the same probability: a
// fast one (fastShifts) that follows local changes, and a slow one
// (slowShifts) that averages over many more decisions; the coder uses
// their mean. Each starts like simple counting (moving half way toward
// the first decision, a third or a quarter toward the next ones: about
// 1/(n+2)), so that a fresh model learns from its very first decisions,
// and then settles, the fast one at 1/16 from the seventh decision on, the
// slow one at 1/64 from the fourteenth. Neither rate alone is best: the
// snapshot coder's models are carried from packet to packet, so they see
// hundreds of decisions of slowly changing statistics, where 1/16 is noisy
// and 1/64 lags (the figures: docs/design/entropy-coding.md).
var (
	fastShifts = [adaptSteps]uint8{1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}
	slowShifts = [adaptSteps]uint8{1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6}
)

const adaptSteps = 16

// Prob is an adaptive probability of a 0 decision, packed in 32 bits:
// bits 0-11 the fast estimate in 1/4096 (never 0 or 4096), bits 12-15 how
// many decisions it has seen (saturating at 15, it picks the rates), bits
// 16-31 the slow estimate in 1/65536.
type Prob uint32

const slowOne = 1 << 16

// ProbInit is the start of every Prob: one half, never seen a decision.
const ProbInit Prob = probOne/2 | slowOne/2<<16

// p0 is the probability the coder uses, in 1/4096: the two estimates'
// mean, kept inside (0, 4096).
func (p Prob) p0() uint32 {
	fast, slow := uint32(p&probMask), uint32(p>>16)
	return min(max((fast+slow>>(16-probBits))/2, 1), probOne-1)
}

// update moves both estimates toward bit, each at its rate.
func (p *Prob) update(bit int) {
	fast, n, slow := uint32(*p&probMask), uint32(*p>>probBits&(adaptSteps-1)), uint32(*p>>16)
	if bit == 0 {
		fast += (probOne - fast) >> fastShifts[n]
		slow += (slowOne - slow) >> slowShifts[n]
	} else {
		fast -= fast >> fastShifts[n]
		slow -= slow >> slowShifts[n]
	}
	*p = Prob(fast) | Prob(min(n+1, adaptSteps-1))<<probBits | Prob(min(slow, slowOne-1))<<16
}

// ResetProbs sets every Prob of ps to ProbInit.
func ResetProbs(ps []Prob) {
	for i := range ps {
		ps[i] = ProbInit
	}
}

// EncodeTree codes v (0 ≤ v < 2^n) with the bit tree t, len(t) ≥ 2^n, high
// bit first.
func (e *Encoder) EncodeTree(t []Prob, n int, v uint32) {
	m := uint32(1)
	for i := n - 1; i >= 0; i-- {
		b := int(v >> uint(i) & 1)
		e.Encode(&t[m], b)
		m = m<<1 | uint32(b)
	}
}

// DecodeTree reads an n-bit value coded with EncodeTree.
func (d *Decoder) DecodeTree(t []Prob, n int) uint32 {
	m := uint32(1)
	for range n {
		m = m<<1 | uint32(d.Decode(&t[m]))
	}
	return m - 1<<uint(n)
}

// Golomb limits: magnitudes up to 2^(GolombMaxClass+1) - 1.
const (
	golombClassBits = 5
	// GolombMaxClass is the largest class coded: magnitudes below 2^25,
	// more than any quantized position or orientation difference. A
	// decoder refuses a larger class (hostile input).
	GolombMaxClass = 24
	golombModelled = 2 // mantissa bits with a model, per class
	// golombMantClasses: the classes whose modelled mantissa bits have
	// models of their own; the larger (magnitudes of 512 and more,
	// rare in residuals) share the last. A Golomb is 70 Probs, not 134:
	// the snapshot coder keeps hundreds of them per snapshot.
	golombMantClasses = 10
)

// Golomb is the adaptive signed exp-Golomb model.
type Golomb struct {
	zero, sign Prob
	class      [1 << golombClassBits]Prob
	mant       [golombMantClasses][1 << golombModelled]Prob
}

// Reset puts the model back to its start.
func (g *Golomb) Reset() {
	g.zero, g.sign = ProbInit, ProbInit
	ResetProbs(g.class[:])
	for i := range g.mant {
		ResetProbs(g.mant[i][:])
	}
}

// Magnitude limit of Golomb.
const GolombMax = 1<<(GolombMaxClass+1) - 1

// Encode codes v, |v| ≤ GolombMax (larger magnitudes are clamped: callers
// only code values they have bounded).
func (g *Golomb) Encode(e *Encoder, v int32) {
	if v == 0 {
		e.Encode(&g.zero, 0)
		return
	}
	e.Encode(&g.zero, 1)
	m := uint32(v)
	if v < 0 {
		e.Encode(&g.sign, 1)
		m = uint32(-v)
	} else {
		e.Encode(&g.sign, 0)
	}
	m = min(m, GolombMax)
	k := bits.Len32(m) - 1
	e.EncodeTree(g.class[:], golombClassBits, uint32(k))
	hi := min(k, golombModelled)
	if hi > 0 {
		e.EncodeTree(g.mant[mantIdx(k)][:], hi, m>>uint(k-hi)&(1<<uint(hi)-1))
	}
	if k > hi {
		e.EncodeDirect(m&(1<<uint(k-hi)-1), k-hi)
	}
}

// Decode reads a value coded with Encode; ok is false for a class no
// encoder writes.
func (g *Golomb) Decode(d *Decoder) (v int32, ok bool) {
	if d.Decode(&g.zero) == 0 {
		return 0, true
	}
	neg := d.Decode(&g.sign) == 1
	k := int(d.DecodeTree(g.class[:], golombClassBits))
	if k > GolombMaxClass {
		return 0, false
	}
	m := uint32(1)
	hi := min(k, golombModelled)
	if hi > 0 {
		m = m<<uint(hi) | d.DecodeTree(g.mant[mantIdx(k)][:], hi)
	}
	if k > hi {
		m = m<<uint(k-hi) | d.DecodeDirect(k-hi)
	}
	if neg {
		return -int32(m), true
	}
	return int32(m), true
}

// mantIdx is the mantissa models' index for class k.
func mantIdx(k int) int { return min(k, golombMantClasses-1) }
