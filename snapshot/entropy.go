package snapshot

import (
	"sync"
	"unsafe"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
	"netcubes/wire"
	"netcubes/wire/arith"
)

// Levels 12 and 13, beyond the article: level 11's decisions (which cubes
// changed, their flags, the position and orientation residuals against a
// reference) range-coded with adaptive probabilities (wire/arith), each
// chosen by a context both sides know, so that a likely decision costs a
// fraction of a bit; level 13 adds a reference extrapolated along each
// cube's motion between two acked baselines. A context or a prediction
// uses only what the decoder holds when it meets the decision (the
// baselines, the cubes decoded before), so it costs nothing to send.
// A packet's models start where its baseline's packet ended (Carried):
// the receiver decoded that packet, so it holds them, and a packet never
// depends on one the receiver may have lost. The coded bytes cannot be cut
// into fields, so each category is charged its share of the payload by
// information content (serializePayload).
//
// The payload's order and each cube's phases: codeCubes. Why each context
// and constant, and what was tried and measured with the figures:
// docs/design/entropy-coding.md.

// MotionSpanFor is how far before the baseline level 13's older baseline
// should be, at least, for a baseline age frames old: a third of the age
// (two frames in the challenge layout, four or five on the
// intercontinental link). A longer span measures a velocity with less
// quantization noise, a shorter one a fresher velocity; the fresher wins,
// down to about a third of the age (docs/design/entropy-coding.md).
func MotionSpanFor(age int) int { return max(1, age/3) }

// modelSource is implemented by the baseline stores that also keep, per
// snapshot sent or received at level 12 or 13, the models its packet's
// coding ended with: the start of a packet that names it as baseline and
// sets Carried.
type modelSource interface {
	// snapshotModels returns the models snapshot seq's packet ended with,
	// or nil when they are not held.
	snapshotModels(seq uint16) *entropyModels
}

// models returns the models the last coded Serialize ended with (nil
// before any coded pass): what a store keeps for a snapshot so that a
// later packet against it can carry them on (keepModels, which takes
// them).
func (p *Packet) models() *entropyModels {
	if p.ent == nil {
		return nil
	}
	return p.ent.models
}

// Context model sizes.
const (
	refStatic = iota // the baseline itself
	refMotion        // extrapolated from two baselines (level 13)
	refPlayer        // player-relative prediction (F)
	numRefKinds

	// changedContexts: prev changed × interacting × near × moved, + player.
	changedContexts = 16 + 1
	playerContext   = 16

	// MaxMotionSpan bounds the older baseline's age relative to the
	// baseline, and the extrapolation's length, in frames (8 bits).
	MaxMotionSpan = 255
)

// entropyModels is every adaptive probability of one packet.
type entropyModels struct {
	changed     [changedContexts]arith.Prob
	changedB    [numMemClasses * 2]arith.Prob // by memory class and previous cube changed
	changedC    [24]arith.Prob
	changedMix  [changedContexts]arith.Mixer // mixing changed and changedB
	interacting [numRefKinds][2]arith.Prob
	posChanged  [numRefKinds][2]arith.Prob
	rotChanged  [numRefKinds][4]arith.Prob
	sameLargest [numRefKinds][numMagClasses][3]arith.Prob
	largest     [4][3][4]arith.Prob // by the reference's largest index and largest small component
	pos         [numRefKinds][3][numMagClasses]arith.Golomb
	rot         [numRefKinds][3][numMagClasses]arith.Golomb
	// rotSwap: residuals of an orientation whose largest component is not
	// the reference's, against the reference re-expressed around it.
	rotSwap    [3][numMagClasses]arith.Golomb
	rotSwapB   [3][numMixClasses]arith.Golomb
	rotSwapMix [3]arith.GolombMixers
	// motion, span: level 13's older baseline (codeMotion).
	motion arith.Prob
	span   [256]arith.Prob
	// corr: the player prediction's correction (rotation, then shift).
	corr [6]arith.Golomb
	// posH, rotH: the residuals of player-predicted cubes at level 13,
	// by component, history class and size class (see codeCubes).
	posH [3][numHistClasses][numMagClasses]arith.Golomb
	rotH [3][numHistClasses][numMagClasses]arith.Golomb
	// posB, rotB: the second model of the same residuals (see "Mixing" in
	// docs/design/entropy-coding.md), by component and mixClass, mixed
	// with posH, rotH by posMix, rotMix; posK, rotK and posKMix, rotKMix
	// the same for the other kinds' models pos, rot.
	posB    [3][numMixClasses]arith.Golomb
	rotB    [3][numMixClasses]arith.Golomb
	posMix  [3]arith.GolombMixers
	rotMix  [3]arith.GolombMixers
	posK    [numRefKinds][3][numMixClasses]arith.Golomb
	rotK    [numRefKinds][3][numMixClasses]arith.Golomb
	posKMix [numRefKinds][3]arith.GolombMixers
	rotKMix [numRefKinds][3]arith.GolombMixers
	// mem: per cube, magClass+1 of the largest residual this packet
	// coded for it (0: not changed). Carried with the models, the next
	// packet against this one reads it: the cube's residual size six
	// frames ago, something the receiver holds.
	mem [MaxCubes]uint8
	// posC, rotC (player-predicted cubes) and posKC, rotKC (the others):
	// the third models (residualContexts), by component, context and
	// whether the size class is below 3.
	posC  [3][numC][2]arith.GolombContext
	posKC [3][numKC][2]arith.GolombContext
	rotKC [3][numKC][2]arith.GolombContext
	rotC  [3][numC][2]arith.GolombContext
	// turn: level 14's fit of how far a ball cube turns with its
	// position's miss (a decayedFit), by distance class.
	turn [numTurnClasses]decayedFit
	// rotT, posT: level 14's second models of a ball cube's residuals
	// (in place of rotB, posB): the orientation's by component and the
	// size of its position's miss (slideClass), the position's by
	// component, memory class and its neighbours' mean miss, finer
	// (nbrClass).
	rotT [3][numSlideClasses]arith.Golomb
	posT [3][numMemClasses * numNbrClasses]arith.Golomb
	// share: level 14's fit of how much of its neighbours' mean miss a
	// predicted cube shares (a decayedFit), by kind and neighbour count.
	share [numShareClasses]decayedFit
	// clean (the sender, lend.go): a bit a line of these models, set
	// when the line is known to hold its values after reset, so that a
	// copy between two models can pass over the lines both hold so.
	// Never set for the lines of clean itself.
	clean [cleanWords]uint64
}

// The third models' contexts (residualContexts): for a player-predicted
// cube its distance from the player (5) × above, level with or below it
// (3) × ahead of or behind the player's motion (2); for the others its
// distance (5) × height (3) × rose, fell or neither (3).
const (
	numC  = 5 * 3 * 2
	numKC = 5 * 3 * 3
)

// The second model's context (mixClass): the cube's memory class (3) ×
// its neighbours' mean residual (none coded before it, under 6 grid
// units, 6 or more: 3).
const (
	numMemClasses = 3
	numMixClasses = numMemClasses * 3
	// nbrLarge is the neighbours' mean residual, in grid units, from
	// which it counts as large.
	nbrLarge = 6
)

// memClass buckets a cube's memory (mem): not changed in the baseline's
// packet, a largest residual under 8 (magClass+1 ≤ 4), or larger.
func memClass(v int) int {
	switch {
	case v == 0:
		return 0
	case v <= 4:
		return 1
	}
	return 2
}

// looseCarry is the history residual (grid units or smallest-three steps)
// from which a player-predicted cube is coded against its own motion
// instead: it is not riding in the ball (the best of 20 to 64 measured).
const looseCarry = 32

// numHistClasses is how many classes histClass has: split finer, the
// models learn slower (three beat four and five).
const numHistClasses = 3

// histClass buckets the largest residual, in grid units or smallest-three
// steps, of the player prediction from the older baseline to the baseline.
func histClass(d int64) int {
	switch {
	case d < 5:
		return 0
	case d < 12:
		return 1
	}
	return 2
}

