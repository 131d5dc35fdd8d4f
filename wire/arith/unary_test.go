package arith

import (
	"math/rand/v2"
	"testing"
)

// TestGolombUnary: every magnitude up to the limit round-trips with its
// class in unary, and a hostile stream of all yeses stops at the largest
// class rather than running on.
func TestGolombUnary(t *testing.T) {
	for _, v := range []int32{0, 1, -1, 2, 3, 4, 7, 8, 255, -256, 1 << 20, GolombMax, -GolombMax} {
		var e Encoder
		e.Reset(make([]byte, 64))
		var g, h Golomb
		var mx GolombMixers
		g.Reset()
		h.Reset()
		mx.Reset()
		g.EncodeMix3Unary(&e, &h, nil, &mx, v)
		data, err := e.Finish()
		if err != nil {
			t.Fatal(err)
		}
		var d Decoder
		d.Reset(data)
		g.Reset()
		h.Reset()
		mx.Reset()
		if got, ok := g.DecodeMix3Unary(&d, &h, nil, &mx); !ok || got != v {
			t.Errorf("%d decoded as %d (ok %v)", v, got, ok)
		}
		if err := d.Done(); err != nil {
			t.Errorf("%d: %v", v, err)
		}
	}
	var d Decoder
	d.Reset([]byte{0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	var g, h Golomb
	var mx GolombMixers
	g.Reset()
	h.Reset()
	mx.Reset()
	if got, ok := g.DecodeMix3Unary(&d, &h, nil, &mx); !ok || got > GolombMax || got < -GolombMax {
		t.Errorf("hostile: %d (ok %v)", got, ok)
	}
}

// TestGolombUnaryCheaper: small residuals (a few units, as level 14's
// ball cubes') cost less with the class in unary than in the tree, once
// the models have learnt them.
func TestGolombUnaryCheaper(t *testing.T) {
	cost := func(unary bool) float64 {
		rng := rand.New(rand.NewPCG(1, 2))
		var e Encoder
		e.Reset(make([]byte, 1<<16))
		var g, h Golomb
		var mx GolombMixers
		g.Reset()
		h.Reset()
		mx.Reset()
		for range 5000 {
			v := int32(rng.NormFloat64() * 4)
			if unary {
				g.EncodeMix3Unary(&e, &h, nil, &mx, v)
			} else {
				g.EncodeMix3(&e, &h, nil, &mx, v)
			}
		}
		return float64(e.Costs[0]) / CostScale / 5000
	}
	tree, unary := cost(false), cost(true)
	t.Logf("bits per value: tree %.3f, unary %.3f", tree, unary)
	if unary >= tree {
		t.Errorf("unary %.3f bits per value, tree %.3f", unary, tree)
	}
}
