package control

import (
	"strings"
	"testing"
	"time"

	"netcubes/cubes"
	"netcubes/talk"
)

// pageDownTrack has a caption 2 s in, for PageDown to go forward to.
const pageDownTrack = `0 play katamari
0 caption "first"
2s caption "second"
`

func jumpDirector(t *testing.T) (*Director, *[]string) {
	t.Helper()
	tr, err := talk.ParseWith("jump.txt", strings.NewReader(pageDownTrack), cubes.LoadScript)
	if err != nil {
		t.Fatal(err)
	}
	o := testOptions("interpolation", "lan")
	o.Track = tr
	notes := new([]string)
	o.Say = func(s string) { *notes = append(*notes, s) }
	d := newTestDirector(t, o)
	for range 5 {
		d.Tick(cubes.Input{})
	}
	// One frame a tick: the jump is seen under way.
	d.SetWorkBudget(time.Nanosecond)
	return d, notes
}

// TestJumpForwardProgress: going forward to the next caption (PageDown)
// says how far it has got, from 0 to 100 %, not 0 % until it is there.
func TestJumpForwardProgress(t *testing.T) {
	d, _ := jumpDirector(t)
	d.NextCaption()
	last, moved := -1.0, false
	for range 200 {
		_, done, ok := d.Jump()
		if !ok {
			break
		}
		if done < last || done < 0 || done > 1 {
			t.Fatalf("progress %.3f after %.3f", done, last)
		}
		if done > 0 {
			moved = true
		}
		last = done
		d.Tick(cubes.Input{})
	}
	if !moved {
		t.Errorf("the forward jump's progress never left 0 (last %.3f)", last)
	}
}

// TestBackDuringJumpSaysWhy: Backspace while a PageDown jump is under way
// is not dropped without a word: the HUD says the jump is going on.
func TestBackDuringJumpSaysWhy(t *testing.T) {
	d, notes := jumpDirector(t)
	d.NextCaption()
	if _, _, ok := d.Jump(); !ok {
		t.Fatal("no jump under way")
	}
	*notes = nil
	d.Back(60)
	if len(*notes) == 0 || !strings.Contains((*notes)[len(*notes)-1], "going forward") {
		t.Errorf("Backspace during the jump says %q", *notes)
	}
}
