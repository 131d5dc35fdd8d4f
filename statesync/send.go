package statesync

import (
	"math"
	"slices"

	"netcubes/cubes"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/transfer"
	"netcubes/wire"
)

// Design note: the left side of state synchronization. Each tick, after the
// session stepped the left world, send runs four phases:
//
//  1. quantize (quantizer.run): compute every cube's state on the wire's
//     grid and, when "quantize both sides" is on, snap the left world to it
//     (this is the quantization before the left's next step);
//  2. prioritize: add each cube's priority to its accumulator (or, without
//     the accumulator, just set it), and sort. The priority is the
//     article's (player, red, grey), raised for a cube waiting for its
//     at-rest commit, lowered to grey for a committed resting cube that is
//     still red, and raised to red for a cube starving for 5 s;
//  3. choose (writeHeader, choose): the header, then the player first, then
//     the cubes in priority order, each measured with a measure stream and
//     added only if it still fits the byte budget; cubes that do not fit
//     are skipped and keep their accumulated priority, first in line next
//     time (cubes whose smallest possible update no longer fits are
//     skipped without being measured);
//  4. encode (encode): put the chosen updates in index order, send, record
//     what was sent (for delta bases and the at-rest commit); then account:
//     reset the accumulators of the cubes sent, and the figures.
//
// Acks tell the left which packets arrived: the newest acked packet is the
// base ack of the next header, each cube remembers the newest acked packet
// that carried it (its delta base), and a resting cube's at-rest commit is
// fulfilled by the ack of a packet that carried it at rest.
//
// The byte budget: BandwidthKbps × 1000 / 8 / 60 bytes per packet, rounded
// down, minus the 28 bytes of IP and UDP header, is the most the payload
// (sequence number included) may take. Every packet then stays within it, so
// any second of packets stays within the limit.

// stateSyncSender is the left side. It allocates only in reset.
type stateSyncSender struct {
	// me is this client's player's cube on the left (−1: a spectator),
	// which relevance weighs by (relevance.go).
	me        int
	prio      *replication.PriorityAccumulator
	quant     *quantizer  // this tick's quantized state of every left cube (shared with the clones)
	inputs    *tickInputs // the inputs this tick's packets repeat (shared with the clones)
	wasAtRest []bool      // at rest (zero velocity on the wire) last tick
	pending   []bool      // waiting for its at-rest commit
	committed []bool      // at rest, and a packet carrying it at rest was acked
	since     []int       // frame it came to rest (pending only)
	ackedBase []int       // newest acked frame whose packet carried the cube, −1
	lastSent  []int       // frame of its last update, −1 never
	// The colour the right has been told: the interacting flag of the
	// newest acked packet that carried the cube, and that packet's frame.
	// A cube whose flag changed since is news (it gets the interacting
	// priority until a packet carrying the new colour is acked), even
	// when it lies still and its resting state is committed.
	colourKnown []bool
	colourAt    []int
	newestAck   int // newest acked frame, −1
	start       int // frame of the reset

	hist     *replication.History
	pkt      replication.Packet
	out      transfer.Tailed // pkt, and a piece of a join block (join.go)
	cand     replication.StateUpdate
	m        *wire.MeasureStream
	selected []int32
	class    []uint8                     // each cube's size class this tick (sizeClass)
	bounds   [replication.NumClasses]int // each class's smallest update in this packet, bits (replication.Packet.ClassBounds)

	// chosen, when set (tests), sees every choice, after choose.
	chosen func(st *Strategy, left *cubes.World, frame, headerBits, used int)

	// The packets of the last second, for the averages.
	win [wire.TicksPerSecond]sentStat
}

// sentStat is one packet's figures.
type sentStat struct {
	valid              bool
	updates, bits      int
	budget, usedBudget int
}

func (s *stateSyncSender) reset(st *Strategy, ctx strategy.Context) {
	n := st.n
	if s.prio == nil || s.prio.Len() != n {
		s.prio = replication.NewPriorityAccumulator(n)
		s.wasAtRest = make([]bool, n)
		s.pending = make([]bool, n)
		s.committed = make([]bool, n)
		s.since = make([]int, n)
		s.ackedBase = make([]int, n)
		s.lastSent = make([]int, n)
		s.colourKnown = make([]bool, n)
		s.colourAt = make([]int, n)
		s.hist = replication.NewHistory()
		s.m = wire.NewMeasureStream()
		s.selected = make([]int32, 0, replication.MaxUpdates)
		s.class = make([]uint8, n)
	}
	s.prio.Reset()
	s.hist.Reset()
	s.quant.reset(n)
	s.inputs.at = -1
	for i := range n {
		// Cubes at rest when the strategy starts have nothing to commit.
		s.wasAtRest[i] = true
		s.pending[i] = false
		s.committed[i] = false
		s.colourKnown[i], s.colourAt[i] = false, -1 // the right starts from the initial world: grey
		s.ackedBase[i] = -1
		s.lastSent[i] = -1
	}
	s.newestAck = -1
	s.start = ctx.Frame()
	s.me = -1 // a spectator: no player to weigh by (relevance.go)
	if p := ctx.Player(); p >= 0 && p < ctx.Left().NumPlayers() {
		s.me = ctx.Left().PlayerCube(p)
	}
	// The left's next step is its first one under this strategy: quantize
	// before it, as before every later one.
	s.quant.run(ctx.Left(), st.set.Quantize, st.set.Coarse)
	s.win = [wire.TicksPerSecond]sentStat{}
}

