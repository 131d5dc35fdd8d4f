package game_test

import (
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/strategy"
	"netcubes/strategy/strategytest"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// The session's read paths under hostile packets, with every strategy of
// the catalog plus a two-way strategy in miniature (catalog strategies send
// nothing back yet, and the session's right → left path must be fuzzed with
// a payload behind the ack header).

// inputBack is the payload the mirror strategy sends back: the right's
// frame and the presenter's input.
type inputBack struct {
	frame uint32
	bits  uint8
}

func (p *inputBack) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryInput)
	if err := wire.SerializeUint32(s, &p.frame); err != nil {
		return err
	}
	v := int32(p.bits)
	if err := wire.SerializeInt(s, &v, 0, 63); err != nil {
		return err
	}
	p.bits = uint8(v)
	return nil
}

// mirror is a right-driven, two-way strategy in miniature: the right sends
// the presenter's input back every tick; the left steps with the newest
// that arrived; nothing is sent left → right, and the right shows nothing.
type mirror struct {
	out    inputBack
	in     inputBack
	leftIn cubes.Input
	newest int
}

var (
	_ strategy.TwoWay      = (*mirror)(nil)
	_ strategy.RightDriven = (*mirror)(nil)
)

func (m *mirror) ID() string                                   { return "mirror" }
func (m *mirror) Name() string                                 { return "mirror" }
func (m *mirror) Family() string                               { return "Mirror" }
func (m *mirror) Mode() string                                 { return "" }
func (m *mirror) Explain() string                              { return "" }
func (m *mirror) Controls() []strategy.Control                 { return nil }
func (m *mirror) SubMode(int) string                           { return "" }
func (m *mirror) Clone() strategy.Strategy                     { return &mirror{} }
func (m *mirror) Reset(strategy.Context)                       { m.leftIn, m.newest = cubes.Input{}, -1 }
func (m *mirror) Send(strategy.Context)                        {}
func (m *mirror) Acked(strategy.Context, uint16)               {}
func (m *mirror) Update(strategy.Context)                      {}
func (m *mirror) View(*viewmodel.View) (float64, bool)         { return 0, false }
func (m *mirror) LeftInput(strategy.Context) cubes.Input       { return m.leftIn }
func (m *mirror) SideLabels() (string, string, string, string) { return "SERVER", "", "CLIENT", "" }

func (m *mirror) Receive(strategy.Context, uint16, *wire.ReadStream) error {
	return errNothingExpected
}

type testError string

func (e testError) Error() string { return string(e) }

const errNothingExpected = testError("mirror: no packets expected left → right")

func (m *mirror) SendBack(ctx strategy.Context) {
	m.out = inputBack{frame: uint32(ctx.Frame()), bits: ctx.PresenterInput().Bits()}
	if _, err := ctx.SendBack(&m.out); err != nil {
		panic(err)
	}
}

// ReceiveBack takes an input from a frame the right can have reached (not
// after the left's) and newer than the newest taken.
func (m *mirror) ReceiveBack(ctx strategy.Context, s *wire.ReadStream) error {
	if err := m.in.Serialize(s); err != nil {
		return err
	}
	f := int(m.in.frame)
	if f > ctx.Frame() {
		return testError("mirror: input from the future")
	}
	if f > m.newest {
		m.newest, m.leftIn = f, cubes.InputFromBits(m.in.bits)
	}
	return nil
}

