package strategy

import "testing"

// TestModeList: the key goes into the list at its first mode, then back
// to the last one shown; steps wrap both ways.
func TestModeList(t *testing.T) {
	l := ModeList{N: 6}
	if l.Toggle() != 1 {
		t.Fatalf("first toggle: %d", l.Toggle())
	}
	for _, c := range []struct{ dir, want int }{{-1, 6}, {+1, 2}} {
		l.Shown = 1
		if got := l.Step(c.dir); got != c.want {
			t.Errorf("step %+d from 1: %d, want %d", c.dir, got, c.want)
		}
	}
	l.Shown = 6
	if got := l.Step(+1); got != 1 {
		t.Errorf("] from 6: %d", got)
	}
	l.Shown = 4
	l.Step(0)
	if l.Toggle() != 0 {
		t.Error("toggle from the list does not leave it")
	}
	l.Shown = 0
	if got := l.Toggle(); got != 4 {
		t.Errorf("back into the list at %d, want the last shown 4", got)
	}
	c := l.Control("F2", "help", "the build-up", func(n int) { l.Shown = n })
	if c.Press(1) != "mode list: the original demo's modes (now 4 of 6)" || c.Press(1) != "mode list: the build-up" {
		t.Errorf("control: %q", c.Value())
	}
}