func (m *entropyModels) reset() {
	m.motion = arith.ProbInit
	for c := range m.turn {
		m.turn[c].reset(turnPriorWeight*turnScale*turnScale, turnPrior, 16)
	}
	for c := range m.share {
		m.share[c].reset(sharePriorWeight*shareScale*shareScale, sharePrior, 64)
	}
	clear(m.mem[:])
	arith.ResetProbs(m.span[:])
	arith.ResetProbs(m.changed[:])
	arith.ResetProbs(m.changedB[:])
	arith.ResetProbs(m.changedC[:])
	arith.ResetMixers(m.changedMix[:])
	for k := range m.interacting {
		arith.ResetProbs(m.interacting[k][:])
	}
	for k := range m.posChanged {
		arith.ResetProbs(m.posChanged[k][:])
		arith.ResetProbs(m.rotChanged[k][:])
	}
	for k := range m.sameLargest {
		for z := range m.sameLargest[k] {
			arith.ResetProbs(m.sameLargest[k][z][:])
		}
	}
	for k := range m.largest {
		for z := range m.largest[k] {
			arith.ResetProbs(m.largest[k][z][:])
		}
	}
	for c := range m.rotSwapB {
		m.rotSwapMix[c].Reset()
		for z := range m.rotSwapB[c] {
			m.rotSwapB[c][z].Reset()
		}
	}
	for c := range m.rotSwap {
		for z := range m.rotSwap[c] {
			m.rotSwap[c][z].Reset()
		}
	}
	for c := range m.corr {
		m.corr[c].Reset()
	}
	for k := range m.posK {
		for c := range m.posK[k] {
			m.posKMix[k][c].Reset()
			m.rotKMix[k][c].Reset()
			for h := range m.posK[k][c] {
				m.posK[k][c][h].Reset()
				m.rotK[k][c][h].Reset()
			}
		}
	}
	for c := range m.posKC {
		for h := range m.posKC[c] {
			for z := range m.posKC[c][h] {
				m.posKC[c][h][z].Reset()
				m.rotKC[c][h][z].Reset()
			}
		}
	}
	for c := range m.posC {
		for h := range m.posC[c] {
			for z := range m.posC[c][h] {
				m.posC[c][h][z].Reset()
				m.rotC[c][h][z].Reset()
			}
		}
	}
	for c := range m.posB {
		m.posMix[c].Reset()
		m.rotMix[c].Reset()
		for h := range m.posB[c] {
			m.posB[c][h].Reset()
			m.rotB[c][h].Reset()
		}
	}
	for c := range m.rotT {
		for h := range m.rotT[c] {
			m.rotT[c][h].Reset()
		}
		for h := range m.posT[c] {
			m.posT[c][h].Reset()
		}
	}
	for c := range m.posH {
		for h := range m.posH[c] {
			for z := range m.posH[c][h] {
				m.posH[c][h][z].Reset()
				m.rotH[c][h][z].Reset()
			}
		}
	}
	for k := range m.pos {
		for c := range m.pos[k] {
			for z := range m.pos[k][c] {
				m.pos[k][c][z].Reset()
				m.rot[k][c][z].Reset()
			}
		}
	}
	m.clean = cleanAfterReset
}

// entropyState is a packet's coder, allocated on its first coded
// Serialize and reused after: coding never allocates once warm.
type entropyState struct {
	enc     arith.Encoder
	dec     arith.Decoder
	reading bool
	// models are the packet's, coded in place: copied from the baseline's
	// (or reset) at the start of a pass. keepModels hands them to the
	// snapshot's entry rather than copying 316 kB again, and takes the
	// entry's old storage in exchange.
	models *entropyModels
	// coded: models hold the end of a complete coding pass of this
	// packet (false after a pass that coded nothing, or once keepModels
	// took them).
	coded bool
	// last is the last complete writing pass, which a write that
	// follows a measure of the same packet sends again (Packet.reuse).
	last codedPass
	buf  []byte // encoder output
	peek []byte // reader's copy of the payload
	bad  bool   // a decoded value no encoder writes
	// turn: level 14's orientation turned by the position's miss
	// (turnWithMiss); tw, the cube being coded's turn.
	turn bool
	tw   turnWork
	// unary: the residual being coded has its class in unary (level 14's
	// ball cubes and swapped orientations: golombMix3).
	unary bool
	// order: level 14's coding order (codeCubes14).
	order cubeOrder
	fit   correctionFit
	// The cubes coded so far in this packet against a prediction, for
	// the neighbour correction: baseline position, kind, residual.
	nbrN    int
	nbrPos  [MaxCubes]wire.QuantizedVec3
	nbrKind [MaxCubes]uint8
	nbrRes  [MaxCubes][3]int32
	nbrNext [MaxCubes]int32   // the next entry in the same bucket, +1 (0: none)
	nbrHead [nbrBuckets]int32 // each bucket's last entry, +1 (0: empty)
	// nbrRadius (grid units) and nbrShift (the cells' log2 size):
	// levels 12-13's, or level 14's (codeCubes14).
	nbrRadius int64
	nbrShift  uint
	// rec: the trace this writing pass records (trace.go), nil for none;
	// memClass and memStride: the memory class of the cube being coded
	// and, for the next call only, the stride of its second model by it
	// (0: the model does not depend on it).
	rec       *trace
	memClass  int
	memStride int32
	// dry: the pass records its decisions without coding them
	// (recordPayload); memSave, the baseline's memory meanwhile.
	dry     bool
	memSave [MaxCubes]uint8
	// memOnly: a recorder's models hold only its baseline's memory
	// until its decisions are recorded (startModels, wholeModels).
	memOnly bool
	// lentBy (the sender): the entry whose models were lent to models
	// and which relies on it until keepModels hands it to the new
	// snapshot (lend.go).
	lentBy *Entry
}

func newEntropyState() *entropyState {
	return &entropyState{buf: make([]byte, entropyBufBytes), models: new(entropyModels)}
}

// entropyBufBytes bounds a coded payload: far above the worst case (901
// cubes sent absolute cost about 11 kB even with poorly adapted models).
const entropyBufBytes = 32 * 1024

// bit codes (or decodes and returns) one decision.
func (e *entropyState) bit(p *arith.Prob, v bool) bool {
	if e.reading {
		return e.dec.Decode(p) == 1
	}
	b := 0
	if v {
		b = 1
	}
	if e.rec != nil {
		e.record(opBit, 0, int32(b), unsafe.Pointer(p), nil, nil, nil)
		if e.dry {
			return v
		}
	}
	e.enc.Encode(p, b)
	return v
}

func (e *entropyState) golomb(g *arith.Golomb, v int32) int32 {
	if e.reading {
		got, ok := g.Decode(&e.dec)
		if !ok {
			e.bad = true
		}
		return got
	}
	if e.rec != nil {
		e.record(opGolomb, 0, v, unsafe.Pointer(g), nil, nil, nil)
		if e.dry {
			return v
		}
	}
	g.Encode(&e.enc, v)
	return v
}

// golombMix3 codes v with the mix of g, h and j.
func (e *entropyState) golombMix3(g, h *arith.Golomb, j *arith.GolombContext, mx *arith.GolombMixers, v int32) int32 {
	if e.unary {
		// Level 14 only, which records no traces (trace.go replays
		// the tree's coding).
		return e.golombMix3Unary(g, h, j, mx, v)
	}
	if e.reading {
		got, ok := g.DecodeMix3(&e.dec, h, j, mx)
		if !ok {
			e.bad = true
		}
		return got
	}
	if e.rec != nil {
		var jp unsafe.Pointer
		if j != nil {
			jp = unsafe.Pointer(j)
		}
		e.record(opGolombMix, 0, v, unsafe.Pointer(g), unsafe.Pointer(h), jp, unsafe.Pointer(mx))
		e.memStride = 0
		if e.dry {
			return v
		}
	}
	g.EncodeMix3(&e.enc, h, j, mx, v)
	return v
}

