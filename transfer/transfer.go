// The format: the config, compression, the piece in a left packet and
// the ack in a right one.

package transfer

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"

	"netcubes/internal/valid"
	"netcubes/wire"
)

// Bounds of the format.
const (
	// MaxFragments is the most fragments a transfer is cut into (the ack's
	// bitmap: 128 bytes at most).
	MaxFragments = 1024
	// MinFragmentBytes and MaxFragmentBytes bound a fragment: below, the
	// headers cost more than the data; above, a packet of the link's
	// 64 kB would not hold one beside the strategy's own fields.
	MinFragmentBytes = 256
	MaxFragmentBytes = 32 * 1024
	// MaxBytes is the most compressed bytes a transfer carries, and
	// MaxWorldBytes the most a world may take once decompressed (a hostile
	// left cannot make a right allocate more): a 901-cube pile is 0.55 MB.
	MaxBytes      = 4 << 20
	MaxWorldBytes = 16 << 20
)

// Config holds the transfer's tunables.
type Config struct {
	// FragmentBytes is the compressed world's bytes per packet. Larger
	// transfers sooner (the 108 kB ball takes 14 ticks at 8 kB) but makes
	// the packets that carry it larger: on a real network a UDP datagram
	// over the path's MTU travels as IP fragments and is lost whole when
	// any one of them is.
	FragmentBytes int
	// ResendAfterTicks is how long a fragment waits for its ack before it
	// is sent again, on top of the round trip when one is measured
	// (ticks). Shorter recovers a loss sooner; too short resends
	// fragments that were merely still on their way.
	ResendAfterTicks int
}

// DefaultConfig cuts worlds into 8 kB fragments (about the size of the
// diagnostics datagram a left already sends every tick) and resends one
// 6 ticks after its round trip.
func DefaultConfig() Config {
	return Config{FragmentBytes: 8 * 1024, ResendAfterTicks: 6}
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("transfer: invalid config")

// Validate reports the first field out of its range, naming it.
func (c Config) Validate() error {
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "FragmentBytes", V: float64(c.FragmentBytes), Lo: MinFragmentBytes, Hi: MaxFragmentBytes},
		valid.Field{Name: "ResendAfterTicks", V: float64(c.ResendAfterTicks), Lo: 1, Hi: 600},
	)
}

// Errors of the reader.
var (
	ErrPiece = errors.New("transfer: a piece that does not fit its transfer")
	ErrWorld = errors.New("transfer: the world received does not decompress")
)

// Compress returns world compressed as a transfer carries it.
func Compress(world []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(world); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if b.Len() > MaxBytes {
		return nil, fmt.Errorf("transfer: a world of %d bytes compressed, over %d", b.Len(), MaxBytes)
	}
	return b.Bytes(), nil
}

// Decompress undoes Compress, refusing more than MaxWorldBytes.
func Decompress(data []byte) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(data))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, MaxWorldBytes+1))
	if err != nil || len(out) > MaxWorldBytes {
		return nil, ErrWorld
	}
	return out, nil
}

// fragments is how many fragments of frag bytes size bytes take.
func fragments(size, frag int) int { return (size + frag - 1) / frag }

// Piece is the transfer's part of a left packet: which transfer (the
// world's frame, its compressed size and fragment size) and, when Index ≥
// 0, one fragment of it.
type Piece struct {
	Frame    uint32
	Size     int32
	Fragment int32
	Index    int32 // −1: no fragment in this packet
	Data     []byte
	buf      [MaxFragmentBytes]byte // where a read piece's data goes
}

// count is the piece's transfer's number of fragments.
func (p *Piece) count() int { return fragments(int(p.Size), int(p.Fragment)) }

// span is the byte range of fragment i.
func span(i, size, frag int) (int, int) { return i * frag, min((i+1)*frag, size) }

