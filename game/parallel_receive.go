package game

import (
	"runtime"
	"time"

	"netcubes/internal/cputime"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: the players' machines on the cores. In one process the
// right side of every client is one player's machine: rollback's
// resimulation, distributed authority's world, the 2004 client's replay.
// Each costs a world step or more a tick, so with eight players the
// clients' part of a tick is most of it, and it ran on one core, one
// machine after another. On real machines they run at once, because
// nothing one does within a tick reaches another before the next one:
// everything a machine learns travels on its own links, which deliver
// only at the next tick's start.
//
// So the session runs them at once when the strategy says its right side
// touches only its own instance (strategy.IndependentRight): each client
// reads its packets with its own reader (client.r), writes its ack on its
// own link, and its strategy's instance reads nothing another client
// writes. The clients are split into the same fixed contiguous runs as
// the parallel sends (parallel.go), each run in client order on one
// goroutine; what depends on the order (the views, the metrics summed
// over the clients, the shown client's error figures: finish) stays after
// them, serial, in client order. Nothing a client computes depends on when
// another runs, so how many cores run them changes nothing but the time:
// every packet, hash and view is the bits of a serial run, whatever
// GOMAXPROCS is. Serial still: a strategy that does not say so, sessions a
// test taps (Config.Tap, whose callback is not made for concurrent calls),
// and a single client.

// minRightsPerWorker is the fewest clients worth a goroutine of their own:
// a machine's tick is a world step or more (0.4 ms and up), against a few
// microseconds to start and join a goroutine, so one is enough. (With two
// players on two cores, one machine a worker took the tick's critical
// path 5-16 % lower than both machines on one, for 6-8 % more CPU.)
const minRightsPerWorker = 1

// rightOrder is how a test asks the clients' right sides to run (the
// app and the bench leave it at rightsAsTheyFit).
type rightOrder uint8

const (
	rightsAsTheyFit rightOrder = iota // parallel when the strategy allows it
	// rightsReversed runs the right sides serially, last client first,
	// when the strategy says they are independent: a test compares it
	// with a forward run, so a strategy that shares state between them
	// and says otherwise is found whatever the machine's cores.
	rightsReversed
	// rightsReversedForced is rightsReversed whatever the strategy says
	// (the test that shows the check finds a shared right).
	rightsReversedForced
)

// independentRights reports whether the active strategy's right sides may
// run in any order, or at once.
func (s *Session) independentRights() bool {
	ir, ok := s.clients[0].st.(strategy.IndependentRight)
	return ok && ir.IndependentRight()
}

// receiveAll runs every client's right side for this tick (client.receive):
// serially, or in parallel runs when the strategy allows it. Under
// Config.Timing it measures the clients' side: rightNs on its critical
// path (the serial part and the slowest run), rightCPU in all.
func (s *Session) receiveAll(now wire.Tick) {
	var t0 time.Duration
	if s.cfg.Timing {
		t0, _ = cputime.Thread()
	}
	s.rightWorkerNs = s.rightWorkerNs[:0]
	independent := s.independentRights()
	workers := min(runtime.GOMAXPROCS(0), len(s.clients)/minRightsPerWorker)
	switch {
	case s.rightOrder != rightsAsTheyFit && (independent || s.rightOrder == rightsReversedForced):
		for k := len(s.clients) - 1; k >= 0; k-- {
			s.clients[k].receiveNow(now)
		}
	case s.rightOrder == rightsAsTheyFit && independent && workers >= 2 && s.cfg.Tap == nil && s.onSend == nil:
		s.runClients(workers, nil, &s.rightWorkerNs, now, (*client).receiveNow)
	default:
		for _, c := range s.clients {
			c.receiveNow(now)
		}
	}
	if s.cfg.Timing {
		s.rightNs, s.rightCPU = partTime(t0, s.rightWorkerNs)
	}
}

// receiveNow is the client's right side of this tick: the packets its link
// delivers now, then client.receive.
func (c *client) receiveNow(now wire.Tick) {
	c.receive(now, c.collect(c.toRight.Receive(now)))
}

// workersNs is the slowest of the workers' times and their sum.
func workersNs(ns []int64) (slowest, all int64) {
	for _, n := range ns {
		slowest = max(slowest, n)
		all += n
	}
	return slowest, all
}

// partTime is a part of the tick timed on the calling thread from t0, its
// workers ns included: on its critical path (the thread's CPU and the
// slowest worker) and in all (every worker's too).
func partTime(t0 time.Duration, ns []int64) (path, cpu int64) {
	t1, _ := cputime.Thread()
	serial := int64(t1 - t0)
	slowest, all := workersNs(ns)
	return serial + slowest, serial + all
}

// RightNanos is the CPU time of the clients' side of the last tick
// (Config.Timing; 0 without it) on its critical path: every client's
// right side (its machine's tick, its ack), with the clients spread over
// this machine's cores when the strategy allows it (on idle cores, that
// part of the tick's time). RightCPU is its CPU time in all.
func (s *Session) RightNanos() int64 { return s.rightNs }

// RightCPU is the clients' side's CPU time of the last tick, every core's.
func (s *Session) RightCPU() int64 { return s.rightCPU }

// WorkersNanos are the CPU times of the last tick's parallel workers
// (Config.Timing), the server's sends' and the clients' right sides':
// critical is the slowest worker of each part, summed (what they add to
// the calling thread's time on the tick's critical path), all every
// worker's. A caller that measures its own thread's CPU time around a
// Step adds them to get the tick's critical path and its CPU in all.
func (s *Session) WorkersNanos() (critical, all int64) {
	sendSlow, sendAll := workersNs(s.workerNs)
	rightSlow, rightAll := workersNs(s.rightWorkerNs)
	return sendSlow + rightSlow, sendAll + rightAll
}
