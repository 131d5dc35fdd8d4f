package game_test

import (
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/lockstep"
	"netcubes/physics"
)

// threePlayers is a session of three players (the presenter and two bots)
// on strategy i, client 2 on the mobile preset and client 3 on terrible.
func threePlayers(t *testing.T, i int) *game.Session {
	t.Helper()
	cfg := game.DefaultConfig()
	cfg.World.Players = 3
	cfg.Link = link.PresetLAN.Config()
	cfg.ClientLinks = []link.Pair{link.PresetLAN.Pair(), link.PresetMobile.Pair(), link.PresetTerrible.Pair()}
	cfg.Strategies = catalog.All()
	cfg.Start = i
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSeveralPlayersEveryStrategy runs three players in one process with
// every strategy and a lossy link per client: every client decodes what it
// is sent and shows something, the server's world is exactly a world
// stepped with the same inputs and no network, and lockstep stays
// bit-exact on every client.
func TestSeveralPlayersEveryStrategy(t *testing.T) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	const frames = 300
	for i, st := range catalog.All() {
		t.Run(st.ID(), func(t *testing.T) {
			s := threePlayers(t, i)
			// The reference: strategies 1-4 step the server's world with
			// the inputs as they are made, so the same session on perfect
			// links must keep the same world (state sync's quantizing
			// included); the 2004 server steps with what crossed the
			// links, so its world must be a plain world stepped with the
			// inputs it used.
			ref := threePlayers(t, i)
			for k := range ref.NumClients() {
				ref.SetClientLink(k, link.Config{})
			}
			plain, err := cubes.NewWorld(s.Left().Config(), physics.DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			ctx := s.Context()
			for f := 0; f < frames; f++ {
				s.Step(sc.InputAt(f))
				if st.ID() == "authority" {
					continue // the host takes the states its players send: its world is the network's by design
				}
				if st.ID() == "predict" {
					var ins cubes.Inputs
					for p := range 3 {
						ins[p] = ctx.PlayerInput(p, s.Frame()-1)
					}
					plain.StepAll(&ins)
					if plain.StateHash() != s.Left().StateHash() {
						t.Fatalf("frame %d: the server's world differs from its inputs stepped without a network", s.Frame())
					}
					continue
				}
				ref.Step(sc.InputAt(f))
				if ref.Left().StateHash() != s.Left().StateHash() {
					t.Fatalf("frame %d: the server's world differs from the same run on perfect links", s.Frame())
				}
			}
			moved := 0
			for p := 1; p < 3; p++ {
				if s.Context().PlayerInput(p, frames-100) != (cubes.Input{}) || s.Context().PlayerInput(p, frames-50) != (cubes.Input{}) {
					moved++
				}
			}
			if moved == 0 {
				t.Error("the bots never pressed a key")
			}
			for k := range s.NumClients() {
				m := s.ClientMetrics(k)
				if m.Rejected != 0 || m.RejectedBack != 0 {
					t.Errorf("client %d: %d packets rejected, %d back", k+1, m.Rejected, m.RejectedBack)
				}
				if m.PacketsDelivered == 0 {
					t.Errorf("client %d: nothing delivered", k+1)
				}
				if ls, ok := s.ClientStrategy(k).(*lockstep.Strategy); ok {
					st := ls.Stats()
					if st.Desync >= 0 || st.Checked < 10 {
						t.Errorf("client %d: lockstep desync at %d, %d frames checked", k+1, st.Desync, st.Checked)
					}
				}
			}
			for k := range s.NumClients() {
				if err := s.SetShown(k); err != nil {
					t.Fatal(err)
				}
				if got := len(s.RightView().Cubes); got != s.Left().NumCubes() {
					t.Errorf("client %d shows %d cubes", k+1, got)
				}
			}
		})
	}
}

// TestOnePlayerSessionUnchanged pins a one-player session to the hashes of
// the one-player demo (the bench's figures come from the same code path).
func TestOnePlayerSessionUnchanged(t *testing.T) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.DefaultConfig()
	cfg.Strategies = catalog.All()
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 300; f++ {
		s.Step(sc.InputAt(f))
	}
	if h := s.Left().StateHash(); h != 0xbb4343ef5327791 {
		t.Errorf("hash after 300 frames %#x, want the one-player demo's", h)
	}
	if s.NumClients() != 1 || s.NumPlayers() != 1 {
		t.Errorf("%d clients, %d players", s.NumClients(), s.NumPlayers())
	}
}

