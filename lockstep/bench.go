package lockstep

// The lockstep section: one row per network mode of the original demo,
// each playing the bench's script with lockstep from the first frame on
// the mode's own link (whatever -preset says: the modes are the table).

import (
	"fmt"
	"text/tabwriter"

	"netcubes/strategy"
	"netcubes/wire"
)

// BenchSections implements strategy.Benched.
func (st *Strategy) BenchSections() []strategy.BenchSection {
	return []strategy.BenchSection{{Name: "lockstep modes", Run: benchModes}}
}

func benchModes(b strategy.Bench) error {
	w := tabwriter.NewWriter(b.Out(), 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "mode\tkbit/s\tback kbit/s\tstall ticks\tlongest stall s\tavg delay ms\tworst delay ms\tframes checked\tfirst desync\t")
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
		desync := "none"
		if ss.Desync >= 0 {
			desync = fmt.Sprintf("frame %d", ss.Desync)
		}
		toMs := 1000.0 / wire.TicksPerSecond
		fmt.Fprintf(w, "%d %s\t%.1f\t%.1f\t%d\t%.2f\t%.0f\t%.0f\t%d\t%s\t\n", i+1, m.Name, sum.AvgWireKbps(), back/float64(max(ticks, 1)),
			ss.StallTicks, float64(ss.LongestStall)/wire.TicksPerSecond, delaySum/float64(max(delayN, 1))*toMs, float64(worst)*toMs, ss.Checked, desync)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(b.Out(), "kbit/s: left → right, IP/UDP headers included (inputs and a 32-bit hash per packet); back: right → left (the session's acks and lockstep's input ack).")
	fmt.Fprintln(b.Out(), "stall: ticks the right waited for an input it lacked; delay: the left's frame minus the right's, each tick after the first input arrived;")
	fmt.Fprintln(b.Out(), "frames checked: frames whose state hashes both sides compared. Mode 2 moves the right's player by 1 nm one second in.")
	return nil
}
