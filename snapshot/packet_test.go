package snapshot

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/internal/testutil"
	"netcubes/wire"
)

// snapshotFixture is a synthetic world like the demo's: a grid of cubes
// resting on the ground and a few that move, in two states, a baseline and
// a later one. Between the two, most cubes are unchanged, some only moved,
// some only turned, a few moved far (beyond the delta range) or turned so
// that their largest component changed.
type snapshotFixture struct {
	base, now []CubeSample
}

func newSnapshotFixture(n int, seed uint64) snapshotFixture { return newSparseFixture(n, seed, 40) }

// newSparseFixture is a fixture where about movingPercent % of the cubes
// change between the two states.
func newSparseFixture(n int, seed uint64, movingPercent int) snapshotFixture {
	rng := wire.NewRNG(seed)
	f := snapshotFixture{base: make([]CubeSample, n), now: make([]CubeSample, n)}
	side := int(math.Ceil(math.Sqrt(float64(n))))
	for i := range n {
		b := CubeSample{
			Position:    mgl64.Vec3{float64(i%side) - float64(side)/2, float64(i/side) - float64(side)/2, 0.2},
			Orientation: mgl64.QuatIdent(),
			AtRest:      true,
		}
		c := b
		k := uint64(0)
		if rng.Uint64n(100) < uint64(movingPercent) {
			k = 12 + rng.Uint64n(8)
		}
		switch {
		case k < 12: // at rest: unchanged
		case k < 14: // moved a little
			v := mgl64.Vec3{rng.Float64()*4 - 2, rng.Float64()*4 - 2, rng.Float64() * 2}
			c.Position = b.Position.Add(v.Mul(0.1))
			c.LinearVelocity, c.AtRest, c.Interacting = v, false, rng.Uint64n(2) == 0
		case k < 16: // turned a little
			c.Orientation = mgl64.QuatRotate(rng.Float64()*0.6, mgl64.Vec3{rng.Float64(), rng.Float64(), 1}.Normalize())
			c.AtRest = false
		case k < 18: // moved and turned, mid-air
			axis := mgl64.Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}.Normalize()
			b.Position[2], b.AtRest = 1+rng.Float64()*3, false
			b.Orientation = mgl64.QuatRotate(rng.Float64()*3, axis)
			c = b
			v := mgl64.Vec3{rng.Float64()*8 - 4, rng.Float64()*8 - 4, rng.Float64()*8 - 4}
			c.Position = b.Position.Add(v.Mul(0.05))
			c.LinearVelocity = v
			c.Orientation = mgl64.QuatRotate(0.3, axis).Mul(b.Orientation)
			c.Interacting = true
		case k < 19: // flew far: beyond any delta range
			c.Position = b.Position.Add(mgl64.Vec3{3, -2, 4})
			c.LinearVelocity, c.AtRest = mgl64.Vec3{30, -20, 25}, false
		default: // turned a quarter: the largest component changes
			c.Orientation = mgl64.QuatRotate(math.Pi/2+0.2, mgl64.Vec3{0, 0, 1})
			c.AtRest = false
		}
		f.base[i], f.now[i] = b, c
	}
	// The player: a big cube moving fast (an absolute position every time
	// at 200 ms of baseline age).
	f.now[0].Position = f.base[0].Position.Add(mgl64.Vec3{0.8, 0.3, 0})
	f.now[0].LinearVelocity, f.now[0].AtRest, f.now[0].Interacting = mgl64.Vec3{4, 1.5, 0}, false, true
	return f
}

func quantizeAll(l Level, in []CubeSample) []Cube {
	out := make([]Cube, len(in))
	for i, c := range in {
		out[i] = QuantizeCube(l, c)
	}
	return out
}

// testBaselines holds the initial state and one snapshot, at sequence 100.
type testBaselines struct {
	initial, snap []Cube
}

func (b *testBaselines) SnapshotBaseline(initial bool, seq uint16) []Cube {
	if initial {
		return b.initial
	}
	if seq == 100 {
		return b.snap
	}
	return nil
}

func encodeSnapshot(t testing.TB, p *Packet) ([]byte, int) {
	t.Helper()
	m := wire.NewMeasureStream()
	bits, err := p.ChooseEncoding(m)
	if err != nil {
		t.Fatal(err)
	}
	w := wire.NewWriteStream(make([]byte, 64*1024))
	if err := p.Serialize(w); err != nil {
		t.Fatal(err)
	}
	if w.BitsProcessed() != bits {
		t.Fatalf("wrote %d bits, measured %d", w.BitsProcessed(), bits)
	}
	return append([]byte(nil), w.Bytes()...), bits
}

func decodeSnapshot(data []byte, n int, bl Baselines) (*Packet, error) {
	q := &Packet{Cubes: make([]Cube, n), Sent: make([]bool, n), Baselines: bl}
	err := q.Serialize(wire.NewReadStream(data))
	return q, err
}

