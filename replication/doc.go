// Package replication holds the parts that several strategies use to send
// cube state, so that a strategy imports shared parts and never another
// strategy:
//
//   - the state update packet of state synchronization (Packet,
//     StateUpdate, QuantizedCubeState, History): the sender's recent
//     inputs and a few cubes' states, quantized to the grid both worlds
//     snap to, optionally relative to the player and delta-encoded against
//     acked bases;
//   - the priority accumulator (PriorityAccumulator): every cube is owed
//     its priority each tick and the most owed are sent first;
//   - the byte budget and the base priority rule (BudgetBytes,
//     BasePriority, MinUpdateBits);
//   - the visual smoother (Smoother): error offsets that keep a corrected
//     cube's drawn pose still, then fade.
//
// State synchronization (package statesync), the 2004 server and client
// (package predict) and the distributed-authority machines (package
// authority) build on them.
package replication
