package game

import (
	"netcubes/link"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// timelineTicks is how much packet history the timeline keeps.
const timelineTicks = 4 * wire.TicksPerSecond

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

// recordArrival notes a data packet a right process accepted: it left the
// left at frame sent (its sequence) and arrived now. The right process
// sees only what arrives, so its timeline draws arrivals: the slant of
// each line is the packet's one-way trip in ticks (the two processes'
// frames agree to within a tick or two), and a gap in the lines is a
// packet lost or not sent.
func (s *Session) recordArrival(seq uint16, sent, bytes int) {
	k := 0
	for k < len(s.timelineRecv) && s.frame-s.timelineRecv[k].Arrival > timelineTicks {
		k++
	}
	s.timelineRecv = append(s.timelineRecv[:0], s.timelineRecv[k:]...)
	s.timelineRecv = append(s.timelineRecv, viewmodel.PacketRecord{Seq: seq, Sent: sent, Bytes: bytes, Fate: link.FateDelivered, Arrival: s.frame})
}

// Timeline appends the data packets of the last few seconds, oldest first,
// with what happened to each, and returns dst. In a right process, it is
// the packets that arrived (recordArrival).
func (s *Session) Timeline(dst []viewmodel.PacketRecord) []viewmodel.PacketRecord {
	if s.cfg.Role == RoleRight {
		for _, r := range s.timelineRecv {
			if s.frame-r.Arrival <= timelineTicks {
				dst = append(dst, r)
			}
		}
		return dst
	}
	for _, r := range s.timelineSent {
		if s.frame-r.frame > timelineTicks {
			continue
		}
		p := viewmodel.PacketRecord{Seq: r.seq, Sent: r.frame, Bytes: r.bytes, Arrival: -1}
		if ev, ok := s.toRight.Event(r.id); ok {
			p.Fate = ev.Fate
			p.Arrival = int(ev.Arrival)
		}
		p.Acked = s.leftEP.IsAcked(r.seq)
		dst = append(dst, p)
	}
	return dst
}
