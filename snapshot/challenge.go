package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"netcubes/cubes"
	"netcubes/wire"
)

// Design note: the 2015 snapshot compression challenge's data layout, so
// that the same frames can be coded here and by the challenge's public
// coders (Fabian Giesen's among them). A file is an initial frame, then
// every frame of the run, each NumChallengeCubes records of eight
// little-endian int32:
//
//	largest  0..3        smallest three: index of the dropped component
//	a, b, c  0..511      the three others at 9 bits, unsigned: stored
//	                     − 255 (ours are −255..255 on a symmetric grid,
//	                     0..510 stored; the challenge's quantizer writes
//	                     0..511, and 511 reads as 256, which every level
//	                     carries: wire.SmallestThreeLimits)
//	x, y     ±131072     position at 512 per metre (±256 m)
//	z        0..16383    (0..32 m)
//	interacting 0/1
//
// These are exactly the quantized Cubes of levels 5-13, so a file
// round-trips bit for bit. The challenge encodes every frame from the
// seventh against the frame six earlier (about one round trip at 60 Hz);
// CodeChallenge does that at any delta level, with level 13's older
// baseline two frames before that (its rule: MotionSpanFor) and
// checks every decode is exact.
//
// Reading is hostile-proof: the size must be a whole number of frames, at
// least two and at most MaxChallengeFrames, and every field in range; an
// error names the frame, the cube and the field.

// NumChallengeCubes is the cubes per frame of the challenge layout.
const NumChallengeCubes = 901

// MaxChallengeFrames bounds a challenge file (65,535 frames, 18 minutes
// at 60 Hz, 1.9 GB): frames are addressed by 16-bit sequence numbers.
const MaxChallengeFrames = 1<<16 - 1

const challengeRecordBytes = 8 * 4

// ChallengeAge is the challenge's baseline age in frames.
const ChallengeAge = 6

// ErrChallengeFormat wraps every error of ReadChallenge.
var ErrChallengeFormat = errors.New("not a snapshot challenge file")

