package snapshot

import (
	"math/bits"

	"netcubes/wire"
)

// The snapshot packet. One Serialize method writes, reads and measures
// every level. A packet's layout, after the 16-bit sequence the session
// writes, and the function that writes each part (the same function reads
// and measures it):
//
//	part                      levels  bits             written by
//	level                     1-13    4                Serialize
//	at-rest flag              3       1                serializeAbsolute (1: cubes carry the at-rest bit)
//	every cube, absolute      1-5     80-321 per cube  serializeAbsolute → serializeAbsoluteCube (level.go)
//	initial                   6-13    1                serializeBaseline
//	baseline sequence         6-11    16               serializeBaseline (absent when initial)
//	baseline age              12-13   2k+1             serializeBaselineAge (absent when initial)
//	predict                   9-13    1                serializeBaseline
//	any changed               7-13    1                Serialize (0: the packet ends here)
//	use indices               7-11    1                Serialize (ChooseEncoding decides)
//	count                     7-11    10               Serialize (when use indices)
//	which cubes changed       6-11    1 per cube       serializeChangedBits
//	                          7-11    index per cube   serializeIndexedCubes, serializeRelativeIndex (delta.go)
//	each changed cube         6-11                     serializeCube: its prediction (predict.go),
//	                                                   then serializeDeltaCube (delta.go)
//	carried                   12-13   1                serializeCodedHeader (absent when initial)
//	range-coded payload       12-13   to the end       serializeCoded (entropy.go): codeMotion,
//	                                                   codeCubes (cube 0, codeCorrection, cubes 1…),
//	                                                   serializePayload
//
// With every cube at rest at levels 7-11 that is 16 + 4 + 1 + 16 + 1 = 38
// bits (39 from level 9), 5 bytes: (5 + 28) × 8 × 60 = 15.8 kbit/s, the
// article's "around 15 kilobits per second, entirely packet header". The
// article's header is 33 bits (sequence, baseline, initial); the level
// field (4 bits: a live level change never misdecodes packets in flight),
// the any-changed bit and the predict bit are ours and counted as header.
//
// At the delta levels the packet needs its baseline on both sides: the
// writer to compare each cube with it, the reader to rebuild unchanged
// cubes and to add deltas to. The baseline is only known to the reader
// once it has read the header, so the packet asks a Baselines (the
// sender's or the receiver's store of snapshots) for it in the middle of
// Serialize, on both sides alike.
//
// Which cubes changed is never sent as a list the reader must size: the
// reader fills the Cubes slice its owner gave it (one per cube of the world,
// known to both sides), and a count read from the packet is checked against
// that length before it is used. Decoding never allocates.

// Encoding says how a packet names the cubes it carries.
type Encoding uint8

// The encodings, from the levels that use them.
const (
	EncodeAll             Encoding = iota // levels 1-5: every cube, in order
	EncodeNothingChanged                  // levels 7-11: no cube differs from the baseline
	EncodeChangedBits                     // levels 6-11: one changed bit per cube
	EncodeIndices                         // level 7: a 10-bit index per changed cube
	EncodeRelativeIndices                 // levels 8-11: steps between changed indices
	EncodeCoded                           // levels 12-13: range-coded changed decisions

	// NumEncodings counts the encodings.
	NumEncodings = iota
)

var snapshotEncodingNames = [NumEncodings]string{"all cubes", "nothing changed", "changed bits", "indices", "relative indices", "range coded"}

// String names the encoding for the HUD.
func (e Encoding) String() string {
	if int(e) < NumEncodings {
		return snapshotEncodingNames[e]
	}
	return "unknown"
}

// Baselines finds the baseline of a delta-encoded packet.
type Baselines interface {
	// SnapshotBaseline returns the cubes of the initial state (initial
	// true) or of the snapshot with sequence seq, in the quantized form of
	// levels 5-11, or nil when it is not held. The packet only reads them.
	SnapshotBaseline(initial bool, seq uint16) []Cube
}

// PacketStats counts what one Serialize pass carried.
type PacketStats struct {
	Encoding     Encoding
	Changed      int // cubes carried (all of them at levels 1-5)
	Indices      int // indices sent (index encodings only)
	Positions    int // positions sent, absolute or delta
	Orientations int // orientations sent, absolute or delta
	Predicted    int // changed cubes delta-encoded against a prediction
	Motion       int // changed cubes coded against their own motion (level 13)
}

