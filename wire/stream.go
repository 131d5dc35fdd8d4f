package wire

import (
	"math"
	"math/bits"
)

// Design note: the serialize-function pattern (Glenn Fiedler, "Serialization
// Strategies"). Instead of a Write and a Read function per packet type, which
// sooner or later disagree, a packet has ONE method:
//
//	func (p *Packet) Serialize(s wire.Stream) error
//
// that calls helpers such as SerializeInt(s, &p.Count, 0, 64). On a
// WriteStream the helper writes the field; on a ReadStream it fills it in; on
// a MeasureStream it only counts the bits the field would take, which is how
// a sender sizes a packet against a budget before writing it. Packet code that
// must differ per direction asks s.IsWriting() / s.IsReading() /
// s.IsMeasuring(), e.g. to compute a flag from the state before writing it.
//
// The interface moves values, not pointers: SerializeUint takes the value to
// write and returns the value read. Passing a pointer through an interface
// method makes Go's escape analysis move the pointed-to variable to the heap,
// which would cost an allocation per field; passing values costs none. The
// generic helpers in serialize.go hide this and give packet code the familiar
// pointer style.
//
// Speed: the three streams are thin types around one concrete engine,
// bitStream, and the helpers reach it with a type switch (three pointer
// comparisons) instead of a dynamic interface call per field. Indirect calls
// are slow on CPUs with Spectre mitigations, and a 901-cube snapshot has
// over 7,000 fields. The bit packing is written out in two hub functions
// (serialize for one ranged field, serializeRaw for up to 64 raw bits), so a
// field costs a single ordinary call, and the quaternion and position
// helpers pack their three or four fields into one call. Any other Stream
// implementation still works, through its SerializeUint method, and produces
// the same bits.
//
// Errors are sticky: the first failure is remembered and every later call
// returns it without touching the buffer, so packet code can check errors
// field by field (return early) or only once at the end, and a reader fed
// garbage stops cleanly at the first bad field.
//
// Streams are meant to be reused: keep one per direction and Reset it for each
// packet; that is what makes serialization allocation-free.

// Stream is what a Serialize method talks to. WriteStream, ReadStream and
// MeasureStream implement it.
type Stream interface {
	// IsWriting reports whether this stream writes bits (WriteStream).
	IsWriting() bool
	// IsReading reports whether this stream reads bits (ReadStream). Only
	// then do serialize helpers store into their destination.
	IsReading() bool
	// IsMeasuring reports whether this stream only counts bits
	// (MeasureStream).
	IsMeasuring() bool

	// SerializeUint is the one primitive a Stream provides; every helper
	// reduces its fields to it (the built-in streams take a faster path to
	// the same bits). It processes an integer in [0, max] using exactly
	// bits.Len32(max) bits (zero bits when max is 0).
	//   - Writing and measuring: value is written or counted and returned;
	//     value > max fails with ErrValueOutOfRange.
	//   - Reading: value is ignored; the value read is returned, and a value
	//     read above max fails with ErrValueOutOfRange.
	// After an error it returns 0 and the sticky error.
	SerializeUint(value, max uint32) (uint32, error)

	// SerializeAlign moves to the next byte boundary: zero padding is
	// written, checked on read (ErrBadPadding), and counted when measuring.
	// Padding bits are charged to CategoryOther.
	SerializeAlign() error

	// SetCategory charges the bits of the following fields to c, for the
	// bit-budget breakdown. An invalid category is treated as CategoryOther.
	SetCategory(c Category)
	// Category returns the category currently charged.
	Category() Category
	// BitsProcessed is the number of bits written, read or counted since
	// Reset.
	BitsProcessed() int
	// Breakdown returns the bits processed so far per category; their total
	// equals BitsProcessed.
	Breakdown() Breakdown

	// Err returns the sticky error, or nil.
	Err() error
	// Fail records err as the sticky error if there is none yet (packet
	// code uses it to reject values that pass the range check but break a
	// rule of the format) and returns the sticky error. Fail(nil) only
	// returns the current error.
	Fail(err error) error
}

// streamMode says what a bitStream does with each field.
type streamMode uint8

const (
	modeWrite streamMode = iota
	modeRead
	modeMeasure
)

// bitStream is the engine shared by WriteStream, ReadStream and
// MeasureStream: the sticky error, the bit accounting and, depending on the
// mode, a BitWriter or a BitReader.
//
// Bits are charged to categories lazily: a field only adds to bits, and the
// bits since the last SetCategory (catStart) are settled into the breakdown
// when the category changes. That keeps the per-field work to one addition.
type bitStream struct {
	mode      streamMode
	category  Category
	err       error
	bits      int
	catStart  int       // value of bits at the last category change
	breakdown Breakdown // settled counts, excluding bits since catStart
	w         BitWriter
	r         BitReader
}

func (b *bitStream) reset(mode streamMode) {
	b.mode = mode
	b.category = CategoryOther
	b.err = nil
	b.bits = 0
	b.catStart = 0
	b.breakdown = Breakdown{}
}

