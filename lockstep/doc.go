// Package lockstep is strategy 4, deterministic lockstep: only inputs
// cross the link, and the right runs the same bit-exact simulation,
// waiting for every input (see strategy.go's design note).
//
//   - config.go: Config (window, catch-up, when the non-deterministic mode
//     perturbs) and the seven network modes of the original demo, with the
//     article's video's 2 s / 25 % as an eighth.
//   - packet.go: InputPacket (every unacked input, a changed bit per
//     repeated input, the left's state hash) and AckPacket (the first
//     frame the right lacks), each with one Serialize.
//   - strategy.go: the sender, the waiting right with its playout clock,
//     catch-up and stall figures, desync detection, the view and facts.
//   - join.go: a right that joins a running session: the left's world as
//     a state transfer (package transfer), the other rights go on.
//   - controls.go: the D key, the -lockstep-mode and -lockstep-delay
//     flags, and the settings a right process takes from the left.
//   - stage.go: what lockstep tells the stage: a mode step starts both
//     sides over (strategy.Restarter), a desync is an alarm, stalls and
//     desyncs are events for the caption.
//   - bench.go: the bench's lockstep table, one row per mode.
package lockstep
