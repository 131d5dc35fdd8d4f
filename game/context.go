package game

import (
	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// sessionContext is the session as the active strategy sees it during a
// tick (strategy.Context): the left world to read, the way to send a packet
// each way, the inputs. It is a view of the Session, not a copy.
type sessionContext struct{ s *Session }

var _ strategy.Context = (*sessionContext)(nil)

func (c *sessionContext) Frame() int                  { return c.s.frame }
func (c *sessionContext) Left() *cubes.World          { return c.s.left }
func (c *sessionContext) EditLeft() *cubes.World      { return c.s.left }
func (c *sessionContext) Input(f int) cubes.Input     { return c.s.inputAt(f) }
func (c *sessionContext) PresenterInput() cubes.Input { return c.s.presenter }
func (c *sessionContext) Initial() []cubes.CubeState  { return c.s.initial }
func (c *sessionContext) NewWorld() *cubes.World      { return c.s.newWorld() }
func (c *sessionContext) RTT() (float64, bool)        { return c.s.leftEP.RTT() }
func (c *sessionContext) Link() link.Config           { return c.s.cfg.Link }

func (c *sessionContext) Send(p strategy.Payload) (int, error)     { return c.s.send(p) }
func (c *sessionContext) SendBack(p strategy.Payload) (int, error) { return c.s.sendBack(p) }
func (c *sessionContext) Measure(p strategy.Payload) (wire.Breakdown, error) {
	return c.s.measure(p)
}
