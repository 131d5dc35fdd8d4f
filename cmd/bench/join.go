package main

import (
	"fmt"
	"math"

	"netcubes/catalog"
	"netcubes/statesync"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: the "joining mid-session" section. A right that joins a
// running session (the presenter switching strategy, a client joining a
// game) must learn a world that has moved on. Each strategy's run plays
// the script, restarts the right 2 s in (Run.Restart: what a switch to the
// strategy does), and measures from there what the join costs: the bytes
// the left sends the right (payload plus 28 bytes of IPv4 + UDP header a
// packet, and state sync's join block, which does not cross the simulated
// link) until the right has converged, and how long that takes. Converged:
// the RMS position error the HUD shows (the session's, of the right as
// drawn; a strategy's own once it is measured) is under 1 cm and stays
// there for a second (the first tick of that second counts). State
// sync has two rows: the block of the left's world it joins with, and the
// catch-up from the initial world it did before (Config.JoinFromInitial).

// joinAt is the frame the right joins at; joinWatch how long after it a
// run looks for convergence; joinCm the error under which it has
// converged, held for joinHold ticks.
const (
	joinAt    = 2 * wire.TicksPerSecond
	joinWatch = 20 * wire.TicksPerSecond
	joinCm    = 1.0
	joinHold  = wire.TicksPerSecond
)

// ipUDPHeader is the bytes of IPv4 + UDP header each packet costs.
const ipUDPHeader = 28

// joinSection is the bench's own section, after the strategies'.
func joinSection() strategy.BenchSection {
	return strategy.BenchSection{Name: "joining mid-session", Run: func(sb strategy.Bench) error {
		return runJoin(sb.(*bench))
	}}
}

// joinCase is one row: a strategy instance and what to call it.
type joinCase struct {
	name string
	st   strategy.Strategy
}

// joinCases are the catalog's strategies, state sync twice.
func joinCases() []joinCase {
	var out []joinCase
	for _, st := range catalog.All() {
		if _, ok := st.(*statesync.Strategy); ok {
			out = append(out, joinCase{"state sync, one block of the world", st})
			c := statesync.DefaultConfig()
			c.JoinFromInitial = true
			out = append(out, joinCase{"state sync, catching up from the initial world", statesync.New(c)})
			continue
		}
		out = append(out, joinCase{st.Name(), st})
	}
	return out
}

// joinResult is what one run measured.
type joinResult struct {
	bytes     int     // sent left → right from the join until converged (with headers), plus a join block; all of the watch when it did not
	block     int     // the join block's bytes (state sync)
	ticks     int     // from the join until converged; −1: not within joinWatch
	firstRMS  float64 // the error the right opened with, cm (the first valid tick after the join)
	worstRMS  float64 // the largest RMS until converged, cm
	converged bool
}

func runJoin(b *bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "strategy"},
		strategy.Column{Head: "bytes to converge", Unit: "bytes"},
		strategy.Column{Head: "of them a block", Unit: "bytes"},
		strategy.Column{Head: "time to converge s", Unit: "s"},
		strategy.Column{Head: "first RMS cm", Unit: "cm"},
		strategy.Column{Head: "worst RMS cm", Unit: "cm"},
	)
	for _, c := range joinCases() {
		r, err := joinRun(b, c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		secs := strategy.Num(float64(r.ticks)/wire.TicksPerSecond, "%.2f")
		if !r.converged {
			secs = strategy.Text("not yet")
		}
		t.Add(strategy.Text(c.name), strategy.Int(r.bytes), strategy.Int(r.block), secs,
			strategy.Num(r.firstRMS, "%.2f"), strategy.Num(r.worstRMS, "%.2f"))
	}
	at, end := joinTimes(b)
	t.Notef("The right joins %.1f s into the script on the bench's preset (%s), watched until %.1f s; converged: RMS error under %.0f cm for a second. Bytes: left → right",
		float64(at)/wire.TicksPerSecond, b.preset, float64(end)/wire.TicksPerSecond, joinCm)
	t.Note("payload + 28 bytes of header a packet from the join until converged, plus state sync's join block (sent whole at the join).")
	return b.Print(t)
}

// joinTimes are the frame the right joins at and the frame the run stops
// at: joinAt and joinWatch after it, squeezed into the bench's -frames
// (joined at a quarter of it).
func joinTimes(b *bench) (at, end int) {
	at, end = joinAt, min(b.frames, joinAt+joinWatch)
	if end < joinAt+joinHold {
		at = end / 4
	}
	return at, end
}

// joinRun plays one case.
func joinRun(b *bench, c joinCase) (joinResult, error) {
	r := joinResult{ticks: -1}
	s, err := b.NewRun(b.preset.Config(), c.st)
	if err != nil {
		return r, err
	}
	at, end := joinTimes(b)
	under, first, sent := 0, true, 0
	for f := 0; f < end && !r.converged; f++ {
		if f == at {
			s.Restart()
			if ss, ok := c.st.(*statesync.Strategy); ok {
				if n, _, ok := ss.JoinedBytes(); ok {
					r.block, sent = n, n
				}
			}
		}
		s.Step(b.script.InputAt(f))
		if f < at {
			continue
		}
		m := s.Metrics()
		if m.LastPacketFrame == m.Frame {
			sent += m.LastPacketBytes + ipUDPHeader
		}
		if !m.Valid || !m.ErrorMeasured() {
			under = 0
			continue
		}
		if first {
			r.firstRMS, first = m.PosRMSCm, false
		}
		r.worstRMS = math.Max(r.worstRMS, m.PosRMSCm)
		if m.PosRMSCm >= joinCm {
			under = 0
			continue
		}
		under++
		if under == 1 {
			r.ticks, r.bytes = f+1-at, sent
		}
		r.converged = under >= joinHold
	}
	if !r.converged {
		r.ticks, r.bytes = -1, sent
	}
	return r, nil
}