// TestSnapshotLevelsRoundTrip: at every level, with and without a baseline
// and with either index encoding, what the reader decodes is exactly what
// the writer quantized, and the packet measures, writes and reads the same
// number of bits.
func TestSnapshotLevelsRoundTrip(t *testing.T) {
	const n = 901
	fx := newSnapshotFixture(n, 7)
	bl := &testBaselines{initial: quantizeAll(BoundedPosition, fx.base), snap: quantizeAll(BoundedPosition, fx.base)}
	for l := MinLevel; l <= MaxLevel; l++ {
		for _, initial := range []bool{true, false} {
			for _, indices := range []bool{false, true} {
				for _, predict := range []bool{false, true} {
					name := fmt.Sprintf("%v/initial=%v/indices=%v/predict=%v", l, initial, indices, predict)
					t.Run(name, func(t *testing.T) {
						want := quantizeAll(l, fx.now)
						p := &Packet{Level: l, Initial: initial, Baseline: 100, Predict: predict, Cubes: quantizeAll(l, fx.now), Baselines: bl}
						m := wire.NewMeasureStream()
						p.UseIndices = indices
						if err := p.Serialize(m); err != nil {
							t.Fatal(err)
						}
						bits := m.BitsProcessed()
						w := wire.NewWriteStream(make([]byte, 64*1024))
						if err := p.Serialize(w); err != nil || w.BitsProcessed() != bits {
							t.Fatalf("write: %v, %d bits, measured %d", err, w.BitsProcessed(), bits)
						}
						r := wire.NewReadStream(w.Bytes())
						q := &Packet{Cubes: make([]Cube, n), Sent: make([]bool, n), Baselines: bl}
						if err := q.Serialize(r); err != nil {
							t.Fatal(err)
						}
						if r.BitsProcessed() != bits {
							t.Fatalf("read %d bits, wrote %d", r.BitsProcessed(), bits)
						}
						if q.Level != l || (l.IsDelta() && q.Initial != initial) || q.Predict != (predict && l >= DeltaPosition) {
							t.Fatalf("header: level %v initial %v predict %v", q.Level, q.Initial, q.Predict)
						}
						for i := range want {
							if q.Cubes[i] != want[i] {
								t.Fatalf("cube %d: decoded %+v, want %+v", i, q.Cubes[i], want[i])
							}
							if l.IsDelta() && q.Sent[i] != !want[i].sameState(&bl.snap[i]) {
								t.Fatalf("cube %d: sent %v", i, q.Sent[i])
							}
						}
						if q.Stats != p.Stats {
							t.Fatalf("reader counted %+v, writer %+v", q.Stats, p.Stats)
						}
						if b := m.Breakdown(); b.Total() != bits || b.Bits(wire.CategoryOther) != 0 {
							t.Fatalf("breakdown %v", b)
						}
					})
				}
			}
		}
	}
}

// TestSnapshotAbsoluteCubeBits pins the article's per-cube costs of levels
// 1-5, measured on real packets.
func TestSnapshotAbsoluteCubeBits(t *testing.T) {
	moving := CubeSample{Position: mgl64.Vec3{1, 2, 3}, Orientation: mgl64.QuatRotate(1, mgl64.Vec3{0, 1, 0}), LinearVelocity: mgl64.Vec3{1, 0, 0}}
	resting := moving
	resting.AtRest, resting.LinearVelocity = true, mgl64.Vec3{}
	tests := []struct {
		level           Level
		moving, resting int
	}{
		{Uncompressed, 321, 321},
		{SmallestThree, 222, 222},
		{BoundedVelocity, 160, 127},
		{NoVelocity, 126, 126},
		{BoundedPosition, 80, 80},
	}
	for _, tc := range tests {
		for _, c := range []struct {
			in   CubeSample
			want int
		}{{moving, tc.moving}, {resting, tc.resting}} {
			q := QuantizeCube(tc.level, c.in)
			m := wire.NewMeasureStream()
			if err := serializeAbsoluteCube(m, tc.level, true, &q); err != nil {
				t.Fatal(err)
			}
			if m.BitsProcessed() != c.want {
				t.Errorf("%v: %d bits, want %d", tc.level, m.BitsProcessed(), c.want)
			}
		}
		if absoluteCubeBits(tc.level) != tc.moving {
			t.Errorf("AbsoluteCubeBits(%v) = %d, want %d", tc.level, absoluteCubeBits(tc.level), tc.moving)
		}
	}
	// Level 3 without the at-rest flag (the original compression demo's
	// mode 3): no cube is at rest, each sends its velocity and no bit.
	for _, in := range []CubeSample{moving, resting} {
		in.AtRest = false
		q := QuantizeCube(BoundedVelocity, in)
		m := wire.NewMeasureStream()
		if err := serializeAbsoluteCube(m, BoundedVelocity, false, &q); err != nil {
			t.Fatal(err)
		}
		if want := absoluteCubeBits(BoundedVelocity) - 1; m.BitsProcessed() != want {
			t.Errorf("level 3 without the flag: %d bits, want %d", m.BitsProcessed(), want)
		}
	}
	// A cube quantized with the flag cannot go in a packet without it.
	q := QuantizeCube(BoundedVelocity, resting)
	if err := serializeAbsoluteCube(wire.NewMeasureStream(), BoundedVelocity, false, &q); !errors.Is(err, wire.ErrValueOutOfRange) {
		t.Errorf("a resting cube written without the flag: %v", err)
	}
	// 901 uncompressed cubes at 60 Hz with 28 bytes of IP/UDP header and the
	// 20-bit header (sequence + level): the article's 17.37 Mbit/s.
	bytes := wire.BitsToBytes(16 + 4 + 901*321)
	if kbps := wireKbpsAt60(bytes); math.Abs(kbps-17370) > 10 {
		t.Errorf("uncompressed: %.0f kbit/s, want about 17370", kbps)
	}
}