// bitMix3 codes (or decodes and returns) one decision with the mix of
// a, b and c.
func (e *entropyState) bitMix3(a, b, c *arith.Prob, mx *arith.Mixer, v bool) bool {
	if e.reading {
		return e.dec.DecodeMix3(a, b, c, mx) == 1
	}
	if e.rec != nil {
		var cp unsafe.Pointer
		if c != nil {
			cp = unsafe.Pointer(c)
		}
		e.record(opMix, 0, int32(b2i(v)), unsafe.Pointer(a), unsafe.Pointer(b), cp, unsafe.Pointer(mx))
		e.memStride = 0
		if e.dry {
			return v
		}
	}
	e.enc.EncodeMix3(a, b, c, mx, b2i(v))
	return v
}

func (e *entropyState) tree(t []arith.Prob, n int, v uint32) uint32 {
	if e.reading {
		return e.dec.DecodeTree(t, n)
	}
	if e.rec != nil {
		e.record(opTree, uint8(n), int32(v), unsafe.Pointer(&t[0]), nil, nil, nil)
		if e.dry {
			return v
		}
	}
	e.enc.EncodeTree(t, n, v)
	return v
}

func (e *entropyState) tag(c wire.Category) {
	if e.reading {
		e.dec.Tag = int(c)
	} else {
		e.enc.Tag = int(c)
		e.tagOp(c)
	}
}

// motionRef is what level 13 needs to extrapolate: the older baseline and
// the two lengths.
type motionRef struct {
	base2     []Cube // nil: no motion prediction in this packet
	age, span int64
}

// extrapolate returns v1 + (v1 − v2)·age/span rounded half away from zero.
func (m *motionRef) extrapolate(v1, v2 int32) int64 {
	d := (int64(v1) - int64(v2)) * m.age
	h := m.span / 2
	if d < 0 {
		return int64(v1) - (-d+h)/m.span
	}
	return int64(v1) + (d+h)/m.span
}

// zGround and onGround (grid units, 512 per metre): the height of a
// cube's centre when it lies flat on the ground (a 0.4 m cube: 102.4),
// and the height below which it is taken to lie on the ground
// (predictMotion).
const (
	zGround  = 104
	onGround = 135
	jitter   = 6 // grid units or smallest-three steps between the baselines
)

func clamp64(v, lo, hi int64) int32 { return int32(min(max(v, lo), hi)) }

// predictMotion fills out with cube b1 carried along its motion from b2.
//
// Two limits, both physics the receiver knows as well as the sender: a
// cube is not predicted below the ground (its centre rests zGround grid
// units up when it lies flat) unless it already was lower, and a cube
// lying on the ground in both baselines (centre below onGround), or one
// that moved by jitter grid units or steps at most, is predicted where
// it lies, not extrapolated: friction stops a sliding
// cube within the six frames, and most of what such a cube "moves"
// between two baselines two frames apart is jitter of a grid unit or a
// step or two of orientation, which extrapolation would triple.
func (m *motionRef) predictMotion(b1, b2 *Cube, out *Cube) {
	*out = *b1
	if b1.Position[2] < onGround && b2.Position[2] < onGround {
		return
	}
	if maxDiff(b1.Position[:], b2.Position[:]) <= jitter &&
		(b1.Orientation.Largest != b2.Orientation.Largest || maxDiff(b1.Orientation.Small[:], b2.Orientation.Small[:]) <= jitter) {
		return // barely moving: settling, or resting on other cubes
	}
	xyMin, xyMax, zMax := wire.PositionLimits(wire.SnapshotPositionResolution)
	for k := range 3 {
		lo, hi := int64(xyMin), int64(xyMax)
		if k == 2 {
			lo, hi = min(zGround, int64(b1.Position[2])), int64(zMax)
		}
		out.Position[k] = clamp64(m.extrapolate(b1.Position[k], b2.Position[k]), lo, hi)
	}
	// The orientation turns on as it turned: dq, the rotation from b2 to
	// b1 (over span frames), applied age/span more times: n whole times,
	// then the fraction k as the quaternion (w, k·v), normalized with the
	// rest (an angle of 2·atan(k·tan(θ/2)), close to kθ for the small
	// turns of a frame or two). In floats, each product rounded on its
	// own (geom.QuatMul), so both sides agree to the bit. Unlike
	// extrapolating the smallest-three components, it follows a cube whose
	// largest component changed between the baselines.
	if b1.Orientation == b2.Orientation {
		return
	}
	const bits = wire.SnapshotOrientationBits
	q1, q2 := wire.DequantizeQuat(b1.Orientation, bits), wire.DequantizeQuat(b2.Orientation, bits)
	dq := geom.QuatMul(q1, q2.Conjugate())
	if dq.W < 0 {
		dq = mgl64.Quat{W: -dq.W, V: mgl64.Vec3{-dq.V[0], -dq.V[1], -dq.V[2]}}
	}
	n := m.age / m.span
	k := float64(m.age-n*m.span) / float64(m.span)
	r := mgl64.Quat{W: dq.W, V: mgl64.Vec3{float64(dq.V[0] * k), float64(dq.V[1] * k), float64(dq.V[2] * k)}}
	// n is 3 at most from an honest sender (the span is at least a third
	// of the age); 8 bounds what a hostile span can cost.
	for range min(n, 8) {
		r = geom.QuatMul(dq, r)
	}
	out.Orientation = wire.QuantizeQuat(geom.QuatMul(r, q1), bits)
}

// nearPlayer reports whether baseline cube b lies within PredictRadius of
// the player's baseline position (integers, as predict.go tests it).
func nearPlayer(b, player *Cube) bool {
	const r = PredictRadius * wire.SnapshotPositionResolution
	var d2 int64
	for k := range 3 {
		d := int64(b.Position[k]) - int64(player.Position[k])
		d2 += d * d
	}
	return d2 <= int64(r*r)
}

// codeCorrection codes the player prediction's correction (predict.go),
// just after the player's own pose and before any other cube: the encoder
// fits it to the changed cubes the prediction carries, both sides then
// predict every cube with it. It is sent only when the player moved.
func (p *Packet) codeCorrection(e *entropyState, base []Cube) error {
	if !p.pred.ready {
		p.pred.setup(&base[0], &p.Cubes[0])
	}
	if !p.pred.moved {
		return nil
	}
	var c [6]int32
	if !e.reading {
		c = p.fitCorrection(e, base)
	}
	e.tag(wire.CategoryPosition)
	for k := range c {
		c[k] = e.golomb(&e.models.corr[k], c[k])
		if c[k] < -CorrectionMax || c[k] > CorrectionMax {
			return wire.ErrValueOutOfRange
		}
	}
	p.pred.correct(c)
	return nil
}

// codedPass is what a complete writing (or measuring) pass of a level
// 12-13 packet leaves behind: its payload (in entropyState.buf, with the
// encoder's costs), its stats, and the packet's header it was coded for.
type codedPass struct {
	ok      bool
	key     codedKey
	payload []byte
	stats   PacketStats
}

// codedKey is everything of a packet's header a coded payload depends on
// besides the cubes (and the baselines and models the header names).
type codedKey struct {
	level                    Level
	initial                  bool
	baseline, sequence       uint16
	predict, carried, motion bool
	span                     uint8
	cubes                    *Cube
	n                        int
}

func (p *Packet) codedKey() codedKey {
	return codedKey{p.Level, p.Initial, p.Baseline, p.Sequence, p.Predict, p.Carried, p.Motion, p.MotionSpan, &p.Cubes[0], len(p.Cubes)}
}

// reuseCoded writes the payload of the last pass again, when the sender
// said nothing changed since (Packet.reuse) and the header agrees: the
// sender measures a packet (ChooseEncoding) and then writes it, and
// coding it twice was half of a level 12-13 server's work. The models
// already are the pass's end.
func (p *Packet) reuseCoded(s wire.Stream) (bool, error) {
	e := p.ent
	if !p.reuse || s.IsReading() || p.Sent != nil || !e.last.ok || !e.coded || e.last.key != p.codedKey() {
		return false, nil
	}
	p.Stats = e.last.stats
	return true, serializePayload(s, e.last.payload, &e.enc.Costs)
}

