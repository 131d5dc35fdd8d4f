package catalog

import (
	"strings"
	"testing"

	"netcubes/strategy"
)

// TestCatalog: IDs are unique and findable by name or number key, every
// strategy has a name, a family and an explanation.
func TestCatalog(t *testing.T) {
	list := All()
	if len(list) > 9 {
		t.Fatalf("%d strategies: the number keys stop at 9", len(list))
	}
	for i, st := range list {
		if st.ID() == "" || st.Name() == "" || st.Family() == "" || st.Explain() == "" || st.Mode() == "" {
			t.Errorf("strategy %d (%q) lacks a name, family, explanation or mode", i, st.ID())
		}
		if j, ok := Find(list, st.ID()); !ok || j != i {
			t.Errorf("Find(%q) = %d, %v", st.ID(), j, ok)
		}
		if j, ok := Find(list, string(rune('1'+i))); !ok || j != i {
			t.Errorf("Find(%d) = %d, %v", i+1, j, ok)
		}
		for _, o := range list[:i] {
			if o.ID() == st.ID() {
				t.Errorf("two strategies named %q", st.ID())
			}
		}
	}
	if _, ok := Find(list, "magic"); ok {
		t.Error("found a strategy that is not there")
	}
}

// TestControlsShowRealValues presses every control of every strategy in
// both directions: the toast is the label and the value the setting reads
// afterwards, a toggle pressed twice is back where it was, and every
// control has a key, a label and a help line. (The strategies' own tests
// check each value against the setting behind it.)
func TestControlsShowRealValues(t *testing.T) {
	for _, st := range All() {
		keys := map[string]bool{}
		for _, c := range st.Controls() {
			if c.Key == "" || c.Label == "" || c.Help == "" || c.Value == nil || c.Do == nil {
				t.Fatalf("%s: incomplete control %+v", st.ID(), c)
			}
			if keys[c.Key] {
				t.Errorf("%s: two controls on %s", st.ID(), c.Key)
			}
			keys[c.Key] = true
			for _, dir := range []int{1, -1, 1, 1, -1} {
				got := c.Press(dir)
				if want := c.Label + ": " + c.Value(); got != want {
					t.Errorf("%s %s: toast %q, value now %q", st.ID(), c.Key, got, want)
				}
			}
			if c.Action == strategy.Toggle {
				before := c.Value()
				c.Press(1)
				if mid := c.Value(); mid == before {
					t.Errorf("%s %s: a toggle that does not toggle (%s)", st.ID(), c.Key, mid)
				}
				c.Press(1)
				if after := c.Value(); after != before {
					t.Errorf("%s %s: twice went from %s to %s", st.ID(), c.Key, before, after)
				}
			}
		}
		for _, dir := range []int{1, 1, -1} {
			if st.SubMode(dir) == "" {
				t.Errorf("%s: a sub-mode with no description", st.ID())
			}
		}
	}
}

// TestFlags: every flag rejects nonsense with a one-line message that
// names the flag, and flags shared between strategies mean the same.
func TestFlags(t *testing.T) {
	usage := map[string]string{}
	for _, st := range All() {
		fl, ok := st.(strategy.Flagged)
		if !ok {
			continue
		}
		for _, f := range fl.Flags() {
			if u, seen := usage[f.Name]; seen && u != f.Usage {
				t.Errorf("-%s means %q and %q", f.Name, u, f.Usage)
			}
			usage[f.Name] = f.Usage
			err := f.Set("nonsense\n")
			if err == nil || !strings.HasPrefix(err.Error(), "-"+f.Name+" must be") || strings.Count(err.Error(), "\n") > 1 {
				t.Errorf("-%s nonsense: %v", f.Name, err)
			}
		}
	}
}
