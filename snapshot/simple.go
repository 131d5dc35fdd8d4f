package snapshot

import (
	"fmt"

	"netcubes/adapt"
	"netcubes/strategy"
)

// Design note: the source articles' simple congestion avoidance on
// snapshots (package adapt's Simple has the rules). The articles' two
// modes are packet rates, and a snapshot sender's only handle is its rate:
// good mode sends 30 snapshots a second, bad mode 10, never above the
// presenter's rate (the interpolation demo's 10 Hz stays 10 Hz). It shares
// F8 with the estimator (off → on, the estimator → simple → off): the
// baseline first, then what the estimator buys on the same cap step.

// congestionValues are F8's values, in the order a press walks them.
var congestionValues = []string{"off", "on (the estimator)", "simple (the articles' two modes)"}

// congestionIndex is the F8 value of c.
func congestionIndex(c *Config) int {
	switch {
	case !c.CongestionAvoidance:
		return 0
	case c.SimpleCongestion:
		return 2
	}
	return 1
}

// congestionControl is F8: off, the estimator, or the articles' simple
// two modes.
func (st *Strategy) congestionControl() strategy.Control {
	return strategy.Control{Key: adapt.CongestionKey, Label: "congestion avoidance",
		Help:   "congestion avoidance: off / estimator / simple (30 / 10 Hz)",
		Action: strategy.Cycle,
		Value:  func() string { return congestionValues[congestionIndex(&st.cfg)] },
		Do: func(dir int) {
			n := len(congestionValues)
			i := (congestionIndex(&st.cfg) + dir + n) % n
			st.cfg.CongestionAvoidance, st.cfg.SimpleCongestion = i > 0, i == 2
		}}
}

// congestionFlag is -congestion (the same flag as state sync's).
func (st *Strategy) congestionFlag() strategy.Flag {
	return strategy.ChoiceFlag("congestion", "congestion avoidance of snapshots and state sync: off, on (the estimator) or simple (the articles' two modes, 30 / 10 packets a second)",
		[]string{"off", "on", "simple"}, func(i int) {
			st.cfg.CongestionAvoidance, st.cfg.SimpleCongestion = i > 0, i == 2
		})
}

// simpleRate is the rate of the rule's mode: the highest of Rates at most
// its packets a second, and at most the presenter's.
func simpleRate(pps int, chosen Rate) Rate {
	for _, r := range Rates {
		if int(r) <= pps && r <= chosen {
			return r
		}
	}
	return Rates[len(Rates)-1]
}

// simpleSend is the left's tick under the simple rule: the mode from the
// sample, and the rate it sets.
func (a *snapshotAdapt) simpleSend(cfg *Config, smp adapt.Sample, now int) {
	on := cfg.CongestionAvoidance && cfg.SimpleCongestion
	s := a.simple.Rule()
	if on && !a.simple.On {
		s.Reset()
	}
	a.simple.On = on
	s.Update(smp)
	if !on {
		return
	}
	if r := simpleRate(s.PPS(), a.chosen); r != cfg.Rate {
		from := cfg.Rate
		a.setRate(cfg, r, now)
		a.last = fmt.Sprintf("%s: %s → %s", s.Last(), from, r)
		a.lastAt = now
	}
}

// simpleReason is the rule's mode and why, in the rates it sets.
func (a *snapshotAdapt) simpleReason() string {
	c := a.simple.Rule().Config()
	return a.simple.Rule().ReasonAs(simpleRate(c.GoodPPS, a.chosen).String(), simpleRate(c.BadPPS, a.chosen).String())
}

// simpleExplain is the top line under the simple rule.
func (a *snapshotAdapt) simpleExplain() string {
	return "Simple congestion avoidance (the articles'): " + a.simpleReason() +
		". Good: 30 Hz; bad (RTT > 250 ms): 10 Hz; a relapse within 10 s doubles the wait, 10 s of good halves it."
}
