package arith

import (
	"math/bits"
	"unsafe"
)

// Design note: replaying recorded decisions. A server sends many clients
// packets that make the same decisions with different models (the
// snapshot coder's trace, snapshot/trace.go): the values are known, only
// the probabilities differ. Coding them through the models' methods
// (Golomb.EncodeMix3 and the like) walks a value's decisions one call at
// a time, the coder's state going through memory between calls. A replay
// instead flattens each value once into its binary decisions (Steps: which
// Probs and Mixer, which bit) and codes them in one loop (Encoder.Replay)
// that keeps the coder's state in registers. The arithmetic is the same,
// operation for operation, so the bits and the models' updates are too
// (TestReplaySameAsCalls).
//
// Models are named by byte offsets from a base (the caller's block of
// models), since a step list is recorded once and replayed against many
// blocks of the same layout. One Prob of a step may depend on a class the
// replaying block holds (the snapshot coder's memory class of a cube): its
// offset is that of class 0, and the class read by the last StepClass
// times Stride is added.

// Step kinds.
const (
	StepPlain  = iota // Encode(A, Bit)
	StepMix2          // EncodeMix3(A, B, nil, M, Bit)
	StepMix3          // EncodeMix3(A, B, C, M, Bit)
	StepDirect        // EncodeDirect(A, Bit bits)
	StepTag           // Tag = A
	StepClass         // the class is classes[the byte at offset A]
)

// Step is one decision of a replay (or a change of tag or class).
type Step struct {
	A, B, C, M int32 // offsets of Probs A, B (at class 0), C and of Mixer M
	Stride     int32 // B's distance per class (0: B does not depend on it)
	Kind, Bit  uint8
	// firstHit: the first class at which two of a mixed decision's Probs
	// are the same one (256: none; AppendMix sets it). The assembly
	// kernel moves Probs side by side below that class, and one after the
	// other from it on (as a Step made without AppendMix always does).
	firstHit uint16
}

var (
	golombZero  = int32(unsafe.Offsetof(Golomb{}.zero))
	golombSign  = int32(unsafe.Offsetof(Golomb{}.sign))
	golombClass = int32(unsafe.Offsetof(Golomb{}.class))
	golombMant  = int32(unsafe.Offsetof(Golomb{}.mant))
	ctxZero     = int32(unsafe.Offsetof(GolombContext{}.zero))
	ctxSign     = int32(unsafe.Offsetof(GolombContext{}.sign))
	ctxClass    = int32(unsafe.Offsetof(GolombContext{}.class))
	mixZero     = int32(unsafe.Offsetof(GolombMixers{}.zero))
	mixSign     = int32(unsafe.Offsetof(GolombMixers{}.sign))
	mixClass    = int32(unsafe.Offsetof(GolombMixers{}.class))
	mixMant     = int32(unsafe.Offsetof(GolombMixers{}.mant))
	probSize    = int32(unsafe.Sizeof(Prob(0)))
	mixerSize   = int32(unsafe.Sizeof(Mixer{}))
)

// AppendBit appends Encode(p, bit), p the Prob at offset p.
func AppendBit(s []Step, p int32, bit int) []Step {
	s, st := grow(s)
	st.A, st.B, st.C, st.M, st.Stride = p, 0, 0, 0, 0
	st.Kind, st.Bit, st.firstHit = StepPlain, uint8(bit), 0
	return s
}

// grow returns s one step longer and that step, to be written field by
// field, every field (it may hold a step of an earlier recording). A
// Step built whole and appended is written to the stack field by field
// and read back in 16-byte moves, which the processor cannot forward
// from those narrower stores: a stall of a dozen cycles or more on every
// step appended, most of a recording's appending.
func grow(s []Step) ([]Step, *Step) {
	n := len(s)
	if n < cap(s) {
		s = s[:n+1]
	} else {
		s = append(s, Step{})
	}
	return s, &s[n]
}

