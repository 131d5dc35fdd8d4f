package snapshot

import (
	mathbits "math/bits"
	"sync"
	"unsafe"

	"netcubes/wire"
	"netcubes/wire/arith"
)

// Decide once, code many (levels 12-13, the sender). A coded packet is two
// kinds of work: deciding what to code (which cubes changed, each one's
// reference, contexts, neighbour correction, residuals: geometry, a
// function of the snapshot, its baselines and the header) and coding
// those decisions with the models (mixing, coding, updating them: a
// function of the models as well). Clients that acked the same baseline
// make the same decisions with different models, since their models are
// the ends of different chains of packets (sendshare.go): their packets
// differ, but only in the second kind of work.
//
// So the first client of a tick to code a packet with a given header
// records its decisions (a trace: for each, which models it is coded
// with, as offsets into entropyModels, and the value), and the others
// with the same header replay the trace against their own models instead
// of deciding again: the same calls to the coder in the same order with
// the same values and the same models, hence the same bits.
//
// One input of the decisions lives in the models: each cube's memory
// (entropyModels.mem, the size of its residual in the baseline's packet),
// which picks the second model of the changed decision and of the
// residuals. The memory is the baseline's packet's, which differs between
// clients whose baselines' packets were coded against different
// baselines; rather than keying traces by it (which split the 64 clients
// of the scale bench into about 16 traces a tick instead of 6), an
// operation whose model depends on it records the model of memory class 0
// and the stride to the others, and the replay adds the client's own
// class. The memory a packet leaves (its residuals' sizes) does not
// depend on the models: the trace carries it whole.

// Trace operations: one call of the coder each (entropyState's bit,
// tree, golomb, bitMix3, golombMix3, tag), or the start of a cube.
const (
	opCube      = iota // v: the cube's index, whose memory class the next operations use
	opTag              // v: the category the next decisions are charged to
	opBit              // a: Prob
	opTree             // a: the tree's first Prob, n: its bits
	opGolomb           // a: Golomb
	opMix              // a, b, c: Probs (c < 0: none), mx: Mixer
	opGolombMix        // a, b: Golomb, c: GolombContext (< 0: none), mx: GolombMixers
)

// traceOp is one operation of a trace. Offsets are in bytes from the
// start of entropyModels; b is that of memory class 0 when stride is not
// zero (the model of class k is stride·k bytes further).
type traceOp struct {
	kind, n uint8
	v       int32
	a, b, c int32
	mx      int32
	stride  int32
}

// trace is the decisions of one packet.
type trace struct {
	key    traceKey
	ready  bool
	spoilt bool // a model outside the packet's models (off): never published
	ops    []traceOp
	steps  []arith.Step // ops flattened (flatten)
	stats  PacketStats
	n      int             // cubes
	mem    [MaxCubes]uint8 // the memory the packet leaves, mem[:n]
	// lines: the lines of entropyModels (modelLine bytes each) a replay
	// of the trace may write, in increasing order, whatever the
	// client's memory classes (lend.go); seen is their bitmap.
	lines []uint16
	seen  []uint64
}

// traceKey is everything of a packet a trace depends on besides the
// models: the tick's snapshot, its header, and (for the baselines' cubes)
// the baselines it names; clients quantize alike, so the cubes of a
// frame are the same for all (quantized).
type traceKey struct {
	frame                             int
	level                             Level
	predict, initial, carried, motion bool
	baseline                          uint16
	span                              uint8
}

// traceShare holds the traces recorded this tick, shared by an instance
// and its clones (quantized), like packetShare.
type traceShare struct {
	mu    sync.Mutex
	frame int
	all   []*trace
	n     int // this tick's, all[:n]
	// replayed counts the packets coded from another client's trace
	// (tests and the design note's figures).
	replayed int
}

// claim returns the ready trace for k, or (mine) a new one for the caller
// to record and publish; nil, false when another client is recording it
// (the caller codes its own packet, the same bits).
func (s *traceShare) claim(k traceKey) (t *trace, mine bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k.frame != s.frame {
		s.frame, s.n = k.frame, 0
	}
	for _, q := range s.all[:s.n] {
		if q.key == k {
			if !q.ready {
				return nil, false
			}
			s.replayed++
			return q, false
		}
	}
	if s.n == len(s.all) {
		s.all = append(s.all, &trace{})
	}
	q := s.all[s.n]
	s.n++
	q.key, q.ready, q.spoilt, q.ops = k, false, false, q.ops[:0]
	return q, true
}

// publish makes t, recorded, available to the clients that claim it after.
func (s *traceShare) publish(t *trace) {
	t.flatten()
	t.listLines()
	s.mu.Lock()
	defer s.mu.Unlock()
	t.ready = true
}

// traceKeyOf is the key of packet p's trace.
func (p *Packet) traceKeyOf() traceKey {
	return traceKey{frame: int(p.Sequence), level: p.Level, predict: p.Predict, initial: p.Initial,
		carried: p.Carried, motion: p.Motion, baseline: p.Baseline, span: p.MotionSpan}
}

// off is the offset of the model at ptr inside e's models. A model
// elsewhere (no coder codes with one) spoils the trace: it is not
// published, and the other clients code their own packets.
func (e *entropyState) off(ptr unsafe.Pointer) int32 {
	d := uintptr(ptr) - uintptr(unsafe.Pointer(e.models))
	if d >= unsafe.Sizeof(*e.models) {
		e.rec.spoilt = true
		return 0
	}
	return int32(d)
}

