package game

import "netcubes/link"

// What the tests of package game (and game_test) ask a session that
// nothing else does.

// ClientLink returns client k's conditions left → right.
func (s *Session) ClientLink(k int) link.Config { return s.clients[k].link.Down }

// SetClientLink changes client k's conditions only, both directions alike.
func (s *Session) SetClientLink(k int, c link.Config) { s.SetClientLinks(k, link.Symmetric(c)) }

// ClientSentHash is a hash of every data packet the server sent client k
// since the session began: two runs that sent the same bits have the same.
// (Config.Tap sees the packets too, but setting it sends serially: the
// parallel sender's tests read this instead.)
func (s *Session) ClientSentHash(k int) uint64 { return s.clients[k].sentHash }

// SentHashes are ClientSentHash of every client, in client order.
func (s *Session) SentHashes() []uint64 {
	hs := make([]uint64, len(s.clients))
	for k := range hs {
		hs[k] = s.ClientSentHash(k)
	}
	return hs
}

// TruthSent is what the left sent of the truth: bytes (sealing included)
// and datagrams.
func (s *Session) TruthSent() (int64, int64) { return s.tp.pacer.Bytes, s.tp.pacer.Datagrams }

// ClientBackHash is ClientSentHash for the ack packets client k's right
// sent the left (with the strategy's data back).
func (s *Session) ClientBackHash(k int) uint64 { return s.clients[k].backHash }

// RunRightsReversed makes the session run the clients' right sides
// serially, last client first, from the next tick on: when the strategy
// says they are independent (strategy.IndependentRight), or whatever it
// says with force.
func (s *Session) RunRightsReversed(force bool) {
	s.rightOrder = rightsReversed
	if force {
		s.rightOrder = rightsReversedForced
	}
}

// RightWorkers is how many workers ran the clients' right sides in the
// last tick (0: serially) under Config.Timing.
func (s *Session) RightWorkers() int { return len(s.rightWorkerNs) }

// SetSendPlan switches the send plan (sendplan.go) off or back on: off,
// the parallel workers send their clients in client order.
func (s *Session) SetSendPlan(on bool) { s.plan.noPlan = !on }

// SendPlanRecords is how many recordings the send plan gave each worker
// since the session began.
func (s *Session) SendPlanRecords() []int { return s.plan.records }