// settle charges the bits since the last category change to the current
// category.
func (b *bitStream) settle() {
	b.breakdown[b.category] += b.bits - b.catStart
	b.catStart = b.bits
}

func (b *bitStream) IsWriting() bool   { return b.mode == modeWrite }
func (b *bitStream) IsReading() bool   { return b.mode == modeRead }
func (b *bitStream) IsMeasuring() bool { return b.mode == modeMeasure }

func (b *bitStream) SerializeAlign() error {
	if b.err != nil {
		return b.err
	}
	n := (8 - b.bits%8) % 8
	if n == 0 {
		return nil
	}
	switch b.mode {
	case modeWrite:
		if err := b.w.WriteBits(0, n); err != nil {
			b.err = err
			return err
		}
	case modeRead:
		if err := b.r.ReadAlign(); err != nil {
			b.err = err
			return err
		}
	}
	b.settle()
	b.bits += n
	b.breakdown[CategoryOther] += n
	b.catStart = b.bits
	return nil
}

func (b *bitStream) SetCategory(c Category) {
	if int(c) >= NumCategories {
		c = CategoryOther
	}
	if c != b.category {
		b.settle()
		b.category = c
	}
}

func (b *bitStream) Category() Category { return b.category }
func (b *bitStream) BitsProcessed() int { return b.bits }
func (b *bitStream) Err() error         { return b.err }

func (b *bitStream) Breakdown() Breakdown {
	out := b.breakdown
	out[b.category] += b.bits - b.catStart
	return out
}

func (b *bitStream) Fail(err error) error {
	if b.err == nil {
		b.err = err
	}
	return b.err
}

// serialize is the hub every serialize helper calls: it processes u, an
// offset in [0, d], on s, and returns the offset written, counted or read.
// For the three built-in streams it does all the work here, with the bit
// packing written out inline, so that a field costs a single function call;
// any other Stream goes through its SerializeUint method.
func serialize(s Stream, u, d uint64) (uint32, error) {
	var b *bitStream
	// A type switch on concrete types compares the interface's type word
	// with three constants: far cheaper than a dynamic call.
	switch st := s.(type) {
	case *WriteStream:
		b = &st.bitStream
	case *ReadStream:
		b = &st.bitStream
	case *MeasureStream:
		b = &st.bitStream
	default:
		return serializeOther(s, u, d)
	}
	if b.err != nil {
		return 0, b.err
	}
	if d > math.MaxUint32 {
		return 0, b.Fail(ErrInvalidRange)
	}
	if u > d {
		// When reading, the destination may hold anything.
		if b.mode != modeRead {
			return 0, b.Fail(ErrValueOutOfRange)
		}
		u = 0
	}
	n := bits.Len64(d)
	if n == 0 {
		return 0, nil // a range of one value costs nothing
	}
	switch b.mode {
	case modeWrite:
		if b.w.bitsWritten+n > b.w.capBits {
			return 0, b.Fail(ErrOverflow)
		}
		b.w.put(uint32(u), n)
	case modeRead:
		r := &b.r
		if r.bitsRead+n > r.totalBits {
			return 0, b.Fail(ErrEndOfData)
		}
		if r.scratchBits < n {
			r.loadWord()
		}
		u = uint64(r.extract(n))
		if u > d {
			return 0, b.Fail(ErrValueOutOfRange)
		}
	}
	b.bits += n
	return uint32(u), nil
}

// serializeRaw processes the low n bits (0..64) of v, a field in which every
// bit pattern is valid, and returns the bits written, counted or read. Since
// values fill the stream from the low bit, fields a (na bits) then b (nb
// bits) are the same bits as the single field a | b<<na of na+nb bits: the
// helpers for quaternions, positions and velocities use that to send three
// or four fields in one call, after checking each one themselves.
func serializeRaw(s Stream, v uint64, n int) (uint64, error) {
	var b *bitStream
	switch st := s.(type) {
	case *WriteStream:
		b = &st.bitStream
	case *ReadStream:
		b = &st.bitStream
	case *MeasureStream:
		b = &st.bitStream
	default:
		return serializeRawOther(s, v, n)
	}
	if b.err != nil {
		return 0, b.err
	}
	if n <= 0 || n > 64 {
		if n == 0 {
			return 0, nil
		}
		return 0, b.Fail(ErrInvalidBits)
	}
	lo := min(n, 32) // the low chunk, then n-32 high bits if any
	switch b.mode {
	case modeWrite:
		w := &b.w
		if w.bitsWritten+n > w.capBits {
			return 0, b.Fail(ErrOverflow)
		}
		v &= 1<<uint(n) - 1 // (a shift by 64 gives 0 in Go, so n = 64 keeps all bits)
		w.put(uint32(v), lo)
		if n > 32 {
			w.put(uint32(v>>32), n-32)
		}
	case modeRead:
		r := &b.r
		if r.bitsRead+n > r.totalBits {
			return 0, b.Fail(ErrEndOfData)
		}
		if r.scratchBits < lo {
			r.loadWord()
		}
		v = uint64(r.extract(lo))
		if n > 32 {
			if r.scratchBits < n-32 {
				r.loadWord()
			}
			v |= uint64(r.extract(n-32)) << 32
		}
	default:
		v &= 1<<uint(n) - 1
	}
	b.bits += n
	return v, nil
}

