package statesync

import (
	"math"
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/transfer"
	"netcubes/transfer/transfertest"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// joinOverLink switches a small world (101 cubes) to state sync at frame
// at on preset p, with the block cut into 256-byte pieces (catchUp: no
// block, the right catches up from the initial world), and plays until
// the right has shown its world for a second. It returns the strategy,
// the session and the largest RMS error of that second.
func joinOverLink(t *testing.T, p link.Preset, at int, catchUp bool) (*Strategy, *game.Session, float64) {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.World.GridSide = 10
	cfg.Link = p.Config()
	c := DefaultConfig()
	c.Join.FragmentBytes = transfer.MinFragmentBytes
	c.JoinFromInitial = catchUp
	st := New(c)
	cfg.Strategies = []strategy.Strategy{st}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc := scenario(t, ballScenario)
	worst, shown := 0.0, 0
	for f := 0; f < at+20*wire.TicksPerSecond && shown < wire.TicksPerSecond; f++ {
		if f == at {
			if err := s.SetStrategy(0); err != nil {
				t.Fatal(err)
			}
		}
		s.Step(sc.InputAt(f))
		if m := s.Metrics(); f > at && m.Valid && m.ErrorMeasured() {
			worst = math.Max(worst, m.PosRMSCm)
			shown++
		}
	}
	if shown < wire.TicksPerSecond {
		t.Fatalf("%s: the right showed its world for %d ticks: %+v", p, shown, st.JoinStats(s.Frame()))
	}
	return st, s, worst
}

// TestStateSyncJoinBlockCrossesTheLink: the block a joining right starts
// from crosses the simulated link in pieces, lost ones resent: on a LAN
// it is in within a few ticks of its pieces; on the intercontinental and
// terrible links (250 ms, ±100 ms, 20 % loss) it takes longer, pieces go
// twice, and the join still completes; the left stops sending pieces once
// the right says it has them, and the HUD says how the right joined. The
// right converges from its first second: under 1 cm RMS on the LAN and
// intercontinental links; on the terrible one, where state sync's own
// error is centimetres anyway, far below the catch-up's from the initial
// world.
func TestStateSyncJoinBlockCrossesTheLink(t *testing.T) {
	t.Parallel() // four session runs of their own
	const at = 150
	ticks := map[link.Preset]int{}
	for _, p := range []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetTerrible} {
		st, s, worst := joinOverLink(t, p, at, false)
		j := st.JoinStats(s.Frame())
		t.Logf("%s: %d bytes in %d pieces, %d sent, in after %d ticks; RMS over the first second shown ≤ %.3f cm",
			p, j.Bytes, j.Pieces, j.Sent, j.Ticks, worst)
		ticks[p] = j.Ticks
		if j.Frame != at || j.Pieces < 2 || j.Sent < j.Pieces || !j.Ready || !j.LeftDone || j.Refused != 0 {
			t.Errorf("%s: %+v", p, j)
		}
		if f := st.Facts(); !strings.Contains(f, "joined from one") {
			t.Errorf("%s: the facts line says %q", p, f)
		}
		if p != link.PresetLAN && j.Sent == j.Pieces {
			t.Errorf("%s: no piece went twice in %d: the resend is not exercised", p, j.Pieces)
		}
		if p != link.PresetTerrible && worst >= 1 {
			t.Errorf("%s: RMS up to %.2f cm in the first second", p, worst)
		}
		if p == link.PresetTerrible {
			_, _, old := joinOverLink(t, p, at, true)
			t.Logf("terrible, caught up from the initial world: RMS ≤ %.1f cm", old)
			if worst*3 > old {
				t.Errorf("terrible: RMS up to %.2f cm joined from the block, %.2f caught up from the initial world", worst, old)
			}
		}
	}
	if !(ticks[link.PresetLAN] < ticks[link.PresetIntercontinental] && ticks[link.PresetIntercontinental] < ticks[link.PresetTerrible]) {
		t.Errorf("ticks to join: %v: want LAN < intercontinental < terrible", ticks)
	}
}

