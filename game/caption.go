package game

import (
	"fmt"

	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: the caption. Presenters asked for one large line saying
// what just happened, readable from the back row while they talk: "right
// frozen: waiting for input 412", "correction: 38 cm pop". The strategies
// report the events they teach (strategy.Eventful: lockstep's stalls and
// desyncs, the 2004 client's corrections); the session adds what it sees
// itself (an outage of the shown client's link, a cube that jumped on the
// right). Events come every tick, but a caption must stay long enough to
// be read aloud, so the board holds each one for CaptionHoldTicks: a more
// important kind (strategy.EventKind's order) replaces it at once, a
// larger event of the same kind too, anything else waits until it has
// been read. An ongoing event (a stall, an outage) keeps its caption up
// while it lasts and CaptionLingerTicks after.

// CaptionHoldTicks is the least time a caption stays up: long enough to
// read a line of six words aloud.
const CaptionHoldTicks = 2 * wire.TicksPerSecond

// CaptionLingerTicks is how long an ongoing event's caption stays after
// the last tick it was reported.
const CaptionLingerTicks = wire.TicksPerSecond

// PopCaptionCm is the smallest jump of a cube on the right in one tick
// (viewmodel.Metrics.MaxPopCm) worth a caption: 20 cm is half a small
// cube's edge, a jump the hall sees.
const PopCaptionCm = 20

// Caption is the line the HUD shows.
type Caption struct {
	strategy.Event
	Age  int // ticks since this text was first shown
	Left int // ticks until it is taken down, unless renewed
}

// Captions is the caption board of one app: fed once a tick with the
// session (Observe) or an event (Offer), read by the HUD (Current). Its
// clock is the ticks it observed, so a pause holds the caption and a
// reset of the world does not confuse it.
type Captions struct {
	tick  int
	cur   strategy.Event
	has   bool
	since int // tick the current text was first shown
	until int // tick after which it is taken down

	outage   bool // the shown client's link was in an outage last tick
	outageAt int  // tick it started
}

// Reset takes the caption down and forgets what was seen.
func (b *Captions) Reset() { *b = Captions{} }

// Offer puts e up if it is more important than the caption shown, larger
// than it and of the same kind, or if the caption shown has been read.
func (b *Captions) Offer(e strategy.Event) {
	if e.Text == "" {
		return
	}
	switch {
	case !b.has || b.tick > b.until || e.Kind < b.cur.Kind:
		b.show(e, CaptionHoldTicks)
	case e.Kind == b.cur.Kind && e.Text == b.cur.Text:
		// The same event, still going on: keep it up.
		b.cur.Size = e.Size
		b.until = max(b.until, b.tick+CaptionLingerTicks)
	case e.Kind == b.cur.Kind && (e.Size >= b.cur.Size || b.tick-b.since >= CaptionHoldTicks):
		b.show(e, CaptionHoldTicks)
	}
}

// show puts e up for at least hold ticks.
func (b *Captions) show(e strategy.Event, hold int) {
	if !b.has || e.Text != b.cur.Text {
		b.since = b.tick
	}
	b.cur, b.has = e, true
	b.until = b.tick + hold
}

// Observe advances the board by one tick of s: the outage of the shown
// client's link, the shown client's strategy's event, a pop on the right.
func (b *Captions) Observe(s *Session) {
	b.tick++
	b.observeOutage(s.InOutage())
	if ev, ok := s.ClientStrategy(s.Shown()).(strategy.Eventful); ok {
		if e, ok := ev.Event(); ok {
			b.Offer(e)
		}
	}
	if m := s.Metrics(); m.Valid && m.ErrorOf == "" && m.MaxPopCm >= PopCaptionCm {
		b.Offer(strategy.Event{Kind: strategy.EventPop, Size: m.MaxPopCm,
			Text: fmt.Sprintf("pop: a cube jumped %.0f cm in one tick", m.MaxPopCm)})
	}
}

// observeOutage captions an outage while it lasts, and its end.
func (b *Captions) observeOutage(in bool) {
	switch {
	case in && !b.outage:
		b.outageAt = b.tick
		b.Offer(strategy.Event{Kind: strategy.EventOutage, Text: "outage: every packet is dropped"})
	case in:
		b.Offer(strategy.Event{Kind: strategy.EventOutage, Text: "outage: every packet is dropped"})
	case b.outage:
		// Its end replaces the outage's caption at once (a larger event
		// of the same kind).
		secs := float64(b.tick-b.outageAt) / wire.TicksPerSecond
		b.Offer(strategy.Event{Kind: strategy.EventOutage, Size: 1 << 30,
			Text: fmt.Sprintf("link back after %.1f s of outage", secs)})
	}
	b.outage = in
}

// Current is the caption to show, if any.
func (b *Captions) Current() (Caption, bool) {
	if !b.has || b.tick > b.until {
		return Caption{}, false
	}
	return Caption{Event: b.cur, Age: b.tick - b.since, Left: b.until - b.tick}, true
}
