package game_test

import (
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
)

// TestGridKeepsTheRun: the grid fills three more clients' views and error
// figures every tick, which only reads their strategies: every strategy's
// run with the grid on is bit-identical to the same run without (the
// server's world and every packet each client was sent), and each grid
// client has a view of the whole world and, once it shows one, figures.
func TestGridKeepsTheRun(t *testing.T) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	const frames = 90
	run := func(i int, grid bool) (*game.Session, []uint64) {
		cfg := game.DefaultConfig()
		cfg.World.Players = 4
		cfg.World.GridSide = 6 // 37 cubes a player: the test is about reading views
		cfg.ClientLinks = []link.Pair{link.PresetLAN.Pair(), link.PresetIntercontinental.Pair(), link.PresetMobile.Pair(), link.PresetTerrible.Pair()}
		cfg.Strategies = catalog.All()
		cfg.Start = i
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if grid {
			s.SetGridClients([]int{0, 1, 2, 3})
		}
		var hs []uint64
		for f := range frames {
			s.Step(sc.InputAt(f))
			hs = append(hs, s.Left().StateHash())
			for k := range s.NumClients() {
				hs = append(hs, s.ClientSentHash(k))
			}
		}
		return s, hs
	}
	for i, st := range catalog.All() {
		t.Run(st.ID(), func(t *testing.T) {
			_, without := run(i, false)
			s, with := run(i, true)
			for j := range with {
				if with[j] != without[j] {
					t.Fatalf("hash %d differs with the grid on: the grid changed the run", j)
				}
			}
			for k := 1; k < s.NumClients(); k++ {
				v := s.ClientView(k)
				if v == nil || len(v.Cubes) != s.Left().NumCubes() {
					t.Errorf("client %d: no view of the whole world", k+1)
				}
			}
			if s.ClientView(0) != s.RightView() {
				t.Error("the shown client's grid view is not the right view")
			}
		})
	}
}
