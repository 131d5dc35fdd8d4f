// Package link is the simulated network between the left and the right: a
// Link carries one direction with latency, jitter, loss, bursts (a
// good/bad-state model), duplicates, reordering, outages, a bandwidth cap
// (a bottleneck: bytes serialized at the cap's rate behind a drop-tail
// queue bounded in bytes and in time) whose cap may follow a schedule, IP
// fragmentation over an MTU, corruption (one bit flipped in a share of the
// datagrams) and a TCP-like mode (in order, lost packets resent late).
// Config is one direction; a Pair holds both, which may differ. Named
// presets (perfect, LAN, Wi-Fi, intercontinental, mobile, terrible, DSL,
// congested, asymmetric, bottleneck) set it up in one word. It counts time
// in simulation ticks from a seed and never reads the wall clock, so a run
// repeats exactly.
//
// A zero Config is a perfect link. Every random draw (loss, jitter,
// duplicates, bursts) comes from the link's own generator, seeded by its
// owner, so two links with the same seed and the same packets make the same
// decisions, and each direction of a session has its own. A packet's fate
// (Fate: delivered, lost, dropped by the queue or an outage, ...) is kept
// for the HUD's packet timeline.
package link
