package statesync

import (
	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/geom"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/transfer"
	"netcubes/wire"
)

// Design note: the right side of state synchronization.
//
// Receive (as each packet arrives): decode it (delta bases come from the
// packets decoded before, which the sender only uses once it knows they
// arrived), remember what it carried as future bases, store its 32 inputs by
// frame, tell the playout clock when it arrived, and put its updates in the
// jitter buffer.
//
// Update (once per tick): the playout clock says how many frames to advance,
// normally one. Each frame: quantize the world (when both sides quantize),
// step it with the left's input for that frame (or, if that has not arrived,
// the latest input known: the right never waits), then apply the packets of
// that frame, or older ones that came late. Applying snaps each cube hard to
// its update (or blends, to show why not), re-bases its error offsets so the
// drawn pose does not move, and marks it updated. Finally the error offsets
// fade by one tick.
//
// The right's frame. Sequence numbers are frames mod 65536; the right
// unwraps them around its own tick count, which runs at the same 60 Hz from
// the same start (a real receiver would learn the frame base when it
// connects). Its world must be at the same frame number as the left's, since
// part of the game depends on it (the player's wobble and its bobbing while
// blowing follow the frame count), but a new cubes.World always starts at
// frame 0. So when the clock starts at frame F > 0 (the strategy switched on
// mid-run), the right sets its fresh world's frame to F: its state is the
// initial one, as wrong as any initial state would be, and the updates
// correct it.

// recvPacket is a packet waiting in the jitter buffer: its frame and its
// updates in simulation form.
type recvPacket struct {
	frame      int
	n          int32
	compressed bool
	index      [replication.MaxUpdates]int32
	state      [replication.MaxUpdates]cubes.CubeState
	q          [replication.MaxUpdates]replication.QuantizedCubeState // compressed packets
}

// maxClockTransit is the oldest a packet may be (ticks since its frame) and
// still inform the playout clock: 10 s, far beyond any delay a preset, a
// bottleneck queue or TCP-like retransmission gives a packet, yet well
// short of a hostile sequence's.
const maxClockTransit = 10 * wire.TicksPerSecond

// inputRing is how many frames of input the right remembers: the 32 of the
// newest packet plus how far the right's world may lag behind it (the jitter
// buffer, the link's jitter, a clock catching up), with room to spare.
// A right that joins keeps them while its block comes (join.go): 512
// frames, 8.5 s, and a block not in after half of them starts over.
const inputRing = 512

// recvInput is one frame's inputs as the right received them: bits[p] is
// player p+1's.
type recvInput struct {
	frame int // −1: empty
	bits  [cubes.MaxPlayers]uint8
}

// inputs unpacks the players' inputs.
func (e *recvInput) inputs() cubes.Inputs {
	var in cubes.Inputs
	for p, b := range e.bits {
		in[p] = cubes.InputFromBits(b)
	}
	return in
}

// recvFlag is whether the left quantized its world at a frame.
type recvFlag struct {
	frame int // −1: empty
	on    bool
}

// stateSyncReceiver is the right side. It allocates only in reset.
type stateSyncReceiver struct {
	world       *cubes.World
	quant       quantizer
	clock       *PlayoutClock
	jb          *JitterBuffer[recvPacket]
	hist        *replication.History
	pkt         replication.Packet
	inputs      [inputRing]recvInput // by frame
	quantized   [inputRing]recvFlag  // by frame: the packet's Quantized flag
	lastInput   cubes.Inputs
	lastApplied []int // frame of the newest update applied to each cube, −1
	// colour is each cube's interacting flag as the left last said it (the
	// updates carry it). The view draws it: the right's world runs the
	// game's own rule too (red spreads by contact, fades at rest), but
	// after a drift that rule paints cubes the left never touched, in
	// place and with a 0.0 cm error, so the audience would see two worlds
	// that "differ". With sync off the right's own rule is all there is.
	colour      []bool
	updated     []bool
	updatedList []int32
	smooth      replication.Smoother
	// piece is where a piece of a join block is read (join.go).
	piece transfer.Piece
	// substeps is the left's solver substeps (the right's world as the
	// session built it): what a diverging machine differs from.
	substeps int

	// contacts is the right world's contacts as the setting wants them
	// (contacts.go).
	contacts softened

	// recordInputs keeps the input each frame was stepped with (tests).
	recordInputs bool
	usedInputs   []recvInput
}