// send is one tick of the left, its phases in the design note's order.
func (s *stateSyncSender) send(st *Strategy, ctx strategy.Context) {
	left := ctx.Left()
	frame := ctx.Frame()

	// 1. Quantize (both sides: the left's half), and 2. prioritize.
	s.quant.runOnce(left, st.set.Quantize, st.set.Coarse)
	pending := s.prioritize(st, left, frame)

	// 3. Choose the updates that fit the budget.
	headerBits, err := s.writeHeader(st, ctx)
	if err != nil {
		return
	}
	used, budget := s.choose(st, left, frame, headerBits)
	if s.chosen != nil {
		s.chosen(st, left, frame, headerBits, used)
	}

	// 4. Encode, send and record; account.
	if !s.encode(st, ctx, left, frame) {
		return
	}
	s.account(st, frame, headerBits, used, budget, pending)
}

// prioritize tracks each cube's rest (pending and committed at-rest
// states), works out its priority this tick and adds it to the
// accumulator (or sets it, without the accumulator), and its size class
// for choose. It returns how many cubes wait for their at-rest commit.
func (s *stateSyncSender) prioritize(st *Strategy, left *cubes.World, frame int) int {
	set := &st.set
	cfg := &st.cfg
	pending := 0
	for i := range s.quant.q {
		atRest := s.quant.q[i].AtRest
		if !set.Compressed {
			c := left.Cube(i)
			atRest = zero32(c.LinearVelocity[0]) && zero32(c.LinearVelocity[1]) && zero32(c.LinearVelocity[2]) &&
				zero32(c.AngularVelocity[0]) && zero32(c.AngularVelocity[1]) && zero32(c.AngularVelocity[2])
		}
		if atRest && !s.wasAtRest[i] {
			s.pending[i], s.since[i] = true, frame
		} else if !atRest {
			s.pending[i], s.committed[i] = false, false
		}
		s.wasAtRest[i] = atRest

		p := replication.BasePriority(left, i, cfg.PlayerPriority, cfg.InteractingPriority, cfg.RestingPriority)
		if set.RestCommit {
			switch {
			case s.pending[i]:
				// Resend until the resting state is known to have arrived.
				p = math.Max(p, cfg.RestCommitPriority)
			case s.committed[i] && !left.IsPlayer(i):
				// The right has this cube's resting state: while it
				// lies still there is nothing new to say, even if it is
				// still red for a while.
				p = cfg.RestingPriority
			}
		}
		if left.Interacting(i) != s.colourKnown[i] && !left.IsPlayer(i) {
			p = math.Max(p, cfg.InteractingPriority)
		}
		if s.pending[i] {
			pending++
		}
		if set.Accumulate && cfg.StarvationTicks > 0 && !left.IsPlayer(i) {
			last := s.lastSent[i]
			if last < 0 {
				last = s.start
			}
			if frame-last >= cfg.StarvationTicks {
				p = math.Max(p, cfg.InteractingPriority)
			}
		}
		p = s.weigh(st, left, i, p)
		if set.Accumulate {
			s.prio.Add(i, p)
		} else {
			s.prio.Set(i, p)
		}
		s.class[i] = s.sizeClass(i, atRest, frame)
	}
	return pending
}

// sizeClass is cube i's size class this tick (the classes are defined in
// replication/packet.go). A class may expect a smaller update than the cube turns out
// to have (a base the history no longer holds, a packet that is not
// relative, not delta encoded or not compressed at all), never a larger
// one: its bound is then only looser.
func (s *stateSyncSender) sizeClass(i int, atRest bool, frame int) uint8 {
	c := uint8(0)
	if atRest {
		c |= replication.ClassAtRest
	}
	if s.quant.near[i] {
		c |= replication.ClassNear
	}
	if _, ok := s.baseFrame(i, frame); ok {
		c |= replication.ClassBase
	}
	return c
}

