package net

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
//   - JitterBuffer holds decoded packets by sequence number and hands them out
//     oldest first, once their frame has come up.
//   - PlayoutClock decides which frame that is. It watches the transit time
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
	slots   *SequenceBuffer[T]
	pending []uint16 // sequences held, oldest first
}

// NewJitterBuffer returns a buffer holding up to size packets (rounded up to
// a power of two). It must exceed the number of packets that can arrive
// ahead of their frame: DelayFrames plus the link's jitter, in ticks.
func NewJitterBuffer[T any](size int) *JitterBuffer[T] {
	s := NewSequenceBuffer[T](size)
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
	for k > 0 && SequenceGreaterThan(j.pending[k-1], seq) {
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
		if SequenceGreaterThan(s, upTo) {
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

// Oldest returns the sequence of the oldest packet held.
func (j *JitterBuffer[T]) Oldest() (uint16, bool) {
	if len(j.pending) == 0 {
		return 0, false
	}
	return j.pending[0], true
}

// PlayoutConfig holds the tunables of a PlayoutClock.
type PlayoutConfig struct {
	// DelayFrames is how many frames a packet is held beyond the fastest
	// transit seen: the jitter the receiver absorbs, in ticks. The article
	// recommends 4–5 frames at 60 Hz. More absorbs worse jitter but shows
	// the world later; 0 applies packets as fast as the fastest ones arrive,
	// so every slower packet is late.
	DelayFrames int
	// WindowTicks is how long the fastest transit is remembered. Longer
	// windows ride out bursts of slow packets; shorter ones notice sooner
	// that the link became slower (until then, packets arrive late).
	WindowTicks int
}

// MaxPlayoutDelayFrames bounds DelayFrames (the demo offers 0..10).
const MaxPlayoutDelayFrames = 60

// DefaultPlayoutConfig is the article's 5-frame jitter buffer with a 2-second
// memory.
func DefaultPlayoutConfig() PlayoutConfig {
	return PlayoutConfig{DelayFrames: 5, WindowTicks: 2 * TicksPerSecond}
}

// transitSample is the fastest transit of the packets that arrived in one
// tick.
type transitSample struct {
	tick    Tick
	transit int
	used    bool
}

// PlayoutClock decides which frame a receiver should be at, from the
// transit times of the packets it receives. It allocates only in
// NewPlayoutClock.
type PlayoutClock struct {
	cfg        PlayoutConfig
	samples    []transitSample // ring indexed by tick % WindowTicks
	transit    int             // fastest transit in the window, ticks
	hasTransit bool
	started    bool
	frame      int
}

// NewPlayoutClock returns a clock that has seen no packet. Out-of-range
// fields of cfg are clamped (WindowTicks to at least 1).
func NewPlayoutClock(cfg PlayoutConfig) *PlayoutClock {
	cfg.DelayFrames = min(max(cfg.DelayFrames, 0), MaxPlayoutDelayFrames)
	cfg.WindowTicks = max(cfg.WindowTicks, 1)
	return &PlayoutClock{cfg: cfg, samples: make([]transitSample, cfg.WindowTicks)}
}

// Reset forgets every packet and stops the clock.
func (c *PlayoutClock) Reset() {
	for i := range c.samples {
		c.samples[i] = transitSample{}
	}
	c.transit, c.hasTransit, c.started, c.frame = 0, false, false, 0
}

// DelayFrames returns the jitter delay in frames.
func (c *PlayoutClock) DelayFrames() int { return c.cfg.DelayFrames }

// SetDelayFrames changes the jitter delay; the clock moves to the new target
// by one frame per tick.
func (c *PlayoutClock) SetDelayFrames(n int) {
	c.cfg.DelayFrames = min(max(n, 0), MaxPlayoutDelayFrames)
}

// Arrived records that the packet of frame `frame` arrived at tick now.
func (c *PlayoutClock) Arrived(now Tick, frame int) {
	t := int(now) - frame
	w := Tick(len(c.samples))
	s := &c.samples[int((now%w+w)%w)]
	if !s.used || s.tick != now {
		*s = transitSample{tick: now, transit: t, used: true}
	} else if t < s.transit {
		s.transit = t
	}
	if !c.hasTransit || t < c.transit {
		// A faster packet lowers the estimate at once.
		c.transit, c.hasTransit = t, true
	}
}

// refresh recomputes the fastest transit over the window ending at now. With
// no packet in the window (an outage) the previous estimate stays.
func (c *PlayoutClock) refresh(now Tick) {
	best, found := 0, false
	for _, s := range c.samples {
		if !s.used || s.tick > now || now-s.tick >= Tick(len(c.samples)) {
			continue
		}
		if !found || s.transit < best {
			best, found = s.transit, true
		}
	}
	if found {
		c.transit, c.hasTransit = best, true
	}
}

// Transit returns the fastest transit seen in the window, in ticks, and
// false before any packet arrived.
func (c *PlayoutClock) Transit() (int, bool) { return c.transit, c.hasTransit }

// Target returns the frame the receiver should be at, now − fastest transit
// − DelayFrames, and false before any packet arrived.
func (c *PlayoutClock) Target(now Tick) (int, bool) {
	c.refresh(now)
	if !c.hasTransit {
		return 0, false
	}
	return int(now) - c.transit - c.cfg.DelayFrames, true
}

// Start sets the receiver's current frame and starts the clock.
func (c *PlayoutClock) Start(frame int) { c.frame, c.started = frame, true }

// Started reports whether Start was called since the last Reset.
func (c *PlayoutClock) Started() bool { return c.started }

// Frame is the receiver's current frame.
func (c *PlayoutClock) Frame() int { return c.frame }

// Advance moves the clock by one tick and returns how many frames the
// receiver must step: 1 normally, 2 when it is behind its target (too much
// delay), 0 when it is ahead of it (packets would arrive late). Before Start it
// returns 0.
func (c *PlayoutClock) Advance(now Tick) int {
	if !c.started {
		return 0
	}
	target, ok := c.Target(now)
	n := 1
	if ok {
		switch next := c.frame + 1; {
		case next < target:
			n = 2
		case next > target:
			n = 0
		}
	}
	c.frame += n
	return n
}
