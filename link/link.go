package link

import (
	"math"
	"math/bits"
	"slices"

	"netcubes/wire"
)

// Design note: the simulated link stands in for the Internet between the
// left and the right simulation. One Link carries one direction. The sender
// calls Send at its tick; the receiver calls Receive at its tick and gets
// every packet whose arrival time has come, in a deterministic order.
//
// Time. Internally the link keeps time in micro-ticks (1e-6 tick, 1/60 µs),
// an integer clock on which a tick boundary is exact. A packet sent at tick
// t leaves at t × 1e6, travels for its delay, and is delivered by the first
// Receive(now) with now × 1e6 >= arrival: so delays round UP to whole ticks,
// as they would for a receiver that polls once per frame. A perfect link
// (zero delay) therefore delivers a packet sent at tick t to a Receive at
// the same tick t, provided Receive is called after Send in that tick (the
// session steps left, sends, then lets the right receive); 1 ms of latency
// already means tick t+1.
//
// What happens to a packet, in order:
//  1. Burst state: the Gilbert–Elliott model takes one step (see BurstLoss);
//     it steps for every packet sent, whatever becomes of the packet.
//  2. Outage: sent during a manual outage, it is dropped (FateOutage). Too
//     many packets in flight, or a packet too large, is FateOverflow.
//  3. Bandwidth cap: it joins the bottleneck queue, or is dropped there
//     (FateQueueDropped); see "The bottleneck" below.
//  4. Loss: lost with the loss probability of the current burst state
//     (FateLost). A datagram larger than the MTU travels as IP fragments,
//     each lost on its own; one lost fragment loses the datagram (see
//     "Fragments" below).
//  5. Delay: latency plus a uniform jitter in ±JitterMs, plus ReorderExtraMs
//     for the ReorderPercent of packets held back. Jitter larger than the
//     send interval reorders packets too, as in Glenn Fiedler's simulators.
//  6. Duplicate: with DuplicatePercent a second copy is scheduled with its
//     own jitter (not held back); whichever copy arrives second is flagged
//     Delivery.Duplicate.
//  7. Corruption: with CorruptPercent the datagram arrives with one bit
//     flipped, the same bit in both copies of a duplicate (the damage is
//     done before the path copies it). Real UDP carries a 16-bit checksum
//     that catches most damage; this models what gets past it, or a path
//     with the checksum off, so the receiver's own checks are all that
//     stands between a flipped bit and the game.
//
// The bottleneck (BandwidthKbps > 0) is modelled as a link is: one queue in
// front of a wire that serializes bytes at the cap's rate. A datagram leaves
// when the bytes queued ahead of it and its own (IP and UDP headers, and
// one IP header per fragment, included) have been clocked out, so delay
// grows with the queue and throughput never exceeds the cap. The queue is
// drop-tail, bounded in bytes (QueueLimitBytes) and in time (QueueLimitMs):
// an arriving datagram is dropped when what is already queued is at either
// limit, and otherwise admitted whole, even if it takes the queue over the
// limit. That is how a sending host's socket buffer behaves (Linux admits a
// datagram while the buffer is below its size), and it is what lets a
// 36 kB snapshot through a 1 Mbit/s link whose 250 ms queue holds 31 kB: a
// queue that refused anything larger than its free space would never pass
// it, where a real bottleneck passes about cap/offered of them. So the
// queue holds at most the limit plus one datagram, a datagram waits at
// most QueueLimitMs before its first bit leaves, and under overload the
// wire is always busy: the fraction delivered is cap/offered. (The queue
// holds whole datagrams, as the sender's own buffer does. A router queue
// would drop fragments one by one and spend the wire on fragments of
// datagrams already lost: large datagrams do even worse there.)
//
// Fragments (MTUBytes > 0). A datagram whose UDP payload and header exceed
// MTU − 20 bytes is split into k fragments of at most (MTU − 20) rounded
// down to 8 bytes each, every one with its own 20-byte IP header: 1,480
// bytes of data per fragment at the usual 1,500-byte MTU, so the 36 kB
// uncompressed snapshot is 25 fragments and 500 bytes of extra headers.
// Fragments are lost independently with the link's loss, and the receiver
// cannot rebuild a datagram with a fragment missing, so the datagram is
// lost with probability 1 − (1 − loss)^k: 5 % loss loses 72 % of the 36 kB
// snapshots. (The loss draw stays one number per datagram, compared with
// that probability, so determinism is unchanged.) MTUBytes 0 sends
// datagrams whole, as over loopback; the built-in presets without a cap
// keep it so (their figures in the README are measured that way).
//
// A cap schedule (CapSchedule) changes the cap over time, in ticks counted
// from the first tick the link sees after New or Reset, or after a
// SetConfig that changed the schedule: the "bottleneck" preset steps from
// 1,000 kbit/s to 256 and back. When the cap changes, the datagrams already
// queued keep the departure they were given at the old rate (they drain as
// they were clocked); the next one queues behind them and is clocked at the
// new rate.
//
// TCP-like mode replaces 4-7: nothing is lost and everything is delivered in
// order. A packet the loss model drops is retransmitted after RTO =
// max(MinRTOMs, 2 × LatencyMs + 4 × JitterMs) (TCP: RTO = SRTT + 4 × RTTVAR,
// floored at 200 ms on Linux), the RTO doubling after each failed attempt
// (exponential backoff, capped at MaxRTOMs); so a loss costs at least an RTO
// and 200 ms. Packets behind it are held until it arrives: head-of-line
// blocking, the reason games do not use TCP. Packets sent during an outage
// are retransmitted the same way until an attempt falls after the outage
// (for a held outage, from the moment it is released). With a cap, the
// queue in front of the wire is the TCP socket's send buffer, bounded the
// same way: a message that finds it full is refused at the sender
// (FateQueueDropped), as a game's non-blocking write to a full TCP socket
// fails. Without that bound the buffer grew to thousands of packets and
// minutes of delay (TCP itself would have slowed the sender; a simulated
// one cannot). Retransmissions are not charged to the cap, and TCP
// segments at the MSS, so MTUBytes does not apply.
//
// Determinism. Each Send draws exactly six numbers from the link's own
// SplitMix64 generator (loss, burst step, jitter, reorder, duplicate,
// duplicate jitter) whatever happens to the packet, plus one per TCP
// retransmission. So a packet's fate depends only on the seed, the
// configuration and the packets before it, and changing one knob (an outage,
// the loss rate) does not reshuffle the delays of the others. Corruption
// draws its two numbers per Send (whether, which bit) from a second
// generator, seeded from the same seed: turning it on changes no packet's
// fate or delay, only its bytes.
//
// Storage. The link copies each packet into a slot it owns; slots and their
// byte buffers are reused, so after warm-up sending and receiving allocate
// nothing. A bounded number of packets may be in flight (MaxInFlight).