// TestHostileSequenceNumbers: a real packet of each strategy under a
// sequence ahead of the session's frame by 1 to 30,000 frames, or far
// behind it (before frame 0, or across the wrap), at frame 100 and at frame
// 70,000, is refused (counted as rejected, never acked) or handled; the
// right still shows a finite world. The strategies' own Receive refuses
// the same sequences when called directly. (A state sync packet 26 frames
// ahead once panicked with "index out of range [-26]".)
func TestHostileSequenceNumbers(t *testing.T) {
	list := catalog.All()
	h := strategytest.New(t, strategytest.Config{Strategies: list})
	for i, st := range list {
		// The strategy's first packet: it needs no baseline, so it decodes
		// whenever it is accepted.
		var seed strategytest.Input
		for _, in := range h.Seeds() {
			if int(in.Strategy) == i && !in.ToLeft && seed.Body == nil {
				seed = in
			}
		}
		if seed.Body == nil {
			t.Fatalf("%s: no real packet among the seeds", st.ID())
		}
		in := seed
		in.Frame, in.After = 500, 0
		h.Run(t, in)
		ctx := h.Session().Context()
		if err := st.Receive(ctx, uint16(ctx.Frame()-1), wire.NewReadStream(seed.Body)); err != nil {
			t.Fatalf("%s: the seed packet does not decode: %v", st.ID(), err)
		}
		for _, frame := range []int{100, 70000} {
			for _, d := range []int{1, 26, 1000, 30000, 32767} {
				in := seed
				in.Frame, in.Warm, in.After = uint32(frame), 3, 0
				in.Seq = uint16(frame + d)
				h.Run(t, in)
				// Sent at frame, received at frame+1: still ahead by d-1 > 0 when d > 1.
				if m := h.Session().Metrics(); d > 1 && m.Rejected != 1 {
					t.Errorf("%s at frame %d, sequence %d ahead: %d packets rejected, want 1", st.ID(), frame, d, m.Rejected)
				}
				// The strategy itself, called directly.
				ctx := h.Session().Context()
				if err := st.Receive(ctx, uint16(ctx.Frame()+d), wire.NewReadStream(seed.Body)); err == nil {
					t.Errorf("%s at frame %d: Receive took a packet %d frames ahead", st.ID(), ctx.Frame(), d)
				}
				st.Update(ctx)
				h.Check(t)
			}
			for _, back := range []int{frame + 1, 32768, 40000, 65535} {
				in := seed
				in.Frame, in.Warm, in.After = uint32(frame), 3, 2
				in.Seq = uint16(frame - back)
				h.Run(t, in)
				ctx := h.Session().Context()
				_ = st.Receive(ctx, uint16(ctx.Frame()-back), wire.NewReadStream(seed.Body))
				st.Update(ctx)
				h.Check(t)
			}
		}
	}
}

// TestHostileAcks: ack packets with any header and garbage behind it reach
// the left of a two-way strategy; the session counts what it cannot use
// and goes on.
func TestHostileAcks(t *testing.T) {
	m := &mirror{}
	h := strategytest.New(t, strategytest.Config{Strategies: []strategy.Strategy{m}})
	for _, in := range []strategytest.Input{
		{ToLeft: true, Frame: 100, Seq: 40000, HasAck: true, Ack: 65535, AckBits: 0xffffffff, Body: []byte{1, 2}},
		{ToLeft: true, Frame: 100, Seq: 3, HasAck: true, Ack: 100, Body: []byte{0xff, 0xff, 0xff, 0xff, 0xff}},
		{ToLeft: true, Frame: 70000, Seq: 1, Body: []byte{0x00, 0x00, 0x02, 0x00, 0x3f}}, // an input from frame 131,072
	} {
		h.Run(t, in)
		if got := h.Session().Metrics().RejectedBack; got != 1 {
			t.Errorf("%+v: %d packets back rejected, want 1", in, got)
		}
	}
}

// FuzzSessionReceive sends data packets of any sequence and bytes to the
// right of every catalog strategy at any frame.
func FuzzSessionReceive(f *testing.F) {
	h := strategytest.New(f, strategytest.Config{Strategies: catalog.All(), Direction: strategytest.ToRightOnly})
	h.Fuzz(f)
}

// FuzzSessionReceiveBack sends ack packets with any header and any payload
// to the left: the session's right → left read path (the ack header, the
// payload handed to a two-way strategy, or refused for one that is not).
func FuzzSessionReceiveBack(f *testing.F) {
	list := append(catalog.All(), &mirror{})
	h := strategytest.New(f, strategytest.Config{Strategies: list, Direction: strategytest.ToLeftOnly})
	h.Fuzz(f)
}

// FuzzSessionPlayers sends packets of any sequence and bytes, both ways,
// to any client of a three-player session of every catalog strategy: every
// per-client read path, with every player's fields in the packets (state
// sync's and the 2004 server's inputs of all players, lockstep's relayed
// inputs and its clients' own inputs going up).
func FuzzSessionPlayers(f *testing.F) {
	h := strategytest.New(f, strategytest.Config{Strategies: catalog.All(), Players: 3})
	h.Fuzz(f)
}
