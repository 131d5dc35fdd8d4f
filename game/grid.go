package game

import (
	"math"

	"netcubes/geom"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// The grid: the server's view and up to four clients' at once, each with
// its own figures. A session fills the shown client's view and error every
// tick (finish); the grid asks for more clients' (SetGridClients), whose
// views and error figures are filled the same way after the step. Filling
// a view only reads a client's strategy (strategy.View), so the grid never
// changes what is simulated: a run with it is bit-identical to one
// without (TestGridKeepsTheRun).

// MaxGridClients is how many clients the grid shows at once: four views
// beside the server's stay readable from the back of a hall at 1920×1080.
const MaxGridClients = 4

// gridClient is one client the grid shows besides the shown one.
type gridClient struct {
	k          int
	view       viewmodel.View
	validTicks int // ticks in a row with error figures (Metrics.ErrorTicks)
}

// SetGridClients asks for the views and error figures of clients ks
// every tick from now on (at most MaxGridClients; nil: none but the shown
// client's). Clients out of range are ignored. The views are filled at
// once, so a grid turned on while paused shows them.
func (s *Session) SetGridClients(ks []int) {
	old := s.grid
	s.grid = s.grid[:0]
	for _, k := range ks {
		if k < 0 || k >= len(s.clients) || len(s.grid) == MaxGridClients {
			continue
		}
		g := gridClient{k: k}
		for _, o := range old {
			if o.k == k {
				g.validTicks = o.validTicks
				g.view = o.view
			}
		}
		s.grid = append(s.grid, g)
	}
	if s.proc.measuresRight() && len(s.clients) > 0 {
		s.fillGrid()
	}
}

// ClientView is client k's rebuilt world: the right view for the shown
// client, the grid's for a client the grid asked for, nil otherwise.
func (s *Session) ClientView(k int) *viewmodel.View {
	if k == s.shown {
		return &s.right
	}
	for i := range s.grid {
		if s.grid[i].k == k {
			return &s.grid[i].view
		}
	}
	return nil
}

// fillGrid fills the grid's clients' views and error figures (the shown
// client's are finish's).
func (s *Session) fillGrid() {
	for i := range s.grid {
		g := &s.grid[i]
		if g.k == s.shown || g.k >= len(s.clients) {
			continue
		}
		c := s.clients[g.k]
		v := &g.view
		v.Cubes, v.Marks = v.Cubes[:0], v.Marks[:0]
		v.HasPriority, v.HasErrorOffsets, v.HasOwners = false, false, false
		shown, ok := c.st.View(v)
		s.markPlayersOf(v, g.k)
		m := &c.metrics
		s.clientError(c, v, shown, ok)
		if m.Valid {
			g.validTicks++
		} else {
			g.validTicks = 0
		}
		m.ErrorTicks = g.validTicks
	}
}

// clientError fills client c's error figures from its view v, showing
// frame shown (ok: it shows one): the whole view against the left at that
// frame and now, or the strategy's own (strategy.OwnError). No pops: a
// pop is a change between ticks of the shown view, which the captions
// report.
func (s *Session) clientError(c *client, v *viewmodel.View, shown float64, ok bool) {
	m := &c.metrics
	m.Valid, m.ShownFrame, m.ErrorOf, m.MaxPopCm = false, shown, "", 0
	m.NowRMSCm, m.NowMaxCm, m.HasNow = 0, 0, false
	if oe, has := c.st.(strategy.OwnError); has {
		if e, ok := oe.OwnError(); ok {
			m.Valid, m.ErrorOf, m.ShownFrame, m.DelayMs = true, e.Of, 0, 0
			m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg = e.RMSCm, e.MaxCm, e.MaxDeg
		}
		return
	}
	if !ok || len(v.Cubes) != s.left.NumCubes() {
		return
	}
	var sum, maxPos, maxAng, sumNow, maxNow float64
	for i := range v.Cubes {
		p, q, ok := s.hist.pose(shown, i)
		pn, _, okNow := s.hist.pose(float64(s.frame), i)
		if !ok || !okNow {
			return
		}
		rc := &v.Cubes[i]
		d := rc.Position.Sub(p).Len()
		sum += d * d
		maxPos = math.Max(maxPos, d)
		maxAng = math.Max(maxAng, geom.AngleBetween(rc.Orientation, q))
		dn := rc.Position.Sub(pn).Len()
		sumNow += dn * dn
		maxNow = math.Max(maxNow, dn)
	}
	n := float64(len(v.Cubes))
	m.Valid, m.HasNow = true, true
	m.DelayMs = (float64(s.frame) - shown) * 1000 / wire.TicksPerSecond
	m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg = 100*math.Sqrt(sum/n), 100*maxPos, maxAng*180/math.Pi
	m.NowRMSCm, m.NowMaxCm = 100*math.Sqrt(sumNow/n), 100*maxNow
}