// microTicksPerTick is the link's clock resolution: 1e6 per tick, so 1 ms is
// exactly 60,000 micro-ticks.
const microTicksPerTick = 1_000_000

// msToMicroTicks converts milliseconds to micro-ticks, rounding to nearest.
func msToMicroTicks(ms float64) int64 {
	if !(ms > 0) {
		return 0
	}
	if ms > 1e9 {
		ms = 1e9
	}
	return int64(math.Floor(float64(ms*(microTicksPerTick*wire.TicksPerSecond/1000)) + 0.5))
}

// tickOf returns the first tick whose start is at or after micro-tick time t.
func tickOf(t int64) wire.Tick {
	return wire.Tick((t + microTicksPerTick - 1) / microTicksPerTick)
}

// Link defaults used when a Config field is zero.
const (
	// DefaultReorderExtraMs is how long a held-back packet waits beyond its
	// normal delay: three frames at 60 Hz, enough to land behind the next
	// two or three packets.
	DefaultReorderExtraMs = 50
	// DefaultMinRTOMs is the minimum retransmission timeout of TCP-like
	// mode, Linux's TCP_RTO_MIN.
	DefaultMinRTOMs = 200
	// DefaultMaxRTOMs caps the doubling RTO so the demo recovers within
	// seconds after an outage (real stacks allow up to 120 s).
	DefaultMaxRTOMs = 3000
	// DefaultQueueMs bounds the bandwidth-cap queue when QueueLimitMs is 0,
	// and sizes it when QueueLimitBytes is 0 (the bytes the cap carries in
	// that time): 250 ms, a typical router or modem buffer. Longer queues
	// ("bufferbloat") add delay instead of loss.
	DefaultQueueMs = 250
	// ipHeaderBytes is an IPv4 header: one per fragment.
	ipHeaderBytes = 20
	// udpHeaderBytes is the UDP header, once per datagram.
	udpHeaderBytes = 8
	// minMTU is the smallest MTU the link accepts (IPv4's minimum).
	minMTU = 68
	// DefaultMaxInFlight bounds the packets stored by a link.
	DefaultMaxInFlight = 4096
	// DefaultMaxPacketBytes bounds one packet: the largest UDP payload over
	// IPv4 (65535 - 28 bytes of headers). The uncompressed 901-cube snapshot
	// (36 kB) fits.
	DefaultMaxPacketBytes = 65507
	// EventCapacity is the number of recent packets whose fate a link
	// remembers for the timeline: 17 s at 60 packets per second.
	EventCapacity = 1024
	// maxRetransmits bounds TCP-like retransmissions of one packet.
	maxRetransmits = 64
)

// BurstLoss configures the two-state Gilbert–Elliott model of bursty loss.
// The link is either in the good state, where packets are lost with the
// link's LossPercent, or in the bad state, where they are lost with
// BadLossPercent. Before each packet the state may flip: good → bad with
// GoodToBadPercent, bad → good with BadToGoodPercent.
//
// Consequences (p = GoodToBad, r = BadToGood, as fractions):
//   - a bad period lasts 1/r packets on average; a good one 1/p;
//   - the link spends p/(p+r) of the time in the bad state, so the overall
//     loss is (r × loss + p × badLoss)/(p + r) (Config.expectedLoss);
//   - with no loss in the good state, consecutive losses come in runs of
//     mean length 1/(1 - (1-r) × badLoss), against 1/(1 - loss) for
//     independent loss at the same rate: bursts.
//
// The model is off when GoodToBadPercent is 0.
type BurstLoss struct {
	GoodToBadPercent float64 // chance per packet to enter the bad state, %
	BadToGoodPercent float64 // chance per packet to leave it, %; 1/this = mean burst length in packets
	BadLossPercent   float64 // loss in the bad state, %
}

