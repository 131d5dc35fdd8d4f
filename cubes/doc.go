// Package cubes is the 901-cube katamari world of the demo, on top of
// package physics: the scene (a 1.5 m player above a 30 × 30 grid of
// 0.4 m cubes), the player's forces (move, roll, blow, katamari), the
// "interacting" state that colours cubes red and fans out from the player
// through touching cubes, and the at-rest flag.
//
// One Step is one 1/60 s tick: apply the Input's forces, step the physics,
// then update rest and interaction from the new velocities and contacts.
// Everything runs in a fixed order with no randomness, so two worlds given
// the same inputs stay bit-identical (StateHash).
//
// The networking code reads and writes the whole world's state (States,
// SetStates), and rewind and replay copy all of it, physics included
// (Save, Restore). A Script replays the same inputs frame by frame, so a
// talk forms the same katamari ball every time (a Recorder writes one from
// a live run); the Spiral presenter steers the player by code, as the
// katamari script was recorded, and drives the physics bench live.
package cubes
