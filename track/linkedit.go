package track

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"netcubes/link"
)

// The link command changes any figure of a client's link, in one direction
// or both: "link latency 100 loss 5", "link up loss 10", "link latency
// +10" (what L does), "link cap next" (F7), "link tcp toggle" (Y).

// LinkField is a figure of a link.Config a track can set.
type LinkField uint8

// The fields, as "link" names them.
const (
	FieldLatency LinkField = iota
	FieldJitter
	FieldLoss
	FieldDuplicate
	FieldReorder
	FieldReorderExtra
	FieldBurstIn
	FieldBurstOut
	FieldBurstLoss
	FieldCap
	FieldQueueMs
	FieldQueueBytes
	FieldMTU
	FieldCorrupt
	FieldTCP
	numFields
)

// fieldInfo is a field's name, unit, the range a value may take, and the
// range a relative step stays in (the key's, where a key steps it).
var fieldInfo = [numFields]struct {
	name, unit     string
	lo, hi         float64
	stepLo, stepHi float64
}{
	FieldLatency:      {"latency", "ms", 0, 5000, 0, maxLatencyStepMs},
	FieldJitter:       {"jitter", "ms", 0, 5000, 0, maxJitterStepMs},
	FieldLoss:         {"loss", "%", 0, 100, 0, maxLossStep},
	FieldDuplicate:    {"dup", "%", 0, 100, 0, 100},
	FieldReorder:      {"reorder", "%", 0, 100, 0, 100},
	FieldReorderExtra: {"reorder-extra", "ms", 0, 5000, 0, 5000},
	FieldBurstIn:      {"burst-in", "%", 0, 100, 0, 100},
	FieldBurstOut:     {"burst-out", "%", 0, 100, 0, 100},
	FieldBurstLoss:    {"burst-loss", "%", 0, 100, 0, 100},
	FieldCap:          {"cap", "kbit/s", 0, 1e6, 0, 1e6},
	FieldQueueMs:      {"queue-ms", "ms", 0, 60000, 0, 60000},
	FieldQueueBytes:   {"queue-bytes", "bytes", 0, 1 << 30, 0, 1 << 30},
	FieldMTU:          {"mtu", "bytes", 0, 65535, 0, 65535},
	FieldCorrupt:      {"corrupt", "%", 0, 100, 0, 100},
	FieldTCP:          {"tcp", "", 0, 1, 0, 1},
}

// The keys' limits (L, U, K stop there, as they always have).
const (
	maxLatencyStepMs = 1000
	maxJitterStepMs  = 500
	maxLossStep      = 50
)

func (f LinkField) String() string {
	if f < numFields {
		return fieldInfo[f].name
	}
	return "field" + strconv.Itoa(int(f))
}

// fieldNames lists the fields for an error message.
func fieldNames() string {
	var s []string
	for f := LinkField(0); f < numFields; f++ {
		s = append(s, f.String())
	}
	return strings.Join(s, " ")
}

// Direction is which direction of a client's path an edit changes.
type Direction uint8

const (
	DirBoth Direction = iota // both, each from its own value
	DirDown                  // left → right: the data
	DirUp                    // right → left: acks and inputs
)

var dirNames = [...]string{"both", "down", "up"}

// EditKind is how an edit changes its field.
type EditKind uint8

const (
	EditSet    EditKind = iota // to Value
	EditAdd                    // by Value, within the field's step range
	EditNext                   // the next step (cap: tighter; corrupt: more)
	EditPrev                   // the step before
	EditToggle                 // tcp on ↔ off
)

// LinkEdit is one change of a link figure.
type LinkEdit struct {
	Dir   Direction
	Field LinkField
	Kind  EditKind
	Value float64
}

// parseLink reads "link [down|up|both] FIELD VALUE … [client N]".
func parseLink(c *Command, args []word) error {
	args, err := clientSuffix(c, args)
	if err != nil {
		return err
	}
	dir := DirBoth
	for len(args) > 0 {
		w := args[0].s
		switch w {
		case "both", "down", "up":
			dir = map[string]Direction{"both": DirBoth, "down": DirDown, "up": DirUp}[w]
			args = args[1:]
			continue
		}
		f, ok := fieldByName(w)
		if !ok {
			return fmt.Errorf("unknown link figure %s (figures: %s; or down, up, both)", quote(w), fieldNames())
		}
		if len(args) < 2 {
			return fmt.Errorf("link %s needs a value", w)
		}
		e, err := parseEdit(f, args[1].s)
		if err != nil {
			return err
		}
		e.Dir = dir
		c.Edits = append(c.Edits, e)
		args = args[2:]
	}
	if len(c.Edits) == 0 {
		return fmt.Errorf("want link FIGURE VALUE (figures: %s), or link chosen", fieldNames())
	}
	return nil
}

func fieldByName(w string) (LinkField, bool) {
	for f := LinkField(0); f < numFields; f++ {
		if fieldInfo[f].name == w {
			return f, true
		}
	}
	return 0, false
}

