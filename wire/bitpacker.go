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
// shared by BitWriter, BitReader and the streams (which keep their own
// position, so that a field updates one counter, not two).

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
	n := (pos + 7) / 8
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

// BitWriter packs bits into a caller-provided byte buffer. The zero value has
// no buffer; call Reset. A BitWriter never allocates.
type BitWriter struct {
	buf         []byte
	scratch     uint64 // the bitsWritten%64 pending bits, the oldest at bit 0
	bitsWritten int
	capBits     int // len(buf) * 8
}

// NewBitWriter returns a writer over buf; it may write up to len(buf) bytes.
func NewBitWriter(buf []byte) BitWriter {
	var w BitWriter
	w.Reset(buf)
	return w
}

// Reset starts writing again at the start of buf.
func (w *BitWriter) Reset(buf []byte) {
	*w = BitWriter{buf: buf, capBits: len(buf) * 8}
}

// WriteBits appends the low `bits` bits of value (bits in 1..32). Bits of
// value above that width are ignored. It returns ErrOverflow, writing
// nothing, when the buffer is full, and ErrInvalidBits for a bad width.
func (w *BitWriter) WriteBits(value uint32, bits int) error {
	if bits < 1 || bits > 32 {
		return ErrInvalidBits
	}
	if w.bitsWritten+bits > w.capBits {
		return ErrOverflow
	}
	w.put(uint64(value)&(1<<uint(bits)-1), bits)
	return nil
}

// put appends value, which must fit in bits (0..64), after the caller has
// checked the capacity.
func (w *BitWriter) put(value uint64, bits int) {
	putBits(w.buf, &w.scratch, w.bitsWritten, value, bits)
	w.bitsWritten += bits
}

// AlignBits returns how many zero bits WriteAlign would add (0..7).
func (w *BitWriter) AlignBits() int { return (8 - w.bitsWritten%8) % 8 }

// WriteAlign pads with zero bits up to the next byte boundary.
func (w *BitWriter) WriteAlign() error {
	if n := w.AlignBits(); n > 0 {
		return w.WriteBits(0, n)
	}
	return nil
}

// BitsWritten is the number of bits written since Reset.
func (w *BitWriter) BitsWritten() int { return w.bitsWritten }

// BitsAvailable is the number of bits that still fit in the buffer.
func (w *BitWriter) BitsAvailable() int { return w.capBits - w.bitsWritten }

// BytesWritten is the packet size in bytes: ceil(BitsWritten / 8).
func (w *BitWriter) BytesWritten() int { return (w.bitsWritten + 7) / 8 }

// Bytes stores the pending partial word and returns the packet,
// buf[:BytesWritten()]. It does not end the packet: writing may continue and
// Bytes may be called again. The slice aliases the caller's buffer.
func (w *BitWriter) Bytes() []byte { return finishBytes(w.buf, w.scratch, w.bitsWritten) }

// BitReader unpacks bits from a byte slice written by a BitWriter. The zero
// value reads an empty packet. A BitReader never allocates and never reads
// outside its slice.
type BitReader struct {
	data      []byte
	bitsRead  int
	totalBits int // len(data) * 8
}

// NewBitReader returns a reader over data.
func NewBitReader(data []byte) BitReader {
	var r BitReader
	r.Reset(data)
	return r
}

// Reset starts reading data from its first bit.
func (r *BitReader) Reset(data []byte) {
	*r = BitReader{data: data, totalBits: len(data) * 8}
}

// ReadBits returns the next `bits` bits (1..32). It returns ErrEndOfData,
// consuming nothing, when fewer bits remain, and ErrInvalidBits for a bad
// width.
func (r *BitReader) ReadBits(bits int) (uint32, error) {
	if bits < 1 || bits > 32 {
		return 0, ErrInvalidBits
	}
	if r.bitsRead+bits > r.totalBits {
		return 0, ErrEndOfData
	}
	v := peekBits(r.data, r.bitsRead, bits)
	r.bitsRead += bits
	return uint32(v), nil
}

// AlignBits returns how many padding bits ReadAlign would consume (0..7).
func (r *BitReader) AlignBits() int { return (8 - r.bitsRead%8) % 8 }

// ReadAlign skips to the next byte boundary. The padding must be zero, as a
// BitWriter writes it; anything else returns ErrBadPadding, which catches a
// reader that has drifted out of step with the writer.
func (r *BitReader) ReadAlign() error {
	n := r.AlignBits()
	if n == 0 {
		return nil
	}
	v, err := r.ReadBits(n)
	if err != nil {
		return err
	}
	if v != 0 {
		return ErrBadPadding
	}
	return nil
}

// BitsRead is the number of bits consumed since Reset.
func (r *BitReader) BitsRead() int { return r.bitsRead }

// BitsRemaining is the number of bits left in the packet.
func (r *BitReader) BitsRemaining() int { return r.totalBits - r.bitsRead }
