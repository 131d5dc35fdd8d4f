package arith

import "math/bits"

// Design note: the models. Each is a set of Probs that must start from the
// same values and see the same decisions on both sides; Reset puts a model
// back to its start. Adaptation: after each decision the probability moves
// toward what was seen, fast at first and then 1/16 of the way
// (adaptShifts), to learn within one packet, since the snapshot coder
// starts every packet from fresh models (see snapshot/entropy.go for why).
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

// adaptShifts sets the adaptation rate by how many decisions a Prob has
// seen: a fresh model moves half way toward its first decision, a third or
// a quarter toward the next ones (about 1/(n+2), the rate of simply
// counting), settling at 1/16 from the seventh on. Models start fresh in
// every packet, so most of them see only a few dozen decisions: learning
// from the very first ones matters.
var adaptShifts = [adaptSteps]uint8{1, 2, 2, 3, 3, 3, 4, 4}

const adaptSteps = 8

// Prob is an adaptive probability of a 0 decision: its low 12 bits in
// 1/4096 (never 0 or 4096), its top bits how many decisions it has seen
// (saturating at 7), which sets how fast it still moves.
type Prob uint16

// ProbInit is the start of every Prob: one half.
const ProbInit Prob = probOne / 2

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
)

// Golomb is the adaptive signed exp-Golomb model.
type Golomb struct {
	zero, sign Prob
	class      [1 << golombClassBits]Prob
	mant       [GolombMaxClass + 1][1 << golombModelled]Prob
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
		e.EncodeTree(g.mant[k][:], hi, m>>uint(k-hi)&(1<<uint(hi)-1))
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
		m = m<<uint(hi) | d.DecodeTree(g.mant[k][:], hi)
	}
	if k > hi {
		m = m<<uint(k-hi) | d.DecodeDirect(k-hi)
	}
	if neg {
		return -int32(m), true
	}
	return int32(m), true
}
