package ui

import "testing"

// TestNextPlayer: the names a swatch goes before, and the look-alikes it
// does not.
func TestNextPlayer(t *testing.T) {
	for _, c := range []struct {
		s    string
		want []int // the players named, in order
	}{
		{"waiting for player 3", []int{3}},
		{"player 4's input holds the server back", []int{4}},
		{"owned P1 12 P2 20 P3 51", []int{1, 2, 3}},
		{"relay up/down kbit/s P1 94/254 · P4 238/254", []int{1, 4}},
		{"player 12 · players 2..8 · multiplayer 2 · P9 · P2P · F12 · PageUp", nil},
		{"player 1 (you)", []int{1}},
	} {
		var got []int
		for at, n := nextPlayer(c.s, 0); at >= 0; at, n = nextPlayer(c.s, at+1) {
			got = append(got, n)
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: players %v, want %v", c.s, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: players %v, want %v", c.s, got, c.want)
			}
		}
		if playerMentions(c.s) != len(c.want) {
			t.Errorf("%q: %d mentions", c.s, playerMentions(c.s))
		}
	}
}
