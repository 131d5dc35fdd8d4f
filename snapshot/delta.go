package snapshot

import (
	"netcubes/wire"
)

// Design note: the delta codes of snapshot levels 8 to 11. Each one is a
// bet on the statistics of the data, as the article explains: spend fewer
// bits on the values that come up most and more on the rare ones.
//
// Relative indices (level 8). Changed cubes are sent in increasing index
// order, so each index is sent as the step d from the previous one (the
// first from -1, so d ≥ 1 always):
//
//	d in [1, 8]     1 + 3 bits   = 4
//	d in [9, 40]    1 + 1 + 5    = 7
//	d ≥ 41          1 + 1 + 10   = 12 (more than an absolute index: the bet
//	                                   is that small steps are common)
//
// Small/large deltas (levels 9 and 10). A component of a delta is sent as one
// bit "small", then either a small code or a large one:
//
//	position     small [-16, 15] in 5 bits, large [-256, 255] in 9 bits;
//	             if any component is beyond the large range, the absolute
//	             position (50 bits) is sent instead, after a 1-bit flag.
//	orientation  "5-8": small [-16, 15] in 5 bits, large in 8 bits; only when
//	             the largest component is the baseline's (90 % of the time in
//	             the article), else the absolute smallest three (29 bits).
//
// The orientation's large range is EXTENDED past the small one (the
// article's exercise for the reader): a large code is only used for a value
// the small code cannot hold, so its 256 codes need not cover [-16, 15]
// again. They cover [-144, -17] (codes 0..127, counting away from zero) and
// [16, 143] (codes 128..255): 256 distinct values, none of them in the small
// range and no two codes collapsing onto the same value (the trap the
// article warns about: shifting both signs toward zero by 16 would map -16
// and +16 onto 0). The position code is kept as the article states it.

// MaxCubes bounds the cubes in a snapshot: the relative index code
// reaches steps of 41 + 1023, and absolute indices take 10 bits up to 1024
// cubes.
const MaxCubes = 1024

// Relative index ranges.
const (
	relIndexSmallMax = 8         // steps 1..8 in 3 bits
	relIndexMidMax   = 40        // steps 9..40 in 5 bits
	relIndexLargeMax = 41 + 1023 // steps 41.. in 10 bits
)

// serializeRelativeIndex sends *index as its step from prev (the previous
// changed index, -1 for the first). Reading checks the result is below n.
func serializeRelativeIndex(s wire.Stream, prev int32, index *int32, n int32) error {
	var d int32
	if !s.IsReading() {
		d = *index - prev
		if d < 1 {
			return s.Fail(wire.ErrValueOutOfRange)
		}
	}
	small := d <= relIndexSmallMax
	if err := wire.SerializeBool(s, &small); err != nil {
		return err
	}
	if small {
		if err := wire.SerializeInt(s, &d, 1, relIndexSmallMax); err != nil {
			return err
		}
	} else {
		mid := d <= relIndexMidMax
		if err := wire.SerializeBool(s, &mid); err != nil {
			return err
		}
		if mid {
			if err := wire.SerializeInt(s, &d, relIndexSmallMax+1, relIndexMidMax); err != nil {
				return err
			}
		} else if err := wire.SerializeInt(s, &d, relIndexMidMax+1, relIndexLargeMax); err != nil {
			return err
		}
	}
	if s.IsReading() {
		i := prev + d
		if i >= n {
			return s.Fail(wire.ErrValueOutOfRange)
		}
		*index = i
	}
	return nil
}

// relativeIndexBits is the cost of a step d (≥ 1) in the relative index
// code: 4, 7 or 12 bits.
func relativeIndexBits(d int) int {
	switch {
	case d <= relIndexSmallMax:
		return 4
	case d <= relIndexMidMax:
		return 7
	default:
		return 12
	}
}

// snapDeltaCode is a small/large code for one component of a delta.
type snapDeltaCode struct {
	smallBits, largeBits int
	// extended: the large codes skip the small range (see the design note).
	extended bool
}

var (
	snapPositionDelta    = snapDeltaCode{smallBits: 5, largeBits: 9}
	snapOrientationDelta = snapDeltaCode{smallBits: 5, largeBits: 8, extended: true}
)

func (c snapDeltaCode) smallRange() (lo, hi int32) {
	h := int32(1) << uint(c.smallBits-1)
	return -h, h - 1
}

// largeRange is the span of values the code can carry at all.
func (c snapDeltaCode) largeRange() (lo, hi int32) {
	h := int32(1) << uint(c.largeBits-1)
	if !c.extended {
		return -h, h - 1
	}
	slo, shi := c.smallRange()
	return slo - h, shi + h
}

func (c snapDeltaCode) fits(d int32) bool {
	lo, hi := c.largeRange()
	return d >= lo && d <= hi
}

