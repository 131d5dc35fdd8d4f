package control

import (
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/talk"
)

// TestRestoredLinkNamed: mobile, 4, mode 5, K (loss +1 % by hand), 3,
// 4, 2: "link restored" names mobile, what is back on the wire, never
// "custom" for the lockstep mode's link the edit was made from.
func TestRestoredLinkNamed(t *testing.T) {
	o := testOptions("interpolation", "mobile")
	var notes []string
	o.Say = func(s string) { notes = append(notes, s) }
	d := newTestDirector(t, o)
	do := func(c talk.Command) {
		d.Do(c)
		for range 10 {
			d.Tick(cubes.Input{})
		}
	}
	do(talk.Command{Op: talk.OpStrategy, Name: "lockstep"})
	for range 4 {
		do(talk.Command{Op: talk.OpSubMode, Dir: 1})
	}
	do(talk.Command{Op: talk.OpLink, Client: talk.AllClients, Edits: []link.Edit{{Dir: link.DirBoth, Field: link.FieldLoss, Kind: link.EditAdd, Value: 1}}})
	do(talk.Command{Op: talk.OpStrategy, Name: "statesync"})
	do(talk.Command{Op: talk.OpStrategy, Name: "lockstep"})
	notes = nil
	do(talk.Command{Op: talk.OpStrategy, Name: "compression"})
	if len(notes) == 0 || !strings.HasSuffix(notes[len(notes)-1], "link restored: mobile") {
		t.Errorf("leaving lockstep says %q, want the link restored named mobile", notes)
	}
	if got := d.LinkName(d.Session().Shown()); got != "mobile" {
		t.Errorf("the link is named %q, want mobile", got)
	}
}
