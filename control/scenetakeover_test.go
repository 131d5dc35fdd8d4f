package control

import (
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/talk"
)

// sceneTrack has three scenes, each starting the world over: the
// presenter takes over in the second (1 s to 2 s).
const sceneTrack = `strategy interpolation
0 play katamari
1s reset
1s strategy statesync
1s caption "scene two"
2s reset
2s strategy lockstep
`

// TestSceneAfterTakeOver: Home or F5 after taking over from a track goes
// back to the start of the track's scene the presenter was in, and the
// track plays on from there; not to the start of the whole track.
func TestSceneAfterTakeOver(t *testing.T) {
	for _, key := range []struct {
		name  string
		press func(d *Director)
	}{{"Home", (*Director).Scene}, {"F5", (*Director).Restart}} {
		t.Run(key.name, func(t *testing.T) {
			tr, err := talk.ParseWith("scenes.txt", strings.NewReader(sceneTrack), cubes.LoadScript)
			if err != nil {
				t.Fatal(err)
			}
			o := testOptions("interpolation", "lan")
			o.Track = tr
			d := newTestDirector(t, o)
			for range 90 { // into the second scene
				d.Tick(cubes.Input{})
			}
			d.Do(talk.Command{Op: talk.OpStrategy, Name: "predict"}) // takes over
			for range 20 {
				d.Tick(cubes.Input{Up: true})
			}
			key.press(d)
			for d.job != nil {
				d.Tick(cubes.Input{})
			}
			if f := d.Frame() - d.trStart; f != 60 || !d.trOn {
				t.Errorf("after %s: track frame %d (playing %v), want 60 (1s, the scene's start), playing", key.name, f, d.trOn)
			}
			d.Tick(cubes.Input{}) // the scene's own commands of that frame
			if id := d.Session().Strategy().ID(); id != "statesync" {
				t.Errorf("after %s: strategy %s, want the scene's statesync", key.name, id)
			}
			for range 60 { // the track plays on into its third scene
				d.Tick(cubes.Input{})
			}
			if id := d.Session().Strategy().ID(); id != "lockstep" {
				t.Errorf("after %s and 61 ticks: strategy %s, want the track's lockstep", key.name, id)
			}
		})
	}
}
