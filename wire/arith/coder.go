package arith

import (
	"errors"
	"math"
)

// Design note: why a range coder beats bit-packing. A bit-packed field
// costs a whole number of bits whatever its value; the snapshot levels 8 to
// 11 bet on the statistics with hand-picked small/large codes. An
// arithmetic (range) coder spends -log2(p) bits on a symbol of probability
// p, fractions of a bit included: a "not changed" flag that is true 95 % of
// the time costs 0.07 bits instead of 1. With ADAPTIVE probabilities
// (each model counts what it has seen) the coder learns those statistics
// from the packet itself, so nobody has to pick code lengths.
//
// The coder is binary, as in LZMA (and in Fabian Giesen's coder for the
// 2015 snapshot compression challenge): every symbol is a yes/no decision
// with its own probability, and larger values are sequences of decisions
// (model.go). The state is an interval [low, low+rng) of a 32-bit window:
// a decision splits it at bound = (rng >> 12) · p0 and keeps one side.
// When rng falls below 2^24 the top byte of low is settled and shifted out
// (normalization), so rng stays between 2^24 and 2^32.
//
// Carries: adding bound to low can carry into bytes already shifted out.
// As in LZMA, the last byte shifted out is held back (cache) together with
// a run of 0xFF bytes after it (pending), the only bytes a carry can
// still change; they are written once a byte arrives that no carry can
// reach.
//
// Two bytes saved per stream, both exact:
//   - The first byte the scheme produces is always 0 (every interval is
//     nested in the initial one, below 2^32), so it is never written and
//     the decoder starts from four bytes instead of five.
//   - The flush writes ONE byte: any number in [low, low+rng) identifies
//     the stream, and since rng ≥ 2^24 the value low rounded up to a
//     multiple of 2^24 is in it; its lower three bytes are zero, and the
//     decoder reads zeros past the end of its input.
//
// Every byte the encoder settles is one the decoder reads: the decoder
// reads four bytes to start and one per normalization, the encoder writes
// one per normalization plus the flush byte. Hence the decoder always reads
// exactly three bytes past the end of a well-formed stream (an empty one is
// the single flush byte). Decoder.Done checks that: fewer means bytes were
// appended, more means the stream was cut short. A hostile stream can
// otherwise only decode to some sequence of decisions: the callers bound
// every loop and check every value.

// Probabilities are 12-bit: p0 in (0, 4096) is the chance of a 0 bit.
const (
	probBits = 12
	probOne  = 1 << probBits
	probMask = probOne - 1
	topValue = 1 << 24
)

// ErrCorrupt is returned by Decoder.Done for a stream that did not end
// where a well-formed one ends (truncated, padded, or not a coded stream),
// and by Reset for a stream whose first bytes no encoder writes.
var ErrCorrupt = errors.New("arith: corrupt coded stream")

// ErrOverflow is returned by Encoder.Finish when the output buffer was too
// small.
var ErrOverflow = errors.New("arith: output buffer too small")

// NumTags is the number of cost tags an Encoder keeps (see Encoder.Tag).
const NumTags = 16

// CostScale is the unit of Encoder.Costs: 1/CostScale of a bit.
const CostScale = 256

// Encoder writes decisions into a caller-provided buffer. The zero value is
// not usable; call Reset. It never allocates.
type Encoder struct {
	low       uint64
	rng       uint32
	cache     byte
	pending   int // bytes held back: cache plus the 0xFF run after it
	started   bool
	buf       []byte
	n         int
	overflow  bool
	finished  bool
	finishedN int
	decisions int

	// Tag selects which entry of Costs the following decisions are
	// charged to (0..NumTags-1; the caller's categories). Costs sums, per
	// tag, the information content -log2(p) of every decision coded, in
	// 1/CostScale bits: what each category of data really cost, which
	// the snapshot packet uses to charge the coded bytes to categories.
	Tag   int
	Costs [NumTags]uint64

	mixS mixIn // the decision being mixed (EncodeMix3)
}

// Reset starts a new stream written into buf.
func (e *Encoder) Reset(buf []byte) {
	*e = Encoder{rng: math.MaxUint32, pending: 1, buf: buf}
}

func (e *Encoder) emit(b byte) {
	if !e.started {
		// The first byte is always zero (see the design note).
		e.started = true
		return
	}
	if e.n < len(e.buf) {
		e.buf[e.n] = b
		e.n++
		return
	}
	e.overflow = true
}

// shiftLow settles the top byte of low.
func (e *Encoder) shiftLow() {
	if uint32(e.low) < 0xFF000000 || e.low >= 1<<32 {
		carry := byte(e.low >> 32)
		b := e.cache
		for ; e.pending > 0; e.pending-- {
			e.emit(b + carry)
			b = 0xFF
		}
		e.cache = byte(e.low >> 24)
	}
	e.pending++
	e.low = (e.low & 0x00FFFFFF) << 8
}

// Encode codes bit (0 or 1) with the adaptive probability p and updates p.
func (e *Encoder) Encode(p *Prob, bit int) {
	e.encodeP(p.p0(), bit)
	p.update(bit)
}

// encodeP codes bit with the probability pv/4096 of a 0, in (0, 4096).
func (e *Encoder) encodeP(pv uint32, bit int) {
	e.decisions++
	// The bit as a mask (all ones for a 1), no branch on it: a 1 keeps
	// the range's upper part, rng-bound above low+bound, and costs the
	// information of 4096-pv, (pv^4095)+1.
	b := uint32(bit) & 1
	mask := -b
	bound := (e.rng >> probBits) * pv
	e.Costs[e.Tag&(NumTags-1)] += uint64(costTable[uint8(((pv^probMask&mask)+b)>>4)])
	e.rng = bound + (e.rng-2*bound)&mask
	e.low += uint64(bound & mask)
	for e.rng < topValue {
		e.rng <<= 8
		e.shiftLow()
	}
}

