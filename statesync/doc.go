// Package statesync is the third strategy: state synchronization. Both
// sides simulate; each packet carries the left's recent inputs and the
// state of the cubes that matter most; the right runs its own world a few
// frames behind, steps it with the left's inputs and snaps the cubes it
// hears about to the state it was sent. Between updates its own simulation
// fills in, which is why a few dozen updates per packet are enough for 901
// cubes. The presenter walks the article's build-up in eight cumulative
// steps (StepSettings), each also a setting of its own (Settings); F2
// switches `[`/`]` to the original demo's six modes instead (OriginalModes),
// each with its link conditions (strategy.LinkChooser).
//
// # Choosing what to send
//
// Every tick each cube's priority (the player most, then the cubes it set
// interacting, then the rest) is added to its replication.PriorityAccumulator; the
// sender walks the cubes in order of accumulated priority, measures each
// update and takes it only while the packet fits its byte budget (from the
// bandwidth limit), and resets the accumulators of the cubes it sent. A
// cube that does not fit keeps its priority and comes first next time, so
// every cube is eventually sent. A server does this for every client every
// tick, so a nearly full packet does not measure the cubes that cannot fit:
// each cube's kind (at rest or moving, near the player, with a delta base
// or not) bounds its smallest update, and the walk passes over the kinds
// whose bound no longer fits, which chooses exactly the same updates.
//
// Beyond the article: congestion avoidance moves the budget with what the
// path carries (package adapt), and the jitter buffer can be sized from
// the jitter measured; a step down the build-up restarts the right from
// the left's state, so each step shows its own error.
//
// # On the wire
//
// A replication.Packet carries the last inputs redundantly (a lost packet loses no
// input) and cube updates: float32s, or quantized to the grid both worlds
// snap to ("quantize both sides"), positions near the player relative to
// it, and each update delta-encoded against the newest acked packet that
// carried the cube (replication.History keeps what each side needs to agree on those
// bases). A cube that came to rest is resent until a packet carrying it at
// rest is acked (the at-rest commit).
//
// # On the right
//
// A JitterBuffer holds packets until their frame comes up on the
// PlayoutClock, so updates apply evenly despite jitter; each update snaps
// the physics state hard (blending it instead is the mistake the article
// warns about), and visual smoothing (replication.Smoother: error offsets that fade,
// adaptively by the error's size) hides the jumps without touching the
// simulation.
package statesync
