package playout

import (
	"fmt"
	"math"
	"testing"

	"netcubes/wire"
	"netcubes/wire/wiretest"
)

// clockSim drives a Clock with packets sent every interval ticks,
// each arriving after latency(now) + a uniform integer jitter in
// [-jitter, jitter] ticks (never before it was sent), some lost. It checks,
// every tick, that the shown time never jumps: it advances by 1 ± MaxSlew.
type clockSim struct {
	t        *testing.T
	c        *Clock
	rng      wire.RNG
	interval int
	jitter   int
	lossPct  float64
	latency  func(now int) int
	inflight [][2]int // frame, arrival
	prevShow float64
	now      int
}

func newClockSim(t *testing.T, interval, jitter int, lossPct float64, delay float64, seed uint64, latency func(int) int) *clockSim {
	c := NewClock(DefaultClockConfig())
	c.SetDelay(delay)
	c.SetInterval(float64(interval))
	return &clockSim{t: t, c: c, rng: wire.NewRNG(seed), interval: interval, jitter: jitter, lossPct: lossPct, latency: latency}
}

func (s *clockSim) step() {
	now := s.now
	wasStarted := s.c.Started()
	if now%s.interval == 0 && s.rng.Float64()*100 >= s.lossPct {
		j := int(wiretest.Int64Range(&s.rng, int64(-s.jitter), int64(s.jitter)))
		s.inflight = append(s.inflight, [2]int{now, now + max(0, s.latency(now)+j)})
	}
	k := 0
	for _, p := range s.inflight {
		if p[1] <= now {
			s.c.OnPacket(p[0], now)
		} else {
			s.inflight[k] = p
			k++
		}
	}
	s.inflight = s.inflight[:k]
	s.c.Advance()
	if s.c.Started() {
		show := s.c.Time(now)
		if wasStarted {
			adv := show - s.prevShow
			slew := s.c.config().MaxSlew
			if adv < 1-slew-1e-9 || adv > 1+slew+1e-9 {
				s.t.Fatalf("tick %d: the shown time moved by %v", now, adv)
			}
		}
		s.prevShow = show
	}
	s.now++
}

// TestSnapshotClockTracksJitter: under ±2 frames of jitter and 5 % loss,
// at every send rate, the clock neither drifts away nor oscillates: after
// it has settled (5 s), its delay stays within ±1 frame of the target
// (mean latency + interpolation delay) for a whole minute, and it never
// re-locks.
func TestSnapshotClockTracksJitter(t *testing.T) {
	for _, interval := range []int{1, 2, 3, 6} {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("interval%d/seed%d", interval, seed), func(t *testing.T) {
				const latency, delay = 8, 5.0
				s := newClockSim(t, interval, 2, 5, delay, seed, func(int) int { return latency })
				var worst, sum float64
				n := 0
				for s.now < 65*60 {
					s.step()
					if s.now > 5*60 {
						dev := s.c.shownDelayTicks() - (latency + delay)
						worst = math.Max(worst, math.Abs(dev))
						sum += dev
						n++
					}
				}
				if worst > 1 || s.c.Relocks() != 0 {
					t.Errorf("delay off the target by up to %.2f ticks (mean %.2f), %d re-locks", worst, sum/float64(n), s.c.Relocks())
				}
			})
		}
	}
}

// TestSnapshotClockStartup: the first packet snaps the clock, so the first
// shown time is exactly the interpolation delay behind that packet.
func TestSnapshotClockStartup(t *testing.T) {
	c := NewClock(DefaultClockConfig())
	c.SetDelay(21)
	c.Advance() // nothing happens before a packet
	if c.Started() {
		t.Fatal("started without a packet")
	}
	c.OnPacket(1000, 1007)
	if !c.Started() || c.Time(1007) != 1000-21 || c.LatencyTicks() != 7 || c.shownDelayTicks() != 28 {
		t.Fatalf("after the first packet: time %v, latency %v", c.Time(1007), c.LatencyTicks())
	}
	c.Reset()
	if c.Started() || c.targetDelay() != 21 {
		t.Fatal("reset")
	}
}

