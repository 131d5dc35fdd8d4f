package statesync

import (
	"netcubes/cubes"
	"netcubes/geom"
	"netcubes/strategy"
)

// Design note: relevance per client. The article's priorities say what
// matters in the world (the player, the cubes it touches), the same for
// every client; a server with several clients knows more: a cube next to
// a client's own player is what that client looks at and pushes, a cube
// across the field matters less to it. With Relevance on, each client's
// sender (each client has its own accumulator) scales every other cube's
// priority by its nearness to that client's player, as Unity's
// importance scaling does: full within RelevanceRadius, then
// (RelevanceRadius / distance)², never below RelevanceFloor (so every cube
// is still sent now and then; the starvation rule still lifts a cube that
// waited 5 s). Measured (bench "relevance per client", and
// TestRelevanceLowersTheErrorNearEachPlayer): three players on the 901-cube
// world, the error of the cubes near each client's player roughly halves.
// On a 145-cube world it did not: 12 m across, every player is near every
// pile, and what relevance takes from the far field is not what the near
// field lacks (the plain RelevanceRadius / distance did no better there). The budget does not grow: the updates move
// toward each client's own neighbourhood, and away from the far field.
//
// A spectator (no player) keeps the world's priorities.

// RelevanceKey toggles relevance.
const RelevanceKey = "R"

// Relevance tunables.
const (
	// RelevanceRadius (m): cubes this close to the client's player keep
	// their whole priority; beyond, it falls as (radius / distance)². Larger
	// spreads the budget over more of the world.
	RelevanceRadius = 4.0
	// RelevanceFloor is the least share of its priority a far cube keeps
	// (at 40 m and beyond): higher keeps the far field fresher.
	RelevanceFloor = 0.01
)

// relevance is the share of its priority cube i keeps for the client
// whose player's cube is me.
func relevance(left *cubes.World, i, me int) float64 {
	d := geom.Len(left.Cube(i).Position.Sub(left.Cube(me).Position))
	if d <= RelevanceRadius {
		return 1
	}
	r := RelevanceRadius / d
	return max(r*r, RelevanceFloor)
}

// weigh scales priority p of cube i by its relevance to this client, when
// the setting is on and the client has a player.
func (s *stateSyncSender) weigh(st *Strategy, left *cubes.World, i int, p float64) float64 {
	if !st.set.Relevance || s.me < 0 || left.IsPlayer(i) {
		return p
	}
	return p * relevance(left, i, s.me)
}

// relevanceControl is R.
func (st *Strategy) relevanceControl() strategy.Control {
	return st.toggle(RelevanceKey, "relevance", "priorities weighted by distance to each client's player on / off",
		func(s *Settings) *bool { return &s.Relevance })
}

// relevanceFlag is -relevance.
func (st *Strategy) relevanceFlag() strategy.Flag {
	return strategy.ChoiceFlag("relevance", "state sync: priorities weighted by distance to each client's player, on or off", []string{"on", "off"},
		func(i int) {
			s := st.set
			s.Relevance = i == 0
			st.SetSettings(s)
		})
}
