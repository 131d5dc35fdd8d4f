package viewmodel

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"netcubes/internal/valid"
)

// The comparison chart's data: what the presenter has shown in this run,
// one point per strategy, setting and network conditions, each the
// average of what the HUD showed over the last seconds it was on screen.
// After walking through a build-up, the audience sees the curve it traced:
// bandwidth against error, the lag as the size of the point.
//
// It counts ticks, not wall time: paused, the chart stands still; the same
// run (seed, inputs, keys at the same ticks) gives the same points.

// CompareConfig tunes which showings become points and over what.
type CompareConfig struct {
	// SettleTicks are left out at the start of every showing: the right
	// has just restarted, and the bandwidth figure is a one-second window
	// still holding the previous setting's packets.
	SettleTicks int
	// MinTicks is how long a showing must last to become a point: shorter
	// ones are the presenter passing through on the way to another step.
	MinTicks int
	// WindowTicks is how much of the showing's end a point averages: long
	// enough to smooth one second's bursts, short enough that the point
	// is what the audience just saw.
	WindowTicks int
}

// DefaultCompareConfig: 1 s settling, points after 4 s on screen, each the
// average of its last 5 s.
func DefaultCompareConfig() CompareConfig {
	return CompareConfig{SettleTicks: 60, MinTicks: 240, WindowTicks: 300}
}

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("viewmodel: invalid config")

// Validate reports the first field out of its range, naming it (the error
// wraps ErrInvalidConfig).
func (c CompareConfig) Validate() error {
	return valid.Check(ErrInvalidConfig,
		valid.Field{Name: "SettleTicks", V: float64(c.SettleTicks), Hi: valid.Finite},
		valid.Field{Name: "MinTicks", V: float64(c.MinTicks), Hi: valid.Finite},
		valid.Field{Name: "WindowTicks", V: float64(c.WindowTicks), Lo: 1, Hi: 1 << 20},
	)
}

// Shown is what the right is showing: each distinct Shown is one point.
type Shown struct {
	Entry int    // the strategy's place in the menu (its number key − 1)
	Name  string // the strategy's name ("Snapshot compression")
	Mode  string // its settings, as the HUD's top bar writes them (Strategy.Mode)
	// Link names the network conditions as the HUD does ("intercontinental",
	// "custom"), "" when the strategy chose them itself (lockstep's modes:
	// its settings name them); Conditions are their numbers, so that two
	// custom links are two points.
	Link, Conditions string
}

// ComparePoint is one point of the chart.
type ComparePoint struct {
	Shown
	// Label names the point: the number key, the first of the settings and
	// whichever other settings tell it apart from the entry's other points
	// ("2 · level 11", "3 · step 6", "1 · level 1 · latest only").
	Label string
	Kbps  float64 // bandwidth left → right, kbit/s, headers included (the HUD's figure)
	ErrCm float64 // the HUD's position error, RMS, cm; NaN when the HUD had none
	LagMs float64 // how far behind the right shows the left, ms; NaN when the HUD had none
	Ticks int     // ticks averaged
}

// sample is one tick's figures.
type sample struct {
	kbps, err, lag float64 // NaN: not shown that tick
}

// Comparison gathers the points. The zero value is not ready: use
// NewComparison.
type Comparison struct {
	cfg    CompareConfig
	points []ComparePoint // finished showings, in order of first showing
	// The showing on screen: what, for how long, and its last samples.
	cur     Shown
	showing bool
	ticks   int
	ring    []sample
	head, n int
}

// NewComparison returns an empty comparison. cfg must be valid (Validate): an invalid one is a programming error and
// panics.
func NewComparison(cfg CompareConfig) *Comparison {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	return &Comparison{cfg: cfg, ring: make([]sample, cfg.WindowTicks)}
}

// Add records one tick of s on screen with the HUD's metrics m. A change
// of s ends the showing before it.
func (c *Comparison) Add(s Shown, m *Metrics) {
	if !c.showing || s != c.cur {
		c.Break()
		c.cur, c.showing = s, true
	}
	c.ticks++
	if c.ticks <= c.cfg.SettleTicks {
		return
	}
	sm := sample{kbps: m.SentKbps, err: math.NaN(), lag: math.NaN()}
	if m.Valid {
		sm.err = m.PosRMSCm
		if m.ErrorOf == "" {
			// The HUD's "vs. the left N ms ago"; a strategy measuring its
			// own error (ErrorOf) compares at another moment.
			sm.lag = m.DelayMs
		}
	}
	c.ring[c.head] = sm
	c.head = (c.head + 1) % len(c.ring)
	c.n = min(c.n+1, len(c.ring))
}

// Break ends the showing on screen (a reset starts the world over): the
// next Add starts a new one, even of the same Shown.
func (c *Comparison) Break() {
	if p, ok := c.current(); ok {
		c.store(p)
	}
	c.showing, c.ticks, c.head, c.n = false, 0, 0, 0
}

