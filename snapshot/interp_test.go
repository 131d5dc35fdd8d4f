package snapshot

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
	"netcubes/wire"
)

func TestSnapshotBufferOrderAndEviction(t *testing.T) {
	b := NewBuffer(4, 2, true)
	for _, tc := range []struct {
		frame int
		ok    bool
		held  []int
	}{
		{10, true, []int{10}},
		{20, true, []int{10, 20}},
		{15, true, []int{10, 15, 20}},  // late: slots in between
		{20, false, []int{10, 15, 20}}, // duplicate
		{30, true, []int{10, 15, 20, 30}},
		{40, true, []int{15, 20, 30, 40}},  // full: the oldest FRAME goes
		{12, false, []int{15, 20, 30, 40}}, // older than everything held
		{25, true, []int{20, 25, 30, 40}},  // late but newer than the oldest
	} {
		e := b.Insert(tc.frame)
		if (e != nil) != tc.ok {
			t.Fatalf("insert %d: %v, want ok=%v", tc.frame, e != nil, tc.ok)
		}
		if e != nil && (e.Frame != tc.frame || len(e.Cubes) != 2 || len(e.Poses) != 2 || len(e.Sent) != 2) {
			t.Fatalf("insert %d: entry %+v", tc.frame, e)
		}
		if b.Len() != len(tc.held) {
			t.Fatalf("after %d: %d held, want %v", tc.frame, b.Len(), tc.held)
		}
		for k, f := range tc.held {
			if b.At(k).Frame != f || b.Find(f) != b.At(k) {
				t.Fatalf("after %d: entry %d is frame %d, want %v", tc.frame, k, b.At(k).Frame, tc.held)
			}
		}
	}
	if b.Find(15) != nil || b.newest().Frame != 40 {
		t.Fatal("find / newest")
	}
	for _, tc := range []struct {
		t     float64
		k, ah int
	}{{19.9, -1, 4}, {20, 0, 3}, {24.5, 0, 3}, {25, 1, 2}, {39, 2, 1}, {40, 3, 0}, {99, 3, 0}} {
		if k := b.Search(tc.t); k != tc.k || b.CountAfter(tc.t) != tc.ah {
			t.Errorf("t=%v: search %d, after %d; want %d, %d", tc.t, k, b.CountAfter(tc.t), tc.k, tc.ah)
		}
	}
	b.Reset()
	if b.Len() != 0 || b.newest() != nil || b.Search(50) != -1 {
		t.Fatal("reset")
	}
}

func angle(a, b mgl64.Quat) float64 {
	r := a.Conjugate().Mul(b)
	return 2 * math.Atan2(r.V.Len(), math.Abs(r.W))
}

func TestSlerp(t *testing.T) {
	a := mgl64.QuatRotate(0.3, mgl64.Vec3{1, 0, 0})
	b := mgl64.QuatRotate(2.1, mgl64.Vec3{0, 1, 1}.Normalize()).Mul(a)
	total := angle(a, b)
	for _, u := range []float64{0, 0.1, 0.25, 0.5, 0.9, 1} {
		q := geom.Slerp(a, b, u)
		if math.Abs(q.Len()-1) > 1e-12 {
			t.Fatalf("u=%v: length %v", u, q.Len())
		}
		// Constant angular speed along the arc.
		if d := angle(a, q); math.Abs(d-u*total) > 1e-9 {
			t.Errorf("u=%v: %v rad from a, want %v", u, d, u*total)
		}
		// q and -q are the same rotation: the short way either way.
		if d := angle(q, geom.Slerp(a, b.Scale(-1), u)); d > 1e-9 {
			t.Errorf("u=%v: negated end differs by %v", u, d)
		}
	}
	// Nearly equal rotations take the nlerp path without losing accuracy.
	c := mgl64.QuatRotate(1e-6, mgl64.Vec3{0, 0, 1}).Mul(a)
	if d := angle(a, geom.Slerp(a, c, 0.5)); math.Abs(d-0.5e-6) > 1e-9 {
		t.Errorf("tiny arc: %v", d)
	}
}