// parseEdit reads a field's value: a number, +N or −N, next/prev (cap,
// corrupt), on/off/toggle (tcp), off (cap).
func parseEdit(f LinkField, v string) (LinkEdit, error) {
	e := LinkEdit{Field: f}
	info := fieldInfo[f]
	bad := func(want string) (LinkEdit, error) {
		return e, fmt.Errorf("link %s %s: want %s", info.name, quote(v), want)
	}
	if f == FieldTCP {
		switch v {
		case "on":
			e.Value = 1
		case "off":
		case "toggle":
			e.Kind = EditToggle
		default:
			return bad("on, off or toggle")
		}
		return e, nil
	}
	rangeWant := fmt.Sprintf("%g..%g %s, or +N / -N", info.lo, info.hi, info.unit)
	switch {
	case v == "next" || v == "prev":
		if f != FieldCap && f != FieldCorrupt {
			return bad(rangeWant)
		}
		e.Kind = map[string]EditKind{"next": EditNext, "prev": EditPrev}[v]
		return e, nil
	case v == "off" && f == FieldCap:
		return e, nil
	case strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-"):
		x, err := parseDecimal(v[1:])
		if err != nil || x > info.hi {
			return bad(rangeWant)
		}
		if v[0] == '-' {
			x = -x
		}
		e.Kind, e.Value = EditAdd, x
		return e, nil
	}
	x, err := parseDecimal(v)
	if err != nil || x < info.lo || x > info.hi {
		return bad(rangeWant)
	}
	if f == FieldMTU && x > 0 && x < 68 {
		return bad("0 (datagrams whole) or 68..65535 bytes")
	}
	e.Value = x
	return e, nil
}

// valueString writes the edit's value as parseEdit reads it.
func (e LinkEdit) valueString() string {
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch e.Kind {
	case EditAdd:
		if e.Value < 0 {
			return num(e.Value)
		}
		return "+" + num(e.Value)
	case EditNext:
		return "next"
	case EditPrev:
		return "prev"
	case EditToggle:
		return "toggle"
	}
	if e.Field == FieldTCP {
		return onOff(e.Value != 0)
	}
	return num(e.Value)
}

// field returns a pointer to f's number in c (nil for tcp).
func field(c *link.Config, f LinkField) *float64 {
	switch f {
	case FieldLatency:
		return &c.LatencyMs
	case FieldJitter:
		return &c.JitterMs
	case FieldLoss:
		return &c.LossPercent
	case FieldDuplicate:
		return &c.DuplicatePercent
	case FieldReorder:
		return &c.ReorderPercent
	case FieldReorderExtra:
		return &c.ReorderExtraMs
	case FieldBurstIn:
		return &c.Burst.GoodToBadPercent
	case FieldBurstOut:
		return &c.Burst.BadToGoodPercent
	case FieldBurstLoss:
		return &c.Burst.BadLossPercent
	case FieldCap:
		return &c.BandwidthKbps
	case FieldQueueMs:
		return &c.QueueLimitMs
	case FieldCorrupt:
		return &c.CorruptPercent
	}
	return nil
}

// get reads f of c as a number.
func get(c *link.Config, f LinkField) float64 {
	switch f {
	case FieldQueueBytes:
		return float64(c.QueueLimitBytes)
	case FieldMTU:
		return float64(c.MTUBytes)
	case FieldTCP:
		if c.TCPLike {
			return 1
		}
		return 0
	}
	return *field(c, f)
}

// put sets f of c.
func put(c *link.Config, f LinkField, x float64) {
	switch f {
	case FieldQueueBytes:
		c.QueueLimitBytes = int(x)
	case FieldMTU:
		c.MTUBytes = int(x)
	case FieldTCP:
		c.TCPLike = x != 0
	default:
		*field(c, f) = x
	}
}

// apply changes c as the edit says (one direction).
func (e LinkEdit) apply(c *link.Config) {
	info := fieldInfo[e.Field]
	cur := get(c, e.Field)
	switch e.Kind {
	case EditSet:
		put(c, e.Field, e.Value)
	case EditAdd:
		// As the keys step: within the step range, even from a value
		// beyond it.
		if e.Value >= 0 {
			put(c, e.Field, math.Min(info.stepHi, cur+e.Value))
		} else {
			put(c, e.Field, math.Max(info.stepLo, cur+e.Value))
		}
	case EditNext, EditPrev:
		dir := 1
		if e.Kind == EditPrev {
			dir = -1
		}
		if e.Field == FieldCap {
			put(c, e.Field, NextCap(cur, dir))
		} else {
			put(c, e.Field, nextStep(CorruptSteps, cur, dir))
		}
	case EditToggle:
		put(c, e.Field, 1-cur)
	}
}

// applyEdits changes a client's pair as the edits say.
func applyEdits(p link.Pair, edits []LinkEdit) link.Pair {
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

// linkDiff is the edits that turn base into want, field by field, and
// whether they do (a figure no edit reaches, such as a cap schedule, must
// already be the same).
func linkDiff(base, want link.Pair) ([]LinkEdit, bool) {
	var edits []LinkEdit
	for f := LinkField(0); f < numFields; f++ {
		d, u := get(&want.Down, f), get(&want.Up, f)
		bd, bu := get(&base.Down, f), get(&base.Up, f)
		switch {
		case d == u && (d != bd || u != bu):
			edits = append(edits, LinkEdit{Dir: DirBoth, Field: f, Value: d})
		case d != u:
			if d != bd {
				edits = append(edits, LinkEdit{Dir: DirDown, Field: f, Value: d})
			}
			if u != bu {
				edits = append(edits, LinkEdit{Dir: DirUp, Field: f, Value: u})
			}
		}
	}
	// Down edits first, then up: the writer names a direction only when
	// it changes.
	sortByDir(edits)
	return edits, applyEdits(base, edits) == want
}

// sortByDir orders edits both, down, up, keeping the field order within.
func sortByDir(es []LinkEdit) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Dir < es[j-1].Dir; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}
