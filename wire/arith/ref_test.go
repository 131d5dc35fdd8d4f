package arith

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The reference coder: the replay's arithmetic written the plain way, one
// operation after another with a branch on every bit, as the coder was
// first written. The fast loop (Encoder.Replay) and the models' fast
// update (Prob.update) must give the same bytes, costs and models; these
// tests hold them against it.

// refEncoder is the range coder of coder.go, written apart.
type refEncoder struct {
	low       uint64
	rng       uint32
	cache     byte
	pending   int
	started   bool
	out       []byte
	tag       int
	costs     [NumTags]uint64
	decisions int
}

func newRefEncoder() *refEncoder { return &refEncoder{rng: 1<<32 - 1, pending: 1} }

func (e *refEncoder) shiftLow() {
	if uint32(e.low) < 0xFF000000 || e.low >= 1<<32 {
		carry := byte(e.low >> 32)
		b := e.cache
		for ; e.pending > 0; e.pending-- {
			if e.started {
				e.out = append(e.out, b+carry)
			}
			e.started = true
			b = 0xFF
		}
		e.cache = byte(e.low >> 24)
	}
	e.pending++
	e.low = (e.low & 0x00FFFFFF) << 8
}

func (e *refEncoder) code(pv uint32, bit int) {
	e.decisions++
	bound := (e.rng >> probBits) * pv
	if bit == 0 {
		e.costs[e.tag&(NumTags-1)] += uint64(costTable[pv>>4])
		e.rng = bound
	} else {
		e.costs[e.tag&(NumTags-1)] += uint64(costTable[(probOne-pv)>>4])
		e.low += uint64(bound)
		e.rng -= bound
	}
	for e.rng < topValue {
		e.rng <<= 8
		e.shiftLow()
	}
}

func (e *refEncoder) direct(v uint32, n int) {
	for i := n - 1; i >= 0; i-- {
		e.decisions++
		e.costs[e.tag&(NumTags-1)] += CostScale
		e.rng >>= 1
		if v>>uint(i)&1 != 0 {
			e.low += uint64(e.rng)
		}
		for e.rng < topValue {
			e.rng <<= 8
			e.shiftLow()
		}
	}
}

func (e *refEncoder) finish() []byte {
	e.low = (e.low + topValue - 1) &^ (topValue - 1)
	e.shiftLow()
	e.shiftLow()
	return e.out
}

