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
// The left's recent past is kept (a history of its poses), so the error
// figures compare the right with the left as it was at the frame the right
// is showing, not as it is now; a packet timeline and the hardest impact of
// each tick feed the HUD and the sounds.
//
// Two processes: the same Session can run split over a real network, each
// process stepping only its half of every tick. What differs is one value,
// the session's process (process.go: the whole session in one process;
// twoproc_process.go: the left's or the right's half), built once from
// Config.Role: the tick loop, the clients and the figures ask it, and
// nothing else tests the role. The left is the
// authority over the session (epoch, frame, strategy, live settings, link
// conditions) and sends that state to the right whenever it changes; since
// the right cannot see the truth, the left also sends its quantized world
// now and then, against which the right measures its error.
//
// Several players: the session is one server world and N clients, each
// with its own links both ways, its own sequence numbers and acks, and its
// own instance of the active strategy (strategy.Strategy.Clone); client k
// owns player k, bots drive the players the presenter does not. The
// server's shared work is done once a tick, and the clients' encoding runs
// on every core with the same bits as a serial run (parallel.go); so do
// the clients' right sides, the players' machines, when the strategy says
// each touches only its own instance (parallel_receive.go). The stage's own
// figures live here too: when a figure rests on too little data to be
// shown ("measuring…"), and the caption of what just happened. The HUD
// reads one client's facts a tick (hudfacts.go: HUDFacts, which
// viewmodel.BuildHUD words), and the grid asks for up to four clients'
// views and error figures besides the shown one's (grid.go: filling a
// view only reads a strategy, so the run is the same with it).
//
// Nothing here reads the wall clock, iterates a map or uses a shared random
// generator: the links draw from their own seeded generators, so a session
// replays exactly from its seed and inputs.
package game
