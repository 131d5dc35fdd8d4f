package arith

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The replay's assembly kernel (replay_amd64.s) must do what the Go loop
// does for every step list: these tests replay the same steps over the
// same models with both and compare everything the coder and the models
// hold. Where there is no kernel (other processors, the purego tag) they
// are skipped; TestReplayAgainstReference and TestReplaySameAsCalls then
// test the Go loop, which Replay runs.

// replayBoth replays steps with the kernel and with the Go loop, each over
// its own copy of the block made from seed, after the same prefix of calls
// (so that the coder does not start fresh), into buffers of size bufSize
// (small ones overflow), and reports the first difference.
func replayBoth(t *testing.T, seed uint64, prefix int, steps []Step, classes *[256]uint8, bufSize int) {
	t.Helper()
	kb, gb := newRandomBlock(rand.New(rand.NewPCG(seed, 3))), newRandomBlock(rand.New(rand.NewPCG(seed, 3)))
	var ek, eg Encoder
	ek.Reset(make([]byte, bufSize))
	eg.Reset(make([]byte, bufSize))
	pr := rand.New(rand.NewPCG(seed, 5))
	for range prefix {
		i, bit := pr.IntN(len(kb.probs)), pr.IntN(2)
		ek.Encode(&kb.probs[i], bit)
		eg.Encode(&gb.probs[i], bit)
	}
	// Two replays in a row, split anywhere: the state carried between
	// them counts too (each starts at class 0).
	half := int(seed % uint64(len(steps)+1))
	replayKernel(&ek, unsafe.Pointer(kb), steps[:half], classes)
	eg.replayGo(unsafe.Pointer(gb), steps[:half], classes)
	replayKernel(&ek, unsafe.Pointer(kb), steps[half:], classes)
	eg.replayGo(unsafe.Pointer(gb), steps[half:], classes)
	if ek.low != eg.low || ek.rng != eg.rng || ek.cache != eg.cache || ek.pending != eg.pending ||
		ek.started != eg.started || ek.n != eg.n || ek.overflow != eg.overflow {
		t.Fatalf("coder state: kernel low %#x rng %#x cache %#x pending %d started %v n %d overflow %v; Go %#x %#x %#x %d %v %d %v",
			ek.low, ek.rng, ek.cache, ek.pending, ek.started, ek.n, ek.overflow,
			eg.low, eg.rng, eg.cache, eg.pending, eg.started, eg.n, eg.overflow)
	}
	if ek.Costs != eg.Costs || ek.Tag != eg.Tag || ek.Decisions() != eg.Decisions() {
		t.Fatalf("costs, tag or decisions: kernel %v %d %d, Go %v %d %d", ek.Costs, ek.Tag, ek.Decisions(), eg.Costs, eg.Tag, eg.Decisions())
	}
	if *kb != *gb {
		for i := range kb.probs {
			if kb.probs[i] != gb.probs[i] {
				t.Fatalf("Prob %d: kernel %#x, Go %#x", i, uint32(kb.probs[i]), uint32(gb.probs[i]))
			}
		}
		t.Fatalf("the mixers differ: kernel %v, Go %v", kb.mixers, gb.mixers)
	}
	ok, errk := ek.Finish()
	og, errg := eg.Finish()
	if errk != errg || !bytes.Equal(ok, og) {
		t.Fatalf("the bytes differ (%v, %v)", errk, errg)
	}
}

// TestReplayKernelAgainstGo: random step lists (every kind, any bit, any
// class, skewed or not, Probs named twice) over models in any state, from
// coders in any state, with buffers that overflow or not.
func TestReplayKernelAgainstGo(t *testing.T) {
	if !haveReplayKernel {
		t.Skip("no replay kernel on this build")
	}
	rng := rand.New(rand.NewPCG(45, 13))
	var classes [256]uint8
	for i := range classes {
		classes[i] = uint8(rng.IntN(4))
	}
	for range 300 {
		steps := randomSteps(rng, 1+rng.IntN(2000))
		size := 1 << 16
		if rng.IntN(4) == 0 {
			size = rng.IntN(64)
		}
		replayBoth(t, rng.Uint64(), rng.IntN(40), steps, &classes, size)
	}
}