// Config holds the knobs of one direction of the simulated link. The zero
// value is a perfect link: no delay, no loss, everything in order.
type Config struct {
	// LatencyMs is the one-way base delay in milliseconds. Delays round up
	// to whole ticks (16.7 ms) at the receiver.
	LatencyMs float64
	// JitterMs spreads each packet's delay uniformly over
	// [LatencyMs - JitterMs, LatencyMs + JitterMs] (never below 0). Jitter
	// is what receivers buffer against; when it exceeds the send interval
	// packets also arrive out of order.
	JitterMs float64
	// LossPercent is the chance that a packet is lost (in the good state
	// when Burst is on), 0..100.
	LossPercent float64
	// DuplicatePercent is the chance that a packet is delivered twice,
	// 0..100.
	DuplicatePercent float64
	// ReorderPercent is the chance that a packet is held back
	// ReorderExtraMs beyond its delay, so later packets overtake it.
	ReorderPercent float64
	// ReorderExtraMs is that extra delay; 0 means DefaultReorderExtraMs.
	ReorderExtraMs float64
	// Burst adds bursty loss (Gilbert–Elliott); zero value = off.
	Burst BurstLoss
	// BandwidthKbps caps the link at this many kilobits per second (IP+UDP
	// headers count); 0 = unlimited. Above the cap packets queue (adding
	// delay) and then drop (see the design note: the bottleneck).
	BandwidthKbps float64
	// QueueLimitBytes bounds the bottleneck queue (headers included): a
	// datagram arriving while this much is queued is dropped. 0 means the
	// bytes the cap carries in DefaultQueueMs. Larger buffers trade loss
	// for delay.
	QueueLimitBytes int
	// QueueLimitMs bounds the queue in time: a datagram that would wait
	// this long or more before it starts to leave is dropped. 0 means
	// DefaultQueueMs.
	QueueLimitMs float64
	// MTUBytes is the largest IP packet the path carries; a larger
	// datagram travels as fragments and is lost if any one is (see the
	// design note). 0 sends datagrams whole. 1500 is Ethernet's.
	MTUBytes int
	// TCPLike delivers everything, in order, retransmitting lost packets
	// (head-of-line blocking). Duplicates and reordering are off.
	TCPLike bool
	// MinRTOMs is the minimum retransmission timeout in TCP-like mode; 0
	// means DefaultMinRTOMs.
	MinRTOMs float64
	// MaxRTOMs caps the RTO backoff; 0 means DefaultMaxRTOMs.
	MaxRTOMs float64
	// MaxInFlight bounds the packets stored by the link (beyond it packets
	// are dropped as FateOverflow); 0 means DefaultMaxInFlight.
	MaxInFlight int
	// MaxPacketBytes bounds a packet's payload (larger ones are dropped as
	// FateOverflow); 0 means DefaultMaxPacketBytes.
	MaxPacketBytes int
	// CorruptPercent is the share of delivered datagrams, 0..100, that
	// arrive with exactly one bit flipped (uniformly over the payload's
	// bits). A reader must reject what it cannot decode; a flip that
	// decodes into a valid but wrong packet is what a checksum is for.
	// TCP-like mode ignores it (TCP's checksum turns damage into a resend,
	// which its loss model already stands for).
	CorruptPercent float64
	// CapSchedule steps the bandwidth cap over time (see CapSchedule),
	// while BandwidthKbps is 0: a cap set by hand overrides it, and
	// turning that cap off again hands back to the schedule.
	CapSchedule CapSchedule
}

// MaxCapSteps is the most steps a CapSchedule holds: a fixed array keeps
// Config a comparable value that copies without aliasing.
const MaxCapSteps = 4

// CapStep is one step of a cap schedule.
type CapStep struct {
	Kbps  float64 // the cap during the step, kbit/s; 0: no cap
	Ticks int     // how long the step lasts, ticks; 0 ends the schedule
}

// CapSchedule changes a link's bandwidth cap over time, counted in ticks
// from the moment the link starts (see the design note: a cap schedule).
// The steps run in order up to the first with Ticks 0; then the schedule
// starts over when Repeat is set, or the last step's cap stays. A schedule
// without steps is off.
type CapSchedule struct {
	Steps  [MaxCapSteps]CapStep
	Repeat bool
}

// On reports whether the schedule has a step.
func (s CapSchedule) On() bool { return s.Steps[0].Ticks > 0 }

// Len is the number of steps.
func (s CapSchedule) Len() int {
	n := 0
	for n < MaxCapSteps && s.Steps[n].Ticks > 0 {
		n++
	}
	return n
}

// Period is the length of one pass through the steps, ticks.
func (s CapSchedule) Period() int {
	total := 0
	for _, st := range s.Steps[:s.Len()] {
		total += st.Ticks
	}
	return total
}

// At returns the cap at tick t of the schedule (t ≥ 0; earlier counts as
// 0) and the index of its step. An empty schedule returns 0, -1.
func (s CapSchedule) At(t int) (kbps float64, step int) {
	n := s.Len()
	if n == 0 {
		return 0, -1
	}
	t = max(t, 0)
	if s.Repeat {
		t %= s.Period()
	}
	for k, st := range s.Steps[:n] {
		if t < st.Ticks {
			return st.Kbps, k
		}
		t -= st.Ticks
	}
	return s.Steps[n-1].Kbps, n - 1
}

// CapAt is the bandwidth cap in kbit/s (0: none) at tick t after the link
// started: BandwidthKbps when it is set (a cap set by hand wins), else the
// schedule's.
func (c Config) CapAt(t int) float64 {
	if c.BandwidthKbps > 0 || !c.CapSchedule.On() {
		return c.BandwidthKbps
	}
	kbps, _ := c.CapSchedule.At(t)
	return kbps
}

// DefaultConfig returns the zero configuration: a perfect link (see
// presets.go for realistic ones).
func DefaultConfig() Config { return Config{} }

// expectedLoss is the long-run fraction of packets lost (0..1) by the loss
// and burst models (TCP-like mode loses nothing; outages and the queue are
// not included).
func (c Config) expectedLoss() float64 {
	loss := clampPercent(c.LossPercent)
	p := clampPercent(c.Burst.GoodToBadPercent)
	if p == 0 {
		return loss
	}
	r := clampPercent(c.Burst.BadToGoodPercent)
	bad := clampPercent(c.Burst.BadLossPercent)
	// Stationary distribution of the two-state chain: the flow good→bad,
	// πG × p, equals the flow bad→good, πB × r.
	return (r*loss + p*bad) / (p + r)
}

