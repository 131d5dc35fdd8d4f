package authority

import (
	"slices"

	"netcubes/cubes"
	"netcubes/replication"
	"netcubes/wire"
)

// outbox fills one packet to one receiver under the byte budget, by state
// synchronization's priority accumulator: each tick every cube the
// receiver needs earns its priority, the most owed go first while they
// fit, and only the cubes sent start owing from zero again.
type outbox struct {
	prio *replication.PriorityAccumulator
	m    *wire.MeasureStream
	sel  []int32
	pkt  Packet
	cand Update // the update being measured (a field: a local would escape)
}

// fill builds o.pkt (its header already set) from world w: prio(i) is
// cube i's priority this tick (0: never to this receiver), upd fills the
// owner and sequences of an update.
func (o *outbox) fill(w *cubes.World, budgetBits, maxUpdates int, prio func(i int) float64, upd func(u *Update)) {
	n := w.NumCubes()
	if o.prio == nil || o.prio.Len() != n {
		o.prio = replication.NewPriorityAccumulator(n)
		o.m = wire.NewMeasureStream()
	}
	for i := range n {
		if p := prio(i); p > 0 {
			o.prio.Add(i, p)
		} else {
			o.prio.Set(i, 0)
		}
	}
	p := &o.pkt
	o.m.Reset()
	p.NumUpdates = 0
	if p.Serialize(o.m) != nil {
		return
	}
	used := o.m.BitsProcessed()
	o.sel = o.sel[:0]
	rank := o.prio.Rank()
	minBits := replication.MinUpdateBits(n)
	for len(o.sel) < maxUpdates && budgetBits-used >= minBits {
		i, ok := rank.Next()
		if !ok || o.prio.Value(int(i)) <= 0 {
			break
		}
		u := &o.cand
		*u = Update{Index: i, State: quantized(w, int(i))}
		upd(u)
		o.m.Reset()
		if p.serializeUpdate(o.m, u) != nil {
			continue
		}
		if b := o.m.BitsProcessed(); used+b <= budgetBits {
			used += b
			o.sel = append(o.sel, i)
			p.Updates[len(o.sel)-1] = *u
		}
	}
	// The wire wants increasing indices; the choice was by priority.
	slices.SortFunc(p.Updates[:len(o.sel)], func(a, b Update) int { return int(a.Index - b.Index) })
	p.NumUpdates = int32(len(o.sel))
	for _, i := range o.sel {
		o.prio.Sent(int(i))
	}
}

// budgetBits is the bits one packet may take at kbps (the sequence number
// included, IP and UDP headers not).
func budgetBits(kbps int) int { return replication.BudgetBytes(kbps) * 8 }
