package wire

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// This file holds the packet types the tests, fuzz targets and benchmarks
// share. They show the serialize-function pattern at work: one Serialize
// method per type, used to write, read and measure.

// sampleMaxItems bounds samplePacket.NumItems; a packet claiming more is
// rejected by the range check, and decoding never allocates for it.
const sampleMaxItems = 8

type sampleItem struct {
	ID          int32 // cube index, 0..900
	Visible     bool
	Temperature float64 // compressed in [-50, 50] at 0.1
	Orientation QuantizedQuat
}

type samplePacket struct {
	Header   AckHeader
	Kind     uint8 // 0..9
	NumItems int32 // 0..sampleMaxItems
	Items    [sampleMaxItems]sampleItem
	Offset   int32 // a negative range: -1000..-10
	Speed    float32
	Trailer  uint16 // after a byte alignment
}

func (p *samplePacket) Serialize(s Stream) error {
	if err := p.Header.Serialize(s); err != nil {
		return err
	}
	s.SetCategory(CategoryHeader)
	if err := SerializeInt(s, &p.Kind, 0, 9); err != nil {
		return err
	}
	if err := SerializeInt(s, &p.NumItems, 0, sampleMaxItems); err != nil {
		return err
	}
	for i := range p.Items[:p.NumItems] {
		it := &p.Items[i]
		s.SetCategory(CategoryIndices)
		if err := SerializeInt(s, &it.ID, 0, 900); err != nil {
			return err
		}
		s.SetCategory(CategoryFlags)
		if err := SerializeBool(s, &it.Visible); err != nil {
			return err
		}
		s.SetCategory(CategoryOther)
		if err := serializeCompressedFloat(s, &it.Temperature, -50, 50, 0.1); err != nil {
			return err
		}
		s.SetCategory(CategoryOrientation)
		if err := SerializeQuantizedQuat(s, &it.Orientation, SnapshotOrientationBits); err != nil {
			return err
		}
	}
	s.SetCategory(CategoryOther)
	if err := SerializeInt(s, &p.Offset, -1000, -10); err != nil {
		return err
	}
	if err := SerializeFloat32(s, &p.Speed); err != nil {
		return err
	}
	if err := serializeAlign(s); err != nil {
		return err
	}
	return SerializeUint16(s, &p.Trailer)
}

// newSamplePacket returns the packet of the golden file.
func newSamplePacket() samplePacket {
	p := samplePacket{
		Header:   AckHeader{Sequence: 65534, HasAck: true, Ack: 1234, AckBits: 0xA5A5F00F},
		Kind:     3,
		NumItems: 3,
		Offset:   -777,
		Speed:    12.625,
		Trailer:  0xBEEF,
	}
	p.Items[0] = sampleItem{ID: 0, Visible: true, Temperature: -50,
		Orientation: QuantizeQuat(mgl64.QuatIdent(), SnapshotOrientationBits)}
	p.Items[1] = sampleItem{ID: 900, Visible: false, Temperature: 21.5,
		Orientation: QuantizeQuat(mgl64.QuatRotate(math.Pi/3, mgl64.Vec3{0, 0, 1}), SnapshotOrientationBits)}
	p.Items[2] = sampleItem{ID: 450, Visible: true, Temperature: 50,
		Orientation: QuantizeQuat(mgl64.Quat{W: 0.5, V: mgl64.Vec3{-0.5, 0.5, -0.5}}, SnapshotOrientationBits)}
	return p
}

// sampleBits is the size of newSamplePacket: header 65, kind 4, count 4,
// 3 items × (10 + 1 + 10 + 29), offset 10, speed 32 (265 bits), 7 bits of
// padding to a byte, trailer 16: 288 bits, 36 bytes.
func sampleBits() int {
	b := 65 + 4 + 4 + 3*(10+1+10+29) + 10 + 32
	b += (8 - b%8) % 8
	return b + 16
}

// cubeState is the 80-bit snapshot state of one cube after compression stage
// 5 of the article: interacting (1) + smallest three at 9 bits (2 + 27) +
// position at 512 per metre (18 + 18 + 14).
type cubeState struct {
	Interacting bool
	Orientation QuantizedQuat
	Position    QuantizedVec3
}

const numCubes = 901

type cubePacket struct {
	Cubes [numCubes]cubeState
}

func (p *cubePacket) Serialize(s Stream) error { return serializeCubeStates(s, p.Cubes[:]) }

// serializeCubeStates is the cubes of the snapshot packet, 80 bits each.
func serializeCubeStates(s Stream, cubes []cubeState) error {
	for i := range cubes {
		c := &cubes[i]
		s.SetCategory(CategoryFlags)
		if err := SerializeBool(s, &c.Interacting); err != nil {
			return err
		}
		s.SetCategory(CategoryOrientation)
		if err := SerializeQuantizedQuat(s, &c.Orientation, SnapshotOrientationBits); err != nil {
			return err
		}
		s.SetCategory(CategoryPosition)
		if err := SerializeQuantizedPosition(s, &c.Position, SnapshotPositionResolution); err != nil {
			return err
		}
	}
	return nil
}

// newCubePacket fills a packet like the demo world: a 30 × 30 grid of cubes
// 1 m apart, plus the player, with varied orientations.
func newCubePacket(seed uint64) *cubePacket {
	rng := NewRNG(seed)
	p := &cubePacket{}
	for i := range p.Cubes {
		pos := mgl64.Vec3{float64(i%30) - 14.5, float64(i/30) - 14.5, 0.2}
		if i == numCubes-1 {
			pos = mgl64.Vec3{0, 0, 10}
		}
		q := randomQuat(&rng)
		p.Cubes[i] = cubeState{
			Interacting: rng.Uint64()&1 == 1,
			Orientation: QuantizeQuat(q, SnapshotOrientationBits),
			Position:    QuantizePosition(pos, SnapshotPositionResolution),
		}
	}
	return p
}

// randomQuat returns a uniformly distributed unit quaternion (Shoemake's
// method: three uniforms mapped onto the 3-sphere).
func randomQuat(rng *RNG) mgl64.Quat {
	u1, u2, u3 := rng.Float64(), rng.Float64(), rng.Float64()
	a, b := math.Sqrt(1-u1), math.Sqrt(u1)
	return mgl64.Quat{
		W: b * math.Cos(2*math.Pi*u3),
		V: mgl64.Vec3{a * math.Sin(2*math.Pi*u2), a * math.Cos(2*math.Pi*u2), b * math.Sin(2*math.Pi*u3)},
	}
}