// RTOMs is the first retransmission timeout of TCP-like mode.
func (c Config) RTOMs() float64 {
	minRTO := c.MinRTOMs
	if !(minRTO > 0) {
		minRTO = DefaultMinRTOMs
	}
	return max(minRTO, 2*max(c.LatencyMs, 0)+4*max(c.JitterMs, 0))
}

// clampPercent turns a percentage into a probability in [0, 1].
func clampPercent(p float64) float64 {
	if !(p > 0) {
		return 0
	}
	if p >= 100 {
		return 1
	}
	return p / 100
}

// Fate is what happened to a packet on a link.
type Fate uint8

const (
	FateInFlight     Fate = iota // on its way (or held by a TCP-like outage)
	FateDelivered                // handed to the receiver
	FateLost                     // lost by the loss or burst model
	FateOutage                   // sent during an outage
	FateQueueDropped             // the bandwidth-cap queue was full
	FateOverflow                 // too many packets in flight, or too large
)

var fateNames = [...]string{"in flight", "delivered", "lost", "outage", "queue dropped", "overflow"}

// String names the fate.
func (f Fate) String() string {
	if int(f) < len(fateNames) {
		return fateNames[f]
	}
	return "unknown"
}

// Event is the record of one sent packet, for a packet timeline.
type Event struct {
	ID    uint64 // link-wide packet number, from 0
	Sent  wire.Tick
	Bytes int32 // payload bytes
	Fate  Fate
	// Arrival is the tick the packet was delivered (FateDelivered) or is
	// scheduled to be (FateInFlight); -1 while a TCP-like packet waits for a
	// held outage to end. Meaningless for the other fates.
	Arrival     wire.Tick
	Retransmits uint8 // TCP-like retransmissions
	Fragments   uint8 // IP fragments the datagram travelled as (1 when whole)
	Duplicated  bool  // a second copy was scheduled
	HeldBack    bool  // delayed by the reorder knob
	Burst       bool  // sent while the burst model was in its bad state
	Corrupted   bool  // delivered with a bit flipped (CorruptPercent)
	// depart is when the datagram's last bit left the bottleneck (its
	// send time without a cap), arrive when its first copy reached the
	// other end (after any resends and head-of-line blocking), both in
	// micro-ticks; arrive is known once delivered (Times).
	depart, arrive int64
}

// Times splits a delivered packet's trip (Arrival − Sent ticks) into what
// it is made of, in milliseconds: the wait in the bottleneck's queue and
// on its wire (0 without a cap), the travel from there to the other end
// (latency and jitter, the reorder knob's hold, a TCP-like link's resends
// and head-of-line blocking), and the hold until the tick the receiver
// reads at. The three add up to the trip. ok is false before delivery.
func (e *Event) Times() (queueMs, travelMs, heldMs float64, ok bool) {
	if e.Fate != FateDelivered {
		return 0, 0, 0, false
	}
	sent := int64(e.Sent) * microTicksPerTick
	read := int64(e.Arrival) * microTicksPerTick
	return microTicksToMs(e.depart - sent), microTicksToMs(e.arrive - e.depart), microTicksToMs(read - e.arrive), true
}

// microTicksToMs converts micro-ticks to milliseconds.
func microTicksToMs(t int64) float64 {
	return float64(t) * 1000 / (wire.TicksPerSecond * microTicksPerTick)
}

// Stats are a link's cumulative counters.
type Stats struct {
	Sent                uint64 // packets given to Send
	Delivered           uint64 // original packets delivered
	DuplicatesDelivered uint64 // extra copies delivered
	Lost                uint64 // FateLost (FragmentLost of them by a lost fragment)
	FragmentLost        uint64 // datagrams lost because one of their fragments was
	OutageDropped       uint64 // FateOutage
	QueueDropped        uint64 // FateQueueDropped
	OverflowDropped     uint64 // FateOverflow
	Duplicated          uint64 // extra copies scheduled
	HeldBack            uint64 // packets delayed by the reorder knob
	Retransmitted       uint64 // TCP-like retransmissions
	Corrupted           uint64 // datagrams scheduled with a bit flipped (both copies of a duplicate count once)
	BytesSent           uint64 // payload bytes given to Send
	BytesDelivered      uint64 // payload bytes delivered, copies included
}

// Delivery is a packet handed to the receiver.
type Delivery struct {
	// Data is the packet. It points into the link's storage and stays valid
	// until the next call to Receive.
	Data      []byte
	ID        uint64 // the packet's link-wide number (a copy shares it)
	Sent      wire.Tick
	Duplicate bool // the second copy of a duplicated packet to arrive
	// Corrupted says that the link flipped a bit of this packet: ground
	// truth for tests and the HUD's "corrupt" count, which a real receiver
	// would not have.
	Corrupted bool
}

// linkParams is a Config converted to the link's integer clock and to
// probabilities.
type linkParams struct {
	latency, jitter, reorderExtra int64 // micro-ticks
	loss, dup, reorder            float64
	burst                         bool
	g2b, b2g, badLoss             float64
	capped                        bool
	microTicksPerBit              float64 // at the cap
	queueLimit                    int64   // bytes
	queueLimitTime                int64   // micro-ticks
	mtu                           int     // 0: no fragments
	tcp                           bool
	rto, maxRTO                   int64 // micro-ticks
	maxInFlight, maxPacket        int
	corrupt                       float64
}

