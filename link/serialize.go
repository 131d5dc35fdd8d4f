package link

import (
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
// Adding a field to Config is one row in fields.go; TestSerializeEveryField
// fails until that row is written.

// wireField is one Config field and its accepted range on read.
type wireField struct {
	f      *float64 // a float field, or
	i      *int     // an integer field, or
	b      *bool    // a flag
	lo, hi float64
}

// wireFields lists every field of c in wire order with its range (the
// table in fields.go, then the cap schedule's steps).
func (c *Config) wireFields() []wireField {
	fs := make([]wireField, 0, NumFields+2*MaxCapSteps+1)
	for f := Field(0); f < NumFields; f++ {
		x, i, b := c.ref(f)
		in := f.Info()
		fs = append(fs, wireField{f: x, i: i, b: b, lo: in.Lo, hi: in.Hi})
	}
	for k := range c.CapSchedule.Steps {
		st := &c.CapSchedule.Steps[k]
		fs = append(fs, wireField{f: &st.Kbps, hi: maxKbps}, wireField{i: &st.Ticks, hi: maxTicks})
	}
	return append(fs, wireField{b: &c.CapSchedule.Repeat})
}

// Serialize writes, reads or measures every field of c. Reading checks
// each against its range (ErrInvalidConfig) and leaves c unchanged unless
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
	if err := tmp.Validate(); err != nil { // what one field's range cannot say (the MTU's gap)
		return s.Fail(err)
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
			return s.Fail(ErrInvalidConfig)
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