// fitCorrection returns the correction the encoder fits (correctionFit),
// or the one fitted already this tick for a packet against the same
// baseline: the fit depends on the baseline's cubes and the snapshot's
// alone (levels 12-13 quantize them alike), so clients that acked the
// same snapshot share it, and it was a fifth of an encoder's work.
func (p *Packet) fitCorrection(e *entropyState, base []Cube) [6]int32 {
	if p.fits == nil {
		return e.fit.fit(&p.pred, base, p.Cubes)
	}
	k := fitKey{p.Sequence, p.Baseline, p.Initial}
	if c, ok := p.fits.find(k); ok {
		return c
	}
	c := e.fit.fit(&p.pred, base, p.Cubes)
	p.fits.add(k, c)
	return c
}

// fitShare holds the corrections fitted this tick, one per baseline the
// clients' packets name (a handful), for the clients' instances sending in
// parallel: a fit is a function of its key's snapshots, so which client
// fits it first changes nothing but who waits.
type fitShare struct {
	mu    sync.Mutex
	seq   uint16 // the tick's snapshot
	fits  []fitted
	found int // fits taken from another client's packet (tests)
}

type fitKey struct {
	seq, baseline uint16
	initial       bool
}

type fitted struct {
	key fitKey
	c   [6]int32
}

// find returns the correction fitted for k this tick, if any.
func (s *fitShare) find(k fitKey) ([6]int32, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.fits {
		if f.key == k {
			s.found++
			return f.c, true
		}
	}
	return [6]int32{}, false
}

// add records the correction fitted for k, forgetting an earlier tick's.
func (s *fitShare) add(k fitKey, c [6]int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k.seq != s.seq {
		s.seq, s.fits = k.seq, s.fits[:0]
	}
	s.fits = append(s.fits, fitted{k, c})
}

// serializeCoded writes, measures or reads the range-coded cubes of a
// level 12 or 13 packet (the header is done), then the payload's bits,
// charged to categories.
func (p *Packet) serializeCoded(s wire.Stream, base []Cube) error {
	if p.ent == nil {
		p.ent = newEntropyState()
	}
	e := p.ent
	if ok, err := p.reuseCoded(s); ok {
		return err
	}
	e.reading = s.IsReading()
	e.bad = false
	e.turn = p.Level >= TurnWithMiss
	e.coded, e.last.ok = false, false
	t, mine := p.claimTrace(e)
	if t != nil && !mine {
		if err := p.replayable(base, t); err != nil {
			return s.Fail(err)
		}
	}
	if err := p.startModels(e, t, mine); err != nil {
		return s.Fail(err)
	}
	var payload []byte
	if e.reading {
		rs, ok := s.(*wire.ReadStream)
		if !ok {
			return s.Fail(wire.ErrInvalidRange) // only the built-in reader can peek
		}
		e.peek = rs.PeekBytes(e.peek)
		payload = e.peek
		e.dec.Reset(payload)
		e.dec.Costs = [arith.NumTags]uint64{}
	} else {
		e.enc.Reset(e.buf)
	}
	p.Stats.Encoding = EncodeCoded
	if err := p.codePayload(e, base, t, mine); err != nil {
		return s.Fail(err)
	}
	var costs *[arith.NumTags]uint64
	if e.reading {
		if e.bad || e.dec.Done() != nil {
			return s.Fail(wire.ErrValueOutOfRange)
		}
		costs = &e.dec.Costs
	} else {
		out, err := e.enc.Finish()
		if err != nil {
			return s.Fail(wire.ErrOverflow)
		}
		payload = out
		costs = &e.enc.Costs
		e.last = codedPass{ok: true, key: p.codedKey(), payload: out, stats: p.Stats}
	}
	e.coded = true
	return serializePayload(s, payload, costs)
}

// claimTrace returns the trace this writing pass replays (mine false) or
// records (mine), nil for none: a sender whose packet another client's
// instance recorded the decisions of this tick replays them (trace.go);
// the first to code a packet records its own for the others. Level 14
// turns each ball cube's predicted orientation by a slope fitted in the
// client's own carried models, so the values it codes differ from client
// to client: its decisions are not shared.
func (p *Packet) claimTrace(e *entropyState) (*trace, bool) {
	if e.reading || p.traces == nil || p.Sent != nil || p.Level >= TurnWithMiss {
		return nil, false
	}
	return p.traces.claim(p.traceKeyOf())
}

// startModels puts the models the pass starts from in e.models: its
// baseline's when it carries them (lent in place to a replay when the
// sender can: lend.go), else fresh ones.
func (p *Packet) startModels(e *entropyState, t *trace, mine bool) error {
	e.memOnly = false // (a pass that failed may have left it)
	ml, lends := p.Baselines.(modelLender)
	if lends {
		ml.reclaim(e)
	}
	if !p.Carried {
		e.models.reset()
		return nil
	}
	if lends {
		if t != nil && !mine && ml.lendModels(p.Baseline, t.lines, e) {
			return nil
		}
		if t != nil && mine && ml.baselineMem(p.Baseline, e.models.mem[:len(p.Cubes)]) {
			// The recorder's decisions read only the cubes' memory:
			// the models are lent or copied once they are recorded
			// and their lines known (recordPayload).
			e.models.unclean(int(unsafe.Offsetof(entropyModels{}.mem)), len(p.Cubes))
			e.memOnly = true
			return nil
		}
		if ml.copyModels(p.Baseline, e.models) {
			return nil
		}
		return ErrNoBaseline
	}
	ms, ok := p.Baselines.(modelSource)
	var m *entropyModels
	if ok {
		m = ms.snapshotModels(p.Baseline)
	}
	if m == nil {
		return ErrNoBaseline
	}
	*e.models = *m
	return nil
}

// codePayload codes (or decodes) the payload's decisions, or replays
// trace t (recorded by another client this tick), or records its own into
// t (mine).
func (p *Packet) codePayload(e *entropyState, base []Cube, t *trace, mine bool) error {
	if t != nil && !mine {
		e.replay(t)
		p.Stats = t.stats
		return nil
	}
	if mine {
		return p.recordPayload(e, base, t)
	}
	return p.decidePayload(e, base)
}

// decidePayload makes (and, unless dry, codes) the payload's decisions.
func (p *Packet) decidePayload(e *entropyState, base []Cube) error {
	if !e.dry {
		// Coding may write any line: none is known clean after it.
		e.models.clean = [cleanWords]uint64{}
	}
	var mr motionRef
	if err := p.codeMotion(e, base, &mr); err != nil {
		return err
	}
	return p.codeCubes(e, base, &mr)
}

// recordPayload records the payload's decisions into t without coding
// them (dry: they do not depend on the models, which is what replaying
// relies on), publishes t, and codes it as the other clients will, with
// the replay's loop. The pass overwrites each cube's memory in the
// models as it goes, which the replay reads (the baseline's): it is
// saved before and put back. A spoilt trace (a model outside the
// packet's) is not published, and the pass codes as it always did.
func (p *Packet) recordPayload(e *entropyState, base []Cube, t *trace) error {
	if err := p.recordDecisions(e, base, t); err != nil {
		return err
	}
	n := len(p.Cubes)
	if t.spoilt {
		if err := p.wholeModels(e, nil); err != nil {
			return err
		}
		return p.decidePayload(e, base)
	}
	t.stats, t.n = p.Stats, n
	p.traces.publish(t)
	if err := p.wholeModels(e, t.lines); err != nil {
		return err
	}
	e.replay(t)
	return nil
}

