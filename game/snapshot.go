package game

import (
	"netcubes/cubes"
	"netcubes/net"
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
// Levels 9-11 can also delta-encode the cubes near the player against
// where the player's motion carried them (SnapshotConfig.PlayerPrediction,
// net/snapshot_predict.go): our step beyond the article, on by default and
// shown in the mode string, off for the article's exact levels.
//
// Gaps: when the playout time passes the newest snapshot (lost or late
// packets), an interpolating right is "starved": it moves cubes on at their
// last velocity for StarveExtrapolateTicks, then holds them, and counts the
// tick (Stats().StarvedTicks). The playout clock (net/playout.go) keeps
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
// nothing (View's ok = false), until the playout time reaches the first
// snapshot received.

func init() {
	registerStrategy(StrategySnapshot, func() Strategy { return NewSnapshotStrategy(DefaultSnapshotConfig()) })
}

// SnapshotStrategy is snapshot interpolation with the eleven compression
// levels. The UI reaches it with SnapshotOf(session) and changes its
// settings live between Steps.
type SnapshotStrategy struct {
	cfg      SnapshotConfig
	built    bool // storage allocated (on the first Reset)
	numCubes int
	halves   []float64 // half extents, from the world configuration both sides share

	send snapshotSender
	recv snapshotReceiver
}

// NewSnapshotStrategy returns the strategy with the given settings (out-of-
// range fields are clamped). Storage is allocated on the first Reset.
func NewSnapshotStrategy(cfg SnapshotConfig) *SnapshotStrategy {
	cfg.sanitize()
	return &SnapshotStrategy{cfg: cfg}
}

// SnapshotOf returns the session's snapshot strategy (active or not), for
// the UI's settings keys.
func SnapshotOf(s *Session) *SnapshotStrategy {
	st, _ := s.StrategyByID(StrategySnapshot).(*SnapshotStrategy)
	return st
}

// ---------------------------------------------------------------------------
// Settings (safe to call between Steps)

// Config returns the current settings.
func (st *SnapshotStrategy) Config() SnapshotConfig { return st.cfg }

// SetConfig replaces the settings (clamped). Buffer sizes take effect at
// the next Reset.
func (st *SnapshotStrategy) SetConfig(c SnapshotConfig) {
	c.sanitize()
	st.cfg = c
}

// Rate is the send rate; SetRate changes it from the next tick.
func (st *SnapshotStrategy) Rate() SnapshotRate { return st.cfg.Rate }

// SetRate changes the send rate (an invalid rate is ignored).
func (st *SnapshotStrategy) SetRate(r SnapshotRate) {
	if r.Valid() {
		st.cfg.Rate = r
	}
}

// Render is the render mode.
func (st *SnapshotStrategy) Render() RenderMode { return st.cfg.Render }

// SetRender changes the render mode (an invalid mode is ignored).
func (st *SnapshotStrategy) SetRender(m RenderMode) {
	if m.Valid() {
		st.cfg.Render = m
	}
}

// Level is the compression level.
func (st *SnapshotStrategy) Level() net.SnapshotLevel { return st.cfg.Level }

// SetLevel changes the compression level from the next snapshot (an
// invalid level is ignored). Packets in flight decode at the level they
// carry.
func (st *SnapshotStrategy) SetLevel(l net.SnapshotLevel) {
	if l.Valid() {
		st.cfg.Level = l
	}
}

// PlayerPrediction reports whether the player-relative prediction is on
// (it applies at levels 9-11).
func (st *SnapshotStrategy) PlayerPrediction() bool { return st.cfg.PlayerPrediction }

// SetPlayerPrediction switches the player-relative prediction from the
// next snapshot (each packet says whether it uses it).
func (st *SnapshotStrategy) SetPlayerPrediction(on bool) { st.cfg.PlayerPrediction = on }

// DelayNudge is the nudge added to the default delay, in ticks.
func (st *SnapshotStrategy) DelayNudge() int { return st.cfg.DelayNudgeTicks }

// SetDelayNudge sets the nudge in ticks (clamped to ±MaxDelayNudgeTicks).
func (st *SnapshotStrategy) SetDelayNudge(ticks int) {
	st.cfg.DelayNudgeTicks = min(max(ticks, -MaxDelayNudgeTicks), MaxDelayNudgeTicks)
}

// NudgeDelay adds delta ticks to the nudge (a key press: +1 or -1).
func (st *SnapshotStrategy) NudgeDelay(delta int) { st.SetDelayNudge(st.cfg.DelayNudgeTicks + delta) }

// TargetDelayTicks is the interpolation delay in use, nudge included.
func (st *SnapshotStrategy) TargetDelayTicks() int { return st.cfg.DelayTicks() }

// UseInterpolationDemo selects uncompressed snapshots at 10 Hz with hermite
// interpolation (the snapshot interpolation article).
func (st *SnapshotStrategy) UseInterpolationDemo() { st.cfg.UseInterpolationDemo() }

// UseCompressionDemo selects level 11 at 60 Hz with linear interpolation
// (the snapshot compression article).
func (st *SnapshotStrategy) UseCompressionDemo() { st.cfg.UseCompressionDemo() }

// LevelExplain is the HUD line for the current level.
func (st *SnapshotStrategy) LevelExplain() string { return st.cfg.Level.Explain() }

// RenderExplain is the HUD line for the current render mode.
func (st *SnapshotStrategy) RenderExplain() string { return st.cfg.Render.Explain() }

// ---------------------------------------------------------------------------
// Strategy

// Name implements Strategy.
func (st *SnapshotStrategy) Name() string { return "Snapshot interpolation" }

// Mode implements Strategy: "level 9 · 60 Hz · linear+slerp · delay 83 ms".
func (st *SnapshotStrategy) Mode() string { return st.cfg.String() }

// Explain implements Strategy: the level's line once compression is on
// (level 2 and up), else the render mode's.
func (st *SnapshotStrategy) Explain() string {
	if st.cfg.Level > net.SnapshotUncompressed {
		return st.cfg.Level.Explain()
	}
	return st.cfg.Render.Explain()
}

// Reset implements Strategy: both sides start again from the initial state.
func (st *SnapshotStrategy) Reset(ctx *Context) {
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
	st.recv.clock = net.NewSnapshotClock(st.cfg.Clock)
	initial := ctx.Initial()
	st.send.reset(initial)
	st.recv.reset(initial, ctx.Frame())
}

// Send implements Strategy.
func (st *SnapshotStrategy) Send(ctx *Context) { st.send.send(ctx, &st.cfg) }

// Acked implements Strategy.
func (st *SnapshotStrategy) Acked(ctx *Context, seq uint16) { st.send.acked(ctx.Frame(), seq) }

// Receive implements Strategy.
func (st *SnapshotStrategy) Receive(ctx *Context, seq uint16, s *net.ReadStream) error {
	return st.recv.receive(ctx.Frame(), seq, s, &st.cfg)
}

// Update implements Strategy.
func (st *SnapshotStrategy) Update(ctx *Context) { st.recv.update(ctx.Frame(), &st.cfg) }

// View implements Strategy.
func (st *SnapshotStrategy) View(v *View) (float64, bool) { return st.recv.view(v, st.halves) }

// ---------------------------------------------------------------------------
// Left: the sender

type snapshotSender struct {
	history *net.SnapshotBuffer // sent snapshots, quantized: candidate baselines
	initial []net.SnapshotCube  // the initial state in the quantized form
	current []net.SnapshotCube  // the snapshot being sent (swapped into history)
	packet  net.SnapshotPacket
	measure *net.MeasureStream

	frame       int // the left's frame while sending (to unwrap baselines)
	newestAcked int // newest snapshot frame the right acked, -1 = none
	stats       senderStats
}

func (s *snapshotSender) build(cfg SnapshotConfig, n int) {
	s.history = net.NewSnapshotBuffer(cfg.SenderSnapshots, n, false)
	s.initial = make([]net.SnapshotCube, n)
	s.current = make([]net.SnapshotCube, n)
	s.measure = net.NewMeasureStream()
	s.packet.Baselines = s
}

func (s *snapshotSender) reset(initial []cubes.CubeState) {
	s.history.Reset()
	quantizeInitial(s.initial, initial)
	s.newestAcked = -1
	s.stats = senderStats{}
}

// quantizeInitial fills dst with the initial state in the quantized form of
// levels 5-11: the baseline of the first packets, the same on both sides.
func quantizeInitial(dst []net.SnapshotCube, initial []cubes.CubeState) {
	for i := range dst {
		c := initial[i]
		dst[i] = net.QuantizeCube(net.SnapshotBoundedPosition, net.CubeSample{
			Position: c.Position, Orientation: c.Orientation, Interacting: c.Interacting,
		})
	}
}

// SnapshotBaseline implements net.SnapshotBaselines for the sender.
func (s *snapshotSender) SnapshotBaseline(initial bool, seq uint16) []net.SnapshotCube {
	if initial {
		return s.initial
	}
	e := s.history.Find(s.frame + net.SequenceDiff(seq, uint16(s.frame)))
	if e == nil || !e.Level.CanBeBaseline() {
		return nil
	}
	return e.Cubes
}

func (s *snapshotSender) send(ctx *Context, cfg *SnapshotConfig) {
	f := ctx.Frame()
	if f%cfg.Rate.Interval() != 0 {
		s.stats.tick(f, nil, net.Breakdown{}, nil)
		return
	}
	s.frame = f
	w := ctx.Left()
	level := cfg.Level
	for i := range s.current {
		c := w.Cube(i)
		s.current[i] = net.QuantizeCube(level, net.CubeSample{
			Position: c.Position, Orientation: c.Orientation, LinearVelocity: c.LinearVelocity,
			Interacting: c.Interacting, AtRest: w.AtRest(i),
		})
	}
	p := &s.packet
	p.Level, p.Cubes, p.Sent = level, s.current, nil
	p.Predict = cfg.Predicting()
	p.Initial, p.Baseline = true, 0
	if level.IsDelta() && s.newestAcked >= 0 {
		// The newest snapshot the right is known to hold. If it has left
		// our history (a long ack outage), or was sent at a raw level,
		// the initial state is the baseline: always safe.
		if e := s.history.Find(s.newestAcked); e != nil && e.Level.CanBeBaseline() {
			p.Initial, p.Baseline = false, uint16(e.Frame)
		}
	}
	if _, err := p.ChooseEncoding(s.measure); err != nil {
		// Only a programming error gets here (every quantized value is in
		// range); send nothing rather than a packet the right cannot read.
		s.stats.tick(f, nil, net.Breakdown{}, nil)
		return
	}
	b := s.measure.Breakdown()
	if _, err := ctx.Send(p); err != nil {
		s.stats.tick(f, nil, net.Breakdown{}, nil)
		return
	}
	s.stats.tick(f, &p.Stats, b, p)
	if e := s.history.Insert(f); e != nil {
		e.Level = level
		e.Cubes, s.current = s.current, e.Cubes
	}
}

func (s *snapshotSender) acked(now int, seq uint16) {
	f := now + net.SequenceDiff(seq, uint16(now))
	if f <= now && f > s.newestAcked {
		s.newestAcked = f
	}
}

// ---------------------------------------------------------------------------
// Right: the receiver

type snapshotReceiver struct {
	buffer  *net.SnapshotBuffer // received snapshots: baselines and the interpolation buffer
	initial []net.SnapshotCube  // the initial state, quantized form (the "initial" baseline)
	poses   []net.CubePose      // the initial state, shown before anything arrives
	scratch []net.SnapshotCube  // decoding target, swapped into buffer
	sent    []bool
	packet  net.SnapshotPacket
	clock   *net.SnapshotClock

	newest    int // newest frame received
	hasNewest bool
	decoding  int // frame of the packet being decoded (to unwrap its baseline)

	ip      net.Interpolation
	showing bool // ip is valid this tick
	stats   receiverStats
}

func (r *snapshotReceiver) build(cfg SnapshotConfig, n int) {
	r.buffer = net.NewSnapshotBuffer(cfg.ReceiverSnapshots, n, true)
	r.initial = make([]net.SnapshotCube, n)
	r.poses = make([]net.CubePose, n)
	r.scratch = make([]net.SnapshotCube, n)
	r.sent = make([]bool, n)
	r.clock = net.NewSnapshotClock(cfg.Clock)
	r.packet.Baselines = r
}

func (r *snapshotReceiver) reset(initial []cubes.CubeState, frame int) {
	r.buffer.Reset()
	quantizeInitial(r.initial, initial)
	for i := range r.poses {
		r.poses[i] = r.initial[i].Pose(net.SnapshotBoundedPosition)
	}
	if frame == 0 {
		// The initial state is frame 0 itself: interpolate out of it.
		e := r.buffer.Insert(0)
		e.Level = net.SnapshotBoundedPosition
		copy(e.Cubes, r.initial)
		for i := range e.Sent {
			e.Sent[i] = false
		}
		e.DecodePoses()
	}
	r.clock.Reset()
	r.hasNewest = false
	r.showing = false
	r.ip = net.Interpolation{}
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
	return ref + net.SequenceDiff(seq, uint16(ref))
}

// SnapshotBaseline implements net.SnapshotBaselines for the receiver.
func (r *snapshotReceiver) SnapshotBaseline(initial bool, seq uint16) []net.SnapshotCube {
	if initial {
		return r.initial
	}
	f := r.decoding + net.SequenceDiff(seq, uint16(r.decoding))
	if f >= r.decoding {
		return nil // a baseline must be older than the snapshot
	}
	e := r.buffer.Find(f)
	if e == nil || !e.Level.CanBeBaseline() {
		return nil
	}
	return e.Cubes
}

func (r *snapshotReceiver) receive(now int, seq uint16, s *net.ReadStream, cfg *SnapshotConfig) error {
	f := r.unwrap(now, seq)
	r.decoding = f
	p := &r.packet
	p.Cubes, p.Sent = r.scratch, r.sent
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
func (r *snapshotReceiver) setClock(cfg *SnapshotConfig) {
	r.clock.SetDelay(float64(cfg.DelayTicks()))
	r.clock.SetInterval(float64(cfg.Rate.Interval()))
}

func (r *snapshotReceiver) update(now int, cfg *SnapshotConfig) {
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
	ip, ok := r.buffer.Interpolate(net.InterpMode(cfg.Render), t, limit)
	r.ip, r.showing = ip, ok
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

func (r *snapshotReceiver) view(v *View, halves []float64) (float64, bool) {
	v.Player = cubes.Player
	if !r.showing {
		for i := range r.poses {
			p := &r.poses[i]
			v.Cubes = append(v.Cubes, CubeView{
				Position: p.Position, Orientation: p.Orientation, HalfExtent: halves[i],
				Player: i == cubes.Player, Interacting: p.Interacting, AtRest: true,
			})
		}
		return 0, false
	}
	for i := range halves {
		p, sent := r.ip.Cube(i)
		v.Cubes = append(v.Cubes, CubeView{
			Position: p.Position, Orientation: p.Orientation, HalfExtent: halves[i],
			Player: i == cubes.Player, Interacting: p.Interacting, AtRest: p.AtRest,
			Updated: sent,
		})
	}
	return r.ip.Shown, true
}
