package statesync

import (
	"strings"
	"testing"

	"netcubes/game"
	"netcubes/link"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/wire"
)

// TestStateSyncJoinMidRun: switching to state sync mid-run used to start
// the right from the initial world, and the screen opened with metres of
// error and "pop: a cube jumped 209 cm" while the updates caught up. The
// right now joins from one block of the left's world: from the first tick
// it shows, its error stays under a centimetre and nothing pops; the facts
// line and a caption say how it joined, and the block's size is what 901
// cubes cost. The catch-up (Config.JoinFromInitial) is what it was.
func TestStateSyncJoinMidRun(t *testing.T) {
	t.Parallel() // two session runs of their own
	const switchAt, watch = 200, 60
	sc := scenario(t, ballScenario)
	run := func(catchUp bool) (maxRMS, maxPop float64, st *Strategy, sawEvent bool) {
		var s *game.Session
		if catchUp {
			s, st = catchUpSession(t, link.Config{}, 8)
		} else {
			s, st = stateSyncSession(t, link.Config{}, 8)
		}
		for f := 0; f < switchAt+watch; f++ {
			if f == switchAt {
				if err := s.SetStrategy(0); err != nil {
					t.Fatal(err)
				}
			}
			s.Step(sc.InputAt(f))
			if e, ok := st.Event(); ok && strings.Contains(e.Text, "joined from one") {
				sawEvent = true
			}
			if m := s.Metrics(); f > switchAt && m.Valid {
				maxRMS, maxPop = max(maxRMS, m.PosRMSCm), max(maxPop, m.MaxPopCm)
			}
		}
		return maxRMS, maxPop, st, sawEvent
	}
	rms, pop, st, saw := run(false)
	oldRMS, oldPop, _, _ := run(true)
	t.Logf("joined from a block: worst RMS %.3f cm, largest pop %.2f cm; caught up from the initial world: %.1f cm, %.0f cm", rms, pop, oldRMS, oldPop)
	// Not zero: the block carries the cubes, not the solver's own state
	// (contact impulses, sleep timers), so the two piles part by
	// millimetres until the updates pull them together.
	if rms > 1 || pop >= game.PopCaptionCm {
		t.Errorf("after the switch: RMS up to %.2f cm, a pop of %.1f cm (want under 1 cm and no caption)", rms, pop)
	}
	if oldRMS < 10*rms+1 {
		t.Errorf("the catch-up from the initial world read only %.2f cm RMS: the comparison shows nothing", oldRMS)
	}
	j := st.JoinStats(switchAt + watch)
	// 901 cubes, most at rest (108 bits), the ball's moving (192): 12-22 kB.
	if !j.Ready || j.Frame != switchAt || j.Bytes < 12000 || j.Bytes > 22000 {
		t.Errorf("joined: %d bytes at frame %d (in: %v)", j.Bytes, j.Frame, j.Ready)
	}
	if !saw {
		t.Error("no caption said how the right joined")
	}
	if f := st.Facts(); st.Stats().NeverSent != 0 || strings.Contains(f, "never sent") {
		t.Errorf("after a block join the facts say %q (%d never sent): the block sent every cube", f, st.Stats().NeverSent)
	}
}

// TestJoinBlockRoundTrip: a block reads back what was written, bit for bit,
// and a block cut short or claiming a moving cube without velocity is
// refused.
func TestJoinBlockRoundTrip(t *testing.T) {
	s, st := stateSyncSession(t, link.Config{}, 8)
	sc := scenario(t, ballScenario)
	for f := 0; f < 150; f++ {
		s.Step(sc.InputAt(f))
	}
	data, err := st.writeJoinBlock(s.Left())
	if err != nil {
		t.Fatal(err)
	}
	n := s.Left().NumCubes()
	b := JoinBlock{Cubes: make([]replication.QuantizedCubeState, n), Interacting: make([]bool, n)}
	if err := b.Serialize(wire.NewReadStream(data)); err != nil {
		t.Fatal(err)
	}
	want := &st.joined.block
	if b.Frame != want.Frame {
		t.Errorf("frame %d, want %d", b.Frame, want.Frame)
	}
	for i := range n {
		if b.Cubes[i] != want.Cubes[i] || b.Interacting[i] != want.Interacting[i] {
			t.Fatalf("cube %d: %+v, want %+v", i, b.Cubes[i], want.Cubes[i])
		}
	}
	if err := b.Serialize(wire.NewReadStream(data[:len(data)/2])); err == nil {
		t.Error("half a block read without error")
	}
	var bad JoinBlock
	bad.Cubes = []replication.QuantizedCubeState{{}}
	bad.Interacting = []bool{false}
	buf := make([]byte, 64)
	w := wire.NewWriteStream(buf)
	if err := bad.Serialize(w); err == nil {
		t.Error("a moving cube without velocity was written")
	}
}

// FuzzJoinBlock: reading hostile bytes returns an error or a block, never
// panics; what reads writes back to the same bytes' meaning.
func FuzzJoinBlock(f *testing.F) {
	f.Add([]byte{0, 0, 1, 44, 0x80})
	f.Add(make([]byte, 100))
	f.Fuzz(func(t *testing.T, data []byte) {
		const n = 3
		b := JoinBlock{Cubes: make([]replication.QuantizedCubeState, n), Interacting: make([]bool, n)}
		if b.Serialize(wire.NewReadStream(data)) != nil {
			return
		}
		buf := make([]byte, 8+25*n)
		if err := b.Serialize(wire.NewWriteStream(buf)); err != nil {
			t.Fatalf("a block that read does not write: %v", err)
		}
	})
}

// TestStateSyncJoinFourPlayers: with four players (bots on the other
// three) on a LAN, the right joins from its own block: it does not open
// with the catch-up's metres of error (the stage report: 2,270 cm max on
// client 4 of four). The session measures the shown client's error.
func TestStateSyncJoinFourPlayers(t *testing.T) {
	t.Parallel() // a session run of its own
	const switchAt, watch = 180, 45
	cfg := game.DefaultConfig()
	cfg.World.Players = 4
	cfg.Link = link.PresetLAN.Config()
	st := New(DefaultConfig())
	cfg.Strategies = []strategy.Strategy{st}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc := scenario(t, ballScenario)
	worst := make([]float64, s.NumClients())
	for f := 0; f < switchAt+watch; f++ {
		if f == switchAt {
			if err := s.SetStrategy(0); err != nil {
				t.Fatal(err)
			}
		}
		s.Step(sc.InputAt(f))
		for k := range worst {
			if m := s.ClientMetrics(k); f > switchAt && m.Valid {
				worst[k] = max(worst[k], m.PosMaxCm)
			}
		}
	}
	// Not zero: the block carries the cubes, not the solver's contact
	// impulses and sleep timers, and four players' pushes make the two
	// piles part by centimetres until the updates pull them together (the
	// catch-up from the initial world: metres).
	t.Logf("largest error of any cube after the join, client 1 (the shown one): %.2f cm", worst[0])
	for k, w := range worst {
		if w > 20 {
			t.Errorf("client %d: a cube %.0f cm off after the join", k+1, w)
		}
	}
}
