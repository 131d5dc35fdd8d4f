package predict

import "testing"

// TestOthersTimeline: the full scenario unless the bench is held to fewer
// ticks; then the landing takes at most half (at least 1 s) and the
// phases after it share the rest, never less than 3 s.
func TestOthersTimeline(t *testing.T) {
	full, squeezed := othersTimelineIn(0)
	if squeezed || full != (othersTimeline{land: 240, shove: 600, bot: 600, pass: 1200}) {
		t.Fatalf("full timeline %+v (squeezed %v)", full, squeezed)
	}
	for _, tt := range []struct {
		n                      int
		land, shove, bot, pass int
		squeezed               bool
	}{
		{1440, 240, 600, 600, 1200, false},
		{5000, 240, 600, 600, 1200, false},
		{1000, 240, 380, 380, 1000, true},
		{600, 240, 180, 180, 600, true},
		{300, 150, 90, 90, 330, true},
		{120, 60, 90, 90, 240, true},
	} {
		tl, sq := othersTimelineIn(tt.n)
		if sq != tt.squeezed || tl.land != tt.land || tl.shove != tt.shove || tl.bot != tt.bot || tl.pass != tt.pass {
			t.Errorf("othersTimelineIn(%d) = %+v, %v; want land %d shove %d bot %d pass %d squeezed %v", tt.n, tl, sq, tt.land, tt.shove, tt.bot, tt.pass, tt.squeezed)
		}
	}
}
