package predict

import (
	"math"
	"runtime"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
)

// twoPlayers is a session of two players on the 2004 strategy: the test
// drives player 1 (client 1, shown), a bot of kind bot drives player 2 on
// client 2, which is thin (it stamps and sends its bot's inputs, and
// simulates nothing: nothing draws it).
func twoPlayers(t testing.TB, lc link.Config, others OthersMode, bot cubes.BotKind) (*game.Session, *Strategy) {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.World.Players = 2
	cfg.Bots = []cubes.BotKind{bot}
	cfg.Thin = true
	cfg.Link = lc
	st := New(DefaultConfig())
	s0 := st.Settings()
	s0.Others = others
	st.SetSettings(s0)
	cfg.Strategies = append(cfg.Strategies, st)
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// A state ring interpolates between the states it holds, holds the newest
// past it (it never extrapolates), and the oldest before it.
func TestStateRing(t *testing.T) {
	var r stateRing
	r.reset()
	at := func(x float64) cubes.CubeState {
		return cubes.CubeState{Position: mgl64.Vec3{x, 0, 1}, Orientation: mgl64.QuatIdent(), LinearVelocity: mgl64.Vec3{60, 0, 0}}
	}
	for _, f := range []int{10, 11, 13, 12, 15} { // 12 arrives late, 14 is lost
		r.put(f, at(float64(f)), f+2)
	}
	tests := []struct {
		t, want, rep float64
	}{
		{9, 10, 10},        // before the oldest: the oldest
		{10, 10, 10},       // a held frame: exactly it
		{11.5, 11.5, 11.5}, // between neighbours
		{13.5, 13.5, 13.5}, // across the lost frame: 13 .. 15
		{15, 15, 15},       // the newest
		{17.25, 15, 15},    // past the newest: held there, not extrapolated
	}
	for _, tt := range tests {
		s, rep, ok := r.at(tt.t)
		if !ok || math.Abs(s.Position[0]-tt.want) > 1e-12 || rep != tt.rep {
			t.Errorf("at(%v): x %v (represents %v, %v), want %v (represents %v)", tt.t, s.Position[0], rep, ok, tt.want, tt.rep)
		}
	}
	if r.arrived != 17 {
		t.Errorf("newest arrived at tick %d, want 17", r.arrived)
	}
}

// On a perfect link, interpolation draws the other player exactly the
// configured delay in the past: its drawn pose is the state the server
// sent for that frame, bit for bit, so it differs from the server's exact
// state only by the wire's quantization (a quarter of a millimetre per
// axis); it is never held or extrapolated, since the buffer has the data.
// The HUD says how far in the past: the delay.
func TestInterpolationDrawsTheConfiguredPast(t *testing.T) {
	s, st := twoPlayers(t, link.Config{}, OthersInterpolate, cubes.BotWander)
	d := st.delayTicks()
	if d != 5 {
		t.Fatalf("default delay %d ticks, want 5 (83 ms)", d)
	}
	cube := s.Left().PlayerCube(1)
	worst, moved := 0.0, 0.0
	prev := mgl64.Vec3{}
	for k := range 300 {
		s.Step(cubes.Input{})
		if k < 30 {
			continue // the bot's client and the clock start
		}
		now := s.Frame()
		o := &st.oth.drawn[1]
		if !o.has || o.held || o.at != float64(now-d) {
			t.Fatalf("tick %d: drawn %v, held %v, at frame %v: want frame %d", now, o.has, o.held, o.at, now-d)
		}
		truth, ok := st.truth.at(now-d, 1)
		if !ok {
			t.Fatalf("tick %d: no truth at frame %d", now, now-d)
		}
		if got, want := o.state.Position, stateOfSeen(truth).Position; got != want {
			t.Fatalf("tick %d: drawn %v, the server sent %v for frame %d", now, got, want, now-d)
		}
		p, _, _ := s.LeftAt(float64(now-d), cube)
		worst = math.Max(worst, o.state.Position.Sub(p).Len())
		if k > 30 {
			moved += p.Sub(prev).Len()
		}
		prev = p
	}
	ss := st.Stats().Others
	t.Logf("the other player moved %.1f m; drawn %.0f ms in the past, %.3f mm from the server's exact state at the frame drawn (max); HUD: %.0f ms, %.3f cm RMS",
		moved, float64(d)*1000/60, 1000*worst, ss.PastMs, ss.ErrRMSCm)
	if moved < 5 {
		t.Errorf("the bot moved %.1f m: the test saw nothing", moved)
	}
	if limit := math.Sqrt(3) / 4096; worst > limit {
		t.Errorf("drawn %.3f mm from the truth, want at most the quantization, %.3f mm", 1000*worst, 1000*limit)
	}
	if math.Abs(ss.PastMs-float64(d)*1000/60) > 1e-9 || ss.Nearest != 1 {
		t.Errorf("HUD: player %d drawn %.1f ms ago, want player 2 %.1f ms ago", ss.Nearest+1, ss.PastMs, float64(d)*1000/60)
	}
	if got := st.Facts(); !contains(got, "player 2 drawn 83 ms ago") {
		t.Errorf("facts %q, want \"player 2 drawn 83 ms ago\"", got)
	}
}

// On the terrible link (jitter ±100 ms, 20 % loss), interpolation holds the newest state
// when the playout time runs past it (starved), and otherwise draws the
// playout time itself: it never extrapolates beyond what it holds.
func TestInterpolationNeverExtrapolates(t *testing.T) {
	s, st := twoPlayers(t, link.PresetTerrible.Config(), OthersInterpolate, cubes.BotWander)
	drawn, held := 0, 0
	for range 360 {
		s.Step(cubes.Input{})
		o := &st.oth.drawn[1]
		b := &st.oth.bufs[1]
		if !o.has {
			continue
		}
		drawn++
		view := st.oth.view
		oldest := b.newest
		for f := b.newest - stateRingSize + 1; f < b.newest; f++ {
			if _, ok := b.get(f); ok {
				oldest = f
				break
			}
		}
		switch {
		case view < float64(oldest):
			// Older than anything held (the first ticks): the oldest.
			if o.at != float64(oldest) {
				t.Fatalf("tick %d: playout %v before the oldest state %d, drawn at %v", s.Frame(), view, oldest, o.at)
			}
		case o.at > float64(b.newest):
			t.Fatalf("tick %d: drawn at frame %v, past the newest state held (%d)", s.Frame(), o.at, b.newest)
		case view <= float64(b.newest) && (o.at != view || o.held):
			t.Fatalf("tick %d: playout %v with states up to %d held, drawn at %v (held %v)", s.Frame(), view, b.newest, o.at, o.held)
		case view > float64(b.newest):
			held++
			if !o.held || o.at != float64(b.newest) {
				t.Fatalf("tick %d: starved at %v, drawn at %v, want the newest %d held", s.Frame(), view, o.at, b.newest)
			}
		}
	}
	t.Logf("terrible: %d ticks drawn, %d of them starved (held at the newest state)", drawn, held)
	if drawn < 300 || held == 0 {
		t.Errorf("%d ticks drawn, %d starved: the test saw too little", drawn, held)
	}
}

// Extrapolation runs on from the last state for 0.25 s after the last
// packet, then holds the player still until the next packet: the test cuts
// the link for a second.
func TestExtrapolationStopsAfterQuarterSecond(t *testing.T) {
	s, st := twoPlayers(t, link.Config{LatencyMs: 50}, OthersExtrapolate, cubes.BotWander)
	for range 150 {
		s.Step(cubes.Input{})
	}
	s.Outage(60)
	b := &st.oth.bufs[1]
	var positions []mgl64.Vec3
	var ticks []int
	last := b.newest
	for range 60 {
		s.Step(cubes.Input{})
		o := &st.oth.drawn[1]
		positions = append(positions, o.state.Position)
		ticks = append(ticks, s.Frame())
		if b.newest != last {
			last = b.newest
			positions, ticks = positions[:0], ticks[:0] // still arriving (in flight)
		}
	}
	limit := st.cfg.Others.ExtrapolateLimitTicks
	arrived := b.arrived
	s0, _ := b.get(b.newest)
	if v := s0.LinearVelocity.Len(); v < 0.5 {
		t.Fatalf("the last state moves at %.2f m/s: the test needs a moving player", v)
	}
	stop := -1
	for k, f := range ticks {
		want := s0.Position.Add(s0.LinearVelocity.Mul(float64(min(f, arrived+limit)-b.newest) / 60))
		if positions[k] != want {
			t.Fatalf("tick %d (%d after the last packet): drawn %v, want %v", f, f-arrived, positions[k], want)
		}
		if f == arrived+limit {
			stop = k
		}
	}
	if stop < 1 || len(ticks)-stop < 30 {
		t.Fatalf("the outage left %d ticks after the last packet, stop at %d: the test saw too little", len(ticks), stop)
	}
	ran := positions[stop].Sub(positions[0]).Len()
	if !st.oth.drawn[1].held {
		t.Error("the extrapolation is not marked held after the limit")
	}
	t.Logf("the last packet arrived at tick %d: extrapolated %.2f m over the next %d ticks, then held still for %d ticks",
		arrived, ran, ticks[stop]-ticks[0], len(ticks)-stop-1)
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// A two-player run repeats bit for bit: twice with the same seed, and with
// GOMAXPROCS 1 and 2, the server's world, the client's world and its
// figures (tags, verdicts, corrections) are the same at every tick.
func TestTwoPlayersDeterministic(t *testing.T) {
	sc, err := cubes.LoadScript("push")
	if err != nil {
		t.Fatal(err)
	}
	frames := 300
	run := func(procs int) []uint64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		cfg := game.DefaultConfig()
		cfg.World.Players = 2
		cfg.Link = link.PresetIntercontinental.Config()
		st := New(DefaultConfig())
		s0 := st.Settings()
		s0.AutoTag = AutoTagAll
		st.SetSettings(s0)
		cfg.Strategies = append(cfg.Strategies, st)
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out []uint64
		for f := range frames {
			ins := cubes.Inputs{sc.InputAt(f), sc.PlayerInputAt(1, f)}
			s.StepPlayers(&ins, 3)
			ss := st.Stats()
			h := s.Left().StateHash() ^ st.cli.w.StateHash()*31
			h ^= uint64(ss.Corrections)<<40 ^ uint64(ss.Tags.Tags)<<20 ^ uint64(ss.Tags.AgreeOn)<<10 ^ uint64(ss.Tags.AgreeOff)
			h ^= math.Float64bits(st.oth.drawn[1].state.Position[0])
			out = append(out, h)
		}
		if st.Stats().Tags.Tags == 0 {
			t.Error("no tag in the run")
		}
		return out
	}
	a, b, c := run(1), run(1), run(2)
	for f := range a {
		if a[f] != b[f] || a[f] != c[f] {
			t.Fatalf("frame %d: hashes %x, %x (same seed) and %x (GOMAXPROCS 2)", f, a[f], b[f], c[f])
		}
	}
}

// The client of player 2 predicts its own cube: with the whole-world
// scope its world's index of the player is not the player-only world's
// (whose grid is one cube). It once rewound and replayed grid cube 2 in
// its player's place: its player drifted metres from the server's, and
// cube 2 took the player's state at every correction.
func TestSecondPlayerPredictsItsOwnCube(t *testing.T) {
	cfg := game.DefaultConfig()
	cfg.World.Players = 2
	cfg.Bots = []cubes.BotKind{cubes.BotWander}
	cfg.Link = link.Config{LatencyMs: 50}
	cfg.Strategies = append(cfg.Strategies, New(DefaultConfig()))
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st2 := s.ClientStrategy(1).(*Strategy)
	cube := s.Left().PlayerCube(1)
	var sq, worst float64
	n := 0
	for f := range 360 {
		s.Step(cubes.Input{})
		if f < 60 {
			continue
		}
		c, ok := st2.playerAt(s.Frame())
		p, _, okL := s.LeftAt(float64(s.Frame()), cube)
		if !ok || !okL {
			t.Fatalf("frame %d: no prediction or no server state", s.Frame())
		}
		d := c.Position.Sub(p).Len()
		sq += d * d
		worst = math.Max(worst, d)
		n++
	}
	rms := math.Sqrt(sq / float64(n))
	g := st2.cli.w.Cube(2).Position.Sub(s.Left().Cube(2).Position).Len()
	t.Logf("client 2: its player %.2f cm RMS, %.1f cm max from the server at the same frame; %d corrections; grid cube 2 %.2f cm off",
		100*rms, 100*worst, st2.Stats().Corrections, 100*g)
	if rms > 0.05 || g > 0.05 {
		t.Errorf("client 2's player %.1f cm RMS from the server, grid cube 2 %.1f cm off: want a few cm at most", 100*rms, 100*g)
	}
}
