package wire

import "math/bits"

// Design note: each simulated link owns a tiny random generator so that its
// schedule of losses and delays depends only on its seed and on the packets
// sent, not on other users of a shared generator, and not on the stream of
// math/rand, which Go does not promise to keep stable across releases.
//
// The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable
// pseudorandom number generators", 2014): a 64-bit counter advanced by the
// golden-ratio constant, then scrambled by two xor-shift-multiply rounds. It
// passes BigCrush, has period 2^64, costs a handful of instructions, and every
// seed (including 0) is a good seed.

// RNG is a deterministic SplitMix64 pseudo-random generator. The zero value is
// a valid generator seeded with 0.
type RNG struct {
	state uint64
}

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) RNG { return RNG{state: seed} }

// Uint64 returns the next 64 uniformly distributed bits.
func (r *RNG) Uint64() uint64 {
	// 0x9e3779b97f4a7c15 is 2^64 divided by the golden ratio: an odd step
	// that visits every 64-bit value once before repeating.
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	// The two multipliers are the "Mix13" constants found by David Stafford's
	// search for the best 64-bit finalizer (also used by Java's SplittableRandom).
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Float64 returns a uniform value in [0, 1). The top 53 bits of Uint64 fill
// a float64 mantissa exactly, so the result is the same on every platform.
func (r *RNG) Float64() float64 {
	return float64(r.Uint64()>>11) * (1.0 / (1 << 53))
}

// Uint64n returns a uniform value in [0, n). It returns 0 when n is 0.
//
// Lemire's method ("Fast random integer generation in an interval", 2019):
// the high half of a 64×64-bit product maps a random word onto [0, n); the
// rare low halves that would make some results more likely than others are
// rejected and redrawn, so the result is exactly uniform.
func (r *RNG) Uint64n(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		threshold := -n % n // (2^64 - n) mod n
		for lo < threshold {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return hi
}