// A level-3 packet says in its header whether its cubes carry the at-rest
// bit, and reads back exactly either way: with it (the article's level 3,
// the compression demo's mode 4) a resting cube's velocity is left out;
// without it (mode 3) every cube sends its velocity. The reader takes the
// bit from the packet whatever it read before.
func TestLevel3AtRestFlagRoundTrip(t *testing.T) {
	const n = 64
	fx := newSparseFixture(n, 5, 50)
	resting := 0
	for _, c := range fx.now {
		if c.AtRest {
			resting++
		}
	}
	if resting == 0 || resting == n {
		t.Fatalf("%d of %d cubes at rest: the fixture shows nothing", resting, n)
	}
	moving := absoluteCubeBits(BoundedVelocity)
	q := &Packet{Cubes: make([]Cube, n), Sent: make([]bool, n)}
	for _, all := range []bool{false, true, false} {
		in := make([]CubeSample, n)
		copy(in, fx.now)
		for i := range in {
			in[i].AtRest = in[i].AtRest && !all // without the flag no cube is at rest
		}
		p := &Packet{Level: BoundedVelocity, AllVelocities: all, Cubes: quantizeAll(BoundedVelocity, in)}
		data, bits := encodeSnapshot(t, p)
		want := 4 + 1 + n*moving - resting*3*wire.SnapshotVelocityBits
		if all {
			want = 4 + 1 + n*(moving-1)
		}
		if bits != want {
			t.Errorf("all velocities %v: %d bits, want %d", all, bits, want)
		}
		if err := q.Serialize(wire.NewReadStream(data)); err != nil {
			t.Fatalf("all velocities %v: %v", all, err)
		}
		if q.Level != BoundedVelocity || q.AllVelocities != all {
			t.Errorf("read %v, all velocities %v, want %v", q.Level, q.AllVelocities, all)
		}
		for i := range q.Cubes {
			if q.Cubes[i] != p.Cubes[i] {
				t.Fatalf("all velocities %v: cube %d reads %+v, wrote %+v", all, i, q.Cubes[i], p.Cubes[i])
			}
			pose := q.Cubes[i].Pose(BoundedVelocity)
			if all && fx.now[i].AtRest && pose.AtRest {
				t.Errorf("cube %d: at rest in a packet without the flag", i)
			}
		}
	}
	// Another level read after a level 3 without the flag: the field does
	// not linger.
	p := &Packet{Level: NoVelocity, Cubes: quantizeAll(NoVelocity, fx.now)}
	data, _ := encodeSnapshot(t, p)
	q.AllVelocities = true
	if err := q.Serialize(wire.NewReadStream(data)); err != nil || q.AllVelocities {
		t.Errorf("level 4 after level 3: all velocities %v, %v", q.AllVelocities, err)
	}
}

