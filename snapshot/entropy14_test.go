package snapshot

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/internal/testutil"
	"netcubes/wire"
)

// ballFixture is a katamari ball built by hand, with no physics (so that
// its golden does not follow the solver): the player at 1 m up, moving
// 0.3 m along x and turning 0.2 rad about y; around it n−1 cubes on a
// shell 0.9-1.4 m from its centre, each carried rigidly by the player's
// motion and then slid over the shell by up to 3 cm, turning as it slides
// (about n × Δ, by |Δ|/0.4 m, the rolling of level 14's turnWithMiss),
// plus a little noise of its own. Quantized as levels 5-14 send it.
func ballFixture(n int, seed uint64) (base, now []Cube) {
	rng := wire.NewRNG(seed)
	pb := mgl64.Vec3{0, 0, 1}
	pn := mgl64.Vec3{0.3, 0, 1}
	turn := mgl64.QuatRotate(0.2, mgl64.Vec3{0, 1, 0})
	q := func(p mgl64.Vec3, o mgl64.Quat) Cube {
		return QuantizeCube(BoundedPosition, CubeSample{Position: p, Orientation: o.Normalize()})
	}
	base, now = make([]Cube, n), make([]Cube, n)
	base[0], now[0] = q(pb, mgl64.QuatIdent()), q(pn, turn)
	for i := 1; i < n; i++ {
		dir := mgl64.Vec3{rng.Float64()*2 - 1, rng.Float64()*2 - 1, rng.Float64()*2 - 1}
		if dir.Len() < 0.1 {
			dir = mgl64.Vec3{1, 0, 0}
		}
		dir = dir.Normalize()
		ob := mgl64.QuatRotate(rng.Float64()*3, mgl64.Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, 0.5}.Normalize())
		b := pb.Add(dir.Mul(0.9 + rng.Float64()*0.5))
		base[i] = q(b, ob)
		// Carried by the player, then slid by d and turned with it.
		p := pn.Add(turn.Rotate(b.Sub(pb)))
		o := turn.Mul(ob)
		d := mgl64.Vec3{rng.Float64()*0.06 - 0.03, rng.Float64()*0.06 - 0.03, rng.Float64()*0.06 - 0.03}
		nrm := p.Sub(pn).Normalize()
		if axis := nrm.Cross(d); axis.Len() > 1e-9 {
			o = mgl64.QuatRotate(d.Len()/0.4, axis.Normalize()).Mul(o)
		}
		o = mgl64.QuatRotate(rng.Float64()*0.01, mgl64.Vec3{0, 0, 1}).Mul(o)
		now[i] = q(p.Add(d), o)
	}
	return base, now
}

// TestTurnWithMissGolden pins level 14's coding of the ball fixture
// (testdata/snapshot_level14_ball.golden; regenerate with -update after
// an intended format change), decodes it exactly, and checks that the
// turn is what level 14 adds: level 13 codes the same cubes, the same way
// but for the orientations, in more bytes.
func TestTurnWithMissGolden(t *testing.T) {
	const n = 200
	base, now := ballFixture(n, 3)
	bl := &testBaselines{initial: base, snap: base}
	size := map[Level]int{}
	for _, l := range []Level{MotionPredicted, TurnWithMiss} {
		p := &Packet{Level: l, Baseline: 100, Predict: true, Cubes: now, Baselines: bl}
		got, _ := encodeSnapshot(t, p)
		size[l] = len(got)
		if p.Stats.Predicted < n/2 {
			t.Fatalf("%v: %d cubes predicted from the player", l, p.Stats.Predicted)
		}
		if l == TurnWithMiss {
			got = testutil.Golden(t, "snapshot_level14_ball.golden", got)
		}
		q, err := decodeSnapshot(got, n, bl)
		if err != nil {
			t.Fatalf("%v: %v", l, err)
		}
		for i := range q.Cubes {
			if q.Cubes[i] != now[i] {
				t.Fatalf("%v: cube %d decoded %+v, want %+v", l, i, q.Cubes[i], now[i])
			}
		}
	}
	t.Logf("ball fixture: level 13 %d bytes, level 14 %d", size[MotionPredicted], size[TurnWithMiss])
	if size[TurnWithMiss] >= size[MotionPredicted] {
		t.Errorf("level 14 %d bytes, level 13 %d: the turn bought nothing", size[TurnWithMiss], size[MotionPredicted])
	}
}

