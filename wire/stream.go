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
// bitStream, and the helpers reach it with a type switch (a comparison of
// the interface's type word with constants) instead of a dynamic interface
// call per field. Indirect calls are slow on CPUs with Spectre mitigations,
// and a 901-cube snapshot has over 7,000 fields. The type switch also tells
// the mode, so each case runs only its own mode's fast path: putFast,
// takeFast or countFast, a few comparisons and the bit packing, all small
// enough for the compiler to inline. They handle the common case (no
// sticky error, room for the bits) and otherwise do nothing and report
// false; the caller then takes a slow path that makes every check in order
// and reports the error. Keeping the checks out of the fast paths is what
// keeps them short, and keeping the slow paths in other functions keeps the
// compiler from saving registers around their calls on the common path.
//
// The hubs serialize (one ranged field) and serializeRaw (up to 64 raw bits)
// are built that way. The most frequent helpers (SerializeBool,
// SerializeQuantizedQuat, and serializeTriple for positions and velocities)
// run the fast paths themselves, so such a field costs a single ordinary
// call, and the quaternion and triple helpers pack their three or four
// fields into one raw field of up to 64 bits. Any other Stream
// implementation still works, through its SerializeUint method, and
// produces the same bits; the tests use one as the reference for the fast
// paths.
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
// MeasureStream: the sticky error, the bit position, the buffer and the bit
// accounting. One counter, bits, is the position in all three modes, and
// limit is where the fields must stop: the buffer's capacity when writing,
// the packet's length when reading, no limit when measuring.
//
// Bits are charged to categories lazily: a field only adds to bits, and the
// bits since the last SetCategory (catStart) are settled into the breakdown
// when the category changes. That keeps the per-field work to one addition.
type bitStream struct {
	mode      streamMode
	category  Category
	err       error
	bits      int    // bits written, read or counted since Reset
	limit     int    // bits may not pass it (see above)
	buf       []byte // the buffer written, or the packet read
	scratch   uint64 // writing: the bits%64 bits not yet stored in buf
	catStart  int    // value of bits at the last category change
	breakdown Breakdown
}

