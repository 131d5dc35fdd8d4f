package wire

import (
	"errors"
	"math"

	"netcubes/internal/valid"
)

// Design note: UDP packets may be lost, duplicated or reordered, and nobody
// tells the sender. So each side numbers the packets it sends, and in every
// packet it sends back tells the other side which of its packets arrived:
// "ack" is the newest sequence received, and bit i of "ack bits" says whether
// sequence ack-1-i was received too. Since every packet repeats the last 33
// packets' fate, a single lost packet in the return direction costs no
// information; only 33 lost in a row would. (Glenn Fiedler, "Reliability and
// Congestion Avoidance over UDP".)
//
// From acks the sender learns everything it needs:
//   - which packets arrived, e.g. which snapshot the receiver can use as a
//     delta baseline;
//   - the round-trip time: when a packet is acked for the first time, the
//     time since it was sent, smoothed exponentially;
//   - packet loss: a packet not acked well after it should have been is
//     counted as lost;
//   - bandwidth sent, received and acked.
//
// An Endpoint does this for one side. Time comes in as simulation ticks, so
// RTT samples are whole ticks (16.7 ms steps) and every number repeats from
// run to run.

// AckBitsCount is the number of earlier packets an AckHeader reports besides
// the newest one.
const AckBitsCount = 32

// AckHeader is the reliability header of a packet: its own sequence number,
// and what its sender has received from the other side.
//
// Wire format, 17 bits when nothing has been received yet, 65 bits after:
//
//	sequence  16 bits  CategoryHeader
//	has ack    1 bit   CategoryAcks
//	ack       16 bits  CategoryAcks, only when has ack
//	ack bits  32 bits  CategoryAcks, only when has ack
//
// The "has ack" bit lets a side that has received nothing say so: without
// it, any value of ack would claim that some packet arrived.
type AckHeader struct {
	Sequence uint16
	HasAck   bool   // false until the sender of this header has received a packet
	Ack      uint16 // newest sequence received
	AckBits  uint32 // bit i set: sequence Ack-1-i was received
}

// Serialize reads, writes or measures the header.
func (h *AckHeader) Serialize(s Stream) error {
	s.SetCategory(CategoryHeader)
	if err := SerializeUint16(s, &h.Sequence); err != nil {
		return err
	}
	s.SetCategory(CategoryAcks)
	if err := SerializeBool(s, &h.HasAck); err != nil {
		return err
	}
	if !h.HasAck {
		if s.IsReading() {
			h.Ack, h.AckBits = 0, 0
		}
		return nil
	}
	if err := SerializeUint16(s, &h.Ack); err != nil {
		return err
	}
	return SerializeUint32(s, &h.AckBits)
}

// EndpointConfig holds the tunables of an Endpoint.
type EndpointConfig struct {
	// InitialSequence is the sequence of the first packet sent. Tests and
	// demonstrations start near 65535 to show the wrap to 0.
	InitialSequence uint16
	// SentPackets is how many sent packets are remembered for acks, RTT and
	// loss (rounded up to a power of two). It must cover the time until a
	// packet is judged lost, LossWaitRTTs × RTT: 256 packets is 4.3 s at 60 Hz.
	SentPackets int
	// ReceivedPackets is how many received sequences are remembered to
	// build ack bits (rounded up to a power of two, at least 64: ack bits
	// look 33 packets back, and a late packet may land up to a window back).
	ReceivedPackets int
	// RTTSmoothing is the weight of each new RTT sample in the exponential
	// average (0..1]. 0.1 follows a change within about 20 samples while
	// smoothing out jitter; larger reacts faster but is noisier.
	RTTSmoothing float64
	// LossWaitRTTs is how long, in smoothed RTTs, a packet may stay unacked
	// before it counts as lost. Too short and late acks (jitter) count as
	// losses; too long and the loss figure lags behind the network.
	LossWaitRTTs float64
	// MinLossWait is a floor on that wait, in ticks, for the first packets
	// (before any RTT sample) and for very short RTTs.
	MinLossWait Tick
	// LossWindow is the number of most recently judged packets the
	// PacketLoss fraction is computed over: 256 packets (4.3 s at 60 Hz)
	// measures 5% loss to about ±1.4% (one standard deviation).
	LossWindow int
	// BandwidthWindow is the sliding window of the bandwidth meters, in
	// ticks (60 = one second).
	BandwidthWindow int
	// MaxAhead and MaxAheadPerTick bound how far a packet's sequence may
	// jump past the newest one received: MaxAhead plus MaxAheadPerTick for
	// every tick since that newest packet arrived. A real sender numbers at
	// most a few packets a tick (a frame-numbered sender one), so after an
	// outage of any length its next packet still fits; a single forged
	// header 30,000 ahead does not, and cannot make every real packet look
	// stale. Larger tolerates burstier senders; smaller refuses more.
	MaxAhead        int
	MaxAheadPerTick int
}

