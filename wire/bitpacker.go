package wire

import (
	"encoding/binary"
	"errors"
)

// Design note: a bitpacker writes values of any width back to back, without
// rounding each one up to a byte. The layout is Glenn Fiedler's: values fill
// 32-bit little-endian words from the low bit. Because the words are
// little-endian and filled from the low bit, the byte buffer is simply the
// bit stream read LSB-first, byte after byte: bit k of the packet is bit k%8
// of byte k/8. So a packet only needs ceil(bits/8) bytes (the unused high
// bits of its last byte are zero), and the word size is a choice of the
// implementation, not of the format: 8 bytes stored little-endian are the
// same bytes as two 4-byte words.
//
// This implementation works 64 bits at a time, which halves the number of
// stores and lets a field of up to 64 bits (the serialize helpers pack
// three or four fields into one) go in a single step:
//
//   - The writer collects values in a 64-bit scratch register, from its low
//     bit. When a value completes the register, its 8 bytes are stored and
//     the bits of the value that did not fit start the next one. The
//     number of pending bits is always bitsWritten % 64, so that is all the
//     state there is besides the buffer.
//   - The reader keeps no scratch at all: the next field starts at bit
//     bitsRead%8 of byte bitsRead/8, so it loads the 8 bytes from there as
//     one little-endian word, shifts out the bits already read and masks
//     the field (peekBitsFast). That gives at least 57 bits. The rare
//     cases go to peekBits: a 58..64-bit field that starts late in its
//     byte takes its last bits from the ninth byte, and within 8 bytes of
//     the end of the packet the bytes left are assembled one by one. A
//     reader never touches memory outside its slice, and its callers check
//     that the bits exist before they read them (peekBitsFast's own test,
//     that the 8 bytes are in the slice, implies it).
//
// Working a word at a time (instead of a bit at a time) costs a few
// instructions per value, which is what lets a 901-cube snapshot be written
// and read back in a few tens of microseconds. The hot functions (putBits,
// peekBitsFast) are small enough for the compiler to inline into the
// streams' fast paths.

// Errors returned by the bitpacker and the streams. They are sentinel values
// (compare with errors.Is) so that failing never allocates.
var (
	// ErrOverflow: a write would pass the end of the buffer.
	ErrOverflow = errors.New("wire: write past the end of the buffer")
	// ErrEndOfData: a read would pass the end of the packet.
	ErrEndOfData = errors.New("wire: read past the end of the packet")
	// ErrValueOutOfRange: a value to write lies outside its declared range,
	// or a value read from a packet does.
	ErrValueOutOfRange = errors.New("wire: value out of range")
	// ErrBadPadding: the alignment padding read from a packet is not zero.
	ErrBadPadding = errors.New("wire: non-zero alignment padding")
	// ErrInvalidBits: a bit count outside 1..32 (a programming error).
	ErrInvalidBits = errors.New("wire: bit count must be in 1..32")
	// ErrInvalidRange: a range that is empty, not finite or wider than 32
	// bits (a programming error).
	ErrInvalidRange = errors.New("wire: invalid range")
)

// The packing itself is three functions on a byte slice and a bit position,
// used by the streams (which keep their own position, so that a field
// updates one counter, not two) and by the tests' reference bitpacker
// (BitWriter and BitReader, bitpacker_ref_test.go).

// putBits stores v, which must fit in n bits (0..64), at bit pos of buf,
// where scratch holds the pos%64 bits written since the last full word. The
// caller checks that pos+n <= len(buf)*8 and advances pos by n. Small enough
// for the compiler to inline into the streams, which is what keeps a field
// to a few instructions.
func putBits(buf []byte, scratch *uint64, pos int, v uint64, n int) {
	used := uint(pos & 63)
	*scratch |= v << used
	if int(used)+n >= 64 {
		// The register is full: store it as the word at byte pos/64*8.
		// These 8 bytes are inside buf, since the word's last bit is
		// below pos+n <= len(buf)*8. The bits of v that did not fit
		// start the next word (a shift by 64, when used is 0, gives 0
		// in Go).
		binary.LittleEndian.PutUint64(buf[pos>>3&^7:], *scratch)
		*scratch = v >> (64 - used)
	}
}

// finishBytes stores the pending bits of a writer at bit pos (scratch, the
// pos%64 bits of the last, partial word) and returns the packet,
// buf[:ceil(pos/8)].
func finishBytes(buf []byte, scratch uint64, pos int) []byte {
	n := BitsToBytes(pos)
	for i := pos >> 3 &^ 7; i < n; i++ {
		buf[i] = byte(scratch)
		scratch >>= 8
	}
	return buf[:n]
}

// peekBitsFast returns the n bits (0..64) at bit pos of data when they lie
// within the 8 bytes from byte pos/8 and those bytes are all in data: one
// load, a shift and a mask. Otherwise it returns false, and the caller
// uses peekBits. Since the 8 bytes are inside data, so is the field: a
// true result needs no separate end-of-data check. Small enough to inline.
func peekBitsFast(data []byte, pos, n int) (uint64, bool) {
	i, sh := pos>>3, pos&7
	if i+8 > len(data) || sh+n > 64 {
		return 0, false
	}
	return binary.LittleEndian.Uint64(data[i:]) >> uint(sh) & (1<<uint(n) - 1), true
}

// peekBits returns the n bits (0..64) at bit pos of data, after the caller
// has checked that they exist (pos+n <= len(data)*8). Beyond peekBitsFast's
// case, that is a field near the end of the packet, where fewer than 8
// bytes remain (they are assembled one by one, as if zeros followed them),
// or a field of more than 64-sh bits, which takes its last bits from a
// ninth byte. Both stay inside the slice because of the caller's check:
// near the end, the field lies within the bytes that remain; and sh+n > 64
// means the field ends past byte i+8, so that byte exists.
func peekBits(data []byte, pos, n int) uint64 {
	if v, ok := peekBitsFast(data, pos, n); ok {
		return v
	}
	i, sh := pos>>3, uint(pos&7)
	var v uint64
	for j := min(len(data), i+8) - 1; j >= i; j-- {
		v = v<<8 | uint64(data[j])
	}
	v >>= sh
	if int(sh)+n > 64 {
		v |= uint64(data[i+8]) << (64 - sh)
	}
	return v & (1<<uint(n) - 1) // (1<<64 is 0 in Go: 64 bits keep all)
}
