package main

import (
	"fmt"
	"math"
	"sort"

	"netcubes/catalog"
	"netcubes/link"
	"netcubes/predict"
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
// packet; state sync's join block rides in them, in pieces) until the
// right has converged, and how long that takes. Converged: the RMS
// position error the HUD shows (the session's, of the right as drawn; a
// strategy's own once it is measured) is under 1 cm and stays there for a
// second (the first tick of that second counts). State sync has two rows:
// the block of the left's world it joins with, and the catch-up from the
// initial world it did before (Config.JoinFromInitial). Beside each row,
// the median error over the same seconds of a run without the join: what
// the strategy shows on this link anyway, which a join cannot do better
// than. A second table sends state sync's block over three links.
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
	ticks     int     // from the join until converged; −1: not within joinWatch
	firstRMS  float64 // the error the right opened with, cm (the first valid tick after the join)
	worstRMS  float64 // the largest RMS until converged, cm
	medianRMS float64 // the median RMS from the join to the end of the watch, cm
	converged bool
	join      joinFigures // what crossed the link before the right ran (state sync's block, the 2004 strategy's save)
}

// joinFigures are a transfer's figures: its size and pieces, the pieces
// sent with the resends, and the ticks from the join until the right had
// it.
type joinFigures struct {
	Bytes, Pieces, Sent, Ticks int
	Ready                      bool
}

// joinFiguresOf reads the figures of st's join, if it reports them.
func joinFiguresOf(st strategy.Strategy, now int) joinFigures {
	switch st := st.(type) {
	case *statesync.Strategy:
		j := st.JoinStats(now)
		return joinFigures{Bytes: j.Bytes, Pieces: j.Pieces, Sent: j.Sent, Ticks: j.Ticks, Ready: j.Ready}
	case *predict.Strategy:
		j := st.JoinStats(now)
		return joinFigures{Bytes: j.Bytes, Pieces: j.Pieces, Sent: j.Sent, Ticks: j.Ticks, Ready: j.Ready}
	}
	return joinFigures{}
}

func runJoin(b *bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "strategy"},
		strategy.Column{Head: "bytes to converge", Unit: "bytes"},
		strategy.Column{Head: "time to converge s", Unit: "s"},
		strategy.Column{Head: "first RMS cm", Unit: "cm"},
		strategy.Column{Head: "worst RMS cm", Unit: "cm"},
		strategy.Column{Head: "median RMS cm", Unit: "cm"},
		strategy.Column{Head: "without a join cm", Unit: "cm"},
	)
	for _, c := range joinCases() {
		r, err := joinRun(b, b.preset.Config(), c, true)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		base, err := joinRun(b, b.preset.Config(), c, false)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		t.Add(strategy.Text(c.name), strategy.Int(r.bytes), convergedCell(r),
			strategy.Num(r.firstRMS, "%.2f"), strategy.Num(r.worstRMS, "%.2f"),
			strategy.Num(r.medianRMS, "%.2f"), strategy.Num(base.medianRMS, "%.2f"))
	}
	at, end := joinTimes(b)
	t.Notef("The right joins %.1f s into the script on the bench's preset (%s), watched until %.1f s; converged: RMS error under %.0f cm for a second. Bytes: left → right",
		float64(at)/wire.TicksPerSecond, b.preset, float64(end)/wire.TicksPerSecond, joinCm)
	t.Note("payload + 28 bytes of header a packet from the join until converged (state sync's block rides in them, in pieces). Median RMS: from the join to the end of the watch;")
	t.Note("without a join: the same seconds of a run whose right started with the world, what the strategy shows on this link anyway.")
	if err := b.Print(t); err != nil {
		return err
	}
	if err := runJoinBlock(b, joinCase{"state sync", statesync.New(statesync.DefaultConfig())}, "block"); err != nil {
		return err
	}
	return runJoinBlock(b, joinCase{"the 2004 strategy", predict.New(predict.DefaultConfig())}, "save")
}

// convergedCell is the time to converge, or "not yet".
func convergedCell(r joinResult) strategy.Cell {
	if !r.converged {
		return strategy.Text("not yet")
	}
	return strategy.Num(float64(r.ticks)/wire.TicksPerSecond, "%.2f")
}

// joinBlockPresets are the links state sync's block is sent over.
var joinBlockPresets = []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetTerrible}

// runJoinBlock sends c's join transfer (state sync's block, the 2004
// strategy's save: what) over each of joinBlockPresets: its size and
// pieces, the pieces sent with the resends, the time from the join until
// the right has it (measured: the pieces cross the link), and until it has
// converged.
func runJoinBlock(b *bench, c joinCase, what string) error {
	t := strategy.NewTable(
		strategy.Column{Head: "link"},
		strategy.Column{Head: what + " bytes", Unit: "bytes"},
		strategy.Column{Head: "pieces"},
		strategy.Column{Head: "pieces sent"},
		strategy.Column{Head: "time to join s", Unit: "s"},
		strategy.Column{Head: "time to converge s", Unit: "s"},
		strategy.Column{Head: "median RMS cm", Unit: "cm"},
		strategy.Column{Head: "without a join cm", Unit: "cm"},
	)
	for _, p := range joinBlockPresets {
		r, err := joinRun(b, p.Config(), c, true)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		base, err := joinRun(b, p.Config(), c, false)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		j := r.join
		joined := strategy.Text("not yet")
		if j.Ready {
			joined = strategy.Num(float64(j.Ticks)/wire.TicksPerSecond, "%.2f")
		}
		t.Add(strategy.Text(p.String()), strategy.Int(j.Bytes), strategy.Int(j.Pieces), strategy.Int(j.Sent), joined,
			convergedCell(r), strategy.Num(r.medianRMS, "%.2f"), strategy.Num(base.medianRMS, "%.2f"))
	}
	if what == "block" {
		t.Note("State sync's join block over three links (the first table: the bench's preset). Time to join: from the join until the right has every piece, measured")
	} else {
		t.Note("The 2004 strategy's join: the server's save (every body, contact and warm start, compressed), bit for bit, over three links. Time to join: until the client has every piece, measured")
	}
	t.Note("as they cross the link; pieces sent: with the resends of the lost ones (and of those whose ack had not come back within a round trip and 6 ticks).")
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

// joinRun plays one case on link lc, restarting the right 2 s in when
// restart is set (without: the right started with the world, for the
// median error of the same seconds).
func joinRun(b *bench, lc link.Config, c joinCase, restart bool) (joinResult, error) {
	r := joinResult{ticks: -1}
	s, err := b.NewRun(lc, c.st)
	if err != nil {
		return r, err
	}
	at, end := joinTimes(b)
	under, first, sent := 0, true, 0
	var seen []float64
	for f := 0; f < end; f++ {
		if f == at && restart {
			s.Restart()
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
		seen = append(seen, m.PosRMSCm)
		if first {
			r.firstRMS, first = m.PosRMSCm, false
		}
		if r.converged {
			continue
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
	r.join = joinFiguresOf(c.st, s.Frame())
	r.medianRMS = median(seen)
	return r, nil
}

// median is the middle of v (0 when empty); v is sorted in place.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[len(v)/2]
}
