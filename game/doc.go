// Package game runs a session of the demo: the left world stepped by input
// at 60 Hz, a networking strategy that turns it into packets, the simulated
// link in both directions, the right side the strategy rebuilds from what
// arrives, and the metrics that say how well it worked. It does not import
// Ebitengine: the app (package ui), the headless bench (cmd/bench) and the
// tests all drive the same Session.
//
// One Session.Step is one tick, in this order:
//
//  1. the left world steps with this tick's input and is recorded in the
//     history (so the right can later be compared with the left at the
//     moment the right is showing);
//  2. ack packets that reached the left are processed (which snapshots or
//     updates the right has, round-trip time, loss);
//  3. the strategy's sender may write a packet; its sequence number is the
//     left frame number;
//  4. packets that reached the right are decoded by the strategy's
//     receiver, which advances the right side by one tick;
//  5. the right sends an ack packet back;
//  6. the views and the metrics are updated.
//
// Nothing here reads the wall clock, iterates a map or uses a shared random
// generator: the links draw from their own seeded generators, so a session
// replays exactly from its seed and inputs.
package game
