package game

// The two-process mode's formats: the left's state (accept and control
// datagrams: the session, the links, every strategy's settings) and the
// diagnostics (the left's truth, for the right's error figure). Each is one
// Serialize for writing and reading, like any packet (package wire), and
// reading hostile bytes returns an error.

import (
	"math"
	"unicode/utf8"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// diagResolution and diagOrientationBits are the precision of the truth
// the right's error is measured against (snapshot level 5's).
const (
	diagResolution      = wire.SnapshotPositionResolution
	diagOrientationBits = wire.SnapshotOrientationBits
)

// remoteState is the left's state as a right follows it.
type remoteState struct {
	seq      uint32 // control sequence: older ones are ignored
	epoch    uint32 // the left's session; a new one restarts the right
	frame    uint32 // the left's frame when it was sent
	active   uint8
	players  uint8     // the world's players (the right builds its world with as many)
	links    link.Pair // the simulated conditions, each direction
	checksum bool      // packets carry a CRC (checksum.go)
	rtt      float32   // ms, from the left's acks; negative before the first ack
	loss     float32   // 0..1
	sentKbps float32   // left → right, IP/UDP headers included, as the left counts it
	// facts is the strategy's line of figures as the left has it (bits per
	// cube, updates per packet: the sender's numbers), refreshed with each
	// control datagram, at least once a second.
	facts string
}

// maxFactsBytes bounds the facts line in a control datagram.
const maxFactsBytes = 240

// serializeState writes or reads the left's state and then every strategy's
// settings, in list order (both processes run the same catalog).
func (s *Session) serializeState(st wire.Stream, rs *remoteState) error {
	st.SetCategory(wire.CategoryHeader)
	for _, v := range []*uint32{&rs.seq, &rs.epoch, &rs.frame} {
		if err := wire.SerializeUint32(st, v); err != nil {
			return err
		}
	}
	if err := wire.SerializeInt(st, &rs.active, 0, uint8(len(s.strategies)-1)); err != nil {
		return err
	}
	if err := wire.SerializeInt(st, &rs.players, 1, cubes.MaxPlayers); err != nil {
		return err
	}
	if err := rs.links.Down.Serialize(st); err != nil {
		return err
	}
	if err := rs.links.Up.Serialize(st); err != nil {
		return err
	}
	if err := wire.SerializeBool(st, &rs.checksum); err != nil {
		return err
	}
	for _, f := range []*float32{&rs.rtt, &rs.loss, &rs.sentKbps} {
		if err := serializeFinite32(st, f); err != nil {
			return err
		}
	}
	if err := serializeText(st, &rs.facts, maxFactsBytes); err != nil {
		return err
	}
	for _, x := range s.strategies {
		if sh, ok := x.(strategy.Shared); ok {
			if err := sh.SerializeSettings(st); err != nil {
				return err
			}
		}
	}
	return nil
}

// serializeText serializes a string of at most max bytes: a length, then
// the bytes. On read, a longer length or bytes that are not UTF-8 fail.
func serializeText(s wire.Stream, t *string, max int) error {
	n := int32(len(*t))
	if s.IsWriting() && n > int32(max) {
		n = int32(max)
	}
	if err := wire.SerializeInt(s, &n, 0, int32(max)); err != nil {
		return err
	}
	var buf [maxFactsBytes]byte
	b := buf[:n]
	if s.IsWriting() {
		copy(b, *t)
	}
	for i := range b {
		v := uint32(b[i])
		if err := wire.SerializeBits(s, &v, 8); err != nil {
			return err
		}
		b[i] = byte(v)
	}
	if s.IsReading() {
		if !utf8.Valid(b) {
			return s.Fail(wire.ErrValueOutOfRange)
		}
		*t = string(b)
	}
	return nil
}

// serializeFinite32 serializes a float32, rejecting NaN and infinities on
// read.
func serializeFinite32(s wire.Stream, f *float32) error {
	if err := wire.SerializeFloat32(s, f); err != nil {
		return err
	}
	if v := float64(*f); math.IsNaN(v) || math.IsInf(v, 0) {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	return nil
}

// writeState serializes rs and every strategy's settings into buf, or
// returns nil.
func (s *Session) writeState(w *wire.WriteStream, buf []byte, rs remoteState) []byte {
	w.Reset(buf)
	if s.serializeState(w, &rs) != nil || w.SerializeAlign() != nil {
		return nil
	}
	return w.Bytes()
}

// diagBody writes the left's truth: frame, state hash and every cube.
func (s *Session) diagBody() ([]byte, bool) {
	w := s.tp.diagW
	w.Reset(s.tp.diagBuf)
	f := uint32(s.frame)
	h := s.left.StateHash()
	n := int32(s.left.NumCubes())
	w.SetCategory(wire.CategoryHeader)
	if wire.SerializeUint32(w, &f) != nil || wire.SerializeUint64(w, &h) != nil || wire.SerializeInt(w, &n, 1, maxDiagCubes) != nil {
		return nil, false
	}
	for i := 0; i < int(n); i++ {
		c := s.left.Cube(i)
		d := diagCube{pos: wire.QuantizePosition(c.Position, diagResolution), rot: wire.QuantizeQuat(c.Orientation, diagOrientationBits)}
		if d.serialize(w) != nil {
			return nil, false
		}
	}
	return w.Bytes(), w.Err() == nil
}

func (d *diagCube) serialize(s wire.Stream) error {
	if err := wire.SerializeQuantizedPosition(s, &d.pos, diagResolution); err != nil {
		return err
	}
	return wire.SerializeQuantizedQuat(s, &d.rot, diagOrientationBits)
}

// readStateHeader reads the state without the settings, to judge a body
// before anything is applied.
func (s *Session) readStateHeader(rs *remoteState) error {
	for _, v := range []*uint32{&rs.seq, &rs.epoch, &rs.frame} {
		if err := wire.SerializeUint32(s.r, v); err != nil {
			return err
		}
	}
	if rs.frame > wire.MaxFrame {
		return errFrameTooLarge
	}
	return wire.SerializeInt(s.r, &rs.active, 0, uint8(len(s.strategies)-1))
}

// maxDiagCubes bounds the cubes a diagnostics datagram may claim.
const maxDiagCubes = 4096

// diagCube is one cube of the diagnostics: 79 bits.
type diagCube struct {
	pos wire.QuantizedVec3
	rot wire.QuantizedQuat
}