func makeParams(c Config) linkParams {
	p := linkParams{
		latency:     msToMicroTicks(c.LatencyMs),
		jitter:      msToMicroTicks(c.JitterMs),
		loss:        clampPercent(c.LossPercent),
		dup:         clampPercent(c.DuplicatePercent),
		reorder:     clampPercent(c.ReorderPercent),
		burst:       clampPercent(c.Burst.GoodToBadPercent) > 0,
		g2b:         clampPercent(c.Burst.GoodToBadPercent),
		b2g:         clampPercent(c.Burst.BadToGoodPercent),
		badLoss:     clampPercent(c.Burst.BadLossPercent),
		tcp:         c.TCPLike,
		maxInFlight: c.MaxInFlight,
		maxPacket:   c.MaxPacketBytes,
		corrupt:     clampPercent(c.CorruptPercent),
	}
	extra := c.ReorderExtraMs
	if !(extra > 0) {
		extra = DefaultReorderExtraMs
	}
	p.reorderExtra = msToMicroTicks(extra)
	p.setCap(c, c.CapAt(0))
	if c.MTUBytes > 0 {
		p.mtu = max(c.MTUBytes, minMTU)
	}
	p.rto = msToMicroTicks(c.RTOMs())
	maxRTO := c.MaxRTOMs
	if !(maxRTO > 0) {
		maxRTO = DefaultMaxRTOMs
	}
	p.maxRTO = max(msToMicroTicks(maxRTO), p.rto)
	if p.maxInFlight <= 0 {
		p.maxInFlight = DefaultMaxInFlight
	}
	if p.maxPacket <= 0 {
		p.maxPacket = DefaultMaxPacketBytes
	}
	return p
}

// setCap sets the bottleneck's parameters for a cap of kbps (0: none) and
// c's queue limits.
func (p *linkParams) setCap(c Config, kbps float64) {
	p.capped = kbps > 0
	if !p.capped {
		return
	}
	// One bit takes 1/(kbps × 1000) s = 60e6/(kbps × 1000) micro-ticks.
	p.microTicksPerBit = microTicksPerTick * wire.TicksPerSecond / (kbps * 1000)
	q := int64(c.QueueLimitBytes)
	if q <= 0 {
		q = int64(min(kbps, 1e9) * 1000 / 8 * DefaultQueueMs / 1000)
	}
	p.queueLimit = max(q, 1)
	ms := c.QueueLimitMs
	if !(ms > 0) {
		ms = DefaultQueueMs
	}
	p.queueLimitTime = max(msToMicroTicks(ms), 1)
}

// blockedArrival marks a TCP-like packet waiting for a held outage to end.
const blockedArrival = math.MaxInt64

type linkSlot struct {
	data   []byte
	id     uint64
	sent   wire.Tick
	arrive int64 // micro-ticks; blockedArrival while held
	depart int64 // micro-ticks, when it left the queue (TCP-like outage replay)
	delay  int64 // one-way delay (TCP-like outage replay)
	dup    bool
	bad    bool // a bit was flipped
}

// Link simulates one direction of a network path. Create it with New.
type Link struct {
	cfg  Config
	p    linkParams
	seed uint64
	rng  wire.RNG
	crng wire.RNG // corruption's own draws (see the design note: determinism)

	bad        bool  // Gilbert–Elliott state
	wireFreeAt int64 // micro-ticks: when the bottleneck finishes the queued packets
	tcpLast    int64 // micro-ticks: arrival of the last TCP-like packet scheduled
	tcpBlocked int   // TCP-like packets waiting for a held outage to end

	outageEnd wire.Tick // packets sent before this tick (and at or after outageStart) are dropped
	outageBeg wire.Tick
	held      bool

	last  wire.Tick // latest tick seen, so time never runs backwards
	begun bool
	// The cap schedule: the tick it started and the cap p is set for.
	origin wire.Tick
	capNow float64

	nextID  uint64
	slots   []linkSlot
	free    []int32
	heap    []int32 // in-flight slots, a min-heap on (arrive, id, dup)
	pending []int32 // slots delivered by the last Receive, freed by the next
	out     []Delivery
	scratch []int32

	events [EventCapacity]Event
	stats  Stats
}

// New returns a link with the given configuration, its random generator
// seeded with seed. An invalid cfg is a programming error (the flags, keys,
// talk tracks and the wire refuse a value out of range where it arrives):
// New panics with Validate's error rather than run a link nobody asked for.
func New(cfg Config, seed uint64) *Link {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	l := &Link{seed: seed, rng: wire.NewRNG(seed), crng: wire.NewRNG(corruptSeed(seed))}
	l.cfg = cfg
	l.p = makeParams(cfg)
	l.capNow = cfg.CapAt(0)
	return l
}

// corruptSeed derives the corruption generator's seed from the link's.
func corruptSeed(seed uint64) uint64 { return seed ^ 0xc0bb1e5eed5a17ed }

// Config returns the current configuration.
func (l *Link) Config() Config { return l.cfg }

// SetConfig changes the knobs from now on. Packets already in flight keep
// their schedule; the burst state and the queue carry over. Leaving
// TCP-like mode releases packets held by an outage at the latest tick seen.
// An invalid cfg is refused (Validate's error) and the link keeps its
// knobs.
func (l *Link) SetConfig(cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	wasTCP := l.p.tcp
	if cfg.CapSchedule != l.cfg.CapSchedule {
		l.origin = l.last // a new schedule starts now
	}
	l.cfg = cfg
	l.p = makeParams(cfg)
	l.capNow = cfg.CapAt(0)
	l.syncCap(l.last)
	if wasTCP && !l.p.tcp && l.tcpBlocked > 0 {
		l.releaseBlocked(l.last)
	}
	if !l.p.burst {
		l.bad = false
	}
	return nil
}

