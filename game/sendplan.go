package game

import (
	"cmp"
	"slices"

	"netcubes/strategy"
)

// Design note: the send plan (strategy.SendPlanner). The parallel sends
// keep every client on its fixed worker (a client's coder models are
// hundreds of kilobytes, warm in that core's cache from the ticks before:
// moving clients between cores cost more than it balanced, see
// docs/design/entropy-coding.md, "The tick's critical path, part by
// part"). What the workers' halves differ by from tick to tick is who
// does the shared work first: at level 13 the first client of a tick to
// meet a baseline decides its packet and records the decisions (about
// three times a replay), and that falls to whichever worker meets the
// baseline first. A client that finds the decisions still being recorded
// by the other worker codes its packet whole.
//
// So before the sends, in the serial part, the session asks every
// client's instance what its packet will share (PlanSend), chooses which
// worker does each shared piece first so that the workers' estimated
// costs come out even, and orders each worker's clients: its own firsts
// at the front, what the other worker publishes at the back. The plan is
// a pure function of the clients' shares (sorted by key and client, no
// map), and only an order: whoever meets a piece first still does it, so
// a wrong guess costs time, never bits, and no client ever waits for
// another.

// The ranks of a client in its worker's order: its own firsts first,
// what waits on the other worker last.
const (
	rankRecord   = iota // decides and publishes a Decide the others reuse
	rankOwn             // reuses what its worker publishes, or shares nothing
	rankCopyOwn         // copies a packet coded earlier on its worker
	rankReuseFar        // reuses what another worker publishes
	rankCopyLate        // copies a packet its worker codes late
	rankCopyFar         // copies a packet another worker codes
	rankNone            // not planned
)

// rankShift puts a rank above a client's index in one integer (sessions
// have far fewer than 2^24 clients).
const rankShift = 24

// sendPlan is the session's reusable storage for planning a tick's sends.
type sendPlan struct {
	share    []strategy.SendShare
	run      []int   // each client's worker
	role     []int32 // each client's cost in its planned role
	coder    []int   // the client coding its Same packet (itself if it does)
	first    []bool  // the client decides and publishes its Decide
	rank     []int
	load     []int64 // each worker's estimated cost
	bySame   []keyed // the clients with a Same, sorted by it
	byDecide []keyed // the clients with a Decide, sorted by it
	groupEnd []int   // the ends of the groups of a sorted list
	byRank   []int   // the order: clients sorted by run, rank and client
	order    []*client
	noPlan   bool // tests: send in client order, as without a planner
	// records counts, over the session, the recordings (firsts of a
	// Decide) the plan gave each worker (tests).
	records []int
}

// planSends returns the clients in the order the workers send them,
// each run of per clients on its own worker as before, or nil for
// client order (no planner, or nothing shared this tick).
func (s *Session) planSends(per int) []*client {
	if _, ok := s.clients[0].st.(strategy.SendPlanner); !ok || s.plan.noPlan {
		return nil
	}
	p := &s.plan
	p.reset(len(s.clients), per)
	for i, c := range s.clients {
		if !c.parked {
			p.share[i] = c.st.(strategy.SendPlanner).PlanSend(&c.ctx)
		}
	}
	order := p.build(per)
	if order == nil {
		return nil
	}
	p.order = p.order[:0]
	for _, i := range order {
		p.order = append(p.order, s.clients[i])
	}
	return p.order
}

// build plans the sends of the clients whose shares p holds, in runs of
// per clients, and returns the order (client indices, each run's own
// permuted among themselves), or nil when nothing is shared.
func (p *sendPlan) build(per int) []int {
	n := len(p.share)
	p.bySame, p.byDecide = p.bySame[:0], p.byDecide[:0]
	for i, sh := range p.share {
		p.run[i] = i / per
		if sh.Same != 0 {
			p.bySame = append(p.bySame, keyed{sh.Same, i})
		}
		if sh.Decide != 0 {
			p.byDecide = append(p.byDecide, keyed{sh.Decide, i})
		}
	}
	if len(p.bySame) == 0 && len(p.byDecide) == 0 {
		return nil
	}
	slices.SortFunc(p.bySame, keyed.compare)
	slices.SortFunc(p.byDecide, keyed.compare)
	p.chooseCoders()
	p.chooseRecorders()
	p.rankAll()
	// Each run sorted by rank, then client: one integer each, the rank
	// above the client's index.
	p.byRank = p.byRank[:0]
	for i := range n {
		p.byRank = append(p.byRank, p.rank[i]<<rankShift|i)
	}
	for from := 0; from < n; from += per {
		slices.Sort(p.byRank[from:min(from+per, n)])
	}
	for k := range p.byRank {
		p.byRank[k] &= 1<<rankShift - 1
	}
	return p.byRank
}

// keyed is a client and one of its keys.
type keyed struct {
	key    uint64
	client int
}

// compare orders by key, then client.
func (a keyed) compare(b keyed) int {
	if a.key != b.key {
		return cmp.Compare(a.key, b.key)
	}
	return a.client - b.client
}