// AppendTree appends EncodeTree(t, n, v), t's first Prob at offset t.
func AppendTree(s []Step, t int32, n int, v uint32) []Step {
	m := int32(1)
	for i := n - 1; i >= 0; i-- {
		b := int32(v >> uint(i) & 1)
		s = AppendBit(s, t+m*probSize, int(b))
		m = m<<1 | b
	}
	return s
}

// AppendDirect appends EncodeDirect(v, n).
func AppendDirect(s []Step, v uint32, n int) []Step {
	s, st := grow(s)
	st.A, st.B, st.C, st.M, st.Stride = int32(v), 0, 0, 0, 0
	st.Kind, st.Bit, st.firstHit = StepDirect, uint8(n), 0
	return s
}

// AppendTag appends a change of the cost tag. A change to the tag a
// StepTag a few steps back already set is left out: it would charge the
// cost so far to that same tag and leave it in force, which is nothing
// (the snapshot coder names the same tag before every cube's first
// decision).
func AppendTag(s []Step, tag int) []Step {
	for i := len(s) - 1; i >= max(len(s)-tagLookBack, 0); i-- {
		if s[i].Kind == StepTag {
			if s[i].A == int32(tag) {
				return s
			}
			break
		}
	}
	s, st := grow(s)
	st.A, st.B, st.C, st.M, st.Stride = int32(tag), 0, 0, 0, 0
	st.Kind, st.Bit, st.firstHit = StepTag, 0, 0
	return s
}

// tagLookBack bounds AppendTag's look back, so that appending stays
// linear in the steps.
const tagLookBack = 8

// AppendClass appends a change of class: the byte at offset off of the
// replayed block, through Replay's classes table.
func AppendClass(s []Step, off int32) []Step {
	s, st := grow(s)
	st.A, st.B, st.C, st.M, st.Stride = off, 0, 0, 0, 0
	st.Kind, st.Bit, st.firstHit = StepClass, 0, 0
	return s
}

// AppendMix appends EncodeMix3(a, b, c, m, bit): Probs at offsets a, b (at
// class 0, stride per class), c (< 0: none), the Mixer at offset m.
func AppendMix(s []Step, a, b, stride, c, m int32, bit int) []Step {
	if c < 0 {
		return putMix(s, StepMix2, a, b, stride, 0, m, bit, classHit(b, stride, a))
	}
	return putMix(s, StepMix3, a, b, stride, c, m, bit, mix3Hit(a, b, stride, c))
}

// mix3Hit is a three-input step's firstHit: the first class at which B is
// A or C (0 when A is C).
func mix3Hit(a, b, stride, c int32) uint16 {
	if a == c {
		return 0
	}
	return min(classHit(b, stride, a), classHit(b, stride, c))
}

// putMix appends a mixed step of kind k, its firstHit already known.
func putMix(s []Step, k uint8, a, b, stride, c, m int32, bit int, hit uint16) []Step {
	s, st := grow(s)
	st.A, st.B, st.C, st.M, st.Stride = a, b, c, m, stride
	st.Kind, st.Bit, st.firstHit = k, uint8(bit), hit
	return s
}

// classHit is the first class k (0..255, a byte of Replay's classes
// table) at which b+k·stride is x, or 256 if there is none.
func classHit(b, stride, x int32) uint16 {
	d, s := int64(x)-int64(b), int64(stride)
	switch {
	case s == 0 && d == 0:
		return 0
	case s == 0, s > 0 && (d < 0 || d > 255*s), s < 0 && (d > 0 || d < 255*s):
		return 256 // (no division: the usual case, x far from B)
	case d%s != 0:
		return 256
	}
	return uint16(d / s)
}

// AppendGolomb appends g.Encode(v), g at offset g.
func AppendGolomb(s []Step, g int32, v int32) []Step {
	if v == 0 {
		return AppendBit(s, g+golombZero, 0)
	}
	s = AppendBit(s, g+golombZero, 1)
	m := uint32(v)
	if v < 0 {
		s = AppendBit(s, g+golombSign, 1)
		m = uint32(-v)
	} else {
		s = AppendBit(s, g+golombSign, 0)
	}
	m = min(m, GolombMax)
	k := bits.Len32(m) - 1
	s = AppendTree(s, g+golombClass, golombClassBits, uint32(k))
	hi := min(k, golombModelled)
	if hi > 0 {
		s = AppendTree(s, g+golombMant+int32(mantIdx(k))*(1<<golombModelled)*probSize, hi, m>>uint(k-hi)&(1<<uint(hi)-1))
	}
	if k > hi {
		s = AppendDirect(s, m&(1<<uint(k-hi)-1), k-hi)
	}
	return s
}

