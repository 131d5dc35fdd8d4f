package strategytest

import (
	"math"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/strategy"
	"netcubes/wire"
)

// Limits of an input, chosen so that an input stays cheap.
const (
	// FrameSpan bounds the frame a packet arrives at: four times the
	// 16-bit sequence space, so the wrap at 65536 is crossed both ways.
	FrameSpan = 4 << 16
	// MaxWarm is the most real ticks run before the hostile packet.
	MaxWarm = 3
	// MaxAfter is the most ticks run after it (at least one, in which the
	// packet arrives).
	MaxAfter = 4
	// DefaultGridSide is the world's grid when Config.GridSide is 0: 6 × 6
	// cubes and the player.
	DefaultGridSide = 6
	// SeedTicks is how long the harness runs the script to collect real
	// packets as seeds.
	SeedTicks = 240
	// maxSettleTicks bounds the wait for the left world to fall asleep.
	maxSettleTicks = 3000
)

// Config sets up a Harness.
type Config struct {
	// Strategies are the session's list (one strategy, or a family); an
	// input picks one by index.
	Strategies []strategy.Strategy
	// Setup, when set, applies the settings an input's mode byte selects
	// to the strategy about to run (a build-up step, a compression
	// level). It must set every setting it touches from mode alone, so
	// each input runs under settings decided by the input.
	Setup func(st strategy.Strategy, mode uint8)
	// GridSide is the world's grid side: 0 means DefaultGridSide, 30 the
	// app's 901-cube world.
	GridSide int
	// Script drives the left during the seed run (nil: roll up into the
	// grid while pulling).
	Script *cubes.Script
	// Direction restricts the packets to one way (a target per path).
	Direction Direction
	// Players, when more than one, makes the world hold that many players
	// with a client each, and each input's packet reaches client
	// Mode/16 modulo Players: every client's read paths in both
	// directions, with every player's fields in the packets.
	Players int
}

// Direction is which way the fuzzed packets go.
type Direction uint8

const (
	BothWays    Direction = iota // as each input says
	ToRightOnly                  // data packets, left → right
	ToLeftOnly                   // ack packets with payloads, right → left
)

// Input is one fuzz case: which strategy, where in the session, and the
// packet.
type Input struct {
	Strategy uint8  // index in the list, modulo its length
	Mode     uint8  // handed to Config.Setup
	Frame    uint32 // the session's frame when the packet is sent, modulo FrameSpan
	Warm     uint8  // real ticks before it, modulo MaxWarm+1
	After    uint8  // ticks after it, 1 + this modulo MaxAfter
	ToLeft   bool   // false: a data packet to the right; true: an ack packet to the left
	Seq      uint16 // the data packet's sequence, or the ack header's
	HasAck   bool   // the ack header (ToLeft only)
	Ack      uint16
	AckBits  uint32
	Body     []byte // what follows the sequence (or the ack header)
}

// Harness is a session kept for a fuzz worker's lifetime.
type Harness struct {
	cfg    Config
	s      *game.Session
	n      int
	script *cubes.Script
	buf    []byte
	w      *wire.WriteStream
	seeds  []Input
	tap    func(toRight bool, data []byte)
	// settled is the sleeping left world, saved whole (contacts and warm
	// starts included) and put back before each input: a strategy may
	// edit the left (state sync's "quantize both sides" snaps it to the
	// wire's grid; lockstep starts both sides from a freshly built world),
	// and the next input must not inherit that.
	settled cubes.Saved
}

// defaultScript rolls the player into the grid while pulling, so packets
// carry moving, interacting cubes.
func defaultScript() *cubes.Script {
	s := &cubes.Script{Name: "fuzz", Length: 600, Ranges: []cubes.Range{
		{From: 40, To: 599, Input: cubes.Input{Up: true, Katamari: true}},
	}}
	s.Others[0] = []cubes.Range{{From: 40, To: 599, Input: cubes.Input{Left: true, Katamari: true}}}
	s.Others[1] = []cubes.Range{{From: 40, To: 599, Input: cubes.Input{Down: true, Blow: true}}}
	return s
}

