// Package snapshot is the first two strategies of netcubes: snapshot
// interpolation (the right runs no simulation and plays back snapshots of
// the whole world from an interpolation buffer, a little in the past) and
// snapshot compression (the eleven stages of "Snapshot Compression", from
// 17.37 Mbit/s to under 256 kbit/s). The catalog offers two instances, the
// starting points of the two articles (NewInterpolation, NewCompression).
//
// # Files
//
//   - level.go: the thirteen compression levels (the article's eleven and
//     two range-coded ones), what each quantizes (QuantizeCube), the
//     absolute cube encodings, and the packet layout.
//   - packet.go: Packet, one Serialize for every level, the choice between
//     changed bits and (relative) indices by measuring.
//   - delta.go: the delta encodings of levels 8-11: relative indices, delta
//     positions, delta smallest-three orientations, changed-field bits.
//   - entropy.go: levels 12 and 13, the range-coded cubes (wire/arith):
//     context models, level 13's motion prediction from two acked
//     baselines, models carried from the baseline's packet, bits charged to categories.
//   - challenge.go: the 2015 snapshot compression challenge's file layout
//     (WriteChallenge, ReadChallenge: hostile-proof), coding a file at any
//     delta level with an exact-decode check (CodeChallenge).
//   - predict.go: player-relative prediction of delta baselines (levels
//     9-13, beyond the article).
//   - interp.go: Buffer, the snapshots held by both sides (baselines, and
//     on the right the interpolation buffer), and the render modes.
//   - pool.go: the recycling of the large arrays a side keeps only while
//     they can be used (carried models, decoded poses).
//   - clock.go: Clock, the receiver's playout clock, a phase-locked loop
//     that follows the sender without jumping.
//   - config.go: Config, the live settings (rate, render mode, level,
//     delay) and their trade-offs.
//   - strategy.go: Strategy, the sender and the receiver.
//   - stats.go: the strategy's figures for the HUD and the bench.
//   - controls.go: the keys, the sub-modes, the flags, the HUD's facts line.
//   - bench.go: the bench's tables for these strategies.
//
// The tests: packet_test.go (bit-exact round trips per level, goldens in
// testdata/, bit counts), interp_test.go and clock_test.go, strategy_test.go
// (whole sessions: bandwidth, error, start-up, live settings, hostile
// packets), entropy_test.go (levels 12-13: loss and reordering in a
// session, packet independence, breakdown, allocations, the encode +
// decode benchmark), challenge_test.go (the layout, hostile files,
// FuzzReadChallenge), packet_fuzz_test.go and receive_fuzz_test.go (the read paths).
package snapshot
