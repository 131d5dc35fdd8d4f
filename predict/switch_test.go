package predict

import (
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
