package snapshot

import (
	"sync/atomic"

	"netcubes/cubes"
	"netcubes/playout"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: the snapshot strategy ("Snapshot Interpolation" and
// "Snapshot Compression"). The left sends the whole world's state at the
// chosen rate; the right runs NO simulation and draws only what arrives,
// through an interpolation buffer played back by a playout clock.
//
// The two halves are separate types that share nothing but the settings,
// as they would on two machines:
//
//   - snapshotSender (left): every send interval, quantize the world at the
//     current level, pick the baseline (the newest snapshot the right has
//     acked, else the initial state), choose the index encoding by
//     measuring, send, and keep the quantized snapshot as a future
//     baseline. Acks from the session tell it which snapshots arrived.
//   - snapshotReceiver (right): unwrap the 16-bit sequence to the sender's
//     frame, decode against the baseline it names (rejecting a packet whose
//     baseline it no longer holds), keep the decoded snapshot both as a
//     baseline and in the interpolation buffer, feed the arrival to the
//     playout clock, and each tick sample the buffer at the clock's time.
//
// What the right shows is decoded from the bits, never the left's floats,
// so a too-coarse level shows its artefacts, and the session's error
// figures measure them.
//
// Levels 9-13 can also delta-encode the cubes near the player against
// where the player's motion carried them (Config.PlayerPrediction,
// predict.go): our step beyond the article, on by default and
// shown in the mode string, off for the article's exact levels.
//
// Gaps: when the playout time passes the newest snapshot (lost or late
// packets), an interpolating right is "starved": it moves cubes on at their
// last velocity for StarveExtrapolateTicks, then holds them, and counts the
// tick (Stats().StarvedTicks). The playout clock (playout.Clock) keeps
// running at the sender's rate meanwhile and re-locks when the link's
// latency changes a lot.
//
// Acks: the session acks every fresh packet, including one this strategy
// rejects. So the right must be able to decode whatever the left sends:
// the left only uses baselines the right acked, and the right keeps more
// snapshots (ReceiverSnapshots) than the left will ever refer to
// (SenderSnapshots). A rejection then only comes from a hostile packet.
//
// Start-up: until the first packet the right shows the initial state (both
// sides know it). When the strategy starts at frame 0 that state IS frame 0,
// so it enters the buffer as the frame-0 snapshot and the first real ones
// interpolate smoothly out of it; when it starts later (a switch of
// strategy mid-run) the right keeps showing the initial state, reporting
// nothing (viewmodel.View's ok = false), until the playout time reaches the first
// snapshot received.

// Strategy is snapshot interpolation with the thirteen compression levels.
// The catalog holds two instances, the starting points of the two
// articles (NewInterpolation and NewCompression); each keeps its own
// settings, which the app and the command line change between Steps.
type Strategy struct {
	id, name string
	sub      subMode // what [ and ] step
	cfg      Config
	built    bool // storage allocated (on the first Reset)
	numCubes int
	halves   []float64 // half extents, from the world configuration both sides share
	controls []strategy.Control

	send  snapshotSender
	recv  snapshotReceiver
	adapt snapshotAdapt

	// The original demo's modes (original.go): the mode shown (1-6, 0:
	// the entry's own sub-modes), the last one shown, and the settings to
	// go back to.
	orig           strategy.ModeList
	beforeOriginal Config
}

// subMode is what the sub-mode keys of an instance step.
type subMode uint8

const (
	subRender subMode = iota // the render modes (snapshot interpolation)
	subLevel                 // the compression levels (snapshot compression)
)

// New returns the strategy with the given settings, named "snapshot", its
// sub-mode keys stepping the render mode. Storage is allocated on the first
// Reset. cfg must be valid (Config.Validate; DefaultConfig and the demos'
// settings are, and the catalog passes nothing else): an invalid Config is
// a programming error, and New panics with Validate's error at start-up
// rather than run with settings nobody asked for.
func New(cfg Config) *Strategy {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	st := &Strategy{id: "snapshot", name: "Snapshot interpolation", cfg: cfg, orig: strategy.ModeList{N: len(OriginalModes)}}
	st.send.shared = &quantized{frame: -1}
	st.controls = st.buildControls()
	return st
}

// NewInterpolation is the snapshot interpolation article's starting point:
// uncompressed snapshots at 10 Hz with hermite interpolation; [ and ] step
// the render mode.
func NewInterpolation() *Strategy {
	c := DefaultConfig()
	c.UseInterpolationDemo()
	st := New(c)
	st.id, st.name = "interpolation", "Snapshot interpolation"
	st.setSub(subRender)
	return st
}

// NewCompression is the snapshot compression article's: level 11 at 60 Hz
// with linear interpolation; [ and ] step the level.
func NewCompression() *Strategy {
	c := DefaultConfig()
	c.UseCompressionDemo()
	st := New(c)
	st.id, st.name = "compression", "Snapshot compression"
	st.setSub(subLevel)
	return st
}

// setSub sets what the sub-mode keys step, and the original demo whose
// modes the switch key (OriginalKey) offers instead.
func (st *Strategy) setSub(sub subMode) {
	st.sub = sub
	modes, _ := st.originals()
	st.orig.N = len(modes)
	st.controls = append(st.buildControls(), st.originalControl())
}

// ---------------------------------------------------------------------------
// Settings (safe to call between Steps)

// config returns the current settings.
func (st *Strategy) config() Config { return st.cfg }

// SetConfig replaces the settings, or returns Validate's error and keeps
// the current ones. Buffer sizes take effect at the next Reset.
func (st *Strategy) SetConfig(c Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	st.cfg = c
	return nil
}

// rate is the send rate; SetRate changes it from the next tick.
func (st *Strategy) rate() Rate { return st.cfg.Rate }

// SetRate changes the send rate (an invalid rate is ignored).
func (st *Strategy) SetRate(r Rate) {
	if r.Valid() {
		st.cfg.Rate = r
	}
}

// render is the render mode.
func (st *Strategy) render() RenderMode { return st.cfg.Render }

// SetRender changes the render mode (an invalid mode is ignored).
func (st *Strategy) SetRender(m RenderMode) {
	if m.Valid() {
		st.cfg.Render = m
	}
}

// Level is the compression level.
func (st *Strategy) Level() Level { return st.cfg.Level }

// SetLevel changes the compression level from the next snapshot (an
// invalid level is ignored). Packets in flight decode at the level they
// carry.
func (st *Strategy) SetLevel(l Level) {
	if l.Valid() {
		st.cfg.Level = l
	}
}

// SetPlayerPrediction switches the player-relative prediction from the
// next snapshot (each packet says whether it uses it).
func (st *Strategy) SetPlayerPrediction(on bool) { st.cfg.PlayerPrediction = on }

// delayNudge is the nudge added to the default delay, in ticks.
func (st *Strategy) delayNudge() int { return st.cfg.DelayNudgeTicks }

// SetDelayNudge sets the nudge in ticks (a nudge beyond
// ±MaxDelayNudgeTicks is ignored).
func (st *Strategy) SetDelayNudge(ticks int) {
	if ticks >= -MaxDelayNudgeTicks && ticks <= MaxDelayNudgeTicks {
		st.cfg.DelayNudgeTicks = ticks
	}
}

// NudgeDelay adds delta ticks to the nudge (a key press: +1 or -1); at the
// end of its range the nudge stays where it is.
func (st *Strategy) NudgeDelay(delta int) { st.SetDelayNudge(st.cfg.DelayNudgeTicks + delta) }

// targetDelayTicks is the interpolation delay in use, nudge included.
func (st *Strategy) targetDelayTicks() int { return st.cfg.DelayTicks() }

// UseInterpolationDemo selects uncompressed snapshots at 10 Hz with hermite
// interpolation (the snapshot interpolation article).
func (st *Strategy) UseInterpolationDemo() { st.cfg.UseInterpolationDemo() }

// UseCompressionDemo selects level 11 at 60 Hz with linear interpolation
// (the snapshot compression article).
func (st *Strategy) UseCompressionDemo() { st.cfg.UseCompressionDemo() }

// LevelExplain is the HUD line for the current level.
func (st *Strategy) LevelExplain() string {
	if st.cfg.Level == BoundedVelocity && !st.cfg.AtRestFlag {
		return noAtRestFlagExplain
	}
	return st.cfg.Level.Explain()
}

// noAtRestFlagExplain is level 3's line without its at-rest bit.
const noAtRestFlagExplain = "level 3 without its at-rest bit: every cube sends its velocity, 3 × 11 bits, 159 bits per cube, at rest or not"

// ---------------------------------------------------------------------------
// strategy.Strategy

// ID implements strategy.Strategy: "interpolation" or "compression".
func (st *Strategy) ID() string { return st.id }

// Name implements strategy.Strategy.
func (st *Strategy) Name() string { return st.name }

// Family implements strategy.Strategy: both instances share their keys.
func (st *Strategy) Family() string { return "Snapshots" }

// Mode implements strategy.Strategy: "level 9 · 60 Hz · linear+slerp · delay 83 ms"
// (with the rate and delay in force when they adapt).
func (st *Strategy) Mode() string {
	if st.orig.Shown > 0 {
		return st.originalModeLine() + " · " + st.adapt.mode(st)
	}
	return st.adapt.mode(st)
}

// Explain implements strategy.Strategy: the level's line once compression is on
// (level 2 and up), else the render mode's.
func (st *Strategy) Explain() string {
	if e := st.adapt.explain(st); e != "" {
		return e
	}
	if st.cfg.Level > Uncompressed {
		return st.LevelExplain()
	}
	return st.cfg.Render.Explain()
}

// Reset implements strategy.Strategy: both sides start again from the initial state.
func (st *Strategy) Reset(ctx strategy.Context) {
	w := ctx.Left()
	n := w.NumCubes()
	if !st.built || st.numCubes != n || st.send.history.Capacity() != st.cfg.SenderSnapshots ||
		st.recv.buffer.Capacity() != st.cfg.ReceiverSnapshots {
		st.numCubes = n
		st.halves = make([]float64, n)
		st.send.build(st.cfg, n)
		st.recv.build(st.cfg, n)
		st.built = true
	}
	for i := range st.halves {
		st.halves[i] = w.HalfExtent(i)
	}
	// The clock is cheap to build: take any change of its settings.
	st.recv.clock = playout.NewClock(st.cfg.Clock)
	initial := ctx.Initial()
	st.send.reset(initial)
	st.recv.reset(initial, ctx.Frame())
	st.adapt.reset(st)
}

var _ strategy.Releaser = (*Strategy)(nil)

// Release implements strategy.Releaser: both sides' snapshot buffers and
// carried models go; Reset builds them again. The clients' instances that
// shared the quantized world are dropped with the switch, so the next
// ones share a new one.
func (st *Strategy) Release() {
	st.built = false
	st.halves = nil
	st.send = snapshotSender{shared: &quantized{frame: -1}}
	st.recv = snapshotReceiver{}
}

// Send implements strategy.Strategy (adapt.go measures the path around
// the sender and picks the rate).
func (st *Strategy) Send(ctx strategy.Context) { st.adapt.send(st, ctx) }

// Acked implements strategy.Strategy.
func (st *Strategy) Acked(ctx strategy.Context, seq uint16) {
	st.send.acked(ctx.Frame(), seq)
	st.adapt.acked(ctx, seq)
}

// Receive implements strategy.Strategy.
func (st *Strategy) Receive(ctx strategy.Context, seq uint16, s *wire.ReadStream) error {
	f := st.recv.unwrap(ctx.Frame(), seq)
	err := st.recv.receive(ctx.Frame(), seq, s, &st.cfg)
	if err == nil {
		st.recv.ad.arrived(ctx.Frame(), f, st.cfg.Rate.Interval())
	}
	return err
}

// Update implements strategy.Strategy.
// A thin client (the scale bench's) only decodes and acks: nothing draws
// its interpolation, so it keeps no decoded poses (at 64 clients they
// were a third of the bench's heap).
func (st *Strategy) Update(ctx strategy.Context) {
	if ctx.Thin() {
		st.recv.buffer.ReleasePoses(ctx.Frame() + 1)
		return
	}
	st.recv.ad.tick(&st.cfg)
	st.recv.update(ctx.Frame(), &st.cfg)
}

// View implements strategy.Strategy.
func (st *Strategy) View(v *viewmodel.View) (float64, bool) { return st.recv.view(v, st.halves) }

// ---------------------------------------------------------------------------
// Left: the sender

type snapshotSender struct {
	history *Buffer // sent snapshots, quantized: candidate baselines
	initial []Cube  // the initial state in the quantized form
	current []Cube  // the snapshot being sent (swapped into history)
	packet  Packet
	measure *wire.MeasureStream

	frame       int // the left's frame while sending (to unwrap baselines)
	newestAcked int // newest snapshot frame the right acked, -1 = none
	models      modelPool
	keepAll     bool // tests: keep every snapshot's models, as before modelPool
	// undos recycles the undos of the entries that lent their models
	// (lend.go).
	undos  undoPool
	stats  senderStats
	shared *quantized // the world quantized this tick, shared with the clones
}

// quantized is the server's world quantized in one form for one frame,
// shared by an instance and its clones (Clone): every client's snapshot of
// a frame starts from the same quantized cubes, so the server quantizes its
// world once a tick whatever the number of clients, and each further
// client copies them.
type quantized struct {
	frame  int
	form   form
	cubes  []Cube
	clones int // instances sharing it beyond the first: keep a copy only then
	// lent: cubes may have been handed to the clients' instances as it
	// is (at the coded levels, see lend), which keep it in their
	// histories: the next frame is quantized into a new array.
	lent bool
	// fits are the player prediction's corrections fitted this tick
	// (levels 12-13), one per baseline the clients' packets name.
	fits fitShare
	// apart (tests): every instance fits its own corrections, makes its
	// own decisions, copies its own cubes and codes its packets twice
	// (measure, then write), as before they shared.
	apart bool
	// packets are the level 12-13 packets coded this tick, for the
	// clients whose packets are the same bits (sendshare.go).
	packets packetShare
	// traces are the decisions of the level 12-13 packets coded this
	// tick, for the clients whose packets make the same ones (trace.go).
	traces traceShare
	// lends and rebuilt count the baselines' models lent to a packet's
	// coding and those copied from a lender after (lend.go), over every
	// instance: tests and the design note's figures.
	lends, rebuilt atomic.Int64
	// cleanSkipped counts the lines the copies of models passed over,
	// clean in both (lend.go).
	cleanSkipped atomic.Int64
}

// form is what quantization depends on: the level, and at level 3
// whether cubes carry the at-rest flag (Config.AtRestFlag).
type form struct {
	level    Level
	restFlag bool
}

// formOf is the form the settings quantize to (the flag counts at level
// 3 only, so clones at other levels share one form whatever it says).
func formOf(c *Config) form {
	return form{c.Level, c.AtRestFlag || c.Level != BoundedVelocity}
}

// prepare quantizes the world w at frame f in form fm into the shared
// copy, when clones share it and it is not there yet.
func (q *quantized) prepare(w *cubes.World, f int, fm form) {
	if q.clones == 0 || (q.frame == f && q.form == fm && len(q.cubes) == w.NumCubes()) {
		return
	}
	if q.lent {
		// A new array, its whole size at once: appending to an empty one
		// grew it eight times over, a third of the serial part of a
		// level 13 tick's sending.
		q.cubes = make([]Cube, 0, w.NumCubes())
	}
	q.cubes = quantizeWorld(q.cubes[:0], w, fm)
	q.frame, q.form = f, fm
	// At the coded levels the array may be lent (lend), here where the
	// clients' instances are not sending yet (PrepareSend).
	q.lent = fm.level.IsCoded()
}

// quantizeWorld appends every cube of w quantized in form fm to dst.
// Without the at-rest flag no cube is at rest: each sends its velocity.
func quantizeWorld(dst []Cube, w *cubes.World, fm form) []Cube {
	for i := range w.NumCubes() {
		c := w.Cube(i)
		dst = append(dst, QuantizeCube(fm.level, CubeSample{
			Position: c.Position, Orientation: c.Orientation, LinearVelocity: c.LinearVelocity,
			Interacting: c.Interacting, AtRest: fm.restFlag && w.AtRest(i),
		}))
	}
	return dst
}

// fill puts the world w at frame f, quantized in form fm, into dst.
func (q *quantized) fill(dst []Cube, w *cubes.World, f int, fm form) {
	if q.clones == 0 {
		quantizeWorld(dst[:0], w, fm) // one instance: nothing to share
		return
	}
	q.prepare(w, f, fm)
	copy(dst, q.cubes)
}

// lend returns the world w at frame f quantized in form fm, for every
// client's instance to send and keep as it is, not a copy each (at 64
// clients the copies were a fifteenth of a level 13 server's work), or
// nil when each must fill its own: one instance, or a level whose coder
// writes its cubes. The coded levels (12-13) only read a sender's cubes,
// and a snapshot kept in a history is never written again.
func (q *quantized) lend(w *cubes.World, f int, fm form) []Cube {
	if q.clones == 0 || !fm.level.IsCoded() || q.apart {
		return nil
	}
	q.prepare(w, f, fm)
	return q.cubes
}

func (s *snapshotSender) build(cfg Config, n int) {
	s.history = NewBuffer(cfg.SenderSnapshots, n, false)
	s.initial = make([]Cube, n)
	s.current = make([]Cube, n)
	s.measure = wire.NewMeasureStream()
	s.packet.Baselines = s
	s.models.fresh = newModels
	s.undos.fresh = newUndo
}

func (s *snapshotSender) reset(initial []cubes.CubeState) {
	for k := range s.history.slots {
		s.releaseUndo(&s.history.slots[k])
	}
	s.undos.empty()
	if s.packet.ent != nil {
		s.packet.ent.lentBy = nil
	}
	dropAllModels(s.history, &s.models)
	s.history.Reset()
	quantizeInitial(s.initial, initial)
	s.newestAcked = -1
	s.stats = senderStats{}
}

// quantizeInitial fills dst with the initial state in the quantized form of
// levels 5-11: the baseline of the first packets, the same on both sides.
func quantizeInitial(dst []Cube, initial []cubes.CubeState) {
	for i := range dst {
		c := initial[i]
		dst[i] = QuantizeCube(BoundedPosition, CubeSample{
			Position: c.Position, Orientation: c.Orientation, Interacting: c.Interacting,
		})
	}
}

// snapshotModels implements modelSource for the sender.
func (s *snapshotSender) snapshotModels(seq uint16) *entropyModels {
	e := s.history.Find(s.frame + wire.SequenceDiff(seq, uint16(s.frame)))
	if e == nil || !e.HasModels {
		return nil
	}
	if e.undo != nil && e.undo.over != nil {
		// Lent (lend.go): rebuilt in its own storage.
		*e.Models = *e.undo.over
		e.undo.restore(e.Models)
		s.shared.rebuilt.Add(1)
	}
	return e.Models
}

// SnapshotBaseline implements Baselines for the sender.
func (s *snapshotSender) SnapshotBaseline(initial bool, seq uint16) []Cube {
	if initial {
		return s.initial
	}
	e := s.history.Find(s.frame + wire.SequenceDiff(seq, uint16(s.frame)))
	if e == nil || !e.Level.CanBeBaseline() {
		return nil
	}
	return e.Cubes
}

func (s *snapshotSender) send(ctx strategy.Context, cfg *Config) {
	f := ctx.Frame()
	if f%cfg.Rate.Interval() != 0 {
		s.stats.tick(f, nil, wire.Breakdown{}, nil)
		return
	}
	s.frame = f
	s.models.roll(f)
	s.undos.roll(f)
	s.dropOldModels()
	level := cfg.Level
	cubes := s.shared.lend(ctx.Left(), f, formOf(cfg))
	lent := cubes != nil
	if !lent {
		s.shared.fill(s.current, ctx.Left(), f, formOf(cfg))
		cubes = s.current
	}
	p := &s.packet
	p.Cubes, p.Sent = cubes, nil
	p.fits, p.traces = &s.shared.fits, &s.shared.traces
	if s.shared.apart || s.shared.clones == 0 {
		p.fits, p.traces = nil, nil
	}
	p.AllVelocities, p.Sequence = !cfg.AtRestFlag, uint16(f)
	h := s.header(cfg, f)
	h.set(p)
	var chain uint64
	var sp *sharedPacket
	publish := false
	if k, ok := s.packetKey(h, f); ok {
		chain, sp, publish = s.shared.packets.claim(k)
	}
	var b wire.Breakdown
	if sp != nil && !publish {
		p.load(sp) // another client's packet, the same bits
		b = sp.b
	} else {
		if _, err := p.ChooseEncoding(s.measure); err != nil {
			// Only a programming error gets here (every quantized value
			// is in range); send nothing rather than a packet the right
			// cannot read.
			s.stats.tick(f, nil, wire.Breakdown{}, nil)
			return
		}
		b = s.measure.Breakdown()
	}
	// The packet is written as measured: at levels 12-13 the coded
	// payload is sent again rather than coded a second time.
	p.reuse = !s.shared.apart
	_, err := ctx.Send(p)
	p.reuse = false
	if err != nil {
		s.stats.tick(f, nil, wire.Breakdown{}, nil)
		return
	}
	s.stats.tick(f, &p.Stats, b, p)
	if e := s.history.Insert(f); e != nil {
		e.Level = level
		e.Acked = false
		s.keepCubes(e, cubes, lent)
		coded := p.ent != nil && p.ent.coded
		s.releaseUndo(e)
		keepModels(e, p, &s.models)
		e.chain = chain
		if publish && coded {
			s.shared.packets.publish(sp, p, b, e.Models)
		}
	}
}

// keepCubes makes cubes, just sent, e's: the current array itself (the
// entry's old one becomes the next current), or the tick's array lent to
// every instance (lent), which the entry only reads. An array once lent
// never becomes the current one, which is written.
func (s *snapshotSender) keepCubes(e *Entry, cubes []Cube, lent bool) {
	old, oldLent := e.Cubes, e.lentCubes
	e.Cubes, e.lentCubes = cubes, lent
	if lent {
		return // the current array stays this sender's own
	}
	s.current = old
	if oldLent || len(old) != len(cubes) {
		s.current = make([]Cube, len(cubes))
	}
}

// dropOldModels lets go of the models of the snapshots older than the
// newest acked one: a baseline is always the newest acked snapshot, and
// that only moves forward, so they will never be one again.
func (s *snapshotSender) dropOldModels() {
	if s.keepAll {
		return
	}
	for k := 0; k < s.history.Len(); k++ {
		e := s.history.At(k)
		if e.Frame >= s.newestAcked {
			return
		}
		s.releaseUndo(e)
		dropModels(e, &s.models)
	}
}

// packetHeader is what the sender chooses of a packet's header before
// coding it: its level, its baseline, whether it carries the baseline's
// models, and level 13's older baseline.
type packetHeader struct {
	level                             Level
	predict, initial, carried, motion bool
	baseline                          uint16
	span                              uint8
}

// header chooses the header of the packet sent at frame f. It only reads
// the sender (the send plan asks for it before the tick's sends: plan.go).
func (s *snapshotSender) header(cfg *Config, f int) packetHeader {
	h := packetHeader{level: cfg.Level, predict: cfg.Predicting(), initial: true}
	if h.level.IsDelta() && s.newestAcked >= 0 {
		// The newest snapshot the right is known to hold. If it has left
		// our history (a long ack outage), or was sent at a raw level,
		// the initial state is the baseline: always safe.
		if e := s.history.Find(s.newestAcked); e != nil && e.Level.CanBeBaseline() {
			h.initial, h.baseline = false, uint16(e.Frame)
			h.carried = h.level.IsCoded() && cfg.CarryModels && e.HasModels
			if h.level >= MotionPredicted {
				h.motion, h.span = s.chooseMotion(e.Frame, f)
			}
		}
	}
	return h
}

// set makes h p's header (its sequence is the frame it is sent at).
func (h packetHeader) set(p *Packet) {
	p.Level, p.Predict, p.Initial, p.Baseline = h.level, h.predict, h.initial, h.baseline
	p.Carried, p.Motion, p.MotionSpan = h.carried, h.motion, h.span
}

// chooseMotion picks level 13's older baseline (entropy.go): the newest
// acked snapshot at least MotionSpanFor(age) frames before the baseline
// (b1, sent at frame f), within MaxMotionSpan frames, as its distance
// from b1; none, no motion.
func (s *snapshotSender) chooseMotion(b1, f int) (motion bool, span uint8) {
	age := f - b1
	if age < 1 || age > MaxMotionSpan {
		return false, 0
	}
	want := b1 - MotionSpanFor(age)
	for k := s.history.Len() - 1; k >= 0; k-- {
		e := s.history.At(k)
		if e.Frame > want {
			continue
		}
		if b1-e.Frame > MaxMotionSpan {
			return false, 0
		}
		if e.Acked && e.Level.CanBeBaseline() {
			return true, uint8(b1 - e.Frame)
		}
	}
	return false, 0
}

func (s *snapshotSender) acked(now int, seq uint16) {
	f := now + wire.SequenceDiff(seq, uint16(now))
	if f > now {
		return
	}
	if s.history != nil {
		if e := s.history.Find(f); e != nil {
			e.Acked = true
		}
	}
	if f > s.newestAcked {
		s.newestAcked = f
	}
}

// ---------------------------------------------------------------------------
// Right: the receiver

type snapshotReceiver struct {
	buffer  *Buffer    // received snapshots: baselines and the interpolation buffer
	initial []Cube     // the initial state, quantized form (the "initial" baseline)
	poses   []CubePose // the initial state, shown before anything arrives
	scratch []Cube     // decoding target, swapped into buffer
	sent    []bool
	packet  Packet
	clock   *playout.Clock

	newest    int // newest frame received
	hasNewest bool
	decoding  int // frame of the packet being decoded (to unwrap its baseline)
	models    modelPool
	keepAll   bool // tests: keep every snapshot's models, as before modelPool
	// The delay of the packets that reached the right (its frame minus
	// the packet's), the largest of this second and of the last (−1:
	// none): how late a packet can still arrive (dropOldModels).
	delayNow, delayPrev int

	ip      Interpolation
	showing bool // ip is valid this tick
	stats   receiverStats
	ad      recvAdapt // the adaptive delay (adapt.go)

	// midRun: reset after the world's start (a switch to the strategy, a
	// step that starts over): the initial world is not the left's now, so
	// until the first snapshot the right shows nothing rather than the
	// fresh grid as if it were the world.
	midRun bool
}

func (r *snapshotReceiver) build(cfg Config, n int) {
	r.buffer = NewBuffer(cfg.ReceiverSnapshots, n, true)
	r.initial = make([]Cube, n)
	r.poses = make([]CubePose, n)
	r.scratch = make([]Cube, n)
	r.sent = make([]bool, n)
	r.clock = playout.NewClock(cfg.Clock)
	r.packet.Baselines = r
	r.models.fresh = newModels
}

func (r *snapshotReceiver) reset(initial []cubes.CubeState, frame int) {
	dropAllModels(r.buffer, &r.models)
	r.buffer.Reset()
	r.delayNow, r.delayPrev = -1, -1
	quantizeInitial(r.initial, initial)
	for i := range r.poses {
		r.poses[i] = r.initial[i].Pose(BoundedPosition)
	}
	if frame == 0 {
		// The initial state is frame 0 itself: interpolate out of it.
		e := r.buffer.Insert(0)
		e.Level, e.Base = BoundedPosition, -1
		dropModels(e, &r.models)
		copy(e.Cubes, r.initial)
		for i := range e.Sent {
			e.Sent[i] = false
		}
		e.DecodePoses()
	}
	r.clock.Reset()
	r.ad.reset()
	r.hasNewest = false
	r.showing = false
	r.midRun = frame > 0
	r.ip = Interpolation{}
	r.stats = receiverStats{}
}

// unwrap turns a 16-bit sequence into the sender's full frame: the frame
// nearest the newest one received (any packet within half the sequence
// space, 9 minutes, of it unwraps correctly); before the first packet,
// nearest our own tick count, which runs at the sender's rate from the same
// start.
func (r *snapshotReceiver) unwrap(now int, seq uint16) int {
	ref := now
	if r.hasNewest {
		ref = r.newest
	}
	return ref + wire.SequenceDiff(seq, uint16(ref))
}

// keepModels stores in e the models packet p's coding ended with, at
// levels 12-13, for packets that will name e as their baseline; at the
// other levels, or when the packet coded nothing (every cube as in its
// baseline: a header only), it gives e's back to the pool, and a packet
// against e starts from fresh models. The packet's models are handed
// over, not copied: the packet takes e's old storage (or the pool's) in
// exchange, which its next pass overwrites whole.
func keepModels(e *Entry, p *Packet, pool *modelPool) {
	if !p.Level.IsCoded() || p.ent == nil || !p.ent.coded {
		dropModels(e, pool)
		return
	}
	if e.Models == nil {
		e.Models = pool.get()
	}
	e.Models, p.ent.models = p.ent.models, e.Models
	p.ent.coded, p.ent.lentBy = false, nil
	e.HasModels = true
}

// dropModels gives e's models back to the pool: e can no longer become a
// baseline.
func dropModels(e *Entry, pool *modelPool) {
	if e.Models != nil {
		pool.put(e.Models)
		e.Models = nil
	}
	e.HasModels = false
}

// modelPool recycles the storage of the carried models (316 kB each) on
// one side (see pool). Each side keeps models only for the snapshots that
// can still become a baseline: the sender for its newest acked snapshot
// and those in flight (a baseline is always the newest acked, and that
// only moves forward), the receiver for those at or after the newest
// baseline a packet that can still arrive may name (dropOldModels).
// Before, every one of the 64 + 128 slots kept its own: 61 MB.
type modelPool = pool[*entropyModels]

// newModels is a modelPool's fresh.
func newModels() *entropyModels { return new(entropyModels) }

// held counts the snapshots of b that hold models.
func heldModels(b *Buffer) int {
	n := 0
	if b != nil {
		for i := range b.slots {
			if b.slots[i].Models != nil {
				n++
			}
		}
	}
	return n
}

// dropAllModels gives back the models of every snapshot b holds, and
// empties the pool.
func dropAllModels(b *Buffer, p *modelPool) {
	if b != nil {
		for i := range b.slots {
			dropModels(&b.slots[i], p)
		}
	}
	p.empty()
}

// snapshotModels implements modelSource for the receiver.
func (r *snapshotReceiver) snapshotModels(seq uint16) *entropyModels {
	f := r.decoding + wire.SequenceDiff(seq, uint16(r.decoding))
	if f >= r.decoding {
		return nil
	}
	e := r.buffer.Find(f)
	if e == nil || !e.HasModels {
		return nil
	}
	return e.Models
}

// SnapshotBaseline implements Baselines for the receiver.
func (r *snapshotReceiver) SnapshotBaseline(initial bool, seq uint16) []Cube {
	if initial {
		return r.initial
	}
	f := r.decoding + wire.SequenceDiff(seq, uint16(r.decoding))
	if f >= r.decoding {
		return nil // a baseline must be older than the snapshot
	}
	e := r.buffer.Find(f)
	if e == nil || !e.Level.CanBeBaseline() {
		return nil
	}
	return e.Cubes
}

func (r *snapshotReceiver) receive(now int, seq uint16, s *wire.ReadStream, cfg *Config) error {
	f := r.unwrap(now, seq)
	if f > now || f < 0 {
		// A snapshot of a frame the left has not reached, or from before
		// it started: hostile or corrupt. Taking it would make it the
		// newest snapshot, pull the playout clock into the future and
		// move the reference every later sequence is unwrapped against.
		r.stats.rejected++
		return errFrameOutOfRange
	}
	r.delayNow = max(r.delayNow, now-f)
	r.decoding = f
	p := &r.packet
	p.Cubes, p.Sent, p.Sequence = r.scratch, r.sent, seq
	if err := p.Serialize(s); err != nil {
		r.stats.rejected++
		return err
	}
	e := r.buffer.Insert(f)
	if e == nil {
		// Already held, or older than everything held: nothing to add.
		r.stats.ignored++
		return nil
	}
	e.Level = p.Level
	e.Cubes, r.scratch = r.scratch, e.Cubes
	e.Sent, r.sent = r.sent, e.Sent
	e.Base = -1
	if p.Level.IsDelta() && !p.Initial {
		e.Base = f + wire.SequenceDiff(p.Baseline, uint16(f))
	}
	keepModels(e, p, &r.models)
	r.dropOldModels(now)
	e.DecodePoses()
	r.setClock(cfg) // the first packet snaps the clock to the current delay
	r.clock.OnPacket(f, now)
	if !r.hasNewest || f > r.newest {
		r.newest, r.hasNewest = f, true
	}
	r.stats.received++
	return nil
}

// setClock gives the clock the settings' delay and send interval.
func (r *snapshotReceiver) setClock(cfg *Config) {
	r.clock.SetDelay(float64(r.delayTicks(cfg)))
	r.clock.SetInterval(float64(cfg.Rate.Interval()))
}

// dropOldModels lets go of the models of the snapshots no packet that can
// still arrive will name as its baseline. The sender's baseline is its
// newest acked snapshot, which only moves forward: a packet sent after
// another names the same baseline or a newer one. A packet that can still
// arrive was sent at most the largest delay measured (plus a quarter and
// delayMargin ticks) ago; the snapshots sent before that each name a
// baseline (Base) no later packet goes below. A packet later than that
// finds no models and is refused, as a lost packet.
func (r *snapshotReceiver) dropOldModels(now int) {
	d := max(r.delayNow, r.delayPrev)
	if d < 0 || r.keepAll {
		return
	}
	sentBy := now - (d + d/4 + delayMargin)
	floor := -1
	for k := 0; k < r.buffer.Len(); k++ {
		if e := r.buffer.At(k); e.Frame <= sentBy {
			floor = max(floor, e.Base)
		}
	}
	for k := 0; k < r.buffer.Len(); k++ {
		e := r.buffer.At(k)
		if e.Frame >= floor {
			return
		}
		dropModels(e, &r.models)
	}
}

// delayMargin is the ticks added to the largest delay measured for the
// packets still to come (dropOldModels): the jitter to come.
const delayMargin = 4

func (r *snapshotReceiver) update(now int, cfg *Config) {
	if now%wire.TicksPerSecond == 0 {
		r.delayPrev, r.delayNow = r.delayNow, -1
	}
	r.models.roll(now)
	r.setClock(cfg)
	r.clock.Advance()
	r.showing = false
	st := &r.stats
	st.starvedNow = false
	st.depth = 0
	if !r.clock.Started() {
		return
	}
	// The playout time can never pass the sender's present. (Here the
	// receiver's tick count is the sender's frame, both sides having
	// started together; a negative delay in extrapolation mode stops
	// there.)
	t := min(r.clock.Time(now), float64(now))
	limit := cfg.StarveExtrapolateTicks
	if cfg.Render == RenderExtrapolate {
		limit = cfg.ExtrapolateLimitTicks
	}
	ip, ok := r.buffer.Interpolate(cfg.Render, t, limit)
	r.ip, r.showing = ip, ok
	if ok {
		// The snapshots read: decoded (again, if the playout time went
		// back); the older ones let their poses go.
		b := r.buffer
		b.EnsurePoses(ip.prev)
		b.EnsurePoses(ip.A)
		b.EnsurePoses(ip.B)
		b.EnsurePoses(ip.next)
		oldest := ip.A
		if ip.prev != nil {
			oldest = ip.prev
		}
		b.ReleasePoses(oldest.Frame)
	}
	st.playout = t
	st.depth = r.buffer.CountAfter(t)
	if !ok {
		return
	}
	st.delayTicks = float64(now) - ip.Shown
	if cfg.Render.interpolates() && ip.Starved {
		st.starvedNow = true
		st.starved++
	}
	if ip.Extrapolated > 0 && cfg.Render != RenderLatest {
		st.extrapolated++
	}
}

func (r *snapshotReceiver) view(v *viewmodel.View, halves []float64) (float64, bool) {
	v.Player = cubes.Player
	if !r.showing && r.midRun {
		return 0, false
	}
	if !r.showing {
		for i := range r.poses {
			p := &r.poses[i]
			v.Cubes = append(v.Cubes, viewmodel.CubeView{
				Position: p.Position, Orientation: p.Orientation, HalfExtent: halves[i],
				Player: i == cubes.Player, Interacting: p.Interacting, AtRest: true,
			})
		}
		return 0, false
	}
	for i := range halves {
		p, sent := r.ip.Cube(i)
		v.Cubes = append(v.Cubes, viewmodel.CubeView{
			Position: p.Position, Orientation: p.Orientation, HalfExtent: halves[i],
			Player: i == cubes.Player, Interacting: p.Interacting, AtRest: p.AtRest,
			Updated: sent,
		})
	}
	return r.ip.Shown, true
}

// Clone implements strategy.Strategy: an instance for one more client,
// with the same settings, sharing the server's quantized world.
func (st *Strategy) Clone() strategy.Strategy {
	c := New(st.cfg)
	c.id, c.name = st.id, st.name
	c.setSub(st.sub)
	c.orig, c.beforeOriginal = st.orig, st.beforeOriginal
	c.send.shared = st.send.shared
	st.send.shared.clones++
	return c
}

// PrepareSend implements strategy.Preparer: the world quantized at the
// current level, once for every client's instance (the parallel sends
// then only copy it).
func (st *Strategy) PrepareSend(ctx strategy.Context) {
	st.send.shared.prepare(ctx.Left(), ctx.Frame(), formOf(&st.cfg))
}