// TestSnapshotQuantizationError bounds what each level loses: level 1
// float32 rounding, smallest three at 9 bits, positions at 512 per metre.
func TestSnapshotQuantizationError(t *testing.T) {
	fx := newSnapshotFixture(200, 3)
	for l := MinLevel; l <= MaxLevel; l++ {
		var maxPos, maxAng, maxVel float64
		for _, c := range fx.now {
			q := QuantizeCube(l, c)
			p := q.Pose(l)
			maxPos = math.Max(maxPos, p.Position.Sub(c.Position).Len())
			r := p.Orientation.Conjugate().Mul(c.Orientation)
			maxAng = math.Max(maxAng, 2*math.Atan2(r.V.Len(), math.Abs(r.W)))
			if l.HasVelocity() != p.HasVelocity {
				t.Fatalf("%v: HasVelocity %v", l, p.HasVelocity)
			}
			if p.HasVelocity && !(l == BoundedVelocity && c.AtRest) {
				maxVel = math.Max(maxVel, p.Velocity.Sub(c.LinearVelocity).Len())
			}
			if math.Abs(p.Orientation.Len()-1) > 1e-9 || p.Interacting != c.Interacting {
				t.Fatalf("%v: pose %+v", l, p)
			}
		}
		wantPos, wantAng, wantVel := 1e-5, 1e-6, 1e-5 // float32
		if l >= BoundedPosition {
			wantPos = math.Sqrt(3) * 0.5 / wire.SnapshotPositionResolution // half a step per axis
		}
		if l >= SmallestThree {
			// 9 bits over ±0.707: steps of 0.0028, so each of the three
			// components is off by up to 0.0014, the rebuilt largest by
			// about as much again; the angle is about twice the
			// quaternion's error: 2 × √(4 × 0.0014²) ≈ 0.0055 rad (0.3°).
			wantAng = 0.006
		}
		if l == BoundedVelocity {
			wantVel = math.Sqrt(3) * 0.5 / 32 // 32 steps per m/s
		}
		if maxPos > wantPos || maxAng > wantAng || maxVel > wantVel {
			t.Errorf("%v: position error %.2g m (max %.2g), angle %.2g rad (max %.2g), velocity %.2g (max %.2g)",
				l, maxPos, wantPos, maxAng, wantAng, maxVel, wantVel)
		}
	}
}

// TestSnapshotAllAtRestIsHeaderOnly: at levels 7-11, a snapshot identical
// to its baseline is the header alone, 22 bits after the sequence: level
// (4), initial (1), baseline (16), any changed (1), and from level 9 the
// predict bit (23). With the 16-bit
// sequence that is 5 bytes: (5 + 28) × 8 × 60 = 15.84 kbit/s. Level 6 still
// pays one bit per cube. Levels 12-13 name the baseline by its age (here
// 6 frames: 5 bits), 12 bits in all.
func TestSnapshotAllAtRestIsHeaderOnly(t *testing.T) {
	fx := newSnapshotFixture(901, 1)
	base := quantizeAll(BoundedPosition, fx.base)
	bl := &testBaselines{initial: base, snap: base}
	for l := DeltaBaseline; l <= MaxLevel; l++ {
		p := &Packet{Level: l, Baseline: 100, Sequence: 106, Cubes: quantizeAll(l, fx.base), Baselines: bl}
		bits, err := p.ChooseEncoding(wire.NewMeasureStream())
		if err != nil {
			t.Fatal(err)
		}
		want := 22
		switch {
		case l == DeltaBaseline:
			want = 21 + 901
		case l.IsCoded():
			want = 12 // the baseline's age in 5 bits, not 16
		case l >= DeltaPosition:
			want = 23 // the predict bit
		}
		if bits != want || p.Stats.Changed != 0 {
			t.Errorf("%v: %d bits, %d changed; want %d, 0", l, bits, p.Stats.Changed, want)
		}
	}
	if kbps := wireKbpsAt60(wire.BitsToBytes(16 + 23)); math.Abs(kbps-15.84) > 0.001 {
		t.Errorf("all at rest: %.2f kbit/s", kbps)
	}
}

// TestSnapshotEncodingChoice: the choice between changed bits and indices
// follows the measured sizes, with the article's cross-over near 90 cubes
// for 10-bit indices (10 per index + 10 for the count against 901 bits).
func TestSnapshotEncodingChoice(t *testing.T) {
	const n = 901
	base := make([]Cube, n)
	for i := range base {
		base[i] = QuantizeCube(BoundedPosition, CubeSample{Position: mgl64.Vec3{float64(i % 30), float64(i / 30), 0.2}, Orientation: mgl64.QuatIdent()})
	}
	bl := &testBaselines{initial: base, snap: base}
	for _, tc := range []struct {
		level   Level
		changed int
		want    Encoding
	}{
		// Indices: count (10) + 10 per cube; changed bits: 901. With the
		// any-changed and use-indices bits common to both, indices win
		// up to 89 cubes (902 < 903 bits) and lose from 90 (912).
		{ChangedIndices, 1, EncodeIndices},
		{ChangedIndices, 89, EncodeIndices},
		{ChangedIndices, 90, EncodeChangedBits},
		{ChangedIndices, 300, EncodeChangedBits},
		{RelativeIndices, 1, EncodeRelativeIndices},
		{RelativeIndices, 200, EncodeRelativeIndices}, // consecutive cubes: 4 bits each
		{RelativeIndices, 230, EncodeChangedBits},
		{ChangedFields, 0, EncodeNothingChanged},
	} {
		cubes := append([]Cube(nil), base...)
		for i := range tc.changed {
			cubes[i+1].Interacting = true // cubes 1..changed: relative steps of 1
		}
		p := &Packet{Level: tc.level, Baseline: 100, Cubes: cubes, Baselines: bl}
		bits, err := p.ChooseEncoding(wire.NewMeasureStream())
		if err != nil {
			t.Fatal(err)
		}
		if p.Stats.Encoding != tc.want {
			t.Errorf("%v with %d changed: %v (%d bits), want %v", tc.level, tc.changed, p.Stats.Encoding, bits, tc.want)
		}
		// Whatever was chosen is no bigger than the alternative.
		alt := *p
		alt.UseIndices = !p.UseIndices
		m := wire.NewMeasureStream()
		if err := alt.Serialize(m); err != nil {
			t.Fatal(err)
		}
		if m.BitsProcessed() < bits {
			t.Errorf("%v with %d changed: chose %d bits over %d", tc.level, tc.changed, bits, m.BitsProcessed())
		}
	}
}

