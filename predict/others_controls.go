package predict

import (
	"fmt"

	"netcubes/strategy"
	"netcubes/wire"
)

// The presenter's handles on other players and tags: I cycles how other
// players are drawn, and Slash (the "/" key) tags the nearest other player.
// I is snapshot interpolation's render-mode key too (it acts here only
// while this strategy is active); Slash is no other strategy's, as a
// player's action should be. The interpolation delay, the verdict that
// counts (lag compensation on or off) and the automatic tags are flags
// (-predict-delay, -predict-compensation, -predict-autotag): the help has
// no room for more rows at 1280 × 720 with the largest text, and the Mode
// line shows both verdicts' tallies whatever the setting.

// TagKey is the key of the tag action: Ebitengine's name of the "/" key.
const TagKey = "Slash"

func (st *Strategy) othersControls() []strategy.Control {
	return []strategy.Control{
		{Key: "I", Label: "other players", Help: "others: as arrived / interpolated / extrapolated / predicted / 2004", Action: strategy.Cycle,
			Value: func() string { return st.set.Others.String() },
			Do: func(dir int) {
				s := st.set
				n := NumOthersModes
				s.Others = OthersMode((int(s.Others)-1+dir+n)%n + 1)
				st.SetSettings(s)
			}},
		{Key: TagKey, Label: "tag", Help: "tag the nearest other player (within 3 m as you see it)", Action: strategy.Trigger,
			// The note is written as the key is pressed, a tick before the
			// tag is made (or not: no one near, or too soon after the last),
			// so it states no tally: a count here lagged one tag behind the
			// Mode line's, which keeps it.
			Value: func() string {
				return "asked for: the nearest other player, sent with the next input (tally on the Mode line)"
			},
			Do: func(int) { st.RequestTag() }},
	}
}

// othersFacts is the start of the facts line with other players: where
// the nearest is drawn and how far off, and the tags.
func (st *Strategy) othersFacts() string {
	c := &st.cli
	if c.w == nil || c.w.NumPlayers() < 2 {
		return ""
	}
	o := &st.stats.Others
	out := ""
	if o.Nearest >= 0 && o.Measuring {
		// A new mode: its figures need a moment of their own.
		return fmt.Sprintf("player %d drawn %s: measuring…", o.Nearest+1, st.set.Others)
	}
	if o.Nearest >= 0 {
		out = fmt.Sprintf("player %d drawn %s", o.Nearest+1, pastText(o.PastMs))
		if o.Compared > 0 {
			out += fmt.Sprintf(", off by %.1f cm RMS (%.0f max)", o.ErrRMSCm, o.ErrMaxCm)
		}
	}
	return out
}

// tagsText is the tags' tally on the Mode line: the hits the client saw
// against the tags the server granted, both ways, and how often each
// agreed with the client. The grants and the agreement are counted over
// the tags judged so far, which the line names with the hits the client
// saw among them: "3 seen as hits of 5 · granted 0 · agree 100 %" read as
// a contradiction when the 2 judged were 2 of the misses.
func (st *Strategy) tagsText() string {
	t := &st.stats.Tags
	if t.Tags == 0 {
		return " · tags: none yet (/ tags)"
	}
	s := fmt.Sprintf(" · tags: %d seen as hits of %d", t.SeenHits, t.Tags)
	if t.Verdicts == 0 {
		return s + " · none judged yet"
	}
	return s + fmt.Sprintf(" · judged %d (%d seen as hits): granted %d with compensation, %d without · agree %.0f %% with, %.0f %% without",
		t.Verdicts, t.SeenHitsJudged, t.GrantedOn, t.GrantedOff, t.AgreementOn(), t.AgreementOff())
}

// pastText says how far in the past (or ahead) something is drawn.
func pastText(ms float64) string {
	switch {
	case ms >= 0.5:
		return fmt.Sprintf("%.0f ms ago", ms)
	case ms <= -0.5:
		return fmt.Sprintf("%.0f ms ahead", -ms)
	}
	return "at the server's present"
}

// othersMode is the end of the Mode line with other players.
func (st *Strategy) othersMode() string {
	c := &st.cli
	if c.w == nil || c.w.NumPlayers() < 2 {
		return ""
	}
	s := " · others " + st.set.Others.String()
	if st.set.Others == OthersInterpolate {
		s += fmt.Sprintf(" %.0f ms", float64(st.delayTicks())*1000/wire.TicksPerSecond)
	}
	return s + " · lag compensation " + strategy.OnOff(st.set.Compensate) + st.tagsText()
}