// writeHeader fills the packet's header (format flags, base ack and
// inputs) with no updates yet, and returns its size in bits.
func (s *stateSyncSender) writeHeader(st *Strategy, ctx strategy.Context) (int, error) {
	set := &st.set
	frame := ctx.Frame()
	pkt := &s.pkt
	pkt.NumCubes = int32(st.n)
	pkt.Quantized = set.Quantize
	pkt.Compressed = set.Compressed
	pkt.Delta = set.Compressed && set.DeltaEncoding
	pkt.Relative = false // decided once the player is in
	pkt.HasBaseAck = pkt.Delta && s.newestAck >= 0 && frame-s.newestAck < replication.BaseWindow
	pkt.BaseAck = uint16(s.newestAck)
	// Every player's inputs: the right steps its world with all of them.
	in := s.inputs
	in.read(ctx)
	pkt.Inputs = in.own
	pkt.Players = int32(in.players)
	for p := 1; p < in.players; p++ {
		pkt.Others[p-1] = in.others[p-1]
	}
	pkt.NumUpdates = 0
	pkt.History = nil
	hb, err := ctx.Measure(pkt)
	if err != nil {
		return 0, err
	}
	return hb.Total(), nil
}

// tickInputs are the inputs a packet repeats: the last replication.Inputs of every
// player, the same in every client's packet of a tick, so the server reads
// them once a tick for all its clients (PrepareSend; the clones share
// them, as they share the quantizer).
type tickInputs struct {
	at, players int // the frame and the number of players they are for (at −1: none)
	own         [replication.Inputs]uint8
	others      [cubes.MaxPlayers - 1][replication.Inputs]uint8
}

// read reads the inputs of ctx's frame, unless it has them already.
func (t *tickInputs) read(ctx strategy.Context) {
	frame, players := ctx.Frame(), ctx.Players()
	if t.at == frame && t.players == players {
		return
	}
	for k := range t.own {
		t.own[k] = ctx.PlayerInput(0, frame-replication.Inputs+k).Bits()
	}
	for p := 1; p < players; p++ {
		for k := range t.others[p-1] {
			t.others[p-1][k] = ctx.PlayerInput(p, frame-replication.Inputs+k).Bits()
		}
	}
	t.at, t.players = frame, players
}

// choose selects the updates: the player first (it also anchors relative
// positions), then the cubes in priority order, each measured and taken
// only if it still fits the budget (what does not fit is skipped and stays
// first in line). It returns the packet's bits and the budget, in bits.
//
// Once a packet is nearly full, almost no cube fits, and measuring every
// one of them would cost most of the send (a server does it for every
// client every tick). So each cube has a size class (sizeClass), whose
// smallest update in this packet is measured once (replication.Packet.ClassBounds),
// and the walk over the priority order (replication.PriorityAccumulator.RankGroups)
// passes over the cubes of the classes whose smallest update no longer
// fits, without ranking or measuring them. Such a cube would not have
// fitted anyway, and passing over it leaves the room as it was, so the
// updates chosen, and their order, are exactly those of measuring every
// cube in turn.
func (s *stateSyncSender) choose(st *Strategy, left *cubes.World, frame, headerBits int) (used, budget int) {
	set := &st.set
	cfg := &st.cfg
	pkt := &s.pkt
	used = headerBits
	budget = math.MaxInt
	if set.LimitBandwidth {
		budget = replication.BudgetBytes(st.budgetKbps()) * 8
	}
	s.selected = s.selected[:0]

	s.candidate(st, left, frame, cubes.Player)
	if bits, err := pkt.MeasureUpdate(s.m, &s.cand); err == nil && used+bits <= budget {
		used += bits
		pkt.Updates[0] = s.cand
		pkt.NumUpdates = 1
		s.selected = append(s.selected, cubes.Player)
		pkt.Relative = set.Compressed && set.RelativeToPlayer
	}
	pkt.ClassBounds(s.m, s.quant.q[cubes.Player].Position, &s.bounds)
	rank := s.prio.RankGroups(s.class, s.bounds[:])
	for len(s.selected) < cfg.MaxUpdates {
		i, more := rank.Next(budget - used)
		if !more {
			break
		}
		if i == cubes.Player {
			continue
		}
		s.candidate(st, left, frame, i)
		bits, err := pkt.MeasureUpdate(s.m, &s.cand)
		if err != nil || used+bits > budget {
			continue // skip what does not fit; it stays first in line
		}
		used += bits
		s.selected = append(s.selected, i)
	}
	return used, budget
}

