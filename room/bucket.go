//go:build !js

package room

import "time"

// bucketT is a token bucket refilled with wall-clock time: the joins'
// rate limit (the transport's, not the simulation's: nothing here is
// replayed).
type bucketT struct {
	rate, tokens float64
	last         time.Time
}

func newBucket(perSecond float64) bucketT {
	return bucketT{rate: perSecond, tokens: perSecond}
}

// take takes a token if there is one.
func (b *bucketT) take(now time.Time) bool {
	if !b.last.IsZero() {
		b.tokens = min(b.rate, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
