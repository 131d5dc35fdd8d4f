package cubes

import "github.com/go-gl/mathgl/mgl64"

// MaxPlayers is the most players a world holds: the several-players
// lessons (other players drawn in the past, the slowest link stalling
// everyone, the server's cost per client) all show with a handful, and
// eight distinct colours still read from the back of a hall.
const MaxPlayers = 8

// Inputs are the inputs of every player for one tick: Inputs[p] drives
// player p+1. A fixed-size array, so passing one around never allocates.
type Inputs [MaxPlayers]Input

// bobPhaseTicks shifts each player's hover wobble (see bob) by this many
// ticks per player.
const bobPhaseTicks = 37

// otherStarts are where players 2..8 drop from, as offsets from player 1's
// start: on a ring 9 m out from the grid's centre, inside the 30 m field,
// so each lands in the grid like player 1 and the bots have room to meet.
// A table, not sin and cos, so the scene is the same on every platform.
var otherStarts = [MaxPlayers - 1][2]float64{
	{9, 0}, {-9, 0}, {0, 9}, {0, -9}, {6.5, 6.5}, {-6.5, -6.5}, {6.5, -6.5},
}

// PlayerStart is where player p (0-based) is dropped from.
func PlayerStart(cfg Config, p int) mgl64.Vec3 {
	if p <= 0 || p >= MaxPlayers {
		return cfg.PlayerStart
	}
	o := otherStarts[p-1]
	return cfg.PlayerStart.Add(mgl64.Vec3{o[0], o[1], 0})
}

// PlayerOf is the player (0-based) whose cube is i in a world built from
// cfg, or −1 for a grid cube: cube 0 is player 1, and players 2.. follow the
// GridSide² grid cubes.
func PlayerOf(cfg Config, i int) int {
	if i == Player {
		return 0
	}
	grid := cfg.GridSide * cfg.GridSide
	if p := i - grid; p >= 1 && p < max(cfg.Players, 1) {
		return p
	}
	return -1
}

// playerCubeOf is the cube of player p (0-based) in a world built from cfg.
func playerCubeOf(cfg Config, p int) int {
	if p <= 0 {
		return Player
	}
	return cfg.GridSide*cfg.GridSide + p
}
