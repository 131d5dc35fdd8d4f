// Package statesync is the third strategy: state synchronization. Both
// sides simulate; each packet carries the left's recent inputs and the
// state of the cubes that matter most, chosen by a priority accumulator
// within a byte budget; the right holds packets in a jitter buffer, snaps
// its simulation to each update and hides the corrections with visual
// smoothing. The presenter walks the article's build-up in eight steps.
//
// # Files
//
//   - packet.go: Packet, the inputs and cube updates on the wire (raw or
//     quantized, delta-encoded against acked bases), and History, the
//     sender's and receiver's record of acked states.
//   - priority.go: PriorityAccumulator.
//   - jitter.go: JitterBuffer, packets held until their frame comes up.
//   - playout.go: PlayoutClock, which frame that is.
//   - smoothing.go: the visual smoothing error offsets (none, basic,
//     adaptive).
//   - strategy.go: Settings (the build-up), Config, Strategy and the view.
//   - send.go: the left: quantize, prioritize, fill the budget, send.
//   - recv.go: the right: decode, jitter buffer, inputs, apply, step.
//   - controls.go: the keys, the sub-modes, the flags, the HUD's facts line.
//   - stage.go: a step down the build-up restarts the right from the
//     left's state (strategy.Restarter).
//   - bench.go: the bench's tables.
//
// The tests: packet_test.go (round trips, goldens in testdata/, fuzz),
// priority_test.go, jitter_test.go, smoothing_test.go, strategy_test.go
// (whole sessions: budget, coverage, error, outages, live changes, the
// controls; FuzzStateSyncReceive, the right's read path through
// internal/fuzzutil), bench_test.go (the frame's cost).
package statesync
