package arith

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// symbol is one step of a test program: a modelled bit, direct bits, a
// tree value or a Golomb value. A bit or a Golomb value whose ctx has bit
// 2 set is coded with the mix of two models (mix.go); such a Golomb value
// whose ctx has bit 1 set too, with its class in unary (unary.go).
type symbol struct {
	kind int // 0 bit, 1 direct, 2 tree, 3 golomb
	ctx  int
	v    int32
	n    int
}

// models is the state a program codes with; encoder and decoder each get
// their own fresh copy.
type models struct {
	bits   [8]Prob
	tree   [16]Prob
	golomb [2]Golomb
	mixers [8]Mixer
	gmix   GolombMixers
}

func newModels() *models {
	m := &models{}
	ResetProbs(m.bits[:])
	ResetProbs(m.tree[:])
	m.golomb[0].Reset()
	m.golomb[1].Reset()
	ResetMixers(m.mixers[:])
	m.gmix.Reset()
	return m
}

func encodeProgram(buf []byte, prog []symbol) ([]byte, *Encoder, error) {
	e := &Encoder{}
	e.Reset(buf)
	m := newModels()
	for _, s := range prog {
		e.Tag = s.ctx
		switch s.kind {
		case 0:
			if s.ctx&4 != 0 {
				e.EncodeMix3(&m.bits[s.ctx], &m.bits[s.ctx^1], nil, &m.mixers[s.ctx], int(s.v))
				break
			}
			e.Encode(&m.bits[s.ctx], int(s.v))
		case 1:
			e.EncodeDirect(uint32(s.v), s.n)
		case 2:
			e.EncodeTree(m.tree[:], 4, uint32(s.v))
		case 3:
			if s.ctx&6 == 6 {
				m.golomb[s.ctx&1].EncodeMix3Unary(e, &m.golomb[s.ctx&1^1], nil, &m.gmix, s.v)
				break
			}
			if s.ctx&4 != 0 {
				m.golomb[s.ctx&1].EncodeMix3(e, &m.golomb[s.ctx&1^1], nil, &m.gmix, s.v)
				break
			}
			m.golomb[s.ctx&1].Encode(e, s.v)
		}
	}
	out, err := e.Finish()
	return out, e, err
}

// decodeProgram decodes data with prog's shapes and returns the first
// index where a value differs (-1 when none) and Done's error.
func decodeProgram(data []byte, prog []symbol) (int, error) {
	var d Decoder
	d.Reset(data)
	m := newModels()
	bad := -1
	for i, s := range prog {
		var got int32
		switch s.kind {
		case 0:
			if s.ctx&4 != 0 {
				got = int32(d.DecodeMix3(&m.bits[s.ctx], &m.bits[s.ctx^1], nil, &m.mixers[s.ctx]))
				break
			}
			got = int32(d.Decode(&m.bits[s.ctx]))
		case 1:
			got = int32(d.DecodeDirect(s.n))
		case 2:
			got = int32(d.DecodeTree(m.tree[:], 4))
		case 3:
			dec := m.golomb[s.ctx&1].Decode
			if s.ctx&4 != 0 {
				dec = func(d *Decoder) (int32, bool) {
					return m.golomb[s.ctx&1].DecodeMix3(d, &m.golomb[s.ctx&1^1], nil, &m.gmix)
				}
			}
			if s.ctx&6 == 6 {
				dec = func(d *Decoder) (int32, bool) {
					return m.golomb[s.ctx&1].DecodeMix3Unary(d, &m.golomb[s.ctx&1^1], nil, &m.gmix)
				}
			}
			v, ok := dec(&d)
			if !ok {
				return i, ErrCorrupt
			}
			got = v
		}
		if got != s.v && bad < 0 {
			bad = i
		}
	}
	return bad, d.Done()
}

func randomProgram(rng *rand.Rand, n int, skew float64) []symbol {
	prog := make([]symbol, n)
	for i := range prog {
		s := symbol{kind: rng.IntN(4), ctx: rng.IntN(8)}
		switch s.kind {
		case 0:
			if rng.Float64() < skew {
				s.v = 1
			}
		case 1:
			s.n = rng.IntN(33)
			s.v = int32(rng.Uint32() & uint32(1<<uint(s.n)-1))
		case 2:
			s.v = int32(rng.IntN(16))
		case 3:
			s.v = int32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(6))))
		}
		prog[i] = s
	}
	return prog
}

