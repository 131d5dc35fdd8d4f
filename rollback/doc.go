// Package rollback is strategy 7, rollback as GGPO made it standard:
// inputs only, as in lockstep, and nobody waits. Each machine predicts
// the inputs still on the way, and when a real one differs it restores
// its save of that frame and resimulates to the present in the same tick.
//
//   - config.go: Config (input delay, prediction window, steps a tick,
//     spectators' delay, sync test, nudge) and the build-up's steps.
//   - packet.go: InputPacket (each player's unacked inputs as far as the
//     server holds them, the left's hash) and AckPacket (per player the
//     first frame the client lacks, its own player's inputs).
//   - relay.go: the server's store of every player's inputs.
//   - machine.go: one player's machine: prediction, the saves ring,
//     rollback and resimulation, the step budget, the sync test, the hash
//     check against the left, the figures.
//   - strategy.go: the seam: sender, receiver, the machine's tick, the
//     tuned input delay, spectators, the view.
//   - join.go: a machine that joins a running session: the left's world
//     as a state transfer (package transfer), the others go on.
//   - controls.go: the D, W and O keys, the flags, the shared settings.
//   - stage.go: the facts line, the alarm and the caption's events.
//   - bench.go: the bench's "rollback" section.
package rollback