// Packet is one snapshot on the wire.
type Packet struct {
	Level Level
	// Initial: encoded against the initial state both sides know (before
	// the sender has any ack). Otherwise Baseline is the sequence of the
	// acked snapshot it is encoded against. Delta levels only.
	Initial  bool
	Baseline uint16
	// UseIndices: name the changed cubes by (relative) index rather than
	// with one bit per cube. Levels 7-11; ChooseEncoding sets it.
	UseIndices bool
	// Predict: cubes near the player are delta-encoded against their
	// player-relative prediction (predict.go), not the baseline.
	// Levels 9-13, where deltas are sent; a header bit.
	Predict bool
	// AllVelocities (level 3): no cube carries the at-rest bit, every cube
	// sends its velocity (Config.AtRestFlag off: the original compression
	// demo's mode 3). A header bit, sent as "cubes carry the at-rest bit".
	AllVelocities bool

	// Sequence is the session's sequence of this packet (its frame), which
	// the session writes before the packet: the owner sets it on both
	// sides before Serialize. Level 13 extrapolates from the baseline to it.
	Sequence uint16
	// Motion (level 13): the cubes that moved between an older acked
	// snapshot, MotionSpan frames before the baseline, and the baseline
	// are predicted along that motion (entropy.go). Header fields.
	Motion     bool
	MotionSpan uint8
	// Carried (levels 12-13, not against the initial state): the coder's
	// models start where the baseline's own packet ended instead of fresh
	// (entropy.go). A header bit: a receiver that does not hold those
	// models refuses the packet instead of decoding garbage.
	Carried bool

	// Cubes is the snapshot, one entry per cube of the world. To read, give
	// a slice of the right length; it is overwritten.
	Cubes []Cube
	// Sent, if not nil (same length as Cubes), is set per cube: whether
	// the packet carried it (false for a cube copied from the baseline).
	Sent []bool
	// Baselines finds the baseline at delta levels.
	Baselines Baselines

	// Stats describe the last Serialize pass.
	Stats PacketStats

	pred  snapPredictor
	pred2 snapPredictor
	ent   *entropyState // levels 12-13, allocated on first use
	// fits, when set (the sender), are the player prediction's
	// corrections fitted this tick for any packet with the same
	// baseline, shared by the clients' instances (codeCorrection).
	fits *fitShare
	// traces: the decisions of the packets coded this tick, shared by the
	// clients' instances (trace.go); nil: decide every packet.
	traces *traceShare
	// reuse: the next writing Serialize of a level 12-13 packet may send
	// the payload its last pass coded, if the header is the same. Only
	// the sender sets it, between measuring the packet and writing it,
	// the packet unchanged (snapshotSender.send).
	reuse bool
}

// Serialize writes, reads or measures the packet (the layout and the
// function writing each part are in the map at the top of this file).
func (p *Packet) Serialize(s wire.Stream) error {
	p.Stats = PacketStats{}
	n := len(p.Cubes)
	if n < 1 || n > MaxCubes || (p.Sent != nil && len(p.Sent) != n) {
		return s.Fail(ErrSize)
	}
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeInt(s, &p.Level, MinLevel, MaxLevel); err != nil {
		return err
	}
	if !p.Level.IsDelta() {
		return p.serializeAbsolute(s)
	}
	if s.IsReading() {
		p.AllVelocities = false
	}
	base, err := p.serializeBaseline(s)
	if err != nil {
		return err
	}
	if p.Level < ChangedIndices {
		if s.IsReading() {
			p.UseIndices = false
		}
		return p.serializeChangedBits(s, base)
	}

	// The any-changed bit: when every cube is at rest the packet is its
	// header and nothing else.
	anyChanged := !s.IsReading() && p.anyChanged(base)
	if err := wire.SerializeBool(s, &anyChanged); err != nil {
		return err
	}
	if !anyChanged {
		p.Stats.Encoding = EncodeNothingChanged
		if p.ent != nil {
			p.ent.coded = false // nothing coded: no models to keep
		}
		if s.IsReading() {
			copy(p.Cubes, base)
			p.UseIndices = false
		}
		p.markSent(false)
		return nil
	}
	if p.Level.IsCoded() {
		return p.serializeCodedHeader(s, base)
	}
	if err := wire.SerializeBool(s, &p.UseIndices); err != nil {
		return err
	}
	if !p.UseIndices {
		return p.serializeChangedBits(s, base)
	}
	count := p.countChanged(s, base)
	if err := wire.SerializeInt(s, &count, 1, int32(n)); err != nil {
		return err
	}
	return p.serializeIndexedCubes(s, base, count)
}

