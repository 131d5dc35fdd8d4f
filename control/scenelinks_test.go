package control

import (
	"testing"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/talk"
)

// TestSceneKeepsOwnLinks: with a link per client, Home in lockstep (the
// scene "with this strategy's settings and link as at start") keeps them,
// as the start did: the lesson of the slowest link needs them.
func TestSceneKeepsOwnLinks(t *testing.T) {
	o := testOptions("interpolation", "lan")
	o.Config.World.Players = 3
	o.Presets = []string{"lan", "mobile", "terrible"}
	for _, name := range o.Presets {
		p, _ := link.PresetByName(name)
		o.Config.ClientLinks = append(o.Config.ClientLinks, p.Pair())
	}
	d := newTestDirector(t, o)
	want := d.Session().ClientLinks()
	d.Do(talk.Command{Op: talk.OpStrategy, Name: "lockstep"})
	for range 10 {
		d.Tick(cubes.Input{})
	}
	d.Do(talk.Command{Op: talk.OpScene})
	for k, l := range d.Session().ClientLinks() {
		if k < len(want) && l != want[k] {
			t.Errorf("after Home in lockstep, client %d's link is %+v, want %s's", k+1, l.Down, o.Presets[k])
		}
	}
}