func (r *stateSyncReceiver) reset(st *Strategy, ctx strategy.Context) {
	n := st.n
	r.world = ctx.NewWorld()
	r.substeps = r.world.Physics().Config().Substeps
	r.quant.reset(n)
	if len(r.lastApplied) != n {
		r.lastApplied = make([]int, n)
		r.colour = make([]bool, n)
		r.updated = make([]bool, n)
		r.updatedList = make([]int32, 0, n)
		r.hist = replication.NewHistory()
		r.jb = NewJitterBuffer[recvPacket](64)
	}
	if r.clock == nil {
		r.clock = NewPlayoutClock(PlayoutConfig{DelayFrames: st.set.JitterFrames, WindowTicks: st.cfg.JitterWindowTicks})
	}
	r.clock.Reset()
	r.clock.SetDelayFrames(st.set.JitterFrames)
	r.jb.Reset()
	r.hist.Reset()
	for k := range r.inputs {
		r.inputs[k] = recvInput{frame: -1}
		r.quantized[k] = recvFlag{frame: -1}
	}
	r.lastInput = cubes.Inputs{}
	for i := range n {
		r.colour[i] = r.world.Interacting(i)
		r.lastApplied[i] = -1
		r.updated[i] = false
	}
	r.updatedList = r.updatedList[:0]
	r.smooth.Resize(n)
	r.usedInputs = r.usedInputs[:0]
}

// frame is the left frame the right's world is at.
func (r *stateSyncReceiver) frame() int { return r.world.Frame() }

func (r *stateSyncReceiver) receive(st *Strategy, ctx strategy.Context, seq uint16, s *wire.ReadStream) error {
	now := ctx.Frame()
	// Every index below (inputs and flags by frame, the clock's transit)
	// derives from this frame: a sequence ahead of now, by any distance,
	// or one that unwraps before frame 0, is refused before any of them.
	frame, ok := wire.FrameOf(seq, now)
	if !ok {
		return errFrameOutOfRange
	}
	pkt := &r.pkt
	pkt.NumCubes = int32(st.n)
	pkt.Players = int32(ctx.Players())
	pkt.History = r.hist
	if err := pkt.Serialize(s); err != nil {
		return err
	}
	if err := st.receivePiece(ctx, frame, s); err != nil {
		return err
	}
	r.hist.Record(seq, pkt)
	st.stats.Packets++

	// replication.Inputs: replication.Inputs[k] is frame − 32 + k. An input first learned from a
	// packet other than the next frame's is one the redundancy saved.
	for k, b := range pkt.Inputs {
		f := frame - replication.Inputs + k
		if f < 0 {
			continue
		}
		slot := &r.inputs[f%len(r.inputs)]
		if slot.frame >= f {
			continue // known (or a newer frame holds the slot)
		}
		*slot = recvInput{frame: f}
		slot.bits[0] = b
		for p := 1; p < int(pkt.Players); p++ {
			slot.bits[p] = pkt.Others[p-1][k]
		}
		if f != frame-1 {
			st.stats.InputsRecovered++
		}
	}

	if q := &r.quantized[frame%len(r.quantized)]; q.frame < frame {
		*q = recvFlag{frame: frame, on: pkt.Quantized}
	}
	// A packet older than maxClockTransit says nothing about the network's
	// delay that the clock could use, and one alone must not set it: a
	// hostile packet 30,000 frames old as the first to arrive would start
	// the right that far back, to catch up at one frame per tick.
	if now-frame <= maxClockTransit {
		r.clock.Arrived(wire.Tick(now), frame)
	}
	slot := r.jb.Insert(seq)
	if slot == nil {
		return nil // older than the buffer can hold: its updates are of no use
	}
	slot.frame = frame
	slot.n = pkt.NumUpdates
	slot.compressed = pkt.Compressed
	for k := range pkt.NumUpdates {
		u := &pkt.Updates[k]
		slot.index[k] = u.Index
		if pkt.Compressed {
			slot.q[k] = u.State
			slot.state[k] = stateFromQuantized(&u.State, u.Interacting)
		} else {
			p, q, l, a := u.Raw.State()
			slot.state[k] = cubes.CubeState{Position: p, Orientation: q, LinearVelocity: l, AngularVelocity: a, Interacting: u.Interacting}
		}
	}
	return nil
}

func (r *stateSyncReceiver) update(st *Strategy, ctx strategy.Context) {
	now := ctx.Frame()
	for _, i := range r.updatedList {
		r.updated[i] = false
	}
	r.updatedList = r.updatedList[:0]
	st.joined.now, st.joined.rightRuns = now, true
	if st.joined.waiting() {
		r.fillStats(st, now)
		return // the block of the world is on its way (join.go)
	}

	if !r.clock.Started() {
		target, ok := r.clock.Target(wire.Tick(now))
		if !ok {
			r.fillStats(st, now)
			return // nothing has arrived yet
		}
		// A right that joined from a block starts from the block's frame
		// and catches up on the inputs it kept; otherwise the fresh
		// world's frame jumps to the target.
		if r.world.Frame() < target && !st.joined.ready {
			r.world.SetFrame(target)
		}
		// At session start the target may be below 0: the world waits at
		// frame 0 (the initial state, exact) and the clock holds until the
		// target catches up.
		r.clock.Start(r.world.Frame())
		r.deliver(st, r.world.Frame())
	} else {
		steps := r.clock.Advance(wire.Tick(now))
		r.follow(st)
		r.contacts.follow(r.world.Physics(), st.set.SoftContacts)
		for range steps {
			f := r.frame()
			if r.quantizeAt(st, f) {
				r.quant.run(r.world, true, st.set.Coarse)
			}
			in := r.inputFor(st, f)
			r.world.StepAll(&in)
			st.set.Divergence.AfterStep(r.world)
			r.deliver(st, f+1)
		}
		if steps == 0 {
			r.deliver(st, r.frame()) // late packets, while the clock holds
		}
	}
	r.smooth.Decay(st.set.Smoothing)
	r.fillStats(st, now)
}

