package game

import (
	"runtime"
	"sync"

	"netcubes/internal/cputime"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: encoding in parallel. The server's per-tick work has a part
// done once (the world's step, and what a strategy's clients share: the
// world quantized, its hash, the inputs relayed) and a part per client
// (choosing, encoding and sending its packet). With many clients the second
// dominates (the scale bench: 64 state sync clients cost about 12 ms of CPU
// a tick), and it is independent from client to client, so the session
// spreads it over the machine's cores. Every packet must stay the bits a
// serial run sends: the shared part is done first, once, serially
// (strategy.Preparer), after which a client's Send reads what it shares
// and writes only its own instance, its own streams and its own links; the
// clients are split into fixed contiguous runs, each run sent in order
// (client order, or the send plan's: sendplan.go), and nothing a client
// computes depends on another's, so how many cores run them, and in what
// order, changes nothing but the time. A strategy that does not
// implement Preparer is sent serially, as are sessions a test taps
// (Config.Tap, whose callback is not made for concurrent calls).

// minParallelClients is the fewest clients worth spreading over cores:
// below it the goroutines' start-up costs more than it saves.
const minParallelClients = 8

// sendAll runs every client's sender: serially, or in parallel after the
// strategy's shared preparation.
func (s *Session) sendAll() {
	p, prepares := s.clients[0].st.(strategy.Preparer)
	if prepares {
		p.PrepareSend(s.Context())
	}
	workers := min(runtime.GOMAXPROCS(0), len(s.clients)/minParallelClients)
	if !prepares || workers < 2 || s.cfg.Tap != nil || s.onSend != nil {
		for _, c := range s.clients {
			c.sendData()
		}
		return
	}
	per := (len(s.clients) + workers - 1) / workers
	s.runClients(workers, s.planSends(per), &s.workerNs, 0, sendOne)
}

// sendOne is a client's send, as runClients calls it.
func sendOne(c *client, _ wire.Tick) { c.sendData() }

// runClients calls f(c, now) for every client c in fixed contiguous runs,
// one goroutine each, each run in client order (or in the order of
// ordered, the clients with each run's members permuted among
// themselves: sendplan.go), and waits for them all. Under Config.Timing
// each worker's thread CPU time goes to (*ns)[w]. Every worker's slot is
// taken before any starts: a slot appended while the earlier workers run
// could move under them.
func (s *Session) runClients(workers int, ordered []*client, ns *[]int64, now wire.Tick, f func(*client, wire.Tick)) {
	per := (len(s.clients) + workers - 1) / workers
	if ordered == nil {
		ordered = s.clients
	}
	*ns = (*ns)[:0]
	for from := 0; from < len(s.clients); from += per {
		*ns = append(*ns, 0)
	}
	times := *ns
	var wg sync.WaitGroup
	for w, from := 0, 0; from < len(s.clients); w, from = w+1, from+per {
		run := ordered[from:min(from+per, len(s.clients))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s.cfg.Timing {
				// The worker's own CPU time (Config.Timing).
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				t0, _ := cputime.Thread()
				defer func() { t1, _ := cputime.Thread(); times[w] = int64(t1 - t0) }()
			}
			for _, c := range run {
				f(c, now)
			}
		}()
	}
	wg.Wait()
}

// hashBytes folds b into the FNV-1a hash h (0 starts one).
func hashBytes(h uint64, b []byte) uint64 {
	if h == 0 {
		h = 14695981039346656037
	}
	for _, x := range b {
		h ^= uint64(x)
		h *= 1099511628211
	}
	return h
}
