package adapt

// Design note: the tracker is the sender's memory of its own packets, all a
// congestion estimator needs from the session: when each packet left and
// how big it was (the sender knows), and which were acked (the session's
// Acked callbacks). From those, per tick: round-trip samples (the tick an
// ack arrived minus the tick its packet left), the bytes acked (what got
// through) and the packets judged lost.
//
// A packet is judged lost when it has waited LossWait ticks without an ack
// (the estimator sets the wait from the round trip it measures, as TCP and
// QUIC time their loss detection). It cannot be judged by the acks of later
// packets alone: at 60 packets per second a link's jitter reorders a dozen
// in a row, and each would be a false loss. A late ack of a packet already
// judged lost still counts as delivered bytes and as a round-trip sample;
// the loss stays counted (the figure is "not acked in time").
//
// Frames, not sequence numbers: the strategies already unwrap each acked
// sequence to the frame it was sent at (wire.FrameOf), and a frame never
// wraps.

// TrackerTicks is how many ticks of packets the tracker remembers (4.3 s at
// 60 Hz). A packet older than that without an ack is judged lost when its
// slot is reused, whatever LossWait says.
const TrackerTicks = 256

// Sample is one tick as the sender saw it: what it sent, what was acked,
// what it judged lost.
type Sample struct {
	Tick       int // the tick (frame) the sample closes
	Sent       int // packets sent
	SentBytes  int // their bytes on the wire (IP and UDP headers included)
	Acked      int // packets acked this tick (late ones included)
	AckedBytes int // their bytes on the wire
	Lost       int // packets judged lost this tick
	// Round-trip samples of the packets acked this tick, in ticks: their
	// count, sum and sum of squares (for the mean and the spread).
	RTTs             int
	RTTSum, RTTSumSq int64
}

// sentPacket is one tick's packet in the tracker's ring.
type sentPacket struct {
	frame  int // −1: empty
	bytes  int
	acked  bool
	judged bool // settled: acked, or counted lost
}

// Tracker remembers the packets a sender sent (at most one per tick) and
// turns acks into per-tick samples. It never allocates; the zero value
// must be Reset before use.
type Tracker struct {
	ring   [TrackerTicks]sentPacket
	cur    Sample
	oldest int // oldest frame not yet judged
}

// Reset forgets every packet.
func (t *Tracker) Reset() {
	for i := range t.ring {
		t.ring[i] = sentPacket{frame: -1}
	}
	t.cur = Sample{}
	t.oldest = 0
}

// Sent records a packet sent at frame with wireBytes on the wire.
func (t *Tracker) Sent(frame, wireBytes int) {
	if frame < 0 {
		return
	}
	p := &t.ring[frame%TrackerTicks]
	if p.frame >= 0 && !p.judged {
		// Its slot is needed: a packet this old without an ack is lost.
		t.cur.Lost++
	}
	*p = sentPacket{frame: frame, bytes: wireBytes}
	t.cur.Sent++
	t.cur.SentBytes += wireBytes
}

// Acked records at tick now the ack of the packet sent at frame. An ack of
// a frame it does not hold (too old, never sent, acked already) is
// ignored.
func (t *Tracker) Acked(frame, now int) {
	if frame < 0 || frame > now {
		return
	}
	p := &t.ring[frame%TrackerTicks]
	if p.frame != frame || p.acked {
		return
	}
	p.acked, p.judged = true, true
	rtt := int64(now - frame)
	t.cur.Acked++
	t.cur.AckedBytes += p.bytes
	t.cur.RTTs++
	t.cur.RTTSum += rtt
	t.cur.RTTSumSq += rtt * rtt
}

// Tick closes tick now: packets sent lossWait or more ticks ago without an
// ack are judged lost, and the tick's sample is returned (and forgotten).
func (t *Tracker) Tick(now, lossWait int) Sample {
	lossWait = min(max(lossWait, 1), TrackerTicks-1)
	if first := now - TrackerTicks + 1; t.oldest < first {
		// A jump in time: judge what the ring holds before first in one
		// pass instead of walking every frame in between.
		for i := range t.ring {
			p := &t.ring[i]
			if p.frame >= t.oldest && p.frame < first && !p.judged {
				p.judged = true
				t.cur.Lost++
			}
		}
		t.oldest = first
	}
	for ; t.oldest <= now-lossWait; t.oldest++ {
		p := &t.ring[t.oldest%TrackerTicks]
		if p.frame != t.oldest || p.judged {
			continue
		}
		p.judged = true
		t.cur.Lost++
	}
	s := t.cur
	s.Tick = now
	t.cur = Sample{}
	return s
}
