package arith

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// replayBlock is a block of models a replay names by offsets: its class
// bytes pick the second model of a mixed decision (as the snapshot coder's
// memory classes do).
type replayBlock struct {
	probs  [16]Prob
	mixers [8]Mixer
	gs     [6]Golomb // gs[2+3k] are the second models of class k
	ctxs   [2]GolombContext
	gmix   [2]GolombMixers
	class  [4]uint8
}

func newReplayBlock(rng *rand.Rand) *replayBlock {
	b := &replayBlock{}
	ResetProbs(b.probs[:])
	ResetMixers(b.mixers[:])
	for i := range b.gs {
		b.gs[i].Reset()
	}
	for i := range b.ctxs {
		b.ctxs[i].Reset()
		b.gmix[i].Reset()
	}
	for i := range b.class {
		b.class[i] = uint8(rng.IntN(2))
	}
	return b
}

// TestReplaySameAsCalls: steps appended for random calls (bits, trees,
// direct bits, Golomb values plain and mixed, with and without a third
// model, tags and classes) and replayed code the same bytes, costs and
// decisions as the calls, and leave the models in the same state.
func TestReplaySameAsCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	classes := [256]uint8{0: 0, 1: 1}
	for round := range 20 {
		seed := rng.Uint64()
		r1, r2 := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
		calls, played := newReplayBlock(r1), newReplayBlock(r2)
		base := unsafe.Pointer(played)
		off := func(p unsafe.Pointer) int32 { return int32(uintptr(p) - uintptr(base)) }
		var ec, er Encoder
		bc, br := make([]byte, 1<<16), make([]byte, 1<<16)
		ec.Reset(bc)
		er.Reset(br)
		var steps []Step
		cls := 0
		gStride := off(unsafe.Pointer(&played.gs[3])) - off(unsafe.Pointer(&played.gs[0]))
		pStride := off(unsafe.Pointer(&played.probs[1])) - off(unsafe.Pointer(&played.probs[0]))
		for range 3000 {
			v := int32(rng.NormFloat64() * float64(1+rng.IntN(400)))
			bit := int(rng.Uint32() & 1)
			switch rng.IntN(8) {
			case 0:
				i := rng.IntN(16)
				ec.Encode(&calls.probs[i], bit)
				steps = AppendBit(steps, off(unsafe.Pointer(&played.probs[i])), bit)
			case 1:
				ec.EncodeTree(calls.probs[:], 4, uint32(v)&15)
				steps = AppendTree(steps, off(unsafe.Pointer(&played.probs[0])), 4, uint32(v)&15)
			case 2:
				n := rng.IntN(20)
				ec.EncodeDirect(uint32(v), n)
				steps = AppendDirect(steps, uint32(v), n)
			case 3:
				calls.gs[1].Encode(&ec, v)
				steps = AppendGolomb(steps, off(unsafe.Pointer(&played.gs[1])), v)
			case 4:
				i := rng.IntN(4)
				ec.Tag = i
				steps = AppendTag(steps, i)
				cls = int(calls.class[i])
				steps = AppendClass(steps, off(unsafe.Pointer(&played.class[i])))
			case 5, 6:
				j, jo := &calls.ctxs[bit], off(unsafe.Pointer(&played.ctxs[bit]))
				if rng.IntN(3) == 0 {
					j, jo = nil, -1
				}
				calls.gs[0].EncodeMix3(&ec, &calls.gs[2+3*cls], j, &calls.gmix[bit], v)
				steps = AppendGolombMix(steps, off(unsafe.Pointer(&played.gs[0])), off(unsafe.Pointer(&played.gs[2])), gStride,
					jo, off(unsafe.Pointer(&played.gmix[bit])), v)
			case 7:
				c, co := &calls.probs[9], off(unsafe.Pointer(&played.probs[9]))
				if v&1 == 0 {
					c, co = nil, -1
				}
				ec.EncodeMix3(&calls.probs[4], &calls.probs[6+cls], c, &calls.mixers[v&7], bit)
				steps = AppendMix(steps, off(unsafe.Pointer(&played.probs[4])), off(unsafe.Pointer(&played.probs[6])), pStride,
					co, off(unsafe.Pointer(&played.mixers[v&7])), bit)
			}
		}
		er.Replay(base, steps, &classes)
		oc, err1 := ec.Finish()
		or, err2 := er.Finish()
		if err1 != nil || err2 != nil || !bytes.Equal(oc, or) {
			t.Fatalf("round %d: %d bytes called, %d replayed (%v, %v)", round, len(oc), len(or), err1, err2)
		}
		if ec.Costs != er.Costs || ec.Decisions() != er.Decisions() || ec.Tag != er.Tag {
			t.Fatalf("round %d: costs, decisions or tag differ", round)
		}
		if *calls != *played {
			t.Fatalf("round %d: the models differ after the replay", round)
		}
	}
}

// BenchmarkReplay: a replay's decisions per second against the calls'.
func BenchmarkReplay(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 5))
	blk := newReplayBlock(rng)
	base := unsafe.Pointer(blk)
	off := func(p unsafe.Pointer) int32 { return int32(uintptr(p) - uintptr(base)) }
	var steps []Step
	vals := make([]int32, 2000)
	for i := range vals {
		vals[i] = int32(rng.NormFloat64() * 20)
		steps = AppendGolombMix(steps, off(unsafe.Pointer(&blk.gs[0])), off(unsafe.Pointer(&blk.gs[2])), 0,
			off(unsafe.Pointer(&blk.ctxs[0])), off(unsafe.Pointer(&blk.gmix[0])), vals[i])
	}
	var classes [256]uint8
	buf := make([]byte, 1<<16)
	var e Encoder
	b.Run("calls", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e.Reset(buf)
			for _, v := range vals {
				blk.gs[0].EncodeMix3(&e, &blk.gs[2], &blk.ctxs[0], &blk.gmix[0], v)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(e.Decisions()), "ns/decision")
	})
	b.Run("replay", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e.Reset(buf)
			e.Replay(base, steps, &classes)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(e.Decisions()), "ns/decision")
	})
}

