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
// # The two packets
//
// An InputPacket (client → server) carries every input the server has not
// acked, up to a second of them, so a lost packet loses nothing. A
// ServerPacket carries the newest input the server acked, whether the
// client's inputs arrive early or late (so the client can adjust how far
// ahead it runs), and state synchronization's cube updates, the player
// first, with the inputs the server stepped with.
//
// With several players each client owns one and predicts it; the server
// keeps each client's input stream and clock report apart. How a client
// draws the OTHER players is a setting (I): as their state arrives,
// interpolated a fixed time in the past on the snapshot playout clock
// (seeds/001), extrapolated for at most 0.25 s, predicted with their last
// known inputs inside the rewind-and-replay, or pulled toward the server
// by the article's 2004 rule; each is measured against the server's state
// at the frame it stands for. A tag (/) names the nearest other player as
// the client sees it; the server judges it at its present and rewound by
// the client's latency and interpolation delay (lag compensation).
//
// # The client
//
// The client keeps two rings: its moves (frame, input, predicted state)
// and saved worlds to rewind to. A server state that differs from the
// saved move beyond the correction threshold (Config) rewinds the world to
// it and replays the stored moves; the drawn pose follows the correction by
// the article's rule (snap beyond 2 m, move 10 % of the way beyond 10 cm,
// else nothing). Its clock runs
// ahead of the server by about half a round trip plus a jitter margin,
// nudged by the server's early/late report. In the katamari sub-mode the
// replay either re-simulates the whole world (the cubes the player pushes
// included) or the player alone: the cost of one against the error of the
// other.
package predict
