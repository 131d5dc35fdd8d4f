package adapt

import (
	"strings"
	"testing"

	"netcubes/wire"
	"netcubes/wire/wiretest"
)

// stream is a synthetic ack stream: every tick the sender sends one packet
// filling the estimate (capped at limitKbps) and its ack comes back
// rtt(t) ticks later, unless lost(t). No link, no queue model: each test
// writes the round trips it wants the estimator to see.
type stream struct {
	e          *Estimator
	tr         Tracker
	limitKbps  int
	rtt        func(t int) int
	lost       func(t int) bool
	acks       map[int][]int // arrival tick → frames
	t          int
	rates      []int
	reasons    []string
	states     []State
	backOffs   []int // ticks of back-offs
	lastReason string
}

func newStream(cfg Config, rtt func(int) int, lost func(int) bool) *stream {
	s := &stream{e: New(cfg), limitKbps: cfg.MaxKbps, rtt: rtt, lost: lost, acks: map[int][]int{}}
	s.tr.Reset()
	return s
}

func (s *stream) run(ticks int) {
	for end := s.t + ticks; s.t < end; s.t++ {
		for _, f := range s.acks[s.t] {
			s.tr.Acked(f, s.t)
		}
		delete(s.acks, s.t)
		prev := s.e.State()
		s.e.Update(s.tr.Tick(s.t, s.e.LossWaitTicks()))
		if s.e.State() == StateBackOff && prev != StateBackOff {
			s.backOffs = append(s.backOffs, s.t)
		}
		s.rates = append(s.rates, s.e.Kbps())
		s.states = append(s.states, s.e.State())
		s.lastReason = s.e.Reason()
		s.reasons = append(s.reasons, s.lastReason)
		kbps := min(s.limitKbps, s.e.Kbps())
		bytes := max(kbps*1000/8/wire.TicksPerSecond, 40)
		s.tr.Sent(s.t, bytes)
		if s.lost == nil || !s.lost(s.t) {
			at := s.t + s.rtt(s.t)
			s.acks[at] = append(s.acks[at], s.t)
		}
	}
}

func constant(n int) func(int) int { return func(int) int { return n } }

// jittery is a round trip of base ± j ticks, drawn from a seeded
// generator (the same for every run).
func jittery(base, j int) func(int) int {
	rng := wire.NewRNG(9)
	return func(int) int { return base + int(wiretest.Int64Range(&rng, int64(-j), int64(j))) }
}

const sec = wire.TicksPerSecond

// TestEstimatorCleanLink: a steady round trip, with or without jitter and
// random loss: the slow start reaches the setting and nothing is ever cut.
func TestEstimatorCleanLink(t *testing.T) {
	rng := wire.NewRNG(4)
	tests := []struct {
		name string
		rtt  func(int) int
		lost func(int) bool
	}{
		{"steady 100 ms", constant(6), nil},
		{"±50 ms of jitter", jittery(15, 3), nil},
		{"20 % random loss and ±100 ms", jittery(30, 6), func(int) bool { return rng.Float64() < 0.2 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStream(DefaultConfig(64, 512), tc.rtt, tc.lost)
			s.run(60 * sec)
			if len(s.backOffs) > 0 {
				t.Errorf("backed off at ticks %v: %s", s.backOffs, s.reasons[s.backOffs[0]])
			}
			if s.rates[6*sec] != 512 || s.rates[len(s.rates)-1] != 512 {
				t.Errorf("rate %d at 6 s, %d at the end", s.rates[6*sec], s.rates[len(s.rates)-1])
			}
			if s.rates[0] != 128 {
				t.Errorf("started at %d kbit/s, not the slow start's 128", s.rates[0])
			}
			if !strings.HasPrefix(s.lastReason, "clear") {
				t.Errorf("reason %q", s.lastReason)
			}
		})
	}
}

// TestEstimatorQueueBuilding: the round trip grows by a tick every 5 ticks
// (a queue filling at 20 % of real time: the sender is 20 % over the
// path): the estimator backs off within a few ticks of the queueing delay
// passing the target, to at most 85 % of what gets through, says why, and
// holds while the queue it no longer feeds drains.
func TestEstimatorQueueBuilding(t *testing.T) {
	const start = 8 * sec
	q := 0
	rtt := func(t int) int {
		if t < start {
			return 6
		}
		if t < start+3*sec {
			q = (t - start) / 5
		} else {
			q = max(0, q-1) // draining after the back-off took effect
		}
		return 6 + q
	}
	s := newStream(DefaultConfig(64, 512), rtt, nil)
	s.run(start + 3*sec)
	if len(s.backOffs) == 0 {
		t.Fatal("never backed off")
	}
	first := s.backOffs[0]
	// The target (50 ms, 3 ticks of queue) is passed by packets sent 15
	// ticks after the start, whose acks come back 9 ticks later; the mean
	// of the last 8 round trips and the 4 ticks of confirmation follow.
	seen := start + 15 + 9
	t.Logf("back-off %d ticks after the queue passed the target: %s", first-seen, s.reasons[first])
	if first < seen || first > seen+12 {
		t.Errorf("backed off at tick %d, the queue passed the target for the estimator at %d", first, seen)
	}
	if !strings.HasPrefix(s.reasons[first], "queue building") || !strings.Contains(s.reasons[first], "→") {
		t.Errorf("reason %q", s.reasons[first])
	}
	if before, after := s.rates[first-1], s.rates[first]; after > before*85/100 {
		t.Errorf("backed off from %d to %d kbit/s", before, after)
	}
	if s.states[first+1] != StateHold {
		t.Errorf("after the back-off: %v", s.states[first+1])
	}
}