// DefaultEndpointConfig returns the settings used by the app.
func DefaultEndpointConfig() EndpointConfig {
	return EndpointConfig{
		SentPackets:     256,
		ReceivedPackets: 256,
		RTTSmoothing:    0.1,
		LossWaitRTTs:    2,
		MinLossWait:     30, // 0.5 s
		LossWindow:      256,
		BandwidthWindow: TicksPerSecond,
		MaxAhead:        64,
		MaxAheadPerTick: 4,
	}
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("wire: invalid config")

// Validate reports the first field out of its range, naming it, its value
// and the range (the error wraps ErrInvalidConfig). 0 is in every range: it
// means DefaultEndpointConfig's value (ReceivedPackets below 64 counts as
// 64, as its comment says).
func (c EndpointConfig) Validate() error {
	const most = valid.Finite
	n := func(name string, v int, hi float64) valid.Field {
		return valid.Field{Name: name, V: float64(v), Hi: hi}
	}
	return valid.Check(ErrInvalidConfig,
		n("SentPackets", c.SentPackets, 1<<15), n("ReceivedPackets", c.ReceivedPackets, 1<<15),
		valid.Field{Name: "RTTSmoothing", V: c.RTTSmoothing, Hi: 1},
		valid.Field{Name: "LossWaitRTTs", V: c.LossWaitRTTs, Hi: most},
		n("MinLossWait", int(c.MinLossWait), most), n("LossWindow", c.LossWindow, 1<<16),
		n("BandwidthWindow", c.BandwidthWindow, 1<<16),
		n("MaxAhead", c.MaxAhead, 1<<15), n("MaxAheadPerTick", c.MaxAheadPerTick, 1<<15),
	)
}

type sentPacket struct {
	sent  Tick
	bytes int32 // on the wire, IP+UDP header included
	acked bool
}

type receivedPacket struct {
	received Tick
}

// EndpointStats are cumulative counts since the endpoint was created.
type EndpointStats struct {
	Sent       uint64 // packets sent
	Received   uint64 // fresh packets received (not duplicates, not stale)
	Duplicates uint64 // packets received a second time
	Stale      uint64 // packets too old to be tracked, ignored
	Refused    uint64 // headers that cannot be true (see Received), ignored
	Acked      uint64 // own packets acked by the other side
	Judged     uint64 // own packets settled: acked in time, or lost
	Lost       uint64 // own packets judged lost (not acked in time)
	LateAcks   uint64 // own packets acked after they were judged lost
}

// Endpoint is one side of a connection: it numbers outgoing packets, acks
// incoming ones, and measures RTT, loss and bandwidth from the acks it gets
// back. It allocates only in NewEndpoint.
type Endpoint struct {
	cfg      EndpointConfig
	next     uint16 // sequence of the next packet sent
	sent     *SequenceBuffer[sentPacket]
	received *SequenceBuffer[receivedPacket]
	newestAt Tick // when the newest received sequence arrived

	acked []uint16 // newly acked sequences of the last Received call

	rtt    float64 // smoothed, milliseconds; valid when hasRTT
	hasRTT bool

	judgeNext uint16 // oldest sent sequence not yet judged acked or lost
	lossRing  []bool // outcome of the last judged packets, true = lost
	lossPos   int
	lossCount int // judged packets in the ring (up to len)
	lossLost  int // lost among them

	sentBW, receivedBW *BandwidthMeter

	stats EndpointStats
}

// NewEndpoint returns an endpoint. Zero or negative fields of cfg take their
// DefaultEndpointConfig values.
func NewEndpoint(cfg EndpointConfig) *Endpoint {
	if err := cfg.Validate(); err != nil {
		panic(err) // a programming error: see Validate
	}
	def := DefaultEndpointConfig()
	if cfg.SentPackets <= 0 {
		cfg.SentPackets = def.SentPackets
	}
	if cfg.ReceivedPackets < 64 {
		cfg.ReceivedPackets = max(def.ReceivedPackets, 64)
	}
	if cfg.RTTSmoothing == 0 {
		cfg.RTTSmoothing = def.RTTSmoothing
	}
	if cfg.LossWaitRTTs == 0 {
		cfg.LossWaitRTTs = def.LossWaitRTTs
	}
	if cfg.MinLossWait <= 0 {
		cfg.MinLossWait = def.MinLossWait
	}
	if cfg.LossWindow <= 0 {
		cfg.LossWindow = def.LossWindow
	}
	if cfg.BandwidthWindow <= 0 {
		cfg.BandwidthWindow = def.BandwidthWindow
	}
	if cfg.MaxAhead <= 0 {
		cfg.MaxAhead = def.MaxAhead
	}
	if cfg.MaxAheadPerTick <= 0 {
		cfg.MaxAheadPerTick = def.MaxAheadPerTick
	}
	e := &Endpoint{
		cfg:        cfg,
		next:       cfg.InitialSequence,
		judgeNext:  cfg.InitialSequence,
		sent:       NewSequenceBuffer[sentPacket](cfg.SentPackets),
		received:   NewSequenceBuffer[receivedPacket](cfg.ReceivedPackets),
		acked:      make([]uint16, 0, AckBitsCount+1),
		lossRing:   make([]bool, cfg.LossWindow),
		sentBW:     NewBandwidthMeter(cfg.BandwidthWindow),
		receivedBW: NewBandwidthMeter(cfg.BandwidthWindow),
	}
	return e
}

// config returns the configuration in use (defaults filled in).
func (e *Endpoint) config() EndpointConfig { return e.cfg }

// Header returns the header for the next packet: its sequence and the acks
// of everything received so far. It changes nothing; call Sent once the
// packet is on its way.
func (e *Endpoint) Header() AckHeader {
	h := AckHeader{Sequence: e.next}
	newest, ok := e.received.Newest()
	if !ok {
		return h
	}
	h.HasAck = true
	h.Ack = newest
	for i := range AckBitsCount {
		if e.received.Exists(newest - 1 - uint16(i)) {
			h.AckBits |= 1 << uint(i)
		}
	}
	return h
}

// SkipTo makes seq the sequence of the next packet, so sequences can double
// as frame numbers (the state synchronization article's convention): a
// sender that sends only every sixth frame skips five numbers each time.
// seq must not be older than the next sequence (Header().Sequence); an older one is ignored, since
// reusing a sequence would confuse every ack already sent for it. Before
// the first packet any sequence may be chosen.
func (e *Endpoint) SkipTo(seq uint16) {
	if e.stats.Sent == 0 {
		e.next, e.judgeNext = seq, seq
		return
	}
	if !SequenceLessThan(seq, e.next) {
		e.next = seq
	}
}

// Sent records that the packet with sequence Header().Sequence left at tick now
// with payloadBytes of payload (PacketHeaderBytes are added for the IP and
// UDP headers), and returns that sequence. It also judges, as lost, the
// packets that have waited too long for an ack.
func (e *Endpoint) Sent(now Tick, payloadBytes int) uint16 {
	seq := e.next
	e.next++
	wire := WireBytes(payloadBytes)
	// seq is newer than every sequence sent before, so Insert accepts it.
	if p := e.sent.Insert(seq); p != nil {
		p.sent = now
		p.bytes = int32(min(wire, math.MaxInt32))
	}
	e.sentBW.Add(now, wire)
	e.stats.Sent++
	e.judge(now)
	return seq
}

// IsFresh reports whether a packet with sequence seq would be fresh: not
// received before and not too old to track. It records nothing, so a
// receiver can decode a packet first and acknowledge it (with Received)
// only if it was valid: acking a packet the application rejected would let
// the sender use it as a delta baseline the receiver does not have.
func (e *Endpoint) IsFresh(seq uint16) bool {
	return !e.received.IsStale(seq) && !e.received.Exists(seq)
}

// Received processes the header of a packet that arrived at tick now with
// payloadBytes of payload. It returns the sequences of our own packets that
// this header acks for the first time (in increasing order; the slice is
// owned by the endpoint and valid until the next call to Received), and
// whether the packet itself is fresh: false for a duplicate or a packet too
// old to track. A stale packet is ignored entirely; a duplicate's acks are
// still used.
//
// A header that cannot be true is refused whole (counted in Refused,
// changing nothing): one that acks a sequence this endpoint never sent, or
// whose own sequence jumps further past the newest received than the
// sender could have numbered since (MaxAhead, MaxAheadPerTick). Without
// that rule one forged header far ahead would move the received window
// past every real packet, and the real packets' acks would all be ignored
// as stale.
func (e *Endpoint) Received(now Tick, h AckHeader, payloadBytes int) (acked []uint16, fresh bool) {
	e.acked = e.acked[:0]
	if !e.plausible(now, h) {
		e.stats.Refused++
		return e.acked, false
	}
	if e.received.IsStale(h.Sequence) {
		e.stats.Stale++
		return e.acked, false
	}
	wire := WireBytes(payloadBytes)
	e.receivedBW.Add(now, wire)
	if e.received.Exists(h.Sequence) {
		e.stats.Duplicates++
	} else {
		fresh = true
		e.stats.Received++
		if newest, ok := e.received.Newest(); !ok || SequenceGreaterThan(h.Sequence, newest) {
			e.newestAt = now
		}
		e.received.Insert(h.Sequence).received = now
	}
	if h.HasAck {
		// Oldest first, so the caller sees acks in sequence order.
		for i := AckBitsCount - 1; i >= 0; i-- {
			if h.AckBits&(1<<uint(i)) != 0 {
				e.ack(now, h.Ack-1-uint16(i))
			}
		}
		e.ack(now, h.Ack)
	}
	e.judge(now)
	return e.acked, fresh
}

// plausible reports whether a header could have come from the real other
// side: its acks name only sequences already sent (and not older than the
// sent window), and its sequence is within reach of the newest received.
func (e *Endpoint) plausible(now Tick, h AckHeader) bool {
	if h.HasAck {
		if e.stats.Sent == 0 || !SequenceLessThan(h.Ack, e.next) {
			return false // acks a packet never sent
		}
		if SequenceDiff(e.next, h.Ack) > e.sent.Size()+AckBitsCount {
			return false // far older than anything still remembered
		}
	}
	newest, ok := e.received.Newest()
	if !ok || !SequenceGreaterThan(h.Sequence, newest) {
		return true
	}
	elapsed := max(int64(now-e.newestAt), 0)
	reach := int64(e.cfg.MaxAhead) + int64(e.cfg.MaxAheadPerTick)*elapsed
	return int64(SequenceDiff(h.Sequence, newest)) <= reach
}

// ack marks one of our packets as received by the other side.
func (e *Endpoint) ack(now Tick, seq uint16) {
	p := e.sent.Find(seq)
	if p == nil || p.acked {
		return
	}
	p.acked = true
	e.acked = append(e.acked, seq)
	e.stats.Acked++
	// A packet judged lost that is acked later was only late: count it, so
	// the loss figure can be read together with it.
	if SequenceLessThan(seq, e.judgeNext) {
		e.stats.LateAcks++
	}
	sample := (now - p.sent).Milliseconds()
	if !e.hasRTT {
		e.rtt = sample
		e.hasRTT = true
		return
	}
	// Exponential moving average: move a fixed fraction of the way toward
	// each new sample, so old samples fade by (1-α) per sample.
	e.rtt += float64((sample - e.rtt) * e.cfg.RTTSmoothing)
}

// lossWait is how long a packet may stay unacked before it counts as lost.
func (e *Endpoint) lossWait() Tick {
	w := e.cfg.MinLossWait
	if e.hasRTT {
		ticks := Tick(math.Ceil(e.rtt * e.cfg.LossWaitRTTs * TicksPerSecond / 1000))
		if ticks > w {
			w = ticks
		}
	}
	return w
}

// judge walks the sent packets oldest first and settles each one that is old
// enough: acked, or lost.
func (e *Endpoint) judge(now Tick) {
	wait := e.lossWait()
	for e.judgeNext != e.next {
		p := e.sent.Find(e.judgeNext)
		if p != nil {
			if now-p.sent < wait {
				return
			}
			e.stats.Judged++
			if !p.acked {
				e.stats.Lost++
			}
			e.recordJudgement(!p.acked)
		}
		// An entry already overwritten (more packets in flight than the
		// buffer holds) is skipped without a verdict.
		e.judgeNext++
	}
}

func (e *Endpoint) recordJudgement(lost bool) {
	if e.lossCount == len(e.lossRing) {
		if e.lossRing[e.lossPos] {
			e.lossLost--
		}
	} else {
		e.lossCount++
	}
	e.lossRing[e.lossPos] = lost
	if lost {
		e.lossLost++
	}
	e.lossPos++
	if e.lossPos == len(e.lossRing) {
		e.lossPos = 0
	}
}

// RTT returns the smoothed round-trip time in milliseconds, and false before
// the first ack. It includes the tick quantization of both directions and
// the time the other side held the packet before acking it.
func (e *Endpoint) RTT() (ms float64, ok bool) { return e.rtt, e.hasRTT }

// PacketLoss returns the fraction (0..1) of the last LossWindow judged packets
// that were never acked in time. It is 0 before any packet is judged.
func (e *Endpoint) PacketLoss() float64 {
	if e.lossCount == 0 {
		return 0
	}
	return float64(e.lossLost) / float64(e.lossCount)
}

// SentKbps is the bandwidth sent over the last BandwidthWindow ticks, IP and
// UDP headers included.
func (e *Endpoint) SentKbps(now Tick) float64 { return e.sentBW.Kbps(now) }

// ReceivedKbps is the bandwidth received over the last BandwidthWindow ticks,
// headers included, duplicates counted.
func (e *Endpoint) ReceivedKbps(now Tick) float64 { return e.receivedBW.Kbps(now) }

// Stats returns the cumulative counts.
func (e *Endpoint) Stats() EndpointStats { return e.stats }

// IsAcked reports whether our packet seq is known to have been received (as
// long as it is still among the last SentPackets sent).
func (e *Endpoint) IsAcked(seq uint16) bool {
	p := e.sent.Find(seq)
	return p != nil && p.acked
}
