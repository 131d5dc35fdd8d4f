package snapshot

import (
	"sync"

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

// packetKey is the key of the packet p the sender is about to code, and
// whether it can be shared: a coded level, and when it carries models, a
// baseline whose chain is known.
func (s *snapshotSender) packetKey(p *Packet, f int) (packetKey, bool) {
	k := packetKey{frame: f, level: p.Level, predict: p.Predict, initial: p.Initial, carried: p.Carried,
		motion: p.Motion, baseline: p.Baseline, span: p.MotionSpan}
	if !p.Level.IsCoded() || s.shared.clones == 0 || s.shared.apart {
		return k, false
	}
	if p.Carried {
		e := s.history.Find(s.frame + wire.SequenceDiff(p.Baseline, uint16(s.frame)))
		if e == nil || e.chain == 0 {
			return k, false
		}
		k.chain = e.chain
	}
	return k, true
}
