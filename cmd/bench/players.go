package main

import (
	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
)

// The bench's sessions of several players (strategy.PlayersBench), for the
// tables about other players.

var _ strategy.PlayersBench = (*bench)(nil)

// NewPlayersRun implements strategy.PlayersBench: a session of c.Players
// players on the bench's seed.
func (b *bench) NewPlayersRun(c strategy.PlayersConfig, st strategy.Strategy) (strategy.PlayersRun, error) {
	cfg, err := b.playersConfig(c, st)
	if err != nil {
		return nil, err
	}
	return game.New(cfg)
}

// playersConfig is the session NewPlayersRun builds, as a configuration.
func (b *bench) playersConfig(c strategy.PlayersConfig, st strategy.Strategy) (game.Config, error) {
	if err := c.Validate(); err != nil {
		return game.Config{}, err
	}
	cfg := game.DefaultConfig()
	cfg.Seed = b.seed
	cfg.World.Players = c.Players
	if len(c.Links) > 0 {
		cfg.Link = c.Links[0]
		for k := range cfg.World.Players {
			cfg.ClientLinks = append(cfg.ClientLinks, link.Symmetric(c.Links[min(k, len(c.Links)-1)]))
		}
	}
	cfg.Bots = c.Bots
	cfg.Thin = c.Thin
	cfg.Strategies = []strategy.Strategy{st}
	return cfg, nil
}

// PlayPlayers implements strategy.PlayersBench.
func (b *bench) PlayPlayers(section, name string, r strategy.PlayersRun, frames int, input func(f int, ins *cubes.Inputs) uint8, tick func()) {
	b.progress.start(section+": "+name, frames)
	for f := range frames {
		var ins cubes.Inputs
		given := input(f, &ins)
		r.StepPlayers(&ins, given)
		if tick != nil {
			tick()
		}
		b.progress.step(f + 1)
	}
}

// NewStrategy implements strategy.StrategyMaker: a fresh instance from the
// catalog.
func (b *bench) NewStrategy(id string) (strategy.Strategy, bool) {
	list := catalog.All()
	i, ok := catalog.Find(list, id)
	if !ok {
		return nil, false
	}
	return list[i], true
}