// recording: the operations of the coding pass in progress go to rec.
func (e *entropyState) record(kind uint8, n uint8, v int32, a, b, c, mx unsafe.Pointer) {
	o := traceOp{kind: kind, n: n, v: v, c: -1}
	if a != nil {
		o.a = e.off(a)
	}
	if b != nil {
		o.b = e.off(b)
		if e.memStride != 0 {
			o.b -= int32(e.memClass) * e.memStride
			o.stride = e.memStride
		}
	}
	if c != nil {
		o.c = e.off(c)
	}
	if mx != nil {
		o.mx = e.off(mx)
	}
	e.rec.ops = append(e.rec.ops, o)
}

// recordCube starts cube i in the trace.
func (e *entropyState) recordCube(i int) {
	if e.rec != nil {
		e.rec.ops = append(e.rec.ops, traceOp{kind: opCube, v: int32(i)})
	}
}

// replay codes the decisions of t with the packet's models: the calls a
// coding pass of the same packet would make, flattened into the coder's
// binary decisions (arith.Replay).
func (e *entropyState) replay(t *trace) {
	m := e.models
	e.enc.Replay(unsafe.Pointer(m), t.steps, &memClasses)
	copy(m.mem[:t.n], t.mem[:t.n])
}

// memClasses is memClass as a table, for arith.Replay.
var memClasses = func() (c [256]uint8) {
	for v := range c {
		c[v] = uint8(memClass(v))
	}
	return c
}()

// flatten turns t's operations into the coder's binary decisions
// (arith.Step), once, for the clients that replay it.
func (t *trace) flatten() {
	s := t.steps[:0]
	mem := int32(unsafe.Offsetof(entropyModels{}.mem))
	for i := range t.ops {
		o := &t.ops[i]
		switch o.kind {
		case opCube:
			s = arith.AppendClass(s, mem+o.v)
		case opTag:
			s = arith.AppendTag(s, int(o.v))
		case opBit:
			s = arith.AppendBit(s, o.a, int(o.v))
		case opTree:
			s = arith.AppendTree(s, o.a, int(o.n), uint32(o.v))
		case opGolomb:
			s = arith.AppendGolomb(s, o.a, o.v)
		case opMix:
			s = arith.AppendMix(s, o.a, o.b, o.stride, o.c, o.mx, int(o.v))
		case opGolombMix:
			s = arith.AppendGolombMix(s, o.a, o.b, o.stride, o.c, o.mx, o.v)
		}
	}
	t.steps = s
}

// replayable checks that packet p can be coded from trace t (its cubes'
// decisions recorded by another client this tick): its older baseline
// must be one this sender holds, as a coding pass would check.
func (p *Packet) replayable(base []Cube, t *trace) error {
	if p.Motion {
		base2 := p.Baselines.SnapshotBaseline(false, p.Baseline-uint16(p.MotionSpan))
		if base2 == nil {
			return ErrNoBaseline
		}
		if len(base2) != len(base) {
			return ErrSize
		}
	}
	if t.n != len(p.Cubes) {
		return ErrSize
	}
	return nil
}

// tagOp records a change of category.
func (e *entropyState) tagOp(c wire.Category) {
	if e.rec != nil {
		e.rec.ops = append(e.rec.ops, traceOp{kind: opTag, v: int32(c)})
	}
}

// listLines lists the lines of entropyModels a replay of t may write:
// every Prob and Mixer its decisions update (the second model at every
// memory class), and the memory the packet leaves. A superset is all
// lending needs (lend.go): a line listed but not written is saved and
// put back unchanged.
func (t *trace) listLines() {
	if len(t.seen) == 0 {
		t.seen = make([]uint64, (numModelLines+63)/64)
	}
	clear(t.seen)
	mixer := int32(unsafe.Sizeof(arith.Mixer{}))
	for i := range t.steps {
		st := &t.steps[i]
		switch st.Kind {
		case arith.StepPlain:
			t.markAt(st.A)
		case arith.StepMix2, arith.StepMix3:
			t.markAt(st.A)
			t.markAt(st.B)
			if st.Stride != 0 {
				for k := int32(1); k < numMemClasses; k++ {
					t.markAt(st.B + k*st.Stride)
				}
			}
			if st.Kind == arith.StepMix3 {
				t.markAt(st.C)
			}
			t.markAt(st.M)
			t.markAt(st.M + mixer - 1)
		}
	}
	t.mark(int32(unsafe.Offsetof(entropyModels{}.mem)), int32(t.n))
	t.lines = t.lines[:0]
	for w, bits := range t.seen {
		for bits != 0 {
			b := mathbits.TrailingZeros64(bits)
			bits &= bits - 1
			t.lines = append(t.lines, uint16(w*64+b))
		}
	}
}

// markAt marks the line of the byte at offset off (a Prob, aligned, lies
// in one line).
func (t *trace) markAt(off int32) {
	l := uint32(off) / modelLine
	t.seen[l/64] |= 1 << (l % 64)
}

// mark marks the lines of the n bytes at offset off.
func (t *trace) mark(off, n int32) {
	if n <= 0 {
		return
	}
	for l := uint32(off) / modelLine; l <= uint32(off+n-1)/modelLine; l++ {
		t.seen[l/64] |= 1 << (l % 64)
	}
}