// reset sizes the plan for n clients in runs of per, their shares
// zero.
func (p *sendPlan) reset(n, per int) {
	runs := (n + per - 1) / per
	p.share = resize(p.share, n)
	clear(p.share)
	p.run, p.coder, p.rank = resize(p.run, n), resize(p.coder, n), resize(p.rank, n)
	p.role, p.first = resize(p.role, n), resize(p.first, n)
	clear(p.first)
	p.load = resize(p.load, runs)
	clear(p.load)
	if len(p.records) < runs {
		p.records = append(p.records, make([]int, runs-len(p.records))...)
	}
}

// resize returns s with length n, reusing its storage.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// groups calls f for each group of clients with the same key in the
// sorted list, each in client order.
func (p *sendPlan) groups(sorted []keyed, f func(members []keyed)) {
	for lo := 0; lo < len(sorted); {
		hi := lo + 1
		for hi < len(sorted) && sorted[hi].key == sorted[lo].key {
			hi++
		}
		f(sorted[lo:hi])
		lo = hi
	}
}

// chooseCoders picks, for every Same packet, the client that codes it:
// the first of its members on the worker with the least load among
// theirs (a packet met on one worker only is coded there). The others
// copy it. Every client starts in the role it has if it shares nothing
// more: Whole without a Decide, else Reuse.
func (p *sendPlan) chooseCoders() {
	for i, sh := range p.share {
		p.coder[i] = i
		p.role[i] = sh.Reuse
		if sh.Decide == 0 {
			p.role[i] = sh.Whole
		}
		if sh.Same != 0 {
			p.role[i] = sh.Copy // until chosen to code
		}
		p.load[p.run[i]] += int64(p.role[i])
	}
	p.choose(p.bySame, false, func(m []keyed, c int) {
		for _, k := range m {
			p.coder[k.client] = c
		}
		code := p.share[c].Reuse
		if p.share[c].Decide == 0 {
			code = p.share[c].Whole
		}
		p.setRole(c, code)
	})
}

// chooseRecorders picks, for every Decide, the client that decides and
// publishes it: the first coder among its members on the worker with the
// least load among theirs.
func (p *sendPlan) chooseRecorders() {
	p.choose(p.byDecide, true, func(_ []keyed, r int) {
		p.setRole(r, p.share[r].Whole)
		p.first[r] = true
		p.records[p.run[r]]++
	})
}

// choose calls set(members, chosen) for every group of clients with the
// same key in sorted, chosen the member picked for the work the group
// shares (among its coders only, if coders): first the groups whose
// members are all on one worker, which have no choice, then the others,
// each on the least loaded worker so far (a greedy balance: the forced
// loads first, or a choice made early could be undone by them).
func (p *sendPlan) choose(sorted []keyed, coders bool, set func(members []keyed, chosen int)) {
	p.groupEnd = p.groupEnd[:0]
	p.groups(sorted, func(m []keyed) {
		if c, free := p.pick(m, coders); c >= 0 && !free {
			set(m, c)
		}
		p.groupEnd = append(p.groupEnd, len(m))
	})
	lo := 0
	for _, n := range p.groupEnd {
		m := sorted[lo : lo+n]
		lo += n
		if c, free := p.pick(m, coders); c >= 0 && free {
			set(m, c)
		}
	}
}

// pick returns the first member (by client) on the least loaded worker
// among those the members are on (only the coders if coders), −1 if none,
// and whether there was a choice: members on more than one worker.
func (p *sendPlan) pick(members []keyed, coders bool) (best int, free bool) {
	best = -1
	for _, k := range members {
		i := k.client
		if coders && p.coder[i] != i {
			continue
		}
		switch {
		case best < 0:
			best = i
		case p.run[i] != p.run[best]:
			free = true
			if p.load[p.run[i]] < p.load[p.run[best]] {
				best = i
			}
		}
	}
	return best, free
}

// setRole gives client i the cost c, its worker's load following.
func (p *sendPlan) setRole(i int, c int32) {
	p.load[p.run[i]] += int64(c - p.role[i])
	p.role[i] = c
}

// rankAll ranks every client in its worker's order.
func (p *sendPlan) rankAll() {
	for i := range p.rank {
		p.rank[i] = rankNone
	}
	// Where each Decide is recorded: a client reuses from its own worker
	// or from another.
	p.groups(p.byDecide, func(m []keyed) {
		rec := -1
		for _, k := range m {
			if p.first[k.client] {
				rec = k.client
			}
		}
		for _, k := range m {
			i := k.client
			switch {
			case p.coder[i] != i: // a copy: ranked below
			case i == rec:
				p.rank[i] = rankRecord
			case rec >= 0 && p.run[rec] != p.run[i]:
				p.rank[i] = rankReuseFar
			default:
				p.rank[i] = rankOwn
			}
		}
	})
	for i := range p.rank {
		c := p.coder[i]
		switch {
		case c == i && p.rank[i] == rankNone:
			p.rank[i] = rankOwn // shares no decisions
		case c == i:
		case p.run[c] != p.run[i]:
			p.rank[i] = rankCopyFar
		case p.rank[c] == rankReuseFar:
			p.rank[i] = rankCopyLate
		default:
			p.rank[i] = rankCopyOwn
		}
	}
}
