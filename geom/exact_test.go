package geom

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/internal/fmatest"
)

// randomQuat is a unit quaternion from r (not uniform over rotations; any
// spread does for these tests). Its products are rounded one by one, like
// the functions under test, so that the inputs too are the same bits on
// every CPU (a fused multiply-add here would change TestExactBits' hash
// without any change to QuatMul or Rotate).
func randomQuat(r *rand.Rand) mgl64.Quat {
	c := [4]float64{}
	var n2 float64
	for k := range c {
		c[k] = float64(r.Float64()*2) - 1
		n2 += float64(c[k] * c[k])
	}
	n := math.Sqrt(n2)
	return mgl64.Quat{W: c[0] / n, V: mgl64.Vec3{c[1] / n, c[2] / n, c[3] / n}}
}

func randomVec(r *rand.Rand) mgl64.Vec3 {
	return mgl64.Vec3{float64(r.Float64()*20) - 10, float64(r.Float64()*20) - 10, float64(r.Float64()*20) - 10}
}

// near reports whether a and b differ by at most tol in every component.
func near(a, b []float64, tol float64) bool {
	for k := range a {
		if math.Abs(a[k]-b[k]) > tol {
			return false
		}
	}
	return true
}

func quatSlice(q mgl64.Quat) []float64 { return []float64{q.W, q.V[0], q.V[1], q.V[2]} }

// TestQuatMulAndRotate: QuatMul and Rotate agree with mgl64's product and
// rotation to the last bits, the identity changes nothing exactly, and
// rotating by a product is rotating twice.
func TestQuatMulAndRotate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	id := mgl64.QuatIdent()
	for range 1000 {
		a, b, v := randomQuat(r), randomQuat(r), randomVec(r)
		if got, want := QuatMul(a, b), a.Mul(b); !near(quatSlice(got), quatSlice(want), 1e-15) {
			t.Fatalf("QuatMul(%v, %v) = %v, mgl64 %v", a, b, got, want)
		}
		if got := QuatMul(id, a); got != a {
			t.Fatalf("QuatMul(1, %v) = %v", a, got)
		}
		if got := QuatMul(a, id); got != a {
			t.Fatalf("QuatMul(%v, 1) = %v", a, got)
		}
		if got, want := Rotate(a, v), a.Rotate(v); !near(got[:], want[:], 1e-13) {
			t.Fatalf("Rotate(%v, %v) = %v, mgl64 %v", a, v, got, want)
		}
		if got := Rotate(id, v); got != v {
			t.Fatalf("Rotate(1, %v) = %v", v, got)
		}
		if got, want := Rotate(QuatMul(a, b), v), Rotate(a, Rotate(b, v)); !near(got[:], want[:], 1e-13) {
			t.Fatalf("rotating by a·b %v, by b then a %v", got, want)
		}
	}
	// A quarter turn about z takes x to y.
	q := mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 0, 1})
	if got := Rotate(q, mgl64.Vec3{1, 0, 0}); !near(got[:], []float64{0, 1, 0}, 1e-15) {
		t.Errorf("a quarter turn about z takes x to %v", got)
	}
}

// goldenExactHash is exactHash's value. The snapshot levels that predict
// (9-13) code against these functions' results, so a change of a single
// bit changes packets: if this fails, the snapshot goldens will too.
const goldenExactHash = 0xdaea59503f8d69eb

// exactHash hashes the bits of QuatMul and Rotate over a fixed set of
// inputs.
func exactHash() uint64 {
	r := rand.New(rand.NewPCG(3, 4))
	h := fnv.New64a()
	var buf [8]byte
	put := func(x float64) {
		b := math.Float64bits(x)
		for k := range buf {
			buf[k] = byte(b >> (8 * k))
		}
		h.Write(buf[:])
	}
	for range 1000 {
		a, b, v := randomQuat(r), randomQuat(r), randomVec(r)
		q := QuatMul(a, b)
		p := Rotate(a, v)
		for _, x := range []float64{q.W, q.V[0], q.V[1], q.V[2], p[0], p[1], p[2]} {
			put(x)
		}
	}
	return h.Sum64()
}

// TestExactBits pins the bits QuatMul and Rotate compute.
func TestExactBits(t *testing.T) {
	if h := exactHash(); h != goldenExactHash {
		t.Errorf("QuatMul and Rotate's bits hash to %#x, golden %#x: the rounding changed", h, uint64(goldenExactHash))
	}
}

// TestExactNotFused compiles the package for the CPUs on which Go fuses
// x*y+z into one multiply-add (arm64, amd64 at GOAMD64=v3) and fails if
// QuatMul, Rotate, cross, Dot, Len or QuatLen contain a fused instruction (the other
// functions may: they only draw).
func TestExactNotFused(t *testing.T) {
	exact := []string{"QuatMul", "Rotate", "cross", "Dot", "Len", "QuatLen"}
	for _, b := range fmatest.Compile(t) {
		for _, name := range exact {
			if !b.Funcs[name] {
				t.Errorf("GOARCH=%s: no assembly for %s (inlined everywhere? the check saw nothing)", b.GOARCH, name)
			}
			for _, line := range b.Fused[name] {
				t.Errorf("GOARCH=%s GOAMD64=%s: %s: %s", b.GOARCH, b.GOAMD64, name, line)
			}
		}
	}
}
