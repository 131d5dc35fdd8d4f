// Package wiretest holds helpers the tests of several packages use with
// package wire's types: reading an ack header's bits, drawing jitter from
// a seeded wire.RNG. Production code does not import it.
package wiretest

import "netcubes/wire"

// Acked reports whether header h says sequence seq was received: seq is
// h.Ack, or one of the AckBitsCount sequences before it whose bit is set.
func Acked(h wire.AckHeader, seq uint16) bool {
	if !h.HasAck {
		return false
	}
	if seq == h.Ack {
		return true
	}
	d := wire.SequenceDiff(h.Ack, seq) - 1 // bit index
	return d >= 0 && d < wire.AckBitsCount && h.AckBits&(1<<uint(d)) != 0
}

// Int64Range returns a uniform value of r in [lo, hi] (both included); lo
// when hi <= lo.
func Int64Range(r *wire.RNG, lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + int64(r.Uint64n(uint64(hi-lo)+1))
}
