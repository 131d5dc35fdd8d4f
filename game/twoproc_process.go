package game

import (
	"fmt"

	"netcubes/viewmodel"
	"netcubes/wire"
)

// The two halves of a two-process session as processes (process.go): what
// each does of a tick (twoproc.go: stepLeftProcess, stepRightProcess) and
// how its answers differ from one process's.

// leftProcess runs the left world and the strategy's senders; its clients'
// packets go out on the socket.
type leftProcess struct{ *twoProc }

func (leftProcess) start(s *Session) {
	// A right may connect before the first tick: it starts from here.
	if body := s.writeState(s.tp.ctlW, s.tp.ctlBuf, s.leftState(0, 0)); body != nil {
		s.tp.server.SetAccept(body)
	}
}

func (leftProcess) step(s *Session, now wire.Tick)  { s.stepLeftProcess(now) }
func (leftProcess) botsHere() bool                  { return true }
func (leftProcess) presenter(_ *Session, p int) int { return p }
func (leftProcess) inputClients(*Session) int       { return 1 }
func (leftProcess) readsCharged() bool              { return false }
func (leftProcess) measuresRight() bool             { return false }
func (leftProcess) refresh(*Session)                {}
func (leftProcess) fencesPresenter() bool           { return false }
func (leftProcess) halves() (bool, bool)            { return true, false }
func (leftProcess) playersElsewhere() bool          { return false }

// linkFigures: the acks and the strategy's data come in over the socket.
func (leftProcess) linkFigures(c *client, m *viewmodel.Metrics, now wire.Tick) {
	m.AckKbps = c.leftEP.ReceivedKbps(now)
}

// setPlayers: the left sets them, and its clients stay one per slot.
func (leftProcess) setPlayers(*Session) (bool, error) { return false, nil }

func (leftProcess) timeline(s *Session, c *client, dst []viewmodel.PacketRecord) []viewmodel.PacketRecord {
	return s.sentTimeline(c, dst)
}

// rightProcess runs one client's receiver, driven by the left's state.
type rightProcess struct{ *twoProc }

func (rightProcess) start(*Session)                 {}
func (rightProcess) step(s *Session, now wire.Tick) { s.stepRightProcess(now) }
func (rightProcess) botsHere() bool                 { return false } // the bots run on the left
func (rightProcess) presenter(*Session, int) int    { return 0 }     // its keys drive its own player
func (rightProcess) inputClients(*Session) int      { return 1 }
func (rightProcess) readsCharged() bool             { return true }
func (rightProcess) measuresRight() bool            { return true }
func (rightProcess) refresh(*Session)               {}
func (rightProcess) fencesPresenter() bool          { return false }
func (rightProcess) halves() (bool, bool)           { return false, true }
func (rightProcess) playersElsewhere() bool         { return true }

// linkFigures: the left's data as it arrives here; the RTT and the loss
// as the left measures them from the acks (its control datagrams say).
func (rightProcess) linkFigures(c *client, m *viewmodel.Metrics, now wire.Tick) {
	m.SentKbps = c.rightEP.ReceivedKbps(now)
	m.PacketsReceived = c.rightEP.Stats().Received
	r := c.s.Remote()
	m.RTTms, m.HasRTT, m.Loss = r.RTTms, r.HasRTT, r.Loss
	m.RTTSamples, m.LossSamples = -1, -1
}

func (rightProcess) setPlayers(*Session) (bool, error) { return false, errLeftSetsPlayers }

// timeline: the packets that arrived (recordArrival).
func (rightProcess) timeline(s *Session, c *client, dst []viewmodel.PacketRecord) []viewmodel.PacketRecord {
	for _, r := range c.timelineRecv {
		if s.frame-r.Arrival <= timelineTicks {
			dst = append(dst, r)
		}
	}
	return dst
}

// checkConnection refuses a half of a two-process session without its
// connection.
func (c *Config) checkConnection() error {
	if (c.Role == RoleLeft && c.Server == nil) || (c.Role == RoleRight && c.Client == nil) {
		return fmt.Errorf("%w: the two-process mode needs a connection (Server or Client)", ErrInvalidConfig)
	}
	return nil
}
