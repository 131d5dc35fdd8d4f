package arith

// Design note: a Golomb value's class in unary. EncodeMix3 codes the
// class k = ⌊log2 |v|⌋ as a 5-bit tree: five decisions for every
// nonzero value, the first two of which ("k ≥ 16?", "k ≥ 8?") are all
// but certain for a residual of a few grid units, yet each still costs a
// little (an adaptive estimate never reaches certainty) and each mixes
// its own weights. EncodeMix3Unary codes the same class as a count
// instead, "k ≥ 1?", "k ≥ 2?", … until the first no: k + 1 decisions, the
// step into each larger class its own adaptive probability, like the
// buckets of an Elias-gamma code whose prefix bits are modelled. The
// zero, sign and mantissa decisions are EncodeMix3's. The step "k ≥ i?"
// uses the class models' entry i (1 to GolombMaxClass); the tree uses
// entries 1 to 31 as its nodes, so a model must be coded one way only.
// Measured on level 14's ball cubes: docs/design/entropy-coding.md.

// EncodeMix3Unary codes v as EncodeMix3 does, but the class in unary.
func (g *Golomb) EncodeMix3Unary(e *Encoder, h *Golomb, j *GolombContext, mx *GolombMixers, v int32) {
	g.encodeMix3(e, h, j, mx, v, true)
}

// DecodeMix3Unary reads a value coded with EncodeMix3Unary. Every
// sequence of decisions decodes to a value (the count stops at
// GolombMaxClass), so ok is always true; it is there to match
// DecodeMix3.
func (g *Golomb) DecodeMix3Unary(d *Decoder, h *Golomb, j *GolombContext, mx *GolombMixers) (v int32, ok bool) {
	return g.decodeMix3(d, h, j, mx, true)
}

// encodeClassUnary codes the class k as "k ≥ 1?", "k ≥ 2?", … up to the
// first no (or GolombMaxClass).
func (g *Golomb) encodeClassUnary(e *Encoder, h *Golomb, x *golombParts, mx *GolombMixers, k int) {
	for i := 1; i <= GolombMaxClass; i++ {
		b := b2i(k >= i)
		e.EncodeMix3(&g.class[i], &h.class[i], at(x.class, uint32(i)), &mx.class[i], b)
		if b == 0 {
			break
		}
	}
}

// decodeClassUnary reads what encodeClassUnary wrote.
func (g *Golomb) decodeClassUnary(d *Decoder, h *Golomb, x *golombParts, mx *GolombMixers) int {
	k := 0
	for i := 1; i <= GolombMaxClass; i++ {
		if d.DecodeMix3(&g.class[i], &h.class[i], at(x.class, uint32(i)), &mx.class[i]) == 0 {
			break
		}
		k = i
	}
	return k
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
