// Package arith is an adaptive binary range coder with the small context
// models snapshot level 12 and 13 are built from. It sits under wire/ and
// imports nothing of netcubes: bytes in, bits out.
//
// # Files
//
//   - coder.go: Encoder and Decoder, a carry-propagating binary range coder
//     (the scheme of LZMA's "rc": 32-bit range, 12-bit probabilities),
//     equiprobable "direct" bits, the information-content bookkeeping the
//     snapshot packet uses to charge coded bytes to bit categories, and the
//     strict end-of-stream check that refuses truncated or padded input.
//   - model.go: the models: Prob (one adaptive binary probability), bit trees
//     (a small integer as a path of binary decisions) and the signed
//     exp-Golomb model (zero? sign, magnitude class by bit tree, top
//     mantissa bits modelled, the rest direct).
//
// The tests: coder_test.go (round trips of random symbol streams, the
// flush length, hostile and truncated input, cost accounting,
// benchmarks) and fuzz_test.go (FuzzArith: any bytes as a symbol program
// round-trip exactly, and any bytes as a coded stream decode without panic).
package arith