// Serialize writes, reads or measures the piece.
func (p *Piece) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint32(s, &p.Frame); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &p.Size, 1, MaxBytes); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &p.Fragment, MinFragmentBytes, MaxFragmentBytes); err != nil {
		return err
	}
	if p.count() > MaxFragments {
		return s.Fail(ErrPiece)
	}
	has := p.Index >= 0
	if err := wire.SerializeBool(s, &has); err != nil || !has {
		if s.IsReading() {
			p.Index, p.Data = -1, nil
		}
		return err
	}
	if err := wire.SerializeInt(s, &p.Index, 0, int32(p.count()-1)); err != nil {
		return err
	}
	lo, hi := span(int(p.Index), int(p.Size), int(p.Fragment))
	if s.IsReading() {
		p.Data = p.buf[:hi-lo]
	} else if len(p.Data) != hi-lo {
		return s.Fail(ErrPiece)
	}
	s.SetCategory(wire.CategoryOther)
	return serializeBytes(s, p.Data)
}

// serializeBytes moves b's bytes, eight at a time.
func serializeBytes(s wire.Stream, b []byte) error {
	for len(b) >= 8 {
		var v uint64
		if s.IsWriting() || s.IsMeasuring() {
			v = leUint64(b)
		}
		if err := wire.SerializeUint64(s, &v); err != nil {
			return err
		}
		if s.IsReading() {
			putLeUint64(b, v)
		}
		b = b[8:]
	}
	for i := range b {
		v := uint32(b[i])
		if err := wire.SerializeBits(s, &v, 8); err != nil {
			return err
		}
		if s.IsReading() {
			b[i] = byte(v)
		}
	}
	return nil
}

func leUint64(b []byte) uint64 {
	var v uint64
	for k := 7; k >= 0; k-- {
		v = v<<8 | uint64(b[k])
	}
	return v
}

func putLeUint64(b []byte, v uint64) {
	for k := range 8 {
		b[k] = byte(v >> (8 * k))
	}
}

// Ack is the transfer's part of a right's ack: the transfer it follows
// (its world's frame) and either Done (the world is in and runs) or which
// fragments it holds.
type Ack struct {
	Frame uint32
	Done  bool
	Count int32
	Have  [MaxFragments / 32]uint32
}

// Holds reports whether the ack says fragment i arrived.
func (a *Ack) Holds(i int) bool {
	return a.Done || (i >= 0 && i < int(a.Count) && a.Have[i/32]&(1<<(i%32)) != 0)
}

// Serialize writes, reads or measures the ack.
func (a *Ack) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryAcks)
	if err := wire.SerializeUint32(s, &a.Frame); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &a.Done); err != nil || a.Done {
		return err
	}
	if err := wire.SerializeInt(s, &a.Count, 0, MaxFragments); err != nil {
		return err
	}
	n := int(a.Count)
	for k := 0; k*32 < n; k++ {
		bits := min(n-k*32, 32)
		v := a.Have[k]
		if bits < 32 {
			v &= 1<<bits - 1
		}
		if err := wire.SerializeBits(s, &v, bits); err != nil {
			return err
		}
		a.Have[k] = v
	}
	if s.IsReading() {
		for k := (n + 31) / 32; k < len(a.Have); k++ {
			a.Have[k] = 0
		}
	}
	return nil
}

// SerializeOptionalPiece serializes a piece a packet may carry: a bit,
// then the piece. A piece read goes to buf, and *p points to it (nil when
// the packet has none).
func SerializeOptionalPiece(s wire.Stream, p **Piece, buf *Piece) error {
	s.SetCategory(wire.CategoryHeader)
	return serializeOptional(s, p, buf)
}

// SerializeOptionalAck is SerializeOptionalPiece for an ack.
func SerializeOptionalAck(s wire.Stream, a **Ack, buf *Ack) error {
	s.SetCategory(wire.CategoryAcks)
	return serializeOptional(s, a, buf)
}

// serializeOptional is a bit saying whether *v is there, then *v; a value
// read goes to buf.
func serializeOptional[T any, P interface {
	*T
	Serialize(wire.Stream) error
}](s wire.Stream, v *P, buf P) error {
	has := *v != nil
	if err := wire.SerializeBool(s, &has); err != nil {
		return err
	}
	if s.IsReading() {
		*v = nil
		if has {
			*v = buf
		}
	}
	if !has {
		return nil
	}
	return (*v).Serialize(s)
}
