package statesync

import (
	"fmt"

	"netcubes/adapt"
	"netcubes/strategy"
)

// Design note: the source articles' simple congestion avoidance on state
// sync (package adapt's Simple has the rules). The articles' two modes are
// packet rates, 30 and 10 a second; a state sync sender sends a packet
// every tick (each carries the inputs the right simulates with), so here a
// mode is a share of the budget instead: bad mode sends a third of it, the
// articles' 10 of 30. It shares F8 with the estimator (off → on, the
// estimator → simple → off), so the audience sees the baseline and then
// what the estimator buys on the same cap step.

// congestionValues are F8's values, in the order a press walks them.
var congestionValues = []string{"off", "on (the estimator)", "simple (the articles' two modes)"}

// congestionIndex is the F8 value of s.
func congestionIndex(s Settings) int {
	switch {
	case !s.CongestionAvoidance:
		return 0
	case s.SimpleCongestion:
		return 2
	}
	return 1
}

// congestionPart is the mode line's word for the congestion setting.
func congestionPart(simple bool) string {
	if simple {
		return "simple congestion avoidance"
	}
	return "congestion avoidance"
}

// congestionControl is F8: off, the estimator, or the articles' simple
// two modes.
func (st *Strategy) congestionControl() strategy.Control {
	return strategy.Control{Key: adapt.CongestionKey, Label: "congestion avoidance",
		Help:   "congestion avoidance: off / estimator / simple (two modes)",
		Action: strategy.Cycle,
		Value:  func() string { return congestionValues[congestionIndex(st.set)] },
		Do: func(dir int) {
			n := len(congestionValues)
			s := st.set
			i := (congestionIndex(s) + dir + n) % n
			s.CongestionAvoidance, s.SimpleCongestion = i > 0, i == 2
			st.SetSettings(s)
		}}
}

// congestionFlag is -congestion (the same flag as the snapshots').
func (st *Strategy) congestionFlag() strategy.Flag {
	return strategy.ChoiceFlag("congestion", "congestion avoidance of snapshots and state sync: off, on (the estimator) or simple (the articles' two modes, 30 / 10 packets a second)",
		[]string{"off", "on", "simple"}, func(i int) {
			s := st.set
			s.CongestionAvoidance, s.SimpleCongestion = i > 0, i == 2
			st.SetSettings(s)
		})
}

// simpleCongestion reports whether the simple rule sets the budget.
func (st *Strategy) simpleCongestion() bool {
	return st.congestionAvoidance() && st.set.SimpleCongestion
}

// simpleRule is the simple congestion avoidance's state on the left,
// with what it means for state sync's budget.
type simpleRule struct{ adapt.SimpleRule }

// update feeds the tick's sample; a fresh start (bad mode) when the rule
// comes into force.
func (r *simpleRule) update(st *Strategy, smp adapt.Sample) {
	on := st.simpleCongestion()
	if on && !r.On {
		r.Rule().Reset()
	}
	r.On = on
	r.Rule().Update(smp)
}

// simpleBudgetKbps is the budget in the rule's mode: the setting in good
// mode, a third of it in bad (at least MinAdaptKbps).
func (r *simpleRule) simpleBudgetKbps(setting int) int {
	s := r.Rule()
	if s.Good() {
		return setting
	}
	// The articles' bad mode sends 10 packets of 30: a third.
	c := s.Config()
	return max(setting*c.BadPPS/c.GoodPPS, min(MinAdaptKbps, setting))
}

// reason is the rule's mode and why, in a budget's words.
func (r *simpleRule) reason(setting int) string {
	return r.Rule().ReasonAs(fmt.Sprintf("%d kbit/s", setting), fmt.Sprintf("a third, %d kbit/s", r.simpleBudgetKbps(setting)))
}

// explain is the top line under the simple rule.
func (r *simpleRule) explain(setting int) string {
	return "Simple congestion avoidance (the articles'): " + r.reason(setting) +
		". Good: the whole budget; bad (RTT > 250 ms): a third (their 10 of 30 packets/s); a relapse within 10 s doubles the wait, 10 s of good halves it."
}
