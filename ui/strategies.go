package ui

// The strategies on keys. Nothing here knows a strategy by type: the number
// keys pick an entry of the session's list (package catalog), `[` and `]`
// step its sub-mode, and every control a strategy describes
// (strategy.Control) becomes a key of its family's group in the help. A
// key press finds the control of the active strategy on that key and
// prints the value the setting has afterwards, read back from the
// strategy. The command-line flags of the strategies are generated the same
// way (StrategyFlags).

import (
	"flag"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/control"
	"netcubes/strategy"
	"netcubes/talk"
)

// family is a group of strategies that share their controls, in list
// order: "Snapshots" with entries 1 and 2.
type family struct {
	name     string
	members  []int // indices in the list
	controls []strategy.Control
}

// families groups list by Family, in order of first appearance.
func families(list []strategy.Strategy) []family {
	var fs []family
	for i, st := range list {
		k := -1
		for j := range fs {
			if fs[j].name == st.Family() {
				k = j
			}
		}
		if k < 0 {
			fs = append(fs, family{name: st.Family(), controls: st.Controls()})
			k = len(fs) - 1
		}
		fs[k].members = append(fs[k].members, i)
	}
	return fs
}

// heading is the family's group in the help: "Snapshots (1, 2)".
func (f *family) heading() string {
	var keys []string
	for _, m := range f.members {
		keys = append(keys, strconv.Itoa(m+1))
	}
	return f.name + " (" + strings.Join(keys, ", ") + ")"
}

// keyByName maps a control's key name to Ebitengine's key: letters and
// digits as written, anything else by Ebitengine's own name ("F8").
func keyByName(name string) (ebiten.Key, bool) {
	if len(name) == 1 {
		c := name[0]
		switch {
		case c >= 'A' && c <= 'Z':
			return ebiten.KeyA + ebiten.Key(c-'A'), true
		case c >= '0' && c <= '9':
			return ebiten.KeyDigit0 + ebiten.Key(c-'0'), true
		}
	}
	for k := ebiten.Key(0); k <= ebiten.KeyMax; k++ {
		if k.String() == name {
			return k, true
		}
	}
	return 0, false
}

// strategyBindings are the number keys and the sub-mode keys, then a group
// per family with its controls. A key shared by several families is bound
// once; the press goes to whichever strategy is active.
func strategyBindings(list []strategy.Strategy) []binding {
	var t []binding
	for i, st := range list {
		if i >= 9 {
			break // keys 1-9
		}
		t = append(t, binding{group: "Strategy", keys: keys(ebiten.KeyDigit1 + ebiten.Key(i)), shift: noShift,
			label: strconv.Itoa(i + 1), help: st.Name(), do: func(a *App) {
				a.d.Do(talk.Command{Op: talk.OpStrategy, Name: a.sess.Strategies()[i].ID()})
			}})
	}
	t = append(t,
		binding{group: "Strategy", keys: keys(ebiten.KeyBracketLeft), label: "[", help: "previous sub-mode (render mode, level, build-up step)",
			do: func(a *App) { a.subMode(-1) }},
		binding{group: "Strategy", keys: keys(ebiten.KeyBracketRight), label: "]", help: "next sub-mode",
			do: func(a *App) { a.subMode(+1) }},
	)
	bound := map[string]bool{}
	for _, f := range families(list) {
		for _, c := range f.controls {
			b := binding{group: f.heading(), label: c.KeyLabel(), help: c.Help}
			if k, ok := keyByName(c.Key); ok && !bound[c.Key] {
				bound[c.Key] = true
				key := c.Key
				b.keys = keys(k)
				b.repeat = c.Action == strategy.Adjust
				b.do = func(a *App) { a.controlKey(key) }
			}
			t = append(t, b)
		}
	}
	return t
}

// subMode steps the active strategy's sub-mode.
func (a *App) subMode(d int) { a.d.Do(talk.Command{Op: talk.OpSubMode, Dir: d}) }

// controlKey applies a press of key to the active strategy's control on
// it (Shift steps back), or says which strategies the key belongs to.
func (a *App) controlKey(key string) {
	dir := 1
	if ebiten.IsKeyPressed(ebiten.KeyShift) {
		dir = -1
	}
	a.d.ControlKey(key, dir)
}

// StrategyFlags defines the flags of every strategy in list on fs (a flag
// shared by several strategies, like the snapshot entries' -level, is
// defined once) and returns a function that, after parsing, applies the
// flags that were given to every strategy that has them, and returns them
// in the order it applied them (a recording's header repeats them). Its
// errors are usage errors.
func StrategyFlags(fs *flag.FlagSet, list []strategy.Strategy) func() ([]control.Setting, error) {
	type flagUse struct {
		name string
		sets []func(string) error
	}
	var uses []*flagUse
	byName := map[string]*flagUse{}
	for _, st := range list {
		fl, ok := st.(strategy.Flagged)
		if !ok {
			continue
		}
		for _, f := range fl.Flags() {
			u := byName[f.Name]
			if u == nil {
				u = &flagUse{name: f.Name}
				byName[f.Name] = u
				uses = append(uses, u)
				fs.String(f.Name, "", f.Usage)
			}
			u.sets = append(u.sets, f.Set)
		}
	}
	return func() ([]control.Setting, error) {
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		var applied []control.Setting
		for _, u := range uses {
			if !given[u.name] {
				continue
			}
			v := fs.Lookup(u.name).Value.String()
			for _, set := range u.sets {
				if err := set(v); err != nil {
					return nil, UsageError(err.Error())
				}
			}
			applied = append(applied, control.Setting{Name: u.name, Value: v})
		}
		return applied, nil
	}
}

// UsageError is a bad command-line value: main prints it on one line and
// exits with code 2.
type UsageError string

func (e UsageError) Error() string { return string(e) }

// strategyFacts is the active strategy's own line of figures for the HUD
// (strategy.Facts), or "".
func strategyFacts(st strategy.Strategy) string {
	if f, ok := st.(strategy.Facts); ok {
		return f.Facts()
	}
	return ""
}
