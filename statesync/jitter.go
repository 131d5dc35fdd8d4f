package statesync

import (
	"netcubes/wire"
)

// Design note: the jitter buffer of state synchronization (Glenn Fiedler,
// "State Synchronization": "hold packets before delivering them to the
// application at the correct time as indicated by the sequence number").
//
// Packets sent evenly, one per tick, do not arrive evenly: two in one tick,
// none in the next. A receiver that applies each packet the moment it arrives
// applies updates of different frames to a simulation that is at one frame,
// so objects in a stack are nudged out of phase with each other and pop. The
// receiver therefore runs its simulation a few frames behind the newest
// packets and applies packet n exactly when its own simulation reaches frame
// n.
//
// Two parts:
//
//   - JitterBuffer (this file) holds decoded packets by sequence number and
//     hands them out oldest first, once their frame has come up.
//   - PlayoutClock (playout.go) decides which frame that is. It watches the transit time
//     of each packet (arrival tick minus the frame it carries) and keeps the
//     fastest one seen over a window of a few seconds: that is the network's
//     base delay, plus the unknown offset between the two clocks, which
//     cancels out. The receiver shows frame now − fastest transit −
//     DelayFrames, so a packet that took up to DelayFrames ticks longer than
//     the fastest one is still on time. When that target moves (the link got
//     slower or faster, or the presenter changed DelayFrames) the clock
//     follows by at most one frame per tick: it holds a frame to add delay,
//     or takes a double step to remove it, never a jump. During an outage no
//     packet arrives and the estimate is kept, so the receiver keeps
//     simulating (state synchronization extrapolates; it never waits).
//
// Everything is counted in ticks and sequence numbers; nothing reads a clock.

// JitterBuffer holds received packets, each a T the caller fills in, until
// the receiver's playout frame reaches their sequence number. It allocates
// only in NewJitterBuffer.
type JitterBuffer[T any] struct {
	slots   *wire.SequenceBuffer[T]
	pending []uint16 // sequences held, oldest first
}

// NewJitterBuffer returns a buffer holding up to size packets (rounded up to
// a power of two). It must exceed the number of packets that can arrive
// ahead of their frame: DelayFrames plus the link's jitter, in ticks.
func NewJitterBuffer[T any](size int) *JitterBuffer[T] {
	s := wire.NewSequenceBuffer[T](size)
	return &JitterBuffer[T]{slots: s, pending: make([]uint16, 0, s.Size())}
}

// Reset empties the buffer.
func (j *JitterBuffer[T]) Reset() {
	j.slots.Reset()
	j.pending = j.pending[:0]
}

// Len is the number of packets held.
func (j *JitterBuffer[T]) Len() int { return len(j.pending) }

// Insert claims a zeroed slot for packet seq and returns it for the caller to
// fill in, or nil when seq is already held or older than the buffer's window.
// When the buffer is full the oldest packet held is dropped to make room.
// The pointer is valid until the packet is popped and the next Insert.
func (j *JitterBuffer[T]) Insert(seq uint16) *T {
	if j.slots.Exists(seq) || j.slots.IsStale(seq) {
		return nil
	}
	if len(j.pending) == cap(j.pending) {
		j.slots.Remove(j.pending[0])
		copy(j.pending, j.pending[1:])
		j.pending = j.pending[:len(j.pending)-1]
	}
	v := j.slots.Insert(seq)
	// Keep pending sorted: insertion from the back, since packets mostly
	// arrive in order.
	k := len(j.pending)
	j.pending = append(j.pending, seq)
	for k > 0 && wire.SequenceGreaterThan(j.pending[k-1], seq) {
		j.pending[k] = j.pending[k-1]
		k--
	}
	j.pending[k] = seq
	return v
}

// Pop removes and returns the oldest packet held whose sequence is not newer
// than upTo, or ok = false when there is none. The pointer stays valid until
// the next Insert.
func (j *JitterBuffer[T]) Pop(upTo uint16) (seq uint16, v *T, ok bool) {
	for len(j.pending) > 0 {
		s := j.pending[0]
		if wire.SequenceGreaterThan(s, upTo) {
			return 0, nil, false
		}
		copy(j.pending, j.pending[1:])
		j.pending = j.pending[:len(j.pending)-1]
		if p := j.slots.Find(s); p != nil {
			j.slots.Remove(s)
			return s, p, true
		}
		// The slot was reused by a much newer packet; this one is gone.
	}
	return 0, nil, false
}
