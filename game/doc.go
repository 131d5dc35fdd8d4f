// Package game runs a session of the demo: the left world stepped at
// 60 Hz, the active networking strategy (one of a list, see package
// catalog) that turns it into packets, the simulated link in both
// directions, the right side the strategy rebuilds from what arrives, and
// the metrics that say how well it worked. It does not import Ebitengine:
// the app (package ui), the headless bench (cmd/bench) and the tests all
// drive the same Session.
//
// One Session.Step is one tick, in this order:
//
//  1. packets that reached the left are read: a strategy's own data from
//     the right (strategy.TwoWay: a client's inputs) goes to the strategy
//     at once, the ack headers wait for step 3;
//  2. the left world steps with this tick's input: the presenter's, or for
//     a strategy whose right owns the player (strategy.RightDriven) the
//     input that crossed the link; it is recorded in the history (so the
//     right can later be compared with the left at the moment the right is
//     showing);
//  3. the acks are processed (which snapshots or updates the right has,
//     round-trip time, loss);
//  4. the strategy's sender may write a packet; its sequence number is the
//     left frame number;
//  5. packets that reached the right are decoded by the strategy's
//     receiver, which advances the right side by one tick;
//  6. the right sends an ack packet back, carrying the strategy's own data
//     for the left when it has some;
//  7. the views and the metrics are updated.
//
// Files: session.go (Config, Session, Step, sending and the metrics),
// context.go (the session as a strategy sees it), history.go (the left's
// recent past, for the error figures), timeline.go (the HUD's packet
// timeline), impact.go (the hardest impact of a step, for the sounds),
// figures.go (when a figure rests on too little to be shown: the HUD's
// "measuring…"), caption.go (the stage's caption of what just happened,
// from the strategies' events and the session's own), fence.go (the
// field's edge for the presenter's keys).
// The tests: session_test.go (framing, acks, metrics, two-way strategies),
// stage_test.go (mode switches that start clean, links restored, figures
// measuring, the lag, captions, the fence)
// and hostile_test.go (hostile sequence numbers and ack packets, and the
// fuzz targets of the session's two read paths, through internal/fuzzutil).
//
// Nothing here reads the wall clock, iterates a map or uses a shared random
// generator: the links draw from their own seeded generators, so a session
// replays exactly from its seed and inputs.
package game
