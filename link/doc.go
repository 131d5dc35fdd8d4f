// Package link is the simulated network between the left and the right: a
// Link carries one direction with latency, jitter, loss, bursts (a
// good/bad-state model), duplicates, reordering, outages, a bandwidth cap
// (a bottleneck: bytes serialized at the cap's rate behind a drop-tail
// queue bounded in bytes and in time), IP fragmentation over an MTU, and a
// TCP-like mode (in order, lost packets resent late). Named presets
// (perfect, LAN, Wi-Fi, intercontinental, mobile, terrible, DSL,
// congested) set it up in one word. It counts time in simulation ticks from
// a seed and never reads the wall clock, so a run repeats exactly.
//
//   - link.go: Config, Link (Send, Receive, outages, statistics, the fate of
//     every packet for the HUD's timeline) and its design note.
//   - presets.go: the named presets.
//   - serialize.go: Config.Serialize, every field range-checked, for the
//     two-process mode.
//
// The tests: link_test.go (delays, loss rates, bursts, the cap and the
// bottleneck's delivered fraction, delay and storage, fragments, TCP-like
// ordering, determinism) and acks_test.go (wire.Endpoint's acks, RTT and
// loss measured over these links).
package link
