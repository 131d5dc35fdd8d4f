package viewmodel

import (
	"netcubes/link"
	"netcubes/wire"
)

// Metrics are the honest numbers of one tick, for the HUD and the bench.
type Metrics struct {
	Frame int

	// Bandwidth over the last second, IP and UDP headers (28 bytes per
	// packet) included.
	SentKbps float64 // left → right
	AckKbps  float64 // right → left
	// With several clients the figures are the shown client's; these are
	// the server's: its clients, and what it sends to all of them.
	Clients        int
	ServerSentKbps float64

	// Packets left → right over the session.
	PacketsSent, PacketsDelivered, PacketsLost uint64
	// PacketsReceived counts the fresh data packets a right process got
	// from the socket (the sent/delivered/lost counts are the left's).
	PacketsReceived uint64
	// Rejected counts packets the right could not decode; RejectedBack,
	// packets from the right the left could not (or a strategy payload
	// that came back after a switch of strategy).
	Rejected, RejectedBack uint64
	// Packets the link damaged (a bit flipped, both directions: ground
	// truth the simulation knows), and what became of them: dropped by the
	// session's checksum, refused by a decoder, or taken as valid with
	// wrong contents (the case for a checksum).
	Corrupted, CorruptDropped, CorruptRefused, CorruptAccepted uint64

	// LastPacket is the breakdown of the newest packet sent, in bits,
	// sequence number included; LastPacketFrame is when it left (−1: none).
	LastPacket      wire.Breakdown
	LastPacketBytes int
	LastPacketFrame int
	// LastBackPacket is the breakdown of the newest strategy payload the
	// right sent back (inside its ack packet), LastBackFrame when (−1:
	// none).
	LastBackPacket wire.Breakdown
	LastBackFrame  int
	// SecondBits sums the breakdowns of the packets sent in the last
	// second, so the HUD's bar does not flicker between packets.
	SecondBits wire.Breakdown

	// RTT and loss as the left measures them from the acks.
	RTTms  float64
	HasRTT bool
	Loss   float64 // fraction 0..1
	// RTTSamples and LossSamples are how many acks and judged packets are
	// behind those two figures since the links last started over; −1 when
	// unknown (a right process shows the left's figures). Right after a
	// switch one lost packet of one judged reads 100 % loss: the HUD says
	// "measuring…" until there are enough (RTTMeasured, LossMeasured).
	RTTSamples, LossSamples int
	// RTTParts is what RTTms is made of (Known in one process only).
	RTTParts RTTParts

	// Error between the right view and the left world at the frame the
	// right is showing. Valid is false before the right shows anything or
	// when the shown frame is older than the history kept.
	Valid        bool
	ShownFrame   float64
	DelayMs      float64 // how far in the past the right is, (Frame − ShownFrame)/60 s
	PosRMSCm     float64
	PosMaxCm     float64
	OrientMaxDeg float64
	// NowRMSCm and NowMaxCm compare the right view with the left as it is
	// now rather than at the frame the right shows: what a viewer sees of
	// the lag. (A right a quarter-second behind that reads 0.0 cm against
	// its own frame is far from 0.0 against the present.) Valid with the
	// figures above when ErrorOf is empty and HasNow (a right process
	// has the present only as far as its diagnostics reached).
	NowRMSCm, NowMaxCm float64
	HasNow             bool
	// TruthAgeMs, in a right process whose truth comes less often than
	// the frames it shows move on (a full classroom shares one budget for
	// it), is how old the figures above are: the last ones measured,
	// held until the next truth. 0: measured this tick.
	TruthAgeMs float64
	// ErrorTicks is how many ticks in a row the error figures have been
	// valid: a strategy's own figures over its last second
	// (strategy.OwnError) still hold the start until a second has passed.
	ErrorTicks int
	// MaxPopCm is the largest visual pop of any right cube this tick: how
	// much its on-screen motion differed from the true motion of the left
	// over the same tick, |Δright − Δleft|. A cube flying at 16 m/s moves
	// 27 cm a tick without popping; a snap to a corrected position pops.
	MaxPopCm float64
	// ErrorOf is empty when the figures above compare the whole right view
	// with the left at ShownFrame (ghosts and pops included). Otherwise the
	// strategy measured them itself (strategy.OwnError) and ErrorOf says
	// what they compare; ShownFrame, DelayMs and MaxPopCm are then zero and
	// there are no ghosts.
	ErrorOf string
}

// PacketRecord is one data packet for the HUD's packet timeline.
type PacketRecord struct {
	Seq     uint16
	Sent    int // frame it left
	Bytes   int // payload, without IP/UDP headers
	Fate    link.Fate
	Arrival int  // frame it arrived (Fate delivered) or will (in flight)
	Acked   bool // the left has the right's ack for it
}
