package predict

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
)

// streamSession is a session of players players in a 145-cube world on the
// article's server (step 6) with speed setting sp; links are the clients'
// conditions (the last repeats).
func streamSession(t testing.TB, mode Mode, sp Speed, players int, links ...link.Config) (*game.Session, *Strategy) {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.World.GridSide = 12
	cfg.World.Players = players
	cfg.Thin = true
	cfg.Link = links[0]
	for k := range players {
		cfg.ClientLinks = append(cfg.ClientLinks, link.Symmetric(links[min(k, len(links)-1)]))
	}
	st := New(DefaultConfig())
	st.SetMode(mode)
	s := st.Settings()
	s.Speed = sp
	st.SetSettings(s)
	cfg.Strategies = []strategy.Strategy{st}
	sess, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sess, st
}

// The speed hack the article's comments describe: a client stamping 25 %
// more inputs than time passes moves 25 % farther on the article's server,
// which advances a player by whatever time its inputs claim. The clamp
// (an allowance of one frame a tick, real time) drops the extra frames:
// the cheat moves as far as an honest player, the clamp counts what it
// dropped, and the client is corrected back. The fixed tick of step 4
// ignores the client's clock: the hack buys nothing there.
func TestArticleServerSpeedHack(t *testing.T) {
	run := func(mode Mode, sp Speed) (float64, Stats) {
		sess, st := streamSession(t, mode, sp, 1, link.Config{LatencyMs: 50})
		x0 := sess.Left().Cube(cubes.Player).Position[0]
		for range 360 {
			sess.Step(cubes.Input{Right: true})
		}
		return sess.Left().Cube(cubes.Player).Position[0] - x0, st.Stats()
	}
	honest, hs := run(ArticleServer, SpeedHonest)
	hack, _ := run(ArticleServer, SpeedHack)
	clamped, cs := run(ArticleServer, SpeedHackClamped)
	fixed, _ := run(ReplaySmooth, SpeedHack)
	fixedHonest, _ := run(ReplaySmooth, SpeedHonest)
	t.Logf("distance in 6 s: honest %.1f m, speed hack %.1f, hack clamped %.1f (%d frames clamped, %d corrections); fixed tick: hack %.1f, honest %.1f",
		honest, hack, clamped, cs.ClampedFrames, cs.Corrections, fixed, fixedHonest)
	if hack < 1.15*honest {
		t.Errorf("the speed hack went %.1f m against the honest %.1f: the article's server should believe its clock", hack, honest)
	}
	if math.Abs(clamped-honest) > 0.1*honest || cs.ClampedFrames < 60 {
		t.Errorf("clamped: %.1f m (honest %.1f), %d frames clamped: want the honest distance and the extra frames dropped", clamped, honest, cs.ClampedFrames)
	}
	if hs.ClampedFrames != 0 || cs.Corrections <= hs.Corrections {
		t.Errorf("corrections: honest %d, hack clamped %d (want more: the cheat's client is pulled back); honest clamped %d frames", hs.Corrections, cs.Corrections, hs.ClampedFrames)
	}
	if math.Abs(fixed-fixedHonest) > 0.05*fixedHonest {
		t.Errorf("fixed tick: the hack went %.1f m, honest %.1f: the fixed tick must not be fooled", fixed, fixedHonest)
	}
}

