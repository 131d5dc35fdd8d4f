package snapshot

import (
	"sync"

	"netcubes/strategy"
	"netcubes/wire"
	"netcubes/wire/arith"
)

// Encode once, send many (levels 12-13). A coded packet is a function of
// the snapshot, its baselines' cubes (the same for every client: one
// world, quantized alike at levels 5-13), its header and the models it
// starts from, which are the end of its baseline's own packet. So two
// clients' packets are the same bits when their headers agree and their
// baselines' packets were the same bits: when their whole chains of
// acked baselines agree. Each snapshot the sender keeps gets the id of
// its chain (Entry.chain, 0: not known), and the first client of a tick
// to code a packet with a given header and baseline chain publishes it
// here; the others with the same key copy its payload and models instead
// of coding. On a perfect link every client's chain is the same; on a
// lossy one they part at the first loss or jitter, and every client codes
// its own (docs/design/entropy-coding.md, "The server's cost").
//
// Clients send in parallel: a packet is the same bits whoever codes it,
// so the order they meet here in changes nothing but who codes; a client
// that finds the packet claimed and not yet published codes it itself.

// packetKey is what a coded packet depends on besides the world.
type packetKey struct {
	frame                             int
	level                             Level
	predict, initial, carried, motion bool
	baseline                          uint16
	span                              uint8
	chain                             uint64 // the baseline's chain when carried, else 0
}

// sharedPacket is one packet coded this tick, once ready.
type sharedPacket struct {
	key     packetKey
	id      uint64 // the chain id of the snapshots sent with it
	ready   bool
	payload []byte
	costs   [arith.NumTags]uint64
	stats   PacketStats
	b       wire.Breakdown
	models  *entropyModels // the publisher's entry's: read only, this tick
}

// packetShare holds the packets coded this tick, shared by an instance
// and its clones (quantized).
type packetShare struct {
	mu    sync.Mutex
	frame int
	next  uint64 // the last chain id given
	all   []*sharedPacket
	n     int // this tick's, all[:n]
	// taken counts the packets copied rather than coded (tests).
	taken int
}

// claim returns the chain id for a packet with key k, and its shared
// packet: ready to copy, or (mine) new, for the caller to publish once
// coded; nil when another client is coding it (the caller codes its
// own).
func (s *packetShare) claim(k packetKey) (id uint64, sp *sharedPacket, mine bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k.frame != s.frame {
		s.frame, s.n = k.frame, 0
	}
	for _, q := range s.all[:s.n] {
		if q.key == k {
			if !q.ready {
				return q.id, nil, false
			}
			s.taken++
			return q.id, q, false
		}
	}
	if s.n == len(s.all) {
		s.all = append(s.all, &sharedPacket{})
	}
	s.next++
	q := s.all[s.n]
	s.n++
	*q = sharedPacket{key: k, id: s.next, payload: q.payload[:0]}
	return q.id, q, true
}

// publish makes sp the packet p coded (its payload, costs, stats and
// breakdown b, and the models m its snapshot kept), for the clients that
// claim it after.
func (s *packetShare) publish(sp *sharedPacket, p *Packet, b wire.Breakdown, m *entropyModels) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := p.ent
	sp.payload = append(sp.payload[:0], e.last.payload...)
	sp.costs, sp.stats, sp.b, sp.models = e.enc.Costs, e.last.stats, b, m
	sp.ready = true
}

// load makes sp this packet's last coded pass, as if p had coded it: the
// write that follows sends its payload (Packet.reuse), and keepModels
// keeps its models.
func (p *Packet) load(sp *sharedPacket) {
	if p.ent == nil {
		p.ent = newEntropyState()
	}
	e := p.ent
	if ml, ok := p.Baselines.(modelLender); ok {
		ml.reclaim(e) // the storage is overwritten below
	}
	*e.models = *sp.models
	n := copy(e.buf, sp.payload)
	e.enc.Costs = sp.costs
	e.last = codedPass{ok: true, key: p.codedKey(), payload: e.buf[:n], stats: sp.stats}
	e.coded = true
	p.Stats = sp.stats
}

