package net

// Design note: the snapshot packet. One Serialize method writes, reads and
// measures every level (see the layout in snapshot.go). At the delta levels
// the packet needs its baseline on both sides: the writer to compare each
// cube with it, the reader to rebuild unchanged cubes and to add deltas to.
// The baseline is only known to the reader once it has read the header, so
// the packet asks a SnapshotBaselines (the sender's or the receiver's store
// of snapshots) for it in the middle of Serialize, on both sides alike.
//
// Which cubes changed is never sent as a list the reader must size: the
// reader fills the Cubes slice its owner gave it (one per cube of the world,
// known to both sides), and a count read from the packet is checked against
// that length before it is used. Decoding never allocates.

// SnapshotEncoding says how a packet names the cubes it carries.
type SnapshotEncoding uint8

// The encodings, from the levels that use them.
const (
	EncodeAll             SnapshotEncoding = iota // levels 1-5: every cube, in order
	EncodeNothingChanged                          // levels 7-11: no cube differs from the baseline
	EncodeChangedBits                             // levels 6-11: one changed bit per cube
	EncodeIndices                                 // level 7: a 10-bit index per changed cube
	EncodeRelativeIndices                         // levels 8-11: steps between changed indices

	// NumSnapshotEncodings counts the encodings.
	NumSnapshotEncodings = iota
)

var snapshotEncodingNames = [NumSnapshotEncodings]string{"all cubes", "nothing changed", "changed bits", "indices", "relative indices"}

// String names the encoding for the HUD.
func (e SnapshotEncoding) String() string {
	if int(e) < NumSnapshotEncodings {
		return snapshotEncodingNames[e]
	}
	return "unknown"
}

// SnapshotBaselines finds the baseline of a delta-encoded packet.
type SnapshotBaselines interface {
	// SnapshotBaseline returns the cubes of the initial state (initial
	// true) or of the snapshot with sequence seq, in the quantized form of
	// levels 5-11, or nil when it is not held. The packet only reads them.
	SnapshotBaseline(initial bool, seq uint16) []SnapshotCube
}

// SnapshotPacketStats counts what one Serialize pass carried.
type SnapshotPacketStats struct {
	Encoding     SnapshotEncoding
	Changed      int // cubes carried (all of them at levels 1-5)
	Indices      int // indices sent (index encodings only)
	Positions    int // positions sent, absolute or delta
	Orientations int // orientations sent, absolute or delta
	Predicted    int // changed cubes delta-encoded against a prediction
}

// SnapshotPacket is one snapshot on the wire.
type SnapshotPacket struct {
	Level SnapshotLevel
	// Initial: encoded against the initial state both sides know (before
	// the sender has any ack). Otherwise Baseline is the sequence of the
	// acked snapshot it is encoded against. Delta levels only.
	Initial  bool
	Baseline uint16
	// UseIndices: name the changed cubes by (relative) index rather than
	// with one bit per cube. Levels 7-11; ChooseEncoding sets it.
	UseIndices bool
	// Predict: cubes near the player are delta-encoded against their
	// player-relative prediction (snapshot_predict.go), not the baseline.
	// Levels 9-11, where deltas are sent; a header bit.
	Predict bool

	// Cubes is the snapshot, one entry per cube of the world. To read, give
	// a slice of the right length; it is overwritten.
	Cubes []SnapshotCube
	// Sent, if not nil (same length as Cubes), is set per cube: whether
	// the packet carried it (false for a cube copied from the baseline).
	Sent []bool
	// Baselines finds the baseline at delta levels.
	Baselines SnapshotBaselines

	// Stats describe the last Serialize pass.
	Stats SnapshotPacketStats

	pred snapPredictor
}

