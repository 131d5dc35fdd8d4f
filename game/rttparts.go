package game

import (
	"netcubes/link"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: what the RTT is made of. The left's endpoint measures a
// round trip per packet the first time an ack names it (the ack packet's
// arrival tick minus the data packet's send tick) and smooths the samples
// exponentially. In one process the session sees both links, so each
// sample splits exactly into its parts: the two links' latency, the wait in
// a capped link's queue, the rest of each trip (jitter, which can make the
// average negative since the earliest of 33 redundant acks counts; the
// reorder knob; a TCP-like link's resends), and ticks: each end reads once
// a tick, and the right's ack leaves with its next ack packet (later when
// one is lost). Smoothing each part with the same weights as the sum keeps
// the parts adding up to the figure, so the HUD can say "RTT 114 ms = 2 ×
// 60 ms on the link + 17 ms of ticks − 23 ms jitter" and be right.

// rttSentRing is how many data packets' link ids a client remembers, by
// sequence: as many as the link keeps events for (one packet a tick).
const rttSentRing = link.EventCapacity

// rttParts is a client's running split of the left's RTT.
type rttParts struct {
	sent [rttSentRing]struct {
		seq uint16
		id  uint64
		ok  bool
	}
	p       viewmodel.RTTParts
	samples int
	broken  bool // a sample could not be split (a right process's acks)
}

// sentData notes the link id of the data packet with sequence seq.
func (r *rttParts) sentData(seq uint16, id uint64) {
	e := &r.sent[int(seq)%rttSentRing]
	e.seq, e.id, e.ok = seq, id, true
}

// acked splits the sample of data packet seq, acked by the ack packet
// with link id back (hasBack false: not known), and smooths it in.
func (r *rttParts) acked(c *client, seq uint16, back uint64, hasBack bool) {
	e := &r.sent[int(seq)%rttSentRing]
	down, okDown := link.Event{}, false
	if e.ok && e.seq == seq {
		down, okDown = c.toRight.Event(e.id)
	}
	up, okUp := link.Event{}, false
	if hasBack {
		up, okUp = c.toLeft.Event(back)
	}
	dq, dt, dh, ok1 := down.Times()
	uq, ut, uh, ok2 := up.Times()
	if !okDown || !okUp || !ok1 || !ok2 {
		r.broken = true
		return
	}
	lat := c.toRight.Config().LatencyMs + c.toLeft.Config().LatencyMs
	s := viewmodel.RTTParts{
		Known:    true,
		LinkMs:   lat,
		QueueMs:  dq + uq,
		JitterMs: dt + ut - lat,
		// Each end's hold until its tick, and the ticks from the data
		// packet's arrival to the ack packet that carried its ack.
		HeldMs: dh + uh + float64(int64(up.Sent)-int64(down.Arrival))*1000/wire.TicksPerSecond,
	}
	r.samples++
	if r.samples == 1 {
		r.p = s
		return
	}
	a := wire.DefaultEndpointConfig().RTTSmoothing // the left endpoint's
	r.p.LinkMs += (s.LinkMs - r.p.LinkMs) * a
	r.p.QueueMs += (s.QueueMs - r.p.QueueMs) * a
	r.p.JitterMs += (s.JitterMs - r.p.JitterMs) * a
	r.p.HeldMs += (s.HeldMs - r.p.HeldMs) * a
}

// parts is the split, when every sample so far could be split.
func (r *rttParts) parts() viewmodel.RTTParts {
	if r.broken || r.samples == 0 {
		return viewmodel.RTTParts{}
	}
	return r.p
}
