package game

import "netcubes/net"

// PacketRecord is one data packet for the HUD's packet timeline.
type PacketRecord struct {
	Seq     uint16
	Sent    int // frame it left
	Bytes   int // payload, without IP/UDP headers
	Fate    net.Fate
	Arrival int  // frame it arrived (Fate delivered) or will (in flight)
	Acked   bool // the left has the right's ack for it
}

// timelineTicks is how much packet history the timeline keeps.
const timelineTicks = 4 * net.TicksPerSecond

type sentRecord struct {
	id    uint64
	seq   uint16
	frame int
	bytes int
}

func (s *Session) recordPacket(id uint64, seq uint16, bytes int) {
	// Drop records older than the timeline shows (they come first).
	k := 0
	for k < len(s.timelineSent) && s.frame-s.timelineSent[k].frame > timelineTicks {
		k++
	}
	s.timelineSent = append(s.timelineSent[:0], s.timelineSent[k:]...)
	s.timelineSent = append(s.timelineSent, sentRecord{id: id, seq: seq, frame: s.frame, bytes: bytes})
}

// Timeline appends the data packets of the last few seconds, oldest first,
// with what happened to each, and returns dst.
func (s *Session) Timeline(dst []PacketRecord) []PacketRecord {
	for _, r := range s.timelineSent {
		if s.frame-r.frame > timelineTicks {
			continue
		}
		p := PacketRecord{Seq: r.seq, Sent: r.frame, Bytes: r.bytes, Arrival: -1}
		if ev, ok := s.toRight.Event(r.id); ok {
			p.Fate = ev.Fate
			p.Arrival = int(ev.Arrival)
		}
		p.Acked = s.leftEP.IsAcked(r.seq)
		dst = append(dst, p)
	}
	return dst
}
