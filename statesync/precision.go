package statesync

import (
	"netcubes/cubes"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: precision (the article's "quantize both sides"). The state
// fed back into the simulation must be fine enough not to push cubes into
// each other: the article first used the snapshots' precision, 512 values
// per metre and 9-bit smallest-three components, saw "significant
// popping ... because the quantization forces physics objects into
// penetration with each other", and went to 4,096 per metre and 15 bits.
// Settings.Coarse puts the first grid back: every quantized state (what
// both worlds snap to, what an update and the join block carry) lies on
// the 512-per-metre, 9-bit grid. The packets keep their 4,096/15-bit fields
// (a 512 grid point is every 8th point of the 4,096 grid exactly; a 9-bit
// orientation is carried as its nearest 15-bit code, 64 times finer, which
// requantizes to the same 9-bit code but where two components tie for
// largest; the quantizers keep a still cube's code, as they do on the fine
// grid, so both sides agree), so the packet format is the same for
// both and only what the grid does to the simulation changes: the lesson
// is the pops, not the 27 bits a cube the coarse fields would save.

// PrecisionKey toggles the precision.
const PrecisionKey = "F"

// coarseStep is how many 4,096-grid steps one 512-grid step is.
const coarseStep = wire.StateSyncPositionResolution / wire.SnapshotPositionResolution

// quantizeCube quantizes a cube's state for the wire: at 4,096 per metre
// and 15 bits, or on the coarse grid (512 per metre, 9 bits) carried in
// the same fields. Both sides call it on the same state and get the same
// integers.
func quantizeCube(c *cubes.CubeState, coarse bool) replication.QuantizedCubeState {
	q := replication.QuantizeState(c.Position, c.Orientation, c.LinearVelocity, c.AngularVelocity)
	if !coarse {
		return q
	}
	p := wire.QuantizePosition(c.Position, wire.SnapshotPositionResolution)
	for k := range p {
		q.Position[k] = p[k] * coarseStep
	}
	r := wire.DequantizeQuat(wire.QuantizeQuat(c.Orientation, wire.SnapshotOrientationBits), wire.SnapshotOrientationBits)
	q.Orientation = wire.QuantizeQuat(r, wire.StateSyncOrientationBits)
	return q
}

// precisionName is the HUD's word for the precision.
func precisionName(coarse bool) string {
	if coarse {
		return "512/m, 9-bit (the article's first)"
	}
	return "4,096/m, 15-bit"
}

// coarseWhy is the explanation while both sides quantize on the coarse
// grid: what to watch (TestStateSyncCoarsePrecisionPops measures it).
const coarseWhy = "The article's first precision, 512/m and 9 bits: quantizing both sides pushes cubes into each other every tick, so a held ball pops for seconds longer (F: 4,096/m, 15 bits)."

// precisionIdle is what F adds while nothing is quantized: the press
// changes the setting, which shows only from step 5 (C or Q).
const precisionIdle = " (acts with compressed updates or quantize both sides only: C, Q)"

// precisionControl is F: the article's first precision or its fix.
func (st *Strategy) precisionControl() strategy.Control {
	return strategy.Control{Key: PrecisionKey, Label: "precision", Help: "precision: 4,096/m, 15-bit / 512/m, 9-bit (the article's first)",
		Action: strategy.Toggle,
		Value: func() string {
			if !st.set.Compressed && !st.set.Quantize {
				return precisionName(st.set.Coarse) + precisionIdle
			}
			return precisionName(st.set.Coarse)
		},
		Do: func(int) {
			s := st.set
			s.Coarse = !s.Coarse
			st.SetSettings(s)
		}}
}

// precisionFlag is -precision.
func (st *Strategy) precisionFlag() strategy.Flag {
	return strategy.ChoiceFlag("precision", "state sync precision: fine (4,096 per metre, 15-bit orientations) or coarse (512, 9-bit: the article's first, which pops)",
		[]string{"fine", "coarse"}, func(i int) {
			s := st.set
			s.Coarse = i == 1
			st.SetSettings(s)
		})
}
