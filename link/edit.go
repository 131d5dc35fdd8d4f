package link

import "math"

// An Edit changes one figure of a client's conditions, in one direction or
// both: what the keys do (L adds 10 ms of latency, F7 tightens the cap) and
// what a talk track's link command says. The talk tracks print and parse
// edits (package track); the figures, their ranges and how an edit changes
// them are here, beside the Config they change.

// Direction is which direction of a client's path an edit changes.
type Direction uint8

const (
	DirBoth Direction = iota // both, each from its own value
	DirDown                  // left → right: the data
	DirUp                    // right → left: acks and inputs
)

// EditKind is how an edit changes its field.
type EditKind uint8

const (
	EditSet    EditKind = iota // to Value
	EditAdd                    // by Value, within the field's step range
	EditNext                   // the next step (cap: tighter; corrupt: more)
	EditPrev                   // the step before
	EditToggle                 // tcp on ↔ off
)

// Edit is one change of a link figure.
type Edit struct {
	Dir   Direction
	Field Field
	Kind  EditKind
	Value float64
}

// apply changes c as the edit says (one direction).
func (e Edit) apply(c *Config) {
	info := e.Field.Info()
	cur := c.Get(e.Field)
	switch e.Kind {
	case EditSet:
		c.Set(e.Field, e.Value)
	case EditAdd:
		// As the keys step: within the step range, even from a value
		// beyond it.
		if e.Value >= 0 {
			c.Set(e.Field, math.Min(info.KeyHi, cur+e.Value))
		} else {
			c.Set(e.Field, math.Max(info.Lo, cur+e.Value))
		}
	case EditNext, EditPrev:
		dir := 1
		if e.Kind == EditPrev {
			dir = -1
		}
		if e.Field == FieldCap {
			c.Set(e.Field, NextCap(cur, dir))
		} else {
			c.Set(e.Field, nextStep(CorruptSteps, cur, dir))
		}
	case EditToggle:
		c.Set(e.Field, 1-cur)
	}
}

// Apply returns p changed as the edits say.
func (p Pair) Apply(edits []Edit) Pair {
	for _, e := range edits {
		if e.Dir != DirUp {
			e.apply(&p.Down)
		}
		if e.Dir != DirDown {
			e.apply(&p.Up)
		}
	}
	return p
}

// CorruptSteps are the shares of damaged packets F10 steps through, %.
var CorruptSteps = []float64{0, 1, 5, 20}

// nextStep returns the value after cur in steps going dir, wrapping; a
// value between steps moves to the first.
func nextStep(steps []float64, cur float64, dir int) float64 {
	n := len(steps)
	for i, v := range steps {
		if v == cur {
			return steps[((i+dir)%n+n)%n]
		}
	}
	return steps[0]
}

// CapSteps are the bandwidth caps F7 steps through, kbit/s (0: no cap),
// tighter with each press: from a line that carries everything but the
// uncompressed snapshots down to one that starves even state sync's budget.
var CapSteps = []float64{0, 2048, 1024, 512, 256, 128, 64}

// NextCap returns the cap after cur in CapSteps going dir (+1 tighter, −1
// looser), wrapping through "off"; a cap between two steps (a preset's, a
// flag's) moves to the next step that way, or off past the end.
func NextCap(cur float64, dir int) float64 {
	n := len(CapSteps)
	for i, v := range CapSteps {
		if v == cur {
			return CapSteps[((i+dir)%n+n)%n]
		}
	}
	if !(cur > 0) {
		return CapSteps[((dir)%n+n)%n]
	}
	if dir > 0 {
		for _, v := range CapSteps[1:] {
			if v < cur {
				return v
			}
		}
		return 0
	}
	for i := n - 1; i >= 1; i-- {
		if CapSteps[i] > cur {
			return CapSteps[i]
		}
	}
	return 0
}

// Diff is the edits that turn base into want, field by field, and
// whether they do (a figure no edit reaches, such as a cap schedule, must
// already be the same).
func Diff(base, want Pair) ([]Edit, bool) {
	var edits []Edit
	for f := Field(0); f < NumEditable; f++ {
		d, u := want.Down.Get(f), want.Up.Get(f)
		bd, bu := base.Down.Get(f), base.Up.Get(f)
		switch {
		case d == u && (d != bd || u != bu):
			edits = append(edits, Edit{Dir: DirBoth, Field: f, Value: d})
		case d != u:
			if d != bd {
				edits = append(edits, Edit{Dir: DirDown, Field: f, Value: d})
			}
			if u != bu {
				edits = append(edits, Edit{Dir: DirUp, Field: f, Value: u})
			}
		}
	}
	// Down edits first, then up: the writer names a direction only when
	// it changes.
	sortByDir(edits)
	return edits, base.Apply(edits) == want
}

// sortByDir orders edits both, down, up, keeping the field order within.
func sortByDir(es []Edit) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Dir < es[j-1].Dir; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}
