// Package inputstream codes a run of one player's inputs for consecutive
// frames, as the strategies that send only inputs (deterministic lockstep,
// rollback) repeat them in every packet until they are acked: the first
// input in full (cubes.InputBits), then for each later input one "changed"
// bit and the input only when it changed. A held key costs one bit a frame.
package inputstream

import (
	"errors"

	"netcubes/cubes"
	"netcubes/wire"
)

// ErrInputBits: an input with bits beyond cubes.InputBits.
var ErrInputBits = errors.New("inputstream: input bits out of range")

// Serialize writes, reads or measures one player's inputs for consecutive
// frames (cubes.Input.Bits each), in the wire.CategoryInput category. The
// slice's length is the count, which the caller codes: reading fills it.
func Serialize(s wire.Stream, in []uint8) error {
	s.SetCategory(wire.CategoryInput)
	for k := range in {
		v := uint32(in[k])
		if !s.IsReading() && v >= 1<<cubes.InputBits {
			return s.Fail(ErrInputBits)
		}
		if k > 0 {
			changed := in[k] != in[k-1]
			if err := wire.SerializeBool(s, &changed); err != nil {
				return err
			}
			if !changed {
				if s.IsReading() {
					in[k] = in[k-1]
				}
				continue
			}
		}
		if err := wire.SerializeBits(s, &v, cubes.InputBits); err != nil {
			return err
		}
		in[k] = uint8(v)
	}
	return nil
}
