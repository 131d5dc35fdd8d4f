package track

import (
	"strings"
	"testing"

	"netcubes/cubes"
)

// TestRestoredLinkNamed: mobile, 4, mode 5, K (loss +1 % by hand), 3,
// 4, 2: "link restored" names mobile, what is back on the wire, never
// "custom" for the lockstep mode's link the edit was made from.
func TestRestoredLinkNamed(t *testing.T) {
	o := testOptions("interpolation", "mobile")
	var notes []string
	o.Say = func(s string) { notes = append(notes, s) }
	d := newTestDirector(t, o)
	do := func(c Command) {
		d.Do(c)
		for range 10 {
			d.Tick(cubes.Input{})
		}
	}
	do(Command{Op: OpStrategy, Name: "lockstep"})
	for range 4 {
		do(Command{Op: OpSubMode, Dir: 1})
	}
	do(Command{Op: OpLink, Client: AllClients, Edits: []LinkEdit{{Dir: DirBoth, Field: FieldLoss, Kind: EditAdd, Value: 1}}})
	do(Command{Op: OpStrategy, Name: "statesync"})
	do(Command{Op: OpStrategy, Name: "lockstep"})
	notes = nil
	do(Command{Op: OpStrategy, Name: "compression"})
	if len(notes) == 0 || !strings.HasSuffix(notes[len(notes)-1], "link restored: mobile") {
		t.Errorf("leaving lockstep says %q, want the link restored named mobile", notes)
	}
	if got := d.LinkName(d.Session().Shown()); got != "mobile" {
		t.Errorf("the link is named %q, want mobile", got)
	}
}