// Reset drops everything in flight, clears counters, events and outages, and
// restarts the random generator from seed. Storage is kept for reuse.
func (l *Link) Reset(seed uint64) {
	l.free = append(l.free, l.heap...)
	l.free = append(l.free, l.pending...)
	l.heap = l.heap[:0]
	l.pending = l.pending[:0]
	l.out = l.out[:0]
	l.seed = seed
	l.rng = wire.NewRNG(seed)
	l.crng = wire.NewRNG(corruptSeed(seed))
	l.bad = false
	l.wireFreeAt, l.tcpLast, l.tcpBlocked = 0, 0, 0
	l.outageBeg, l.outageEnd, l.held = 0, 0, false
	l.last, l.begun, l.origin = 0, false, 0
	l.nextID = 0
	l.events = [EventCapacity]Event{}
	l.stats = Stats{}
}

// clock keeps time monotonic: a tick earlier than one already seen is
// treated as that one.
func (l *Link) clock(now wire.Tick) wire.Tick {
	if !l.begun {
		l.origin = now
	}
	if !l.begun || now > l.last {
		l.last = now
		l.begun = true
	}
	return l.last
}

// syncCap sets the bottleneck to the cap in effect at tick now (the
// clock has seen now already).
func (l *Link) syncCap(now wire.Tick) {
	if kbps := l.CapKbps(now); kbps != l.capNow {
		l.capNow = kbps
		l.p.setCap(l.cfg, kbps)
	}
}

// CapKbps is the bandwidth cap in effect at tick now (0: none): the cap
// schedule's current step, or the configured cap.
func (l *Link) CapKbps(now wire.Tick) float64 {
	if !l.begun {
		return l.cfg.CapAt(0)
	}
	return l.cfg.CapAt(int(max(now, l.last) - l.origin))
}

// StartOutage drops every packet sent during the next `ticks` ticks, from
// now (included) to now+ticks (excluded). Packets already in flight still
// arrive: the cut is at the sender's end. A new outage overlapping a running
// one extends it.
func (l *Link) StartOutage(now wire.Tick, ticks int) {
	now = l.clock(now)
	if ticks <= 0 {
		return
	}
	end := now + wire.Tick(ticks)
	if now < l.outageEnd {
		l.outageEnd = max(l.outageEnd, end)
		return
	}
	l.outageBeg, l.outageEnd = now, end
}

// SetHeld starts (true) or ends (false) a manual outage that lasts as long
// as it is held, e.g. while a key is down.
func (l *Link) SetHeld(now wire.Tick, held bool) {
	now = l.clock(now)
	if l.held && !held && l.tcpBlocked > 0 {
		l.releaseBlocked(now)
	}
	l.held = held
}

// InOutage reports whether a packet sent at tick now would be dropped by an
// outage.
func (l *Link) InOutage(now wire.Tick) bool {
	return l.held || (now >= l.outageBeg && now < l.outageEnd)
}

// Stats returns the cumulative counters.
func (l *Link) Stats() Stats { return l.stats }

// inFlight is the number of packets (and copies) on their way.
func (l *Link) inFlight() int { return len(l.heap) }

// uniformInt maps one random word to [-j, j]: the high word of r × (2j+1)
// (Lemire's multiply without the rejection step; the bias is below 2^-40 for
// any jitter this link can hold).
func uniformInt(r uint64, j int64) int64 {
	if j <= 0 {
		return 0
	}
	hi, _ := bits.Mul64(r, uint64(2*j+1))
	return int64(hi) - j
}

// uniformIndex maps one random word to [0, n): the high word of r × n, as
// uniformInt does.
func uniformIndex(r uint64, n int) int {
	hi, _ := bits.Mul64(r, uint64(n))
	return int(hi)
}

