package predict

import (
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
)

// tagRun plays a passer (cubes.Passer, reading the server's world as a
// bot does) against a standing player 1 on link lc for
// frames ticks, player 1's client tagging on its own, and returns the
// strategy.
func tagRun(t *testing.T, lc link.Config, others OthersMode, frames int) *Strategy {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.World.Players = 2
	cfg.Thin = true
	cfg.Link = lc
	c := DefaultConfig()
	c.Others.TagReach, c.Others.AutoTagRange = passReach, 1.5*passReach
	st := New(c)
	s0 := st.Settings()
	s0.Others, s0.AutoTag = others, AutoTagAll
	st.SetSettings(s0)
	cfg.Strategies = append(cfg.Strategies, st)
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := cubes.NewPasser()
	p.Offset = passLine
	w := s.Left()
	for f := range frames {
		ins := cubes.Inputs{{}, p.Input(f, w.Cube(w.PlayerCube(1)).Position, w.Cube(w.PlayerCube(0)).Position)}
		s.StepPlayers(&ins, 3)
	}
	return st
}

// Lag compensation on a perfect link with 100 ms of latency: player 2
// passes player 1 back and forth, player 1's client interpolates it and
// tags it on its own whenever it is drawn within 1.5 × the reach. With
// compensation the server rewinds player 2 to the view the tag names and
// rebuilds the pose the client drew, bit for bit, so every tag is granted
// when, and only when, the client saw a hit; at its present (no
// compensation) player 2 has moved on by the client's lead, the latency
// and the interpolation delay (about 300 ms), and a good share of the
// verdicts disagree (84 % agreement in this run).
func TestLagCompensationAgreement(t *testing.T) {
	st := tagRun(t, link.Config{LatencyMs: 100}, OthersInterpolate, 1200)
	tg := st.Stats().Tags
	t.Logf("%d tags, %d seen as hits; %d verdicts: granted %d with compensation, %d without; agreement %.1f %% with, %.1f %% without; the last view %.0f ms back; %d corrections of the client's player",
		tg.Tags, tg.SeenHits, tg.Verdicts, tg.GrantedOn, tg.GrantedOff, tg.AgreementOn(), tg.AgreementOff(), tg.LastViewBackMs, st.Stats().Corrections)
	if tg.Verdicts < 40 || tg.SeenHitsJudged < 10 || tg.Verdicts-tg.SeenHitsJudged < 10 {
		t.Fatalf("%d verdicts, %d of them on hits: the test needs many of both", tg.Verdicts, tg.SeenHitsJudged)
	}
	if tg.AgreeOn != tg.Verdicts || tg.GrantedOn != tg.SeenHitsJudged {
		t.Errorf("with compensation: %d of %d verdicts agree, %d granted of %d seen as hits: want every one", tg.AgreeOn, tg.Verdicts, tg.GrantedOn, tg.SeenHitsJudged)
	}
	if tg.AgreeOff >= tg.Verdicts {
		t.Errorf("without compensation: %d of %d agree: want fewer (the server's present is 300 ms past what the client saw)", tg.AgreeOff, tg.Verdicts)
	}
	if tg.Refused != 0 || tg.Clamped != 0 || tg.NoVerdict != 0 {
		t.Errorf("refused %d, clamped %d, no verdict %d: want none", tg.Refused, tg.Clamped, tg.NoVerdict)
	}
}
