package wire

// Design note: packets carry a 16-bit sequence number, so after 65535 comes
// 0 again (after about 18 minutes at 60 packets per second). Comparing them
// with < would then say that packet 0 is older than packet 65535. The fix
// (RFC 1982, "serial number arithmetic") is to compare the signed 16-bit
// difference: b is newer than a when b - a, wrapped to 16 bits, lies in
// 1..32767. That is right as long as the two packets are less than half the
// sequence space (32768 packets, about 9 minutes) apart, which any packet
// still worth looking at is.
//
// A SequenceBuffer is the data structure behind acks, sent-packet records,
// jitter buffers and snapshot histories: a ring of entries indexed by
// sequence % size, each tagged with the full sequence it holds, so a lookup is
// one array access plus a tag check, with no map and no allocation after
// construction.

// SequenceGreaterThan reports whether sequence a is newer than b, accounting
// for wrap-around: SequenceGreaterThan(0, 65535) is true.
func SequenceGreaterThan(a, b uint16) bool {
	d := int16(a - b)
	return d > 0
}

// SequenceLessThan reports whether sequence a is older than b, accounting for
// wrap-around: SequenceLessThan(65535, 0) is true.
func SequenceLessThan(a, b uint16) bool { return SequenceGreaterThan(b, a) }

// SequenceDiff returns a - b as a signed distance in [-32768, 32767]:
// SequenceDiff(2, 65534) is 4.
func SequenceDiff(a, b uint16) int { return int(int16(a - b)) }

// FrameOf turns a 16-bit sequence number that stands for a frame (the
// session numbers every data packet with the left's frame, mod 65536) into
// the frame nearest to now, the receiver's own frame count, and reports
// whether that is a frame a packet can come from: not after now (the
// sender has not reached it yet) and not before frame 0. Any packet less
// than half the sequence space (32768 frames, 9 minutes) old unwraps to its
// true frame; anything else is hostile or corrupt, and a receiver must
// drop it rather than index its buffers with it. (The earlier rule, "the
// frame at or before now with these low 16 bits", turned a sequence just
// ahead of now into a frame 65536 back: negative early in a session.)
func FrameOf(seq uint16, now int) (frame int, ok bool) {
	frame = now + SequenceDiff(seq, uint16(now))
	return frame, frame <= now && frame >= 0
}

// MaxFrame is the largest frame number a session runs to or accepts from
// the network: 2^30 ticks, 207 days at 60 Hz. Strategies carry frames in
// 32-bit fields (the lockstep and prediction packets' int32 frames), so a
// frame read from another process beyond this bound is hostile or corrupt
// and is refused where it enters, before arithmetic on it can overflow.
const MaxFrame = 1 << 30

// noSequence tags an empty SequenceBuffer entry; real tags are 0..65535.
const noSequence = 1 << 16

// SequenceBuffer stores one T per sequence number for the most recent Size()
// sequences. Inserting a sequence newer than any seen before clears the
// entries it skips (so a packet that never arrived never looks present);
// inserting one older than the window is rejected as stale.
type SequenceBuffer[T any] struct {
	entries []T
	tags    []uint32 // the sequence held by each entry, or noSequence
	mask    uint16
	next    uint16 // one past the newest sequence inserted
	started bool   // false until the first Insert
}

// NewSequenceBuffer returns a buffer holding `size` entries, rounded up to a
// power of two in 1..32768. A power of two divides 65536, which keeps
// sequence % size continuous across the wrap from 65535 to 0; at most half
// the sequence space keeps "newer" and "older" unambiguous inside the window.
func NewSequenceBuffer[T any](size int) *SequenceBuffer[T] {
	n := 1
	for n < size && n < 1<<15 {
		n <<= 1
	}
	b := &SequenceBuffer[T]{
		entries: make([]T, n),
		tags:    make([]uint32, n),
		mask:    uint16(n - 1),
	}
	b.Reset()
	return b
}

// Reset empties the buffer; the next Insert may use any sequence.
func (b *SequenceBuffer[T]) Reset() {
	var zero T
	for i := range b.tags {
		b.tags[i] = noSequence
		b.entries[i] = zero
	}
	b.next = 0
	b.started = false
}

// Size is the number of entries (a power of two).
func (b *SequenceBuffer[T]) Size() int { return len(b.tags) }

// sequence returns one past the newest sequence inserted (0 when empty).
func (b *SequenceBuffer[T]) sequence() uint16 { return b.next }

// Newest returns the newest sequence inserted, and false when the buffer is
// empty.
func (b *SequenceBuffer[T]) Newest() (uint16, bool) { return b.next - 1, b.started }

// IsStale reports whether seq is older than the window of the last Size()
// sequences, so that Insert would reject it.
func (b *SequenceBuffer[T]) IsStale(seq uint16) bool {
	if !b.started {
		return false
	}
	return SequenceLessThan(seq, b.next-uint16(len(b.tags)))
}

// Insert claims the entry for seq, zeroes it and returns a pointer to it for
// the caller to fill in. It returns nil when seq is stale. The pointer stays
// valid until the entry is reused by a sequence Size() later.
func (b *SequenceBuffer[T]) Insert(seq uint16) *T {
	if b.IsStale(seq) {
		return nil
	}
	if !b.started {
		b.started = true
		b.next = seq + 1
	} else if SequenceGreaterThan(seq+1, b.next) {
		// seq is newer than anything so far: clear the entries of the
		// sequences jumped over (at most the whole ring).
		gap := SequenceDiff(seq, b.next) // entries strictly between
		if gap >= len(b.tags) {
			for i := range b.tags {
				b.tags[i] = noSequence
			}
		} else {
			for s := b.next; s != seq; s++ {
				b.tags[s&b.mask] = noSequence
			}
		}
		b.next = seq + 1
	}
	i := seq & b.mask
	var zero T
	b.entries[i] = zero
	b.tags[i] = uint32(seq)
	return &b.entries[i]
}

// Find returns the entry for seq, or nil if it is not held.
func (b *SequenceBuffer[T]) Find(seq uint16) *T {
	i := seq & b.mask
	if b.tags[i] != uint32(seq) {
		return nil
	}
	return &b.entries[i]
}

// Exists reports whether seq is held.
func (b *SequenceBuffer[T]) Exists(seq uint16) bool {
	return b.tags[seq&b.mask] == uint32(seq)
}

// Remove forgets seq if it is held.
func (b *SequenceBuffer[T]) Remove(seq uint16) {
	i := seq & b.mask
	if b.tags[i] == uint32(seq) {
		b.tags[i] = noSequence
	}
}
