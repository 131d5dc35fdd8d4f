package cubes

// A saved cube world as bytes, for a state transfer: the frame, what this
// package keeps per cube, then the physics save's bytes (physics/transfer.go
// says why every bit is sent and how hostile bytes are refused).

import (
	"encoding/binary"
	"errors"
	"fmt"

	"netcubes/physics"
)

// maxCounter bounds a cube's rest and hold counters as read: updateRest
// saturates restTicks at 2^20, and holdTicks stops at InteractionHold.
const maxCounter = 1 << 20

// maxSavedFrame bounds the frame a save may claim (wire.MaxFrame's value:
// this package sits below wire).
const maxSavedFrame = 1 << 30

// ErrBadSave wraps every reason DecodeSaved refuses bytes (with
// physics.ErrBadSave for the physics part).
var ErrBadSave = errors.New("cubes: bytes that are not a save of this world")

// AppendBinary appends s as bytes and returns the extended slice.
func (s *Saved) AppendBinary(b []byte) ([]byte, error) {
	if !s.Valid() {
		return b, physics.ErrNotSaved
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(s.frame))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.meta)))
	for _, m := range s.meta {
		v := uint64(m.restTicks)<<32 | uint64(m.holdTicks)<<1
		if m.interacting {
			v |= 1
		}
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return s.phys.AppendBinary(b)
}

// DecodeSaved reads bytes written by AppendBinary into s, for a later
// w.Restore(s): a save of a world like w, or an error (s then holds nothing
// valid). It never panics, whatever the bytes.
func (w *World) DecodeSaved(b []byte, s *Saved) error {
	s.phys = physics.Saved{}
	if len(b) < 8 {
		return fmt.Errorf("%w: truncated", ErrBadSave)
	}
	frame, n := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
	b = b[8:]
	if frame > maxSavedFrame || int(n) != len(w.meta) || uint64(len(b)) < uint64(n)*8 {
		return fmt.Errorf("%w: frame %d, %d cubes", ErrBadSave, frame, n)
	}
	s.meta = s.meta[:0]
	for range n {
		v := binary.LittleEndian.Uint64(b)
		b = b[8:]
		m := meta{interacting: v&1 != 0, restTicks: int(v >> 32), holdTicks: int(uint32(v) >> 1)}
		if m.restTicks > maxCounter || m.holdTicks > maxCounter {
			return fmt.Errorf("%w: a cube's counters", ErrBadSave)
		}
		s.meta = append(s.meta, m)
	}
	s.frame = int(frame)
	return w.phys.DecodeSaved(b, &s.phys)
}
