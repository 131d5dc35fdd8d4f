package statesync

import (
	"netcubes/internal/valid"
	"netcubes/wire"
)

// Design note: the playout clock of the jitter buffer (jitter.go explains
// the pair): it watches each packet's transit time and keeps the fastest
// over a window, and the receiver shows frame now − fastest transit −
// DelayFrames, moving by at most one frame per tick when that target moves.

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
	return PlayoutConfig{DelayFrames: 5, WindowTicks: 2 * wire.TicksPerSecond}
}

// transitSample is the fastest transit of the packets that arrived in one
// tick.
type transitSample struct {
	tick    wire.Tick
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

// Validate reports the first field out of its range, naming it (the
// error wraps ErrInvalidConfig).
func (c PlayoutConfig) Validate() error {
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "DelayFrames", V: float64(c.DelayFrames), Hi: MaxPlayoutDelayFrames},
		valid.Field{Name: "WindowTicks", V: float64(c.WindowTicks), Lo: 1, Hi: valid.Finite},
	)
}

// NewPlayoutClock returns a clock that has seen no packet. cfg must be
// valid (Validate): an invalid one is a programming error and panics.
func NewPlayoutClock(cfg PlayoutConfig) *PlayoutClock {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	return &PlayoutClock{cfg: cfg, samples: make([]transitSample, cfg.WindowTicks)}
}

// Reset forgets every packet and stops the clock.
func (c *PlayoutClock) Reset() {
	for i := range c.samples {
		c.samples[i] = transitSample{}
	}
	c.transit, c.hasTransit, c.started, c.frame = 0, false, false, 0
}

// SetDelayFrames changes the jitter delay; the clock moves to the new target
// by one frame per tick. A delay out of 0..MaxPlayoutDelayFrames is
// ignored (the clock keeps its delay).
func (c *PlayoutClock) SetDelayFrames(n int) {
	if n >= 0 && n <= MaxPlayoutDelayFrames {
		c.cfg.DelayFrames = n
	}
}

// Arrived records that the packet of frame `frame` arrived at tick now.
func (c *PlayoutClock) Arrived(now wire.Tick, frame int) {
	t := int(now) - frame
	w := wire.Tick(len(c.samples))
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
func (c *PlayoutClock) refresh(now wire.Tick) {
	best, found := 0, false
	for _, s := range c.samples {
		if !s.used || s.tick > now || now-s.tick >= wire.Tick(len(c.samples)) {
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
// false before any packet arrived (the adaptive jitter buffer sizes itself
// from the rest of the transits above it).
func (c *PlayoutClock) Transit() (int, bool) { return c.transit, c.hasTransit }

// Target returns the frame the receiver should be at, now − fastest transit
// − DelayFrames, and false before any packet arrived.
func (c *PlayoutClock) Target(now wire.Tick) (int, bool) {
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

// current is the receiver's current frame.
func (c *PlayoutClock) current() int { return c.frame }

// Advance moves the clock by one tick and returns how many frames the
// receiver must step: 1 normally, 2 when it is behind its target (too much
// delay), 0 when it is ahead of it (packets would arrive late). Before Start it
// returns 0.
func (c *PlayoutClock) Advance(now wire.Tick) int {
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