// recordDecisions is a recorder's dry pass: the payload's decisions
// recorded into t, nothing coded, the models' memory and the coder's tag
// left as they were.
func (p *Packet) recordDecisions(e *entropyState, base []Cube, t *trace) error {
	n := len(p.Cubes)
	copy(e.memSave[:n], e.models.mem[:n])
	tag := e.enc.Tag
	e.rec, e.dry = t, true
	err := p.decidePayload(e, base)
	e.rec, e.dry = nil, false
	if err != nil {
		return err
	}
	copy(t.mem[:n], e.models.mem[:n])
	copy(e.models.mem[:n], e.memSave[:n])
	e.enc.Tag = tag
	return nil
}

// wholeModels gives a recorder that holds only its baseline's memory
// (startModels) the baseline's whole models: lent, when the lines the
// pass may write are known (lines), or copied.
func (p *Packet) wholeModels(e *entropyState, lines []uint16) error {
	if !e.memOnly {
		return nil
	}
	e.memOnly = false
	ml := p.Baselines.(modelLender)
	if lines != nil && ml.lendModels(p.Baseline, lines, e) {
		p.traces.recorderLends.Add(1)
		return nil
	}
	if ml.copyModels(p.Baseline, e.models) {
		return nil
	}
	return ErrNoBaseline
}

// codeMotion codes level 13's older baseline, the first decisions of the
// payload: whether the packet names one (Motion), then how many frames
// before the baseline it is (MotionSpan, an 8-bit tree). They used to be
// nine raw header bits; coded here, with models carried from packet to
// packet like the others, a span that rarely changes costs a fraction of
// a bit, and the rest of the header is 24 bits, three whole bytes. It
// then finds that baseline: a receiver that does not hold it refuses the
// packet.
func (p *Packet) codeMotion(e *entropyState, base []Cube, mr *motionRef) error {
	if p.Level < MotionPredicted || p.Initial {
		return nil
	}
	m := e.models
	e.tag(wire.CategoryHeader)
	p.Motion = e.bit(&m.motion, p.Motion)
	if !p.Motion {
		p.MotionSpan = 0
		return nil
	}
	p.MotionSpan = uint8(e.tree(m.span[:], 8, uint32(p.MotionSpan)))
	if p.MotionSpan < 1 {
		return wire.ErrValueOutOfRange
	}
	age := wire.SequenceDiff(p.Sequence, p.Baseline)
	if age < 1 || age > MaxMotionSpan {
		return wire.ErrValueOutOfRange
	}
	base2 := p.Baselines.SnapshotBaseline(false, p.Baseline-uint16(p.MotionSpan))
	if base2 == nil {
		return ErrNoBaseline
	}
	if len(base2) != len(base) {
		return ErrSize
	}
	*mr = motionRef{base2: base2, age: int64(age), span: int64(p.MotionSpan)}
	return nil
}

// serializePayload sends the coded bytes, LSB-first like every other
// field, cut into one run of bits per category in proportion to the
// categories' information content.
func serializePayload(s wire.Stream, payload []byte, costs *[arith.NumTags]uint64) error {
	total := len(payload) * 8
	var sum uint64
	top := int(wire.CategoryFlags)
	for c := range wire.NumCategories {
		sum += costs[c]
		if costs[c] > costs[top] {
			top = c
		}
	}
	var share [wire.NumCategories]int
	given := 0
	for c := range wire.NumCategories {
		if sum > 0 {
			share[c] = int(uint64(total) * costs[c] / sum)
		}
		given += share[c]
	}
	share[top] += total - given
	off := 0
	for c := range wire.NumCategories {
		s.SetCategory(wire.Category(c))
		for n := share[c]; n > 0; {
			k := min(n, 32)
			var v uint32
			if s.IsWriting() { // read, or measured: the value is not needed
				v = payloadBits(payload, off, k)
			}
			if err := wire.SerializeBits(s, &v, k); err != nil {
				return err
			}
			off += k
			n -= k
		}
	}
	return nil
}

// payloadBits returns the k ≤ 32 bits of payload from bit off on, bit
// off in the lowest place: the bytes they lie in (five at most) are
// gathered at once rather than bit by bit, a server writing every
// client's payload.
func payloadBits(payload []byte, off, k int) uint32 {
	var w uint64
	for i, b := range payload[off/8 : (off+k+7)/8] {
		w |= uint64(b) << (8 * i)
	}
	return uint32(w >> (off % 8) & (1<<k - 1))
}

// codeCubes codes every cube's changed decision and the changed cubes'
// fields, in index order (the player, cube 0, first: the player-relative
// prediction of the others needs its new pose). Each cube goes through
// the same phases, in the order the decoder can follow them (each one
// uses only what the decoder knows by then):
//
//	codeChanged         whether the cube differs from its baseline
//	chooseReference     what it is predicted from: its baseline, its own
//	                    motion (level 13) or the player's (F)
//	codeFieldFlags      interacting, position changed, orientation changed
//	residualContexts    the second and third models' contexts
//	neighbourCorrection the prediction shifted by its neighbours' misses
//	codePosition        the position residual
//	codeOrientation     the orientation residual
//	finishCube          its memory for the next packet; the reader's checks
//
// The player prediction's correction (codeCorrection) goes between cube 0
// and cube 1. Level 14 codes the same phases in another order
// (codeCubes14: every changed decision first, then the changed cubes
// nearest the player first).
func (p *Packet) codeCubes(e *entropyState, base []Cube, mr *motionRef) error {
	if e.turn {
		return p.codeCubes14(e, base, mr)
	}
	prevChanged := false
	e.nbrReset()
	var cc cubeCoding
	for i := range p.Cubes {
		changed, err := p.codeCubeHead(e, base, mr, i, prevChanged, &cc)
		if err != nil {
			return err
		}
		prevChanged = changed
		if !changed {
			continue
		}
		if err := p.codeFields(e, &cc, base, mr); err != nil {
			return err
		}
	}
	return nil
}

// codeCubeHead codes cube i's "changed?" decision (the player's correction
// first when i is 1 in a predicting packet) and sets cc up for its fields;
// codeCubes and codeCubes14 both start every cube with it.
func (p *Packet) codeCubeHead(e *entropyState, base []Cube, mr *motionRef, i int, prevChanged bool, cc *cubeCoding) (bool, error) {
	if i == 1 && p.Predict {
		if err := p.codeCorrection(e, base); err != nil {
			return false, err
		}
	}
	*cc = cubeCoding{i: i, b: &base[i], c: &p.Cubes[i], hc: -1}
	cc.moved = mr.base2 != nil && !cc.b.sameState(&mr.base2[i])
	changed := e.codeChanged(cc, &base[0], prevChanged)
	if p.Sent != nil {
		p.Sent[i] = changed
	}
	if e.reading {
		*cc.c = *cc.b // fields not sent keep the baseline's
	}
	return changed, nil
}

// codeFields codes a changed cube's fields, phase by phase (codeCubes).
func (p *Packet) codeFields(e *entropyState, cc *cubeCoding, base []Cube, mr *motionRef) error {
	p.Stats.Changed++
	p.chooseReference(cc, base, mr)
	e.codeFieldFlags(cc)
	cc.residualContexts(base, p.Cubes[0].Position, mr)
	e.neighbourCorrection(cc)
	if err := e.codePosition(cc, &p.Stats); err != nil {
		return err
	}
	e.recordNeighbour(cc)
	if e.turn {
		e.turnWithMiss(cc, &p.Cubes[0])
	}
	if err := e.codeOrientation(cc, &p.Stats); err != nil {
		return err
	}
	if e.turn {
		e.learnTurn(cc)
	}
	return e.finishCube(cc)
}

