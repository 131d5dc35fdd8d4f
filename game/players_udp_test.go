package game

import (
	"testing"
	"time"

	"netcubes/cubes"
	"netcubes/lockstep"
	"netcubes/udp"
)

// manyRights is a left serving several right processes over loopback UDP,
// all in one test process and stepped in turn (each side's datagrams of a
// tick are in before the next side steps).
type manyRights struct {
	t      *testing.T
	tok    udp.Token
	left   *Session
	srv    *udp.Server
	rights []*Session // nil: a right that left
	keys   []cubes.Input
	// The handshake's datagrams each way, which the slot's counters do not
	// count: the rest of what a right sent the left received, and back.
	hsGot    []uint64
	counted  []bool
	goneSent uint64 // datagrams sent by rights that left
	world    cubes.Config
}

func newManyRights(t *testing.T, players, start int) *manyRights {
	t.Helper()
	return newManyRightsOn(t, players, start, DefaultConfig().World)
}

// newManyRightsOn is newManyRights on world w (its players set to players).
func newManyRightsOn(t *testing.T, players, start int, w cubes.Config) *manyRights {
	t.Helper()
	tok, err := udp.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	nc := udp.DefaultConfig()
	nc.MaxClients = udp.MaxClients
	srv, err := udp.Listen("127.0.0.1:0", tok, nc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	cfg := DefaultConfig()
	cfg.World = w
	cfg.World.Players = players
	cfg.Strategies, cfg.Start = strategiesForTest(), start
	cfg.Role, cfg.Server = RoleLeft, srv
	left, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &manyRights{t: t, tok: tok, left: left, srv: srv, world: w}
}

// join starts a right process and waits until it took a slot.
func (m *manyRights) join(keys cubes.Input) *Session {
	m.t.Helper()
	rc, err := udp.Dial(m.srv.LocalAddr().String(), m.tok, udp.DefaultConfig())
	if err != nil {
		m.t.Fatal(err)
	}
	m.t.Cleanup(func() { rc.Close() })
	cfg := DefaultConfig()
	cfg.World = m.world
	cfg.Strategies = strategiesForTest()
	cfg.Role, cfg.Client = RoleRight, rc
	r, err := New(cfg)
	if err != nil {
		m.t.Fatal(err)
	}
	m.rights = append(m.rights, r)
	m.keys = append(m.keys, keys)
	m.hsGot, m.counted = append(m.hsGot, 0), append(m.counted, false)
	deadline := time.Now().Add(5 * time.Second)
	for !r.tp.joined {
		if time.Now().After(deadline) {
			m.t.Fatal("a right did not join within 5 s")
		}
		m.step()
		time.Sleep(time.Millisecond)
	}
	// Let the handshake's last datagrams land, then count it.
	time.Sleep(50 * time.Millisecond)
	i := len(m.rights) - 1
	slot := m.srv.Slot(r.tp.client.Status().Slot).Stats
	c := r.tp.client.Counts()
	m.hsGot[i], m.counted[i] = c.Arrived-slot.Sent, true
	return r
}

// leave closes right i (it says goodbye: its slot frees at once).
func (m *manyRights) leave(i int) {
	m.rights[i].tp.client.Close()
	m.goneSent += m.rights[i].tp.client.Counts().Sent
	m.rights[i] = nil
}

// step is one tick of the left, then of every right, each waiting for the
// datagrams sent to it.
func (m *manyRights) step() {
	m.left.Step(cubes.Input{})
	m.wait(func() bool {
		for i, r := range m.rights {
			if r == nil || !m.counted[i] {
				continue
			}
			st := r.tp.client.Status()
			if m.srv.Slot(st.Slot).Stats.Sent > r.tp.client.Counts().Arrived-m.hsGot[i] {
				return true
			}
		}
		return false
	})
	for i, r := range m.rights {
		if r != nil {
			r.Step(m.keys[i])
		}
	}
	// Every datagram any right ever sent has reached the left's socket.
	m.wait(func() bool {
		sent := m.goneSent
		for _, r := range m.rights {
			if r != nil {
				sent += r.tp.client.Counts().Sent
			}
		}
		return m.srv.Counts().Arrived < sent
	})
}

func (m *manyRights) wait(pending func() bool) {
	deadline := time.Now().Add(5 * time.Second)
	for pending() {
		if time.Now().After(deadline) {
			for i, r := range m.rights {
				if r != nil {
					st := r.tp.client.Status()
					m.t.Logf("right %d slot %d %+v %+v hs %d", i, st.Slot, r.tp.client.Counts(), m.srv.Slot(st.Slot).Stats, m.hsGot[i])
				}
			}
			m.t.Fatal("the loopback interface did not deliver within 5 s")
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// playerMoved is how far player p of the left moved along x and y since
// its start.
func (m *manyRights) playerMoved(p int) (float64, float64) {
	w := m.left.Left()
	d := w.Cube(w.PlayerCube(p)).Position.Sub(cubes.PlayerStart(w.Config(), p))
	return d[0], d[1]
}

// TestThreeRightsDriveTheirPlayers: a left with three players serves three
// right processes with the 2004 strategy; each right takes the next slot
// and drives its own player. One leaves and another joins in its slot; a
// fourth right with the token from another port joins as a spectator and
// moves nobody, until player 2's right leaves: it moves into that slot and
// drives player 2, and a newcomer is the spectator.
func TestThreeRightsDriveTheirPlayers(t *testing.T) {
	m := newManyRights(t, 3, 4)
	m.join(cubes.Input{Up: true})
	r2 := m.join(cubes.Input{Left: true})
	m.join(cubes.Input{Down: true})
	spy := m.join(cubes.Input{Right: true, Blow: true})
	for k, r := range m.rights {
		if got := r.ClientID(0); got != k {
			t.Fatalf("right %d took slot %d", k+1, got)
		}
	}
	if p := spy.ClientPlayer(0); p != -1 {
		t.Fatalf("the fourth right owns player %d, want a spectator", p+1)
	}
	if r2.NumPlayers() != 3 || r2.ClientPlayer(0) != 1 {
		t.Fatalf("right 2 sees %d players and owns player %d", r2.NumPlayers(), r2.ClientPlayer(0)+1)
	}
	for range 180 {
		m.step()
	}
	x0, y0 := m.playerMoved(0)
	x1, y1 := m.playerMoved(1)
	x2, y2 := m.playerMoved(2)
	// Each player moved mostly its own way. (Mostly: the inputs cross
	// real sockets, so on a busy machine they reach the left some ticks
	// later or earlier, and the players may meet and push each other
	// sideways; a right driving the wrong player would move it along
	// the other axis.)
	if y0 < 1 || y0 < abs(x0) {
		t.Errorf("player 1 (up) moved %.2f, %.2f", x0, y0)
	}
	if x1 > -1 || -x1 < abs(y1) {
		t.Errorf("player 2 (left) moved %.2f, %.2f", x1, y1)
	}
	if y2 > -1 || -y2 < abs(x2) {
		t.Errorf("player 3 (down) moved %.2f, %.2f", x2, y2)
	}
	for k := range 3 {
		if m.left.ClientMetrics(k).RejectedBack != 0 {
			t.Errorf("the left rejected %d packets of right %d", m.left.ClientMetrics(k).RejectedBack, k+1)
		}
	}

	// Right 2 leaves: the spectator moves into its slot and drives player
	// 2 (to the right); a new right joins as a spectator.
	m.leave(1)
	for range 10 {
		m.step()
	}
	if spy.ClientID(0) != 1 || spy.ClientPlayer(0) != 1 {
		t.Fatalf("the spectator is in slot %d, player %d, after player 2's right left", spy.ClientID(0)+1, spy.ClientPlayer(0)+1)
	}
	newcomer := m.join(cubes.Input{Left: true})
	if newcomer.ClientID(0) != 3 || newcomer.ClientPlayer(0) != -1 {
		t.Fatalf("the newcomer took slot %d, player %d", newcomer.ClientID(0)+1, newcomer.ClientPlayer(0)+1)
	}
	xBefore, _ := m.playerMoved(1)
	for range 150 {
		m.step()
	}
	xAfter, _ := m.playerMoved(1)
	if xAfter-xBefore < 1 {
		t.Errorf("player 2 moved %.2f m right under its new right", xAfter-xBefore)
	}
	if !spy.Metrics().Valid && spy.Metrics().ErrorOf == "" {
		t.Error("the promoted right shows nothing comparable")
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestThreeRightsEveryStrategy: strategies 1-4 with three rights over
// loopback UDP: each right follows its own slot's player, decodes what it
// is sent, and lockstep stays in sync on every right.
func TestThreeRightsEveryStrategy(t *testing.T) {
	// Every strategy but the 2004 one, whose right drives its player
	// (TestThreeRightsDriveTheirPlayers).
	for _, start := range []int{0, 1, 2, 3, 5, 6} {
		m := newManyRights(t, 3, start)
		for range 3 {
			m.join(cubes.Input{})
		}
		for range 150 {
			m.step()
		}
		for k, r := range m.rights {
			if r.ClientPlayer(0) != k || r.NumPlayers() != 3 {
				t.Errorf("strategy %d: right %d owns player %d of %d", start+1, k+1, r.ClientPlayer(0)+1, r.NumPlayers())
			}
			if got := r.RightView(); got.Player != r.Left().PlayerCube(k) {
				t.Errorf("strategy %d: right %d's camera follows cube %d, want its player's", start+1, k+1, got.Player)
			}
			if m := r.Metrics(); m.Rejected != 0 || m.PacketsReceived == 0 {
				t.Errorf("strategy %d: right %d rejected %d, received %d", start+1, k+1, m.Rejected, m.PacketsReceived)
			}
			if ls, ok := r.Strategy().(*lockstep.Strategy); ok {
				if st := ls.Stats(); st.Desync >= 0 || st.Checked == 0 {
					t.Errorf("right %d: lockstep desync at %d, %d frames checked", k+1, st.Desync, st.Checked)
				}
			}
		}
	}
}
