package talk

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: settings by name. A strategy describes its settings twice:
// as command-line flags ("-level 9", which set a value) and as controls on
// keys ("R", which step it). A track may use either: "set level 9", "key
// R", or a control by its name ("set congestion-avoidance on"), which the
// director reaches by pressing the control until its value reads so,
// counting the presses on a scratch copy first. A flag that is the active
// strategy's sub-mode (a compression level, a state sync step, a lockstep
// mode) is reached through the sub-mode steps `[` and `]` take, so the
// session does what it does after those keys (a lockstep mode's link, a
// restart of the right). A strategy's settings are copied between
// instances through strategy.Shared, the bytes that carry them to a right
// process.

// maxPresses bounds the presses or sub-mode steps a setting by name may
// take (the longest list, the thirteen compression levels, and the
// budget's steps fit).
const maxPresses = 64

// SettingsOf returns st's settings as bytes, or nil when it shares none.
func SettingsOf(st strategy.Strategy) []byte {
	sh, ok := st.(strategy.Shared)
	if !ok {
		return nil
	}
	buf := make([]byte, 4096)
	w := wire.NewWriteStream(buf)
	if sh.SerializeSettings(w) != nil || w.SerializeAlign() != nil {
		return nil
	}
	return append([]byte(nil), w.Bytes()...)
}

// PutSettings reads settings bytes into st.
func PutSettings(st strategy.Strategy, b []byte) error {
	sh, ok := st.(strategy.Shared)
	if !ok || b == nil {
		return fmt.Errorf("strategy %s shares no settings", st.ID())
	}
	return sh.SerializeSettings(wire.NewReadStream(b))
}

// SameSettings compares two instances' settings (their modes when they
// share none).
func SameSettings(a, b strategy.Strategy) bool {
	sa, sb := SettingsOf(a), SettingsOf(b)
	if sa == nil || sb == nil {
		return a.Mode() == b.Mode()
	}
	return bytes.Equal(sa, sb)
}

// CopyOf returns a fresh instance (from fresh, the strategy's own kind in
// a new list) with st's settings; without shared settings, st's clone.
func CopyOf(st, fresh strategy.Strategy) strategy.Strategy {
	if b := SettingsOf(st); b != nil && PutSettings(fresh, b) == nil {
		return fresh.Clone()
	}
	return st.Clone()
}

// FlagOf finds st's flag name.
func FlagOf(st strategy.Strategy, name string) (strategy.Flag, bool) {
	if fl, ok := st.(strategy.Flagged); ok {
		for _, f := range fl.Flags() {
			if f.Name == name {
				return f, true
			}
		}
	}
	return strategy.Flag{}, false
}

// controlName is a control's name in a track: its label with dashes
// ("congestion-avoidance").
func controlName(c *strategy.Control) string { return strings.ReplaceAll(c.Label, " ", "-") }

// ControlOf finds st's control by its name.
func ControlOf(st strategy.Strategy, name string) (int, bool) {
	cs := st.Controls()
	for i := range cs {
		if controlName(&cs[i]) == name {
			return i, true
		}
	}
	return 0, false
}

// ControlByKey finds st's control on key.
func ControlByKey(st strategy.Strategy, key string) (int, bool) {
	cs := st.Controls()
	for i := range cs {
		if cs[i].Key == key {
			return i, true
		}
	}
	return 0, false
}

// valueIs reports whether a control's value reads v: the whole value, or
// its first words ("150" for "150 ms", "on" for "on (acts at levels 9-13
// only; …)").
func valueIs(value, v string) bool {
	return value == v || strings.HasPrefix(value, v+" ")
}

// PressesTo counts the presses of control i (direction dir) that take a
// copy of st to value v, trying forward first: ok is false when none does.
func PressesTo(st strategy.Strategy, fresh func() strategy.Strategy, i int, v string) (n, dir int, ok bool) {
	for _, d := range []int{1, -1} {
		s := CopyOf(st, fresh())
		c := s.Controls()[i]
		for k := 0; k <= maxPresses; k++ {
			if valueIs(c.Value(), v) {
				return k, d, true
			}
			if c.Action != strategy.Adjust && d < 0 {
				break // a toggle or a cycle reaches every value forward
			}
			c.Do(d)
		}
	}
	return 0, 0, false
}