// TestTurnWithMissOnlyBallCubes: the turn changes only a player-predicted
// cube whose position changed, and turns it about n × Δ: a miss along the
// cube's offset from the player (straight out) turns nothing.
func TestTurnWithMissOnlyBallCubes(t *testing.T) {
	player := Cube{Position: wire.QuantizedVec3{0, 0, 512}, Orientation: wire.QuantizedQuat{Largest: 3}}
	b := Cube{Position: wire.QuantizedVec3{400, 0, 512}, Orientation: wire.QuantizedQuat{Largest: 3}}
	for _, tc := range []struct {
		name   string
		kind   int
		miss   wire.QuantizedVec3
		turned bool
	}{
		{"ball cube, tangential miss", refPlayer, wire.QuantizedVec3{0, 40, 0}, true},
		{"ball cube, radial miss", refPlayer, wire.QuantizedVec3{40, 0, 0}, false},
		{"own motion", refMotion, wire.QuantizedVec3{0, 40, 0}, false},
		{"baseline", refStatic, wire.QuantizedVec3{0, 40, 0}, false},
	} {
		c := b
		for k := range 3 {
			c.Position[k] += tc.miss[k]
		}
		cc := cubeCoding{b: &b, c: &c, kind: tc.kind, pred: b, refPos: b.Position, posChanged: true}
		e := newEntropyState()
		e.models.reset()
		e.turnWithMiss(&cc, &player)
		if got := cc.pred.Orientation != b.Orientation; got != tc.turned {
			t.Errorf("%s: turned %v (%+v), want %v", tc.name, got, cc.pred.Orientation, tc.turned)
		}
		if tc.turned {
			// A miss along +y at +x from the player: the turn is about
			// x × y = +z, so the quaternion's z component grows.
			o := wire.DequantizeQuat(cc.pred.Orientation, wire.SnapshotOrientationBits)
			if !(o.V[2] > 0) || math.Abs(o.V[0]) > 1e-9 || math.Abs(o.V[1]) > 1e-9 {
				t.Errorf("%s: turned to %v, want about +z", tc.name, o)
			}
		}
	}
}

// FuzzLevel14Packet decodes arbitrary bytes as a packet of the ball
// fixture's 48 cubes, against its baseline (sequence 100) or the initial
// state, so that the bytes reach level 14's turn on the cubes the player
// carries: whatever they are, the reader ends in one of the known errors
// or in cubes every field of which is in range, which encode again and
// decode back to the same cubes.
func FuzzLevel14Packet(f *testing.F) {
	const n = 48
	base, now := ballFixture(n, 5)
	bl := &testBaselines{initial: base, snap: base}
	for _, initial := range []bool{false, true} {
		for _, predict := range []bool{true, false} {
			p := &Packet{Level: TurnWithMiss, Initial: initial, Predict: predict, Baseline: 100, Cubes: now, Baselines: bl}
			data, _ := encodeSnapshot(f, p)
			f.Add(data)
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		q := &Packet{Cubes: make([]Cube, n), Sent: make([]bool, n), Baselines: bl}
		err := q.Serialize(wire.NewReadStream(data))
		if err != nil {
			if !errors.Is(err, wire.ErrEndOfData) && !errors.Is(err, wire.ErrValueOutOfRange) && !errors.Is(err, ErrNoBaseline) &&
				!errors.Is(err, wire.ErrInvalidRange) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		xyMin, xyMax, zMax := wire.PositionLimits(wire.SnapshotPositionResolution)
		qlo, qhi := wire.SmallestThreeLimits(wire.SnapshotOrientationBits)
		if q.Level.IsCoded() {
			for i, c := range q.Cubes {
				for k := range 3 {
					lo, hi := xyMin, xyMax
					if k == 2 {
						lo, hi = 0, zMax
					}
					if c.Position[k] < lo || c.Position[k] > hi || c.Orientation.Small[k] < qlo || c.Orientation.Small[k] > qhi || c.Orientation.Largest > 3 {
						t.Fatalf("cube %d out of range: %+v", i, c)
					}
				}
			}
		}
		w := wire.NewWriteStream(make([]byte, 64*1024))
		if err := q.Serialize(w); err != nil {
			t.Fatalf("re-encode: %v", err)
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
