package predict

import (
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

// joinSession is a small world (101 cubes) on preset p that switches to
// the 2004 strategy at frame at, the server's save cut into 256-byte
// pieces.
func joinSession(t *testing.T, p link.Preset) (*game.Session, *Strategy) {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.World.GridSide = 10
	cfg.Link = p.Config()
	c := DefaultConfig()
	c.Join.FragmentBytes = transfer.MinFragmentBytes
	st := New(c)
	cfg.Strategies = append(cfg.Strategies, &elsewhere{}, st)
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// TestJoinSaveCrossesTheLink: the server's save a joining client starts
// from crosses the simulated link in pieces, lost ones resent. While they
// travel the client shows nothing and says how far its save has come;
// then it runs from the save: its world is the server's bit for bit, so
// in the last second there is no correction and the error is the state's
// quantization (0.01 cm), over the LAN, intercontinental and terrible
// (250 ms, ±100 ms, 20 % loss) links alike; the join takes longer over
// the slower links.
func TestJoinSaveCrossesTheLink(t *testing.T) {
	t.Parallel() // session runs of its own
	sc, err := cubes.ParseScript("ball", strings.NewReader("0-59 -\n60-239 up katamari\n240-419 left katamari\n420-479 blow\nend 600\n"))
	if err != nil {
		t.Fatal(err)
	}
	const at, end = 150, 600
	ticks := map[link.Preset]int{}
	for _, p := range []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetTerrible} {
		s, st := joinSession(t, p)
		waited := false
		var late uint64
		worst := 0.0
		for f := range end {
			if f == at {
				if err := s.SetStrategy(1); err != nil {
					t.Fatal(err)
				}
			}
			s.Step(sc.InputAt(f))
			if f >= at && st.join.waiting() {
				waited = true
				if fact := st.Facts(); !strings.HasPrefix(fact, "joining: ") {
					t.Fatalf("%s frame %d: waiting, the facts say %q", p, f, fact)
				}
				var v viewmodel.View
				if _, ok := st.View(&v); ok || len(v.Cubes) != 0 {
					t.Fatalf("%s frame %d: the client shows %d cubes before its world is in", p, f, len(v.Cubes))
				}
			}
			switch {
			case f == end-wire.TicksPerSecond:
				late = st.Stats().Corrections
			case f > end-wire.TicksPerSecond:
				if e, ok := st.OwnError(); ok {
					worst = max(worst, e.RMSCm)
				}
			}
		}
		j := st.JoinStats(s.Frame())
		last := st.Stats().Corrections - late
		t.Logf("%s: %d bytes in %d pieces, %d sent, in after %d ticks; last second: %d corrections, error ≤ %.3f cm RMS",
			p, j.Bytes, j.Pieces, j.Sent, j.Ticks, last, worst)
		ticks[p] = j.Ticks
		if !waited || j.Frame != at || j.Pieces < 2 || j.Sent < j.Pieces || !j.Ready || !j.ServerDone || j.Refused != 0 {
			t.Errorf("%s: waited %v, %+v", p, waited, j)
		}
		// The terrible link's 20 % loss must cost some pieces a resend (the
		// intercontinental link's 5 % missed all 16 pieces of this save).
		if p == link.PresetTerrible && j.Sent == j.Pieces {
			t.Errorf("%s: no piece went twice in %d: the resend is not exercised", p, j.Pieces)
		}
		if last != 0 || worst >= 0.1 {
			t.Errorf("%s: %d corrections in the last second, %.2f cm RMS", p, last, worst)
		}
	}
	if !(ticks[link.PresetLAN] < ticks[link.PresetIntercontinental] && ticks[link.PresetIntercontinental] < ticks[link.PresetTerrible]) {
		t.Errorf("ticks to join: %v: want LAN < intercontinental < terrible", ticks)
	}
}

// TestJoinRefusesHostilePieces: pieces of a save from the packet's future
// or from long before it, or with bytes after them, are refused with
// their packet; a complete save that is not a world is counted and asked
// for again, and the client keeps waiting.
func TestJoinRefusesHostilePieces(t *testing.T) {
	s, st := joinSession(t, link.PresetLAN)
	for f := range 120 {
		if f == 100 {
			if err := s.SetStrategy(1); err != nil {
				t.Fatal(err)
			}
		}
		s.Step(cubes.Input{})
	}
	ctx := s.Context()
	frame := s.Frame()
	take := func(r *wire.ReadStream) error { return st.receivePiece(ctx, frame, r) }
	transfertest.Refuses(t, transfertest.Hostile(frame, frame-joinRing/2), take)
	p := transfer.Piece{Frame: uint32(frame), Size: 512, Fragment: 512, Index: 0, Data: transfertest.Junk(512)}
	if err := take(transfertest.Tail(t, &p, nil)); err != nil {
		t.Fatalf("a well-formed piece: %v", err)
	}
	if j := st.JoinStats(frame); j.Refused != 1 || j.Ready || !st.join.waiting() || j.Held != 0 {
		t.Errorf("after a junk save: %+v, waiting %v", j, st.join.waiting())
	}
}

// FuzzPredictJoinPieces: any bytes read as pieces after a server packet,
// taken by a client in a small world: an error or a piece, never a panic,
// and the client's world stays finite.
func FuzzPredictJoinPieces(f *testing.F) {
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
		func() *cubes.World { return st.cli.w })
}