// EncodeDirect codes the low n bits (0..32) of v, high bit first, each with
// probability one half: for bits no model can predict (the low bits of a
// large magnitude).
func (e *Encoder) EncodeDirect(v uint32, n int) {
	e.Costs[e.Tag&(NumTags-1)] += uint64(n) * CostScale
	e.decisions += n
	for i := n - 1; i >= 0; i-- {
		e.rng >>= 1
		// low grows by rng for a 1, by a mask rather than a branch: the
		// bits are random, so a branch on them is guessed wrong half
		// the time.
		e.low += uint64(e.rng & -(v >> uint(i) & 1))
		for e.rng < topValue {
			e.rng <<= 8
			e.shiftLow()
		}
	}
}

// Finish flushes the stream and returns it (a slice of the buffer given to
// Reset), or ErrOverflow. Calling it again returns the same result.
func (e *Encoder) Finish() ([]byte, error) {
	if !e.finished {
		e.finished = true
		// Round low up to a multiple of 2^24 (still inside the interval,
		// since rng ≥ 2^24) and settle its top byte: two shifts, the
		// second of which pushes it out of the cache.
		e.low = (e.low + topValue - 1) &^ (topValue - 1)
		e.shiftLow()
		e.shiftLow()
		e.finishedN = e.n
	}
	if e.overflow {
		return nil, ErrOverflow
	}
	return e.buf[:e.finishedN], nil
}

// Decisions is the number of binary decisions coded since Reset, direct
// bits included: the coder's work, which its speed is measured in.
func (e *Encoder) Decisions() int { return e.decisions }

// Decoder reads decisions from a coded stream. It reads data in place and
// never allocates.
type Decoder struct {
	code, rng uint32
	data      []byte
	pos       int
	corrupt   bool

	// Tag and Costs as in Encoder: a decoder that sees the same decisions
	// with the same tags sums the same costs.
	Tag   int
	Costs [NumTags]uint64

	mixS mixIn // the decision being mixed (DecodeMix3)
}

func (d *Decoder) next() uint32 {
	var b byte
	if d.pos < len(d.data) {
		b = d.data[d.pos]
	}
	d.pos++
	return uint32(b)
}

// Reset starts decoding data.
func (d *Decoder) Reset(data []byte) {
	*d = Decoder{rng: math.MaxUint32, data: data}
	for range 4 {
		d.code = d.code<<8 | d.next()
	}
	// A value at the very top of the window is no encoder's output: every
	// number an encoder chooses is below low+rng ≤ 2^32 - 1.
	d.corrupt = d.code == math.MaxUint32
}

// Decode reads one decision coded with p and updates p as the encoder did.
func (d *Decoder) Decode(p *Prob) int {
	bit := d.decodeP(p.p0())
	p.update(bit)
	return bit
}

// decodeP reads a decision coded with the probability pv/4096 of a 0.
func (d *Decoder) decodeP(pv uint32) int {
	t := &d.Costs[d.Tag&(NumTags-1)]
	bound := (d.rng >> probBits) * pv
	// pv and 4096-pv are below 4096: their top 8 bits index costTable
	// (as a uint8, which the compiler needs no bounds check for).
	var bit int
	if d.code < bound {
		*t += uint64(costTable[uint8(pv>>4)])
		d.rng = bound
	} else {
		*t += uint64(costTable[uint8((probOne-pv)>>4)])
		d.code -= bound
		d.rng -= bound
		bit = 1
	}
	for d.rng < topValue {
		d.rng <<= 8
		d.code = d.code<<8 | d.next()
	}
	return bit
}

// DecodeDirect reads n (0..32) equiprobable bits, high bit first.
func (d *Decoder) DecodeDirect(n int) uint32 {
	d.Costs[d.Tag&(NumTags-1)] += uint64(n) * CostScale
	var v uint32
	for range n {
		d.rng >>= 1
		var b uint32
		if d.code >= d.rng {
			d.code -= d.rng
			b = 1
		}
		v = v<<1 | b
		for d.rng < topValue {
			d.rng <<= 8
			d.code = d.code<<8 | d.next()
		}
	}
	return v
}

// Done reports whether the stream ended exactly where a well-formed stream
// that coded the same decisions ends (see the design note): ErrCorrupt if
// it was cut short, had bytes appended, or began with bytes no encoder
// writes.
func (d *Decoder) Done() error {
	if d.corrupt || d.pos != len(d.data)+overread {
		return ErrCorrupt
	}
	return nil
}

// overread is how far past its end a well-formed stream is read.
const overread = 3

// Overread reports whether the decoder has read more than three bytes past
// the end of its input: the stream is certainly truncated or hostile, and a
// caller decoding a long loop can stop early.
func (d *Decoder) Overread() bool { return d.pos > len(d.data)+overread }

// costTable[p>>4] is -log2((p>>4 + 0.5)/256) in 1/CostScale bits: the
// information content of a decision whose probability was p/4096.
var costTable [probOne >> 4]uint32

func init() {
	for i := range costTable {
		costTable[i] = uint32(math.Round(-math.Log2((float64(i)+0.5)/float64(len(costTable))) * CostScale))
	}
}