func TestHermiteReproducesParabola(t *testing.T) {
	g := mgl64.Vec3{0, 0, -20}
	p0, v0 := mgl64.Vec3{1, 2, 8}, mgl64.Vec3{3, -1, 5}
	at := func(s float64) (mgl64.Vec3, mgl64.Vec3) {
		return p0.Add(v0.Mul(s)).Add(g.Mul(s * s / 2)), v0.Add(g.Mul(s))
	}
	const dt = 0.1
	pa, va := at(0)
	pb, vb := at(dt)
	for _, s := range []float64{0, 0.3, 0.5, 0.8, 1} {
		want, _ := at(s * dt)
		if d := geom.Hermite(pa, va, pb, vb, dt, s).Sub(want).Len(); d > 1e-12 {
			t.Errorf("s=%v: off by %v", s, d)
		}
	}
	// A straight line cuts the corner by g·dt²/8 at the middle (2.5 cm).
	mid, _ := at(dt / 2)
	lin := pa.Add(pb.Sub(pa).Mul(0.5))
	if d := lin.Sub(mid).Len(); math.Abs(d-20*dt*dt/8) > 1e-12 {
		t.Errorf("linear misses by %v", d)
	}
}

func TestAngularVelocityRoundTrip(t *testing.T) {
	q := mgl64.QuatRotate(0.7, mgl64.Vec3{1, 1, 0}.Normalize())
	w := mgl64.Vec3{2, -5, 3}
	const dt = 0.05
	r := geom.RotateBy(q, w, dt)
	if got := geom.AngularVelocity(q, r, dt); got.Sub(w).Len() > 1e-9 {
		t.Errorf("angular velocity %v, want %v", got, w)
	}
	if geom.AngularVelocity(q, q, dt) != (mgl64.Vec3{}) || geom.RotateBy(q, mgl64.Vec3{}, dt) != q {
		t.Error("no rotation")
	}
}

// ballisticBuffer holds snapshots every 6 frames (10 Hz) of cubes thrown up
// from the ground: cube 0 with velocities (level 1), as poses.
func ballisticBuffer(withVelocity bool, frames ...int) *Buffer {
	b := NewBuffer(16, 1, true)
	for _, f := range frames {
		e := b.Insert(f)
		e.Level = NoVelocity
		if withVelocity {
			e.Level = Uncompressed
		}
		s := float64(f) / wire.TicksPerSecond
		e.Poses[0] = CubePose{
			Position:    mgl64.Vec3{4 * s, 0, 0.2 + 10*s - 10*s*s},
			Orientation: mgl64.QuatRotate(3*s, mgl64.Vec3{0, 1, 0}),
			Velocity:    mgl64.Vec3{4, 0, 10 - 20*s},
			HasVelocity: withVelocity,
		}
		e.Sent[0] = true
	}
	return b
}