// TestStateSyncJoinWaitsForItsBlock: while the pieces travel, the right
// shows nothing (not the initial world with metres of error) and says how
// far its block has come.
func TestStateSyncJoinWaitsForItsBlock(t *testing.T) {
	cfg := game.DefaultConfig()
	cfg.World.GridSide = 10
	cfg.Link = link.PresetIntercontinental.Config()
	c := DefaultConfig()
	c.Join.FragmentBytes = transfer.MinFragmentBytes
	st := New(c)
	cfg.Strategies = []strategy.Strategy{st}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc := scenario(t, ballScenario)
	const at = 150
	sawWaiting := false
	for f := 0; f <= at+3; f++ {
		if f == at {
			if err := s.SetStrategy(0); err != nil {
				t.Fatal(err)
			}
		}
		s.Step(sc.InputAt(f))
	}
	for f := at + 4; !st.JoinStats(s.Frame()).Ready && f < at+600; f++ {
		if fact := st.Facts(); strings.HasPrefix(fact, "joining: ") {
			sawWaiting = true
		} else {
			t.Fatalf("frame %d: waiting, the facts say %q", f, fact)
		}
		if _, ok := st.View(&viewmodel.View{}); ok {
			t.Fatalf("frame %d: the right shows a world before its block is in", f)
		}
		s.Step(sc.InputAt(f))
	}
	if !sawWaiting {
		t.Error("the right never waited for its block")
	}
}

// TestStateSyncJoinRefusesHostilePieces: pieces of a block from the
// packet's future or from long before it, larger than the world's, or
// with bytes after them are
// refused with their packet; a complete block that is not a world's is
// counted and asked for again, and the right keeps waiting.
func TestStateSyncJoinRefusesHostilePieces(t *testing.T) {
	cfg := game.DefaultConfig()
	cfg.World.GridSide = 6
	st := New(DefaultConfig())
	cfg.Strategies = []strategy.Strategy{st}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc := scenario(t, ballScenario)
	for f := 0; f < inputRing+60; f++ {
		s.Step(sc.InputAt(f))
	}
	ctx := s.Context()
	frame := s.Frame()
	take := func(r *wire.ReadStream) error { return st.receivePiece(ctx, frame, r) }
	cases := append(transfertest.Hostile(frame, frame-inputRing),
		transfertest.Case{Name: "larger than the world's", P: transfer.Piece{Frame: uint32(frame), Size: int32(maxBlockBytes(st.n) + 1), Fragment: 1024, Index: -1}})
	transfertest.Refuses(t, cases, take)
	// A whole block of junk: taken, refused as a world, and waited for.
	p := transfer.Piece{Frame: uint32(frame), Size: 512, Fragment: 512, Index: 0, Data: transfertest.Junk(512)}
	if err := take(transfertest.Tail(t, &p, nil)); err != nil {
		t.Fatalf("a well-formed piece: %v", err)
	}
	if j := st.JoinStats(frame); j.Refused != 1 || j.Ready || !st.joined.waiting() || j.Held != 0 {
		t.Errorf("after a junk block: %+v, waiting %v", j, st.joined.waiting())
	}
}

// FuzzJoinPieces: any bytes read as pieces after a packet, taken by a
// right in a small world: an error or a piece, never a panic, and the
// right's world stays finite.
func FuzzJoinPieces(f *testing.F) {
	cfg := game.DefaultConfig()
	cfg.World.GridSide = 4
	st := New(DefaultConfig())
	cfg.Strategies = []strategy.Strategy{st}
	s, err := game.New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	for range 40 {
		s.Step(cubes.Input{})
	}
	ctx := s.Context()
	transfertest.FuzzTail(f, func(r *wire.ReadStream) error { return st.receivePiece(ctx, s.Frame(), r) },
		func() *cubes.World { return st.rcv.world })
}