// AppendGolombMix appends g.EncodeMix3(e, h, j, mx, v): g, h (at class 0,
// stride per class), j (< 0: none) and mx at those offsets.
//
// Every decision's first and second Probs lie at the same offset in g and
// h, and its third at the same offset in j as in g (GolombContext is laid
// out as Golomb's first fields), so each step's firstHit (AppendMix's
// rule, two divisions' worth of tests) is one of four worked out once
// for the value: the mantissa's (no third Prob) and the zero, sign and
// class decisions'.
func AppendGolombMix(s []Step, g, h, stride, j, mx int32, v int32) []Step {
	hitA := classHit(h, stride, g)
	// The third model's decisions, when there is one (j < 0: none, two-
	// input steps whose C is 0, as AppendMix makes them).
	kind, jz, js, jc := uint8(StepMix2), int32(0), int32(0), int32(0)
	hitZ, hitS, hitC := hitA, hitA, hitA
	if j >= 0 {
		kind, jz, js, jc = StepMix3, j+ctxZero, j+ctxSign, j+ctxClass
		hitZ = mix3Hit(g+golombZero, h+golombZero, stride, jz)
		hitS = mix3Hit(g+golombSign, h+golombSign, stride, js)
		hitC = mix3Hit(g+golombClass, h+golombClass, stride, jc)
	}
	if v == 0 {
		return putMix(s, kind, g+golombZero, h+golombZero, stride, jz, mx+mixZero, 0, hitZ)
	}
	s = putMix(s, kind, g+golombZero, h+golombZero, stride, jz, mx+mixZero, 1, hitZ)
	m := uint32(v)
	neg := 0
	if v < 0 {
		neg, m = 1, uint32(-v)
	}
	s = putMix(s, kind, g+golombSign, h+golombSign, stride, js, mx+mixSign, neg, hitS)
	m = min(m, GolombMax)
	k := bits.Len32(m) - 1
	node := int32(1)
	for i := golombClassBits - 1; i >= 0; i-- {
		b := int32(k >> uint(i) & 1)
		c := int32(0)
		if kind == StepMix3 {
			c = jc + node*probSize
		}
		s = putMix(s, kind, g+golombClass+node*probSize, h+golombClass+node*probSize, stride, c, mx+mixClass+node*mixerSize, int(b), hitC)
		node = node<<1 | b
	}
	hi := min(k, golombModelled)
	if hi > 0 {
		row := int32(mantIdx(k)) * (1 << golombModelled)
		v := m >> uint(k-hi) & (1<<uint(hi) - 1)
		node := int32(1)
		for i := hi - 1; i >= 0; i-- {
			b := int32(v >> uint(i) & 1)
			p := golombMant + (row+node)*probSize
			s = putMix(s, StepMix2, g+p, h+p, stride, 0, mx+mixMant+(row+node)*mixerSize, int(b), hitA)
			node = node<<1 | b
		}
	}
	if k > hi {
		s = AppendDirect(s, m&(1<<uint(k-hi)-1), k-hi)
	}
	return s
}

