package statesync

import (
	"fmt"
	"math"

	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// relevanceSeconds is how long each run of the relevance table plays.
const relevanceSeconds = 20

// relevancePlayers is the players (a client each) of the relevance table
// and test: player 1 plays the script, bots the others.
const relevancePlayers = 3

// benchRelevance: three players over the intercontinental link, the
// script on player 1 and bots on the others; each client's error over
// the cubes within 4 m of its own player, relevance off and on, at step 5
// (the right simulates at full precision between corrections) and at
// step 8 with the right on another machine (package diverge).
func benchRelevance(b strategy.Bench) error {
	pb, ok := b.(strategy.PlayersBench)
	if !ok {
		return nil
	}
	t := strategy.NewTable(strategy.Column{Head: "setup"}, strategy.Column{Head: "relevance"},
		strategy.Column{Head: "kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "client 1 near err cm", Unit: "cm"}, strategy.Column{Head: "client 2 near err cm", Unit: "cm"},
		strategy.Column{Head: "client 3 near err cm", Unit: "cm"})
	type setup struct {
		name string
		set  Settings
	}
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		return err
	}
	frames := relevanceSeconds * wire.TicksPerSecond
	if l := b.FrameLimit(); l > 0 {
		frames = min(frames, l)
	}
	s8 := StepSettings(8)
	s8.Divergence = diverge.Machine
	for _, su := range []setup{{"step 5", StepSettings(5)}, {"step 8, right on another machine", s8}} {
		for _, on := range []bool{false, true} {
			st := New(DefaultConfig())
			set := su.set
			set.Relevance = on
			st.SetSettings(set)
			run, err := pb.NewPlayersRun(strategy.PlayersConfig{Players: relevancePlayers, Links: []link.Config{link.PresetIntercontinental.Config()}}, st)
			if err != nil {
				return err
			}
			var sum [relevancePlayers]float64
			var n [relevancePlayers]int
			var kbps float64
			ticks := 0
			pb.PlayPlayers("state sync relevance", fmt.Sprintf("%s, relevance %v", su.name, on), run, frames, func(f int, ins *cubes.Inputs) uint8 {
				ins[0] = sc.InputAt(f)
				return 1
			}, func() {
				ticks++
				kbps += run.Metrics().SentKbps
				if run.Frame() < benchSwitchAt {
					return
				}
				addNearError(run, sum[:], n[:])
			})
			var cells [relevancePlayers]strategy.Cell
			for k := range cells {
				cells[k] = strategy.Num(100*sum[k]/math.Max(float64(n[k]), 1), "%.3f")
			}
			t.Add(strategy.Text(su.name), strategy.Text(strategy.OnOff(on)), strategy.Num(kbps/math.Max(float64(ticks), 1), "%.1f"), cells[0], cells[1], cells[2])
		}
	}
	t.Note("Three players, a client each, intercontinental link; player 1 plays the script, bots the others. Near err: each client's world against the")
	t.Note("left's at the frame it shows, mean distance over the cubes within 4 m of its own player, from 2 s on. Relevance: each client's priorities")
	t.Note("scaled by nearness to its own player (full within 4 m, then (4 m / distance)², at least 1 %); the budget is the same 256 kbit/s.")
	return b.Print(t)
}

// addNearError adds each client's error near its own player this tick.
func addNearError(run strategy.PlayersRun, sum []float64, n []int) {
	left := run.Left()
	for k := range sum {
		cs, ok := run.ClientStrategy(k).(*Strategy)
		if !ok || k >= left.NumPlayers() {
			continue
		}
		w := cs.rcv.world
		at := float64(w.Frame())
		me, _, ok := run.LeftAt(at, left.PlayerCube(k))
		if !ok {
			continue
		}
		for i := range w.NumCubes() {
			if left.IsPlayer(i) {
				continue
			}
			p, _, ok := run.LeftAt(at, i)
			if !ok || p.Sub(me).Len() > RelevanceRadius {
				continue
			}
			sum[k] += w.Cube(i).Position.Sub(p).Len()
			n[k]++
		}
	}
}
