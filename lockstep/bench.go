package lockstep

// The lockstep section: one row per network mode of the original demo,
// each playing the bench's script with lockstep from the first frame on
// the mode's own link (whatever -preset says: the modes are the table).

import (
	"fmt"

	"netcubes/strategy"
	"netcubes/wire"
)

// BenchSections implements strategy.Benched.
func (st *Strategy) BenchSections() []strategy.BenchSection {
	return []strategy.BenchSection{{Name: "lockstep modes", Run: benchModes}}
}

func benchModes(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "mode"},
		strategy.Column{Head: "kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "back kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "stall ticks", Unit: "ticks"},
		strategy.Column{Head: "longest stall s", Unit: "s"},
		strategy.Column{Head: "avg delay ms", Unit: "ms"},
		strategy.Column{Head: "worst delay ms", Unit: "ms"},
		strategy.Column{Head: "frames checked"},
		strategy.Column{Head: "first desync"},
	)
	for i, m := range Modes {
		st := New(DefaultConfig())
		st.SetMode(i)
		s, err := b.NewRun(m.Link, st)
		if err != nil {
			return err
		}
		var back, delaySum float64
		var ticks, delayN, worst int
		sum := b.Play("lockstep", fmt.Sprintf("mode %d", i+1), s, func() {
			ticks++
			back += s.Metrics().AckKbps
			if st.firstAt >= 0 {
				d := s.Frame() - st.World().Frame()
				delaySum += float64(d)
				delayN++
				worst = max(worst, d)
			}
		})
		ss := st.Stats()
		desync := strategy.Text("none")
		if ss.Desync >= 0 {
			desync = strategy.Textf("frame %d", ss.Desync)
		}
		toMs := 1000.0 / wire.TicksPerSecond
		t.Add(strategy.Textf("%d %s", i+1, m.Name), strategy.Num(sum.AvgWireKbps(), "%.1f"), strategy.Num(back/float64(max(ticks, 1)), "%.1f"),
			strategy.Int(ss.StallTicks), strategy.Num(float64(ss.LongestStall)/wire.TicksPerSecond, "%.2f"),
			strategy.Num(delaySum/float64(max(delayN, 1))*toMs, "%.0f"), strategy.Num(float64(worst)*toMs, "%.0f"), strategy.Int(ss.Checked), desync)
	}
	t.Note("kbit/s: left → right, IP/UDP headers included (inputs and a 32-bit hash per packet); back: right → left (the session's acks and lockstep's input ack).")
	t.Note("stall: ticks the right waited for an input it lacked; delay: the left's frame minus the right's, each tick after the first input arrived;")
	t.Note("frames checked: frames whose state hashes both sides compared. Mode 2 moves the right's player by 1 nm one second in.")
	t.Charts = []strategy.Chart{{
		File: "lockstep", Title: "Deterministic lockstep: what waiting for inputs costs, by network mode",
		X: []string{"mode"}, Bars: true,
		Panels: []strategy.Panel{
			{Y: "stall ticks", Label: "time stalled"},
			{Y: "longest stall s", Label: "longest stall"},
			{Y: "avg delay ms", Label: "delay, average"},
		},
	}}
	return b.Print(t)
}