// New builds the harness's session and runs the script for SeedTicks
// ticks, collecting real packets of every strategy in both directions as
// seeds.
func New(tb testing.TB, cfg Config) *Harness {
	tb.Helper()
	if len(cfg.Strategies) == 0 {
		tb.Fatal("strategytest: no strategies")
	}
	if cfg.GridSide <= 0 {
		cfg.GridSide = DefaultGridSide
	}
	h := &Harness{cfg: cfg, script: cfg.Script, buf: make([]byte, 70*1024)}
	if h.script == nil {
		h.script = defaultScript()
	}
	h.w = wire.NewWriteStream(h.buf)
	gc := game.DefaultConfig()
	gc.World.GridSide = cfg.GridSide
	gc.World.Players = max(cfg.Players, 1)
	// Idle bots: the world must fall asleep between inputs (the script
	// drives the other players for the seeds, StepPlayers below).
	gc.Bots = []cubes.BotKind{cubes.BotIdle}
	gc.Strategies = cfg.Strategies
	gc.Tap = func(toRight bool, data []byte) {
		if h.tap != nil {
			h.tap(toRight, data)
		}
	}
	s, err := game.New(gc)
	if err != nil {
		tb.Fatal(err)
	}
	h.s = s
	h.n = s.Left().NumCubes()
	h.collectSeeds(tb)
	// A fresh session for the inputs, its world left to fall asleep.
	if h.s, err = game.New(gc); err != nil {
		tb.Fatal(err)
	}
	for f := 0; ; f++ {
		h.s.Step(cubes.Input{})
		if quiet(h.s.Left()) {
			break
		}
		if f == maxSettleTicks {
			tb.Fatalf("strategytest: the left world is still awake after %d idle ticks", f)
		}
	}
	h.s.Left().Save(&h.settled)
	return h
}

// quiet reports whether w has settled for good: every body asleep and no
// cube red any more (a red cube counts down to grey even while asleep, so
// a world restored to a state with red cubes would not stay the same).
func quiet(w *cubes.World) bool {
	if w.Physics().Stats().AwakeBodies != 0 {
		return false
	}
	for i := 0; i < w.NumCubes(); i++ {
		if !w.IsPlayer(i) && w.Interacting(i) {
			return false
		}
	}
	return true
}

// Session is the harness's session (for checks of a target's own).
func (h *Harness) Session() *game.Session { return h.s }

// collectSeeds runs every strategy over the script and keeps a few of the
// packets it sends each way, as inputs that reproduce them.
func (h *Harness) collectSeeds(tb testing.TB) {
	for i := range h.cfg.Strategies {
		if err := h.s.SetStrategy(i); err != nil {
			tb.Fatal(err)
		}
		if err := h.s.Warp(0); err != nil {
			tb.Fatal(err)
		}
		var kept [2]int
		h.tap = func(toRight bool, data []byte) {
			d := 0
			if !toRight {
				d = 1
			}
			// Every 40th packet of each direction: a handful per strategy.
			kept[d]++
			if kept[d]%40 != 1 {
				return
			}
			in := Input{Strategy: uint8(i), Frame: uint32(h.s.Frame()), ToLeft: !toRight}
			r := wire.NewReadStream(data)
			if toRight {
				if wire.SerializeUint16(r, &in.Seq) != nil {
					return
				}
			} else {
				var hdr wire.AckHeader
				if hdr.Serialize(r) != nil || r.SerializeAlign() != nil {
					return
				}
				in.Seq, in.HasAck, in.Ack, in.AckBits = hdr.Sequence, hdr.HasAck, hdr.Ack, hdr.AckBits
			}
			in.Body = append([]byte(nil), data[len(data)-r.BitsRemaining()/8:]...)
			h.seeds = append(h.seeds, in)
		}
		for f := 0; f < SeedTicks; f++ {
			var ins cubes.Inputs
			for p := range ins {
				ins[p] = h.script.PlayerInputAt(p, f)
			}
			h.s.StepPlayers(&ins, 0xff)
		}
		h.tap = nil
	}
}

// Seeds are the real packets collected by New, as inputs.
func (h *Harness) Seeds() []Input { return h.seeds }

// Add adds in to f's seed corpus in the argument order of Fuzz.
func Add(f *testing.F, in Input) {
	f.Add(in.Strategy, in.Mode, in.Frame, in.Warm, in.After, in.ToLeft, in.Seq, in.HasAck, in.Ack, in.AckBits, in.Body)
}

