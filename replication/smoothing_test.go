package replication

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
)

func TestAdaptiveFactor(t *testing.T) {
	c := DefaultSmoothingConfig()
	for _, tc := range []struct{ err, want float64 }{
		{0, 0.95}, {0.1, 0.95}, {0.25, 0.95}, {0.625, 0.90}, {1, 0.85}, {5, 0.85},
	} {
		if got := AdaptiveFactor(tc.err, c.SmallPosition, c.LargePosition, c.SmallFactor, c.LargeFactor); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("position error %v m: factor %v, want %v", tc.err, got, tc.want)
		}
	}
	// Orientation: the measure is 1 − |w|; 0.3 is halfway from 0.1 to 0.5.
	if got := AdaptiveFactor(0.3, c.SmallOrientation, c.LargeOrientation, c.SmallFactor, c.LargeFactor); math.Abs(got-0.9) > 1e-12 {
		t.Errorf("orientation measure 0.3: factor %v", got)
	}
	if got := AdaptiveFactor(math.NaN(), 0.25, 1, 0.95, 0.85); got != 0.95 {
		t.Errorf("NaN error: factor %v", got)
	}
}

// TestSmoothingHidesCorrection: an update re-bases the offsets so the drawn
// pose does not move; the offsets then fade at the mode's rate and are
// cleared, never left as denormals.
func TestSmoothingHidesCorrection(t *testing.T) {
	var s smoother
	s.cfg = DefaultSmoothingConfig()
	s.reset(2)
	oldP, oldQ := mgl64.Vec3{1, 2, 0.2}, mgl64.QuatRotate(0.3, mgl64.Vec3{0, 0, 1})
	newP, newQ := mgl64.Vec3{1.5, 2, 0.2}, mgl64.QuatRotate(1.1, mgl64.Vec3{0, 1, 0})

	for _, mode := range []SmoothingMode{SmoothingBasic, SmoothingAdaptive} {
		s.reset(2)
		// A first correction, then a second one on top of the first.
		s.corrected(mode, 1, oldP, oldQ, newP, newQ)
		p, q := s.rendered(1, newP, newQ)
		if p.Sub(oldP).Len() > 1e-12 || geom.AngleBetween(q, oldQ) > 1e-9 {
			t.Fatalf("%v: drawn pose moved to %v %v", mode, p, q)
		}
		p2, q2 := mgl64.Vec3{0, 0, 3}, mgl64.QuatRotate(-2, mgl64.Vec3{1, 0, 0})
		s.corrected(mode, 1, newP, newQ, p2, q2)
		if p, q := s.rendered(1, p2, q2); p.Sub(oldP).Len() > 1e-12 || geom.AngleBetween(q, oldQ) > 1e-9 {
			t.Fatalf("%v: second correction moved the drawn pose to %v %v", mode, p, q)
		}
		// One tick of decay: the offset shrinks by the mode's factor.
		e := s.pos[1].Len()
		a := geom.AngleBetween(s.rot[1], mgl64.QuatIdent())
		s.decay(mode)
		want := 0.9
		if mode == SmoothingAdaptive {
			want = AdaptiveFactor(e, 0.25, 1, 0.95, 0.85)
		}
		if got := s.pos[1].Len() / e; math.Abs(got-want) > 1e-9 {
			t.Errorf("%v: position offset kept %v, want %v", mode, got, want)
		}
		wantA := 0.9
		if mode == SmoothingAdaptive {
			wantA = AdaptiveFactor(1-math.Cos(a/2), 0.1, 0.5, 0.95, 0.85)
		}
		if got := geom.AngleBetween(s.rot[1], mgl64.QuatIdent()) / a; math.Abs(got-wantA) > 1e-9 {
			t.Errorf("%v: orientation offset kept %v, want %v", mode, got, wantA)
		}
		// Cube 0 was never corrected.
		if s.pos[0] != (mgl64.Vec3{}) || s.rot[0] != mgl64.QuatIdent() {
			t.Errorf("%v: an untouched cube has offsets", mode)
		}
		// It fades to exactly zero.
		ticks := 0
		for s.pos[1] != (mgl64.Vec3{}) || s.rot[1] != mgl64.QuatIdent() {
			s.decay(mode)
			ticks++
			if ticks > 1000 {
				t.Fatalf("%v: offsets never cleared: %v %v", mode, s.pos[1], s.rot[1])
			}
		}
		t.Logf("%v: a %.2f m, %.0f° correction fades in %d ticks", mode, e, a*180/math.Pi, ticks)
	}
	// No smoothing: offsets are never kept.
	s.reset(2)
	s.corrected(SmoothingNone, 1, oldP, oldQ, newP, newQ)
	if p, _ := s.rendered(1, newP, newQ); p != newP {
		t.Errorf("no smoothing drew %v", p)
	}
	// Switching smoothing off clears offsets at once.
	s.corrected(SmoothingBasic, 1, oldP, oldQ, newP, newQ)
	s.decay(SmoothingNone)
	if s.pos[1] != (mgl64.Vec3{}) || s.rot[1] != mgl64.QuatIdent() {
		t.Errorf("offsets kept after switching smoothing off")
	}
}

// TestAdaptiveSmoothingSpeed: adaptive smoothing corrects a large error
// faster than basic smoothing, and a small one more gently.
func TestAdaptiveSmoothingSpeed(t *testing.T) {
	ticksToHalve := func(mode SmoothingMode, e float64) int {
		var s smoother
		s.cfg = DefaultSmoothingConfig()
		s.reset(1)
		s.pos[0] = mgl64.Vec3{e, 0, 0}
		for n := 1; ; n++ {
			s.decay(mode)
			if s.pos[0].Len() <= e/2 {
				return n
			}
		}
	}
	for _, e := range []float64{0.05, 3} {
		b, a := ticksToHalve(SmoothingBasic, e), ticksToHalve(SmoothingAdaptive, e)
		t.Logf("a %.2f m error halves in %d ticks (basic) and %d ticks (adaptive)", e, b, a)
		if e < 0.25 && a <= b || e > 1 && a >= b {
			t.Errorf("%v m: basic %d ticks, adaptive %d", e, b, a)
		}
	}
}
