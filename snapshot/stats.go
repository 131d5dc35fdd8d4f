package snapshot

import (
	"netcubes/wire"
)

// Design note: the snapshot strategy's own figures, beyond the session's
// bandwidth and error metrics: what each packet carried (how many cubes
// changed, how many bits each cost, which index encoding the sender chose)
// and how the receiver's buffer is doing (delay, depth, starved ticks).
// The HUD reads Strategy.Stats every frame; the bench reads the
// run totals, which also give the per-field averages the article quotes
// (5.5 bits per relative index, 26.1 per delta position, 23.3 per delta
// orientation). Per-tick records live in a fixed ring, so gathering them
// never allocates.

// sequenceBits is the session's 16-bit sequence, written before the
// strategy's payload; the strategy's own measurement does not include it.
const sequenceBits = 16

// Totals sums the packets sent since the strategy was reset (or
// over the last second, for Stats.Second).
type Totals struct {
	Packets int
	// Changed counts the cubes carried (every cube at levels 1-5).
	Changed int
	// HeaderBits: sequence, level, baseline, flags, count. CubeBits:
	// everything else (changed bits, indices, cube fields).
	HeaderBits, CubeBits int
	// Per field: how many were sent and the bits they took. Indices are
	// only those of packets that used an index encoding.
	Indices, IndexBits           int
	Positions, PositionBits      int
	Orientations, OrientationBit int
	// Predicted counts the changed cubes sent against their
	// player-relative prediction.
	Predicted int
	// Motion counts the changed cubes coded against their own motion
	// between two baselines (level 13).
	Motion int
	// BaselinePackets counts the packets encoded against an acked
	// snapshot, BaselineAgeSum the ages of those baselines in frames.
	BaselinePackets, BaselineAgeSum int
	Encodings                       [NumEncodings]int // packets per encoding
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// BitsPerChanged is the cube data per changed cube (the article's "bits per
// cube": 321 at level 1, 80 at level 5, about 58 at level 11).
func (t Totals) BitsPerChanged() float64 { return ratio(t.CubeBits, t.Changed) }

// ChangedPerPacket is the average number of cubes carried per packet.
func (t Totals) ChangedPerPacket() float64 { return ratio(t.Changed, t.Packets) }

// MeanBaselineAge is the average age of the baselines, in frames: about a
// round trip in steady state.
func (t Totals) MeanBaselineAge() float64 { return ratio(t.BaselineAgeSum, t.BaselinePackets) }

// BitsPerIndex is the average cost of a cube index (10 at level 7, about
// 5.5 relative at level 8 and up in the article).
func (t Totals) BitsPerIndex() float64 { return ratio(t.IndexBits, t.Indices) }

// BitsPerPosition is the average cost of a position sent (50 absolute,
// about 26.1 delta-encoded in the article).
func (t Totals) BitsPerPosition() float64 { return ratio(t.PositionBits, t.Positions) }

// BitsPerOrientation is the average cost of an orientation sent (29
// absolute, about 23.3 delta-encoded in the article).
func (t Totals) BitsPerOrientation() float64 {
	return ratio(t.OrientationBit, t.Orientations)
}

func (t *Totals) add(r *snapshotPacketRecord) {
	t.Packets++
	t.Changed += r.stats.Changed
	t.HeaderBits += r.headerBits
	t.CubeBits += r.cubeBits
	t.Indices += r.stats.Indices
	t.IndexBits += r.indexBits
	t.Positions += r.stats.Positions
	t.PositionBits += r.positionBits
	t.Orientations += r.stats.Orientations
	t.OrientationBit += r.orientationBits
	t.Predicted += r.stats.Predicted
	t.Motion += r.stats.Motion
	if r.info.Level.IsDelta() && !r.info.Initial {
		t.BaselinePackets++
		t.BaselineAgeSum += r.info.BaselineAge
	}
	t.Encodings[r.stats.Encoding]++
}

// PacketInfo describes one packet sent.
type PacketInfo struct {
	Frame    int
	Level    Level
	Encoding Encoding
	// Initial: encoded against the initial state; else BaselineAge is how
	// many frames older than the packet its baseline is (about the round
	// trip, in steady state).
	Initial     bool
	BaselineAge int
	Changed     int
	Predicted   int // changed cubes sent against the player-relative prediction
	HeaderBits  int
	CubeBits    int
}

// Stats are the strategy's figures for the HUD and the bench.
type Stats struct {
	// Sender. HasLast is false before the first packet.
	HasLast bool
	Last    PacketInfo
	// Second sums the packets of the last second (60 ticks); Total every
	// packet since the strategy was reset.
	Second, Total Totals

	// Receiver.
	// Playing: the right shows snapshots (false while it shows the
	// initial state, before the first one it can play).
	Playing bool
	// PlayoutFrame is the sender frame the clock plays (fractional).
	PlayoutFrame float64
	// PlayoutDelayMs is how far behind the present the right shows:
	// network latency + interpolation delay (+ the wait for the newest
	// snapshot when showing the latest only). TargetDelayMs is the
	// interpolation delay alone, as set; LatencyMs and JitterMs are the
	// clock's estimates of the one-way transit time and its spread.
	PlayoutDelayMs, TargetDelayMs, LatencyMs, JitterMs float64
	// Relocks counts the clock's re-locks (large changes of latency).
	Relocks int
	// BufferDepth is the number of snapshots held ahead of the playout
	// time; Buffered the number held in all (baselines included).
	BufferDepth, Buffered int
	// Starved: this tick the right had nothing to interpolate toward;
	// StarvedTicks counts such ticks (interpolating modes only);
	// ExtrapolatedTicks counts ticks shown past the newest snapshot.
	Starved                         bool
	StarvedTicks, ExtrapolatedTicks int
	// Received counts snapshots decoded; Ignored those already held or
	// too old to keep; Rejected those that failed to decode (corrupt, or
	// naming a baseline the right does not hold).
	Received, Ignored, Rejected int
}

// snapshotPacketRecord is one tick of the sender's ring.
type snapshotPacketRecord struct {
	frame                                    int
	sent                                     bool
	info                                     PacketInfo
	stats                                    PacketStats
	headerBits, cubeBits                     int
	indexBits, positionBits, orientationBits int
}

type senderStats struct {
	ring     [wire.TicksPerSecond]snapshotPacketRecord
	last     snapshotPacketRecord
	hasLast  bool
	lastTick int
	total    Totals
}

// tick records tick f: ps is nil when nothing was sent, else the packet's
// counts and b its measured breakdown (without the session's sequence).
func (s *senderStats) tick(f int, ps *PacketStats, b wire.Breakdown, p *Packet) {
	s.lastTick = f
	r := &s.ring[f%len(s.ring)]
	*r = snapshotPacketRecord{frame: f}
	if ps == nil {
		return
	}
	r.sent = true
	r.stats = *ps
	r.headerBits = b.Bits(wire.CategoryHeader) + sequenceBits
	r.cubeBits = b.Total() - b.Bits(wire.CategoryHeader)
	r.indexBits = b.Bits(wire.CategoryIndices)
	r.positionBits = b.Bits(wire.CategoryPosition)
	r.orientationBits = b.Bits(wire.CategoryOrientation)
	r.info = PacketInfo{
		Frame: f, Level: p.Level, Encoding: ps.Encoding, Initial: p.Initial || !p.Level.IsDelta(),
		Changed: ps.Changed, Predicted: ps.Predicted, HeaderBits: r.headerBits, CubeBits: r.cubeBits,
	}
	if p.Level.IsDelta() && !p.Initial {
		r.info.BaselineAge = wire.SequenceDiff(uint16(f), p.Baseline)
	}
	s.last, s.hasLast = *r, true
	s.total.add(r)
}

// second sums the records of the last 60 ticks up to frame now.
func (s *senderStats) second(now int) Totals {
	var t Totals
	for i := range s.ring {
		r := &s.ring[i]
		if r.sent && now-r.frame < len(s.ring) && r.frame <= now {
			t.add(r)
		}
	}
	return t
}

type receiverStats struct {
	playout, delayTicks   float64
	depth                 int
	starvedNow            bool
	starved, extrapolated int
	received, ignored     int
	rejected              int
}

// Stats returns the strategy's figures as of the last tick.
func (st *Strategy) Stats() Stats {
	var out Stats
	if !st.built {
		return out
	}
	s, r := &st.send, &st.recv
	out.HasLast = s.stats.hasLast
	out.Last = s.stats.last.info
	out.Second = s.stats.second(s.stats.lastTick)
	out.Total = s.stats.total

	rs := &r.stats
	out.Playing = r.showing
	out.PlayoutFrame = rs.playout
	out.PlayoutDelayMs = ticksToMs(rs.delayTicks)
	out.TargetDelayMs = ticksToMs(float64(r.delayTicks(&st.cfg)))
	out.LatencyMs = ticksToMs(r.clock.LatencyTicks())
	out.JitterMs = ticksToMs(r.clock.Jitter())
	out.Relocks = r.clock.Relocks()
	out.BufferDepth = rs.depth
	out.Buffered = r.buffer.Len()
	out.Starved = rs.starvedNow
	out.StarvedTicks = rs.starved
	out.ExtrapolatedTicks = rs.extrapolated
	out.Received, out.Ignored, out.Rejected = rs.received, rs.ignored, rs.rejected
	return out
}