// Clone returns a copy that changes independently (a jump back in time
// restores the chart as it was).
func (c *Comparison) Clone() *Comparison {
	d := *c
	d.points = append([]ComparePoint(nil), c.points...)
	d.ring = append([]sample(nil), c.ring...)
	return &d
}

// Clear forgets every point, and the showing on screen so far.
func (c *Comparison) Clear() {
	c.points = c.points[:0]
	c.showing, c.ticks, c.head, c.n = false, 0, 0, 0
}

// current is the showing on screen as a point, once it has lasted long
// enough.
func (c *Comparison) current() (ComparePoint, bool) {
	if !c.showing || c.ticks < c.cfg.MinTicks || c.n == 0 {
		return ComparePoint{}, false
	}
	var kbps, errSum, lagSum float64
	var errN, lagN int
	start := (c.head - c.n + len(c.ring)) % len(c.ring)
	for i := range c.n {
		s := c.ring[(start+i)%len(c.ring)] // oldest first
		kbps += s.kbps
		if !math.IsNaN(s.err) {
			errSum += s.err
			errN++
		}
		if !math.IsNaN(s.lag) {
			lagSum += s.lag
			lagN++
		}
	}
	p := ComparePoint{Shown: c.cur, Kbps: kbps / float64(c.n), ErrCm: math.NaN(), LagMs: math.NaN(), Ticks: c.n}
	if errN > 0 {
		p.ErrCm = errSum / float64(errN)
	}
	if lagN > 0 {
		p.LagMs = lagSum / float64(lagN)
	}
	return p, true
}

// store puts p in the list, in place of an earlier showing of the same
// thing: the point is what was shown last.
func (c *Comparison) store(p ComparePoint) {
	if i := slices.IndexFunc(c.points, func(q ComparePoint) bool { return q.Shown == p.Shown }); i >= 0 {
		c.points[i] = p
		return
	}
	c.points = append(c.points, p)
}

// Points returns the chart's points, the showing on screen among them
// once it has lasted MinTicks, in order of first showing, labelled.
func (c *Comparison) Points() []ComparePoint {
	ps := slices.Clone(c.points)
	if p, ok := c.current(); ok {
		if i := slices.IndexFunc(ps, func(q ComparePoint) bool { return q.Shown == p.Shown }); i >= 0 {
			ps[i] = p
		} else {
			ps = append(ps, p)
		}
	}
	label(ps)
	return ps
}

// Showing is the showing on screen and how many ticks it has lasted
// (false when nothing is shown yet), so the chart can say how long until
// it becomes a point.
func (c *Comparison) Showing() (Shown, int, bool) { return c.cur, c.ticks, c.showing }

// MinTicks is how long a showing lasts before it becomes a point.
func (c *Comparison) MinTicks() int { return c.cfg.MinTicks }

// label names every point: its number key and its first setting ("2 ·
// level 11"); where two of an entry's points share that, the settings that
// tell them apart ("1 · level 1 · latest only"); and the link, for points
// on other conditions than most points are.
func label(ps []ComparePoint) {
	usual := usualConditions(ps)
	for i := range ps {
		parts := strings.Split(ps[i].Mode, " · ")
		out := []string{strconv.Itoa(ps[i].Entry + 1), parts[0]}
		for _, part := range parts[1:] {
			for _, q := range ps {
				qp := strings.Split(q.Mode, " · ")
				if q.Entry == ps[i].Entry && qp[0] == parts[0] && !slices.Contains(qp, part) {
					out = append(out, part)
					break
				}
			}
		}
		if ps[i].Link != "" && ps[i].Conditions != usual {
			link := ps[i].Link
			if slices.ContainsFunc(ps, func(q ComparePoint) bool { return q.Conditions == usual && q.Link == link }) {
				link += " (" + ps[i].Conditions + ")" // "custom" twice
			}
			out = append(out, link)
		}
		ps[i].Label = strings.Join(out, " · ")
	}
	// Two custom links under one name: their numbers tell them apart.
	twin := make([]bool, len(ps))
	for i := range ps {
		for j := range ps {
			twin[i] = twin[i] || (i != j && ps[i].Label == ps[j].Label && ps[i].Conditions != ps[j].Conditions)
		}
	}
	for i := range ps {
		if twin[i] {
			ps[i].Label += " (" + ps[i].Conditions + ")"
		}
	}
}

// usualConditions are the conditions most points were shown on (the first
// seen of equals), among those on a link the presenter chose.
func usualConditions(ps []ComparePoint) string {
	best, bestN := "", 0
	for _, p := range ps {
		if p.Link == "" {
			continue
		}
		n := 0
		for _, q := range ps {
			if q.Link != "" && q.Conditions == p.Conditions {
				n++
			}
		}
		if n > bestN {
			best, bestN = p.Conditions, n
		}
	}
	return best
}
