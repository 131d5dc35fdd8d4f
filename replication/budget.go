package replication

import (
	"netcubes/cubes"
	"netcubes/wire"
)

// The budget: how many bytes a packet may carry at a bandwidth, and which
// cubes matter most before any refinement. State synchronization, the 2004
// server and the distributed-authority machines all fill their packets by
// these rules.

// BudgetBytes is the payload bytes per packet (the sequence number included,
// the IP and UDP headers not) that keeps 60 packets per second within kbps.
func BudgetBytes(kbps int) int {
	return kbps*1000/8/wire.TicksPerSecond - wire.PacketHeaderBytes
}

// BasePriority is the article's rule for how much a cube's state matters
// this tick, before any refinement: the player most, then the cubes it set
// interacting, then the rest. The 2004 server (package predict) ranks its
// updates by the same rule.
func BasePriority(left *cubes.World, i int, player, interacting, resting float64) float64 {
	switch {
	case left.IsPlayer(i):
		return player
	case left.Interacting(i):
		return interacting
	}
	return resting
}

// MinUpdateBits is the fewest bits any cube update of a world of n cubes
// takes (an index and three flag bits): once a packet has less room than
// that, nothing further down the priority order can fit.
func MinUpdateBits(n int) int { return wire.BitsRequired(0, n-1) + 3 }