// TestLockstepNamesTheSlowestPlayer: with one client on a terrible uplink,
// every client's lockstep waits for that client's player, and says so.
func TestLockstepNamesTheSlowestPlayer(t *testing.T) {
	cfg := game.DefaultConfig()
	cfg.World.Players = 3
	cfg.ClientLinks = []link.Pair{{}, {}, link.Symmetric(link.Config{LatencyMs: 100, JitterMs: 20})}
	cfg.Strategies = catalog.All()
	cfg.Start = 3
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lockstepOf := func(k int) *lockstep.Strategy { return s.ClientStrategy(k).(*lockstep.Strategy) }
	waitedFor := map[int]int{}
	if err := s.SetShown(2); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 400; f++ {
		if f == 200 {
			s.Outage(60) // client 3's links, both ways, for a second
		}
		s.Step(cubes.Input{Up: f > 60})
		for k := range 2 {
			if p := lockstepOf(k).WaitingFor(); p > 0 {
				waitedFor[p]++
			}
		}
	}
	if waitedFor[3] == 0 {
		t.Fatalf("clients 1 and 2 never waited for player 3 (waited for %v)", waitedFor)
	}
	for p, n := range waitedFor {
		if p != 3 && n > waitedFor[3] {
			t.Errorf("waited for player %d %d ticks, for player 3 only %d", p, n, waitedFor[3])
		}
	}
	for k := range 3 {
		if st := lockstepOf(k).Stats(); st.Desync >= 0 {
			t.Errorf("client %d desynced at frame %d", k+1, st.Desync)
		}
	}
}

// TestSetPlayersLive adds and removes players while the session runs.
func TestSetPlayersLive(t *testing.T) {
	for i := range catalog.All() {
		cfg := game.DefaultConfig()
		cfg.Strategies = catalog.All()
		cfg.Start = i
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for f := 0; f < 60; f++ {
			s.Step(cubes.Input{Up: true})
		}
		p1 := s.Left().Cube(cubes.Player).Position
		if err := s.SetPlayers(4); err != nil {
			t.Fatal(err)
		}
		if s.NumPlayers() != 4 || s.NumClients() != 4 || s.Left().NumCubes() != 904 {
			t.Fatalf("%s: %d players, %d clients, %d cubes", cfg.Strategies[i].ID(), s.NumPlayers(), s.NumClients(), s.Left().NumCubes())
		}
		// Lockstep, rollback and distributed authority start both worlds
		// over from a freshly built one, as when they are selected.
		if id := cfg.Strategies[i].ID(); id != "lockstep" && id != "rollback" && id != "authority" && s.Left().Cube(cubes.Player).Position != p1 {
			t.Errorf("%s: player 1 moved when players joined", cfg.Strategies[i].ID())
		}
		if err := s.SetShown(3); err != nil {
			t.Fatal(err)
		}
		for f := 0; f < 90; f++ {
			s.Step(cubes.Input{Left: true})
		}
		if err := s.SetPlayers(2); err != nil {
			t.Fatal(err)
		}
		if s.Shown() != 1 || s.NumClients() != 2 {
			t.Fatalf("after removing: shown %d of %d clients", s.Shown(), s.NumClients())
		}
		for f := 0; f < 60; f++ {
			s.Step(cubes.Input{})
		}
		if m := s.Metrics(); m.Rejected != 0 || len(s.RightView().Cubes) != 902 {
			t.Errorf("%s: %d rejected, %d cubes shown", cfg.Strategies[i].ID(), m.Rejected, len(s.RightView().Cubes))
		}
	}
}