// Replay codes steps against the models at base (laid out as when the
// steps were appended): the same bits, costs and model updates as the
// calls they were appended for. classes maps a StepClass's byte to the
// class. The steps are the caller's own (never read from a stream): their
// offsets are trusted, and a step's Probs never lie in its Mixer.
//
// The loop is the server's hottest (a replay is most of a sender's
// time), so it is written for the processor: the bits are known before
// the decision is coded, hence nothing branches on them (the range, the
// cost and the models move by masks, Prob.moved); a two-input decision
// takes the three-input path (below); the products are 32-bit; nothing
// in the loop is a call (the compiler keeps the loop's state in memory
// around one, however rare); and every table index is one the compiler
// can see is in range. The measurements: docs/design/entropy-coding.md.
//
// On amd64 with SSE4.1 (unless built with the purego tag) the replay runs
// in an assembly kernel (replay_amd64.s) that does the same operations in
// the same order with every value in a register; elsewhere, and as the
// reference the kernel is tested against, in replayGo below.
func (e *Encoder) Replay(base unsafe.Pointer, steps []Step, classes *[256]uint8) {
	if haveReplayKernel {
		replayKernel(e, base, steps, classes)
		return
	}
	e.replayGo(base, steps, classes)
}

// replayGo is Replay in Go: the portable loop.
func (e *Encoder) replayGo(base unsafe.Pointer, steps []Step, classes *[256]uint8) {
	low, rng := e.low, e.rng
	var cost uint64 // charged to e.Tag at each change of tag and at the end
	n := 0
	cls := int32(0)
	for i := range steps {
		st := &steps[i]
		k, bit := st.Kind-StepMix2, uint32(st.Bit)&1
		var pv uint32
		if k <= StepMix3-StepMix2 {
			// A two-input decision (k 0) reads its first model as its
			// third and weighs it by 0: the same dot product, no weight
			// moves, and it moves that model once, as it should.
			// Offsets are never negative: zero-extended, they load
			// without a sign extension.
			m3 := -int32(k)
			cOff := st.A + (st.C-st.A)&m3
			pa := (*Prob)(unsafe.Add(base, uint32(st.A)))
			pb := (*Prob)(unsafe.Add(base, uint32(st.B+cls*st.Stride)))
			pc := (*Prob)(unsafe.Add(base, uint32(cOff)))
			w := (*[6]int32)(unsafe.Add(base, uint32(st.M)))
			c := *pc
			s4, s5 := stretch32[c&probMask]&m3, stretch32[c>>20]&m3
			a := *pa
			s0, s1 := stretch32[a&probMask], stretch32[a>>20]
			b := *pb
			s2, s3 := stretch32[b&probMask], stretch32[b>>20]
			w0, w1, w2, w3, w4, w5 := w[0], w[1], w[2], w[3], w[4], w[5]
			// Each product fits in 32 bits (|w| ≤ 2^20, |s| < 2^11),
			// their sum does not.
			dot := (int64(w0*s0) + int64(w1*s1)) + (int64(w2*s2) + int64(w3*s3)) + (int64(w4*s4) + int64(w5*s5))
			pv = uint32(squashTable[clampMix(int32(dot>>16))+2047])
			// The error in 1/4096: 4095 after a 0, 0 after a 1, minus p.
			err := int32(probMask&(bit-1)) - int32(pv)
			w0 += s0 * err >> mixShift
			w1 += s1 * err >> mixShift
			w2 += s2 * err >> mixShift
			w3 += s3 * err >> mixShift
			w4 += s4 * err >> mixShift
			w5 += s5 * err >> mixShift
			// Each weight stays in ±2^20 (clampWeight). One test for the
			// six: w+2^20 below 2^21 for all of them, else each clamped.
			if uint32(w0+1<<20)|uint32(w1+1<<20)|uint32(w2+1<<20)|uint32(w3+1<<20)|uint32(w4+1<<20)|uint32(w5+1<<20) >= 1<<21 {
				w0, w1, w2 = clampWeight(w0), clampWeight(w1), clampWeight(w2)
				w3, w4, w5 = clampWeight(w3), clampWeight(w4), clampWeight(w5)
			}
			w[0], w[1], w[2], w[3], w[4], w[5] = w0, w1, w2, w3, w4, w5
			// In the calls' order (c, a, b): a Prob named twice moves
			// twice, each time from where the last left it. A
			// two-input decision writes its third (its first) back
			// as it was.
			flip, up := 0xFFFF0FFF&(bit-1), bit^1
			if a&b&c&settledCount == settledCount {
				// All three have settled (the usual case for models
				// carried from packet to packet): the last rates, as
				// constants, and no table on the models' chain.
				cn := c.settled(flip, up)
				*pc = cn ^ (cn^c)&^Prob(m3)
				*pa = pa.settled(flip, up)
				*pb = pb.settled(flip, up)
			} else {
				cn := c.moved(flip, up)
				*pc = cn ^ (cn^c)&^Prob(m3)
				*pa = pa.moved(flip, up)
				*pb = pb.moved(flip, up)
			}
		} else {
			switch st.Kind {
			case StepPlain:
				p := (*Prob)(unsafe.Add(base, st.A))
				pv = p.p0()
				*p = p.moved(0xFFFF0FFF&(bit-1), bit^1)
			case StepDirect:
				v := uint32(st.A)
				nb := int(st.Bit)
				cost += uint64(nb) * CostScale
				n += nb
				for j := nb - 1; j >= 0; j-- {
					rng >>= 1
					// By a mask, not a branch: raw bits are random.
					low += uint64(rng & -(v >> uint(j) & 1))
					for rng < topValue {
						rng <<= 8
						// shiftLow, written out: a call in this loop, however rare,
						// makes the compiler keep the loop's state in memory around it
						// on every iteration.
						if uint32(low) < 0xFF000000 || low >= 1<<32 {
							carry, b := byte(low>>32), e.cache
							for ; e.pending > 0; e.pending-- {
								if !e.started {
									e.started = true // the first byte is always 0
								} else if e.n < len(e.buf) {
									e.buf[e.n] = b + carry
									e.n++
								} else {
									e.overflow = true
								}
								b = 0xFF
							}
							e.cache = byte(low >> 24)
						}
						e.pending++
						low = (low & 0x00FFFFFF) << 8
					}
				}
				continue
			case StepTag:
				e.Costs[e.Tag&(NumTags-1)] += cost
				cost = 0
				e.Tag = int(st.A)
				continue
			case StepClass:
				cls = int32(classes[*(*uint8)(unsafe.Add(base, st.A))])
				continue
			default:
				continue
			}
		}
		// The decision itself: encodeP with the state in registers and
		// the bit as a mask (all ones for a 1): a 1 keeps the range's
		// upper part, rng-bound above low+bound, and costs the
		// information of 4096-pv, (pv^4095)+1.
		n++
		mask := -bit
		bound := (rng >> probBits) * pv
		rng = bound + (rng-2*bound)&mask
		low += uint64(bound & mask)
		cost += uint64(costTable[uint8(((pv^probMask&mask)+bit)>>4)])
		for rng < topValue {
			rng <<= 8
			// shiftLow, written out: a call in this loop, however rare,
			// makes the compiler keep the loop's state in memory around it
			// on every iteration.
			if uint32(low) < 0xFF000000 || low >= 1<<32 {
				carry, b := byte(low>>32), e.cache
				for ; e.pending > 0; e.pending-- {
					if !e.started {
						e.started = true // the first byte is always 0
					} else if e.n < len(e.buf) {
						e.buf[e.n] = b + carry
						e.n++
					} else {
						e.overflow = true
					}
					b = 0xFF
				}
				e.cache = byte(low >> 24)
			}
			e.pending++
			low = (low & 0x00FFFFFF) << 8
		}
	}
	e.low, e.rng = low, rng
	e.Costs[e.Tag&(NumTags-1)] += cost
	e.decisions += n
}

// stretch32 is stretchTable in 32 bits (filled with it): one load with
// no sign extension, in the registers' width of the products.
var stretch32 [probOne]int32

// clampMix bounds a mixed stretched probability to squash's domain.
func clampMix(x int32) int32 { return min(max(x, -2047), 2047) }

// squashTable[x+2047] is squash(x), x in [-2047, 2047]: the coders'
// squash as one load, the same values as the interpolation.
var squashTable = func() (t [4095]uint16) {
	for i := range t {
		t[i] = uint16(squash(int32(i) - 2047))
	}
	return t
}()
