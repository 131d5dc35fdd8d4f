package game_test

import (
	"fmt"
	"hash/fnv"
	"runtime"
	"testing"

	"netcubes/authority"
	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
)

// rightsPlayers and rightsTicks are the runs of the right sides' tests: a
// player per client, enough ticks for rollbacks, corrections and claims
// on a mobile link.
const rightsPlayers = 4

// rightsTicks is the length of a run: shorter with -short (make test's
// race phase, which runs these tests under the race detector).
func rightsTicks() int {
	if testing.Short() {
		return 60
	}
	return 200
}

// rightsRun is how a test runs a session's right sides.
type rightsRun struct {
	procs    int  // GOMAXPROCS
	reversed bool // last client first (game.Session.RunRightsReversed)
	force    bool // … whatever the strategy says
}

// tickDigest is one tick of a session as seen from outside: the left
// world, and per client the packets both ways so far, its view and its
// figures.
type tickDigest struct {
	left                 uint64
	sent, back, view, mx [rightsPlayers]uint64
}

// runRights plays strategy id (set up by setup, when given) with four
// players on small worlds and returns every tick's digest.
func runRights(t *testing.T, id string, c link.Config, r rightsRun, setup func(strategy.Strategy)) []tickDigest {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(r.procs))
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.DefaultConfig()
	var ok bool
	if cfg.Strategies, cfg.Start, ok = catalog.StartingWith(id); !ok {
		t.Fatalf("no strategy %q", id)
	}
	if setup != nil {
		setup(cfg.Strategies[cfg.Start])
	}
	cfg.World.Players = rightsPlayers
	cfg.World.GridSide = 6 // 37 cubes a player: the test is about the order of the clients
	cfg.Link = c
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.SetGridClients([]int{1, 2, 3}) // every client's view, every tick
	if r.reversed {
		s.RunRightsReversed(r.force)
	}
	out := make([]tickDigest, 0, rightsTicks())
	for f := range rightsTicks() {
		s.Step(sc.InputAt(f))
		d := tickDigest{left: s.Left().StateHash()}
		for k := range rightsPlayers {
			d.sent[k], d.back[k] = s.ClientSentHash(k), s.ClientBackHash(k)
			d.view[k] = digest(s.ClientView(k))
			d.mx[k] = digest(s.ClientMetrics(k))
		}
		out = append(out, d)
	}
	return out
}

// digest hashes what v prints (every float to its last bit).
func digest(v any) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%+v", v)
	return h.Sum64()
}

// firstDiff is the first tick two runs differ at and what differs, or −1.
func firstDiff(a, b []tickDigest) (int, string) {
	for f := range min(len(a), len(b)) {
		x, y := &a[f], &b[f]
		for k := range rightsPlayers {
			switch {
			case x.left != y.left:
				return f, "the left world"
			case x.sent[k] != y.sent[k]:
				return f, fmt.Sprintf("client %d's packets", k+1)
			case x.back[k] != y.back[k]:
				return f, fmt.Sprintf("client %d's acks", k+1)
			case x.view[k] != y.view[k]:
				return f, fmt.Sprintf("client %d's view", k+1)
			case x.mx[k] != y.mx[k]:
				return f, fmt.Sprintf("client %d's figures", k+1)
			}
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b)), "the number of ticks"
	}
	return -1, ""
}

// independentIDs are the catalog's strategies whose right sides say they
// are independent (strategy.IndependentRight) as they start.
func independentIDs() []string {
	var ids []string
	for _, st := range catalog.All() {
		if ir, ok := st.(strategy.IndependentRight); ok && ir.IndependentRight() {
			ids = append(ids, st.ID())
		}
	}
	return ids
}

// TestParallelRightsSameBits: every strategy whose clients' right sides
// run at once must run them to the bits of a serial run: every packet
// both ways, every client's view and figures, the left world, tick by
// tick, with one core or two. Run last client first, they must be the
// same too: a strategy whose right sides shared state would see another
// order here, whatever the machine's cores. Under the race detector (make
// test's race phase) two cores also show any state they touch at once.
func TestParallelRightsSameBits(t *testing.T) {
	ids := independentIDs()
	for _, want := range []string{"predict", "authority", "rollback"} {
		found := false
		for _, id := range ids {
			found = found || id == want
		}
		if !found {
			t.Errorf("%s's right sides do not say they are independent", want)
		}
	}
	mobile := link.PresetMobile.Config()
	for _, id := range ids {
		one := runRights(t, id, mobile, rightsRun{procs: 1}, nil)
		for _, r := range []rightsRun{{procs: 2}, {procs: 1, reversed: true}} {
			other := runRights(t, id, mobile, r, nil)
			if f, what := firstDiff(one, other); f >= 0 {
				t.Errorf("%s (%+v): %s differ from a serial run at tick %d", id, r, what, f+1)
			}
		}
	}
}

// TestReversedRightsFindShared: the check above has teeth. Distributed
// authority's machines peer to peer talk within the tick (one's SendBack
// feeds another's Update on a perfect link), so run last client first
// they see other packets: the strategy says so (IndependentRight false)
// and its right sides keep their order; forced into another, they differ.
func TestReversedRightsFindShared(t *testing.T) {
	p2p := func(st strategy.Strategy) {
		a := st.(*authority.Strategy)
		s := a.Settings()
		s.P2P = true
		a.SetSettings(s)
	}
	perfect := link.PresetPerfect.Config()
	forward := runRights(t, "authority", perfect, rightsRun{procs: 2}, p2p)
	if f, what := firstDiff(forward, runRights(t, "authority", perfect, rightsRun{procs: 2, reversed: true}, p2p)); f >= 0 {
		t.Errorf("peer to peer, kept in order: %s differ at tick %d", what, f+1)
	}
	if f, _ := firstDiff(forward, runRights(t, "authority", perfect, rightsRun{procs: 1, reversed: true, force: true}, p2p)); f < 0 {
		t.Error("peer to peer, last client first: the same run; the check cannot see right sides that share state")
	}
}

// TestRightTiming: under Config.Timing the clients' side is measured on
// its critical path and in all, with a worker per core when they run at
// once and none when serial (CPU times: only their relations are checked).
func TestRightTiming(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, procs := range []int{1, 2} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			cfg := game.DefaultConfig()
			cfg.Strategies, cfg.Start, _ = catalog.StartingWith("rollback")
			cfg.World.Players = rightsPlayers
			cfg.World.GridSide = 6
			cfg.Timing = true
			s, err := game.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for range 20 {
				s.Step(cubes.Input{})
			}
			crit, all := s.WorkersNanos()
			switch {
			case s.RightNanos() <= 0 || s.RightNanos() > s.RightCPU():
				t.Errorf("%d cores: the clients' side %d ns on its critical path, %d in all", procs, s.RightNanos(), s.RightCPU())
			case procs == 1 && (s.RightWorkers() != 0 || s.RightNanos() != s.RightCPU() || all != 0):
				t.Errorf("one core: %d workers, %d ns and %d in all, workers %d", s.RightWorkers(), s.RightNanos(), s.RightCPU(), all)
			case procs == 2 && (s.RightWorkers() != 2 || crit <= 0 || crit > all):
				t.Errorf("two cores: %d workers (want 2), workers %d ns critical, %d in all", s.RightWorkers(), crit, all)
			}
		}()
	}
}