func (b *bitStream) reset(mode streamMode, buf []byte, limit int) {
	*b = bitStream{mode: mode, category: CategoryOther, buf: buf, limit: limit}
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
		if b.bits+n > b.limit {
			return b.Fail(ErrOverflow)
		}
		putBits(b.buf, &b.scratch, b.bits, 0, n)
	case modeRead:
		if b.bits+n > b.limit {
			return b.Fail(ErrEndOfData)
		}
		if peekBits(b.buf, b.bits, n) != 0 {
			return b.Fail(ErrBadPadding)
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

// The fast paths. Each does one field in one mode, in the common case: no
// sticky error, and room for the bits (writing) or the bits present in the
// packet (reading; checking the value read is the caller's job). They
// report false, doing nothing, in every other case, and the caller then
// takes the slow path that makes all the checks in order and reports the
// error. They are small enough to be inlined, so a caller that switches on
// the stream's type runs them with no call at all. v must fit in n bits
// and n be in 0..64.

// putFast writes v in n bits.
func (b *bitStream) putFast(v uint64, n int) bool {
	if b.err != nil || b.bits+n > b.limit {
		return false
	}
	putBits(b.buf, &b.scratch, b.bits, v, n)
	b.bits += n
	return true
}

// takeFast reads n bits. peekBitsFast also checks that they are in the
// packet.
func (b *bitStream) takeFast(n int) (uint64, bool) {
	v, ok := peekBitsFast(b.buf, b.bits, n)
	if !ok || b.err != nil {
		return 0, false
	}
	b.bits += n
	return v, true
}

// countFast counts n bits.
func (b *bitStream) countFast(n int) bool {
	if b.err != nil {
		return false
	}
	b.bits += n
	return true
}

// serialize is the hub every serialize helper calls: it processes u, an
// offset in [0, d], on s, and returns the offset written, counted or read.
// For the three built-in streams it does all the work here, with the bit
// packing inlined, so that a field costs a single function call; any other
// Stream goes through its SerializeUint method.
//
// The type switch tells the mode, so each case runs only its own mode's
// fast path. Everything else, every error included, goes to serializeSlow,
// which does all the checks in order; keeping those out of the fast paths
// is what keeps them short.
func serialize(s Stream, u, d uint64) (uint32, error) {
	n := bits.Len64(d) // 0 when d is 0: a range of one value costs nothing
	if d <= math.MaxUint32 {
		// A type switch on concrete types compares the interface's
		// type word with constants: far cheaper than a dynamic call.
		switch st := s.(type) {
		case *WriteStream:
			if u <= d && st.putFast(u, n) {
				return uint32(u), nil
			}
		case *ReadStream:
			// u is ignored: when reading, the destination may hold
			// anything. A value out of range is left unread, for
			// serializeSlow to report.
			if v, ok := peekBitsFast(st.buf, st.bits, n); ok && v <= d && st.err == nil {
				st.bits += n
				return uint32(v), nil
			}
		case *MeasureStream:
			if u <= d && st.countFast(n) {
				return uint32(u), nil
			}
		}
	}
	return serializeSlow(s, u, d)
}

// serializeSlow is serialize for the cases its fast paths leave out, and for
// other Stream implementations. It makes every check, in the order that
// decides which error a field reports: the sticky error, the range, the
// value, then the room for its bits.
func serializeSlow(s Stream, u, d uint64) (uint32, error) {
	b := builtin(s)
	if b == nil {
		return serializeOther(s, u, d)
	}
	if b.err != nil {
		return 0, b.err
	}
	if d > math.MaxUint32 {
		return 0, b.Fail(ErrInvalidRange)
	}
	if u > d {
		if b.mode != modeRead {
			return 0, b.Fail(ErrValueOutOfRange)
		}
		u = 0
	}
	n := bits.Len64(d)
	switch b.mode {
	case modeWrite:
		if b.bits+n > b.limit {
			return 0, b.Fail(ErrOverflow)
		}
		putBits(b.buf, &b.scratch, b.bits, u, n)
	case modeRead:
		if b.bits+n > b.limit {
			return 0, b.Fail(ErrEndOfData)
		}
		u = peekBits(b.buf, b.bits, n)
		if u > d {
			return 0, b.Fail(ErrValueOutOfRange)
		}
	}
	b.bits += n
	return uint32(u), nil
}

// builtin returns the engine of a built-in stream, or nil for another
// Stream implementation.
func builtin(s Stream) *bitStream {
	switch st := s.(type) {
	case *WriteStream:
		return &st.bitStream
	case *ReadStream:
		return &st.bitStream
	case *MeasureStream:
		return &st.bitStream
	}
	return nil
}

// serializeRaw processes the low n bits (0..64) of v, a field in which every
// bit pattern is valid, and returns the bits written, counted or read. Since
// values fill the stream from the low bit, fields a (na bits) then b (nb
// bits) are the same bits as the single field a | b<<na of na+nb bits: the
// helpers for quaternions, positions and velocities use that to send three
// or four fields in one call, after checking each one themselves. Like
// serialize, it has one fast path per mode and leaves the rest to
// serializeRawSlow.
func serializeRaw(s Stream, v uint64, n int) (uint64, error) {
	if uint(n) <= 64 {
		v &= 1<<uint(n) - 1 // (1<<64 is 0 in Go, so n = 64 keeps all bits)
		switch st := s.(type) {
		case *WriteStream:
			if st.putFast(v, n) {
				return v, nil
			}
		case *ReadStream:
			if got, ok := st.takeFast(n); ok {
				return got, nil
			}
		case *MeasureStream:
			if st.countFast(n) {
				return v, nil
			}
		}
	}
	return serializeRawSlow(s, v, n)
}

// serializeRawSlow is serializeRaw for the cases its fast paths leave out (a
// sticky error, a bad width, no room for the bits) and for other Stream
// implementations.
func serializeRawSlow(s Stream, v uint64, n int) (uint64, error) {
	b := builtin(s)
	if b == nil {
		return serializeRawOther(s, v, n)
	}
	if b.err != nil {
		return 0, b.err
	}
	if n < 0 || n > 64 {
		return 0, b.Fail(ErrInvalidBits)
	}
	v &= 1<<uint(n) - 1
	switch b.mode {
	case modeWrite:
		if b.bits+n > b.limit {
			return 0, b.Fail(ErrOverflow)
		}
		putBits(b.buf, &b.scratch, b.bits, v, n)
	case modeRead:
		if b.bits+n > b.limit {
			return 0, b.Fail(ErrEndOfData)
		}
		v = peekBits(b.buf, b.bits, n)
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
	s.reset(modeWrite, buf, len(buf)*8)
}

// SerializeUint implements Stream.
func (s *WriteStream) SerializeUint(value, max uint32) (uint32, error) {
	return serialize(s, uint64(value), uint64(max))
}

// Bytes returns the packet written so far (ceil(bits/8) bytes of the buffer
// given to Reset). Check Err before sending it.
func (s *WriteStream) Bytes() []byte { return finishBytes(s.buf, s.scratch, s.bits) }

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
	s.reset(modeRead, data, len(data)*8)
}

// SerializeUint implements Stream.
func (s *ReadStream) SerializeUint(value, max uint32) (uint32, error) {
	return serialize(s, uint64(value), uint64(max))
}

// BitsRemaining is the number of unread bits in the packet, including the
// zero bits that pad its last byte.
func (s *ReadStream) BitsRemaining() int { return s.limit - s.bits }

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
func (s *MeasureStream) Reset() { s.reset(modeMeasure, nil, math.MaxInt) }

// SerializeUint implements Stream.
func (s *MeasureStream) SerializeUint(value, max uint32) (uint32, error) {
	return serialize(s, uint64(value), uint64(max))
}

// bytesProcessed is the packet size the counted bits need: ceil(bits/8).
func (s *MeasureStream) bytesProcessed() int { return BitsToBytes(s.bits) }

// PeekBytes copies the whole bytes left in the packet from the current bit
// position (which need not be byte-aligned) into dst[:0], growing it only
// if its capacity is short, and returns it without consuming anything: a
// payload that must be decoded before its bits can be charged to
// categories (the range-coded snapshot levels) reads them twice.
func (s *ReadStream) PeekBytes(dst []byte) []byte {
	data, pos := s.buf, s.bits
	n := (s.limit - pos) / 8
	dst = dst[:0]
	q, sh := pos/8, uint(pos%8)
	for j := range n {
		b := data[q+j] >> sh
		if sh != 0 && q+j+1 < len(data) {
			b |= data[q+j+1] << (8 - sh)
		}
		dst = append(dst, b)
	}
	return dst
}
