package assets

// The app's sounds are synthesized rather than recorded: a few lines of
// arithmetic give a soft wooden knock, a whoosh and a click, they are small,
// license-free, and the same on every machine (a fixed-seed noise source,
// no randomness from the environment). Each function returns 16-bit
// little-endian stereo PCM at SampleRate, ready for Ebitengine's audio
// package.

import "math"

// SampleRate of every sound, in Hz.
const SampleRate = 48000

// noise is a tiny xorshift generator: deterministic white noise in [-1, 1).
type noise uint32

func (n *noise) next() float64 {
	x := uint32(*n)
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	*n = noise(x)
	return float64(x)/float64(1<<31) - 1
}

// pcm converts mono samples in [-1, 1] to interleaved stereo int16 bytes.
func pcm(samples []float64) []byte {
	out := make([]byte, 4*len(samples))
	for i, s := range samples {
		v := int16(math.Round(math.Max(-1, math.Min(1, s)) * 32767))
		for ch := 0; ch < 2; ch++ {
			out[4*i+2*ch] = byte(v)
			out[4*i+2*ch+1] = byte(uint16(v) >> 8)
		}
	}
	return out
}

// Impact is a short knock of a cube landing: a decaying low tone with a
// noisy click on top. variant (0..) shifts the pitch a little so a pile
// landing does not sound like one sample repeated.
func Impact(variant int) []byte {
	n := SampleRate * 9 / 100 // 90 ms
	s := make([]float64, n)
	rng := noise(2463534242 + uint32(variant)*7919)
	f := 170 * (1 + 0.09*float64(variant%5))
	for i := range s {
		t := float64(i) / SampleRate
		body := math.Sin(2*math.Pi*f*t) * math.Exp(-t*45)
		click := rng.next() * math.Exp(-t*400)
		s[i] = 0.7*body + 0.35*click
	}
	return pcm(s)
}

// ImpactVariants is how many distinct impact sounds Impact makes.
const ImpactVariants = 5

// Blow is a rising and falling whoosh of filtered noise (400 ms).
func Blow() []byte {
	n := SampleRate * 4 / 10
	s := make([]float64, n)
	rng := noise(88172645)
	var lp float64
	for i := range s {
		t := float64(i) / float64(n)
		// A one-pole low-pass whose cut-off sweeps up, then the envelope
		// (a half sine) fades it in and out.
		a := 0.03 + 0.25*t
		lp += a * (rng.next() - lp)
		s[i] = 1.6 * lp * math.Sin(math.Pi*t)
	}
	return pcm(s)
}

// Click is the short tick played when a setting is toggled (12 ms).
func Click() []byte {
	n := SampleRate * 12 / 1000
	s := make([]float64, n)
	for i := range s {
		t := float64(i) / SampleRate
		s[i] = 0.5 * math.Sin(2*math.Pi*2200*t) * math.Exp(-t*500)
	}
	return pcm(s)
}