// Serialize writes, reads or measures the packet.
func (p *SnapshotPacket) Serialize(s Stream) error {
	p.Stats = SnapshotPacketStats{}
	n := len(p.Cubes)
	if n < 1 || n > MaxSnapshotCubes || (p.Sent != nil && len(p.Sent) != n) {
		return s.Fail(ErrSnapshotSize)
	}
	s.SetCategory(CategoryHeader)
	if err := SerializeInt(s, &p.Level, MinSnapshotLevel, MaxSnapshotLevel); err != nil {
		return err
	}
	if !p.Level.IsDelta() {
		p.Stats = SnapshotPacketStats{Encoding: EncodeAll, Changed: n, Positions: n, Orientations: n}
		if s.IsReading() {
			p.Initial, p.Baseline, p.UseIndices, p.Predict = false, 0, false, false
		}
		for i := range p.Cubes {
			if err := serializeAbsoluteCube(s, p.Level, &p.Cubes[i]); err != nil {
				return err
			}
		}
		p.markSent(true)
		return nil
	}

	if err := SerializeBool(s, &p.Initial); err != nil {
		return err
	}
	if p.Initial {
		p.Baseline = 0
	} else if err := SerializeUint16(s, &p.Baseline); err != nil {
		return err
	}
	if p.Level >= SnapshotDeltaPosition {
		if err := SerializeBool(s, &p.Predict); err != nil {
			return err
		}
	} else {
		p.Predict = false
	}
	p.pred.ready = false
	if p.Baselines == nil {
		return s.Fail(ErrNoBaseline)
	}
	base := p.Baselines.SnapshotBaseline(p.Initial, p.Baseline)
	if base == nil {
		return s.Fail(ErrNoBaseline)
	}
	if len(base) != n {
		return s.Fail(ErrSnapshotSize)
	}

	var count int32
	if !s.IsReading() {
		for i := range p.Cubes {
			if !p.Cubes[i].sameState(&base[i]) {
				count++
			}
		}
	}
	indices := false
	if p.Level >= SnapshotChangedIndices {
		// The any-changed bit: when every cube is at rest the packet is
		// its header and nothing else.
		anyChanged := count > 0
		if err := SerializeBool(s, &anyChanged); err != nil {
			return err
		}
		if !anyChanged {
			p.Stats.Encoding = EncodeNothingChanged
			if s.IsReading() {
				copy(p.Cubes, base)
				p.UseIndices = false
			}
			p.markSent(false)
			return nil
		}
		if err := SerializeBool(s, &p.UseIndices); err != nil {
			return err
		}
		indices = p.UseIndices
		if indices {
			if err := SerializeInt(s, &count, 1, int32(n)); err != nil {
				return err
			}
		}
	} else if s.IsReading() {
		p.UseIndices = false
	}

	if !indices {
		p.Stats.Encoding = EncodeChangedBits
		for i := range p.Cubes {
			changed := false
			if !s.IsReading() {
				changed = !p.Cubes[i].sameState(&base[i])
			}
			s.SetCategory(CategoryFlags)
			if err := SerializeBool(s, &changed); err != nil {
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

	p.Stats.Encoding = EncodeIndices
	if p.Level >= SnapshotRelativeIndices {
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
		s.SetCategory(CategoryIndices)
		if p.Level == SnapshotChangedIndices {
			if err := SerializeInt(s, &idx, 0, int32(n-1)); err != nil {
				return err
			}
			if idx <= prev {
				// Indices are sent in increasing order; anything else
				// is not a packet this encoder wrote.
				return s.Fail(ErrValueOutOfRange)
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

// serializeCube sends changed cube i against its baseline, or against its
// prediction when the packet predicts. Cubes go in increasing index order,
// so when cube i > 0 is sent the player (cube 0) is final on both sides:
// decoded already, or copied from the baseline.
func (p *SnapshotPacket) serializeCube(s Stream, i int, base []SnapshotCube) error {
	ref := &base[i]
	var pred SnapshotCube
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

func (p *SnapshotPacket) markSent(v bool) {
	for i := range p.Sent {
		p.Sent[i] = v
	}
}

// ChooseEncoding picks, at levels 7-11, whichever of changed bits and
// (relative) indices makes the smaller packet, by measuring both with m, as
// the article does ("run through a mock encoding ... if the number of bits
// required is larger than 901, fallback to changed bits"). It returns the
// packet's size in bits; afterwards m holds the measurement of the chosen
// encoding (its Breakdown is the packet's).
func (p *SnapshotPacket) ChooseEncoding(m *MeasureStream) (int, error) {
	p.UseIndices = false
	m.Reset()
	if err := p.Serialize(m); err != nil {
		return 0, err
	}
	bitsChanged := m.BitsProcessed()
	if p.Level < SnapshotChangedIndices || p.Stats.Encoding == EncodeNothingChanged {
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
