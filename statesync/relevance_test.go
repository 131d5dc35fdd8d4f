package statesync

import (
	"math"
	"testing"

	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
)

// TestRelevanceLowersTheErrorNearEachPlayer: three players (two bots), a
// client each, at step 8 with the clients on another machine (so there is
// something to correct) under a tight budget, 6 s of the script. With
// relevance each client's updates go to the cubes near its own player, and
// the error of those cubes (the client's world against the server's at
// the same frame) falls for every client; the budget is the same. The
// whole 901-cube world: on a small one every player is near every pile.
func TestRelevanceLowersTheErrorNearEachPlayer(t *testing.T) {
	sc := katamari(t)
	const players, frames, from = 3, 360, 120
	run := func(on bool) [players]float64 {
		cfg := game.DefaultConfig()
		cfg.World.Players = players
		cfg.Link = link.Config{LatencyMs: 30}
		st := New(DefaultConfig())
		cfg.Strategies = []strategy.Strategy{st}
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		set := StepSettings(8)
		set.BandwidthKbps, set.Relevance, set.Divergence = 128, on, diverge.Machine
		st.SetSettings(set)
		s.SettingsChanged()
		// The left's states by frame, to compare each client's world at
		// the frame it shows.
		const ring = 64
		var hist [ring][]cubes.CubeState
		var sum [players]float64
		var n [players]int
		for f := range frames {
			s.Step(sc.InputAt(f))
			left := s.Left()
			hist[left.Frame()%ring] = left.States(hist[left.Frame()%ring][:0])
			if f < from {
				continue
			}
			for k := range s.NumClients() {
				cs := s.ClientStrategy(k).(*Strategy)
				w := cs.rcv.world
				at := w.Frame()
				past := hist[at%ring]
				if left.Frame()-at >= ring || len(past) != w.NumCubes() {
					continue
				}
				me := left.PlayerCube(s.ClientPlayer(k))
				for i := range past {
					if left.IsPlayer(i) || past[i].Position.Sub(past[me].Position).Len() > RelevanceRadius {
						continue
					}
					sum[k] += w.Cube(i).Position.Sub(past[i].Position).Len()
					n[k]++
				}
			}
		}
		var out [players]float64
		for k := range out {
			out[k] = 100 * sum[k] / math.Max(float64(n[k]), 1)
		}
		return out
	}
	off, on := run(false), run(true)
	for k := range players {
		t.Logf("client %d: error of the cubes within %.0f m of its player %.3f cm without relevance, %.3f with", k+1, RelevanceRadius, off[k], on[k])
		if on[k] >= off[k] {
			t.Errorf("client %d: relevance did not lower the error near its player (%.3f → %.3f cm)", k+1, off[k], on[k])
		}
	}
}
