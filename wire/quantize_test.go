package wire

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestQuantizeScalar(t *testing.T) {
	tests := []struct {
		name    string
		x, per  float64
		lo, hi  int32
		want    int32
		wantErr bool
	}{
		{"zero", 0, 512, -10, 10, 0, false},
		{"round down", 0.0019, 512, -10, 10, 1, false}, // 0.97 steps
		{"round half up", 0.5 / 512, 512, -10, 10, 1, false},
		{"negative half rounds up", -0.5 / 512, 512, -10, 10, 0, false},
		{"negative", -3.0 / 512, 512, -10, 10, -3, false},
		{"clamp high", 1, 512, -10, 10, 10, false},
		{"clamp low", -1, 512, -10, 10, -10, false},
		{"+inf", math.Inf(1), 512, -10, 10, 10, false},
		{"-inf", math.Inf(-1), 512, -10, 10, -10, false},
		{"NaN is 0", math.NaN(), 512, -10, 10, 0, false},
		{"NaN clamped into range", math.NaN(), 512, 5, 10, 5, false},
	}
	for _, tc := range tests {
		if got := QuantizeScalar(tc.x, tc.per, tc.lo, tc.hi); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestPositionBits(t *testing.T) {
	tests := []struct {
		perMetre int32
		xy, z    int
	}{
		{SnapshotPositionResolution, 18, 14},  // the article: 18 + 18 + 14 = 50 bits
		{StateSyncPositionResolution, 21, 17}, // state sync: 59 bits
		{1, 9, 5},
	}
	for _, tc := range tests {
		xy, z := PositionBits(tc.perMetre)
		if xy != tc.xy || z != tc.z {
			t.Errorf("PositionBits(%d) = %d, %d; want %d, %d", tc.perMetre, xy, z, tc.xy, tc.z)
		}
		m := NewMeasureStream()
		q := QuantizePosition(mgl64.Vec3{}, tc.perMetre)
		if err := SerializeQuantizedPosition(m, &q, tc.perMetre); err != nil || m.BitsProcessed() != 2*tc.xy+tc.z {
			t.Errorf("serialized %d bits, %v", m.BitsProcessed(), err)
		}
	}
}

func TestQuantizePosition(t *testing.T) {
	for _, r := range []int32{SnapshotPositionResolution, StateSyncPositionResolution} {
		half := 0.5 / float64(r)
		lastXY := 256 - 1/float64(r)
		lastZ := 32 - 1/float64(r)
		tests := []struct {
			name string
			in   mgl64.Vec3
			want mgl64.Vec3 // expected decoded position (exact)
		}{
			{"origin", mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 0, 0}},
			{"lowest corner", mgl64.Vec3{-256, -256, 0}, mgl64.Vec3{-256, -256, 0}},
			{"highest corner", mgl64.Vec3{lastXY, lastXY, lastZ}, mgl64.Vec3{lastXY, lastXY, lastZ}},
			{"clamped above", mgl64.Vec3{300, 256, 40}, mgl64.Vec3{lastXY, lastXY, lastZ}},
			{"clamped below", mgl64.Vec3{-300, -256.1, -1}, mgl64.Vec3{-256, -256, 0}},
			{"grid point", mgl64.Vec3{-14.5, 3.25, 0.2}, mgl64.Vec3{-14.5, 3.25, math.Floor(0.2*float64(r)+0.5) / float64(r)}},
		}
		for _, tc := range tests {
			got := DequantizePosition(QuantizePosition(tc.in, r), r)
			if got != tc.want {
				t.Errorf("%d/m %s: got %v, want %v", r, tc.name, got, tc.want)
			}
		}
		// Inside the bounds the error is at most half a step per component.
		rng := NewRNG(uint64(r))
		for range 20000 {
			p := mgl64.Vec3{-256 + rng.Float64()*(512-1/float64(r)), -256 + rng.Float64()*(512-1/float64(r)), rng.Float64() * lastZ}
			q := QuantizePosition(p, r)
			d := DequantizePosition(q, r)
			for i := range 3 {
				if e := math.Abs(d[i] - p[i]); e > half+1e-12 {
					t.Fatalf("%d/m: %v -> %v, error %g > half step %g", r, p, d, e, half)
				}
			}
			// The integer form survives the wire.
			var out QuantizedVec3
			writeRead(t, func(s Stream) error { return SerializeQuantizedPosition(s, &q, r) },
				func(s Stream) error { return SerializeQuantizedPosition(s, &out, r) })
			if out != q {
				t.Fatalf("wire changed %v to %v", q, out)
			}
		}
	}
}

// writeRead writes with one serialize call and reads back with another.
func writeRead(t *testing.T, write, read func(Stream) error) {
	t.Helper()
	w := NewWriteStream(make([]byte, 64))
	if err := write(w); err != nil {
		t.Fatalf("write: %v", err)
	}
	if err := read(NewReadStream(w.Bytes())); err != nil {
		t.Fatalf("read: %v", err)
	}
}

func TestQuantizeVelocity(t *testing.T) {
	const bits = SnapshotVelocityBits
	lo, hi := VelocityLimits(bits)
	if lo != -1024 || hi != 1023 {
		t.Fatalf("limits %d..%d, want -1024..1023 (the article)", lo, hi)
	}
	step := 1.0 / 32 // 32 values per m/s at 11 bits and ±32 m/s
	tests := []struct {
		name string
		in   mgl64.Vec3
		want QuantizedVec3
	}{
		{"zero", mgl64.Vec3{0, 0, 0}, QuantizedVec3{0, 0, 0}},
		{"one step", mgl64.Vec3{step, -step, 2 * step}, QuantizedVec3{1, -1, 2}},
		{"min exact", mgl64.Vec3{-32, -32, -32}, QuantizedVec3{-1024, -1024, -1024}},
		{"max", mgl64.Vec3{32 - step, 31.99, 32}, QuantizedVec3{1023, 1023, 1023}},
		{"clamped", mgl64.Vec3{100, -100, math.NaN()}, QuantizedVec3{1023, -1024, 0}},
	}
	for _, tc := range tests {
		if got := QuantizeVelocity(tc.in, VelocityBound, bits); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	rng := NewRNG(3)
	for _, b := range []int{8, 11, 16} {
		step := 2 * VelocityBound / float64(int(1)<<b)
		half := step / 2
		in := func() float64 { return rng.Float64()*(2*VelocityBound-step) - VelocityBound } // [-32, 32-step)
		for range 10000 {
			v := mgl64.Vec3{in(), in(), in()}
			q := QuantizeVelocity(v, VelocityBound, b)
			d := DequantizeVelocity(q, VelocityBound, b)
			for i := range 3 {
				if e := math.Abs(d[i] - v[i]); e > half+1e-12 {
					t.Fatalf("%d bits: %v error %g > %g", b, v, e, half)
				}
			}
		}
		m := NewMeasureStream()
		blo, bhi := VelocityLimits(b)
		q := QuantizedVec3{blo, bhi, 0}
		if err := SerializeQuantizedVelocity(m, &q, b); err != nil || m.BitsProcessed() != 3*b {
			t.Fatalf("%d bits: measured %d, %v", b, m.BitsProcessed(), err)
		}
	}
}

// quatDistance is the 4D distance between two unit quaternions after aligning
// their signs (q and -q are the same rotation).
func quatDistance(a, b mgl64.Quat) float64 {
	if a.Dot(b) < 0 {
		b = b.Scale(-1)
	}
	return a.Sub(b).Len()
}

func TestSmallestThreeSpecialRotations(t *testing.T) {
	s := SmallestThreeBound
	tests := []struct {
		name string
		q    mgl64.Quat
		want QuantizedQuat // nil Small check when wantLargest only
	}{
		{"identity", mgl64.QuatIdent(), QuantizedQuat{Largest: 3}},
		{"minus identity", mgl64.Quat{W: -1}, QuantizedQuat{Largest: 3}},
		{"180 about x", mgl64.Quat{V: mgl64.Vec3{1, 0, 0}}, QuantizedQuat{Largest: 0}},
		{"180 about -y", mgl64.Quat{V: mgl64.Vec3{0, -1, 0}}, QuantizedQuat{Largest: 1}},
		{"180 about z", mgl64.Quat{V: mgl64.Vec3{0, 0, 1}}, QuantizedQuat{Largest: 2}},
		{"90 about z: tie, first index wins", mgl64.Quat{W: s, V: mgl64.Vec3{0, 0, s}}, QuantizedQuat{Largest: 2, Small: [3]int32{0, 0, 255}}},
		{"not normalized", mgl64.Quat{W: 7}, QuantizedQuat{Largest: 3}},
		{"zero quaternion is identity", mgl64.Quat{}, QuantizedQuat{Largest: 3}},
		{"NaN is identity", mgl64.Quat{W: math.NaN()}, QuantizedQuat{Largest: 3}},
		{"Inf is identity", mgl64.Quat{W: math.Inf(1)}, QuantizedQuat{Largest: 3}},
		{"all halves", mgl64.Quat{W: 0.5, V: mgl64.Vec3{0.5, 0.5, 0.5}}, QuantizedQuat{Largest: 0, Small: [3]int32{180, 180, 180}}},
		{"halves, negative first", mgl64.Quat{W: 0.5, V: mgl64.Vec3{-0.5, 0.5, -0.5}}, QuantizedQuat{Largest: 0, Small: [3]int32{-180, 180, -180}}},
	}
	for _, tc := range tests {
		got := QuantizeQuat(tc.q, SnapshotOrientationBits)
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
		d := DequantizeQuat(got, SnapshotOrientationBits)
		if math.Abs(d.Len()-1) > 1e-12 {
			t.Errorf("%s: decoded length %v", tc.name, d.Len())
		}
	}
}

func TestSmallestThreeErrorBound(t *testing.T) {
	// First-order bound: each sent component is off by at most h = half a
	// step. The rebuilt component l = sqrt(1 - Σc²) moves by |Σ c·Δc| / l ≤
	// |c| |Δc| / l ≤ √3 × √3 h = 3h, since |c|/l ≤ √3 when l ≥ 1/2 (the
	// largest of four components of a unit vector). In 4D that is at most
	// √(3h² + 9h²) ≈ 3.46h; the test allows 4h.
	tests := []struct {
		bits int
		max  float64 // the bound, in 4D distance
	}{
		{SnapshotOrientationBits, 4 * SmallestThreeBound / float64(SmallestThreeMax(SnapshotOrientationBits)) / 2},
		{StateSyncOrientationBits, 4 * SmallestThreeBound / float64(SmallestThreeMax(StateSyncOrientationBits)) / 2},
	}
	for _, tc := range tests {
		rng := NewRNG(uint64(tc.bits))
		worst := 0.0
		for range 100000 {
			q := randomQuat(&rng)
			code := QuantizeQuat(q, tc.bits)
			d := DequantizeQuat(code, tc.bits)
			e := quatDistance(q, d)
			worst = max(worst, e)
			if e > tc.max {
				t.Fatalf("%d bits: %v -> %v, error %g > %g", tc.bits, q, d, e, tc.max)
			}
			if math.Abs(d.Len()-1) > 1e-12 {
				t.Fatalf("%d bits: decoded length %v", tc.bits, d.Len())
			}
			// q and -q are the same rotation and must give the same code.
			if neg := QuantizeQuat(q.Scale(-1), tc.bits); neg != code {
				t.Fatalf("%d bits: q gives %+v, -q gives %+v", tc.bits, code, neg)
			}
			for _, c := range code.Small {
				if m := SmallestThreeMax(tc.bits); c < -m || c > m {
					t.Fatalf("component %d outside ±%d", c, m)
				}
			}
		}
		// The bound is not loose: the worst case reaches at least half of it.
		if worst < tc.max/4 {
			t.Errorf("%d bits: worst error %g, suspiciously far below %g", tc.bits, worst, tc.max)
		}
		t.Logf("%d bits: worst 4D error %.3g (bound %.3g), about %.3f°", tc.bits, worst, tc.max, 2*math.Asin(worst/2)*2*180/math.Pi)
	}
}

func TestSerializeQuantizedQuat(t *testing.T) {
	for _, bits := range []int{SnapshotOrientationBits, StateSyncOrientationBits, 21, 31} {
		m := SmallestThreeMax(bits)
		if lo, hi := SmallestThreeLimits(bits); lo != -m || hi != m+1 {
			t.Fatalf("%d bits: limits %d..%d", bits, lo, hi)
		}
		for _, code := range []QuantizedQuat{
			{Largest: 0, Small: [3]int32{-m, 0, m}},
			{Largest: 3, Small: [3]int32{m, m, m}},
			{Largest: 2, Small: [3]int32{-m, -m, -m}},
			// The top code, M+1, which QuantizeQuat never writes but a
			// quantizer using all 2^bits codes does (the 2015 challenge's).
			{Largest: 1, Small: [3]int32{m + 1, 0, -m}},
			{Largest: 3, Small: [3]int32{m + 1, m + 1, m + 1}},
		} {
			got := roundTrip(t, code, 2+3*bits, func(s Stream, q *QuantizedQuat) error {
				return SerializeQuantizedQuat(s, q, bits)
			})
			if got != code {
				t.Fatalf("%d bits: got %+v, want %+v", bits, got, code)
			}
			// Even codes no encoder produces decode to a unit quaternion.
			if d := DequantizeQuat(got, bits); math.Abs(d.Len()-1) > 1e-12 {
				t.Fatalf("decoded length %v", d.Len())
			}
		}
		// M+1 dequantizes as M: the grid's edge.
		top := QuantizedQuat{Largest: 3, Small: [3]int32{m + 1, 0, 0}}
		edge := QuantizedQuat{Largest: 3, Small: [3]int32{m, 0, 0}}
		if DequantizeQuat(top, bits) != DequantizeQuat(edge, bits) {
			t.Errorf("%d bits: M+1 dequantizes as %v, M as %v", bits, DequantizeQuat(top, bits), DequantizeQuat(edge, bits))
		}
		// Beyond the field's codes a writer refuses (up to 20 bits a
		// component, before any bit: the fields go in one call).
		for _, bad := range []QuantizedQuat{{Small: [3]int32{m + 2, 0, 0}}, {Small: [3]int32{0, -m - 1, 0}}, {Largest: 4}} {
			for _, s := range []Stream{NewWriteStream(make([]byte, 16)), NewMeasureStream()} {
				q := bad
				err := SerializeQuantizedQuat(s, &q, bits)
				if !errors.Is(err, ErrValueOutOfRange) || (bits <= 20 && s.BitsProcessed() != 0) {
					t.Fatalf("%d bits: %T wrote %+v: %v after %d bits", bits, s, bad, err, s.BitsProcessed())
				}
			}
		}
	}
}

func TestQuantizeDeterministic(t *testing.T) {
	// Quantizing both sides only works if both sides get the same bits:
	// the same input always gives the same output, and quantizing a
	// decoded value again is stable.
	rng := NewRNG(99)
	for range 1000 {
		q := randomQuat(&rng)
		a := DequantizeQuat(QuantizeQuat(q, 15), 15)
		b := DequantizeQuat(QuantizeQuat(q, 15), 15)
		if a != b {
			t.Fatal("same input, different output")
		}
		c := DequantizeQuat(QuantizeQuat(a, 15), 15)
		if quatDistance(a, c) > 1e-9 {
			t.Fatalf("re-quantizing moved %v to %v", a, c)
		}
	}
}

// TestQuantizeQuatAt: with no index (−1) or the true largest one it is
// QuantizeQuat; around another component whose magnitude is within the
// smallest-three bound (a quaternion near a swap of its largest component)
// it is another code of nearly the same rotation.
func TestQuantizeQuatAt(t *testing.T) {
	const bits = SnapshotOrientationBits
	for _, q := range []mgl64.Quat{
		mgl64.QuatRotate(0.3, mgl64.Vec3{0, 0, 1}),
		mgl64.QuatRotate(1.55, mgl64.Vec3{1, 0, 0}), // w and x near 0.707: a swap is close
		mgl64.QuatRotate(1.6, mgl64.Vec3{0, 1, 0}),
		mgl64.QuatRotate(2.5, mgl64.Vec3{1, 2, 3}.Normalize()),
	} {
		want := QuantizeQuat(q, bits)
		if got := QuantizeQuatAt(q, bits, -1); got != want {
			t.Errorf("%v: index −1 gives %+v, QuantizeQuat %+v", q, got, want)
		}
		if got := QuantizeQuatAt(q, bits, int(want.Largest)); got != want {
			t.Errorf("%v: the largest index gives %+v, QuantizeQuat %+v", q, got, want)
		}
		c := [4]float64{q.V[0], q.V[1], q.V[2], q.W}
		for l := range 4 {
			if l == int(want.Largest) || math.Abs(c[l]) < 0.69 {
				continue // around a small component the others exceed the bound
			}
			alt := QuantizeQuatAt(q, bits, l)
			if int(alt.Largest) != l {
				t.Fatalf("%v around %d: largest %d", q, l, alt.Largest)
			}
			// Within 2.3° (|dot| ≥ 1 − 2e-4): a component past the bound
			// is clamped to it (here 0.717 → 0.707, 1.7°).
			back := DequantizeQuat(alt, bits)
			if d := math.Abs(back.Dot(q)); d < 1-2e-4 {
				t.Errorf("%v around %d: rebuilt %v (|dot| %v)", q, l, back, d)
			}
		}
	}
}
