package snapshot

import (
	"errors"
	"math"
	"testing"

	"netcubes/wire"
)

// FuzzSnapshotPacket decodes arbitrary bytes as a snapshot packet of 24
// cubes (few, so that the fuzzer's inputs stay small: minimizing a
// several-kilobyte level-1 input stalls the fuzzer for up to a minute), with the initial state and one snapshot (sequence 100) available as
// baselines. Whatever the bytes, decoding ends in one of the known errors or
// in a valid snapshot: every field in its range, every pose finite and unit
// length. A snapshot that decodes must encode again (a hostile packet may
// take a longer road to the same state, so the bits may differ) and decode
// back to the same cubes.
func FuzzSnapshotPacket(f *testing.F) {
	const n = 24
	fx := newSparseFixture(n, 21, 30)
	base := quantizeAll(BoundedPosition, fx.base)
	bl := &testBaselines{initial: base, snap: base}
	for l := MinLevel; l <= MaxLevel; l++ {
		for _, initial := range []bool{false, true} {
			p := &Packet{Level: l, Initial: initial, Predict: !initial, Baseline: 100, Cubes: quantizeAll(l, fx.now), Baselines: bl}
			data, _ := encodeSnapshot(f, p)
			f.Add(data)
		}
	}
	// Level 3 without the at-rest flag: every cube sends its velocity.
	moving := make([]CubeSample, n)
	copy(moving, fx.now)
	for i := range moving {
		moving[i].AtRest = false
	}
	data, _ := encodeSnapshot(f, &Packet{Level: BoundedVelocity, AllVelocities: true, Cubes: quantizeAll(BoundedVelocity, moving)})
	f.Add(data)
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		q := &Packet{Cubes: make([]Cube, n), Sent: make([]bool, n), Baselines: bl}
		err := q.Serialize(wire.NewReadStream(data))
		if err != nil {
			if !errors.Is(err, wire.ErrEndOfData) && !errors.Is(err, wire.ErrValueOutOfRange) && !errors.Is(err, ErrNoBaseline) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !q.Level.Valid() {
			t.Fatalf("level %d", q.Level)
		}
		xyMin, xyMax, zMax := wire.PositionLimits(wire.SnapshotPositionResolution)
		qlo, qhi := wire.SmallestThreeLimits(wire.SnapshotOrientationBits)
		for i := range q.Cubes {
			c := &q.Cubes[i]
			for k := range 3 {
				lo, hi := xyMin, xyMax
				if k == 2 {
					lo, hi = 0, zMax
				}
				if c.Position[k] < lo || c.Position[k] > hi || c.Orientation.Small[k] < qlo || c.Orientation.Small[k] > qhi {
					t.Fatalf("cube %d out of range: %+v", i, *c)
				}
			}
			p := c.Pose(q.Level)
			for k := range 3 {
				if math.IsNaN(p.Position[k]) || math.IsInf(p.Position[k], 0) || math.IsNaN(p.Velocity[k]) || math.IsInf(p.Velocity[k], 0) {
					t.Fatalf("cube %d: pose %+v", i, p)
				}
			}
			if math.Abs(p.Orientation.Len()-1) > 1e-9 {
				t.Fatalf("cube %d: orientation length %v", i, p.Orientation.Len())
			}
		}
		// Re-encode and decode again: the same snapshot.
		w := wire.NewWriteStream(make([]byte, 64*1024))
		if err := q.Serialize(w); err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		mm := wire.NewMeasureStream()
		if err := q.Serialize(mm); err != nil || mm.BitsProcessed() != w.BitsProcessed() {
			t.Fatalf("measure: %d bits, wrote %d, %v", mm.BitsProcessed(), w.BitsProcessed(), err)
		}
		again := &Packet{Cubes: make([]Cube, n), Baselines: bl}
		if err := again.Serialize(wire.NewReadStream(w.Bytes())); err != nil {
			t.Fatalf("decode re-encoded: %v", err)
		}
		for i := range q.Cubes {
			if again.Cubes[i] != q.Cubes[i] {
				t.Fatalf("cube %d changed on the second trip", i)
			}
		}
	})
}
