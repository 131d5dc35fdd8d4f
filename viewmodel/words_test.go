package viewmodel

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 ticks"}, {1, "1 tick"}, {2, "2 ticks"}, {-1, "-1 tick"}} {
		if got := Plural(c.n, "tick"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