// TestSnapshotRelativeIndexCode pins the article's 4/7/12-bit code and
// checks every step decodes back.
func TestSnapshotRelativeIndexCode(t *testing.T) {
	const n = 901
	for d := 1; d <= n; d++ {
		prev := int32(-1)
		idx := prev + int32(d)
		w := wire.NewWriteStream(make([]byte, 8))
		if err := serializeRelativeIndex(w, prev, &idx, n); err != nil {
			t.Fatalf("step %d: %v", d, err)
		}
		if w.BitsProcessed() != relativeIndexBits(d) {
			t.Fatalf("step %d: %d bits, want %d", d, w.BitsProcessed(), relativeIndexBits(d))
		}
		var got int32
		if err := serializeRelativeIndex(wire.NewReadStream(w.Bytes()), prev, &got, n); err != nil || got != idx {
			t.Fatalf("step %d: read %d, %v", d, got, err)
		}
	}
	for _, tc := range []struct{ d, bits int }{{1, 4}, {8, 4}, {9, 7}, {40, 7}, {41, 12}, {900, 12}} {
		if relativeIndexBits(tc.d) != tc.bits {
			t.Errorf("step %d: %d bits, want %d", tc.d, relativeIndexBits(tc.d), tc.bits)
		}
	}
	// A step that lands past the last cube is rejected.
	idx := int32(n - 1)
	w := wire.NewWriteStream(make([]byte, 8))
	if err := serializeRelativeIndex(w, -1, &idx, n); err != nil {
		t.Fatal(err)
	}
	var got int32
	if err := serializeRelativeIndex(wire.NewReadStream(w.Bytes()), 5, &got, n); !errors.Is(err, wire.ErrValueOutOfRange) {
		t.Fatalf("index past the end: %v (%d)", err, got)
	}
}

// TestSnapshotDeltaCodes: the position code covers [-256, 255] at 6 or 10
// bits per component; the extended 5-8 orientation code covers [-144, 143]
// at 6 or 9 bits, every value through its own code (none collapse).
func TestSnapshotDeltaCodes(t *testing.T) {
	for _, tc := range []struct {
		name               string
		code               snapDeltaCode
		lo, hi             int32
		smallCost, bigCost int
	}{
		{"position", snapPositionDelta, -256, 255, 6, 10},
		{"orientation", snapOrientationDelta, -144, 143, 6, 9},
	} {
		lo, hi := tc.code.largeRange()
		if lo != tc.lo || hi != tc.hi || tc.code.fits(lo-1) || tc.code.fits(hi+1) {
			t.Fatalf("%s: range [%d, %d], want [%d, %d]", tc.name, lo, hi, tc.lo, tc.hi)
		}
		seen := map[string]int32{}
		for d := lo; d <= hi; d++ {
			v := d
			w := wire.NewWriteStream(make([]byte, 8))
			if err := tc.code.serialize(w, &v); err != nil {
				t.Fatalf("%s %d: %v", tc.name, d, err)
			}
			want := tc.bigCost
			if d >= -16 && d <= 15 {
				want = tc.smallCost
			}
			if w.BitsProcessed() != want {
				t.Fatalf("%s %d: %d bits, want %d", tc.name, d, w.BitsProcessed(), want)
			}
			key := fmt.Sprintf("%x/%d", w.Bytes(), w.BitsProcessed())
			if other, dup := seen[key]; dup {
				t.Fatalf("%s: %d and %d share a code", tc.name, d, other)
			}
			seen[key] = d
			var got int32
			if err := tc.code.serialize(wire.NewReadStream(w.Bytes()), &got); err != nil || got != d {
				t.Fatalf("%s %d: read %d, %v", tc.name, d, got, err)
			}
		}
	}
}

