package link

import (
	"errors"
	"math"

	"netcubes/wire"
)

// Design note: the two-process mode sends the left's link conditions to the
// right (the right impairs its own packets with them and names the preset
// on its HUD), so a Config has one Serialize like every packet of netcubes.
// It carries every field, each range-checked on read: a hostile control
// datagram cannot set a negative latency, a loss above 100 % or a queue of
// a terabyte. Floats travel as float64 so the right's Config compares equal
// to the left's (a preset is recognised by equality).
//
// Adding a field to Config is one line in wireFields; TestSerializeEveryField
// fails until that line is written.

// ErrConfigRange is a link setting out of its range (or not a number).
var ErrConfigRange = errors.New("link: a setting is out of range")

// wireField is one Config field and its accepted range on read.
type wireField struct {
	f      *float64 // a float field, or
	i      *int     // an integer field, or
	b      *bool    // a flag
	lo, hi float64
}

const (
	maxWireMs       = 600_000 // 10 minutes: any delay or timeout beyond is a mistake
	maxWireKbps     = 1e7     // 10 Gbit/s
	maxWireBytes    = 1 << 30 // a queue of 1 GB
	maxWireInFlight = 1 << 20
	maxWireTicks    = 60 * 60 * 60 // an hour: a cap schedule's step
)

// wireFields lists every field of c in wire order with its range.
func (c *Config) wireFields() []wireField {
	ms := func(v *float64) wireField { return wireField{f: v, hi: maxWireMs} }
	pct := func(v *float64) wireField { return wireField{f: v, hi: 100} }
	fs := []wireField{
		ms(&c.LatencyMs),
		ms(&c.JitterMs),
		pct(&c.LossPercent),
		pct(&c.DuplicatePercent),
		pct(&c.ReorderPercent),
		ms(&c.ReorderExtraMs),
		pct(&c.Burst.GoodToBadPercent),
		pct(&c.Burst.BadToGoodPercent),
		pct(&c.Burst.BadLossPercent),
		{f: &c.BandwidthKbps, hi: maxWireKbps},
		{i: &c.QueueLimitBytes, hi: maxWireBytes},
		ms(&c.QueueLimitMs),
		{i: &c.MTUBytes, hi: 65535},
		{b: &c.TCPLike},
		ms(&c.MinRTOMs),
		ms(&c.MaxRTOMs),
		{i: &c.MaxInFlight, hi: maxWireInFlight},
		{i: &c.MaxPacketBytes, hi: DefaultMaxPacketBytes},
		pct(&c.CorruptPercent),
	}
	for k := range c.CapSchedule.Steps {
		st := &c.CapSchedule.Steps[k]
		fs = append(fs, wireField{f: &st.Kbps, hi: maxWireKbps}, wireField{i: &st.Ticks, hi: maxWireTicks})
	}
	return append(fs, wireField{b: &c.CapSchedule.Repeat})
}

// Serialize writes, reads or measures every field of c. Reading checks
// each against its range (ErrConfigRange) and leaves c unchanged unless
// the whole Config parsed.
func (c *Config) Serialize(s wire.Stream) error {
	if !s.IsReading() {
		for _, f := range c.wireFields() {
			if err := f.serialize(s); err != nil {
				return err
			}
		}
		return nil
	}
	tmp := *c
	for _, f := range tmp.wireFields() {
		if err := f.serialize(s); err != nil {
			return err
		}
	}
	*c = tmp
	return nil
}

func (f wireField) serialize(s wire.Stream) error {
	switch {
	case f.b != nil:
		return wire.SerializeBool(s, f.b)
	case f.i != nil:
		v := int64(*f.i)
		if !s.IsReading() && (v < int64(f.lo) || v > int64(f.hi)) {
			v = min(max(v, int64(f.lo)), int64(f.hi)) // written as the reader will accept it
		}
		if err := wire.SerializeInt(s, &v, int64(f.lo), int64(f.hi)); err != nil {
			return err
		}
		if s.IsReading() {
			*f.i = int(v)
		}
		return nil
	}
	v := *f.f
	if !s.IsReading() && !(v >= f.lo && v <= f.hi) {
		v = clampWire(v, f.lo, f.hi)
	}
	if err := wire.SerializeFloat64(s, &v); err != nil {
		return err
	}
	if s.IsReading() {
		if math.IsNaN(v) || v < f.lo || v > f.hi {
			return s.Fail(ErrConfigRange)
		}
		*f.f = v
	}
	return nil
}

// clampWire brings a value the reader would refuse into range (NaN to lo).
func clampWire(v, lo, hi float64) float64 {
	if math.IsNaN(v) || v < lo {
		return lo
	}
	return min(v, hi)
}
