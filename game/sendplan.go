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

// sendPlan is the session's reusable storage for planning a tick's sends.
type sendPlan struct {
	share  []strategy.SendShare
	run    []int   // each client's worker
	role   []int32 // each client's cost in its planned role
	coder  []int   // the client coding its Same packet (itself if it does)
	first  []bool  // the client decides and publishes its Decide
	rank   []int
	load   []int64 // each worker's estimated cost
	byKey  []int   // clients sorted by a key
	order  []*client
	noPlan bool // tests: send in client order, as without a planner
	// records and reuses count, over the session, the firsts the plan gave
	// each worker (tests).
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
	shared := false
	for i, sh := range p.share {
		p.run[i] = i / per
		shared = shared || sh.Decide != 0 || sh.Same != 0
	}
	if !shared {
		return nil
	}
	p.chooseCoders()
	p.chooseRecorders()
	p.rankAll()
	p.byKey = p.byKey[:0]
	for i := range n {
		p.byKey = append(p.byKey, i)
	}
	for from := 0; from < n; from += per {
		run := p.byKey[from:min(from+per, n)]
		slices.SortFunc(run, func(a, b int) int { return cmp.Or(cmp.Compare(p.rank[a], p.rank[b]), cmp.Compare(a, b)) })
	}
	return p.byKey
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

// groups calls f for each run of clients with the same nonzero key,
// in increasing key order, each in client order.
func (p *sendPlan) groups(key func(int) uint64, f func(members []int)) {
	p.byKey = p.byKey[:0]
	for i := range p.share {
		if key(i) != 0 {
			p.byKey = append(p.byKey, i)
		}
	}
	slices.SortFunc(p.byKey, func(a, b int) int {
		return cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(a, b))
	})
	for lo := 0; lo < len(p.byKey); {
		hi := lo + 1
		for hi < len(p.byKey) && key(p.byKey[hi]) == key(p.byKey[lo]) {
			hi++
		}
		f(p.byKey[lo:hi])
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
	all := func(int) bool { return true }
	p.choose(func(i int) uint64 { return p.share[i].Same }, all, func(m []int, c int) {
		for _, i := range m {
			p.coder[i] = c
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
	coder := func(i int) bool { return p.coder[i] == i }
	p.choose(func(i int) uint64 { return p.share[i].Decide }, coder, func(_ []int, r int) {
		p.setRole(r, p.share[r].Whole)
		p.first[r] = true
		p.records[p.run[r]]++
	})
}

// choose calls set(members, chosen) for every group of clients with the
// same nonzero key, chosen the member (that ok accepts) picked for the
// work the group shares: first the groups whose members are all on one
// worker, which have no choice, then the others, each on the least
// loaded worker so far (a greedy balance: the forced loads first, or a
// choice made early could be undone by them).
func (p *sendPlan) choose(key func(int) uint64, ok func(int) bool, set func(members []int, chosen int)) {
	for _, forced := range []bool{true, false} {
		p.groups(key, func(m []int) {
			c := p.pick(m, ok)
			if c >= 0 && p.oneRun(m, ok) == forced {
				set(m, c)
			}
		})
	}
}

// oneRun reports whether the members ok accepts are on one worker.
func (p *sendPlan) oneRun(members []int, ok func(int) bool) bool {
	run := -1
	for _, i := range members {
		if !ok(i) {
			continue
		}
		if run >= 0 && p.run[i] != run {
			return false
		}
		run = p.run[i]
	}
	return true
}

// pick returns the first member (by client) that ok accepts on the
// least loaded worker among those such members are on, −1 if none.
func (p *sendPlan) pick(members []int, ok func(int) bool) int {
	best := -1
	for _, i := range members {
		if !ok(i) {
			continue
		}
		if best < 0 || p.load[p.run[i]] < p.load[p.run[best]] {
			best = i
		}
	}
	return best
}

// setRole gives client i the cost c, its worker's load following.
func (p *sendPlan) setRole(i int, c int32) {
	p.load[p.run[i]] += int64(c - p.role[i])
	p.role[i] = c
}

// rankAll ranks every client in its worker's order.
func (p *sendPlan) rankAll() {
	// Where each Decide is recorded: a client reuses from its own worker
	// or from another.
	for i := range p.rank {
		p.rank[i] = rankNone
	}
	p.groups(func(i int) uint64 { return p.share[i].Decide }, func(m []int) {
		rec := -1
		for _, i := range m {
			if p.first[i] {
				rec = i
			}
		}
		for _, i := range m {
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
