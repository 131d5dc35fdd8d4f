package game_test

// Corruption: every strategy of the catalog over links that flip a bit in
// a fifth of the datagrams, both ways. Through the session's public API
// only: no panic, the right's view stays finite, and the packets the
// readers refuse are counted. What a flipped bit does that no reader can
// see (a valid but wrong packet) is logged, not asserted: that is the
// lesson a checksum in the session header will teach.

import (
	"math"
	"testing"

	"netcubes/catalog"
	"netcubes/game"
	"netcubes/internal/testutil"
	"netcubes/link"
)

func TestEveryStrategyOverCorruptingLink(t *testing.T) {
	sc := testutil.Katamari(t)
	const ticks = 480
	for i := range catalog.All() {
		run := func(corrupt float64) (m struct {
			rejected, back, delivered uint64
			worstCm                   float64
		}) {
			cfg := game.DefaultConfig()
			cfg.Strategies = catalog.All()
			cfg.Start = i
			cfg.World.GridSide = 10 // 101 cubes: the test is about the packets
			cfg.Link = link.Config{LatencyMs: 30, JitterMs: 10, LossPercent: 1, CorruptPercent: corrupt}
			s, err := game.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for f := range ticks {
				s.Step(sc.InputAt(f))
				for _, c := range s.RightView().Cubes {
					p := c.Position
					if math.IsNaN(p[0]+p[1]+p[2]) || math.IsInf(p[0]+p[1]+p[2], 0) {
						t.Fatalf("%s, frame %d: a cube at %v", s.Strategy().ID(), f, p)
					}
				}
				if mm := s.Metrics(); mm.Valid {
					m.worstCm = max(m.worstCm, mm.PosMaxCm)
				}
			}
			mm := s.Metrics()
			m.rejected, m.back, m.delivered = mm.Rejected, mm.RejectedBack, mm.PacketsDelivered
			return m
		}
		id := catalog.All()[i].ID()
		clean, bad := run(0), run(20)
		t.Logf("%-13s clean: %d rejected, worst error %.1f cm; 20 %% corrupt: %d of %d delivered rejected on the right, %d acks/inputs on the left, worst error %.1f cm",
			id, clean.rejected+clean.back, clean.worstCm, bad.rejected, bad.delivered, bad.back, bad.worstCm)
		if clean.rejected+clean.back != 0 {
			t.Errorf("%s: %d packets rejected on a clean link", id, clean.rejected+clean.back)
		}
		if bad.rejected+bad.back == 0 {
			t.Errorf("%s: a fifth of the datagrams corrupted and none refused", id)
		}
	}
}