// SubModeSteps counts the sub-mode steps that give a copy of st the
// settings of target: ok is false when no number of steps does.
func SubModeSteps(st, target strategy.Strategy, fresh func() strategy.Strategy) (n, dir int, ok bool) {
	for _, d := range []int{1, -1} {
		s := CopyOf(st, fresh())
		for k := 1; k <= maxPresses; k++ {
			s.SubMode(d)
			if SameSettings(s, target) {
				return k, d, true
			}
		}
	}
	return 0, 0, false
}

// settingNames lists every setting a track can name in the list: flags,
// then controls, sorted, each once.
func settingNames(list []strategy.Strategy) []string {
	seen := map[string]bool{}
	var flags, controls []string
	for _, st := range list {
		if fl, ok := st.(strategy.Flagged); ok {
			for _, f := range fl.Flags() {
				if !seen[f.Name] {
					seen[f.Name] = true
					flags = append(flags, f.Name)
				}
			}
		}
	}
	for _, st := range list {
		cs := st.Controls()
		for i := range cs {
			if n := controlName(&cs[i]); !seen[n] {
				seen[n] = true
				controls = append(controls, n)
			}
		}
	}
	sort.Strings(flags)
	sort.Strings(controls)
	return append(flags, controls...)
}

// checkSetting reports whether "set name value" means something for some
// strategy of list (fresh instances, which it may change), and what is
// wrong when not.
func checkSetting(list []strategy.Strategy, fresh func(i int) strategy.Strategy, name, value string) error {
	found := false
	byFlag := IsFlag(list, name)
	for i, st := range list {
		if f, ok := FlagOf(st, name); ok {
			found = true
			if err := f.Set(value); err != nil {
				return fmt.Errorf("set %s: %s", name, strings.TrimPrefix(err.Error(), "-"))
			}
			continue
		}
		if k, ok := ControlOf(st, name); ok && !byFlag {
			found = true
			if _, _, ok := PressesTo(st, func() strategy.Strategy { return fresh(i) }, k, value); !ok {
				return fmt.Errorf("set %s %s: no press of %s gives it (now %s)", name, quote(value),
					st.Controls()[k].Key, quote(st.Controls()[k].Value()))
			}
		}
	}
	if !found {
		return fmt.Errorf("unknown setting %s (settings, the closest first: %s)", quote(name), closestNames(name, settingNames(list), namesBytes))
	}
	return nil
}

// controlKeys lists every key of the strategies' controls, sorted.
func controlKeys(list []strategy.Strategy) []string {
	seen := map[string]bool{}
	var keys []string
	for _, st := range list {
		for _, c := range st.Controls() {
			if !seen[c.Key] {
				seen[c.Key] = true
				keys = append(keys, c.Key)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// IsFlag reports whether some strategy of list has a flag called name: a
// name is a flag's before it is a control's ("smoothing" is state sync's
// flag, and the 2004 strategy's control is set as predict-smoothing).
func IsFlag(list []strategy.Strategy, name string) bool {
	for _, st := range list {
		if _, ok := FlagOf(st, name); ok {
			return true
		}
	}
	return false
}

// namesBytes bounds the list of names an error offers: every error of a
// track is one short line, and seven strategies have more settings than
// a line holds.
const namesBytes = 300

// closestNames lists names, the closest to w first (by edit distance,
// ties in their order), as many as fit in most bytes, then how many more
// there are.
func closestNames(w string, names []string, most int) string {
	type scored struct {
		name string
		d    int
	}
	sc := make([]scored, len(names))
	for i, n := range names {
		sc[i] = scored{n, editDistance(w, n)}
	}
	slices.SortStableFunc(sc, func(a, b scored) int { return a.d - b.d })
	out := ""
	for i, x := range sc {
		if out != "" && len(out)+1+len(x.name) > most {
			return fmt.Sprintf("%s … and %d more", out, len(sc)-i)
		}
		if out != "" {
			out += " "
		}
		out += x.name
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
