package predict

import (
	"strings"
	"testing"

	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
)

// TestSwitchMidRunJoinsThePresent: pressing 5 in the middle of a run with
// four players does not open with the catch-up from the initial world (a
// correction of metres, "correction: 872 cm pop" on the stage): the
// client starts from the server's world as it is, and its figures show
// only what the link does from there.
func TestSwitchMidRunJoinsThePresent(t *testing.T) {
	const switchAt, watch = 300, 90
	cfg := game.DefaultConfig()
	cfg.World.Players = 4
	cfg.Bots = []cubes.BotKind{cubes.BotPush, cubes.BotGather, cubes.BotWander}
	cfg.Link = link.PresetLAN.Config()
	// The session starts on another strategy and switches to this one,
	// as the key 5 does.
	st := New(DefaultConfig())
	cfg.Strategies = append(cfg.Strategies, &elsewhere{}, st)
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc := katamari(t)
	maxPop, maxCorr := 0.0, 0.0
	var seen uint64
	for f := 0; f < switchAt+watch; f++ {
		if f == switchAt {
			if err := s.SetStrategy(1); err != nil {
				t.Fatal(err)
			}
		}
		s.Step(sc.InputAt(f))
		if f <= switchAt {
			continue
		}
		if m := s.Metrics(); m.Valid {
			maxPop = max(maxPop, m.MaxPopCm)
		}
		// The correction the caption names (Event): how far the player's
		// drawn pose had to jump.
		if c := st.Stats().Corrections; c > seen {
			seen = c
			maxCorr = max(maxCorr, 100*st.cli.markTo.Position.Sub(st.cli.mark.Position).Len())
		}
	}
	t.Logf("after the switch: largest pop %.1f cm, largest correction %.1f cm", maxPop, maxCorr)
	if maxPop >= game.PopCaptionCm || maxCorr >= game.PopCaptionCm {
		t.Errorf("after a switch at frame %d: a pop of %.0f cm, a correction of %.0f cm (a caption from %d cm): the client caught up from the initial world",
			switchAt, maxPop, maxCorr, game.PopCaptionCm)
	}
}

// elsewhere is a strategy that sends nothing: where the session is before
// the switch.
type elsewhere struct{}

func (*elsewhere) ID() string                                               { return "elsewhere" }
func (*elsewhere) Name() string                                             { return "Elsewhere" }
func (*elsewhere) Family() string                                           { return "Elsewhere" }
func (*elsewhere) Mode() string                                             { return "" }
func (*elsewhere) Explain() string                                          { return "" }
func (*elsewhere) Controls() []strategy.Control                             { return nil }
func (*elsewhere) SubMode(int) string                                       { return "" }
func (*elsewhere) Reset(strategy.Context)                                   {}
func (*elsewhere) Send(strategy.Context)                                    {}
func (*elsewhere) Acked(strategy.Context, uint16)                           {}
func (*elsewhere) Update(strategy.Context)                                  {}
func (*elsewhere) Receive(strategy.Context, uint16, *wire.ReadStream) error { return nil }
func (*elsewhere) View(*viewmodel.View) (float64, bool)                     { return 0, false }
func (*elsewhere) Clone() strategy.Strategy                                 { return &elsewhere{} }

// TestJoinConvergesExactly: a client that joins while the player moves
// (the switch at frame 90) mispredicts its first frames: its inputs reach
// the server after the server stepped those frames with the last input it
// had. Its world is the server's own, bit for bit (not the states alone),
// and a correction steps it again with the inputs the server used instead
// of writing the server's quantized states into it, so it stays the
// server's world: in the last second the player's prediction is within
// the quantization of the state sent (it once corrected ten times a
// second for good, at 1-2 cm RMS), with no
// correction at all over the intercontinental link (0.01 cm); over the
// terrible one (±100 ms of jitter, 20 % loss) under 1 cm (0.013 cm).
func TestJoinConvergesExactly(t *testing.T) {
	t.Parallel() // session runs of its own
	sc, err := cubes.ParseScript("ball", strings.NewReader("0-59 -\n60-239 up katamari\n240-419 left katamari\n420-479 blow\nend 600\n"))
	if err != nil {
		t.Fatal(err)
	}
	const switchAt = 90
	for _, p := range []link.Preset{link.PresetIntercontinental, link.PresetTerrible} {
		cfg := game.DefaultConfig()
		cfg.World.GridSide = 12
		cfg.Link = p.Config()
		st := New(DefaultConfig())
		cfg.Strategies = append(cfg.Strategies, &elsewhere{}, st)
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var early, late uint64
		worst := 0.0
		for f := range 600 {
			if f == switchAt {
				if err := s.SetStrategy(1); err != nil {
					t.Fatal(err)
				}
			}
			s.Step(sc.InputAt(f))
			switch {
			case f == switchAt+wire.TicksPerSecond:
				early = st.Stats().Corrections
			case f == 600-wire.TicksPerSecond:
				late = st.Stats().Corrections
			case f > 600-wire.TicksPerSecond:
				if e, ok := st.OwnError(); ok {
					worst = max(worst, e.RMSCm)
				}
			}
		}
		last := st.Stats().Corrections - late
		t.Logf("%s: corrections in the first second after the join %d, in the last second %d; prediction error ≤ %.3f cm RMS", p, early, last, worst)
		if early == 0 {
			t.Errorf("%s: no correction after the join: the test does not exercise the join's mispredicted frames", p)
		}
		if p == link.PresetIntercontinental && (last != 0 || worst >= 0.1) || worst >= 1 {
			t.Errorf("%s, 8 s after the join: %d corrections in the last second, %.2f cm RMS", p, last, worst)
		}
	}
}