func TestInterpolateModes(t *testing.T) {
	truth := func(frame float64) mgl64.Vec3 {
		s := frame / wire.TicksPerSecond
		return mgl64.Vec3{4 * s, 0, 0.2 + 10*s - 10*s*s}
	}
	b := ballisticBuffer(true, 0, 6, 12, 18, 24)
	const mid = 9.0

	ip, ok := b.Interpolate(RenderLinear, mid, 3)
	if !ok || ip.Starved || ip.A.Frame != 6 || ip.B.Frame != 12 || ip.Alpha != 0.5 || ip.Shown != mid {
		t.Fatalf("linear: %+v", ip)
	}
	p, sent := ip.Cube(0)
	linErr := p.Position.Sub(truth(mid)).Len()
	if math.Abs(linErr-20*0.1*0.1/8) > 1e-9 || !sent {
		t.Errorf("linear error %v, want g·dt²/8 = 0.025", linErr)
	}
	if d := angle(p.Orientation, mgl64.QuatRotate(3*mid/60, mgl64.Vec3{0, 1, 0})); d > 1e-9 {
		t.Errorf("slerp off by %v rad", d)
	}

	ip, _ = b.Interpolate(RenderHermite, mid, 3)
	p, _ = ip.Cube(0)
	if d := p.Position.Sub(truth(mid)).Len(); d > 1e-9 {
		t.Errorf("hermite with velocity: off by %v", d)
	}
	// Without velocity, central differences are exact for a parabola too
	// (inside the buffer, where both neighbours exist).
	nb := ballisticBuffer(false, 0, 6, 12, 18, 24)
	ip, _ = nb.Interpolate(RenderHermite, mid, 3)
	p, _ = ip.Cube(0)
	if d := p.Position.Sub(truth(mid)).Len(); d > 1e-9 {
		t.Errorf("hermite with derived tangents: off by %v", d)
	}

	// Latest: the newest snapshot whatever t is.
	ip, ok = b.Interpolate(RenderLatest, mid, 3)
	if p, _ = ip.Cube(0); !ok || ip.Shown != 24 || p.Position != b.newest().Poses[0].Position {
		t.Errorf("latest: %+v", ip)
	}

	// Starved: past the newest, extrapolate up to the limit, then hold.
	for _, tc := range []struct{ t, shown, extra float64 }{{25, 25, 1}, {27, 27, 3}, {40, 27, 3}} {
		ip, ok = b.Interpolate(RenderLinear, tc.t, 3)
		if !ok || !ip.Starved || ip.Shown != tc.shown || ip.Extrapolated != tc.extra || ip.B != nil {
			t.Errorf("starved at %v: %+v", tc.t, ip)
		}
		p, _ = ip.Cube(0)
		want := b.newest().Poses[0].Position.Add(b.newest().Poses[0].Velocity.Mul(tc.extra / 60))
		if p.Position.Sub(want).Len() > 1e-12 {
			t.Errorf("starved at %v: %v, want %v", tc.t, p.Position, want)
		}
	}

	// Extrapolation fails the way the article says: a cube falling at
	// 8 m/s 1.1 m above the floor (frame 54), pushed on 12 frames (0.2 s),
	// sinks into the floor, where the real one lands and stops.
	fb := ballisticBuffer(true, 42, 48, 54)
	ip, _ = fb.Interpolate(RenderExtrapolate, 66, 30)
	p, _ = ip.Cube(0)
	if ip.Shown != 66 || p.Position[2] >= 0 {
		t.Errorf("extrapolated to %v: %v, want below the floor", ip.Shown, p.Position)
	}
	// ...and the same without velocity, derived from the previous snapshot.
	fb = ballisticBuffer(false, 42, 48, 54)
	ip, _ = fb.Interpolate(RenderExtrapolate, 66, 30)
	if p, _ = ip.Cube(0); p.Position[2] >= 0 {
		t.Errorf("extrapolated without velocity to %v, want below the floor", p.Position)
	}

	// Before the oldest snapshot there is nothing to interpolate yet.
	if _, ok := b.Interpolate(RenderHermite, -1, 3); ok {
		t.Error("interpolated before the first snapshot")
	}
	if _, ok := NewBuffer(4, 1, true).Interpolate(RenderLatest, 0, 3); ok {
		t.Error("empty buffer shows something")
	}
}

// A cube that does not move between A and B stays exactly put, even when
// the derived tangents of hermite would swing it (it was moving before).
func TestInterpolateRestingCubeStaysPut(t *testing.T) {
	b := NewBuffer(8, 1, true)
	for i, z := range []float64{2, 0.2, 0.2, 0.2} {
		e := b.Insert(6 * i)
		e.Poses[0] = CubePose{Position: mgl64.Vec3{0, 0, z}, Orientation: mgl64.QuatIdent()}
	}
	ip, _ := b.Interpolate(RenderHermite, 9, 0)
	if p, _ := ip.Cube(0); p.Position != (mgl64.Vec3{0, 0, 0.2}) || !p.AtRest {
		t.Errorf("resting cube at %v (at rest %v)", p.Position, p.AtRest)
	}
}
