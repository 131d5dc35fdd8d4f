// Package arith is an adaptive binary range coder with the small context
// models snapshot levels 12 and 13 are built from. It sits under wire/ and
// imports nothing of netcubes: bytes in, bits out.
//
// # The coder
//
// An Encoder spends −log2(p) bits on a decision of probability p,
// fractions of a bit included, where a bit-packed field costs whole bits
// whatever its value. Every symbol is a yes/no decision with its own
// probability (the scheme of LZMA's coder: a 32-bit range, 12-bit
// probabilities, carries propagated into the bytes already written);
// larger values are sequences of decisions. The Decoder refuses truncated
// or padded input instead of decoding garbage, and both sides keep the
// information content of each decision per tag, so a packet can charge its
// coded bytes to bit categories.
//
// # The models
//
// A Prob is one adaptive probability: it learns from the decisions it
// codes, at two rates at once (a fast and a slow estimate, averaged). A
// bit tree codes a small integer as a path of decisions, and a Golomb
// model a signed integer whose size varies over orders of magnitude (zero?
// sign, size class, the top bits below the leading one modelled, the rest
// equiprobable). A Mixer combines the predictions of several models of the
// same decision (logistic mixing, weights learnt online), so that a fine
// context and a coarse one can both be used without either diluting the
// other. Everything is integer arithmetic, so encoder and decoder agree to
// the bit on every machine.
package arith
