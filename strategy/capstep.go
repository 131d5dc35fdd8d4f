package strategy

import (
	"fmt"

	"netcubes/adapt"
	"netcubes/wire"
)

// CapStep says how a sender's cap step is drawn second by second (the
// adaptation sections of the snapshot strategies and state sync): what
// its traces' value is, the table's notes and the chart's words.
type CapStep struct {
	// Value names the traces' value and its unit ("rate Hz", "Hz").
	Value, Unit string
	// ValueLabel is the value panel's axis; ValueCaps draws the cap on it
	// too (a budget is in the cap's unit, a rate is not).
	ValueLabel string
	ValueCaps  bool
	// QueueLine labels the 100 ms line of the queueing delay panel.
	QueueLine string
	// Notes are the table's lines under it.
	Notes []string
	// File, Title and Names (fixed, adaptive) are the chart's.
	File, Title string
	Names       [2]string
}

// CapStepSeconds is a cap step second by second, the run with the
// setting fixed against the one with congestion avoidance: each second's
// queueing delay (the median of its ticks, against each trace's lowest
// round trip over the step), what got through, and the traces' value;
// with the chart of them over time. What the phases' figures summarise.
// tl is the cap step's timeline the traces ran on.
func CapStepSeconds(c CapStep, tl adapt.CapTimeline, fixed, adaptive *adapt.Trace) *Table {
	valueCols := [2]string{"fixed " + c.Value, "adaptive " + c.Value}
	t := NewTable(Column{Head: "t s", Unit: "s"}, Column{Head: "cap kbit/s", Unit: "kbit/s"},
		Column{Head: "fixed queue ms", Unit: "ms"}, Column{Head: "adaptive queue ms", Unit: "ms"},
		Column{Head: "fixed goodput kbit/s", Unit: "kbit/s"}, Column{Head: "adaptive goodput kbit/s", Unit: "kbit/s"},
		Column{Head: valueCols[0], Unit: c.Unit}, Column{Head: valueCols[1], Unit: c.Unit})
	traces := [2]*adapt.Trace{fixed, adaptive}
	var bases [2]float64
	for i, tr := range traces {
		bases[i] = tr.BaseRTT(wire.TicksPerSecond, tl.End)
	}
	phases := tl.Phases()
	for from := 0; from < tl.End; from += wire.TicksPerSecond {
		to := from + wire.TicksPerSecond
		ph := phases[0]
		for _, p := range phases {
			if from >= p.From {
				ph = p
			}
		}
		var queue, good, value [2]Cell
		for i, tr := range traces {
			queue[i] = Text("-")
			if q := tr.QueueMs(from, to, bases[i]); len(q) > 0 {
				queue[i] = Num(adapt.Quantile(q, 0.5), "%.0f")
			}
			good[i] = Num(tr.GoodputKbps(from, to), "%.0f")
			value[i] = Num(tr.MeanValue(from, to), "%.0f")
		}
		t.Add(Int(from/wire.TicksPerSecond), Num(ph.Cap, "%.0f"), queue[0], queue[1], good[0], good[1], value[0], value[1])
	}
	for _, n := range c.Notes {
		t.Note(n)
	}
	if tl.Squeezed() {
		t.Note(tl.SqueezedNote())
	}
	var caps []Line
	for _, p := range phases {
		caps = append(caps, Line{Value: p.Cap, Label: fmt.Sprintf("cap %.0f kbit/s", p.Cap),
			From: float64(p.From) / wire.TicksPerSecond, To: float64(p.To) / wire.TicksPerSecond})
	}
	valuePanel := Panel{Ys: valueCols[:], Label: c.ValueLabel}
	if c.ValueCaps {
		valuePanel.Lines = caps
	}
	t.Charts = []Chart{{
		File: c.File, Title: c.Title,
		X: []string{"t s"}, XFigures: true, XLabel: "time", Names: c.Names[:],
		Panels: []Panel{
			{Ys: []string{"fixed queue ms", "adaptive queue ms"}, Label: "queueing delay", Lines: []Line{{Value: 100, Label: c.QueueLine}}},
			{Ys: []string{"fixed goodput kbit/s", "adaptive goodput kbit/s"}, Label: "goodput", Lines: caps},
			valuePanel,
		},
	}}
	return t
}
