package authority

import (
	"errors"

	"netcubes/cubes"
	"netcubes/replication"
	"netcubes/wire"
)

// Design note: one packet format, three directions (host → client, client
// → host, and peer → peer in the peer-to-peer topology). One packet:
//
//	sequence          16 bits  (written by the session: the frame number)
//	from host          1 bit
//	step               3 bits  1..5: which rules the sender runs (say whether sequences follow)
//	players            3 bits  players − 1
//	sender             4 bits  0 from the host, else the sending player's id (1..8)
//	cubes             11 bits  cubes in the world (1..2047)
//	inputs  players × 6 bits   from the host: every player's input it stepped this frame;
//	                           from a client: its own input this frame (6 bits)
//	update count       7 bits  0..64
//	updates, in increasing cube index:
//	  index        ⌈log2 cubes⌉ bits
//	  from the host: owner 4 bits (1..players+1; players+1 is the default authority)
//	  from a player: 1 bit: "I have authority over this cube" (0: I let it go)
//	  step 4+: ownership sequence 16 bits, authority sequence 16 bits
//	  state: position 59 bits, orientation 47 bits (smallest three at 15 bits), at rest 1 bit,
//	         linear and angular velocity 3 × 14 bits each unless at rest
//
// The player's claim is the comment's "one bit per-object". The host says
// who it thinks owns each cube it relays (4 bits: it is the one place that
// knows all the claims). The state is state synchronization's quantized
// state (package replication), absolute: with every machine simulating and
// snapping to what it hears, there is no acked base to delta against
// across three hops.
//
// Reading validates everything before it is stored: counts and ranges
// (an owner beyond the default, an index beyond the world), indices that
// must increase, and the state's own ranges. What the packet means (a
// claim the sender may not make, a sequence from the future) is the
// receiver's to judge and count (host.go, machine.go).

// Wire constants.
const (
	maxPlayersBits = 3 // players − 1 in 3 bits: 1..8
	cubesBits      = 11
	maxCubes       = 1<<cubesBits - 1
	ownerBits      = 4 // 1..9: eight players and the default
)

// Step is a step of the build-up, 1..5.
type Step int32

// The build-up's steps.
const (
	StepHost      Step = 1 + iota // the host owns every cube: state sync from the host
	StepOwnCube                   // each player owns its player cube
	StepLowestID                  // touching takes a cube if your id is lower: the comment's rule
	StepSequences                 // authority and ownership sequences, the host confirms
	StepReturn                    // authority returns to the default at rest
	NumSteps      = int(StepReturn)
)

// Update is one cube's state as a packet carries it.
type Update struct {
	Index int32
	// Owner is the authority the sender says the cube has (1..players+1,
	// players+1 the default). From a player it is the sender's id (a
	// claim) or the default (a release).
	Owner int32
	// OwnSeq and AuthSeq are the cube's ownership and authority
	// sequences (step 4+).
	OwnSeq, AuthSeq uint16
	State           replication.QuantizedCubeState
}

// Packet is what a machine sends each tick.
type Packet struct {
	FromHost   bool
	Step       Step
	Sender     int32 // the sender's player id (1..players), 0 from the host
	Players    int32
	NumCubes   int32
	Inputs     [cubes.MaxPlayers]uint8
	NumUpdates int32
	Updates    [MaxUpdates]Update
}

// Errors a reader returns.
var (
	ErrBadOrder  = errors.New("authority: update indices out of order")
	ErrBadSender = errors.New("authority: sender out of range")
)

// numInputs is how many inputs the packet carries.
func (p *Packet) numInputs() int {
	if p.FromHost {
		return int(p.Players)
	}
	return 1
}

