package wire

// BitWriter and BitReader: a bitpacker with the API of Glenn Fiedler's
// (write and read values of 1..32 bits, align to a byte), over the packing
// functions the streams use (putBits, finishBytes, peekBits). No packet
// uses them: they are the tests' reference for the layout, and what the
// fast paths of the streams are compared and benchmarked against.

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

// Bytes stores the pending partial word and returns the packet,
// buf[:ceil(BitsWritten/8)]. It does not end the packet: writing may continue and
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
