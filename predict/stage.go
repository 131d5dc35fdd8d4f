package predict

import (
	"fmt"

	"netcubes/strategy"
)

// What the 2004 strategy tells the stage's caption: a correction, with how
// far it moved the drawn player (the jump the audience sees), and an input
// that reached the server after its frame was simulated. Counted from the
// figures since the last call, so a call that was skipped (the client was
// not shown) reports once, not the backlog.

// stageSeen is what Event last reported from.
type stageSeen struct {
	corrections, late uint64
}

// Event implements strategy.Eventful.
func (st *Strategy) Event() (strategy.Event, bool) {
	s := &st.stats
	seen := st.seen
	st.seen = stageSeen{corrections: s.Corrections, late: s.LateInputs}
	if e, ok := st.joinEvent(); ok {
		return e, true
	}
	switch {
	case s.Corrections > seen.corrections:
		c := &st.cli
		cm := 100 * c.markTo.Position.Sub(c.mark.Position).Len()
		return strategy.Event{Kind: strategy.EventCorrection, Size: cm,
			Text: fmt.Sprintf("correction: %.0f cm pop", cm)}, true
	case s.LateInputs > seen.late:
		return strategy.Event{Kind: strategy.EventLate, Size: float64(s.LateInputs - seen.late),
			Text: "an input reached the server late: it stepped without it"}, true
	}
	return strategy.Event{}, false
}