// serializeAbsolute is levels 1-5: every cube, absolute, in index order.
func (p *Packet) serializeAbsolute(s wire.Stream) error {
	n := len(p.Cubes)
	p.Stats = PacketStats{Encoding: EncodeAll, Changed: n, Positions: n, Orientations: n}
	if s.IsReading() {
		p.Initial, p.Baseline, p.UseIndices, p.Predict = false, 0, false, false
	}
	restFlag := !p.AllVelocities
	if p.Level == BoundedVelocity {
		if err := wire.SerializeBool(s, &restFlag); err != nil {
			return err
		}
	}
	if s.IsReading() {
		p.AllVelocities = p.Level == BoundedVelocity && !restFlag
	}
	for i := range p.Cubes {
		if err := serializeAbsoluteCube(s, p.Level, restFlag, &p.Cubes[i]); err != nil {
			return err
		}
	}
	p.markSent(true)
	return nil
}

// serializeBaseline is the header of levels 6-13 that names the baseline
// (initial bit, then the baseline's sequence, or at levels 12-13 its age)
// and the predict bit (levels 9-13). It returns the baseline's cubes, or
// fails when the store does not hold them.
func (p *Packet) serializeBaseline(s wire.Stream) ([]Cube, error) {
	if err := wire.SerializeBool(s, &p.Initial); err != nil {
		return nil, err
	}
	switch {
	case p.Initial:
		p.Baseline = 0
	case p.Level.IsCoded():
		if err := p.serializeBaselineAge(s); err != nil {
			return nil, err
		}
	default:
		if err := wire.SerializeUint16(s, &p.Baseline); err != nil {
			return nil, err
		}
	}
	if p.Level >= DeltaPosition {
		if err := wire.SerializeBool(s, &p.Predict); err != nil {
			return nil, err
		}
	} else {
		p.Predict = false
	}
	p.pred.ready = false
	p.pred2.ready = false
	if p.Baselines == nil {
		return nil, s.Fail(ErrNoBaseline)
	}
	base := p.Baselines.SnapshotBaseline(p.Initial, p.Baseline)
	if base == nil {
		return nil, s.Fail(ErrNoBaseline)
	}
	if len(base) != len(p.Cubes) {
		return nil, s.Fail(ErrSize)
	}
	return base, nil
}

// anyChanged is whether a cube differs from its baseline: the writer's
// any-changed bit. It stops at the first one, where countChanged would
// compare all 901 (a server does this for every client's packet).
func (p *Packet) anyChanged(base []Cube) bool {
	for i := range p.Cubes {
		if !p.Cubes[i].sameState(&base[i]) {
			return true
		}
	}
	return false
}

// countChanged is, for the writer, how many cubes differ from their
// baseline (0 on read: the reader learns it from the packet).
func (p *Packet) countChanged(s wire.Stream, base []Cube) int32 {
	var count int32
	if !s.IsReading() {
		for i := range p.Cubes {
			if !p.Cubes[i].sameState(&base[i]) {
				count++
			}
		}
	}
	return count
}

// serializeChangedBits names the changed cubes with one bit per cube
// (levels 6-11), each changed cube following its bit.
func (p *Packet) serializeChangedBits(s wire.Stream, base []Cube) error {
	p.Stats.Encoding = EncodeChangedBits
	for i := range p.Cubes {
		changed := false
		if !s.IsReading() {
			changed = !p.Cubes[i].sameState(&base[i])
		}
		s.SetCategory(wire.CategoryFlags)
		if err := wire.SerializeBool(s, &changed); err != nil {
			return err
		}
		if p.Sent != nil {
			p.Sent[i] = changed
		}
		if !changed {
			if s.IsReading() {
				p.Cubes[i] = base[i]
			}
			continue
		}
		p.Stats.Changed++
		if err := p.serializeCube(s, i, base); err != nil {
			return err
		}
	}
	return nil
}

// serializeIndexedCubes names the count changed cubes by index (level 7:
// 10 bits each) or by step from the previous index (levels 8-11,
// serializeRelativeIndex), each changed cube following its index.
func (p *Packet) serializeIndexedCubes(s wire.Stream, base []Cube, count int32) error {
	n := len(p.Cubes)
	p.Stats.Encoding = EncodeIndices
	if p.Level >= RelativeIndices {
		p.Stats.Encoding = EncodeRelativeIndices
	}
	if s.IsReading() {
		copy(p.Cubes, base)
	}
	p.markSent(false)
	prev := int32(-1)
	next := 0 // writer: where to look for the next changed cube
	for k := int32(0); k < count; k++ {
		var idx int32
		if !s.IsReading() {
			for next < n && p.Cubes[next].sameState(&base[next]) {
				next++
			}
			idx = int32(next)
			next++
		}
		s.SetCategory(wire.CategoryIndices)
		if p.Level == ChangedIndices {
			if err := wire.SerializeInt(s, &idx, 0, int32(n-1)); err != nil {
				return err
			}
			if idx <= prev {
				// Indices are sent in increasing order; anything else
				// is not a packet this encoder wrote.
				return s.Fail(wire.ErrValueOutOfRange)
			}
		} else if err := serializeRelativeIndex(s, prev, &idx, int32(n)); err != nil {
			return err
		}
		p.Stats.Indices++
		p.Stats.Changed++
		if p.Sent != nil {
			p.Sent[idx] = true
		}
		if err := p.serializeCube(s, int(idx), base); err != nil {
			return err
		}
		prev = idx
	}
	return nil
}

