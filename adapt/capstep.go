package adapt

import "netcubes/wire"

// The cap step the bench's adaptation sections measure congestion
// avoidance on: link's "bottleneck" preset caps the path at 1,000 kbit/s
// for 10 s, 256 for 20 s, then 1,000 again; the sections measure it to
// 45 s, in ticks from the first.
const (
	CapDropTick  = 10 * wire.TicksPerSecond
	CapRiseTick  = 30 * wire.TicksPerSecond
	CapEndTick   = 45 * wire.TicksPerSecond
	CapPhaseTail = 5 * wire.TicksPerSecond // the span of a phase's queue and goodput figures
)

// CapPhase is one phase of the cap step.
type CapPhase struct {
	Name     string
	From, To int // ticks
	Cap      float64
}

// CapPhases are the cap step's three phases, in order.
func CapPhases() []CapPhase {
	return []CapPhase{
		{"1000 kbit/s", 0, CapDropTick, 1000},
		{"256 kbit/s", CapDropTick, CapRiseTick, 256},
		{"1000 again", CapRiseTick, CapEndTick, 1000},
	}
}