// Send puts a copy of packet on the link at tick now and returns the
// packet's link-wide ID (the Event and Delivery ID). The packet slice is
// not retained.
func (l *Link) Send(now wire.Tick, packet []byte) uint64 {
	now = l.clock(now)
	p := &l.p
	id := l.nextID
	l.nextID++
	l.stats.Sent++
	l.stats.BytesSent += uint64(len(packet))
	ev := &l.events[id%EventCapacity]
	*ev = Event{ID: id, Sent: now, Bytes: int32(min(len(packet), math.MaxInt32)), Arrival: -1}

	// Always the same six draws per packet, and two for corruption from
	// its own generator; see the design note.
	uLoss := l.rng.Float64()
	uBurst := l.rng.Float64()
	rJitter := l.rng.Uint64()
	uReorder := l.rng.Float64()
	uDup := l.rng.Float64()
	rDupJitter := l.rng.Uint64()
	uCorrupt := l.crng.Float64()
	rBit := l.crng.Uint64()
	l.syncCap(now)

	lossP := l.stepBurst(uBurst)
	ev.Burst = l.bad

	outage := l.InOutage(now)
	if outage && !p.tcp {
		ev.Fate = FateOutage
		l.stats.OutageDropped++
		return id
	}
	if len(packet) > p.maxPacket || len(l.heap) >= p.maxInFlight {
		ev.Fate = FateOverflow
		l.stats.OverflowDropped++
		return id
	}

	sendTime := int64(now) * microTicksPerTick
	delay := p.latency + uniformInt(rJitter, p.jitter)
	if delay < 0 {
		delay = 0
	}

	frags, onWire := 1, wire.WireBytes(len(packet))
	if !p.tcp {
		frags, onWire = fragments(len(packet), p.mtu)
	}
	ev.Fragments = uint8(min(frags, math.MaxUint8))
	depart := sendTime
	if p.capped && !outage {
		start := max(sendTime, l.wireFreeAt)
		// What is queued ahead: the wait before our first bit leaves, and
		// the bytes the wire clocks out meanwhile.
		wait := start - sendTime
		if wait > 0 && (wait >= p.queueLimitTime || int64(float64(wait)/p.microTicksPerBit/8) >= p.queueLimit) {
			ev.Fate = FateQueueDropped
			l.stats.QueueDropped++
			return id
		}
		tx := int64(math.Ceil(float64(onWire*8) * p.microTicksPerBit))
		l.wireFreeAt = start + tx
		depart = l.wireFreeAt
	}
	ev.depart = depart

	if p.tcp {
		l.sendTCP(ev, packet, now, depart, delay, uLoss < lossP, lossP, outage)
		return id
	}

	if frags > 1 && lossP > 0 && lossP < 1 {
		// Each fragment survives with 1 − loss; the datagram needs all.
		lossP = 1 - math.Pow(1-lossP, float64(frags))
	}
	if uLoss < lossP {
		ev.Fate = FateLost
		l.stats.Lost++
		if frags > 1 && uLoss >= l.lossAt() {
			l.stats.FragmentLost++
		}
		return id
	}
	if uReorder < p.reorder {
		delay += p.reorderExtra
		ev.HeldBack = true
		l.stats.HeldBack++
	}
	arrive := depart + delay
	bit := -1
	if uCorrupt < p.corrupt && len(packet) > 0 {
		bit = uniformIndex(rBit, 8*len(packet))
		ev.Corrupted = true
		l.stats.Corrupted++
	}
	if uDup < p.dup && len(l.heap)+1 < p.maxInFlight {
		// Two copies with independent delays. Whichever arrives second is
		// the one flagged as the duplicate.
		other := depart + max(p.latency+uniformInt(rDupJitter, p.jitter), 0)
		first, second := min(arrive, other), max(arrive, other)
		l.corrupt(l.schedule(packet, id, now, first, false), bit)
		l.corrupt(l.schedule(packet, id, now, second, true), bit)
		arrive = first
		ev.Duplicated = true
		l.stats.Duplicated++
	} else {
		l.corrupt(l.schedule(packet, id, now, arrive, false), bit)
	}
	ev.Arrival = tickOf(arrive)
	return id
}

// stepBurst moves the Gilbert–Elliott chain one packet on with the draw u
// (when bursts are on) and returns the loss probability of the state it
// is in.
func (l *Link) stepBurst(u float64) float64 {
	p := &l.p
	if p.burst {
		if l.bad {
			if u < p.b2g {
				l.bad = false
			}
		} else if u < p.g2b {
			l.bad = true
		}
	}
	if l.bad {
		return p.badLoss
	}
	return p.loss
}

// corrupt flips bit `bit` (counted from the first byte's lowest bit) of
// the copy in slot i; a negative bit leaves it intact.
func (l *Link) corrupt(i int32, bit int) {
	s := &l.slots[i]
	s.bad = bit >= 0
	if s.bad {
		s.data[bit/8] ^= 1 << (bit % 8)
	}
}

// lossAt is the loss probability of one packet in the current burst state.
func (l *Link) lossAt() float64 {
	if l.bad {
		return l.p.badLoss
	}
	return l.p.loss
}

// fragments returns how many IP fragments a datagram of payload bytes
// travels as under mtu (0: never fragmented) and its bytes on the wire,
// headers included: the UDP header once, an IP header per fragment.
func fragments(payload, mtu int) (n, onWire int) {
	if mtu <= 0 {
		return 1, wire.WireBytes(payload)
	}
	perFragment := (mtu - ipHeaderBytes) &^ 7 // fragment offsets count 8-byte units
	n = max(1, (payload+udpHeaderBytes+perFragment-1)/perFragment)
	return n, payload + udpHeaderBytes + n*ipHeaderBytes
}

// queueBytes is how many bytes wait in (or are being clocked out of) the
// bottleneck queue at tick now: 0 without a cap.
func (l *Link) queueBytes(now wire.Tick) int {
	if !l.p.capped {
		return 0
	}
	wait := l.wireFreeAt - int64(now)*microTicksPerTick
	if wait <= 0 {
		return 0
	}
	return int(float64(wait) / l.p.microTicksPerBit / 8)
}

// sendTCP schedules a packet in TCP-like mode: retransmitted until an
// attempt gets through, then held behind everything sent before it.
func (l *Link) sendTCP(ev *Event, packet []byte, now wire.Tick, depart, delay int64, lost bool, lossP float64, outage bool) {
	if outage && l.held {
		// The outage has no known end: wait for SetHeld(false).
		i := l.schedule(packet, ev.ID, now, blockedArrival, false)
		l.slots[i].depart = depart
		l.slots[i].delay = delay
		l.tcpBlocked++
		return
	}
	outageEnd := int64(math.MinInt64)
	if outage {
		outageEnd = int64(l.outageEnd) * microTicksPerTick
	}
	arrive, retx := l.tcpAttempts(depart, delay, lost, lossP, outageEnd)
	arrive = max(arrive, l.tcpLast)
	l.tcpLast = arrive
	l.schedule(packet, ev.ID, now, arrive, false)
	ev.Arrival = tickOf(arrive)
	ev.Retransmits = uint8(retx)
}

// tcpAttempts returns when a TCP-like packet first leaving at depart gets
// through: each failed attempt (lost, or before outageEnd) waits one RTO,
// which doubles up to MaxRTO.
func (l *Link) tcpAttempts(depart, delay int64, lost bool, lossP float64, outageEnd int64) (arrive int64, retx int) {
	t := depart
	rto := l.p.rto
	for (lost || t < outageEnd) && retx < maxRetransmits {
		t += rto
		rto = min(2*rto, l.p.maxRTO)
		retx++
		lost = l.rng.Float64() < lossP
	}
	l.stats.Retransmitted += uint64(retx)
	return t + delay, retx
}

