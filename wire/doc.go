// Package wire is how netcubes turns a simulation state into bits and
// back, and tells a sender what arrived: bit streams, the serialize
// pattern, quantizers, sequence numbers and acks. Every strategy's packets
// are built from it. (It is not called net, so it never shadows the
// standard library.) It never imports Ebitengine and never reads the wall
// clock: time is passed in as simulation ticks (see Tick), so a run with
// the same seed repeats exactly.
//
// # Files, bottom up
//
//   - bitpacker.go: BitWriter and BitReader pack values of 1..32 bits into
//     32-bit little-endian words, filling each word from its low bit, the
//     layout of Glenn Fiedler's bitpacker (the code moves 64 bits at a
//     time, which gives the same bytes).
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
//   - bandwidth.go: the 28-byte IP+UDP header that every packet pays on top
//     of its payload, and a sliding-window bandwidth meter.
//   - tick.go: Tick, the simulation's only clock (1/60 s steps).
//   - rng.go: a small seeded generator (the link's losses, the tests'
//     random states): never a shared one, so runs repeat.
//
// The tests: fixtures_test.go (the sample and cube packets the tests,
// fuzz targets and benchmarks share), golden_test.go (the sample packet's
// bytes pinned in testdata/), fuzz_test.go (the read paths),
// fastpath_test.go (the streams' fast paths against a bit-at-a-time
// reference and the plain interface path), bench_test.go (a 901-cube
// packet written and read).
//
// # Allocation rules
//
// The hot paths (serializing a packet, processing acks, metering
// bandwidth) do not allocate in steady state: streams and endpoints own
// fixed or reused storage, and slices they return stay valid only until
// the next call that says so. Decoding never allocates in proportion to a
// number read from a packet.
package wire
