package viewmodel

import (
	"fmt"
	"strings"
)

// Strip is one client's compact figures under its view in the grid: whose
// screen it is, its link, and the four figures that tell the clients apart
// from the back of a hall (RTT, loss, the error, how far in the past it
// shows the server). It is worded from the same facts as the HUD
// (BuildHUD), so the grid and the HUD never disagree.
type Strip struct {
	Title  string // "CLIENT 3 of 4"
	Sub    string // "player 3 (gather bot) · mobile"
	Player int    // the swatch's player (1..8; 0: a spectator)
	Shown  bool   // the client the HUD's figures are of
	// Figures are key figures, never cut: they wrap between parts.
	Figures []Span
}

// BuildStrip words client f.Client's strip.
func BuildStrip(f *Facts, a *AppFacts) Strip {
	m := &f.Metrics
	st := Strip{Title: fmt.Sprintf("CLIENT %d of %d", f.ClientID+1, f.Clients)}
	if f.ClientID < f.Players {
		st.Player = f.ClientID + 1
	}
	// The title names the player and its link; the link goes with the
	// figures, where it explains them.
	st.Sub = strings.TrimPrefix(a.ClientTitle, fmt.Sprintf("client %d · ", f.ClientID+1))
	st.Sub = strings.TrimSuffix(st.Sub, " · "+a.LinkName+" link")
	rtt, _, _ := DescribeRTT(m, f.Links.Down, false)
	loss, _, _ := DescribeLoss(m, f.Links.Down)
	st.Figures = append(st.Figures, Span{a.LinkName, RoleAccent}, Span{rtt, RoleText}, Span{loss, RoleText})
	if f.Outage {
		st.Figures = append(st.Figures, Span{"OUTAGE", RoleBad})
	}
	e := BuildError(m, f.HasLeft, f.HasRight)
	switch e.State {
	case ErrorShown:
		st.Figures = append(st.Figures, Span{"error " + e.Parts[0], e.Role})
		if e.Of == "" {
			st.Figures = append(st.Figures, Span{stripLag(m.DelayMs), e.LagRole})
		}
	case ErrorMeasuring:
		st.Figures = append(st.Figures, Span{"error measuring…", RoleDim})
	default:
		st.Figures = append(st.Figures, Span{"error: nothing shown yet", RoleDim})
	}
	return st
}

// stripLag is LagLine in the strip's few words.
func stripLag(ms float64) string {
	if ms < 0.5 {
		return "shows the server now"
	}
	return fmt.Sprintf("shows %.0f ms ago", ms)
}