// TestEstimatorLossBurst: two seconds of 40 % loss on a path with no
// queue are not congestion (the rate is kept); the same burst while the
// round trip sits above the target is (a back-off, and its reason names
// the loss).
func TestEstimatorLossBurst(t *testing.T) {
	burst := func(t int) bool { return t >= 10*sec && t < 12*sec && t%5 < 2 }
	s := newStream(DefaultConfig(64, 512), constant(6), burst)
	s.run(15 * sec)
	if len(s.backOffs) > 0 {
		t.Errorf("backed off at %v for loss without a queue: %s", s.backOffs, s.reasons[s.backOffs[0]])
	}
	if s.rates[len(s.rates)-1] != 512 {
		t.Errorf("rate %d after the burst", s.rates[len(s.rates)-1])
	}

	// A queue of 5 ticks (83 ms) builds in the second before the burst and
	// stays, neither growing nor draining.
	queued := func(t int) int {
		if t < 9*sec {
			return 6
		}
		return 6 + min(5, (t-9*sec)/6)
	}
	s = newStream(DefaultConfig(64, 512), queued, burst)
	s.run(15 * sec)
	lossy := -1
	for _, k := range s.backOffs {
		if strings.HasPrefix(s.reasons[k], "loss") {
			lossy = k
			break
		}
	}
	if lossy < 10*sec {
		t.Fatalf("no back-off for loss at a queue (back-offs at %v)", s.backOffs)
	}
	t.Logf("%.2f s into the burst: %s", float64(lossy-10*sec)/sec, s.reasons[lossy])
}

// TestEstimatorPathGotSlower: the round trip steps from 100 ms to 300 ms
// and stays (a longer route; the sender feeds no queue): the estimator
// holds rather than cut again and again, takes the new round trip as the
// base after SteadyTicks, and is back at the setting soon after.
func TestEstimatorPathGotSlower(t *testing.T) {
	rtt := func(t int) int {
		if t < 10*sec {
			return 6
		}
		return 18
	}
	s := newStream(DefaultConfig(64, 512), rtt, nil)
	s.run(25 * sec)
	if len(s.backOffs) > 1 {
		t.Errorf("%d back-offs for one step of latency", len(s.backOffs))
	}
	lowest := 512
	for _, r := range s.rates[10*sec:] {
		lowest = min(lowest, r)
	}
	if lowest < 256 {
		t.Errorf("the rate fell to %d kbit/s", lowest)
	}
	if s.rates[len(s.rates)-1] != 512 {
		t.Errorf("rate %d kbit/s 15 s after the step", s.rates[len(s.rates)-1])
	}
}

// TestEstimatorFollowsDemand: with StartKbps 0 (snapshots) the estimate
// follows 1.5 × what gets through until the first back-off, and it never
// grows past 1.5 × the delivery rate of a sender that uses less.
func TestEstimatorFollowsDemand(t *testing.T) {
	cfg := DefaultConfig(16, 20000)
	cfg.StartKbps = 0
	s := newStream(cfg, constant(6), nil)
	s.limitKbps = 200 // the sender's own demand
	s.run(10 * sec)
	got := s.rates[len(s.rates)-1]
	if got < 280 || got > 310 {
		t.Errorf("estimate %d kbit/s for a sender at 200 kbit/s (want about 1.5 × 200 with headers)", got)
	}
	if s.states[len(s.states)-1] != StateLimited {
		t.Errorf("state %v", s.states[len(s.states)-1])
	}
}

func TestEstimatorSetMax(t *testing.T) {
	s := newStream(DefaultConfig(64, 512), constant(6), nil)
	s.run(6 * sec)
	s.e.SetMaxKbps(256)
	if s.e.Kbps() != 256 {
		t.Fatalf("after SetMaxKbps(256): %d", s.e.Kbps())
	}
	s.limitKbps = 1024
	s.e.SetMaxKbps(1024)
	s.run(5 * sec)
	if got := s.e.Kbps(); got <= 256 || got > 1024 {
		t.Fatalf("5 s after the limit rose to 1024: %d", got)
	}
}

// TestEstimatorDeterminism: the same stream gives the same rates and the
// same words, tick by tick; a Reset starts over exactly.
func TestEstimatorDeterminism(t *testing.T) {
	run := func() *stream {
		rng := wire.NewRNG(5)
		s := newStream(DefaultConfig(64, 512), jittery(10, 4), func(int) bool { return rng.Float64() < 0.05 })
		s.run(30 * sec)
		return s
	}
	a, b := run(), run()
	for k := range a.rates {
		if a.rates[k] != b.rates[k] || a.reasons[k] != b.reasons[k] {
			t.Fatalf("tick %d: %d %q, then %d %q", k, a.rates[k], a.reasons[k], b.rates[k], b.reasons[k])
		}
	}
	a.e.Reset()
	if a.e.Kbps() != 128 || a.e.State() != StateStarting {
		t.Errorf("after Reset: %d kbit/s, %v", a.e.Kbps(), a.e.State())
	}
}

func TestIsqrt(t *testing.T) {
	for _, x := range []int64{0, 1, 2, 3, 4, 15, 16, 17, 1 << 40, 1<<62 - 1} {
		r := isqrt(x)
		if r*r > x || (r+1)*(r+1) <= x {
			t.Errorf("isqrt(%d) = %d", x, r)
		}
	}
}