// serializeRawOther is serializeRaw for other Stream implementations: at
// most two primitive calls.
func serializeRawOther(s Stream, v uint64, n int) (uint64, error) {
	if n < 0 || n > 64 {
		return 0, s.Fail(ErrInvalidBits)
	}
	lo := min(n, 32)
	low, err := s.SerializeUint(uint32(v)&uint32(1<<uint(lo)-1), uint32(1<<uint(lo)-1))
	if err != nil || n <= 32 {
		return uint64(low), err
	}
	hi, err := s.SerializeUint(uint32(v>>32)&uint32(1<<uint(n-32)-1), uint32(1<<uint(n-32)-1))
	return uint64(low) | uint64(hi)<<32, err
}

// serializeOther is serialize for Stream implementations other than the
// built-in three.
func serializeOther(s Stream, u, d uint64) (uint32, error) {
	if d > math.MaxUint32 {
		return 0, s.Fail(ErrInvalidRange)
	}
	if u > d {
		if !s.IsReading() {
			return 0, s.Fail(ErrValueOutOfRange)
		}
		u = 0
	}
	return s.SerializeUint(uint32(u), uint32(d))
}

// WriteStream serializes into a caller-provided buffer.
type WriteStream struct {
	bitStream
}

// NewWriteStream returns a stream writing into buf (at most len(buf) bytes).
func NewWriteStream(buf []byte) *WriteStream {
	s := &WriteStream{}
	s.Reset(buf)
	return s
}

// Reset starts a new packet in buf, clearing the error, the bit counts and
// the category (back to CategoryOther).
func (s *WriteStream) Reset(buf []byte) {
	s.reset(modeWrite)
	s.w.Reset(buf)
}

// SerializeUint implements Stream.
func (s *WriteStream) SerializeUint(value, max uint32) (uint32, error) {
	return serialize(s, uint64(value), uint64(max))
}

// Bytes returns the packet written so far (ceil(bits/8) bytes of the buffer
// given to Reset). Check Err before sending it.
func (s *WriteStream) Bytes() []byte { return s.w.Bytes() }

// BitsAvailable is the number of bits still free in the buffer.
func (s *WriteStream) BitsAvailable() int { return s.w.BitsAvailable() }

// ReadStream deserializes a received packet.
type ReadStream struct {
	bitStream
}

// NewReadStream returns a stream reading data.
func NewReadStream(data []byte) *ReadStream {
	s := &ReadStream{}
	s.Reset(data)
	return s
}

// Reset starts reading a new packet, clearing the error, the bit counts and
// the category. The stream reads data in place; it does not copy it.
func (s *ReadStream) Reset(data []byte) {
	s.reset(modeRead)
	s.r.Reset(data)
}

// SerializeUint implements Stream.
func (s *ReadStream) SerializeUint(value, max uint32) (uint32, error) {
	return serialize(s, uint64(value), uint64(max))
}

// BitsRemaining is the number of unread bits in the packet, including the
// zero bits that pad its last byte.
func (s *ReadStream) BitsRemaining() int { return s.r.BitsRemaining() }

// MeasureStream counts the bits a Serialize call would write, without
// writing. It has no size limit. It checks ranges exactly like a WriteStream,
// so a packet that measures without error also writes without error (given
// room in the buffer), and its BitsProcessed equals the WriteStream's.
type MeasureStream struct {
	bitStream
}

// NewMeasureStream returns a measuring stream.
func NewMeasureStream() *MeasureStream {
	s := &MeasureStream{}
	s.Reset()
	return s
}

// Reset clears the error, the counts and the category.
func (s *MeasureStream) Reset() { s.reset(modeMeasure) }

// SerializeUint implements Stream.
func (s *MeasureStream) SerializeUint(value, max uint32) (uint32, error) {
	return serialize(s, uint64(value), uint64(max))
}

// BytesProcessed is the packet size the counted bits need: ceil(bits/8).
func (s *MeasureStream) BytesProcessed() int { return (s.bits + 7) / 8 }

// PeekBytes copies the whole bytes left in the packet from the current bit
// position (which need not be byte-aligned) into dst[:0], growing it only
// if its capacity is short, and returns it without consuming anything: a
// payload that must be decoded before its bits can be charged to
// categories (the range-coded snapshot levels) reads them twice.
func (s *ReadStream) PeekBytes(dst []byte) []byte {
	r := &s.r
	pos := r.bitsRead
	n := (r.totalBits - pos) / 8
	dst = dst[:0]
	q, sh := pos/8, uint(pos%8)
	for j := range n {
		b := r.data[q+j] >> sh
		if sh != 0 && q+j+1 < len(r.data) {
			b |= r.data[q+j+1] << (8 - sh)
		}
		dst = append(dst, b)
	}
	return dst
}