// stepsFromBytes reads fuzz bytes as a step list over a randomBlock, five
// bytes a step: a kind and its operands, which may name the same Prob
// twice.
func stepsFromBytes(data []byte) []Step {
	var blk randomBlock
	base := unsafe.Pointer(&blk) // a pointer: blk may move with the stack
	off := func(p unsafe.Pointer) int32 { return int32(uintptr(p) - uintptr(base)) }
	prob := func(i byte, n int) int32 { return off(unsafe.Pointer(&blk.probs[int(i)%n])) }
	var steps []Step
	for ; len(data) >= 5; data = data[5:] {
		op, x, y, z, w := data[0], data[1], data[2], data[3], data[4]
		bit := int(op >> 3 & 1)
		switch op & 7 {
		case 0:
			steps = AppendBit(steps, prob(x, 48), bit)
		case 1, 2, 3, 4:
			c := int32(-1)
			if w < 48*5 {
				c = prob(w, 48)
			}
			mx := off(unsafe.Pointer(&blk.mixers[int(z/9)%12]))
			steps = AppendMix(steps, prob(x, 48), prob(y, 16), int32(z%9)*probSize, c, mx, bit)
		case 5:
			steps = AppendDirect(steps, binary.LittleEndian.Uint32(data[1:5]), int(op>>3)%33)
		case 6:
			steps = AppendTag(steps, int(x))
		case 7:
			steps = AppendClass(steps, off(unsafe.Pointer(&blk.class[x%8])))
		}
	}
	return steps
}

// FuzzReplayKernel: any bytes, read as models' seed, a coder's prefix, a
// buffer's size and a step list, replay the same with the kernel and the
// Go loop.
func FuzzReplayKernel(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 9, 200, 1, 1, 2, 3, 4, 10, 1, 2, 3, 250, 5, 1, 2, 3, 4, 255, 9, 9, 9, 9})
	f.Add(bytes.Repeat([]byte{2, 3, 3, 0, 1, 10, 3, 3, 0, 1, 135, 5, 4, 3, 2}, 40))
	var classes [256]uint8
	for i := range classes {
		classes[i] = uint8(i % 4)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !haveReplayKernel {
			t.Skip("no replay kernel on this build")
		}
		var head [10]byte
		copy(head[:], data)
		data = data[min(len(data), len(head)):]
		seed := binary.LittleEndian.Uint64(head[:8])
		size := 1 << 12
		if head[9]&1 != 0 {
			size = int(head[9] >> 1) // small: the overflow path
		}
		replayBoth(t, seed, int(head[8]), stepsFromBytes(data), &classes, size)
	})
}

// TestClassHit: the first class at which B (b+k·stride, k a byte) is x,
// or 256.
func TestClassHit(t *testing.T) {
	tests := []struct {
		b, stride, x int32
		want         uint16
	}{
		{8, 0, 8, 0}, {8, 0, 12, 256}, {8, 4, 8, 0}, {8, 4, 12, 1}, {8, 4, 10, 256},
		{8, 4, 4, 256}, {8, 4, 8 + 255*4, 255}, {8, 4, 8 + 256*4, 256},
		{100, -4, 96, 1}, {100, -4, 104, 256}, {0, 1 << 30, 1 << 30, 1},
		{1000, -4, 1000 - 255*4, 255}, {1000, -4, 1000 - 256*4, 256}, {8, 4, 8 + 255*4 + 1, 256},
		{-1 << 31, -1 << 31, 1<<31 - 1, 256}, {1<<31 - 1, 1, -1 << 31, 256}, {5, 3, -1, 256},
	}
	for _, tt := range tests {
		if got := classHit(tt.b, tt.stride, tt.x); got != tt.want {
			t.Errorf("classHit(%d, %d, %d) = %d, want %d", tt.b, tt.stride, tt.x, got, tt.want)
		}
	}
}
