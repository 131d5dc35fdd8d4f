// Package snapshot is the first two strategies of netcubes: snapshot
// interpolation (the right runs no simulation and plays back snapshots of
// the whole world from an interpolation buffer, a little in the past) and
// snapshot compression (the eleven stages of "Snapshot Compression", from
// 17.37 Mbit/s to under 256 kbit/s, and two stages beyond the article).
// The catalog offers two instances, the starting points of the two
// articles (NewInterpolation, NewCompression). Each entry also has its
// original demo's six modes on `[`/`]` once F2 switches to them, each with
// its settings and link conditions (strategy.LinkChooser): the snapshot
// demo's (OriginalModes) on the interpolation entry, among them the
// original's hermite extrapolation (RenderHermiteAhead), and the
// compression demo's (CompressionModes) on the compression entry, among
// them level 3 without its at-rest bit (Config.AtRestFlag).
//
// # Quantize first
//
// A snapshot is every cube as a Level puts it on the wire (Cube): the
// sender quantizes first and sends exactly what the receiver rebuilds, so
// both agree to the bit on every snapshot, and the right view shows the
// artefacts of the level in use. The thirteen levels are cumulative: each
// adds one trick to the one before (level.go has the table of tricks and
// bits per cube).
//
// # Baselines
//
// From level 6 a Packet is encoded against a baseline: the newest
// snapshot the right acked, or the initial state both sides know. Both
// sides keep recent snapshots (Buffer, which on the right is also the
// interpolation buffer), and a packet names its baseline; a receiver that
// no longer holds it refuses the packet rather than guess. One Serialize
// writes, reads and measures every level; a map at the top of packet.go
// says which function writes which part of the packet. Large arrays (the
// carried models of levels 12-14, decoded poses) are kept only for the
// snapshots that can still become a baseline or be drawn, and recycled
// (pool.go), so the memory stays flat whatever the level.
//
// # Prediction and range coding (beyond the article)
//
// A cube near the player can be coded against where the player's motion
// since the baseline carried it (levels 9-14, Config.PlayerPrediction). At
// levels 12 to 14 every decision is range-coded with adaptive context
// models whose state starts where the baseline's packet ended, level 13
// also predicts each cube along its own motion between two acked
// baselines, and level 14 turns a ball cube's predicted orientation by its
// decoded position's miss (entropy14.go). Encoder and decoder must predict alike to the bit, so the
// predictions use integers, or floats with every product rounded on its
// own (geom.QuatMul, geom.Rotate). The reasoning and the figures:
// docs/design.
//
// # Playback
//
// The right draws the world a delay behind the newest frame it expects
// (Config.DelayTicks: about three send intervals, so two lost packets in a
// row still leave one to move toward), sampled from the buffer by a
// RenderMode (latest, linear, hermite, extrapolation). Its clock (playout.Clock) follows
// the sender's frames like a phase-locked loop: gently, never jumping per
// packet.
//
// # The challenge layout
//
// WriteChallenge and ReadChallenge speak the file layout of the 2015
// snapshot compression challenge, so the same frames can be coded here
// (CodeChallenge, at any delta level, checking every decode) and by the
// challenge's public coders. Reading a file is hostile-proof.
package snapshot
