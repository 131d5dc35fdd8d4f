package game

import (
	"netcubes/udp"
	"netcubes/viewmodel"
)

// Design note: the truth's budget. The left sends each right its whole
// world (about 9 kB with 901 cubes) so the right can measure its error.
// Every 6 ticks that is 720 kbit/s a right: nothing on a LAN for one
// right, but 46 Mbit/s for a classroom of 64 browsers, more than the
// strategy's own traffic and more than a room's Wi-Fi carries. So the
// rights share one budget (Config.TruthKbps): a token bucket earns the
// budget every tick and spends it on the rights in turn, each at most
// every DiagEvery ticks. With one right the budget does not bind and the
// truth comes every DiagEvery ticks as before; with N rights each gets it
// about every N × 9 kB × 8 / budget seconds (64 rights, 2 Mbit/s: every
// 2.3 s), and the right says how old its error figure is.

// truthPacer picks the rights that get the truth this tick.
type truthPacer struct {
	credit int64 // bits × ticks a second, so that a tick earns TruthKbps × 1000 exactly
	next   int   // round robin: the client considered first
	last   []int // the frame each client last got the truth (-1: never)
	// Bytes and Datagrams count what was sent, the session's sealing
	// included (tests, and the figure in docs/classroom.md).
	Bytes, Datagrams int64
}

// pick appends to out the connected clients that get a truth of body
// bytes at frame: every connected client every `every` ticks when
// kbps is 0 (no budget), else in turn as the budget allows.
func (p *truthPacer) pick(frame, every, kbps, body int, connected func(k int) bool, n int, out []int) []int {
	for len(p.last) < n {
		p.last = append(p.last, -1)
	}
	if kbps == 0 {
		if frame%every != 0 {
			return out
		}
		for k := range n {
			if connected(k) {
				out = append(out, k)
			}
		}
		return out
	}
	perTick := int64(kbps) * 1000
	cost := int64(body+udp.Overhead) * 8 * 60
	// No saving up beyond one datagram: over any T ticks at most one
	// datagram more than the budget leaves.
	p.credit = min(p.credit+perTick, cost+perTick)
	for range n {
		if p.credit < cost {
			break
		}
		k := p.nextDue(frame, every, connected, n)
		if k < 0 {
			break
		}
		p.credit -= cost
		p.last[k], p.next = frame, (k+1)%n
		out = append(out, k)
	}
	return out
}

// nextDue is the first connected client from p.next on whose last truth
// is at least every ticks old, or -1.
func (p *truthPacer) nextDue(frame, every int, connected func(k int) bool, n int) int {
	for i := range n {
		k := (p.next + i) % n
		if connected(k) && (p.last[k] < 0 || frame-p.last[k] >= every || frame < p.last[k]) {
			return k
		}
	}
	return -1
}

// count notes one truth of body bytes sent.
func (p *truthPacer) count(body int) {
	p.Bytes += int64(body + udp.Overhead)
	p.Datagrams++
}

// maxHeldTicks is how long a right shows its last error figure while its
// truth is older than the frame it shows: longer than the truth's period
// with 64 rights on the default budget (2.3 s).
const maxHeldTicks = 10 * 60

// heldFigures are a right's last error figures measured against its truth.
type heldFigures struct {
	valid                         bool
	at                            int // the right's frame when measured
	rms, max, deg, nowRMS, nowMax float64
	hasNow                        bool
}

// holdError keeps the figures a right process just measured, to show
// them between two truths (heldError).
func (s *Session) holdError(m *viewmodel.Metrics) {
	if s.tp == nil || s.cfg.Role != RoleRight {
		return
	}
	s.tp.held = heldFigures{valid: true, at: s.frame, rms: m.PosRMSCm, max: m.PosMaxCm, deg: m.OrientMaxDeg,
		nowRMS: m.NowRMSCm, nowMax: m.NowMaxCm, hasNow: m.HasNow}
}

// heldError fills m with the right's last figures when the frame it shows
// is newer than its newest truth (the truth comes every few seconds in a
// full room), saying how old they are (Metrics.TruthAgeMs). False when it
// has truth for the frame, or no recent figures: then measured as usual.
func (s *Session) heldError(m *viewmodel.Metrics, shown float64) bool {
	if s.tp == nil || s.cfg.Role != RoleRight || shown <= float64(s.tp.lastDiag) {
		return false
	}
	h := &s.tp.held
	if !h.valid || s.frame < h.at || s.frame-h.at > maxHeldTicks {
		return false
	}
	m.Valid = true
	m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg = h.rms, h.max, h.deg
	m.NowRMSCm, m.NowMaxCm, m.HasNow = h.nowRMS, h.nowMax, h.hasNow
	m.MaxPopCm = 0
	m.TruthAgeMs = max(float64(s.frame-h.at)*1000/60, 1)
	s.errs.hasPrev = false
	return true
}