// TestSnapshotRejectsBadPackets: hostile or stale packets end in an error,
// never a panic, and leave nothing half-decoded that could be mistaken for
// a snapshot.
func TestSnapshotRejectsBadPackets(t *testing.T) {
	const n = 901
	fx := newSnapshotFixture(n, 5)
	base := quantizeAll(BoundedPosition, fx.base)
	bl := &testBaselines{initial: base, snap: base}

	// Every truncation of every level's packet fails cleanly.
	for l := MinLevel; l <= MaxLevel; l++ {
		p := &Packet{Level: l, Baseline: 100, Cubes: quantizeAll(l, fx.now), Baselines: bl}
		data, _ := encodeSnapshot(t, p)
		step := max(1, len(data)/97)
		for cut := 0; cut < len(data)-1; cut += step {
			if _, err := decodeSnapshot(data[:cut], n, bl); err == nil {
				t.Fatalf("%v: %d of %d bytes decoded", l, cut, len(data))
			}
		}
		// A baseline the reader does not hold.
		if _, err := decodeSnapshot(data, n, &testBaselines{initial: base}); l.IsDelta() && !errors.Is(err, ErrNoBaseline) {
			t.Fatalf("%v: missing baseline: %v", l, err)
		}
		// A reader with a different number of cubes.
		if _, err := decodeSnapshot(data, n-1, bl); l.IsDelta() && !errors.Is(err, ErrSize) {
			t.Fatalf("%v: size mismatch: %v", l, err)
		}
	}

	// Levels 0 and 12..15 do not exist.
	for _, lv := range []uint32{0, 12, 13, 14, 15} {
		w := wire.NewWriteStream(make([]byte, 8))
		v := lv - 1 // wire.SerializeInt sends level - 1 in 4 bits
		_ = wire.SerializeBits(w, &v, 4)
		if _, err := decodeSnapshot(w.Bytes(), n, bl); !errors.Is(err, wire.ErrValueOutOfRange) && !errors.Is(err, wire.ErrEndOfData) {
			t.Fatalf("level %d: %v", lv, err)
		}
	}

	// Raw floats must be finite.
	c := QuantizeCube(Uncompressed, fx.now[0])
	c.RawPosition[1] = float32(math.NaN())
	p := &Packet{Level: Uncompressed, Cubes: []Cube{c}}
	w := wire.NewWriteStream(make([]byte, 64))
	_ = p.Serialize(w) // the writer sends whatever it is given
	if _, err := decodeSnapshot(w.Bytes(), 1, nil); !errors.Is(err, wire.ErrValueOutOfRange) {
		t.Fatalf("NaN position: %v", err)
	}

	// Level 7 indices must increase: write two indices by hand.
	w = wire.NewWriteStream(make([]byte, 64))
	lvl, ini, bas, anyChanged, use := ChangedIndices, false, uint16(100), true, true
	count := int32(2)
	_ = wire.SerializeInt(w, &lvl, MinLevel, MaxLevel)
	_ = wire.SerializeBool(w, &ini)
	_ = wire.SerializeUint16(w, &bas)
	_ = wire.SerializeBool(w, &anyChanged)
	_ = wire.SerializeBool(w, &use)
	_ = wire.SerializeInt(w, &count, 1, n)
	for _, idx := range []int32{5, 5} {
		_ = wire.SerializeInt(w, &idx, 0, n-1)
		cube := base[idx]
		_ = serializeDeltaCube(w, ChangedIndices, &cube, &base[idx], &base[idx], &PacketStats{})
	}
	if _, err := decodeSnapshot(w.Bytes(), n, bl); !errors.Is(err, wire.ErrValueOutOfRange) {
		t.Fatalf("repeated index: %v", err)
	}

	// A delta that leaves the position or orientation range.
	edge := base[0]
	edge.Position[2] = 3
	edge.Orientation = wire.QuantizedQuat{Largest: 3, Small: [3]int32{250, 0, 0}}
	moved := edge
	moved.Position[2] = 0
	moved.Orientation.Small[0] = 140
	w = wire.NewWriteStream(make([]byte, 64))
	if err := serializeDeltaCube(w, ChangedFields, &moved, &edge, &edge, &PacketStats{}); err != nil {
		t.Fatal(err)
	}
	// The delta is z -3, orientation -110. Against a baseline at z = 1 it
	// would put the cube below the ground.
	low := edge
	low.Position[2] = 1
	var got Cube
	if err := serializeDeltaCube(wire.NewReadStream(w.Bytes()), ChangedFields, &got, &low, &low, &PacketStats{}); !errors.Is(err, wire.ErrValueOutOfRange) {
		t.Fatalf("position below the ground: %v", err)
	}
	// Against a baseline component of -200 it would give -310, outside
	// the smallest-three grid [-255, 255].
	high := edge
	high.Orientation.Small[0] = -200
	if err := serializeDeltaCube(wire.NewReadStream(w.Bytes()), ChangedFields, &got, &high, &high, &PacketStats{}); !errors.Is(err, wire.ErrValueOutOfRange) {
		t.Fatalf("orientation out of range: %v", err)
	}
}