// serialize sends one component delta that fits.
func (c snapDeltaCode) serialize(s wire.Stream, d *int32) error {
	slo, shi := c.smallRange()
	small := *d >= slo && *d <= shi
	if err := wire.SerializeBool(s, &small); err != nil {
		return err
	}
	if small {
		return wire.SerializeInt(s, d, slo, shi)
	}
	if !c.extended {
		lo, hi := c.largeRange()
		return wire.SerializeInt(s, d, lo, hi)
	}
	// Extended: codes 0..h-1 are slo-1, slo-2, ... (away from zero),
	// codes h..2h-1 are shi+1, shi+2, ...
	h := int32(1) << uint(c.largeBits-1)
	var code int32
	if !s.IsReading() {
		if *d < slo {
			code = slo - 1 - *d
		} else {
			code = h + *d - shi - 1
		}
	}
	if err := wire.SerializeInt(s, &code, 0, 2*h-1); err != nil {
		return err
	}
	if code < h {
		*d = slo - 1 - code
	} else {
		*d = shi + 1 + code - h
	}
	return nil
}

// serializeDeltaPosition sends position c relative to baseline b: a flag,
// then three small/large component deltas, or the absolute position when a
// component is beyond the large range.
func serializeDeltaPosition(s wire.Stream, c, b *wire.QuantizedVec3) error {
	var d [3]int32
	relative := true
	if !s.IsReading() {
		for k := range d {
			d[k] = c[k] - b[k]
			if !snapPositionDelta.fits(d[k]) {
				relative = false
			}
		}
	}
	if err := wire.SerializeBool(s, &relative); err != nil {
		return err
	}
	if !relative {
		return wire.SerializeQuantizedPosition(s, c, wire.SnapshotPositionResolution)
	}
	for k := range d {
		if err := snapPositionDelta.serialize(s, &d[k]); err != nil {
			return err
		}
	}
	if s.IsReading() {
		xyMin, xyMax, zMax := wire.PositionLimits(wire.SnapshotPositionResolution)
		var out wire.QuantizedVec3
		for k := range d {
			v := int64(b[k]) + int64(d[k])
			lo, hi := int64(xyMin), int64(xyMax)
			if k == 2 {
				lo, hi = 0, int64(zMax)
			}
			if v < lo || v > hi {
				return s.Fail(wire.ErrValueOutOfRange)
			}
			out[k] = int32(v)
		}
		*c = out
	}
	return nil
}

// serializeDeltaOrientation sends smallest-three orientation c relative to
// baseline b when both have the same largest component and every delta
// fits the 5-8 code; else the absolute smallest three.
func serializeDeltaOrientation(s wire.Stream, c, b *wire.QuantizedQuat) error {
	var d [3]int32
	relative := false
	if !s.IsReading() && c.Largest == b.Largest {
		relative = true
		for k := range d {
			d[k] = c.Small[k] - b.Small[k]
			if !snapOrientationDelta.fits(d[k]) {
				relative = false
			}
		}
	}
	if err := wire.SerializeBool(s, &relative); err != nil {
		return err
	}
	if !relative {
		return wire.SerializeQuantizedQuat(s, c, wire.SnapshotOrientationBits)
	}
	for k := range d {
		if err := snapOrientationDelta.serialize(s, &d[k]); err != nil {
			return err
		}
	}
	if s.IsReading() {
		lo, hi := wire.SmallestThreeLimits(wire.SnapshotOrientationBits)
		out := wire.QuantizedQuat{Largest: b.Largest & 3}
		for k := range d {
			v := int64(b.Small[k]) + int64(d[k])
			if v < int64(lo) || v > int64(hi) {
				return s.Fail(wire.ErrValueOutOfRange)
			}
			out.Small[k] = int32(v)
		}
		*c = out
	}
	return nil
}

// serializeDeltaCube sends a changed cube of a delta level against its
// baseline b (levels 6-8: the absolute 80-bit cube; 9: delta position; 10:
// and delta orientation; 11: each only when it changed). Deltas are taken
// from ref: the baseline itself, or the player-relative prediction of it
// (predict.go). "Changed" is always judged against b. On read,
// c starts as a copy of b. st counts the fields sent.
func serializeDeltaCube(s wire.Stream, l Level, c, b, ref *Cube, st *PacketStats) error {
	if s.IsReading() {
		*c = *b
	}
	s.SetCategory(wire.CategoryFlags)
	if err := wire.SerializeBool(s, &c.Interacting); err != nil {
		return err
	}
	posChanged, rotChanged := true, true
	if l >= ChangedFields {
		if !s.IsReading() {
			posChanged = c.Position != b.Position
			rotChanged = c.Orientation != b.Orientation
		}
		if err := wire.SerializeBool(s, &posChanged); err != nil {
			return err
		}
		if err := wire.SerializeBool(s, &rotChanged); err != nil {
			return err
		}
	}
	if posChanged {
		st.Positions++
		s.SetCategory(wire.CategoryPosition)
		var err error
		if l >= DeltaPosition {
			err = serializeDeltaPosition(s, &c.Position, &ref.Position)
		} else {
			err = wire.SerializeQuantizedPosition(s, &c.Position, wire.SnapshotPositionResolution)
		}
		if err != nil {
			return err
		}
	}
	if rotChanged {
		st.Orientations++
		s.SetCategory(wire.CategoryOrientation)
		if l >= DeltaOrientation {
			return serializeDeltaOrientation(s, &c.Orientation, &ref.Orientation)
		}
		return wire.SerializeQuantizedQuat(s, &c.Orientation, wire.SnapshotOrientationBits)
	}
	return nil
}
