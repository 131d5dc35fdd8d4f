package game_test

import (
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
)

// TestChecksumDropsEveryDamagedPacket: over a link that damages a share of
// the packets both ways, without the checksum some damaged packets decode
// into valid ones with wrong contents; with it, every damaged packet is
// dropped before a decoder sees it, and none is taken as valid.
func TestChecksumDropsEveryDamagedPacket(t *testing.T) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	for _, checksum := range []bool{false, true} {
		accepted := uint64(0)
		for i, st := range catalog.All() {
			cfg := game.DefaultConfig()
			cfg.Strategies, cfg.Start = catalog.All(), i
			cfg.Link = link.Config{LatencyMs: 20, CorruptPercent: 20}
			cfg.Checksum = checksum
			s, err := game.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for f := 0; f < 240; f++ {
				s.Step(sc.InputAt(f))
			}
			m := s.Metrics()
			if m.Corrupted == 0 {
				t.Fatalf("%s: no packet damaged", st.ID())
			}
			if got := m.CorruptDropped + m.CorruptRefused + m.CorruptAccepted; got > m.Corrupted {
				t.Errorf("%s: %d damaged, but %d counted", st.ID(), m.Corrupted, got)
			}
			if checksum && (m.CorruptDropped != m.Corrupted || m.CorruptAccepted != 0 || m.CorruptRefused != 0) {
				t.Errorf("%s with the checksum: %d damaged, %d dropped, %d refused, %d taken as valid",
					st.ID(), m.Corrupted, m.CorruptDropped, m.CorruptRefused, m.CorruptAccepted)
			}
			accepted += m.CorruptAccepted
		}
		if !checksum && accepted == 0 {
			t.Error("without the checksum no damaged packet decoded as valid: the lesson has nothing to show")
		}
	}
}
