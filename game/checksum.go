package game

import (
	"encoding/binary"
	"hash/crc32"
)

// Design note: the checksum. A link that flips bits (link.Config's
// CorruptPercent) shows what a real network does now and then: most damaged
// packets fail to decode and are dropped, but some decode into a valid
// packet with wrong contents (a cube metres away, a desync in lockstep).
// UDP's own 16-bit checksum catches most of that on a real network; the
// simulated link has none, so the session can add one, as a setting the
// presenter turns on to show the difference: a CRC-32C over every packet
// either way, its 4 bytes counted in the bandwidth, and a packet whose CRC
// does not match dropped before anything reads it.

// ChecksumBytes is what the checksum adds to every packet.
const ChecksumBytes = 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendChecksum appends the CRC-32C of pkt to it.
func appendChecksum(pkt []byte) []byte {
	return binary.LittleEndian.AppendUint32(pkt, crc32.Checksum(pkt, castagnoli))
}

// stripChecksum checks and removes the CRC at the end of pkt.
func stripChecksum(pkt []byte) ([]byte, bool) {
	if len(pkt) < ChecksumBytes {
		return nil, false
	}
	body := pkt[:len(pkt)-ChecksumBytes]
	return body, binary.LittleEndian.Uint32(pkt[len(body):]) == crc32.Checksum(body, castagnoli)
}

// SetChecksum turns the checksum on every packet on or off (from the next
// packet; packets in flight were framed as they left).
func (s *Session) SetChecksum(on bool) { s.cfg.Checksum = on }

// Checksum reports whether packets carry a checksum.
func (s *Session) Checksum() bool { return s.cfg.Checksum }