// TestSnapshotClockRelocks: when the presenter switches from a perfect link
// to a terrible one (latency 0 → 15 ticks, jitter ±6) or back, the clock
// re-locks within about a second instead of drifting for a minute; the
// shown time glides there (checked every tick by clockSim) and ordinary
// jitter before and after causes no re-lock.
func TestSnapshotClockRelocks(t *testing.T) {
	for _, tc := range []struct {
		name               string
		interval           int
		before, after, jit int
	}{
		{"perfect-to-terrible-60Hz", 1, 0, 15, 6},
		{"terrible-to-perfect-60Hz", 1, 15, 0, 6},
		{"perfect-to-terrible-10Hz", 6, 0, 15, 6},
		{"terrible-to-perfect-10Hz", 6, 15, 0, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const switchAt, delay = 20 * 60, 5.0
			s := newClockSim(t, tc.interval, tc.jit, 5, delay, 3, func(now int) int {
				if now < switchAt {
					return tc.before
				}
				return tc.after
			})
			for s.now < switchAt {
				s.step()
			}
			before := s.c.Relocks()
			target := float64(tc.after) + delay
			settled := -1
			for s.now < switchAt+10*60 {
				s.step()
				if settled < 0 && math.Abs(s.c.shownDelayTicks()-target) < 2.5 {
					settled = s.now - switchAt
				}
			}
			if s.c.Relocks() == before {
				t.Errorf("no re-lock after a %d-tick change of latency", tc.after-tc.before)
			}
			// Half speed catches up 15 ticks in 30 ticks; detection takes
			// 4 packets and the arrival of the first slow one.
			if settled < 0 || settled > 90 {
				t.Errorf("delay within 2.5 ticks of %v after %d ticks", target, settled)
			}
			if d := s.c.shownDelayTicks() - target; math.Abs(d) > 2.5 {
				t.Errorf("10 s later the delay is off by %.2f ticks", d)
			}
			if s.c.Relocks() > before+2 {
				t.Errorf("%d re-locks for one change", s.c.Relocks()-before)
			}
		})
	}
}

// TestSnapshotClockSmallChange: a 2-tick change of latency is the loop's
// job: no re-lock, no overshoot beyond half a tick.
func TestSnapshotClockSmallChange(t *testing.T) {
	const switchAt, delay = 10 * 60, 5.0
	s := newClockSim(t, 1, 1, 0, delay, 4, func(now int) int {
		if now < switchAt {
			return 6
		}
		return 8
	})
	over := 0.0
	for s.now < switchAt+20*60 {
		s.step()
		if s.now > switchAt {
			over = math.Max(over, s.c.shownDelayTicks()-(8+delay))
		}
	}
	if s.c.Relocks() != 0 || over > 0.5 || math.Abs(s.c.shownDelayTicks()-(8+delay)) > 0.5 {
		t.Errorf("re-locks %d, overshoot %.2f, final delay %.2f", s.c.Relocks(), over, s.c.shownDelayTicks())
	}
}

// TestSnapshotClockOutage: two seconds without a packet change nothing:
// the clock runs on at the same rate and resumes without a re-lock.
func TestSnapshotClockOutage(t *testing.T) {
	s := newClockSim(t, 1, 1, 0, 5, 5, func(int) int { return 6 })
	for s.now < 10*60 {
		s.step()
	}
	d := s.c.shownDelayTicks()
	s.lossPct = 100
	for s.now < 12*60 {
		s.step()
	}
	if math.Abs(s.c.shownDelayTicks()-d) > 0.05 {
		t.Errorf("delay moved from %v to %v during an outage", d, s.c.shownDelayTicks())
	}
	s.lossPct = 0
	for s.now < 15*60 {
		s.step()
	}
	if s.c.Relocks() != 0 || math.Abs(s.c.shownDelayTicks()-11) > 1 {
		t.Errorf("after the outage: delay %v, %d re-locks", s.c.shownDelayTicks(), s.c.Relocks())
	}
}

// TestSnapshotClockDelayChange: a new interpolation delay is reached by
// gliding, at most MaxSlew ticks per tick.
func TestSnapshotClockDelayChange(t *testing.T) {
	s := newClockSim(t, 6, 0, 0, 21, 6, func(int) int { return 6 })
	for s.now < 5*60 {
		s.step()
	}
	s.c.SetDelay(5)
	for i := 0; i < 31; i++ {
		s.step() // clockSim fails the test if any tick jumps
	}
	if math.Abs(s.c.shownDelayTicks()-11) > 1 {
		t.Errorf("delay %v half a second after the change, want about 11", s.c.shownDelayTicks())
	}
}

// TestSnapshotClockJitterRise: when the jitter grows (±0 to ±6 ticks) but
// the mean latency stays, there is nothing to re-lock to: the large errors
// come in both directions, and the jitter estimate (hence the threshold)
// catches up.
func TestSnapshotClockJitterRise(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		s := newClockSim(t, 1, 0, 5, 5, seed, func(int) int { return 10 })
		for s.now < 10*60 {
			s.step()
		}
		s.jitter = 6
		worst := 0.0
		for s.now < 40*60 {
			s.step()
			worst = math.Max(worst, math.Abs(s.c.shownDelayTicks()-15))
		}
		if s.c.Relocks() != 0 || worst > 1.5 || s.c.Jitter() < 2.5 {
			t.Errorf("seed %d: %d re-locks, delay off by up to %.2f, jitter estimate %.2f", seed, s.c.Relocks(), worst, s.c.Jitter())
		}
	}
}
