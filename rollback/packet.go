package rollback

// Design note: rollback's packets. Inputs only, as in lockstep, and coded
// as lockstep codes them (package inputstream): every input the receiver
// has not acked is repeated in every packet, a held key costing one bit a
// frame, so a lost packet loses nothing the next does not carry. Unlike
// lockstep the server does not wait until it holds every player's input
// for a frame: each player's inputs go down as far as the server holds
// them, so a machine gets player 2's input as soon as player 2's own link
// brought it, whatever player 3's link does. Each player's run ends Lag
// frames before the packet's frame (known from the sequence number, not
// sent). The receiving client's own player is not sent down (it is known
// to both sides, like the number of players): its machine made those
// inputs. The left's state hash at the packet's frame rides along, for
// the check that every machine converged on the world with every input
// known.
//
// The client's answer, inside the session's ack packet: per player, the
// first frame whose input it lacks, and its own player's inputs the
// server does not hold yet.

import (
	"netcubes/cubes"
	"netcubes/inputstream"
	"netcubes/transfer"
	"netcubes/wire"
)

// MaxSend is the most inputs of one player a packet carries (frames): a
// machine that lacks more gets the oldest first.
const MaxSend = 64

// maxLag is the largest Lag a packet can say (the input ring's size).
const maxLag = ring

// InputPacket is the server's packet to one client.
type InputPacket struct {
	// Players and Own (the receiving client's player, −1 for none) are
	// known to both sides and not sent.
	Players int32
	Own     int32
	// Player p's Count[p] inputs end at frame packet−1−Lag[p].
	Lag    [cubes.MaxPlayers]int32
	Count  [cubes.MaxPlayers]int32
	Inputs [cubes.MaxPlayers][MaxSend]uint8
	// Advantage[p] is player p's machine's frame advantage as its client
	// last reported it (0 for a player that plays at the server), for
	// the time sync.
	Advantage [cubes.MaxPlayers]int32
	// OwnNext is the first frame of the client's own player whose input
	// the server does not hold (Own ≥ 0): what the client sends up next.
	OwnNext uint32
	// Hash is the low 32 bits of the left world's StateHash at the
	// packet's frame.
	Hash uint32
	// Piece is the state transfer to a machine that joined a running
	// session (one bit when none; join.go).
	Piece *transfer.Piece
	piece transfer.Piece
}

// Serialize writes, reads or measures the packet.
func (p *InputPacket) Serialize(s wire.Stream) error {
	if p.Players < 1 || p.Players > cubes.MaxPlayers {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	if err := transfer.SerializeOptionalPiece(s, &p.Piece, &p.piece); err != nil {
		return err
	}
	for k := range p.Players {
		if k == p.Own {
			continue
		}
		if err := serializeRun(s, &p.Lag[k], &p.Count[k], p.Inputs[k][:]); err != nil {
			return err
		}
		if err := wire.SerializeInt(s, &p.Advantage[k], -MaxAdvantage, MaxAdvantage); err != nil {
			return err
		}
	}
	s.SetCategory(wire.CategoryHeader)
	if p.Own >= 0 {
		if err := wire.SerializeUint32(s, &p.OwnNext); err != nil {
			return err
		}
	}
	return wire.SerializeUint32(s, &p.Hash)
}

// serializeRun codes one player's run: the lag (one bit when 0), the count
// and the inputs.
func serializeRun(s wire.Stream, lag, count *int32, in []uint8) error {
	s.SetCategory(wire.CategoryHeader)
	lagging := *lag != 0
	if err := wire.SerializeBool(s, &lagging); err != nil {
		return err
	}
	if lagging {
		if err := wire.SerializeInt(s, lag, 1, maxLag); err != nil {
			return err
		}
	} else if s.IsReading() {
		*lag = 0
	}
	if err := wire.SerializeInt(s, count, 0, MaxSend); err != nil {
		return err
	}
	return inputstream.Serialize(s, in[:*count])
}

// AckPacket is a client's answer.
type AckPacket struct {
	// Players and Own are known to both sides and not sent.
	Players int32
	Own     int32
	// Next[p] is the first frame of player p whose input the client does
	// not hold (not sent for Own).
	Next [cubes.MaxPlayers]uint32
	// The client's own player's inputs from frame OwnFirst (Own ≥ 0).
	OwnFirst uint32
	OwnCount int32
	Inputs   [MaxSend]uint8
	// Advantage is the client's frame advantage (Own ≥ 0), averaged.
	Advantage int32
	// Transfer is a joined machine's word on its state transfer (one bit
	// when none).
	Transfer *transfer.Ack
	transfer transfer.Ack
}

// MaxAdvantage bounds a frame advantage on the wire (frames).
const MaxAdvantage = 63

// Serialize writes, reads or measures the ack.
func (p *AckPacket) Serialize(s wire.Stream) error {
	if p.Players < 1 || p.Players > cubes.MaxPlayers {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	if err := transfer.SerializeOptionalAck(s, &p.Transfer, &p.transfer); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryAcks)
	for k := range p.Players {
		if k == p.Own {
			continue
		}
		if err := wire.SerializeUint32(s, &p.Next[k]); err != nil {
			return err
		}
	}
	if p.Own < 0 {
		return nil
	}
	if err := wire.SerializeUint32(s, &p.OwnFirst); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &p.Advantage, -MaxAdvantage, MaxAdvantage); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &p.OwnCount, 0, MaxSend); err != nil {
		return err
	}
	return inputstream.Serialize(s, p.Inputs[:p.OwnCount])
}