// TestAppendInPlace: the appends write every field of a step in place
// (into a list whose spare room holds other steps, as a trace reused from
// tick to tick does) and AppendGolombMix works out its steps' firstHit
// once a value: the same steps as a reference that appends whole steps,
// each mixed decision through AppendMix's rule, for random offsets that
// often make a step's Probs the same one or one class apart.
func TestAppendInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	off := func() int32 { return int32(rng.IntN(64)) * probSize }
	for round := range 200 {
		var got, want []Step
		// Spare room holding garbage, as a reused trace's.
		got = make([]Step, 4000)
		for i := range got {
			got[i] = Step{A: rng.Int32(), B: rng.Int32(), C: rng.Int32(), M: rng.Int32(), Stride: rng.Int32(),
				Kind: uint8(rng.IntN(256)), Bit: uint8(rng.IntN(256)), firstHit: uint16(rng.IntN(65536))}
		}
		got = got[:0]
		for range 300 {
			stride := []int32{0, probSize, 2 * probSize, int32(unsafe.Sizeof(Golomb{}))}[rng.IntN(4)]
			a, b, c, m := off(), off(), off(), off()
			if rng.IntN(4) == 0 {
				c = -1
			}
			bit := rng.IntN(2)
			v := int32(rng.NormFloat64() * 40)
			if rng.IntN(4) == 0 {
				v = 0
			}
			switch rng.IntN(6) {
			case 0:
				got, want = AppendBit(got, a, bit), append(want, Step{Kind: StepPlain, A: a, Bit: uint8(bit)})
			case 1:
				got, want = AppendDirect(got, uint32(a), bit+3), append(want, Step{Kind: StepDirect, A: a, Bit: uint8(bit + 3)})
			case 2:
				got, want = AppendClass(got, a), append(want, Step{Kind: StepClass, A: a})
			case 3:
				got, want = AppendTag(got, int(a)), appendTagRef(want, int(a))
			case 4:
				got, want = AppendMix(got, a, b, stride, c, m, bit), appendMixRef(want, a, b, stride, c, m, bit)
			default:
				got, want = AppendGolombMix(got, a, b, stride, c, m, v), appendGolombMixRef(want, a, b, stride, c, m, v)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d steps, want %d", round, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("round %d, step %d: %+v, want %+v", round, i, got[i], want[i])
			}
		}
	}
}

// appendMixRef is AppendMix as a whole step appended.
func appendMixRef(s []Step, a, b, stride, c, m int32, bit int) []Step {
	k := uint8(StepMix3)
	hit := min(classHit(b, stride, a), classHit(b, stride, c))
	if a == c {
		hit = 0
	}
	if c < 0 {
		k, c = StepMix2, 0
		hit = classHit(b, stride, a)
	}
	return append(s, Step{Kind: k, A: a, B: b, C: c, M: m, Stride: stride, Bit: uint8(bit), firstHit: hit})
}

// appendTagRef is AppendTag with whole steps.
func appendTagRef(s []Step, tag int) []Step {
	for i := len(s) - 1; i >= max(len(s)-tagLookBack, 0); i-- {
		if s[i].Kind == StepTag {
			if s[i].A == int32(tag) {
				return s
			}
			break
		}
	}
	return append(s, Step{Kind: StepTag, A: int32(tag)})
}

// appendGolombMixRef is AppendGolombMix a decision at a time, each through
// appendMixRef.
func appendGolombMixRef(s []Step, g, h, stride, j, mx int32, v int32) []Step {
	jz, js, jc := int32(-1), int32(-1), int32(-1)
	if j >= 0 {
		jz, js, jc = j+ctxZero, j+ctxSign, j+ctxClass
	}
	if v == 0 {
		return appendMixRef(s, g+golombZero, h+golombZero, stride, jz, mx+mixZero, 0)
	}
	s = appendMixRef(s, g+golombZero, h+golombZero, stride, jz, mx+mixZero, 1)
	m, neg := uint32(v), 0
	if v < 0 {
		neg, m = 1, uint32(-v)
	}
	s = appendMixRef(s, g+golombSign, h+golombSign, stride, js, mx+mixSign, neg)
	m = min(m, GolombMax)
	k := bits.Len32(m) - 1
	node := int32(1)
	for i := golombClassBits - 1; i >= 0; i-- {
		b := int32(k >> uint(i) & 1)
		c := int32(-1)
		if jc >= 0 {
			c = jc + node*probSize
		}
		s = appendMixRef(s, g+golombClass+node*probSize, h+golombClass+node*probSize, stride, c, mx+mixClass+node*mixerSize, int(b))
		node = node<<1 | b
	}
	hi := min(k, golombModelled)
	if hi > 0 {
		row := int32(mantIdx(k)) * (1 << golombModelled)
		w := m >> uint(k-hi) & (1<<uint(hi) - 1)
		node := int32(1)
		for i := hi - 1; i >= 0; i-- {
			b := int32(w >> uint(i) & 1)
			p := golombMant + (row+node)*probSize
			s = appendMixRef(s, g+p, h+p, stride, -1, mx+mixMant+(row+node)*mixerSize, int(b))
			node = node<<1 | b
		}
	}
	if k > hi {
		s = append(s, Step{Kind: StepDirect, A: int32(m & (1<<uint(k-hi) - 1)), Bit: uint8(k - hi)})
	}
	return s
}
