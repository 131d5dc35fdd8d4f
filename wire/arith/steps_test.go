package arith

import (
	"bytes"
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
