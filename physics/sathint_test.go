package physics

import (
	"math/rand/v2"
	"testing"
)

// randomBox is a box of random size and orientation near the origin.
func randomBox(rng *rand.Rand, spread float64) box {
	q := qnormalize(quat{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()})
	return box{
		c: vec3{spread * (rng.Float64() - 0.5), spread * (rng.Float64() - 0.5), spread * (rng.Float64() - 0.5)},
		r: rotationMatrix(q),
		e: [3]float64{0.05 + 0.5*rng.Float64(), 0.05 + 0.5*rng.Float64(), 0.05 + 0.5*rng.Float64()},
	}
}

// TestSeparatingAxisHint: whatever axis collideBoxes is told to try first
// (every code, the right one or not), it gives the manifold it gives with
// no hint, bit for bit; and the axis it stores for a refused pair does
// separate the boxes (separates agrees with the full test's arithmetic).
func TestSeparatingAxisHint(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 1))
	refused, touching, byEdge := 0, 0, 0
	for n := 0; n < 3000; n++ {
		a, b := randomBox(rng, 0.2), randomBox(rng, 1.6)
		margin := 0.02 * rng.Float64()
		var want manifold
		none := uint8(axisNone)
		wantN := collideBoxes(&a, &b, margin, 0.005, &want, &none)
		if none != axisNone {
			refused++
			if none >= axisEdge {
				byEdge++
			}
			if !separates(&a, &b, sub(b.c, a.c), none, margin) {
				t.Fatalf("pair %d: the stored axis %d does not separate the boxes", n, none)
			}
		} else if wantN > 0 {
			touching++
		}
		for code := uint8(0); code < axisEdge+9; code++ {
			var got manifold
			hint := code
			if gotN := collideBoxes(&a, &b, margin, 0.005, &got, &hint); gotN != wantN || got != want {
				t.Fatalf("pair %d, hint %d: %d points %+v, want %d %+v", n, code, gotN, got, wantN, want)
			}
		}
	}
	if refused < 300 || touching < 300 || byEdge < 10 {
		t.Fatalf("%d pairs refused by an axis (%d by an edge axis) and %d touching: the cases are not all covered", refused, byEdge, touching)
	}
}