// cubeCoding is what codeCubes knows of the cube it codes, filled in
// phase by phase.
type cubeCoding struct {
	i     int
	b, c  *Cube // its baseline, and the cube (being decoded, on read)
	moved bool  // level 13: it differs between the two baselines
	memv  int   // its memory from the baseline's packet (mem)

	// The reference: its kind (the baseline b, or the prediction pred),
	// and the history class of a player-predicted cube at level 13 (−1:
	// none). refPos is pred's position before the neighbour correction.
	kind   int
	pred   Cube
	hc     int
	refPos wire.QuantizedVec3

	posChanged, rotChanged bool
	// The second model's context (mixClass) and the third model's, for
	// player-predicted cubes (cctx) and for the others (kctx).
	bctx, cctx, kctx int
	// The largest residual component coded so far, of the position and
	// of the orientation.
	posMax, rotMax int64
	// nbrMean: the largest component of the neighbours' mean miss (grid
	// units; −1: no neighbour coded before it), for level 14's nbrClass.
	nbrMean int64
	// share: level 14's neighbour share (shareNeighbours): whether it
	// applied, its fit and the neighbours' mean miss in 1/shareScale
	// grid units, for learnShare.
	shareOn    bool
	shareClass int
	shareX     [3]int64
}

// predicted reports whether the reference is a prediction (the player's
// or the cube's own motion) rather than the baseline.
func (cc *cubeCoding) predicted() bool { return cc.kind == refPlayer || cc.kind == refMotion }

// ref is the reference the residuals are taken against.
func (cc *cubeCoding) ref() *Cube {
	if cc.predicted() {
		return &cc.pred
	}
	return cc.b
}

// codeChanged codes (or decodes and returns) whether cube cc.i differs
// from its baseline, mixing three models. The first by the previous
// cube's answer (changed cubes come in runs), whether the cube was
// interacting in the baseline, whether it lies near the player, and at
// level 13 whether it moved between the two baselines (the player, cube 0,
// has its own); the second by the cube's memory and the previous answer;
// the third by where it lies (groundClass) and whether it moved. It also
// takes the cube's memory from the models, leaving this packet's slot
// clear.
func (e *entropyState) codeChanged(cc *cubeCoding, player *Cube, prevChanged bool) bool {
	m := e.models
	b := cc.b
	ctx := playerContext
	if cc.i > 0 {
		ctx = b2i(prevChanged) | b2i(b.Interacting)<<1 | b2i(nearPlayer(b, player))<<2 | b2i(cc.moved)<<3
	}
	// This cube's memory from the baseline's packet, then cleared: this
	// packet writes its own (kept only if it codes the cube).
	cc.memv = int(m.mem[cc.i])
	m.mem[cc.i] = 0
	e.recordCube(cc.i)
	e.memClass, e.memStride = memClass(cc.memv), 2*int32(unsafe.Sizeof(arith.Prob(0)))
	e.tag(wire.CategoryFlags)
	return e.bitMix3(&m.changed[ctx], &m.changedB[memClass(cc.memv)*2+b2i(prevChanged)],
		&m.changedC[groundClass(b, player)*2+b2i(cc.moved)], &m.changedMix[ctx],
		!e.reading && !cc.c.sameState(b))
}

// groundClass is the changed decision's third context: the cube's
// horizontal distance from the player in the baseline (under 1 m, 2, 4,
// 8, 16 m, further: 6 classes), and whether it is off the ground (above
// 150 grid units: not lying flat).
func groundClass(b, player *Cube) int {
	var d2 int64
	for k := range 2 {
		d := int64(b.Position[k]) - int64(player.Position[k])
		d2 += d * d
	}
	// The classes' bounds counted without a branch (d2 > bound is
	// unpredictable from cube to cube, and every cube of a packet asks).
	const r = 512
	g := b2i(d2 > r*r) + b2i(d2 > 4*r*r) + b2i(d2 > 16*r*r) + b2i(d2 > 64*r*r) + b2i(d2 > 256*r*r)
	return g + 6*b2i(b.Position[2] > 150)
}

// chooseReference picks what a changed cube is predicted from: the
// player's motion when the packet predicts and the cube is near the
// player, else at level 13 its own motion when it moved between the two
// baselines, else its baseline. At level 13 a player-predicted cube is
// then checked against its history (carriedHistory).
func (p *Packet) chooseReference(cc *cubeCoding, base []Cube, mr *motionRef) {
	b := cc.b
	cc.kind = refStatic
	if p.Predict && cc.i > 0 {
		if !p.pred.ready {
			p.pred.setup(&base[0], &p.Cubes[0])
		}
		if p.pred.predict(b, &cc.pred) {
			cc.pred.Position[2] = max(cc.pred.Position[2], min(zGround, b.Position[2]))
			cc.kind = refPlayer
			p.Stats.Predicted++
		}
	}
	if cc.kind == refStatic && cc.moved {
		mr.predictMotion(b, &mr.base2[cc.i], &cc.pred)
		cc.kind = refMotion
		p.Stats.Motion++
	}
	if cc.kind == refPlayer && mr.base2 != nil {
		p.carriedHistory(cc, base, mr)
	}
}

// carriedHistory sets the history class of a player-predicted cube at
// level 13: how well the player's motion carried it from the older
// baseline to the baseline. A cube stuck in the ball was carried to
// within a few grid units and will be again; a loose one pushed around by
// the ball was not, and its residual will be large. Both sides hold both
// baselines, so it costs nothing to send.
//
// A loose cube (one the player did not carry, by looseCarry or more, or
// that was beyond its reach then) follows its own motion better than the
// player's: it is coded against its motion when it moved between the
// baselines, and against its baseline when it did not (a cube the ball is
// about to hit, lying near it, predicts itself as resting cubes do).
func (p *Packet) carriedHistory(cc *cubeCoding, base []Cube, mr *motionRef) {
	if !p.pred2.ready {
		p.pred2.setup(&mr.base2[0], &base[0])
	}
	b := cc.b
	cc.hc = numHistClasses - 1
	loose := true
	var old Cube
	if p.pred2.predict(&mr.base2[cc.i], &old) {
		dp := maxDiff(old.Position[:], b.Position[:])
		dr := int64(1000)
		if old.Orientation.Largest == b.Orientation.Largest {
			dr = maxDiff(old.Orientation.Small[:], b.Orientation.Small[:])
		}
		d := max(dp, dr)
		cc.hc = histClass(d)
		loose = d >= looseCarry
	}
	switch {
	case loose && cc.moved:
		mr.predictMotion(b, &mr.base2[cc.i], &cc.pred)
		cc.kind, cc.hc = refMotion, -1
		p.Stats.Predicted--
		p.Stats.Motion++
	case loose:
		cc.kind, cc.hc = refStatic, -1
		p.Stats.Predicted--
	}
}

// codeFieldFlags codes the changed cube's interacting flag, then whether
// its position and its orientation changed, each by kind of reference and
// by the decisions before it (a cube that stopped interacting often
// stopped moving).
func (e *entropyState) codeFieldFlags(cc *cubeCoding) {
	m := e.models
	c, b, k := cc.c, cc.b, cc.kind
	// A sender's cubes may be lent to every client's instance
	// (quantized.lend): only the reader writes them.
	if v := e.bit(&m.interacting[k][b2i(b.Interacting)], c.Interacting); e.reading {
		c.Interacting = v
	}
	cc.posChanged = e.bit(&m.posChanged[k][b2i(c.Interacting)], c.Position != b.Position)
	cc.rotChanged = e.bit(&m.rotChanged[k][b2i(c.Interacting)*2+b2i(cc.posChanged)], c.Orientation != b.Orientation)
}

