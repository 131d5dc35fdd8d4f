package cubes

import (
	"strings"
	"testing"

	"netcubes/physics"
)

// TestOnePlayerWorldUnchanged pins the one-player world to the hashes it
// had before the world held several players: the same 901 cubes in the
// same order, the same forces, the same bits.
func TestOnePlayerWorldUnchanged(t *testing.T) {
	s, err := LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorld(DefaultConfig(), physics.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]uint64{300: 0xbb4343ef5327791, 600: 0x54164bcfd0c6254a}
	for f := 0; f < 600; f++ {
		w.Step(s.InputAt(f))
		if h, ok := want[f+1]; ok && w.StateHash() != h {
			t.Fatalf("frame %d: hash %#x, want %#x", f+1, w.StateHash(), h)
		}
	}
}

func playersConfig(n int) Config {
	c := DefaultConfig()
	c.Players = n
	return c
}

func TestPlayersLayout(t *testing.T) {
	for n := 1; n <= MaxPlayers; n++ {
		cfg := playersConfig(n)
		w, err := NewWorld(cfg, physics.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		if w.NumCubes() != 900+n || w.NumPlayers() != n {
			t.Fatalf("%d players: %d cubes, %d players", n, w.NumCubes(), w.NumPlayers())
		}
		for p := range n {
			i := w.PlayerCube(p)
			if !w.IsPlayer(i) || w.PlayerOf(i) != p || playerCubeOf(cfg, p) != i || !w.Interacting(i) {
				t.Fatalf("%d players: player %d is cube %d (IsPlayer %v, PlayerOf %d)", n, p, i, w.IsPlayer(i), w.PlayerOf(i))
			}
			if got := w.Cube(i).Position; got != PlayerStart(cfg, p) {
				t.Errorf("player %d starts at %v, want %v", p, got, PlayerStart(cfg, p))
			}
		}
		if w.IsPlayer(1) || w.PlayerOf(1) != -1 || PlayerOf(cfg, 900+n) != -1 {
			t.Fatalf("%d players: a grid cube counts as a player", n)
		}
	}
	if _, err := NewWorld(playersConfig(MaxPlayers+1), physics.DefaultConfig()); err == nil {
		t.Fatal("a world of 9 players was built")
	}
}

// TestPlayersDeterministic steps a three-player world with bots twice and
// compares hashes every tick; each player must have moved, and blown or
// gathered cubes of its own.
func TestPlayersDeterministic(t *testing.T) {
	run := func() ([]uint64, *World) {
		w, err := NewWorld(playersConfig(3), physics.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		bots := []Bot{NewBot(BotPush), NewBot(BotGather)}
		var hashes []uint64
		for f := 0; f < 240; f++ {
			var ins Inputs
			ins[0] = Input{Up: f > 60, Katamari: f > 120}
			for k := range bots {
				ins[k+1] = bots[k].Input(w, k+1)
			}
			w.StepAll(&ins)
			hashes = append(hashes, w.StateHash())
		}
		return hashes, w
	}
	a, w := run()
	b, _ := run()
	for f := range a {
		if a[f] != b[f] {
			t.Fatalf("frame %d: %#x then %#x", f, a[f], b[f])
		}
	}
	cfg := playersConfig(3)
	for p := range 3 {
		moved := w.Cube(w.PlayerCube(p)).Position.Sub(PlayerStart(cfg, p))
		if moved[0]*moved[0]+moved[1]*moved[1] < 0.25 {
			t.Errorf("player %d moved only %.2f m across the field", p+1, moved.Len())
		}
	}
}

// TestBotsStayOnField runs every bot kind for 40 s and checks its player
// stays on the 30 m field.
func TestBotsStayOnField(t *testing.T) {
	if testing.Short() {
		t.Skip("40 s of simulation")
	}
	w, err := NewWorld(playersConfig(4), physics.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	bots := []Bot{NewBot(BotWander), NewBot(BotPush), NewBot(BotGather)}
	for f := 0; f < 40*60; f++ {
		var ins Inputs
		for k := range bots {
			ins[k+1] = bots[k].Input(w, k+1)
		}
		w.StepAll(&ins)
		for p := 1; p < 4; p++ {
			pos := w.Cube(w.PlayerCube(p)).Position
			if max(pos[0], -pos[0]) > 15.5 || max(pos[1], -pos[1]) > 15.5 {
				t.Fatalf("frame %d: %s bot (player %d) at %.1f, %.1f: off the field", f, bots[p-1].Kind, p+1, pos[0], pos[1])
			}
		}
	}
}

func TestParseBots(t *testing.T) {
	got, err := ParseBots("wander, push,gather,idle")
	if err != nil || len(got) != 4 || got[0] != BotWander || got[1] != BotPush || got[2] != BotGather || got[3] != BotIdle {
		t.Fatalf("ParseBots: %v %v", got, err)
	}
	if _, err := ParseBots("wander,dance"); err == nil || !strings.Contains(err.Error(), `"dance"`) {
		t.Fatalf("unknown bot: %v", err)
	}
}

func TestScriptPlayers(t *testing.T) {
	text := "0-59 up\np2 0-119 left katamari\np3 10 blow\n60-89 down\np2 200-209 right\nend 300\n"
	s, err := ParseScript("t", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		p, f int
		want Input
	}{
		{0, 0, Input{Up: true}}, {0, 70, Input{Down: true}}, {1, 100, Input{Left: true, Katamari: true}},
		{1, 150, Input{}}, {1, 205, Input{Right: true}}, {2, 10, Input{Blow: true}}, {2, 11, Input{}}, {3, 10, Input{}},
	}
	for _, tt := range tests {
		if got := s.PlayerInputAt(tt.p, tt.f); got != tt.want {
			t.Errorf("player %d frame %d: %v, want %v", tt.p+1, tt.f, got, tt.want)
		}
	}
	if !s.Drives(1) || !s.Drives(2) || s.Drives(3) || s.Length != 300 {
		t.Errorf("Drives %v %v %v, length %d", s.Drives(1), s.Drives(2), s.Drives(3), s.Length)
	}
	var b strings.Builder
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ParseScript("back", strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("round trip: %v\n%s", err, b.String())
	}
	for p := range MaxPlayers {
		for f := 0; f < 300; f++ {
			if back.PlayerInputAt(p, f) != s.PlayerInputAt(p, f) {
				t.Fatalf("round trip: player %d frame %d differs\n%s", p+1, f, b.String())
			}
		}
	}
	for _, bad := range []string{"p9 0 up", "p0 0 up", "p2", "p2 5 up\np2 3 up", "px 0 up", "p2 0 up\nend 0"} {
		if _, err := ParseScript("bad", strings.NewReader(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestRecorderPlayers(t *testing.T) {
	r := NewRecorder("r")
	for f := range 10 {
		ins := Inputs{{Up: f < 5}, {Left: f >= 3}}
		r.AddAll(&ins, 2)
	}
	s := r.Script()
	if s.PlayerInputAt(0, 4) != (Input{Up: true}) || s.PlayerInputAt(1, 9) != (Input{Left: true}) || s.PlayerInputAt(1, 2) != (Input{}) || s.Length != 10 {
		t.Fatalf("recorded %+v", s)
	}
}