// packetKey is the key of the packet with header h the sender is about
// to code at frame f, and whether it can be shared: a coded level, and
// when it carries models, a baseline whose chain is known.
func (s *snapshotSender) packetKey(h packetHeader, f int) (packetKey, bool) {
	k := packetKey{frame: f, level: h.level, predict: h.predict, initial: h.initial, carried: h.carried,
		motion: h.motion, baseline: h.baseline, span: h.span}
	if !h.level.IsCoded() || s.shared.clones == 0 || s.shared.apart {
		return k, false
	}
	if h.carried {
		e := s.history.Find(f + wire.SequenceDiff(h.baseline, uint16(f)))
		if e == nil || e.chain == 0 {
			return k, false
		}
		k.chain = e.chain
	}
	return k, true
}

// The costs of a level 12-13 send in each role (strategy.SendShare), in
// microseconds of thread CPU time as measured in the goal's run (the
// design note's "Who records, planned"): replaying a trace about 150 µs
// against a baseline 12 ticks old, 12 µs more for each tick older (more
// cubes changed since), recording about 320 µs more, copying another
// client's packet (its models and payload) a few tens. Only their ratios
// matter: the plan compares sums of them.
const (
	planReuseAt12 = 150
	planReusePer  = 12 // a tick older baseline
	planRecord    = 320
	planCopy      = 40
	planOldest    = 30 // ages beyond count as this (the initial state: older still)
)

// planCosts are the costs of a send whose baseline is age ticks old
// (−1: the initial state).
func planCosts(age int) strategy.SendShare {
	if age < 0 || age > planOldest {
		age = planOldest
	}
	reuse := int32(planReuseAt12 + planReusePer*(age-12))
	if reuse < planReuseAt12/2 {
		reuse = planReuseAt12 / 2
	}
	return strategy.SendShare{Whole: reuse + planRecord, Reuse: reuse, Copy: planCopy}
}

var _ strategy.SendPlanner = (*Strategy)(nil)

// PlanSend implements strategy.SendPlanner: the keys of the trace and of
// the shared packet this instance's send will claim (trace.go,
// sendshare.go), told by the header it will choose.
func (st *Strategy) PlanSend(ctx strategy.Context) strategy.SendShare {
	if !st.built {
		return strategy.SendShare{}
	}
	return st.send.plan(ctx.Frame(), &st.cfg)
}

// plan is PlanSend for the sender at frame f. It reads what send will:
// the header and the baseline's chain.
func (s *snapshotSender) plan(f int, cfg *Config) strategy.SendShare {
	if f%cfg.Rate.Interval() != 0 {
		return strategy.SendShare{} // nothing sent this tick
	}
	h := s.header(cfg, f)
	age := -1 // against the initial state
	if !h.initial {
		age = f - (f + wire.SequenceDiff(h.baseline, uint16(f))) // the baseline's frame unwrapped
	}
	share := planCosts(age)
	k, ok := s.packetKey(h, f)
	if !ok {
		return share // coded alone (or not coded: the plan does nothing)
	}
	bits := h.bits()
	if h.level < TurnWithMiss {
		share.Decide = bits // claimTrace: level 14 does not share decisions
	}
	// A chain id is unique, a function of the packets; mixed into the
	// header's bits (a collision would only make a worse plan).
	share.Same = bits ^ k.chain*0x9e3779b97f4a7c15
	if share.Same == 0 {
		share.Same = 1
	}
	return share
}

// bits is h packed into a nonzero key: the fields of a traceKey but the
// frame, which is the same for every client of a tick.
func (h packetHeader) bits() uint64 {
	b := func(v bool, at uint) uint64 {
		if v {
			return 1 << at
		}
		return 0
	}
	return 1<<63 | uint64(h.level) | b(h.predict, 8) | b(h.initial, 9) | b(h.carried, 10) | b(h.motion, 11) |
		uint64(h.baseline)<<16 | uint64(h.span)<<32
}
