package statesync

import (
	"fmt"

	"netcubes/diverge"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// benchDiverge: the right on the left's machine, with float noise, on
// another solver (package diverge), at step 5 (compressed, each side
// simulating at full precision) and step 8 (quantize both sides), on a
// perfect and an intercontinental link, the whole script. Corrections: the
// updates that moved a cube beyond the wire's precision; pops: beyond 2
// cm.
func benchDiverge(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "preset"},
		strategy.Column{Head: "step"},
		strategy.Column{Head: "right's machine"},
		strategy.Column{Head: "corrections/s"},
		strategy.Column{Head: "pops > 2 cm"},
		strategy.Column{Head: "RMS err cm", Unit: "cm"},
		strategy.Column{Head: "max err cm", Unit: "cm"},
		strategy.Column{Head: "max pop cm", Unit: "cm"},
	)
	for _, p := range []link.Preset{link.PresetPerfect, link.PresetIntercontinental} {
		for _, step := range []int{5, 8} {
			for m := diverge.Off; m < diverge.NumModes; m++ {
				s, st, err := newBenchRun(b, p, step)
				if err != nil {
					return err
				}
				set := st.Settings()
				set.Divergence = m
				st.SetSettings(set)
				var e stateSyncExtra
				b.Play("state sync divergence", fmt.Sprintf("%s step %d %s", p, step, m), s, func() { e.add(s, st, true) })
				ss := st.Stats()
				sec := float64(s.Frame()) / wire.TicksPerSecond
				t.Add(strategy.Textf("%s", p), strategy.Textf("%d %s", step, StepName(step)), strategy.Text(m.String()),
					strategy.Num(float64(ss.Corrections)/max(sec, 1e-9), "%.1f"), strategy.Uint(ss.Pops),
					strategy.Num(e.rms(), "%.3f"), strategy.Num(e.posMax, "%.2f"), strategy.Num(e.popMax, "%.2f"))
			}
		}
	}
	t.Note("The right's machine: the left's (off), float noise (moving cubes' positions rounded to float32 after each step, about 1 µm),")
	t.Note("another machine (one solver substep fewer). Corrections: applied updates that moved a cube more than 1 mm or 0.11°; pops: more")
	t.Note("than 2 cm. Step 5 has corrections on the left's own machine (the right simulates from full precision, the left's updates are")
	t.Note("quantized); at step 8 (quantize both sides) the same machine is never corrected, and float noise is: a micrometre crosses a 0.24 mm")
	t.Note("step of the grid now and then, and the pile's contacts make the difference grow.")
	t.Charts = []strategy.Chart{{
		File: "statesync-diverge", Title: "State sync with the right on another machine: the corrections the updates make",
		X: []string{"step", "right's machine"}, Series: "preset", Bars: true,
		Panels: []strategy.Panel{
			{Y: "corrections/s", Label: "corrections per second"},
			{Y: "RMS err cm", Label: "position error, RMS"},
		},
	}}
	return b.Print(t)
}
