// Package playout holds the playout clock (Clock): a receiver's estimate of
// which sender frame to show now, a little in the past, following the
// packets' arrival times like a phase-locked loop so the view never jumps
// per packet. Snapshot interpolation plays its snapshots back by it, and
// the 2004 client draws the other players by it.
package playout