// TestSnapshotPacketAllocs: writing, measuring and reading a snapshot at any
// level allocates nothing.
func TestSnapshotPacketAllocs(t *testing.T) {
	const n = 901
	fx := newSnapshotFixture(n, 9)
	base := quantizeAll(BoundedPosition, fx.base)
	bl := &testBaselines{initial: base, snap: base}
	buf := make([]byte, 64*1024)
	w := wire.NewWriteStream(buf)
	r := wire.NewReadStream(nil)
	m := wire.NewMeasureStream()
	q := &Packet{Cubes: make([]Cube, n), Sent: make([]bool, n), Baselines: bl}
	for _, l := range []Level{Uncompressed, BoundedVelocity, BoundedPosition, ChangedFields} {
		p := &Packet{Level: l, Baseline: 100, Cubes: quantizeAll(l, fx.now), Baselines: bl}
		allocs := testing.AllocsPerRun(10, func() {
			_, _ = p.ChooseEncoding(m)
			w.Reset(buf)
			_ = p.Serialize(w)
			r.Reset(w.Bytes())
			if err := q.Serialize(r); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%v: %v allocations", l, allocs)
		}
	}
}

// TestSnapshotGolden pins the wire format of every level: a fixed snapshot
// must write exactly the bytes of testdata/snapshot_levelNN.golden
// (regenerate with go test ./snapshot/ -run SnapshotGolden -update after an
// intended format change), and read back to the same cubes.
func TestSnapshotGolden(t *testing.T) {
	const n = 256
	fx := newSparseFixture(n, 11, 6)
	base := quantizeAll(BoundedPosition, fx.base)
	bl := &testBaselines{initial: base, snap: base}
	for l := MinLevel; l <= MaxLevel; l++ {
		p := &Packet{Level: l, Baseline: 100, Predict: true, Cubes: quantizeAll(l, fx.now), Baselines: bl}
		got, _ := encodeSnapshot(t, p)
		want := testutil.Golden(t, fmt.Sprintf("snapshot_level%02d.golden", l), got)
		q, err := decodeSnapshot(want, n, bl)
		if err != nil {
			t.Fatalf("%v: %v", l, err)
		}
		for i := range q.Cubes {
			if q.Cubes[i] != p.Cubes[i] {
				t.Fatalf("%v: cube %d differs", l, i)
			}
		}
	}
}

func benchmarkSnapshot(b *testing.B, l Level) {
	const n = 901
	fx := newSnapshotFixture(n, 13)
	base := quantizeAll(BoundedPosition, fx.base)
	bl := &testBaselines{initial: base, snap: base}
	p := &Packet{Level: l, Baseline: 100, Cubes: quantizeAll(l, fx.now), Baselines: bl}
	q := &Packet{Cubes: make([]Cube, n), Sent: make([]bool, n), Baselines: bl}
	buf := make([]byte, 64*1024)
	w := wire.NewWriteStream(buf)
	r := wire.NewReadStream(nil)
	m := wire.NewMeasureStream()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.ChooseEncoding(m); err != nil {
			b.Fatal(err)
		}
		w.Reset(buf)
		if err := p.Serialize(w); err != nil {
			b.Fatal(err)
		}
		r.Reset(w.Bytes())
		if err := q.Serialize(r); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(w.Bytes())))
}

// BenchmarkSnapshotEncodeDecode measures choosing the encoding, writing
// and reading a synthetic 901-cube snapshot (see game's benchmark for a
// snapshot of the real katamari world).
func BenchmarkSnapshotEncodeDecode(b *testing.B) {
	for _, l := range []Level{Uncompressed, BoundedPosition, ChangedFields} {
		b.Run(fmt.Sprintf("level%d", l), func(b *testing.B) { benchmarkSnapshot(b, l) })
	}
}

