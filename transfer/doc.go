// Package transfer sends a world from the left to a right that joins a
// running session, in pieces inside the strategy's own packets: the state
// transfer of lockstep and rollback, whose rights would otherwise have to
// start the world over with everyone else.
//
// The world goes exactly as the sender's save holds it (cubes.Saved as
// bytes: every float's 64 bits, every contact's warm start), compressed
// with DEFLATE (lossless: the rolling katamari ball's 236 kB become 108 kB,
// the grid at rest 8 kB), cut into fragments of Config.FragmentBytes. The
// left puts one fragment in each packet (Piece) until the right has them
// all; the right says which it holds in its acks (Ack, a bit per
// fragment), and a fragment not acked within a round trip goes again. A
// lost packet costs one fragment's resend, never the whole transfer.
//
// Everything read is checked: a piece's sizes and index against the
// bounds below, and the whole, once complete, by cubes.World.DecodeSaved,
// which refuses bytes that are not a world this right can run.
//
//   - transfer.go: Config, Compress and Decompress, Piece (a fragment in
//     a left packet) and Ack (a right's word, a bit per fragment), each
//     with one Serialize, and the optional forms a packet carries.
//   - ends.go: the left's Sender (which fragment goes this tick) and the
//     right's Receiver (putting them together).
//   - world.go: the world at each end: SendWorld saves and compresses the
//     left's, Joining follows a transfer and restores the right's.
package transfer
