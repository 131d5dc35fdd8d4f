package strategy

import (
	"errors"
	"fmt"

	"netcubes/cubes"
	"netcubes/internal/valid"
	"netcubes/link"
)

// PlayersBench is implemented by a Bench that can also run sessions of
// several players (cmd/bench does): the tables about other players (drawn
// in the past, pushed under lag, tagged) need a second player on a client
// of its own.
type PlayersBench interface {
	// NewPlayersRun builds a session of c.Players players, one client
	// each, whose only strategy is st (client 1's instance; the others'
	// are its clones), with the bench's seed, at frame 0.
	NewPlayersRun(c PlayersConfig, st Strategy) (PlayersRun, error)
	// PlayPlayers steps r for frames ticks: before each step, input fills
	// the inputs of the players it drives and returns them as bits
	// (player p+1: bit p); bots drive the others. It calls tick (may be
	// nil) after every step and advances the progress bar.
	PlayPlayers(section, name string, r PlayersRun, frames int, input func(f int, ins *cubes.Inputs) uint8, tick func())
}

// PlayersConfig sets up a session of several players for a bench table.
type PlayersConfig struct {
	Players int
	// Links are the clients' conditions, client 1's first; clients past
	// the list take its last entry.
	Links []link.Config
	// Bots drive players 2.. in turn where the script does not (empty:
	// cubes.DefaultBots).
	Bots []cubes.BotKind
	// Thin makes every client but client 1 thin (Context.Thin): they send
	// their players' inputs and simulate nothing, so a table measuring
	// client 1 does not pay for the others' worlds.
	Thin bool
}

// ErrInvalidConfig is wrapped by the error PlayersConfig.Validate returns.
var ErrInvalidConfig = errors.New("strategy: invalid players config")

// Validate reports the first field out of its range, naming it: a
// PlayersBench refuses an invalid PlayersConfig.
func (c PlayersConfig) Validate() error {
	if err := valid.Check(ErrInvalidConfig, valid.Field{Name: "Players", V: float64(c.Players), Lo: 1, Hi: cubes.MaxPlayers}); err != nil {
		return err
	}
	for k, l := range c.Links {
		if err := l.Validate(); err != nil {
			return fmt.Errorf("strategy: PlayersConfig.Links[%d]: %w", k, err)
		}
	}
	return nil
}

// PlayersRun is a session of several players as a bench table sees it
// (game.Session).
type PlayersRun interface {
	Run
	StepPlayers(ins *cubes.Inputs, given uint8)
	ClientStrategy(k int) Strategy
}

// StrategyMaker is implemented by a Bench that can build a fresh instance
// of any strategy of the app's catalog by its ID (cmd/bench does): a
// table comparing strategies (distributed authority's rows for state sync
// and the 2004 prediction) gets them without importing another strategy's
// package.
type StrategyMaker interface {
	NewStrategy(id string) (Strategy, bool)
}
