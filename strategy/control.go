package strategy

import (
	"fmt"
	"strconv"
	"strings"

	"netcubes/internal/cliutil"
)

// Design note: typed controls. A strategy describes each of its settings
// once — the key, what it is, what a press does, and its value as text —
// and everything else is generated from that description: the app binds
// the key, the help overlay lists it, the toast after a press prints the
// value the setting really has now (read back, never assumed), and a test
// checks the README's key table against the same list. Adding a setting is
// one entry here, in the strategy's own package.

// Action is what a key press does to a setting.
type Action uint8

const (
	// Toggle flips an on/off setting.
	Toggle Action = iota
	// Cycle moves to the next value of a short list; with Shift, to the
	// previous one.
	Cycle
	// Adjust adds one step to a number; with Shift, takes one away. It
	// repeats while the key is held.
	Adjust
	// Trigger does something once (tag a player): there is no setting to
	// flip, so its Value is a tally or a state, not "on" or "off".
	Trigger
)

// Control is one setting of a strategy on a key.
type Control struct {
	// Key is the key, as the help prints it and the app binds it: a
	// letter or a digit ("R"), or a name Ebitengine knows ("F8").
	Key string
	// Label names the setting in the toast after a press ("send rate").
	Label string
	// Help is the line of the help overlay and the README's key table.
	Help string
	// Action is what a press does.
	Action Action
	// Value is the setting's current value as text ("30 Hz", "on").
	Value func() string
	// Do applies one press: dir is +1, or −1 with Shift (Cycle and
	// Adjust; a Toggle ignores it).
	Do func(dir int)
}

// KeyLabel is how the key is written in the help: "R", or "D / Shift+D"
// for a setting that Shift steps the other way.
func (c *Control) KeyLabel() string {
	if c.Action == Adjust {
		return c.Key + " / Shift+" + c.Key
	}
	return c.Key
}

// Press applies one press and returns the toast: the label and the value
// the setting has afterwards.
func (c *Control) Press(dir int) string {
	c.Do(dir)
	return c.Label + ": " + c.Value()
}

// OnOff writes a boolean setting's value.
func OnOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// ToggleControl is a Control for a boolean setting reached through p.
func ToggleControl(key, label, help string, p *bool) Control {
	return Control{Key: key, Label: label, Help: help, Action: Toggle,
		Value: func() string { return OnOff(*p) },
		Do:    func(int) { *p = !*p }}
}

// Flag is a command-line flag of a strategy ("-level 9"). Strategies that
// share a flag (the two snapshot entries) each get the value.
type Flag struct {
	Name  string // without the dash
	Usage string
	// Set checks and applies a value; its error is printed on one line as
	// it is (write it as "-level must be 1..11, got 12").
	Set func(value string) error
}

// Flagged is implemented by a strategy with command-line flags.
type Flagged interface {
	Flags() []Flag
}

// The values in these errors are quoted and cut short (cliutil.Quote): a
// flag's value is input like any other, and may be 60 kB long or hold a
// line break; the error must stay one short line.

// IntFlag builds a Flag for an integer in lo..hi that set applies.
func IntFlag(name, usage string, lo, hi int, set func(int)) Flag {
	return Flag{Name: name, Usage: usage, Set: func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("-%s must be %d..%d, got %s", name, lo, hi, cliutil.Quote(v))
		}
		set(n)
		return nil
	}}
}

// floatFlag builds a Flag for a number in lo..hi (unit names it in the
// error: "ms") that set applies. NaN and the infinities are refused: NaN
// fails every comparison, so a plain range check lets it through.
func floatFlag(name, usage string, lo, hi float64, unit string, set func(float64)) Flag {
	return Flag{Name: name, Usage: usage, Set: func(v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= lo && x <= hi) {
			return fmt.Errorf("-%s must be %g..%g %s, got %s", name, lo, hi, unit, cliutil.Quote(v))
		}
		set(x)
		return nil
	}}
}

// ChoiceFlag builds a Flag whose value is one of names; set gets its index.
func ChoiceFlag(name, usage string, names []string, set func(int)) Flag {
	return Flag{Name: name, Usage: usage, Set: func(v string) error {
		for i, n := range names {
			if v == n {
				set(i)
				return nil
			}
		}
		return fmt.Errorf("-%s must be %s, got %s", name, orList(names), cliutil.Quote(v))
	}}
}

// orList writes "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
