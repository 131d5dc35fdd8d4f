package physics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortPairs: the counting sort of the broadphase's pair keys gives the
// order slices.Sort gives, ground keys included, for worlds of several
// sizes (the largest past maxBucketBodies, which compares instead), and
// with runs of one first body longer than maxInsertionRun (few bodies,
// many pairs).
func TestSortPairs(t *testing.T) {
	for _, tc := range []struct{ bodies, pairs int }{
		{2, 1}, {2, 3}, {37, 60}, {37, 600}, {901, 1200}, {maxBucketBodies + 1, 500},
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.bodies), uint64(tc.pairs)))
		seen := map[uint64]bool{}
		var bp broadphase
		for len(bp.pairs) < tc.pairs {
			a := int32(rng.IntN(tc.bodies))
			k := groundKey(a)
			if b := int32(rng.IntN(tc.bodies + 1)); b < int32(tc.bodies) && b != a {
				k = pairKey(a, b)
			}
			if !seen[k] {
				seen[k] = true
				bp.pairs = append(bp.pairs, k)
			}
		}
		want := slices.Sorted(slices.Values(bp.pairs))
		bp.sortPairs(tc.bodies)
		if !slices.Equal(bp.pairs, want) {
			t.Errorf("%d bodies, %d pairs: the sort differs from slices.Sort", tc.bodies, tc.pairs)
		}
	}
}
