package game

import (
	"math/rand/v2"
	"slices"
	"testing"

	"netcubes/strategy"
)

// planCase is a tick's shares, as a SendPlanner would give them, for
// clients in runs of per.
type planCase struct {
	name  string
	per   int
	share []strategy.SendShare
}

// share is a client's share with the snapshot strategy's costs.
func share(decide, same uint64) strategy.SendShare {
	return strategy.SendShare{Decide: decide, Same: same, Whole: 11, Reuse: 4, Copy: 1}
}

// TestSendPlanBalances: with crafted keys, the recordings a tick's
// clients meet in both halves are split between the halves so that their
// estimated costs come out even (in client order the first half would
// meet every key first), a key met in one half only is recorded there,
// and in each half the recorder comes first, the clients reusing what
// the other half records come after everything of their own, and a copy
// comes after the client coding its packet.
func TestSendPlanBalances(t *testing.T) {
	// Two halves of 6. Keys 1-4 are met by both halves, key 5 by the
	// second only. Client 11 copies client 10's packet, client 5 copies
	// client 0's (key 1, coded in the first half).
	c := planCase{name: "crafted", per: 6, share: []strategy.SendShare{
		share(1, 101), share(2, 102), share(3, 103), share(4, 104), share(1, 105), share(1, 100),
		share(1, 106), share(2, 107), share(3, 108), share(4, 109), share(5, 110), share(5, 110),
	}}
	c.share[5].Same = 101
	var p sendPlan
	order := c.plan(&p)
	if order == nil {
		t.Fatal("nothing planned")
	}
	records := c.records(&p)
	if records[0]+records[1] != 5 || records[0] < 2 || records[1] < 2 {
		t.Errorf("the halves record %v keys, want 5 split 2-3 (keys 1-4 split, key 5 in the second half)", records)
	}
	if d := p.load[0] - p.load[1]; d < -7 || d > 7 {
		t.Errorf("estimated loads %v: apart by more than one recording", p.load)
	}
	for _, i := range []int{10} {
		if !p.first[i] {
			t.Errorf("client %d does not record key 5, met in its half only", i)
		}
	}
	checkPlan(t, c, &p, order)
}

// TestSendPlanRules: on random shares (runs of clients meeting a few
// keys, some of them the same packet) every plan keeps each client in its
// run and orders each run by the rules TestSendPlanBalances checks.
func TestSendPlanRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var p sendPlan
	for k := range 200 {
		n := 2 + rng.IntN(40)
		c := planCase{name: "random", per: max(1, (n+1)/2), share: make([]strategy.SendShare, n)}
		if k%3 == 0 {
			c.per = max(1, (n+3)/4) // four workers
		}
		keys := 1 + rng.IntN(6)
		for i := range c.share {
			d := uint64(1 + rng.IntN(keys))
			switch rng.IntN(6) {
			case 0:
				c.share[i] = strategy.SendShare{} // sends nothing
			case 1:
				c.share[i] = share(0, 0) // shares nothing
			case 2:
				c.share[i] = share(d, 1000+d) // the same packet as others
			default:
				c.share[i] = share(d, uint64(2000+i))
			}
		}
		order := c.plan(&p)
		if order == nil {
			continue
		}
		checkPlan(t, c, &p, order)
		if t.Failed() {
			t.Fatalf("case %d: %+v", k, c.share)
		}
	}
}

// plan runs the planner on c's shares.
func (c planCase) plan(p *sendPlan) []int {
	p.reset(len(c.share), c.per)
	copy(p.share, c.share)
	return p.build(c.per)
}

// records counts the recorders of each run.
func (c planCase) records(p *sendPlan) []int {
	r := make([]int, (len(c.share)+c.per-1)/c.per)
	for i, f := range p.first[:len(c.share)] {
		if f {
			r[i/c.per]++
		}
	}
	return r
}

// checkPlan checks the order of a plan against the rules.
func checkPlan(t *testing.T, c planCase, p *sendPlan, order []int) {
	t.Helper()
	n := len(c.share)
	pos := make([]int, n)
	for k, i := range order {
		if i/c.per != k/c.per {
			t.Errorf("%s: client %d moved to another run (position %d)", c.name, i, k)
		}
		pos[i] = k
	}
	sorted := slices.Sorted(slices.Values(order))
	for k, i := range sorted {
		if k != i {
			t.Fatalf("%s: the order %v is not a permutation", c.name, order)
		}
	}
	rec := map[uint64]int{} // a test may use a map: the plan does not
	for i, sh := range c.share {
		if p.first[i] {
			if _, dup := rec[sh.Decide]; dup || sh.Decide == 0 {
				t.Errorf("%s: key %d recorded twice or without a key", c.name, sh.Decide)
			}
			rec[sh.Decide] = i
		}
	}
	for i, sh := range c.share {
		if sh.Decide == 0 {
			continue
		}
		r, ok := rec[sh.Decide]
		coder := p.coder[i]
		if !ok && coder == i {
			t.Errorf("%s: key %d is coded by client %d and recorded by nobody", c.name, sh.Decide, i)
			continue
		}
		switch {
		case coder != i && coder/c.per == i/c.per && pos[coder] > pos[i]:
			t.Errorf("%s: client %d copies client %d's packet before it is coded", c.name, i, coder)
		case coder == i && i != r && r/c.per == i/c.per && pos[r] > pos[i]:
			t.Errorf("%s: client %d reuses key %d before client %d records it", c.name, i, sh.Decide, r)
		case coder == i && r/c.per != i/c.per:
			// Reusing the other half's: after every client of its own
			// half that does not wait on another half.
			for j := range n {
				if j/c.per == i/c.per && p.rank[j] < rankReuseFar && pos[j] > pos[i] {
					t.Errorf("%s: client %d reuses another half's key %d before client %d (rank %d)", c.name, i, sh.Decide, j, p.rank[j])
				}
			}
		}
	}
}

// BenchmarkSendPlan is the serial part the plan adds to a tick of the
// goal's run: 64 clients on two workers meeting 6 keys, a few of them
// the same packet.
func BenchmarkSendPlan(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	c := planCase{per: 32, share: make([]strategy.SendShare, 64)}
	for i := range c.share {
		d := uint64(1 + rng.IntN(6))
		c.share[i] = share(d, uint64(100+i))
		if i%16 == 0 {
			c.share[i].Same = 1000 + d
		}
	}
	var p sendPlan
	b.ReportAllocs()
	for b.Loop() {
		c.plan(&p)
	}
}