// refUpdate is Prob.update written with a branch on the bit.
func refUpdate(p *Prob, bit int) {
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

// refMix codes one mixed decision the plain way: six stretched inputs,
// their weighted sum squashed by interpolation, the weights and the
// models moved after (c nil: two inputs).
func refMix(e *refEncoder, a, b, c *Prob, m *Mixer, bit int) {
	var s [6]int32
	s[0], s[1] = int32(stretchTable[*a&probMask]), int32(stretchTable[*a>>20])
	s[2], s[3] = int32(stretchTable[*b&probMask]), int32(stretchTable[*b>>20])
	if c != nil {
		s[4], s[5] = int32(stretchTable[*c&probMask]), int32(stretchTable[*c>>20])
	}
	var dot int64
	for i := range s {
		dot += int64(m.w[i]) * int64(s[i])
	}
	pv := uint32(squash(int32(max(min(dot>>16, 2047), -2047))))
	e.code(pv, bit)
	err := int32(probOne-1)*int32(1-bit) - int32(pv)
	for i := range s {
		if i < 4 || c != nil {
			m.w[i] = min(max(m.w[i]+s[i]*err>>mixShift, -1<<20), 1<<20)
		}
	}
	refUpdate(a, bit)
	refUpdate(b, bit)
	if c != nil {
		refUpdate(c, bit)
	}
}

// refReplay is Encoder.Replay, one step at a time through the reference.
func refReplay(e *refEncoder, base unsafe.Pointer, steps []Step, classes *[256]uint8) {
	cls := int32(0)
	at := func(off int32) *Prob { return (*Prob)(unsafe.Add(base, off)) }
	for _, st := range steps {
		bit := int(st.Bit)
		switch st.Kind {
		case StepPlain:
			p := at(st.A)
			e.code(p.p0(), bit)
			refUpdate(p, bit)
		case StepMix2, StepMix3:
			var c *Prob
			if st.Kind == StepMix3 {
				c = at(st.C)
			}
			refMix(e, at(st.A), at(st.B+cls*st.Stride), c, (*Mixer)(unsafe.Add(base, st.M)), bit)
		case StepDirect:
			e.direct(uint32(st.A), bit)
		case StepTag:
			e.tag = int(st.A)
		case StepClass:
			cls = int32(classes[*(*uint8)(unsafe.Add(base, st.A))])
		}
	}
}

// randomBlock is a block of models in any state a Prob's 32 bits and a
// Mixer's bounded weights can hold (not only those a coder reaches), and
// class bytes.
type randomBlock struct {
	probs  [48]Prob
	mixers [12]Mixer
	class  [8]uint8
}

func newRandomBlock(rng *rand.Rand) *randomBlock {
	b := &randomBlock{}
	for i := range b.probs {
		switch rng.IntN(4) {
		case 0:
			b.probs[i] = ProbInit
		case 1: // the edges of each estimate
			edges := [...]uint32{0, 1, 2, 4094, 4095}
			slows := [...]uint32{0, 1, 2, 32768, 65534, 65535}
			b.probs[i] = Prob(edges[rng.IntN(len(edges))] | uint32(rng.IntN(16))<<12 | slows[rng.IntN(len(slows))]<<16)
		default:
			b.probs[i] = Prob(rng.Uint32())
		}
	}
	for i := range b.mixers {
		for j := range b.mixers[i].w {
			b.mixers[i].w[j] = int32(rng.IntN(1<<21+1)) - 1<<20
			if rng.IntN(4) == 0 { // weights at their bounds
				b.mixers[i].w[j] = int32(1-2*rng.IntN(2)) << 20
			}
		}
	}
	for i := range b.class {
		b.class[i] = uint8(rng.IntN(256))
	}
	return b
}

// randomSteps are n random steps over a randomBlock: every kind, any
// bit, any class; probabilities skewed or not (long runs of one bit
// drive the weights to their bounds and the estimates to their edges).
func randomSteps(rng *rand.Rand, n int) []Step {
	var blk randomBlock
	base := unsafe.Pointer(&blk)
	prob := func(i int) int32 { return int32(uintptr(unsafe.Pointer(&blk.probs[i])) - uintptr(base)) }
	skew := rng.Float64()
	steps := make([]Step, 0, n)
	for range n {
		bit := 0
		if rng.Float64() < skew {
			bit = 1
		}
		switch k := rng.IntN(16); {
		case k < 3:
			steps = AppendBit(steps, prob(rng.IntN(48)), bit)
		case k < 12:
			// B at class 0 is one of the first 16 Probs; a class (0..3)
			// moves it by a stride of up to 8 Probs.
			stride := int32(rng.IntN(9)) * probSize
			c := int32(-1)
			if rng.IntN(3) > 0 {
				c = prob(rng.IntN(48))
			}
			mx := int32(uintptr(unsafe.Pointer(&blk.mixers[rng.IntN(12)])) - uintptr(base))
			steps = AppendMix(steps, prob(rng.IntN(48)), prob(rng.IntN(16)), stride, c, mx, bit)
		case k < 14:
			steps = AppendDirect(steps, rng.Uint32(), rng.IntN(33))
		case k < 15:
			steps = AppendTag(steps, rng.IntN(64))
		default:
			steps = AppendClass(steps, int32(uintptr(unsafe.Pointer(&blk.class[rng.IntN(8)]))-uintptr(base)))
		}
	}
	return steps
}

// TestReplayAgainstReference: random step lists over models in random
// states, replayed, code the same bytes, costs, decisions and tag as the
// reference coder, and leave the same models. Both Replay (the assembly
// kernel where there is one) and the Go loop are held against it.
func TestReplayAgainstReference(t *testing.T) {
	replays := []struct {
		name   string
		replay func(*Encoder, unsafe.Pointer, []Step, *[256]uint8)
	}{{"Replay", (*Encoder).Replay}, {"replayGo", (*Encoder).replayGo}}
	for _, impl := range replays {
		t.Run(impl.name, func(t *testing.T) { replayAgainstReference(t, impl.replay) })
	}
}

func replayAgainstReference(t *testing.T, replay func(*Encoder, unsafe.Pointer, []Step, *[256]uint8)) {
	rng := rand.New(rand.NewPCG(45, 4))
	var classes [256]uint8
	for i := range classes {
		classes[i] = uint8(rng.IntN(4))
	}
	buf := make([]byte, 1<<16)
	for round := range 300 {
		seed := rng.Uint64()
		fast, ref := newRandomBlock(rand.New(rand.NewPCG(seed, 2))), newRandomBlock(rand.New(rand.NewPCG(seed, 2)))
		steps := randomSteps(rng, 1+rng.IntN(2000))
		var e Encoder
		e.Reset(buf)
		r := newRefEncoder()
		// Two replays in a row: the coder's state carried between them
		// counts too (each starts at class 0).
		half := rng.IntN(len(steps) + 1)
		replay(&e, unsafe.Pointer(fast), steps[:half], &classes)
		replay(&e, unsafe.Pointer(fast), steps[half:], &classes)
		refReplay(r, unsafe.Pointer(ref), steps[:half], &classes)
		refReplay(r, unsafe.Pointer(ref), steps[half:], &classes)
		got, err := e.Finish()
		want := r.finish()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("round %d: %d bytes replayed, %d by the reference (%v)", round, len(got), len(want), err)
		}
		if e.Costs != r.costs || e.Decisions() != r.decisions || e.Tag != r.tag {
			t.Fatalf("round %d: costs, decisions or tag differ", round)
		}
		if *fast != *ref {
			t.Fatalf("round %d: the models differ", round)
		}
	}
}

// TestUpdateAgainstReference: Prob.update moves every estimate as the
// plain update does: every fast estimate and count, a spread of slow
// estimates (its edges included), both bits.
func TestUpdateAgainstReference(t *testing.T) {
	if fastShifts[adaptSteps-1] != settledFast || slowShifts[adaptSteps-1] != settledSlow {
		t.Fatal("the settled rates are not the last of fastShifts and slowShifts")
	}
	slows := []uint32{0, 1, 2, 3, 63, 64, 65, 1000, 32767, 32768, 65471, 65472, 65533, 65534, 65535}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 16 {
		slows = append(slows, uint32(rng.IntN(1<<16)))
	}
	for _, slow := range slows {
		for low := range uint32(1 << 16) {
			for bit := range 2 {
				p := Prob(slow<<16 | low)
				q := p
				p.update(bit)
				refUpdate(&q, bit)
				if low&settledCount == settledCount {
					b := uint32(bit)
					if s := Prob(slow<<16|low).settled(0xFFFF0FFF&(b-1), b^1); s != q {
						t.Fatalf("settled(%#x, %d) = %#x, want %#x", uint32(slow<<16|low), bit, uint32(s), uint32(q))
					}
				}
				if p != q {
					t.Fatalf("update(%#x, %d) = %#x, want %#x", uint32(slow<<16|low), bit, uint32(p), uint32(q))
				}
			}
		}
	}
}