// residualContexts sets the contexts of the residuals' second and third
// models. The second (mixClass) starts as the cube's memory class: how
// large its residuals were six frames ago (the neighbour correction adds
// how far its neighbours missed). The third is where the cube lies
// relative to the player in the baseline: its distance (5 classes), then
// for a player-predicted cube (cctx, numC) above, level with or below the
// player and in front of or behind its motion (playerNew is the player's
// decoded new position: a cube on the ball's leading face is pushed
// back), and for the others (kctx, numKC) its height (on the ground, low,
// high) and whether it rose, fell or neither between the baselines.
func (cc *cubeCoding) residualContexts(base []Cube, playerNew wire.QuantizedVec3, mr *motionRef) {
	b, player := cc.b, &base[0]
	cc.bctx = memClass(cc.memv)
	var d2 int64
	for k := range 3 {
		d := int64(b.Position[k]) - int64(player.Position[k])
		d2 += d * d
	}
	dist := 0
	for r := int64(256); dist < 4 && d2 > r*r; r += 192 {
		dist++
	}

	cc.kctx = dist
	switch {
	case b.Position[2] < 150:
	case b.Position[2] < 600:
		cc.kctx += 5
	default:
		cc.kctx += 10
	}
	if mr.base2 != nil {
		switch vz := b.Position[2] - mr.base2[cc.i].Position[2]; {
		case vz < -3:
			cc.kctx += 15
		case vz > 3:
			cc.kctx += 30
		}
	}

	cc.cctx = dist
	switch dz := int64(b.Position[2]) - int64(player.Position[2]); {
	case dz < -200:
	case dz < 200:
		cc.cctx += 5
	default:
		cc.cctx += 10
	}
	var ahead int64 // the player's horizontal motion · the cube's offset
	for k := range 2 {
		ahead += (int64(playerNew[k]) - int64(player.Position[k])) * (int64(b.Position[k]) - int64(player.Position[k]))
	}
	if ahead > 0 {
		cc.cctx += 15
	}
}

// neighbourCorrection: the ball's cubes are jostled in clumps, and a
// loose cube pushed along pushes the next, so cubes touching one another
// tend to miss their predictions the same way. The mean residual of the
// cubes of the same kind coded before this one within neighbourRadius
// (decoded already: the receiver knows it too) shifts a predicted cube's
// position by 1/neighbourShare of it, and its size is part of the second
// model's context. Level 14 looks a little further (neighbourRadius14)
// and shifts by a learnt share instead (shareNeighbours).
func (e *entropyState) neighbourCorrection(cc *cubeCoding) {
	if !cc.predicted() {
		return
	}
	cc.refPos = cc.pred.Position
	cc.nbrMean = -1
	sum, cnt := e.nbrSum(cc.b.Position, uint8(cc.kind))
	if cnt == 0 {
		return
	}
	var mean int64
	for k := range 3 {
		mean = max(mean, sum[k]/cnt, -sum[k]/cnt)
	}
	cc.nbrMean = mean
	cc.bctx += numMemClasses
	if mean >= nbrLarge {
		cc.bctx += numMemClasses
	}
	if e.turn {
		e.shareNeighbours(cc, sum, cnt)
		return
	}
	for k := range 3 {
		cc.pred.Position[k] += int32(sum[k] / (neighbourShare * cnt))
	}
}

// recordNeighbour records a predicted cube's residual against its
// prediction before the neighbour correction, for the cubes after it.
func (e *entropyState) recordNeighbour(cc *cubeCoding) {
	if !cc.predicted() {
		return
	}
	var res [3]int32
	for k := range 3 {
		res[k] = cc.c.Position[k] - cc.refPos[k]
	}
	e.nbrAdd(cc.b.Position, uint8(cc.kind), res)
	if e.turn {
		e.learnShare(cc, res)
	}
}

// The residuals a cube can code, each with its own models
// (residualModels).
const (
	resPosition    = iota // position against the reference's
	resOrientation        // smallest three against the reference's, same largest component
	resSwapped            // smallest three against the reference re-expressed around another largest
)

// residualModels returns the three models and the mixer of component k
// of a residual in size class mc. A player-predicted cube at level 13 (a
// history class) has models of its own; the others' are by kind of
// reference. A swapped orientation has no third model.
func (e *entropyState) residualModels(cc *cubeCoding, res, k, mc int) (*arith.Golomb, *arith.Golomb, *arith.GolombContext, *arith.GolombMixers) {
	m := e.models
	switch {
	case res == resSwapped:
		return &m.rotSwap[k][mc], &m.rotSwapB[k][cc.bctx], nil, &m.rotSwapMix[k]
	case res == resPosition && cc.hc >= 0 && e.turn:
		return &m.posH[k][cc.hc][mc], &m.posT[k][memClass(cc.memv)*numNbrClasses+nbrClass(cc.nbrMean)], &m.posC[k][cc.cctx][mc/3], &m.posMix[k]
	case res == resPosition && cc.hc >= 0:
		return &m.posH[k][cc.hc][mc], &m.posB[k][cc.bctx], &m.posC[k][cc.cctx][mc/3], &m.posMix[k]
	case res == resPosition:
		return &m.pos[cc.kind][k][mc], &m.posK[cc.kind][k][cc.bctx], &m.posKC[k][cc.kctx][mc/3], &m.posKMix[cc.kind][k]
	case cc.hc >= 0 && e.turn && e.tw.on:
		return &m.rotH[k][cc.hc][mc], &m.rotT[k][e.tw.slide], &m.rotC[k][cc.cctx][mc/3], &m.rotMix[k]
	case cc.hc >= 0:
		return &m.rotH[k][cc.hc][mc], &m.rotB[k][cc.bctx], &m.rotC[k][cc.cctx][mc/3], &m.rotMix[k]
	}
	return &m.rot[cc.kind][k][mc], &m.rotK[cc.kind][k][cc.bctx], &m.rotKC[k][cc.kctx][mc/3], &m.rotKMix[cc.kind][k]
}

// codeResidual codes the three components of v − ref (on read, sets v
// from them, each within lo[k]..hi[k]) and returns the largest |residual|.
// The first component's size class is mc; each next one's is that of the
// largest residual so far, or of floor when larger (magClass: a cube
// that moved far along x moved along y too).
func (e *entropyState) codeResidual(cc *cubeCoding, res int, v, ref *[3]int32, lo, hi *[3]int64, mc int, floor int64) (int64, error) {
	var largest int64
	for k := range 3 {
		g, h, j, mx := e.residualModels(cc, res, k, mc)
		// The second model is by mixClass, whose memory class steps
		// by one Golomb (trace.go).
		e.memStride = int32(unsafe.Sizeof(arith.Golomb{}))
		e.unary = e.turn && (cc.hc >= 0 || res == resSwapped)
		r := e.golombMix3(g, h, j, mx, v[k]-ref[k])
		e.unary = false
		largest = max(largest, int64(r), -int64(r))
		mc = magClass(max(largest, floor))
		if e.reading {
			x := int64(ref[k]) + int64(r)
			if x < lo[k] || x > hi[k] {
				return largest, wire.ErrValueOutOfRange
			}
			v[k] = int32(x)
		}
	}
	return largest, nil
}

// codePosition codes a changed position's residual against the
// reference. The first component's size class is how far the prediction
// carried the cube from its baseline (a fast cube is predicted less
// exactly than a slow one), except for a cube with a history class, which
// says more (and fewer contexts learn faster).
func (e *entropyState) codePosition(cc *cubeCoding, st *PacketStats) error {
	if !cc.posChanged {
		return nil
	}
	st.Positions++
	e.tag(wire.CategoryPosition)
	xyMin, xyMax, zMax := wire.PositionLimits(wire.SnapshotPositionResolution)
	lo := [3]int64{int64(xyMin), int64(xyMin), 0}
	hi := [3]int64{int64(xyMax), int64(xyMax), int64(zMax)}
	ref := cc.ref()
	mc := magClass(maxDiff(ref.Position[:], cc.b.Position[:]))
	if cc.hc >= 0 {
		mc = 0
	}
	var err error
	cc.posMax, err = e.codeResidual(cc, resPosition, (*[3]int32)(&cc.c.Position), (*[3]int32)(&ref.Position), &lo, &hi, mc, 0)
	return err
}

