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
	flip, up := uint32(0xFFFF0FFF), uint32(1)
	if bit != 0 {
		flip, up = 0, 0
	}
	*p = p.moved(flip, up)
}

// moved is p after a decision, without a branch on the bit: flip is
// 0xFFFF0FFF after a 0 and 0 after a 1, up is 1 after a 0 and 0 after a 1
// (a coder computes both once per decision and moves up to three Probs
// with them).
//
// After a 1 each estimate x falls by x>>shift. After a 0 it rises by
// (one-x)>>shift, where one is 4096 or 65536: mirrored (x' = one-1-x, an
// XOR of the field's bits, which no carry crosses), that is a fall by
// (x'+1)>>shift. So the word is mirrored after a 0, both estimates fall
// (by (x+up)>>shift), and it is mirrored back: the same values as the two
// branches, for every 32-bit Prob (TestUpdateAgainstReference). Neither
// fall can borrow from the field above it, and the count only grows
// below 15, so the three fields are moved in one word.
func (p Prob) moved(flip, up uint32) Prob {
	q := uint32(p) ^ flip
	r := &adaptRates[q>>probBits&(adaptSteps-1)]
	d := (q&probMask+up)*r.fast>>16 | (q>>16+up)*r.slow&^0xFFFF
	return Prob((q - d + r.step) ^ flip)
}

// adaptRates[n] are the rates of a Prob that has seen n decisions, as
// multipliers (a shift by a variable count costs more than a multiply):
// x>>s is x·2^(16-s)>>16, and (x>>s)<<16 is x·2^(16-s) without its low 16
// bits; x is at most 2^16, so neither product overflows. step is the
// count's step, 1 below adaptSteps-1 where the count saturates.
var adaptRates = func() (t [adaptSteps]struct{ fast, slow, step, _ uint32 }) {
	for n := range t {
		t[n].fast = 1 << (16 - fastShifts[n])
		t[n].slow = 1 << (16 - slowShifts[n])
		if n < adaptSteps-1 {
			t[n].step = 1 << probBits
		}
	}
	return t
}()

// settled is moved for a Prob whose count has saturated (at
// adaptSteps-1): the rates are the last ones, constants.
func (p Prob) settled(flip, up uint32) Prob {
	q := uint32(p) ^ flip
	d := (q&probMask+up)>>settledFast | (q>>16+up)>>settledSlow<<16
	return Prob((q - d) ^ flip)
}

// The settled count, as its bits in a Prob, and the settled rates: the
// last entries of fastShifts and slowShifts (TestUpdateAgainstReference).
const (
	settledCount = (adaptSteps - 1) << probBits
	settledFast  = 4
	settledSlow  = 6
)

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
