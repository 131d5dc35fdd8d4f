package transfer

import (
	"errors"

	"netcubes/wire"
)

// A strategy's transfer rides in packets it already sends: one piece (or
// one ack) after the last byte of the strategy's own packet, so a packet
// without one ends where it always did and every packet outside a
// transfer is byte for byte what it was.

// Part is what a packet carries: a strategy packet, a Piece or an Ack.
type Part interface {
	Serialize(s wire.Stream) error
}

// Tailed is a packet with, when Tail is not nil, a transfer part after
// its last byte (byte aligned).
type Tailed struct {
	Packet Part
	Tail   Part // nil: none
}

// Serialize writes or measures the packet and its tail. A reader reads
// the packet itself, then ReadTail.
func (p *Tailed) Serialize(s wire.Stream) error {
	if err := p.Packet.Serialize(s); err != nil || p.Tail == nil {
		return err
	}
	if err := s.SerializeAlign(); err != nil {
		return err
	}
	return p.Tail.Serialize(s)
}

// ErrTrailing: bytes after a packet's tail.
var ErrTrailing = errors.New("transfer: bytes after the packet's piece")

// ReadTail reads the part after a packet whose own fields s has read:
// false when the packet ends there. Bytes after the part are refused.
func ReadTail(s *wire.ReadStream, t Part) (bool, error) {
	if err := s.SerializeAlign(); err != nil {
		return false, err
	}
	if s.BitsRemaining() == 0 {
		return false, nil
	}
	if err := t.Serialize(s); err != nil {
		return false, err
	}
	if s.SerializeAlign() != nil || s.BitsRemaining() != 0 {
		return false, ErrTrailing
	}
	return true, nil
}
