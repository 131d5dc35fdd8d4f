package wire

import (
	"encoding/binary"
	"errors"
)

// Design note: a bitpacker writes values of any width from 1 to 32 bits back
// to back, without rounding each one up to a byte. Values collect in a 64-bit
// scratch register, filled from its low bit; each time 32 bits are complete,
// the low word is stored as 4 little-endian bytes and shifted out. The reader
// mirrors this: it loads one 32-bit word at a time into its scratch and takes
// values from the low end.
//
// Because the words are little-endian and filled from the low bit, the byte
// buffer is simply the bit stream read LSB-first, byte after byte. So a
// packet only needs ceil(bits/8) bytes; the unused high bits of its last byte
// are zero.
//
// Working a word at a time (instead of a bit at a time) costs a few
// instructions per value, which is what lets a 901-cube snapshot be written
// and read back in a few microseconds.

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

// BitWriter packs bits into a caller-provided byte buffer. The zero value has
// no buffer; call Reset. A BitWriter never allocates.
type BitWriter struct {
	buf         []byte
	scratch     uint64 // pending bits, the oldest at bit 0
	scratchBits int    // number of pending bits in scratch (0..31 between calls)
	wordOffset  int    // byte offset where the next full word goes
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
	w.put(uint32(uint64(value)&(1<<uint(bits)-1)), bits)
	return nil
}

// put appends value, which must fit in bits (1..32), after the caller has
// checked the capacity. It is small enough for the compiler to inline into
// the streams, which is what keeps a field to a few instructions.
func (w *BitWriter) put(value uint32, bits int) {
	w.scratch |= uint64(value) << uint(w.scratchBits&63)
	w.scratchBits += bits
	w.bitsWritten += bits
	if w.scratchBits >= 32 {
		w.flushWord()
	}
}

// flushWord stores the low 32 bits of scratch as the next word.
func (w *BitWriter) flushWord() {
	// The capacity check guarantees these 4 bytes are inside buf: a full
	// word means bitsWritten >= (wordOffset+4)*8, and bitsWritten <= capBits.
	binary.LittleEndian.PutUint32(w.buf[w.wordOffset:], uint32(w.scratch))
	w.wordOffset += 4
	w.scratch >>= 32
	w.scratchBits -= 32
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
func (w *BitWriter) Bytes() []byte {
	n := w.BytesWritten()
	pending := w.scratch
	for i := w.wordOffset; i < n; i++ {
		w.buf[i] = byte(pending)
		pending >>= 8
	}
	return w.buf[:n]
}

// BitReader unpacks bits from a byte slice written by a BitWriter. The zero
// value reads an empty packet. A BitReader never allocates and never reads
// outside its slice.
type BitReader struct {
	data        []byte
	scratch     uint64
	scratchBits int
	nextByte    int // offset of the next word to load
	bitsRead    int
	totalBits   int // len(data) * 8
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
	return r.take(bits), nil
}

// take returns the next bits (1..32) after the caller has checked that they
// exist.
func (r *BitReader) take(bits int) uint32 {
	if r.scratchBits < bits {
		r.loadWord()
	}
	return r.extract(bits)
}

// extract removes the low bits (1..32) of scratch, which must hold them.
// Small enough to inline into the streams.
func (r *BitReader) extract(bits int) uint32 {
	v := uint32(r.scratch & (1<<uint(bits&63) - 1))
	r.scratch >>= uint(bits & 63)
	r.scratchBits -= bits
	r.bitsRead += bits
	return v
}

// loadWord appends the next 32-bit word to scratch.
func (r *BitReader) loadWord() {
	// The last word of a packet may be short (the writer emits only
	// ceil(bits/8) bytes); its missing bytes read as zero, and the bounds
	// check in the callers keeps us from using them.
	var word uint32
	if r.nextByte+4 <= len(r.data) {
		word = binary.LittleEndian.Uint32(r.data[r.nextByte:])
	} else {
		for i := len(r.data) - 1; i >= r.nextByte; i-- {
			word = word<<8 | uint32(r.data[i])
		}
	}
	r.scratch |= uint64(word) << uint(r.scratchBits&63)
	r.scratchBits += 32
	r.nextByte += 4
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