// TestSnapshotPlayerPrediction: cubes carried rigidly by the player (a
// katamari ball) cost far less against their prediction than against the
// baseline, decode exactly either way, and cubes far from the player are
// not predicted.
func TestSnapshotPlayerPrediction(t *testing.T) {
	const n = 200
	base := make([]CubeSample, n)
	now := make([]CubeSample, n)
	rng := wire.NewRNG(17)
	// The player turns by 0.5 rad about a tilted axis and moves 0.9 m;
	// cubes 1..99 sit in a ball around it and move with it; cubes 100..
	// lie far away, some nudged.
	turn := mgl64.QuatRotate(0.5, mgl64.Vec3{1, 2, 0.3}.Normalize())
	p0 := mgl64.Vec3{3, 4, 1}
	p1 := p0.Add(mgl64.Vec3{0.9, -0.2, 0.1})
	base[0] = CubeSample{Position: p0, Orientation: mgl64.QuatRotate(0.2, mgl64.Vec3{0, 0, 1})}
	now[0] = CubeSample{Position: p1, Orientation: turn.Mul(base[0].Orientation)}
	for i := 1; i < n; i++ {
		off := mgl64.Vec3{rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5}.Normalize().Mul(0.8 + rng.Float64())
		q := mgl64.QuatRotate(rng.Float64()*3, mgl64.Vec3{rng.Float64(), rng.Float64(), rng.Float64()}.Normalize())
		if i >= 100 {
			off = off.Add(mgl64.Vec3{20, 0, 0})
			off[2] = 0.2 - p0[2]
		}
		base[i] = CubeSample{Position: p0.Add(off), Orientation: q}
		now[i] = base[i]
		if i < 100 {
			// Rigidly carried, plus a small wobble of its own.
			now[i].Position = p1.Add(turn.Rotate(off)).Add(mgl64.Vec3{0.004, -0.003, 0.002})
			now[i].Orientation = mgl64.QuatRotate(0.01, mgl64.Vec3{0, 1, 0}).Mul(turn.Mul(q))
		} else if i%10 == 0 {
			now[i].Position = now[i].Position.Add(mgl64.Vec3{0.01, 0, 0})
		}
	}
	b := quantizeAll(BoundedPosition, base)
	bl := &testBaselines{initial: b, snap: b}
	perCube := map[bool]float64{}
	for _, predict := range []bool{false, true} {
		p := &Packet{Level: ChangedFields, Baseline: 100, Predict: predict, Cubes: quantizeAll(ChangedFields, now), Baselines: bl}
		data, nbits := encodeSnapshot(t, p)
		perCube[predict] = float64(nbits) / float64(p.Stats.Changed)
		if want := 0; predict {
			want = 99
			if p.Stats.Predicted != want {
				t.Errorf("predicted %d cubes, want the %d near the player", p.Stats.Predicted, want)
			}
		} else if p.Stats.Predicted != want {
			t.Errorf("predicted %d cubes with prediction off", p.Stats.Predicted)
		}
		q, err := decodeSnapshot(data, n, bl)
		if err != nil {
			t.Fatal(err)
		}
		for i := range q.Cubes {
			if q.Cubes[i] != p.Cubes[i] {
				t.Fatalf("predict=%v: cube %d decoded differently", predict, i)
			}
		}
	}
	// Against the baseline a carried cube moves up to 1.8 m and turns half
	// a radian: mostly absolute position and orientation. Against the
	// prediction, only its wobble: small codes for every component (index
	// 4 + flags 3 + position 19 + orientation 19 = 45).
	if perCube[true] > 45 || perCube[false] < 70 {
		t.Errorf("bits per changed cube: %.1f predicted, %.1f plain", perCube[true], perCube[false])
	}
}

// TestBaselineAge: levels 12-13 name the baseline by its age, Sequence −
// Baseline mod 2^16, in 2k + 1 bits; every age round-trips, across the
// wrap too, and a run of 17 zeros (no age is that long) is refused.
func TestBaselineAge(t *testing.T) {
	buf := make([]byte, 16)
	for _, c := range []struct {
		seq, base uint16
		bits      int
	}{{106, 100, 5}, {101, 100, 3}, {113, 100, 7}, {5, 65530, 7}, {100, 100, 1}, {99, 100, 33}} {
		p := &Packet{Level: RangeCoded, Sequence: c.seq, Baseline: c.base}
		m := wire.NewMeasureStream()
		if err := p.serializeBaselineAge(m); err != nil || m.BitsProcessed() != c.bits {
			t.Errorf("age %d: %d bits, %v; want %d", c.seq-c.base, m.BitsProcessed(), err, c.bits)
		}
		w := wire.NewWriteStream(buf)
		if err := p.serializeBaselineAge(w); err != nil {
			t.Fatal(err)
		}
		q := &Packet{Level: RangeCoded, Sequence: c.seq}
		if err := q.serializeBaselineAge(wire.NewReadStream(w.Bytes())); err != nil || q.Baseline != c.base {
			t.Errorf("sequence %d baseline %d: read %d, %v", c.seq, c.base, q.Baseline, err)
		}
	}
	q := &Packet{Level: RangeCoded, Sequence: 7}
	if err := q.serializeBaselineAge(wire.NewReadStream(make([]byte, 8))); err == nil {
		t.Errorf("17 zeros read as baseline %d", q.Baseline)
	}
}

// wireKbpsAt60 is the bandwidth of one packet of this payload per tick,
// headers included: (payload + 28) × 8 × 60 / 1000 kbit/s.
func wireKbpsAt60(payloadBytes int) float64 {
	return float64(wire.WireBytes(payloadBytes)*8) * wire.TicksPerSecond / 1000
}
