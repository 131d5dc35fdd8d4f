package game

import (
	"fmt"

	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// HUDFacts fills f with client k's facts for the HUD (viewmodel.BuildHUD
// words them): what its instance of the strategy says, its metrics, its
// links, and the session's shape. The timeline is filled for the shown
// client only (it reuses f.Timeline's array).
func (s *Session) HUDFacts(k int, f *viewmodel.Facts) {
	c := s.clients[k]
	st := c.st
	tl := f.Timeline[:0]
	*f = viewmodel.Facts{
		Entry:    fmt.Sprintf("%d  %s", s.active+1, st.Name()),
		Mode:     st.Mode(),
		Explain:  st.Explain(),
		Metrics:  c.metrics,
		Links:    c.link,
		Checksum: s.cfg.Checksum,
		Outage:   c.toRight.InOutage(wire.Tick(s.frame)),
		Client:   k, ClientID: c.id, Clients: len(s.clients), Players: s.NumPlayers(),
		PlayersElsewhere: s.PlayersElsewhere(),
		Frame:            s.frame,
	}
	f.HasLeft, f.HasRight = s.Halves()
	if srv := s.Server(); srv != nil && !srv.Slot(k).Connected {
		f.NoRight = "no client in this slot"
		if srv.Clients() == 0 {
			f.NoRight = "no client yet"
		}
	}
	if al, ok := st.(strategy.Alarm); ok {
		f.Alarm = al.Alarm()
	}
	if b, ok := st.(strategy.Budgeted); ok {
		var kept bool
		f.Budgeted = true
		f.BudgetKbps, kept = b.BudgetKbps()
		f.BudgetOff = !kept
	}
	if fs, ok := st.(strategy.Facts); ok {
		f.StrategyFacts = fs.Facts()
	}
	if !f.HasLeft {
		f.RemoteFacts = s.Remote().Facts
	}
	if rf, ok := st.(strategy.RightFacts); ok {
		f.RightFacts, f.HasRightFacts = rf.RightFacts(), true
	}
	if kf, ok := st.(strategy.KeyFigures); ok {
		f.KeyLead, f.KeyParts = kf.KeyFigures()
	}
	if rd, ok := s.Strategy().(strategy.RightDriven); ok {
		f.RightDriven = true
		f.SideLabels[0], f.SideLabels[1], f.SideLabels[2], f.SideLabels[3] = rd.SideLabels()
	}
	if fl, ok := st.(strategy.FrameLane); ok {
		f.LaneFinal, f.LanePresent, f.HasLane = fl.FrameLane()
	}
	if k == s.shown {
		f.Timeline = s.Timeline(tl)
	} else {
		f.Timeline = tl
	}
}
