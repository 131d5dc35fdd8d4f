// Package net is the networking half of netcubes: everything that turns a
// simulation state into bits, carries those bits across a simulated lossy
// link, and tells the sender what arrived. It never imports Ebitengine and
// never reads the wall clock: time is always passed in by the caller as
// simulation ticks (see Tick), so a run with the same seed repeats exactly.
//
// # Layers, bottom up
//
//   - bitpacker.go: BitWriter and BitReader pack values of 1..32 bits into
//     32-bit little-endian words, filling each word from its low bit, the
//     layout of Glenn Fiedler's bitpacker.
//   - stream.go, serialize.go, category.go: the serialize-function pattern.
//     A packet type has ONE method, Serialize(s Stream) error, which the
//     WriteStream, ReadStream and MeasureStream run in three ways: write
//     bits, read bits, or only count them. Because the same code runs on
//     both sides, reading and writing cannot drift apart. Errors are sticky
//     and reading hostile bytes returns an error, never panics. Every stream
//     attributes its bits to a small fixed set of categories (header, acks,
//     position, ...) so the app can show where the bits of a packet go.
//   - quantize.go: the compression tricks shared by every strategy:
//     smallest-three quaternions, bounded positions, bounded velocities.
//   - sequence.go, acks.go: 16-bit sequence numbers that wrap, a sequence
//     buffer, and an Endpoint that acks packets with "latest + 32 earlier
//     bits", measures round-trip time, packet loss and bandwidth.
//   - link.go, presets.go, rng.go: the simulated network link with latency,
//     jitter, loss, bursts, duplicates, reordering, outages, a bandwidth cap
//     and a TCP-like mode, driven by its own seeded random generator.
//   - bandwidth.go: the 28-byte IP+UDP header that every packet pays on top
//     of its payload, and a sliding-window bandwidth meter.
//
// # Allocation rules
//
// The hot paths (serializing a packet, sending and receiving on a link,
// processing acks, metering bandwidth) do not allocate in steady state:
// streams, links and endpoints own fixed or reused storage, and slices they
// return stay valid only until the next call that says so. Decoding never
// allocates in proportion to a number read from a packet.
package net
