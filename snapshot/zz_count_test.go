package snapshot

import (
	"testing"

	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
)

func TestZZCount(t *testing.T) {
	sc := loadScript(t, "katamari")
	st := NewCompression()
	st.SetLevel(MotionPredicted)
	cfg := game.DefaultConfig()
	cfg.Strategies = []strategy.Strategy{st}
	cfg.Link = link.PresetIntercontinental.Config()
	cfg.Clients, cfg.Thin = 64, true
	cfg.World.Players = 4
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for f := range 300 {
		s.Step(sc.InputAt(f))
		if f == 119 {
			t.Logf("warm: replayed %d lends %d rebuilt %d", st.send.shared.traces.replayed, st.send.shared.lends.Load(), st.send.shared.rebuilt.Load())
		}
	}
	t.Logf("end: replayed %d lends %d rebuilt %d", st.send.shared.traces.replayed, st.send.shared.lends.Load(), st.send.shared.rebuilt.Load())
}