// releaseBlocked schedules the TCP-like packets held by an outage that ended
// at tick now, in send order.
func (l *Link) releaseBlocked(now wire.Tick) {
	l.scratch = l.scratch[:0]
	for _, i := range l.heap {
		if l.slots[i].arrive == blockedArrival {
			l.scratch = append(l.scratch, i)
		}
	}
	slices.SortFunc(l.scratch, func(a, b int32) int {
		ia, ib := l.slots[a].id, l.slots[b].id
		if ia < ib {
			return -1
		}
		if ia > ib {
			return 1
		}
		return 0
	})
	end := int64(now) * microTicksPerTick
	lossP := l.p.loss
	if l.bad {
		lossP = l.p.badLoss
	}
	last := l.tcpLast
	for _, i := range l.scratch {
		s := &l.slots[i]
		// Its first attempt fell in the outage; retry until one does not.
		arrive, retx := l.tcpAttempts(s.depart, s.delay, true, lossP, end)
		arrive = max(arrive, last)
		last = arrive
		s.arrive = arrive
		if ev := &l.events[s.id%EventCapacity]; ev.ID == s.id {
			ev.Arrival = tickOf(arrive)
			ev.Retransmits += uint8(retx)
		}
	}
	l.tcpLast = last
	l.tcpBlocked = 0
	// Arrival times changed: rebuild the heap.
	for k := len(l.heap)/2 - 1; k >= 0; k-- {
		l.down(k)
	}
}

// schedule stores a copy of packet in a slot and puts it in flight. It
// returns the slot index.
func (l *Link) schedule(packet []byte, id uint64, sent wire.Tick, arrive int64, dup bool) int32 {
	var i int32
	if n := len(l.free); n > 0 {
		i = l.free[n-1]
		l.free = l.free[:n-1]
	} else {
		l.slots = append(l.slots, linkSlot{})
		i = int32(len(l.slots) - 1)
	}
	s := &l.slots[i]
	s.data = append(s.data[:0], packet...)
	s.id, s.sent, s.arrive, s.dup, s.bad = id, sent, arrive, dup, false
	l.heap = append(l.heap, i)
	l.up(len(l.heap) - 1)
	return i
}

// Receive returns the packets that have arrived by tick now, ordered by
// arrival time, then send order (an original before its copy). The slice
// and the packets' Data are owned by the link and valid until the next call
// to Receive.
func (l *Link) Receive(now wire.Tick) []Delivery {
	now = l.clock(now)
	l.free = append(l.free, l.pending...)
	l.pending = l.pending[:0]
	l.out = l.out[:0]
	limit := int64(now) * microTicksPerTick
	for len(l.heap) > 0 && l.slots[l.heap[0]].arrive <= limit {
		i := l.pop()
		s := &l.slots[i]
		l.pending = append(l.pending, i)
		l.out = append(l.out, Delivery{Data: s.data, ID: s.id, Sent: s.sent, Duplicate: s.dup, Corrupted: s.bad})
		l.stats.BytesDelivered += uint64(len(s.data))
		if s.dup {
			l.stats.DuplicatesDelivered++
			continue
		}
		l.stats.Delivered++
		if ev := &l.events[s.id%EventCapacity]; ev.ID == s.id {
			ev.Fate = FateDelivered
			ev.Arrival = now
			ev.arrive = s.arrive
		}
	}
	return l.out
}

// Event returns the record of packet id, if it is among the last
// EventCapacity packets sent.
func (l *Link) Event(id uint64) (Event, bool) {
	ev := l.events[id%EventCapacity]
	if id >= l.nextID || ev.ID != id {
		return Event{}, false
	}
	return ev, true
}

// appendEvents appends to dst the records of the remembered packets sent at
// or after tick since, oldest first, and returns the extended slice (give it
// a slice with capacity EventCapacity to avoid allocating).
func (l *Link) appendEvents(dst []Event, since wire.Tick) []Event {
	first := uint64(0)
	if l.nextID > EventCapacity {
		first = l.nextID - EventCapacity
	}
	for id := first; id < l.nextID; id++ {
		if ev := l.events[id%EventCapacity]; ev.Sent >= since {
			dst = append(dst, ev)
		}
	}
	return dst
}

// less orders in-flight slots by arrival, then ID, then original first.
func (l *Link) less(a, b int32) bool {
	sa, sb := &l.slots[a], &l.slots[b]
	if sa.arrive != sb.arrive {
		return sa.arrive < sb.arrive
	}
	if sa.id != sb.id {
		return sa.id < sb.id
	}
	return !sa.dup && sb.dup
}

func (l *Link) up(k int) {
	h := l.heap
	for k > 0 {
		parent := (k - 1) / 2
		if !l.less(h[k], h[parent]) {
			return
		}
		h[k], h[parent] = h[parent], h[k]
		k = parent
	}
}

func (l *Link) down(k int) {
	h := l.heap
	n := len(h)
	for {
		c := 2*k + 1
		if c >= n {
			return
		}
		if c+1 < n && l.less(h[c+1], h[c]) {
			c++
		}
		if !l.less(h[c], h[k]) {
			return
		}
		h[k], h[c] = h[c], h[k]
		k = c
	}
}

func (l *Link) pop() int32 {
	h := l.heap
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	l.heap = h[:n]
	if n > 0 {
		l.down(0)
	}
	return top
}