// Fuzz registers the harness's seeds (and a few hostile ones) and runs the
// fuzz target: Run on every input.
func (h *Harness) Fuzz(f *testing.F) {
	for _, in := range h.seeds {
		if (h.cfg.Direction == ToRightOnly && in.ToLeft) || (h.cfg.Direction == ToLeftOnly && !in.ToLeft) {
			continue
		}
		Add(f, in)
		// The same packet a little ahead of the frame, far behind it, and
		// at a frame past the 16-bit wrap.
		ahead := in
		ahead.Seq += 26
		Add(f, ahead)
		behind := in
		behind.Seq -= 40000
		Add(f, behind)
		wrapped := in
		wrapped.Frame += 1 << 16
		Add(f, wrapped)
	}
	Add(f, Input{})
	Add(f, Input{ToLeft: true, HasAck: true, Body: []byte{0xff, 0xff, 0xff, 0xff}})
	f.Fuzz(func(t *testing.T, strat, mode uint8, frame uint32, warm, after uint8, toLeft bool,
		seq uint16, hasAck bool, ack uint16, ackBits uint32, body []byte) {
		h.Run(t, Input{Strategy: strat, Mode: mode, Frame: frame, Warm: warm, After: after, ToLeft: toLeft,
			Seq: seq, HasAck: hasAck, Ack: ack, AckBits: ackBits, Body: body})
	})
}

// Run plays one input: the strategy and its settings, the session put at
// the input's frame (less the warm ticks), the warm ticks, the packet, the
// ticks after; then it checks what the right shows (Check).
func (h *Harness) Run(t testing.TB, in Input) {
	t.Helper()
	switch h.cfg.Direction {
	case ToRightOnly:
		in.ToLeft = false
	case ToLeftOnly:
		in.ToLeft = true
	}
	i := int(in.Strategy) % len(h.cfg.Strategies)
	st := h.cfg.Strategies[i]
	if h.cfg.Setup != nil {
		h.cfg.Setup(st, in.Mode)
	}
	if h.s.StrategyIndex() != i {
		if err := h.s.SetStrategy(i); err != nil {
			t.Fatal(err)
		}
	}
	frame := int(in.Frame % FrameSpan)
	warm := min(int(in.Warm)%(MaxWarm+1), frame)
	if err := h.s.Left().Restore(&h.settled); err != nil {
		t.Fatal(err)
	}
	if err := h.s.Warp(frame - warm); err != nil {
		t.Fatal(err)
	}
	for range warm {
		h.s.Step(cubes.Input{})
	}
	client := 0
	if h.cfg.Players > 1 {
		client = int(in.Mode>>4) % h.cfg.Players
	}
	h.s.InjectPacketTo(client, !in.ToLeft, h.packet(in))
	for range 1 + int(in.After)%MaxAfter {
		h.s.Step(cubes.Input{})
	}
	h.Check(t)
}

// packet frames in's body: after its 16-bit sequence (left → right), or
// after an ack header with in's fields (right → left), as the session
// frames them.
func (h *Harness) packet(in Input) []byte {
	h.w.Reset(h.buf)
	if in.ToLeft {
		hdr := wire.AckHeader{Sequence: in.Seq, HasAck: in.HasAck, Ack: in.Ack, AckBits: in.AckBits}
		_ = hdr.Serialize(h.w)
		_ = h.w.SerializeAlign()
	} else {
		seq := in.Seq
		_ = wire.SerializeUint16(h.w, &seq)
	}
	n := len(h.w.Bytes())
	return append(h.buf[:n], in.Body...)
}

// Check fails t unless the session shows a sane right side: the left's
// number of cubes (or none), every pose finite with a unit orientation,
// and finite metrics.
func (h *Harness) Check(t testing.TB) {
	t.Helper()
	v := h.s.RightView()
	if n := len(v.Cubes); n != 0 && n != h.n {
		t.Fatalf("the right shows %d cubes of %d", n, h.n)
	}
	for i := range v.Cubes {
		c := &v.Cubes[i]
		for k := range 3 {
			if !finite(c.Position[k]) {
				t.Fatalf("cube %d at %v", i, c.Position)
			}
		}
		q := c.Orientation
		l := q.W*q.W + q.V.Dot(q.V)
		if !finite(l) || math.Abs(l-1) > 1e-3 {
			t.Fatalf("cube %d orientation %v (squared length %g)", i, q, l)
		}
	}
	m := h.s.Metrics()
	for _, x := range []float64{m.SentKbps, m.AckKbps, m.RTTms, m.Loss, m.ShownFrame, m.DelayMs, m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg, m.MaxPopCm} {
		if !finite(x) {
			t.Fatalf("a metric is not finite: %+v", *m)
		}
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
