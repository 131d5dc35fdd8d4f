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
//   - stage.go: the events for the stage's caption (a correction and how
//     far it moved the player, a late input).
//
// The tests: packet_test.go (round trips, hostile bytes, fuzz targets of
// both readers and of the session both ways), strategy_test.go (whole
// sessions: perfect link, the intercontinental katamari, loss, replay
// determinism, the clock, the controls).
package predict
