package talk

import (
	"fmt"
	"strconv"
	"strings"

	"netcubes/link"
)

// The link command changes any figure of a client's link, in one direction
// or both: "link latency 100 loss 5", "link up loss 10", "link latency
// +10" (what L does), "link cap next" (F7), "link tcp toggle" (Y).

// dirNames are the words of the directions.
var dirNames = [...]string{link.DirBoth: "both", link.DirDown: "down", link.DirUp: "up"}

// parseLink reads "link [down|up|both] FIELD VALUE … [client N]".
func parseLink(c *Command, args []word) error {
	args, err := clientSuffix(c, args)
	if err != nil {
		return err
	}
	dir := link.DirBoth
	for len(args) > 0 {
		w := args[0].s
		switch w {
		case "both", "down", "up":
			dir = map[string]link.Direction{"both": link.DirBoth, "down": link.DirDown, "up": link.DirUp}[w]
			args = args[1:]
			continue
		}
		f, ok := link.FieldByName(w)
		if !ok {
			return fmt.Errorf("unknown link figure %s (figures: %s; or down, up, both)", quote(w), link.EditableNames())
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
		return fmt.Errorf("want link FIGURE VALUE (figures: %s), or link chosen", link.EditableNames())
	}
	return nil
}

// parseEdit reads a field's value: a number, +N or −N, next/prev (cap,
// corrupt), on/off/toggle (tcp), off (cap).
func parseEdit(f link.Field, v string) (link.Edit, error) {
	e := link.Edit{Field: f}
	info := f.Info()
	bad := func(want string) (link.Edit, error) {
		return e, fmt.Errorf("link %s %s: want %s", info.Name, quote(v), want)
	}
	if f == link.FieldTCP {
		switch v {
		case "on":
			e.Value = 1
		case "off":
		case "toggle":
			e.Kind = link.EditToggle
		default:
			return bad("on, off or toggle")
		}
		return e, nil
	}
	rangeWant := fmt.Sprintf("%g..%g %s, or +N / -N", info.Lo, info.Hi, info.Unit)
	switch {
	case v == "next" || v == "prev":
		if f != link.FieldCap && f != link.FieldCorrupt {
			return bad(rangeWant)
		}
		e.Kind = map[string]link.EditKind{"next": link.EditNext, "prev": link.EditPrev}[v]
		return e, nil
	case v == "off" && f == link.FieldCap:
		return e, nil
	case strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-"):
		x, err := parseDecimal(v[1:])
		if err != nil || x > info.Hi {
			return bad(rangeWant)
		}
		if v[0] == '-' {
			x = -x
		}
		e.Kind, e.Value = link.EditAdd, x
		return e, nil
	}
	x, err := parseDecimal(v)
	if err != nil || x < info.Lo || x > info.Hi {
		return bad(rangeWant)
	}
	if f.Check(x) != nil { // the MTU's gap: 0 (datagrams whole) or 68 and more
		return bad("0 (datagrams whole) or 68..65535 bytes")
	}
	e.Value = x
	return e, nil
}

// editValue writes the edit's value as parseEdit reads it.
func editValue(e link.Edit) string {
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch e.Kind {
	case link.EditAdd:
		if e.Value < 0 {
			return num(e.Value)
		}
		return "+" + num(e.Value)
	case link.EditNext:
		return "next"
	case link.EditPrev:
		return "prev"
	case link.EditToggle:
		return "toggle"
	}
	if e.Field == link.FieldTCP {
		return onOff(e.Value != 0)
	}
	return num(e.Value)
}
