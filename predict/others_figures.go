package predict

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/wire"
)

// The figures of other players: each drawn pose against the server's truth
// at the frame it represents, the delay, the jitter, the contacts (see the
// design note in others.go).

// pendingCmp is a drawn pose to compare with the server's truth once the
// server reaches the frame it represents (modes 4-5, ahead of the server).
type pendingCmp struct {
	frame int // −1: empty
	pos   [cubes.MaxPlayers]mgl64.Vec3
	has   uint8 // bit p: player p was drawn
}

// othersTick is one tick of the one-second window of the figures.
type othersTick struct {
	errSq, errMax      float64
	errN               int
	jitSq              float64
	jitN               int
	pastSum            float64 // ticks in the past of the nearest other player, summed
	pastN              int
	starved            int // ticks a drawn player was held (starved or stopped)
	contact, contCorrs int // ticks in contact with another player, corrections then
}

// compare measures a drawn position of player q against the server's
// exact state at frame t, when the truth is known (in one process).
func (o *others) compare(st *Strategy, q int, pos mgl64.Vec3, t float64) {
	tp, ok := st.truth.pose(t, q)
	if !ok {
		return
	}
	e := pos.Sub(tp).Len()
	o.cur.errSq += e * e
	o.cur.errN++
	o.cur.errMax = math.Max(o.cur.errMax, e)
}

// contactDistance is how close two players' centres are when they touch,
// m: the face-to-face distance (1.5 m) with a margin for tumbling edges.
const contactDistance = 1.9

// contact counts the ticks the client's player touches another player on
// the server, and the corrections of those ticks.
func (o *others) contact(st *Strategy, c *client) {
	corr := st.stats.Corrections
	newCorr := int(corr - o.lastCorr)
	o.lastCorr = corr
	if c.player < 0 {
		return
	}
	f, ok := st.truth.newest()
	if !ok {
		return
	}
	me, _ := st.truth.pose(float64(f), c.player)
	for q := range c.w.NumPlayers() {
		if !c.isOther(q, c.w.NumPlayers()) {
			continue
		}
		if p, ok := st.truth.pose(float64(f), q); ok && p.Sub(me).Len() < contactDistance {
			o.cur.contact++
			o.cur.contCorrs += newCorr
			return
		}
	}
}

// OthersStats are the figures of the other players over the last second,
// as the client draws them.
type OthersStats struct {
	ErrRMSCm, ErrMaxCm float64 // drawn vs the server at the frame it represents
	Compared           int     // comparisons in the window (0: no truth here)
	// PastMs is how far behind the server's present the nearest other
	// player is drawn (negative: ahead, predicted), ms; Nearest is that
	// player (0-based, −1: none).
	PastMs     float64
	Nearest    int
	JitterCm   float64 // RMS change of the drawn per-tick motion, cm per tick
	HeldTicks  int     // ticks a player was held (starved, or extrapolation stopped)
	ContactSec float64 // seconds of the window in contact with another player
	// ContactCorrPerSec is the client's corrections per second of contact.
	ContactCorrPerSec float64
	DelayMs           float64 // the interpolation delay the settings ask for
	// Measuring: the settings changed less than MeasureTicks ago, so the
	// window holds too little of the new mode to quote (the HUD says
	// "measuring…").
	Measuring bool
}

// add sums another tick (or window) into t; the largest error is kept.
func (t *othersTick) add(u *othersTick) {
	t.errSq += u.errSq
	t.errN += u.errN
	t.errMax = math.Max(t.errMax, u.errMax)
	t.jitSq += u.jitSq
	t.jitN += u.jitN
	t.pastSum += u.pastSum
	t.pastN += u.pastN
	t.starved += u.starved
	t.contact += u.contact
	t.contCorrs += u.contCorrs
}

// figures turns summed ticks into the figures.
func (t *othersTick) figures(st *Strategy) OthersStats {
	s := OthersStats{
		ErrRMSCm:  100 * math.Sqrt(t.errSq/float64(max(t.errN, 1))),
		ErrMaxCm:  100 * t.errMax,
		Compared:  t.errN,
		JitterCm:  100 * math.Sqrt(t.jitSq/float64(max(t.jitN, 1))),
		PastMs:    t.pastSum / float64(max(t.pastN, 1)) * 1000 / wire.TicksPerSecond,
		Nearest:   st.oth.nearest,
		HeldTicks: t.starved,
		DelayMs:   float64(st.delayTicks()) * 1000 / wire.TicksPerSecond,
	}
	s.ContactSec = float64(t.contact) / wire.TicksPerSecond
	if t.contact > 0 {
		s.ContactCorrPerSec = float64(t.contCorrs) / s.ContactSec
	}
	return s
}

// roll closes the tick into the one-second window and the run's totals,
// and recomputes the window's figures.
func (o *others) roll(st *Strategy, now int) {
	o.total.add(&o.cur)
	o.win[now%len(o.win)] = o.cur
	o.cur = othersTick{}
	o.filled = min(o.filled+1, len(o.win))
	var sum othersTick
	for k := range o.win {
		sum.add(&o.win[k])
	}
	st.stats.Others = sum.figures(st)
	st.stats.Others.Measuring = o.filled < MeasureTicks
}

// OthersTotals are the other players' figures over the whole run (since
// the last reset), for the bench and the tests.
func (st *Strategy) OthersTotals() OthersStats { return st.oth.total.figures(st) }
