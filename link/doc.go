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
//   - link.go: Config, CapSchedule, Link (Send, Receive, outages,
//     statistics, the fate of every packet for the HUD's timeline) and its
//     design note.
//   - presets.go: the named presets and Pair, their two directions.
//   - serialize.go: Config.Serialize, every field range-checked, for the
//     two-process mode.
//
// The tests: link_test.go (delays, loss rates, bursts, the cap and the
// bottleneck's delivered fraction, delay and storage, fragments, TCP-like
// ordering, determinism), acks_test.go (wire.Endpoint's acks, RTT and loss
// measured over these links), oneway_test.go (the presets' two directions,
// one-way delays through two links and their sum), corrupt_test.go (one
// bit in the configured share, counted, without changing any fate) and
// schedule_test.go (a cap that steps over time).
package link
