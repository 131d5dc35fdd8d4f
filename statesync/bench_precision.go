package statesync

import (
	"strings"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/physics"
	"netcubes/strategy"
)

// The "precision and contacts" table: the article's two remedies for the
// pops of "quantize both sides", each on and off, on a ball held still
// (holdScenario): at 4,096 per metre and 15 bits it settles within 2 s,
// at 512 and 9 the grid keeps pushing its cubes into each other for
// seconds longer. Counted on the left world (both sides quantize alike,
// so the right is the same) over the last 3 s of the hold: cube-ticks
// that moved more than 1 mm and more than 5 mm, and the largest one-tick
// move.

// holdScenario gathers a ball and holds it still for 5 s.
const holdScenario = `
0-59 -
60-179 up katamari
180-299 left katamari
300-599 katamari
end 600
`

// holdFrom is the first frame counted: 2 s into the hold, when the fine
// grid's ball has settled (it moves 0 from there; the coarse grid's keeps
// popping, about 950 moves a second, until some 6 s into the hold).
const holdFrom = 420

// holdCount counts the cubes' one-tick moves on a world.
type holdCount struct {
	prev       []cubes.CubeState
	moves, big int
	largest    float64
}

// add counts the moves of the tick just stepped (counted or only
// remembered), the player aside.
func (h *holdCount) add(w *cubes.World, count bool) {
	cur := w.States(nil)
	if count && h.prev != nil {
		for i := range cur {
			if w.IsPlayer(i) {
				continue
			}
			d := cur[i].Position.Sub(h.prev[i].Position).Len()
			if d > 0.001 {
				h.moves++
			}
			if d > 0.005 {
				h.big++
			}
			h.largest = max(h.largest, d)
		}
	}
	h.prev = cur
}

func benchPrecision(b strategy.Bench) error {
	t := strategy.NewTable(
		strategy.Column{Head: "precision"},
		strategy.Column{Head: "contacts"},
		strategy.Column{Head: "moves > 1 mm"},
		strategy.Column{Head: "moves > 5 mm"},
		strategy.Column{Head: "largest mm", Unit: "mm"},
	)
	sc, err := cubes.ParseScript("hold", strings.NewReader(holdScenario))
	if err != nil {
		return err
	}
	// -frames squeezes the hold: the run stops there, and counts its
	// last 30 %.
	end, from := sc.Length, holdFrom
	if lim := b.FrameLimit(); lim > 0 && lim < end {
		end, from = lim, lim*7/10
	}
	for _, coarse := range []bool{false, true} {
		for _, soft := range []bool{false, true} {
			st := New(DefaultConfig())
			s, err := b.NewRun(link.Config{}, st)
			if err != nil {
				return err
			}
			set := StepSettings(6)
			set.Coarse, set.SoftContacts = coarse, soft
			st.SetSettings(set)
			var h holdCount
			for f := 0; f < end; f++ {
				s.Step(sc.InputAt(f))
				h.add(s.Left(), f >= from)
			}
			contacts := "netcubes' (" + contactsOf(physics.DefaultConfig()).String() + ")"
			if soft {
				contacts = "sync demo's (" + softContacts.String() + ")"
			}
			t.Add(strategy.Text(precisionName(coarse)), strategy.Text(contacts),
				strategy.Int(h.moves), strategy.Int(h.big), strategy.Num(1000*h.largest, "%.2f"))
		}
	}
	t.Note("Step 6 (quantize both sides), perfect link, a ball gathered and held still 5 s; counted over its last 3 s on the left world (the right is the")
	t.Note("same): cube-ticks that moved more than 1 mm / 5 mm, and the largest one-tick move. A settled ball moves 0.")
	if end < sc.Length {
		t.Notef("-frames %d: the run stops at tick %d of %d and counts from tick %d.", end, end, sc.Length, from)
	}
	return b.Print(t)
}
