package rollback

// Design note: time sync, as GGPO does it. A machine's frame advantage
// over another player is how far its frame is ahead of where that
// player's machine probably is: the newest input of that player it holds,
// plus half a round trip. Each machine reports its own advantage (up in
// its ack; the server passes every player's down); a machine whose lead
// over a player is larger than that player's lead over it runs ahead, and
// waits half the difference, skipping one tick now and then, so rollbacks
// stay short. In one process every machine's inputs are made on the one
// session clock, so a machine ahead costs the others nothing here; the
// figure and the waiting are GGPO's all the same, and what the waiting
// buys shows on the machine that waits: shorter rollbacks, a world shown
// later.

import (
	"math"

	"netcubes/cubes"
	"netcubes/wire"
)

const (
	// advWindow is how many ticks an advantage is averaged over (GGPO's
	// frame window).
	advWindow = 40
	// syncEvery is how often a machine decides whether to wait (ticks).
	syncEvery = wire.TicksPerSecond
	// minWait is the smallest wait worth taking (frames): a difference of
	// a frame or two is the link's jitter.
	minWait = 2
	// maxWait bounds one decision's wait (frames).
	maxWait = 9
	// skipEvery spaces the skipped ticks (ticks): one now and then, not a
	// freeze.
	skipEvery = 4
)

// timeSync is one machine's time sync.
type timeSync struct {
	lag     int // ticks skipped since the start: the machine shows this much later
	pending int // ticks still to skip
	skipped int // ticks skipped since the start
	adv     [cubes.MaxPlayers][advWindow]int16
	n       int
	remote  [cubes.MaxPlayers]int32 // each player's machine's reported advantage
}

func (ts *timeSync) reset() { *ts = timeSync{} }

// measure records this tick's advantage over each other player.
func (ts *timeSync) measure(m *machine, rttFrames int) {
	k := ts.n % advWindow
	for p := range m.players {
		if p == m.own {
			continue
		}
		est := m.next[p] - 1 + rttFrames/2
		ts.adv[p][k] = int16(min(max(m.world.Frame()-est, -MaxAdvantage), MaxAdvantage))
	}
	ts.n++
}

// average is the mean advantage over player p in the window.
func (ts *timeSync) average(p int) float64 {
	n := min(ts.n, advWindow)
	if n == 0 {
		return 0
	}
	sum := 0
	for k := range n {
		sum += int(ts.adv[p][k])
	}
	return float64(sum) / float64(n)
}

// local is the advantage this machine reports: its largest lead over
// another player, averaged.
func (ts *timeSync) local(m *machine) int32 {
	best := math.Inf(-1)
	for p := range m.players {
		if p != m.own {
			best = max(best, ts.average(p))
		}
	}
	if math.IsInf(best, -1) {
		return 0
	}
	return int32(min(max(math.Round(best), -MaxAdvantage), MaxAdvantage))
}

// decide sets the ticks to skip: half the largest difference between this
// machine's lead over a player and that player's reported lead.
func (ts *timeSync) decide(m *machine) {
	wait := 0
	for p := range m.players {
		if p == m.own {
			continue
		}
		w := int(math.Round((ts.average(p) - float64(ts.remote[p])) / 2))
		wait = max(wait, w)
	}
	if wait >= minWait {
		ts.pending = min(wait, maxWait)
	}
}

// skip reports whether this tick is one to skip (and counts it).
func (ts *timeSync) skip(tick int) bool {
	if ts.pending == 0 || tick%skipEvery != 0 {
		return false
	}
	ts.pending--
	ts.lag++
	ts.skipped++
	return true
}