// Serialize writes, reads or measures the packet.
func (p *Packet) Serialize(s wire.Stream) error {
	if err := p.serializeHeader(s); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryInput)
	for k := range p.numInputs() {
		if err := wire.SerializeInt(s, &p.Inputs[k], 0, 1<<cubes.InputBits-1); err != nil {
			return err
		}
	}
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeInt(s, &p.NumUpdates, 0, MaxUpdates); err != nil {
		return err
	}
	prev := int32(-1)
	for k := range p.NumUpdates {
		u := &p.Updates[k]
		if err := p.serializeUpdate(s, u); err != nil {
			return err
		}
		if u.Index <= prev {
			return s.Fail(ErrBadOrder)
		}
		prev = u.Index
	}
	return nil
}

func (p *Packet) serializeHeader(s wire.Stream) error {
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeBool(s, &p.FromHost); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &p.Step, StepHost, StepReturn); err != nil {
		return err
	}
	players := p.Players - 1
	if err := wire.SerializeInt(s, &players, 0, 1<<maxPlayersBits-1); err != nil {
		return err
	}
	p.Players = players + 1
	if err := wire.SerializeInt(s, &p.Sender, 0, 1<<maxPlayersBits); err != nil {
		return err
	}
	if p.FromHost != (p.Sender == 0) || p.Sender > p.Players {
		return s.Fail(ErrBadSender)
	}
	if err := wire.SerializeInt(s, &p.NumCubes, 1, maxCubes); err != nil {
		return err
	}
	if p.NumCubes < p.Players {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	return nil
}

// serializeUpdate is one cube: index, owner or claim, sequences, state.
func (p *Packet) serializeUpdate(s wire.Stream, u *Update) error {
	s.SetCategory(wire.CategoryIndices)
	if err := wire.SerializeInt(s, &u.Index, 0, p.NumCubes-1); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryFlags)
	def := p.Players + 1
	if p.FromHost {
		if err := wire.SerializeInt(s, &u.Owner, 1, def); err != nil {
			return err
		}
	} else {
		claim := u.Owner == p.Sender
		if err := wire.SerializeBool(s, &claim); err != nil {
			return err
		}
		u.Owner = def
		if claim {
			u.Owner = p.Sender
		}
	}
	if p.Step >= StepSequences {
		if err := wire.SerializeUint16(s, &u.OwnSeq); err != nil {
			return err
		}
		if err := wire.SerializeUint16(s, &u.AuthSeq); err != nil {
			return err
		}
	}
	return serializeState(s, &u.State)
}

// serializeState is a cube's quantized state, absolute.
func serializeState(s wire.Stream, q *replication.QuantizedCubeState) error {
	s.SetCategory(wire.CategoryPosition)
	if err := wire.SerializeQuantizedPosition(s, &q.Position, wire.StateSyncPositionResolution); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryOrientation)
	if err := wire.SerializeQuantizedQuat(s, &q.Orientation, wire.StateSyncOrientationBits); err != nil {
		return err
	}
	s.SetCategory(wire.CategoryVelocity)
	if err := wire.SerializeBool(s, &q.AtRest); err != nil {
		return err
	}
	if q.AtRest {
		if s.IsReading() {
			q.LinearVelocity, q.AngularVelocity = wire.QuantizedVec3{}, wire.QuantizedVec3{}
		}
		return nil
	}
	if err := wire.SerializeQuantizedVelocity(s, &q.LinearVelocity, replication.LinearVelocityBits); err != nil {
		return err
	}
	return wire.SerializeQuantizedVelocity(s, &q.AngularVelocity, replication.AngularVelocityBits)
}

// stateOf is the cube state a quantized update stands for.
func stateOf(q *replication.QuantizedCubeState) cubes.CubeState {
	p, r, l, a := q.Dequantize()
	return cubes.CubeState{Position: p, Orientation: r, LinearVelocity: l, AngularVelocity: a}
}

// quantized is cube i of w on the wire's grid.
func quantized(w *cubes.World, i int) replication.QuantizedCubeState {
	c := w.Cube(i)
	return replication.QuantizeState(c.Position, c.Orientation, c.LinearVelocity, c.AngularVelocity)
}