// Each player's time is the stamp of its newest input: behind the server's
// by its own one-way latency, out of phase with the other players'; on a
// jittery link the inputs come in bunches and a player advances 0 to
// several frames a tick (on a steady link exactly 1), and its motion on the
// server is jerkier than on the fixed tick; the HUD says all of it.
func TestArticleServerTimeStreams(t *testing.T) {
	sess, st := streamSession(t, ArticleServer, SpeedHonest, 2, link.Config{LatencyMs: 50}, link.Config{LatencyMs: 150})
	for range 240 {
		sess.Step(cubes.Input{Right: true})
	}
	f := st.Stats().Stream
	t.Logf("offsets %.0f / %.0f ms, frames a tick %d-%d / %d-%d; %s", f.OffsetMs[0], f.OffsetMs[1], f.MinAdv[0], f.MaxAdv[0], f.MinAdv[1], f.MaxAdv[1], st.Facts())
	if !(f.OffsetMs[0] < 0 && f.OffsetMs[1] < f.OffsetMs[0]-60) {
		t.Errorf("time offsets %.0f and %.0f ms: want both behind the server, player 2 about 100 ms more", f.OffsetMs[0], f.OffsetMs[1])
	}
	if f.MinAdv[0] != 1 || f.MaxAdv[0] != 1 {
		t.Errorf("steady link: %d-%d frames a tick, want 1", f.MinAdv[0], f.MaxAdv[0])
	}
	// Step 6 predicts the player alone whatever W says, and says so.
	set := st.Settings()
	set.Scope = ScopeRadius
	st.SetSettings(set)
	if m := st.Mode(); !strings.Contains(m, "player only") || strings.Contains(m, "within") {
		t.Errorf("step 6 with W on the radius: mode line %q, want the player only", m)
	}
	if fc := st.Facts(); !strings.Contains(fc, "P1 time") || !strings.Contains(fc, "P2 time") || !strings.Contains(fc, "server jitter") {
		t.Errorf("facts %q: want each player's time and the server's jitter", fc)
	}
	jerk := func(mode Mode) (float64, StreamFigures) {
		sess, st := streamSession(t, mode, SpeedHonest, 1, link.PresetMobile.Config())
		var sum float64
		var n int
		for k := range 480 {
			sess.Step(cubes.Input{Right: k%240 < 120, Up: k%240 >= 120})
			if k >= 120 && k%60 == 0 {
				sum += st.Stats().Stream.PlayerJitterCm
				n++
			}
		}
		return sum / float64(n), st.Stats().Stream
	}
	stream, sf := jerk(ArticleServer)
	fixed, _ := jerk(ReplaySmooth)
	t.Logf("mobile link: player jitter on the server %.1f cm/tick (time streams, %d-%d frames a tick), %.1f (fixed tick)", stream, sf.MinAdv[0], sf.MaxAdv[0], fixed)
	if sf.MaxAdv[0] < 2 || stream < 2*fixed {
		t.Errorf("mobile link: %d-%d frames a tick, jitter %.1f cm/tick against %.1f on the fixed tick: want bursts and a jerkier player", sf.MinAdv[0], sf.MaxAdv[0], stream, fixed)
	}
}

// Stepping into step 6 by key starts the right over (the two servers count
// a player's time differently): the client's clock is the server's again,
// no lead, and its world the server's; the article's server repeats bit
// for bit whatever GOMAXPROCS.
func TestArticleServerByKeyAndDeterministic(t *testing.T) {
	sess, st := streamSession(t, Katamari, SpeedHonest, 1, link.Config{LatencyMs: 50})
	for range 120 {
		sess.Step(cubes.Input{Right: true})
	}
	if st.clientFrame() <= sess.Frame() {
		t.Fatalf("step 5: client at %d, server at %d: want the client ahead", st.clientFrame(), sess.Frame())
	}
	sess.SubMode(+1)
	if st.Settings().Mode != ArticleServer || st.clientFrame() != sess.Frame() {
		t.Errorf("after ]: step %d, client at %d, server at %d; want step 6 and the clocks together", st.Settings().Mode, st.clientFrame(), sess.Frame())
	}
	// It starts from the server's present, not from the initial world
	// (which the first packets would drag into place, one pop a cube):
	// the server's world crosses the link first (join.go), and then every
	// cube is where the server's is, but for the link's 50 ms.
	at := sess.Frame()
	for k := 0; st.join.waiting() && k < 60; k++ {
		sess.Step(cubes.Input{Right: true})
	}
	if j := st.JoinStats(sess.Frame()); !j.Ready || j.Frame != at {
		t.Fatalf("after ]: the server's world is not in after a second: %+v", j)
	}
	for i := range sess.Left().NumCubes() {
		if d := st.cli.w.Cube(i).Position.Sub(sess.Left().Cube(i).Position).Len(); d > 1 {
			t.Fatalf("after ]: the client's cube %d %.2f m from the server's", i, d)
		}
	}
	run := func(procs int) []uint64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		sess, st := streamSession(t, ArticleServer, SpeedHackClamped, 2, link.PresetMobile.Config())
		var out []uint64
		for k := range 300 {
			sess.Step(cubes.Input{Right: k%100 < 50, Katamari: true})
			out = append(out, sess.Left().StateHash()^st.cli.pw.StateHash()*31^st.Stats().ClampedFrames<<48)
		}
		return out
	}
	a, b := run(1), run(4)
	for f := range a {
		if a[f] != b[f] {
			t.Fatalf("tick %d: hash %x with GOMAXPROCS 1, %x with 4", f, a[f], b[f])
		}
	}
}
