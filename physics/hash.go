package physics

// Design note: StateHash condenses the whole world state into 64 bits so
// two simulations can be compared cheaply, for example the two sides of a
// deterministic lockstep session, frame by frame. It hashes the exact bits
// (math.Float64bits), not rounded values: "almost equal" is not equal in
// lockstep, a last-bit difference grows into a visible one within seconds.
//
// The hash is 64-bit FNV-1a (Fowler, Noll, Vo), byte by byte, little
// endian, over each body in index order: position x, y, z; orientation w,
// x, y, z; linear velocity x, y, z; angular velocity x, y, z. It is simple
// enough to reimplement anywhere (a log file, another language) and needs
// no table. It is not a cryptographic hash.

import "math"

const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// StateHash returns the FNV-1a hash of every body's state bits, in body
// order (see the file comment for the exact layout). Equal worlds give
// equal hashes; sleeping flags, contacts and warm-start impulses are not
// included.
func (w *World) StateHash() uint64 {
	h := uint64(fnvOffset64)
	for i := range w.bodies {
		b := &w.bodies[i]
		for _, x := range [13]float64{
			b.pos.x, b.pos.y, b.pos.z,
			b.q.w, b.q.x, b.q.y, b.q.z,
			b.v.x, b.v.y, b.v.z,
			b.w.x, b.w.y, b.w.z,
		} {
			h = fnvWord(h, math.Float64bits(x))
		}
	}
	return h
}

// fnvWord runs FNV-1a over the 8 bytes of x, least significant first.
func fnvWord(h, x uint64) uint64 {
	for i := 0; i < 8; i++ {
		h ^= x & 0xff
		h *= fnvPrime64
		x >>= 8
	}
	return h
}