// quantizeAt reports whether to quantize before stepping from frame f: as
// the left did at that frame (the packet of frame f says), or as the latest
// packet before it said, or as this side is set when nothing has arrived.
func (r *stateSyncReceiver) quantizeAt(st *Strategy, f int) bool {
	for g := f; g >= 0 && g > f-len(r.quantized); g-- {
		if e := r.quantized[g%len(r.quantized)]; e.frame == g {
			return e.on
		}
	}
	return st.set.Quantize
}

// inputFor returns the inputs to step frame f with: the left's, when they
// have arrived, else the latest ones known before them.
func (r *stateSyncReceiver) inputFor(st *Strategy, f int) cubes.Inputs {
	in := r.lastInput
	if f < 0 {
		f = 0 // cannot happen (the world's frame never is); keeps the index valid
	}
	if e := &r.inputs[f%len(r.inputs)]; e.frame == f {
		in = e.inputs()
		st.stats.InputsExact++
	} else {
		st.stats.InputsGuessed++
		for g := f - 1; g >= 0 && g > f-len(r.inputs); g-- {
			if e := &r.inputs[g%len(r.inputs)]; e.frame == g {
				in = e.inputs()
				break
			}
		}
	}
	r.lastInput = in
	if r.recordInputs {
		u := recvInput{frame: f}
		u.bits[0] = in[0].Bits()
		r.usedInputs = append(r.usedInputs, u)
	}
	return in
}

// deliver applies every buffered packet whose frame is at or before f.
func (r *stateSyncReceiver) deliver(st *Strategy, f int) {
	for {
		_, p, ok := r.jb.Pop(uint16(f))
		if !ok {
			return
		}
		if p.frame < f {
			st.stats.LatePackets++
		}
		r.apply(st, p)
	}
}

// shownColour is the interacting flag the view draws for cube i: the
// left's as last received, or the right's own (own) with sync off.
func (r *stateSyncReceiver) shownColour(st *Strategy, i int, own bool) bool {
	if st.set.SyncOff || i == cubes.Player {
		return own
	}
	return r.colour[i]
}

// apply snaps (or blends) the cubes of one packet.
func (r *stateSyncReceiver) apply(st *Strategy, p *recvPacket) {
	set := &st.set
	for k := range p.n {
		i := int(p.index[k])
		if set.SyncOff {
			st.stats.IgnoredUpdates++
			continue
		}
		if r.lastApplied[i] >= p.frame {
			st.stats.StaleUpdates++
			continue
		}
		r.lastApplied[i] = p.frame
		old := r.world.Cube(i)
		// The update carries the left's interacting flag: the right's own
		// rule (touching the pile, fading after a rest) runs on between
		// updates, but what the left says wins.
		ns := p.state[k]
		r.colour[i] = ns.Interacting
		if !set.Snap {
			ns = blendState(&old, &ns, st.cfg.BlendFactor)
		}
		if r.world.SetCube(i, ns) != nil {
			continue
		}
		if p.compressed && set.Snap {
			r.quant.snapped(r.world, i, &p.q[k])
		}
		r.smooth.Corrected(set.Smoothing, i, old.Position, old.Orientation, ns.Position, ns.Orientation)
		st.stats.AppliedUpdates++
		st.countCorrection(&old, &ns)
		if !r.updated[i] {
			r.updated[i] = true
			r.updatedList = append(r.updatedList, int32(i))
		}
	}
}

// blendState moves a toward b by t: positions and velocities linearly, the
// orientation by normalized lerp. This is the "smoothing inside the
// simulation" the article advises against; it exists to show why.
func blendState(a, b *cubes.CubeState, t float64) cubes.CubeState {
	lerp := func(x, y mgl64.Vec3) mgl64.Vec3 { return x.Add(y.Sub(x).Mul(t)) }
	return cubes.CubeState{
		Position:        lerp(a.Position, b.Position),
		Orientation:     geom.Nlerp(a.Orientation, b.Orientation, t),
		LinearVelocity:  lerp(a.LinearVelocity, b.LinearVelocity),
		AngularVelocity: lerp(a.AngularVelocity, b.AngularVelocity),
		Interacting:     b.Interacting,
	}
}

func (r *stateSyncReceiver) fillStats(st *Strategy, now int) {
	ss := &st.stats
	ss.Started = r.clock.Started()
	ss.Buffered = r.jb.Len()
	if ss.Started {
		ss.ShownFrame = r.frame()
		ss.PlayoutDelayTicks = now - ss.ShownFrame
	}
}
