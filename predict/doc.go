// Package predict is the fifth strategy: "Networked Physics (2004)". The
// left is the server, authoritative for everything; the right is the client
// and owns the player: the presenter's keys drive the right, whose
// time-stamped inputs cross the link (redundantly) to the server. The
// server steps once per tick with the input for that frame (late ones are
// dropped and counted) and broadcasts its state and the inputs it used. The
// client predicts its player at once, keeps a ring of moves, and on a
// correction beyond a threshold rewinds to the server's state and replays
// the moves; it runs ahead of the server by about half a round trip plus a
// jitter margin so its inputs arrive in time. Five sub-modes walk the
// article: no prediction, prediction without correction, rewind and replay,
// + smoothing, and the katamari limit with its two ways out (replay the
// whole world, or predict the player alone).
//
// # Files
//
//   - config.go: Config and DefaultConfig (every tunable with its unit and
//     trade-off, the correction threshold and why), the sub-modes, the
//     replay scopes, the smoothings, Settings.
//   - packet.go: InputPacket (client → server, every unacked input up to a
//     second) and ServerPacket (acked input, the early/late report, and
//     state synchronization's packet: cube states and the server's inputs).
//   - server.go: the left: input buffer by frame, late and missing inputs,
//     the report, the priority-filled state packet with the player first.
//   - client.go: the right: the clock running ahead (±25 %), the predicted
//     steps, the move and saved-world rings, rewind and replay, the mirror
//     of the server, the input-to-motion delay.
//   - strategy.go: Strategy (the session's interfaces), Stats, the view with
//     its marks (the server's last pose, a replay's jump).
//   - controls.go: the keys, the sub-modes, the flags, the facts line, the
//     settings shared with a right process.
//   - bench.go: the prediction section of the bench.
//
// With several players (each client owns one; the others are other
// people's):
//
//   - others.go: how a client draws the other players (`I`: as it arrives,
//     interpolated on the snapshot playout clock, extrapolated for 0.25 s at
//     most, predicted with their last inputs inside the rewind-and-replay,
//     the 2004 pull), their states by server frame, their proxies in the
//     predicting world and in replays.
//   - others_config.go: the drawing modes, OthersSettings, OthersConfig.
//   - others_figures.go: the drawn other players against the server's truth
//     at the frame they represent, the delay, the jitter, the contacts.
//   - others_view.go: where the View draws them, the truth and dispute
//     marks.
//   - others_controls.go: their keys (I, D, C, Slash), the facts and Mode
//     text.
//   - tag.go: tags in the input packet, the server's verdicts with and
//     without lag compensation, in the server packet; the client's tally
//     and disputed tags.
//   - truth.go: the server's history of every player's state (the rewind of
//     lag compensation; the truth of the figures, in one process).
//   - bench_others.go: the "other players" section of the bench.
//
// The tests: packet_test.go (round trips, hostile bytes, fuzz targets of
// both readers, with and without other players, and of the session both
// ways, with one player and with three), strategy_test.go (whole sessions:
// perfect link, the intercontinental katamari, loss, replay determinism,
// the clock, the controls), others_test.go (interpolation exactly the
// delay in the past and never beyond what it holds, extrapolation stopping
// at 0.25 s, two-player determinism, player 2's own prediction), tag_test.go
// (lag compensation's agreement).
package predict
