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

func (c *client) recordPacket(id uint64, seq uint16, bytes int) {
	// Drop records older than the timeline shows (they come first).
	frame := c.s.frame
	k := 0
	for k < len(c.timelineSent) && frame-c.timelineSent[k].frame > timelineTicks {
		k++
	}
	c.timelineSent = append(c.timelineSent[:0], c.timelineSent[k:]...)
	c.timelineSent = append(c.timelineSent, sentRecord{id: id, seq: seq, frame: frame, bytes: bytes})
}

// recordArrival notes a data packet a right process accepted: it left the
// left at frame sent (its sequence) and arrived now. The right process
// sees only what arrives, so its timeline draws arrivals: the slant of
// each line is the packet's one-way trip in ticks (the two processes'
// frames agree to within a tick or two), and a gap in the lines is a
// packet lost or not sent.
func (c *client) recordArrival(seq uint16, sent, bytes int) {
	frame := c.s.frame
	k := 0
	for k < len(c.timelineRecv) && frame-c.timelineRecv[k].Arrival > timelineTicks {
		k++
	}
	c.timelineRecv = append(c.timelineRecv[:0], c.timelineRecv[k:]...)
	c.timelineRecv = append(c.timelineRecv, viewmodel.PacketRecord{Seq: seq, Sent: sent, Bytes: bytes, Fate: link.FateDelivered, Arrival: frame})
}

// Timeline appends the data packets of the last few seconds to the shown
// client, oldest first, with what happened to each, and returns dst. In a
// right process, it is the packets that arrived (recordArrival).
func (s *Session) Timeline(dst []viewmodel.PacketRecord) []viewmodel.PacketRecord {
	c := s.clients[s.shown]
	return s.proc.timeline(s, c, dst)
}

// sentTimeline appends c's data packets sent in the last seconds, with
// what the link did to each.
func (s *Session) sentTimeline(c *client, dst []viewmodel.PacketRecord) []viewmodel.PacketRecord {
	for _, r := range c.timelineSent {
		if s.frame-r.frame > timelineTicks {
			continue
		}
		p := viewmodel.PacketRecord{Seq: r.seq, Sent: r.frame, Bytes: r.bytes, Arrival: -1}
		if ev, ok := c.toRight.Event(r.id); ok {
			p.Fate = ev.Fate
			p.Arrival = int(ev.Arrival)
		}
		p.Acked = c.leftEP.IsAcked(r.seq)
		dst = append(dst, p)
	}
	return dst
}