// TestRoundTrip: random programs of every kind of symbol, from a handful
// to many thousands, with skewed and even bits, decode exactly and end
// exactly where the stream ends.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1<<20)
	for _, n := range []int{0, 1, 2, 3, 10, 100, 1000, 20000} {
		for _, skew := range []float64{0, 0.02, 0.5, 0.98, 1} {
			prog := randomProgram(rng, n, skew)
			data, _, err := encodeProgram(buf, prog)
			if err != nil {
				t.Fatal(err)
			}
			if bad, err := decodeProgram(data, prog); bad >= 0 || err != nil {
				t.Fatalf("n=%d skew=%v: symbol %d differs, done: %v", n, skew, bad, err)
			}
		}
	}
}

// TestCarries: long runs of the most probable symbol after an improbable
// one drive low into 0xFF runs and carries; the bytes still decode.
func TestCarries(t *testing.T) {
	buf := make([]byte, 1<<16)
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var prog []symbol
		for range 5000 {
			v := int32(0)
			if rng.IntN(200) == 0 {
				v = 1
			}
			prog = append(prog, symbol{kind: 0, v: v})
			if rng.IntN(300) == 0 {
				prog = append(prog, symbol{kind: 1, n: 32, v: -1})
			}
		}
		data, _, err := encodeProgram(buf, prog)
		if err != nil {
			t.Fatal(err)
		}
		if bad, err := decodeProgram(data, prog); bad >= 0 || err != nil {
			t.Fatalf("seed %d: symbol %d, %v", seed, bad, err)
		}
	}
}

// TestLengthNearEntropy: a stream costs its information content plus at
// most two bytes (the flush byte and rounding), and an empty stream is
// empty.
func TestLengthNearEntropy(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 1<<20)
	for _, n := range []int{0, 50, 5000} {
		prog := randomProgram(rng, n, 0.1)
		data, e, err := encodeProgram(buf, prog)
		if err != nil {
			t.Fatal(err)
		}
		bits := totalCost(e)
		if float64(len(data)*8) > bits+16+0.01*bits || float64(len(data)*8) < bits-8-0.01*bits {
			t.Errorf("n=%d: %d bytes for %.1f bits of information", n, len(data), bits)
		}
		if n == 0 && len(data) != 1 {
			t.Errorf("empty program: %d bytes, want the flush byte", len(data))
		}
	}
	// 10,000 decisions that are 0 almost always: far below one bit each.
	prog := make([]symbol, 10000)
	data, _, _ := encodeProgram(buf, prog)
	if len(data) > 30 {
		t.Errorf("10,000 certain zeros took %d bytes", len(data))
	}
}

// TestTruncatedPaddedAndHostile: cutting a byte off or adding one is
// reported by Done, and arbitrary bytes never panic.
func TestTruncatedPaddedAndHostile(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	buf := make([]byte, 1<<16)
	prog := randomProgram(rng, 2000, 0.3)
	data, _, _ := encodeProgram(buf, prog)
	if _, err := decodeProgram(data[:len(data)-1], prog); !errors.Is(err, ErrCorrupt) {
		t.Errorf("truncated: %v", err)
	}
	if _, err := decodeProgram(append(append([]byte(nil), data...), 0), prog); !errors.Is(err, ErrCorrupt) {
		t.Errorf("padded: %v", err)
	}
	var d Decoder
	d.Reset([]byte{0xFF, 0xFF, 0xFF, 0xFF})
	if d.Done() == nil {
		t.Error("all-ones start accepted")
	}
	for range 200 {
		junk := make([]byte, rng.IntN(64))
		for i := range junk {
			junk[i] = byte(rng.Uint32())
		}
		decodeProgram(junk, prog) // must not panic
	}
}

// TestOverflow: a buffer too small is an error, not a panic.
func TestOverflow(t *testing.T) {
	prog := randomProgram(rand.New(rand.NewPCG(8, 9)), 1000, 0.5)
	if _, _, err := encodeProgram(make([]byte, 10), prog); !errors.Is(err, ErrOverflow) {
		t.Fatalf("got %v", err)
	}
}

// TestCostsByTag: the costs are charged to the tag in force, and a
// certain decision costs almost nothing while an even one costs a bit.
func TestCostsByTag(t *testing.T) {
	var e Encoder
	e.Reset(make([]byte, 1024))
	var p Prob = ProbInit
	e.Tag = 3
	e.Encode(&p, 0) // p = 1/2: one bit
	e.Tag = 5
	e.EncodeDirect(5, 3)
	if e.Costs[3] < CostScale-2 || e.Costs[3] > CostScale+2 || e.Costs[5] != 3*CostScale {
		t.Fatalf("costs %v", e.Costs)
	}
	e.Tag = 1
	for range 200 {
		e.Encode(&p, 0)
	}
	if per := float64(e.Costs[1]) / CostScale / 200; per > 0.1 {
		t.Errorf("a near-certain decision costs %.3f bits", per)
	}
}