// WriteChallenge writes frames (each NumChallengeCubes cubes in the
// quantized form) in the challenge layout.
func WriteChallenge(w io.Writer, frames [][]Cube) error {
	rec := make([]byte, NumChallengeCubes*challengeRecordBytes)
	q := wire.SmallestThreeMax(wire.SnapshotOrientationBits)
	for f, cubes := range frames {
		if len(cubes) != NumChallengeCubes {
			return fmt.Errorf("frame %d has %d cubes, the challenge layout %d", f, len(cubes), NumChallengeCubes)
		}
		for i := range cubes {
			c := &cubes[i]
			v := [8]int32{int32(c.Orientation.Largest), c.Orientation.Small[0] + q, c.Orientation.Small[1] + q,
				c.Orientation.Small[2] + q, c.Position[0], c.Position[1], c.Position[2], int32(b2i(c.Interacting))}
			for k, x := range v {
				binary.LittleEndian.PutUint32(rec[i*challengeRecordBytes+4*k:], uint32(x))
			}
		}
		if _, err := w.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

var challengeFields = [8]string{"orientation largest", "orientation a", "orientation b", "orientation c",
	"position x", "position y", "position z", "interacting"}

// ReadChallenge reads a challenge file: at least two frames (the initial
// one and one more). Errors wrap ErrChallengeFormat and say where.
func ReadChallenge(r io.Reader) ([][]Cube, error) {
	const frameBytes = NumChallengeCubes * challengeRecordBytes
	buf := make([]byte, frameBytes)
	q := wire.SmallestThreeMax(wire.SnapshotOrientationBits)
	_, top := wire.SmallestThreeLimits(wire.SnapshotOrientationBits)
	xyMin, xyMax, zMax := wire.PositionLimits(wire.SnapshotPositionResolution)
	lo := [8]int32{0, 0, 0, 0, xyMin, xyMin, 0, 0}
	hi := [8]int32{3, q + top, q + top, q + top, xyMax, xyMax, zMax, 1}
	var frames [][]Cube
	for {
		n, err := io.ReadFull(r, buf)
		if err == io.EOF {
			break
		}
		if err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("%w: frame %d is cut short (%d of %d bytes; a frame is %d cubes × 8 int32)",
				ErrChallengeFormat, len(frames), n, frameBytes, NumChallengeCubes)
		}
		if err != nil {
			return nil, err
		}
		if len(frames) == MaxChallengeFrames {
			return nil, fmt.Errorf("%w: more than %d frames", ErrChallengeFormat, MaxChallengeFrames)
		}
		cubes := make([]Cube, NumChallengeCubes)
		for i := range cubes {
			var v [8]int32
			for k := range v {
				v[k] = int32(binary.LittleEndian.Uint32(buf[i*challengeRecordBytes+4*k:]))
				if v[k] < lo[k] || v[k] > hi[k] {
					return nil, fmt.Errorf("%w: frame %d cube %d: %s is %d, outside %d..%d",
						ErrChallengeFormat, len(frames), i, challengeFields[k], v[k], lo[k], hi[k])
				}
			}
			cubes[i] = Cube{
				Interacting: v[7] == 1,
				Orientation: wire.QuantizedQuat{Largest: uint8(v[0]), Small: [3]int32{v[1] - q, v[2] - q, v[3] - q}},
				Position:    wire.QuantizedVec3{v[4], v[5], v[6]},
			}
		}
		frames = append(frames, cubes)
	}
	if len(frames) < 2 {
		return nil, fmt.Errorf("%w: %d frames, need the initial frame and at least one more", ErrChallengeFormat, len(frames))
	}
	return frames, nil
}

// ChallengeResult is one level's figures on a challenge file.
type ChallengeResult struct {
	Level   Level
	Predict bool
	Packets int // frames coded (every frame from the seventh)
	Bytes   int // their packets' bytes (header included, no sequence)
	Changed int // cubes carried
	// Decisions counts the binary decisions the range coder coded (levels
	// 12-14; 0 below): the coder's work, which its speed is measured in,
	// where the bytes are what it achieved.
	Decisions int
}

// BytesPerFrame is the average packet.
func (r ChallengeResult) BytesPerFrame() float64 { return ratio(r.Bytes, r.Packets) }

// Kbps is the packets' rate at 60 frames per second, without IP/UDP
// headers (the challenge counts payload only).
func (r ChallengeResult) Kbps() float64 { return r.BytesPerFrame() * 8 * 60 / 1000 }

// challengeBaselines serves a challenge's frames as baselines: frame i
// is sequence i; and, once frame i was coded at level 12 or 13, the models
// its packet ended with, for the packet ChallengeAge frames later that
// names it as baseline. Only those ChallengeAge frames' models are kept (a
// ring, each slot tagged with its frame): 316 kB each, where one per
// frame of a long file would take gigabytes.
type challengeBaselines struct {
	frames [][]Cube
	models [ChallengeAge]entropyModels
	tag    [ChallengeAge]int // the frame whose models a slot holds (−1: none)
}

func (c *challengeBaselines) SnapshotBaseline(initial bool, seq uint16) []Cube {
	if initial || int(seq) >= len(c.frames) {
		return nil
	}
	return c.frames[seq]
}

func (c *challengeBaselines) snapshotModels(seq uint16) *entropyModels {
	k := int(seq) % ChallengeAge
	if c.tag[k] != int(seq) {
		return nil
	}
	return &c.models[k]
}

// CodeChallenge codes every frame from the seventh against the frame six
// earlier at level l (a delta level), decodes each packet and checks it is
// the frame exactly. At levels 12-13, carry says whether each packet's
// models start where its baseline's packet ended (as in a session; see
// entropy.go) or fresh.
func CodeChallenge(frames [][]Cube, l Level, predict, carry bool) (ChallengeResult, error) {
	res := ChallengeResult{Level: l, Predict: predict && l >= DeltaPosition}
	if !l.IsDelta() {
		return res, fmt.Errorf("level %d is not a delta level", l)
	}
	if len(frames) > MaxChallengeFrames {
		return res, fmt.Errorf("%d frames, at most %d", len(frames), MaxChallengeFrames)
	}
	bl := &challengeBaselines{frames: frames}
	for k := range bl.tag {
		bl.tag[k] = -1
	}
	n := NumChallengeCubes
	p := &Packet{Baselines: bl}
	q := &Packet{Cubes: make([]Cube, n), Baselines: bl}
	m := wire.NewMeasureStream()
	w := wire.NewWriteStream(make([]byte, 64*1024))
	r := wire.NewReadStream(nil)
	for f := ChallengeAge; f < len(frames); f++ {
		if len(frames[f]) != n {
			return res, fmt.Errorf("frame %d has %d cubes", f, len(frames[f]))
		}
		// Carried models: frames from the thirteenth on are coded against
		// a frame that was itself coded, and start from its models.
		carried := carry && l.IsCoded() && bl.snapshotModels(uint16(f-ChallengeAge)) != nil
		*p = Packet{Level: l, Baseline: uint16(f - ChallengeAge), Predict: res.Predict, Sequence: uint16(f),
			Cubes: frames[f], Baselines: bl, ent: p.ent, Carried: carried}
		if span := MotionSpanFor(ChallengeAge); l >= MotionPredicted && f-ChallengeAge-span >= 0 {
			p.Motion, p.MotionSpan = true, uint8(span)
		}
		if _, err := p.ChooseEncoding(m); err != nil {
			return res, fmt.Errorf("frame %d: %w", f, err)
		}
		w.Reset(w.Bytes()[:cap(w.Bytes())])
		if err := p.Serialize(w); err != nil {
			return res, fmt.Errorf("frame %d: %w", f, err)
		}
		q.Sequence = uint16(f)
		r.Reset(w.Bytes())
		if err := q.Serialize(r); err != nil {
			return res, fmt.Errorf("frame %d: decode: %w", f, err)
		}
		for i := range q.Cubes {
			if q.Cubes[i] != frames[f][i] {
				return res, fmt.Errorf("frame %d cube %d: decoded %+v, want %+v", f, i, q.Cubes[i], frames[f][i])
			}
		}
		if l.IsCoded() {
			// The decoder must end with the encoder's models, or a later
			// packet carrying them would decode differently.
			if *q.models() != *p.models() {
				return res, fmt.Errorf("frame %d: the decoder's models differ from the encoder's", f)
			}
			k := f % ChallengeAge
			bl.models[k], bl.tag[k] = *p.models(), f
		}
		res.Packets++
		res.Bytes += len(w.Bytes())
		res.Changed += p.Stats.Changed
		if l.IsCoded() {
			res.Decisions += p.ent.enc.Decisions()
		}
	}
	return res, nil
}

// ChallengeFrame is world w's state in the quantized form of levels 5-13:
// one frame of the challenge layout.
func ChallengeFrame(w *cubes.World) []Cube {
	out := make([]Cube, w.NumCubes())
	for i := range out {
		c := w.Cube(i)
		out[i] = QuantizeCube(BoundedPosition, CubeSample{Position: c.Position, Orientation: c.Orientation, Interacting: c.Interacting})
	}
	return out
}