// codeOrientation codes a changed orientation: whether its largest
// component is the reference's (far likelier to change when the
// reference is near the edge, edgeClass, and when the cube missed its
// predicted position by far), then the smallest three's residual. When
// the largest component changed, the new one (a 2-bit tree by the
// reference's largest and its largest small component: the one nearest
// to overtaking it) comes first and the residual is against the
// reference re-expressed around it (a cube turning through 45° swaps its
// largest component with a small residual there). The first component's
// size class is the position's largest residual (a cube knocked off its
// predicted path is turned off its predicted orientation too); each next
// one's, the largest of the position's and the orientation's so far.
func (e *entropyState) codeOrientation(cc *cubeCoding, st *PacketStats) error {
	if !cc.rotChanged {
		return nil
	}
	st.Orientations++
	e.tag(wire.CategoryOrientation)
	m := e.models
	c, ref := &cc.c.Orientation, &cc.ref().Orientation
	same := e.bit(&m.sameLargest[cc.kind][magClass(cc.posMax)][edgeClass(&ref.Small)], c.Largest == ref.Largest)
	from, res := ref, resOrientation
	var alt wire.QuantizedQuat
	if same && e.reading {
		c.Largest = ref.Largest
	} else if !same {
		big := 0
		for k := 1; k < 3; k++ {
			if abs32(ref.Small[k]) > abs32(ref.Small[big]) {
				big = k
			}
		}
		if v := uint8(e.tree(m.largest[ref.Largest&3][big][:], 2, uint32(c.Largest))); e.reading {
			c.Largest = v
		}
		const bits = wire.SnapshotOrientationBits
		alt = wire.QuantizeQuatAt(wire.DequantizeQuat(*ref, bits), bits, int(c.Largest))
		from, res = &alt, resSwapped
	}
	qlo, qhi := wire.SmallestThreeLimits(wire.SnapshotOrientationBits)
	lo := [3]int64{int64(qlo), int64(qlo), int64(qlo)}
	hi := [3]int64{int64(qhi), int64(qhi), int64(qhi)}
	var err error
	cc.rotMax, err = e.codeResidual(cc, res, &c.Small, &from.Small, &lo, &hi, magClass(cc.posMax), cc.posMax)
	return err
}

// finishCube ends a changed cube: its memory for the packets against this
// one (the size class of its largest residual), and on read the checks
// that the decoding went right.
func (e *entropyState) finishCube(cc *cubeCoding) error {
	e.models.mem[cc.i] = uint8(magClass(max(cc.posMax, cc.rotMax)) + 1)
	if !e.reading {
		return nil
	}
	if e.bad || e.dec.Overread() {
		return wire.ErrEndOfData
	}
	if cc.c.sameState(cc.b) {
		// Changed, yet identical to the baseline: no encoder writes that.
		return wire.ErrValueOutOfRange
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// numMagClasses is how many size classes magClass has (six beat four and
// seven).
const numMagClasses = 6

// magClass buckets a size, the context of the next residual's model: a
// residual's size follows the sizes of the ones before it (a cube that
// moved far along x moved along y too: the class is of the largest so
// far; an orientation's, of the largest of the position's and its own so
// far), and the first component's follows how far the prediction carried
// the cube from its baseline (a fast cube is predicted less exactly than
// a slow one).
func magClass(v int64) int {
	if v < 0 {
		v = -v
	}
	switch {
	case v == 0:
		return 0
	case v < 2:
		return 1
	case v < 4:
		return 2
	case v < 8:
		return 3
	case v < 32:
		return 4
	}
	return 5
}

// maxDiff is the largest |a[k] − b[k]|.
func maxDiff(a, b []int32) int64 {
	var m int64
	for k := range a {
		d := int64(a[k]) - int64(b[k])
		m = max(m, d, -d)
	}
	return m
}

// Neighbour correction (see codeCubes): a cube within neighbourRadius grid
// units (0.5 m: the cubes are 0.4 m, so touching ones) of cubes of the same
// kind coded before it in this packet is predicted to share half their
// mean residual (better than the nearest one only, a wider radius, or a
// smaller share).
const (
	neighbourRadius = wire.SnapshotPositionResolution / 2
	neighbourShare  = 2 // the fraction's denominator
)

// Finding the neighbours. A packet may code hundreds of predicted cubes
// (after a blast, every moving cube at level 13), and comparing each with
// all those before it would cost n²/2 distance tests. So the entries go
// into a spatial hash: cells of at least
// twice the radius (nbrRadius: neighbourRadius, level 14's
// neighbourRadius14), hashed into nbrBuckets lists. Everything within
// the radius of a point lies in the 2×2×2 block of cells nearest to
// it (per axis: its own cell, and the neighbour on the side of the cell's
// half it is in), so a query visits at most 8 lists, skipping a list that
// two cells share, and still tests each entry's exact distance: collisions
// cost time, never a wrong answer. The sums are of integers, so the order
// the entries are met in changes nothing: both sides agree to the bit.
const (
	nbrCellShift = 9 // log2 of the cell size, 2·neighbourRadius grid units
	// nbrCellShift14: level 14's cells, at least 2·neighbourRadius14.
	nbrCellShift14 = 10
	nbrBucketLog   = 10
	nbrBuckets     = 1 << nbrBucketLog
)

// nbrBucket hashes a cell to its list (multiplicative hashing).
func nbrBucket(cx, cy, cz int32) int {
	h := uint32(cx)*0x9E3779B1 ^ uint32(cy)*0x85EBCA77 ^ uint32(cz)*0xC2B2AE3D
	return int(h >> (32 - nbrBucketLog))
}

// nbrReset empties the neighbour lists for a new packet.
func (e *entropyState) nbrReset() {
	e.nbrN = 0
	clear(e.nbrHead[:])
	e.nbrRadius, e.nbrShift = neighbourRadius, nbrCellShift
}

// nbrAdd records a coded cube: its baseline position, kind and residual.
func (e *entropyState) nbrAdd(pos wire.QuantizedVec3, kind uint8, res [3]int32) {
	if e.nbrN >= MaxCubes {
		return
	}
	j := e.nbrN
	e.nbrPos[j], e.nbrKind[j], e.nbrRes[j] = pos, kind, res
	h := nbrBucket(pos[0]>>e.nbrShift, pos[1]>>e.nbrShift, pos[2]>>e.nbrShift)
	e.nbrNext[j] = e.nbrHead[h]
	e.nbrHead[h] = int32(j + 1)
	e.nbrN++
}

// nbrSum returns the sum and count of the residuals of the cubes of this
// kind recorded within nbrRadius of pos.
func (e *entropyState) nbrSum(pos wire.QuantizedVec3, kind uint8) (sum [3]int64, cnt int64) {
	var c0, c1 [3]int32 // per axis, the two cells to visit
	for k := range 3 {
		c0[k] = pos[k] >> e.nbrShift
		c1[k] = c0[k] - 1
		if pos[k]>>(e.nbrShift-1)&1 == 1 {
			c1[k] = c0[k] + 1
		}
	}
	var seen [8]int
	for q := range 8 {
		cx, cy, cz := c0[0], c0[1], c0[2]
		if q&1 != 0 {
			cx = c1[0]
		}
		if q&2 != 0 {
			cy = c1[1]
		}
		if q&4 != 0 {
			cz = c1[2]
		}
		h := nbrBucket(cx, cy, cz)
		seen[q] = h
		dup := false
		for _, o := range seen[:q] {
			dup = dup || o == h
		}
		if dup {
			continue
		}
		for j := e.nbrHead[h]; j != 0; j = e.nbrNext[j-1] {
			n := j - 1
			if e.nbrKind[n] != kind {
				continue
			}
			var d2 int64
			for k := range 3 {
				d := int64(e.nbrPos[n][k]) - int64(pos[k])
				d2 += d * d
			}
			if d2 < e.nbrRadius*e.nbrRadius {
				for k := range 3 {
					sum[k] += int64(e.nbrRes[n][k])
				}
				cnt++
			}
		}
	}
	return sum, cnt
}

// edgeClass says how near the reference orientation is to changing its
// largest component: 0 when its largest small component is within 16
// steps of the limit (the two are nearly equal: a small turn swaps them),
// 1 within 64, else 2.
func edgeClass(small *[3]int32) int {
	q := int64(wire.SmallestThreeMax(wire.SnapshotOrientationBits))
	var m int64
	for _, v := range small {
		m = max(m, int64(v), -int64(v))
	}
	switch {
	case q-m < 16:
		return 0
	case q-m < 64:
		return 1
	}
	return 2
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
