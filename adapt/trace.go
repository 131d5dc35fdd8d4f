package adapt

import (
	"math"
	"slices"

	"netcubes/wire"
)

// Trace records a sender's samples tick by tick, for the bench's
// adaptation tables: the round trips, the bytes that got through, and one
// figure of the caller's (the budget, the send rate, the error). The
// queueing delay it reports is the round trip of the packets acked in a
// tick less the lowest round trip of a reference span (a clean phase):
// the path's own figure, whatever the estimator believed.
type Trace struct {
	rtt   []float64 // mean round trip of the tick's acks, ticks; NaN: none
	acked []int     // wire bytes acked
	value []float64 // the caller's figure (NaN: none)
}

// Add records one tick's sample (call it once per tick, in order).
func (t *Trace) Add(s Sample) {
	r := math.NaN()
	if s.RTTs > 0 {
		r = float64(s.RTTSum) / float64(s.RTTs)
	}
	t.rtt = append(t.rtt, r)
	t.acked = append(t.acked, s.AckedBytes)
	t.value = append(t.value, math.NaN())
}

// SetValue sets the caller's figure for the last tick added.
func (t *Trace) SetValue(v float64) {
	if n := len(t.value); n > 0 {
		t.value[n-1] = v
	}
}

// Len is the number of ticks recorded.
func (t *Trace) Len() int { return len(t.rtt) }

func (t *Trace) span(from, to int) (int, int) {
	return min(max(from, 0), len(t.rtt)), min(max(to, 0), len(t.rtt))
}

// BaseRTT is the lowest round trip in ticks [from, to), ticks (NaN: none).
func (t *Trace) BaseRTT(from, to int) float64 {
	from, to = t.span(from, to)
	b := math.NaN()
	for _, r := range t.rtt[from:to] {
		if !math.IsNaN(r) && (math.IsNaN(b) || r < b) {
			b = r
		}
	}
	return b
}

// QueueMs lists the queueing delay of the ticks in [from, to) that had
// acks: round trip − base, ms.
func (t *Trace) QueueMs(from, to int, base float64) []float64 {
	from, to = t.span(from, to)
	var q []float64
	for _, r := range t.rtt[from:to] {
		if !math.IsNaN(r) {
			q = append(q, max(r-base, 0)*1000/wire.TicksPerSecond)
		}
	}
	return q
}

// Quantile is the q-quantile (0..1) of v (nearest rank; NaN when empty).
func Quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	k := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(k, 0), len(s)-1)]
}

// GoodputKbps is what got through in [from, to): the bytes acked, on the
// wire, as kbit/s.
func (t *Trace) GoodputKbps(from, to int) float64 {
	from, to = t.span(from, to)
	b := 0
	for _, x := range t.acked[from:to] {
		b += x
	}
	return float64(8*b) / (float64(max(to-from, 1)) / wire.TicksPerSecond) / 1000
}

// MeanValue is the mean of the caller's figure over [from, to) (NaN: none).
func (t *Trace) MeanValue(from, to int) float64 {
	from, to = t.span(from, to)
	sum, n := 0.0, 0
	for _, v := range t.value[from:to] {
		if !math.IsNaN(v) {
			sum += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// TicksAbove counts the ticks in [from, to) whose acks had a queueing
// delay of limitMs or more.
func (t *Trace) TicksAbove(from, to int, base, limitMs float64) int {
	from, to = t.span(from, to)
	n := 0
	for _, r := range t.rtt[from:to] {
		if !math.IsNaN(r) && (r-base)*1000/wire.TicksPerSecond >= limitMs {
			n++
		}
	}
	return n
}

// QueueSettled is the first tick in [from, to) from which every tick with
// acks for the next hold ticks had a queueing delay under limitMs, or −1.
func (t *Trace) QueueSettled(from, to int, base, limitMs float64, hold int) int {
	from, to = t.span(from, to)
	ok := func(k int) bool {
		r := t.rtt[k]
		return math.IsNaN(r) || (r-base)*1000/wire.TicksPerSecond < limitMs
	}
	run := 0
	for k := from; k < to; k++ {
		if ok(k) {
			run++
			if run >= hold {
				return k - hold + 1
			}
		} else {
			run = 0
		}
	}
	return -1
}

// ValueReached is the first tick in [from, to) whose figure is at least v,
// or −1.
func (t *Trace) ValueReached(from, to int, v float64) int {
	from, to = t.span(from, to)
	for k := from; k < to; k++ {
		if t.value[k] >= v {
			return k
		}
	}
	return -1
}