// TestGolombClassLimit: a hostile class above the limit is refused.
func TestGolombClassLimit(t *testing.T) {
	var e Encoder
	e.Reset(make([]byte, 64))
	var g Golomb
	g.Reset()
	e.Encode(&g.zero, 1)
	e.Encode(&g.sign, 0)
	e.EncodeTree(g.class[:], golombClassBits, 31)
	data, _ := e.Finish()
	var d Decoder
	d.Reset(data)
	g.Reset()
	if _, ok := g.Decode(&d); ok {
		t.Fatal("class 31 accepted")
	}
	// Every magnitude up to the limit round-trips.
	for _, v := range []int32{1, -1, 2, 3, 4, 7, 8, 255, -256, 1 << 20, GolombMax, -GolombMax} {
		e.Reset(make([]byte, 64))
		g.Reset()
		g.Encode(&e, v)
		data, _ := e.Finish()
		d.Reset(data)
		g.Reset()
		if got, ok := g.Decode(&d); !ok || got != v || d.Done() != nil {
			t.Errorf("%d: got %d %v %v", v, got, ok, d.Done())
		}
	}
}

func BenchmarkEncodeDecode(b *testing.B) {
	prog := randomProgram(rand.New(rand.NewPCG(1, 1)), 4000, 0.1)
	buf := make([]byte, 1<<16)
	b.ReportAllocs()
	for b.Loop() {
		data, _, _ := encodeProgram(buf, prog)
		decodeProgram(data, prog)
	}
}

// TestProbTwoRates: a Prob's two estimates settle at different rates. After
// a long run of zeros then a run of ones, the fast estimate has turned
// while the slow one still remembers the zeros, and the probability used
// is their mean, strictly inside (0, 1); both sides' updates are the same
// function of the bits seen, so a decoder tracks it exactly.
func TestProbTwoRates(t *testing.T) {
	p := ProbInit
	if p.p0() != probOne/2 {
		t.Fatalf("fresh: %d", p.p0())
	}
	for range 500 {
		p.update(0)
	}
	if v := p.p0(); v < probOne-64 || v > probOne-1 {
		t.Fatalf("after 500 zeros p0 = %d/4096", v)
	}
	for range 24 {
		p.update(1)
	}
	fast, slow := uint32(p&probMask), uint32(p>>16)>>(16-probBits)
	if fast > probOne/4 || slow < probOne/2 {
		t.Errorf("after 24 ones: fast %d, slow %d (/4096): the rates are not apart", fast, slow)
	}
	if v := p.p0(); v != (fast+slow)/2 {
		t.Errorf("p0 %d, not the mean of %d and %d", v, fast, slow)
	}
	for range 5000 {
		p.update(1)
	}
	if v := p.p0(); v < 1 || v > 64 {
		t.Errorf("after many ones p0 = %d/4096", v)
	}
}

// TestMixStretchSquash: stretch inverts squash (both are tables the
// encoder and decoder share, so this is about modelling quality, not
// agreement), squash is monotonic and stays inside (0, 4096), and a mixer
// fed one model that is right and one that is noise learns to trust the
// right one: the mix codes a skewed source in fewer bits than the noisy
// model alone.
func TestMixStretchSquash(t *testing.T) {
	prev := int32(0)
	for x := int32(-2047); x <= 2047; x++ {
		p := squash(x)
		if p < prev || p < 1 || p > 4095 {
			t.Fatalf("squash(%d) = %d after %d", x, p, prev)
		}
		prev = p
	}
	for p := int32(16); p < 4080; p++ {
		if got := squash(int32(stretchTable[p])); got < p || got > p+40 {
			t.Fatalf("squash(stretch(%d)) = %d", p, got)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var e1, e2 Encoder
	buf1, buf2 := make([]byte, 1<<16), make([]byte, 1<<16)
	e1.Reset(buf1)
	e2.Reset(buf2)
	var good, noise [2]Prob
	ResetProbs(good[:])
	ResetProbs(noise[:])
	var plain Prob = ProbInit
	var mx Mixer
	mx.Reset()
	for range 20000 {
		ctx := rng.IntN(2) // the good model's context: it decides the bit's odds
		bit := 0
		if (ctx == 1) == (rng.Float64() < 0.95) {
			bit = 1
		}
		e1.EncodeMix3(&good[ctx], &noise[rng.IntN(2)], nil, &mx, bit)
		e2.Encode(&plain, bit)
	}
	a, _ := e1.Finish()
	b, _ := e2.Finish()
	if len(a) >= len(b)*6/10 {
		t.Fatalf("mixed %d bytes, one context-free model %d", len(a), len(b))
	}
}

// totalCost is the sum of e's Costs, in bits.
func totalCost(e *Encoder) float64 {
	var t uint64
	for _, c := range e.Costs {
		t += c
	}
	return float64(t) / CostScale
}
