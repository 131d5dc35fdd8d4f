package game

import (
	"fmt"

	"netcubes/cubes"
	"netcubes/net"
)

// StrategyID names a networking strategy.
type StrategyID int

const (
	// StrategySnapshot is snapshot interpolation with the compression levels.
	StrategySnapshot StrategyID = iota
	// StrategyStateSync is state synchronization.
	StrategyStateSync
	// NumStrategies counts the strategies.
	NumStrategies
)

// String names the strategy.
func (id StrategyID) String() string {
	switch id {
	case StrategySnapshot:
		return "snapshot"
	case StrategyStateSync:
		return "statesync"
	}
	return fmt.Sprintf("strategy(%d)", int(id))
}

// strategyConstructors is filled by each strategy's file (in an init
// function), so strategies can be added without editing a shared list.
var strategyConstructors [NumStrategies]func() Strategy

// registerStrategy installs the constructor of strategy id.
func registerStrategy(id StrategyID, newFn func() Strategy) { strategyConstructors[id] = newFn }

// Strategy is one way of networking the world. The session owns the links,
// the packet sequence numbers and the acks; a strategy owns its packet
// format, what the left sends and how the right rebuilds the world.
type Strategy interface {
	// Name is the strategy's name for the HUD ("Snapshot interpolation").
	Name() string
	// Mode describes the current settings in a few words.
	Mode() string
	// Explain is one line saying what the presenter is looking at.
	Explain() string

	// Reset forgets everything (a new session or a switch to this
	// strategy). The right side starts from the world's initial state,
	// which both sides know.
	Reset(ctx *Context)

	// Send runs on the left after the left world stepped. It may send one
	// packet with ctx.Send.
	Send(ctx *Context)
	// Acked tells the left that the right received its packet seq.
	Acked(ctx *Context, seq uint16)

	// Receive decodes one packet that reached the right. The sequence has
	// been read; s is positioned at the strategy's payload. Returning an
	// error drops the packet (hostile or corrupt bytes).
	Receive(ctx *Context, seq uint16, s *net.ReadStream) error
	// Update advances the right side by one tick, after this tick's
	// packets were received.
	Update(ctx *Context)
	// View fills the right view model and returns the left frame it shows
	// (fractional while interpolating), or ok = false before it shows
	// anything.
	View(v *View) (shown float64, ok bool)
}

// Payload is a packet body the session frames and sends.
type Payload interface {
	Serialize(s net.Stream) error
}

// Context is what a strategy sees of the session during a tick.
type Context struct {
	s *Session
}

// Frame is the current tick: the number of steps the left world has taken.
func (c *Context) Frame() int { return c.s.frame }

// Left is the authoritative world (read it; only the session steps it).
func (c *Context) Left() *cubes.World { return c.s.left }

// Input returns the input the left used at frame f, or idle input for a
// frame outside the last InputHistory ticks.
func (c *Context) Input(f int) cubes.Input { return c.s.inputAt(f) }

// Initial returns the world's initial state, known to both sides.
func (c *Context) Initial() []cubes.CubeState { return c.s.initial }

// NewWorld builds a world in its initial state, for a strategy whose right
// side simulates.
func (c *Context) NewWorld() *cubes.World { return c.s.newWorld() }

// Send writes p after the sequence number (the current frame) and sends
// the packet to the right. It returns the packet's size in bytes without
// the IP and UDP headers.
func (c *Context) Send(p Payload) (int, error) { return c.s.send(p) }

// Measure returns the number of bits p would take after the sequence.
func (c *Context) Measure(p Payload) (net.Breakdown, error) { return c.s.measure(p) }

// RTT is the round-trip time the left measures from acks, in ms (false
// before the first ack).
func (c *Context) RTT() (float64, bool) { return c.s.leftEP.RTT() }

// Link is the current configuration of the left → right link.
func (c *Context) Link() net.LinkConfig { return c.s.cfg.Link }
