package lockstep

// Design note: the packets of deterministic lockstep. The left sends
// inputs only: every input the right has not acked yet (a window of up to
// MaxWindow frames), so a lost packet loses nothing the next one does not
// repeat. The newest input in a packet is the one the left used to reach
// the frame the packet is numbered with (its sequence number), so the
// packet carries only a count, the oldest input in full (6 bits), and for
// each later input one "changed" bit and the input only when it changed:
// a held key costs one bit a frame. With it goes the left's state hash at
// that frame (its low 32 bits), which the right compares with its own to
// detect a desync. The right answers in its ack packet with the first
// frame whose input it lacks: everything before it is held.

import (
	"errors"

	"netcubes/cubes"
	"netcubes/wire"
)

// InputPacket is the left's packet.
type InputPacket struct {
	// Count inputs, for frames Newest−Count+1 .. Newest, where Newest is
	// the packet's frame − 1 − Lag (the frame is known from the sequence
	// number and not sent). Lag is 0 (one bit) unless the right lacks more
	// than a window of inputs: it cannot skip one, so it gets the oldest.
	Lag    int32
	Count  int32
	Inputs [MaxWindow]uint8 // cubes.Input.Bits, oldest first
	// Hash is the low 32 bits of the left world's StateHash at the
	// packet's frame.
	Hash uint32
}

// ErrInputBits: an input with bits beyond cubes.InputBits.
var ErrInputBits = errors.New("lockstep: input bits out of range")

// Serialize writes, reads or measures the packet.
func (p *InputPacket) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryHeader)
	lagging := p.Lag != 0
	if err := wire.SerializeBool(s, &lagging); err != nil {
		return err
	}
	if lagging {
		if err := wire.SerializeInt(s, &p.Lag, 1, MaxLag); err != nil {
			return err
		}
	} else if s.IsReading() {
		p.Lag = 0
	}
	if err := wire.SerializeInt(s, &p.Count, 0, MaxWindow); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryInput)
	for k := int32(0); k < p.Count; k++ {
		v := uint32(p.Inputs[k])
		if !s.IsReading() && v >= 1<<cubes.InputBits {
			return s.Fail(ErrInputBits)
		}
		if k > 0 {
			changed := p.Inputs[k] != p.Inputs[k-1]
			if err := wire.SerializeBool(s, &changed); err != nil {
				return err
			}
			if !changed {
				if s.IsReading() {
					p.Inputs[k] = p.Inputs[k-1]
				}
				continue
			}
		}
		if err := wire.SerializeBits(s, &v, cubes.InputBits); err != nil {
			return err
		}
		p.Inputs[k] = uint8(v)
	}
	s.SetCategory(wire.CategoryHeader)
	return wire.SerializeUint32(s, &p.Hash)
}

// MaxLag is the largest Lag a packet can say (the rings' size).
const MaxLag = ring

// AckPacket is the right's answer, inside the session's ack packet: Next
// is the first frame whose input the right does not hold.
type AckPacket struct {
	Next uint32
}

// Serialize writes, reads or measures the ack.
func (p *AckPacket) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryAcks)
	return wire.SerializeUint32(s, &p.Next)
}
