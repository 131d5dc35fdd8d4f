package game_test

import (
	"runtime"
	"slices"
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/snapshot"
	"netcubes/strategy"
)

// TestParallelSendsSameBits: with enough clients the session encodes them
// in parallel; every packet of every client, and the server's world, must
// be the bits a serial run (GOMAXPROCS 1) sends, for every strategy, and
// for snapshot compression at level 13 (whose clients share the player
// prediction's corrections fitted in parallel).
func TestParallelSendsSameBits(t *testing.T) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	const clients = 16
	frames := 150
	if testing.Short() {
		frames = 40 // make test's race phase: the parallel paths under the race detector, briefly
	}
	run := func(i, procs int, level snapshot.Level) ([]uint64, uint64) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		cfg := game.DefaultConfig()
		cfg.Strategies, cfg.Start = catalog.All(), i
		if sn, ok := cfg.Strategies[i].(*snapshot.Strategy); ok && level > 0 {
			sn.SetLevel(level)
		}
		cfg.Clients = clients
		cfg.World.Players = 4
		cfg.Link = link.PresetMobile.Config()
		cfg.Thin = true
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for f := range frames {
			s.Step(sc.InputAt(f))
		}
		return s.SentHashes(), s.Left().StateHash()
	}
	for i, st := range catalog.All() {
		levels := []snapshot.Level{0}
		if st.ID() == "compression" {
			levels = append(levels, snapshot.MotionPredicted)
		}
		for _, l := range levels {
			one, left1 := run(i, 1, l)
			two, left2 := run(i, 2, l)
			if left1 != left2 {
				t.Errorf("%s (level %d): the server's world differs with 2 cores", st.ID(), l)
			}
			for k := range one {
				if one[k] != two[k] || one[k] == 0 {
					t.Errorf("%s (level %d): client %d's packets differ with 2 cores (%#x, %#x)", st.ID(), l, k+1, one[k], two[k])
				}
			}
		}
	}
}

// TestSendPlanSameBits: on two cores at level 13, where the session plans
// who records each tick's decisions (sendplan.go), every client's packets
// are the bits of the same session sending each worker's clients in
// client order, and the plan gave recordings to both workers.
func TestSendPlanSameBits(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	const clients, frames = 16, 90
	run := func(plan bool) ([]uint64, []int) {
		st := snapshot.NewCompression()
		st.SetLevel(snapshot.MotionPredicted)
		cfg := game.DefaultConfig()
		cfg.Strategies = []strategy.Strategy{st}
		cfg.Clients, cfg.Thin = clients, true
		cfg.World.Players = 4
		cfg.World.GridSide = 6 // 37 cubes a player: the test is about who codes what
		cfg.Link = link.PresetIntercontinental.Config()
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.SetSendPlan(plan)
		for f := range frames {
			s.Step(sc.InputAt(f))
		}
		return s.SentHashes(), slices.Clone(s.SendPlanRecords())
	}
	planned, records := run(true)
	plain, none := run(false)
	if !slices.Equal(planned, plain) {
		t.Errorf("the packets differ with the plan:\n%x\n%x", planned, plain)
	}
	if len(records) != 2 || records[0] == 0 || records[1] == 0 || len(none) != 0 {
		t.Errorf("the plan gave the workers %v recordings (%v without it)", records, none)
	}
	t.Logf("recordings planned per worker: %v", records)
}
