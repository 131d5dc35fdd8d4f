package wire

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// The 901-cube packet of 80-bit states (compression stage 5): 72,080 bits,
// 9,010 bytes.
const cubePacketBits = numCubes * 80

func TestCubePacket(t *testing.T) {
	p := newCubePacket(1)
	m := NewMeasureStream()
	if err := p.Serialize(m); err != nil {
		t.Fatal(err)
	}
	if m.BitsProcessed() != cubePacketBits {
		t.Fatalf("%d bits, want %d", m.BitsProcessed(), cubePacketBits)
	}
	b := m.Breakdown()
	if b[CategoryFlags] != numCubes || b[CategoryOrientation] != numCubes*29 || b[CategoryPosition] != numCubes*50 {
		t.Fatalf("breakdown %v", b)
	}
	buf := make([]byte, BitsToBytes(cubePacketBits))
	w := NewWriteStream(buf)
	if err := p.Serialize(w); err != nil {
		t.Fatal(err)
	}
	var q cubePacket
	if err := q.Serialize(NewReadStream(w.Bytes())); err != nil {
		t.Fatal(err)
	}
	if q != *p {
		t.Fatal("cube packet changed on the way")
	}
	// The packet's bandwidth at 60 Hz: 9010 + 28 bytes × 8 × 60 ≈ 4.34 Mbit/s,
	// the article's figure for this stage.
	if kbps := kbpsAt60(len(w.Bytes())); kbps < 4330 || kbps > 4345 {
		t.Fatalf("%v kbit/s", kbps)
	}
	r := NewReadStream(nil)
	m.Reset()
	allocs := testing.AllocsPerRun(20, func() {
		w.Reset(buf)
		_ = p.Serialize(w)
		r.Reset(w.Bytes())
		_ = q.Serialize(r)
		m.Reset()
		_ = p.Serialize(m)
	})
	if allocs != 0 {
		t.Fatalf("%v allocs per write+read+measure", allocs)
	}
}

func BenchmarkCubePacketWriteRead(b *testing.B) {
	p := newCubePacket(1)
	var q cubePacket
	buf := make([]byte, BitsToBytes(cubePacketBits))
	w := NewWriteStream(buf)
	r := NewReadStream(nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		w.Reset(buf)
		if err := p.Serialize(w); err != nil {
			b.Fatal(err)
		}
		r.Reset(w.Bytes())
		if err := q.Serialize(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCubePacketWrite(b *testing.B) {
	p := newCubePacket(1)
	buf := make([]byte, BitsToBytes(cubePacketBits))
	w := NewWriteStream(buf)
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf)
		if err := p.Serialize(w); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCubePacketRead(b *testing.B) {
	p := newCubePacket(1)
	buf := make([]byte, BitsToBytes(cubePacketBits))
	w := NewWriteStream(buf)
	_ = p.Serialize(w)
	data := w.Bytes()
	var q cubePacket
	r := NewReadStream(nil)
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(data)
		if err := q.Serialize(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCubePacketMeasure(b *testing.B) {
	p := newCubePacket(1)
	m := NewMeasureStream()
	b.ReportAllocs()
	for b.Loop() {
		m.Reset()
		if err := p.Serialize(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQuantizeCubes(b *testing.B) {
	// Quantizing a whole world's orientations and positions, as "quantize
	// both sides" does every step (state synchronization precision).
	rng := NewRNG(1)
	qs := make([]struct {
		q mgl64.Quat
		p QuantizedVec3
	}, numCubes)
	for i := range qs {
		qs[i].q = randomQuat(&rng)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range qs {
			c := QuantizeQuat(qs[i].q, StateSyncOrientationBits)
			qs[i].q = DequantizeQuat(c, StateSyncOrientationBits)
			qs[i].p = QuantizePosition(DequantizePosition(qs[i].p, StateSyncPositionResolution), StateSyncPositionResolution)
		}
	}
}

func BenchmarkEndpointAcks(b *testing.B) {
	left := NewEndpoint(DefaultEndpointConfig())
	right := NewEndpoint(DefaultEndpointConfig())
	tick := Tick(0)
	b.ReportAllocs()
	for b.Loop() {
		h := left.Header()
		left.Sent(tick, 100)
		right.Received(tick, h, 100)
		left.Received(tick, right.Header(), 40)
		right.Sent(tick, 40)
		tick++
	}
}

// BenchmarkCubePacketWriteBaseline writes the same bits with the BitWriter
// called directly, no Stream, no range checks: the floor that the
// serialize-function pattern is paying for its safety and its single code
// path. Compare it with BenchmarkCubePacketWrite.
func BenchmarkCubePacketWriteBaseline(b *testing.B) {
	p := newCubePacket(1)
	buf := make([]byte, BitsToBytes(cubePacketBits))
	var w BitWriter
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf)
		for i := range p.Cubes {
			c := &p.Cubes[i]
			v := uint64(0)
			if c.Interacting {
				v = 1
			}
			w.put(v, 1)
			w.put(uint64(c.Orientation.Largest), 2)
			for _, s := range c.Orientation.Small {
				w.put(uint64(s+255), 9)
			}
			w.put(uint64(c.Position[0]+131072), 18)
			w.put(uint64(c.Position[1]+131072), 18)
			w.put(uint64(c.Position[2]), 14)
		}
	}
	if !bytesEqualWrite(w.Bytes(), p) {
		b.Fatal("baseline bits differ from the stream's")
	}
}

// bytesEqualWrite reports whether buf holds exactly what a WriteStream writes
// for p, so the baseline is known to do the same work.
func bytesEqualWrite(buf []byte, p *cubePacket) bool {
	w := NewWriteStream(make([]byte, len(buf)))
	if err := p.Serialize(w); err != nil {
		return false
	}
	return string(w.Bytes()) == string(buf)
}
