package predict

import (
	"errors"

	"netcubes/cubes"
	"netcubes/replication"
	"netcubes/wire"
)

// Design note: the two packets of "Networked Physics (2004)".
//
// The client sends a stream of time-stamped inputs (the article's input
// rpc). A time stamp here is the client's frame number: input n is what the
// client held while stepping frame n to n+1, and the server uses it for its
// own step n. A lost packet must not lose input, so every packet repeats
// every input the server has not acknowledged, up to a second:
//
//	newest frame   31 bits  wire.CategoryHeader: the frame of the last input
//	count           6 bits  1..60 inputs, the newest last
//	inputs    count × 6 bits wire.CategoryInput: frames newest−count+1 .. newest
//
// The server answers every tick with its state and the input it used (the
// article's clientUpdate rpc), in state synchronization's packet (quantized
// cube states, the player in every packet, other cubes by the priority
// accumulator; its 32 inputs are the inputs the server stepped with), after
// a short header of its own:
//
//	acked input    1 + 31 bits  wire.CategoryAcks: the newest client input frame the server holds
//	early report   1 + 8 + 31   wire.CategoryHeader: how many ticks early inputs arrived (−127..127),
//	                            and the frame of the input that arrived that early
//	state packet   replication.Packet (compressed, relative positions, no delta)
//
// The sequence number before both (the session's) is the server frame the
// state is for. Reading validates every field; frames are bounded to 31
// bits, far beyond any session (a year at 60 Hz).

// Wire limits.
const (
	// MaxInputs is the most inputs one client packet carries: one second.
	MaxInputs = 60
	// frameBits bounds a frame number on the wire.
	frameBits = 31
	// MaxEarly bounds the server's earliness report, in ticks (about 2 s).
	MaxEarly = 127
)

// errInputFrames: an input packet whose oldest input would be before frame 0.
var errInputFrames = errors.New("predict: input frames before frame 0")

// InputPacket is the client's redundant stream of inputs.
type InputPacket struct {
	// Newest is the frame of the last input; Inputs[Count−1] is its input.
	Newest int32
	Count  int32
	Inputs [MaxInputs]uint8 // cubes.Input.Bits, oldest first
	// Players is the number of players, known to both sides and not sent.
	// With other players the packet carries the client's tags (tag.go);
	// a one-player packet has no tag field at all.
	Players int32
	Tags    TagList
}

// Serialize reads, writes or measures the packet.
func (p *InputPacket) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeInt(s, &p.Newest, 0, 1<<frameBits-1); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &p.Count, 1, MaxInputs); err != nil {
		return err
	}
	if p.Newest-p.Count+1 < 0 {
		return s.Fail(errInputFrames)
	}
	s.SetCategory(wire.CategoryInput)
	for k := int32(0); k < p.Count; k++ {
		if err := wire.SerializeInt(s, &p.Inputs[k], 0, 1<<cubes.InputBits-1); err != nil {
			return err
		}
	}
	if p.Players > 1 {
		return p.Tags.serialize(s, p.Newest, p.Count)
	}
	if s.IsReading() {
		p.Tags.N = 0
	}
	return nil
}

// Frame returns the frame of Inputs[k].
func (p *InputPacket) Frame(k int32) int32 { return p.Newest - p.Count + 1 + k }

// ServerPacket is the server's state and the input it used.
type ServerPacket struct {
	// HasAck says the server holds some client input; AckedInput is the
	// newest frame it holds (the client stops repeating older ones).
	HasAck     bool
	AckedInput int32
	// HasEarly says the server has a report; Early is the smallest
	// earliness of the newest input of the packets that reached it in its
	// report window, in ticks (negative: inputs arrive late), and
	// EarlyFrame that input's frame: the client knows how much it sped up
	// or slowed down since it sent it, and corrects the report by that.
	HasEarly   bool
	Early      int32
	EarlyFrame int32
	// State is state synchronization's packet: the cube updates and the
	// 32 inputs the server stepped with, frames seq−32 .. seq−1.
	State replication.Packet
	// Frame is the packet's frame (the session's sequence number,
	// unwrapped): not sent; a reader sets it before reading. With other
	// players (State.Players > 1) the packet ends with the verdicts of
	// this client's recent tags, named relative to it (tag.go).
	Frame    int32
	Verdicts VerdictList
}

// Serialize reads, writes or measures the packet.
func (p *ServerPacket) Serialize(s wire.Stream) error {
	reading := s.IsReading()
	s.SetCategory(wire.CategoryAcks)
	if err := wire.SerializeBool(s, &p.HasAck); err != nil {
		return err
	}
	if p.HasAck {
		if err := wire.SerializeInt(s, &p.AckedInput, 0, 1<<frameBits-1); err != nil {
			return err
		}
	} else if reading {
		p.AckedInput = 0
	}
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeBool(s, &p.HasEarly); err != nil {
		return err
	}
	if p.HasEarly {
		if err := wire.SerializeInt(s, &p.Early, -MaxEarly, MaxEarly); err != nil {
			return err
		}
		if err := wire.SerializeInt(s, &p.EarlyFrame, 0, 1<<frameBits-1); err != nil {
			return err
		}
	} else if reading {
		p.Early, p.EarlyFrame = 0, 0
	}
	if err := p.State.Serialize(s); err != nil {
		return err
	}
	if p.State.Players > 1 {
		return p.Verdicts.serialize(s, p.Frame)
	}
	if reading {
		p.Verdicts.N = 0
	}
	return nil
}