// serializeBaselineAge sends the baseline of a level 12-13 packet as its
// age, Sequence − Baseline (mod 2^16), in an Elias-gamma code of age + 1: k
// zeros, a one, then the k bits below the leading one (2k + 1 bits; 5 for
// the challenge's age of 6, 7 for the 13 frames of the intercontinental
// round trip), where levels 6-11 send the 16-bit sequence. The packet's
// own sequence goes before it on the wire anyway (the session writes it),
// and a baseline is always recent, so its age is the short way to name
// it. That brings the level 12-13 header to 13 bits, under two bytes: one
// byte per packet less than 24 bits, since the range-coded payload is
// whole bytes.
func (p *Packet) serializeBaselineAge(s wire.Stream) error {
	v := uint32(p.Sequence-p.Baseline) + 1 // 1..65536
	k := 0
	if !s.IsReading() {
		k = bits.Len32(v) - 1
	}
	for j := 0; ; j++ {
		one := j == k
		if err := wire.SerializeBool(s, &one); err != nil {
			return err
		}
		if one {
			k = j
			break
		}
		if j == 16 {
			return s.Fail(wire.ErrValueOutOfRange) // no age needs 17 bits
		}
	}
	low := v & (1<<uint(k) - 1)
	if k > 0 {
		if err := wire.SerializeBits(s, &low, k); err != nil {
			return err
		}
	}
	v = 1<<uint(k) | low
	if v > 1<<16 {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	p.Baseline = p.Sequence - uint16(v-1)
	return nil
}

// serializeCube sends changed cube i against its baseline, or against its
// prediction when the packet predicts. Cubes go in increasing index order,
// so when cube i > 0 is sent the player (cube 0) is final on both sides:
// decoded already, or copied from the baseline.
func (p *Packet) serializeCube(s wire.Stream, i int, base []Cube) error {
	ref := &base[i]
	var pred Cube
	if p.Predict && i > 0 {
		if !p.pred.ready {
			p.pred.setup(&base[0], &p.Cubes[0])
		}
		if p.pred.predict(&base[i], &pred) {
			ref = &pred
			p.Stats.Predicted++
		}
	}
	return serializeDeltaCube(s, p.Level, &p.Cubes[i], &base[i], ref, &p.Stats)
}

// serializeCodedHeader is the rest of a level 12 or 13 header (level 13's
// older baseline) and the coded cubes.
func (p *Packet) serializeCodedHeader(s wire.Stream, base []Cube) error {
	if s.IsReading() {
		p.UseIndices = false
	}
	if p.Initial {
		p.Carried = false
	} else if err := wire.SerializeBool(s, &p.Carried); err != nil {
		return err
	}
	if p.Level < MotionPredicted || p.Initial {
		p.Motion, p.MotionSpan = false, 0
	}
	// Level 13's older baseline (Motion, MotionSpan) is coded inside the
	// range-coded payload (serializeCoded), not here.
	return p.serializeCoded(s, base)
}

func (p *Packet) markSent(v bool) {
	for i := range p.Sent {
		p.Sent[i] = v
	}
}

// ChooseEncoding picks, at levels 7-11, whichever of changed bits and
// (relative) indices makes the smaller packet, by measuring both with m, as
// the article does ("run through a mock encoding ... if the number of bits
// required is larger than 901, fallback to changed bits"). It returns the
// packet's size in bits; afterwards m holds the measurement of the chosen
// encoding (its wire.Breakdown is the packet's).
func (p *Packet) ChooseEncoding(m *wire.MeasureStream) (int, error) {
	p.UseIndices = false
	m.Reset()
	if err := p.Serialize(m); err != nil {
		return 0, err
	}
	bitsChanged := m.BitsProcessed()
	if p.Level < ChangedIndices || p.Level.IsCoded() || p.Stats.Encoding == EncodeNothingChanged {
		return bitsChanged, nil
	}
	p.UseIndices = true
	m.Reset()
	if err := p.Serialize(m); err != nil {
		return 0, err
	}
	if bits := m.BitsProcessed(); bits < bitsChanged {
		return bits, nil
	}
	p.UseIndices = false
	m.Reset()
	if err := p.Serialize(m); err != nil {
		return 0, err
	}
	return m.BitsProcessed(), nil
}
