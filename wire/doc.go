// Package wire is how netcubes turns a simulation state into bits and
// back, and tells a sender what arrived. Every strategy's packets are
// built from it. (It is not called net, so it never shadows the standard
// library.) It never imports Ebitengine and never reads the wall clock:
// time is passed in as simulation ticks (Tick), so a run with the same
// seed repeats exactly.
//
// # One Serialize for three streams
//
// A packet type has ONE method, Serialize(s Stream) error, which a
// WriteStream, a ReadStream and a MeasureStream run in three ways: write
// bits, read bits, or only count them (Glenn Fiedler's serialize
// pattern). Because the same code runs on both sides, reading and writing
// cannot drift apart, and a sender can measure an update before deciding
// to send it. Errors are sticky: after the first one every call fails, and
// the caller checks once. Reading hostile bytes returns an error, never
// panics, and never allocates in proportion to a number read from the
// packet. Underneath, the bits are packed as Glenn Fiedler's bitpacker
// packs them: 32-bit little-endian words, each filled from its low bit.
//
// Every stream attributes its bits to a small fixed set of categories
// (Category: header, acks, position, orientation, ...), so the app can
// show where the bits of a packet go (Breakdown).
//
// # Quantization
//
// The compression tricks the strategies share: bounded positions at a
// number of values per metre, bounded velocities, and smallest-three
// quaternions (the largest component dropped and rebuilt from the others).
// Quantizing is deterministic (no fused multiply-add, see quantize.go), so
// the two sides of a link that quantize the same state get the same
// integers.
//
// # Sequence numbers, acks and bandwidth
//
// Sequence numbers are 16 bits and wrap; comparisons and SequenceBuffer
// respect the wrap, and FrameOf turns a sequence back into a frame near a
// known one. An Endpoint acks received packets with "latest + 32 earlier
// bits" in every packet back (AckHeader), and measures round-trip time,
// loss and bandwidth. Every packet pays the 28 bytes of IP and UDP header
// (PacketHeaderBytes) on top of its payload; BandwidthMeter measures the
// total over a sliding window.
//
// # Allocation rules
//
// The hot paths (serializing a packet, processing acks, metering
// bandwidth) do not allocate in steady state: streams and endpoints own
// fixed or reused storage, and slices they return stay valid only until
// the next call that says so. Randomness, where needed (the link's losses,
// the tests' states), comes from a seeded RNG owned by its user, never a
// shared one.
package wire
