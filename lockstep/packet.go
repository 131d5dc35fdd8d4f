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
//
// With several players (Players > 1, known to both sides and not sent) a
// frame's inputs are every player's, each player coded as above, and the
// server relays a frame only when it holds every player's input for it.
// Player 1 plays at the server; each other player's input comes up from
// its own client, in the client's ack packet (every input the server has
// not acked yet, from Own's first frame), and the server's packet says
// how far it holds that client's inputs (OwnNext) and which player it is
// waiting for (Stuck), so every client can name who holds it up.

import (
	"netcubes/cubes"
	"netcubes/inputstream"
	"netcubes/transfer"
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

	// Players is the number of players (known, not sent). With more than
	// one: Others[p-1] are player p+1's inputs for the same frames,
	// Stuck is the player (1-based) whose input the server lacks for the
	// first frame it cannot relay (0: none), and OwnNext is the first
	// frame of the receiving client's own player the server does not hold.
	Players int32
	Others  [cubes.MaxPlayers - 1][MaxWindow]uint8
	Stuck   int32
	OwnNext uint32

	// Piece is the state transfer to a right that joined a running
	// session (one bit when none): the world at the frame its inputs
	// start from, a fragment a packet (package transfer).
	Piece *transfer.Piece
	piece transfer.Piece // where a read piece goes
}

// Serialize writes, reads or measures the packet.
func (p *InputPacket) Serialize(s wire.Stream) error {
	if err := transfer.SerializeOptionalPiece(s, &p.Piece, &p.piece); err != nil {
		return err
	}
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
	if err := inputstream.Serialize(s, p.Inputs[:p.Count]); err != nil {
		return err
	}
	players := max(p.Players, 1) // the zero value: one player
	if players > cubes.MaxPlayers {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	for k := range players - 1 {
		if err := inputstream.Serialize(s, p.Others[k][:p.Count]); err != nil {
			return err
		}
	}
	s.SetCategory(wire.CategoryHeader)
	if players > 1 {
		if err := wire.SerializeInt(s, &p.Stuck, 0, players); err != nil {
			return err
		}
		if err := wire.SerializeUint32(s, &p.OwnNext); err != nil {
			return err
		}
	}
	return wire.SerializeUint32(s, &p.Hash)
}

// MaxLag is the largest Lag a packet can say (the rings' size).
const MaxLag = ring

// AckPacket is the right's answer, inside the session's ack packet: Next
// is the first frame whose input the right does not hold. A client that
// owns a player other than player 1 (Own, known to both sides and not
// sent) adds its player's inputs the server has not acked: OwnCount
// inputs from frame OwnFirst.
type AckPacket struct {
	Next     uint32
	Own      bool
	OwnFirst uint32
	OwnCount int32
	Inputs   [MaxWindow]uint8
	// Transfer is a joined right's word on its state transfer (one bit
	// when none): which world it follows, and which fragments it holds or
	// that it runs it.
	Transfer *transfer.Ack
	transfer transfer.Ack
}

// Serialize writes, reads or measures the ack.
func (p *AckPacket) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryAcks)
	if err := transfer.SerializeOptionalAck(s, &p.Transfer, &p.transfer); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryAcks)
	if err := wire.SerializeUint32(s, &p.Next); err != nil || !p.Own {
		return err
	}
	if err := wire.SerializeUint32(s, &p.OwnFirst); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &p.OwnCount, 0, MaxWindow); err != nil {
		return err
	}
	return inputstream.Serialize(s, p.Inputs[:p.OwnCount])
}