// encode puts the chosen updates in the packet, in increasing index order
// (the player, index 0, stays first; the measured sizes do not depend on
// the order), sends it and records it in the history. It reports whether
// the packet went out.
func (s *stateSyncSender) encode(st *Strategy, ctx strategy.Context, left *cubes.World, frame int) bool {
	pkt := &s.pkt
	slices.Sort(s.selected)
	for k, i := range s.selected {
		s.candidate(st, left, frame, i)
		pkt.Updates[k] = s.cand
	}
	pkt.NumUpdates = int32(len(s.selected))
	s.out = transfer.Tailed{Packet: pkt}
	if piece := st.joinPiece(ctx); piece != nil {
		s.out.Tail = piece
	}
	if _, err := ctx.Send(&s.out); err != nil {
		return false
	}
	s.hist.Record(uint16(frame), pkt)
	return true
}

// account resets the accumulators of the cubes sent and updates the
// figures: this packet's, and the averages over the last second.
func (s *stateSyncSender) account(st *Strategy, frame, headerBits, used, budget, pending int) {
	for _, i := range s.selected {
		s.prio.Sent(int(i))
		s.lastSent[i] = frame
	}
	st.prioMax = s.prio.Max()

	ss := &st.stats
	ss.LastUpdates = len(s.selected)
	ss.LastBits = used
	ss.LastUpdateBits = used - headerBits
	ss.BudgetBits = 0
	if st.set.LimitBandwidth {
		ss.BudgetBits = budget
	}
	s.win[frame%len(s.win)] = sentStat{valid: true, updates: ss.LastUpdates, bits: ss.LastUpdateBits, budget: ss.BudgetBits, usedBudget: used}
	var packets, updates, bits, bud, usedBud int
	for _, w := range s.win {
		if !w.valid {
			continue
		}
		packets++
		updates += w.updates
		bits += w.bits
		if w.budget > 0 {
			bud += w.budget
			usedBud += w.usedBudget
		}
	}
	ss.UpdatesPerPacket = float64(updates) / float64(max(packets, 1))
	ss.BitsPerUpdate = float64(bits) / float64(max(updates, 1))
	ss.BudgetUsed = 0
	if bud > 0 {
		ss.BudgetUsed = float64(usedBud) / float64(bud)
	}
	ss.NeverSent, ss.OldestUnsentTicks = 0, 0
	for _, f := range s.lastSent {
		if f < 0 {
			ss.NeverSent++
			f = s.start
		}
		ss.OldestUnsentTicks = max(ss.OldestUnsentTicks, frame-f)
	}
	ss.PendingRestCommits = pending
}

// candidate fills s.cand with cube i's update: its wire state and, when the
// packet is delta encoded, its base.
func (s *stateSyncSender) candidate(st *Strategy, left *cubes.World, frame int, i int32) {
	u := &s.cand
	*u = replication.StateUpdate{Index: i, Interacting: left.Interacting(int(i))}
	pkt := &s.pkt
	if !pkt.Compressed {
		c := left.Cube(int(i))
		u.Raw = replication.RawState(c.Position, c.Orientation, c.LinearVelocity, c.AngularVelocity)
		return
	}
	u.State = s.quant.q[i]
	if !pkt.HasBaseAck {
		return
	}
	b, ok := s.baseFrame(int(i), frame)
	if !ok {
		return
	}
	if base := s.hist.Find(uint16(b), i); base != nil {
		u.HasBase = true
		u.BaseOffset = int32(s.newestAck - b)
		u.Base = *base
	}
}

// baseFrame is the frame of cube i's delta base in a packet with a base
// ack: the newest acked packet that carried it, if the offset from the base
// ack fits in 5 bits and the receiver surely still holds it.
func (s *stateSyncSender) baseFrame(i, frame int) (int, bool) {
	b := s.ackedBase[i]
	if b < 0 || s.newestAck-b > replication.MaxBaseOffset || frame-b >= replication.BaseWindow {
		return 0, false
	}
	return b, true
}

func (s *stateSyncSender) acked(st *Strategy, ctx strategy.Context, seq uint16) {
	frame, ok := wire.FrameOf(seq, ctx.Frame())
	if !ok {
		return // the endpoint acks only sequences this side sent
	}
	if frame > s.newestAck {
		s.newestAck = frame
	}
	index, state, compressed, ok := s.hist.Entries(seq)
	if !ok {
		return
	}
	flags := s.hist.Interacting(seq)
	for k, i := range index {
		if frame > s.colourAt[i] {
			s.colourAt[i], s.colourKnown[i] = frame, flags[k]
		}
		if compressed && frame > s.ackedBase[i] {
			s.ackedBase[i] = frame
		}
		if state[k].AtRest && s.pending[i] && frame >= s.since[i] {
			// Committed: the right has it at rest.
			s.pending[i], s.committed[i] = false, true
		}
	}
}

// zero32 reports whether x is zero once sent as a float32.
func zero32(x float64) bool { return float32(x) == 0 }
