package game

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"netcubes/authority"
	"netcubes/cubes"
	"netcubes/link"
	"netcubes/lockstep"
	"netcubes/predict"
	"netcubes/rollback"
	"netcubes/snapshot"
	"netcubes/statesync"
	"netcubes/strategy"
	"netcubes/udp"
	"netcubes/wire"
)

// strategiesForTest are the strategies of the two-process tests, built
// fresh (each process has its own instances, as two programs would).
func strategiesForTest() []strategy.Strategy {
	return []strategy.Strategy{snapshot.NewInterpolation(), snapshot.NewCompression(), statesync.New(statesync.DefaultConfig()),
		lockstep.New(lockstep.DefaultConfig()), predict.New(predict.DefaultConfig()),
		authority.New(authority.DefaultConfig()), rollback.New(rollback.DefaultConfig())}
}

// procPair is a left and a right session on the loopback interface in one
// test process, stepped in turn: each side's datagrams of a tick are all in
// (counted) before the other side steps, so the run is as deterministic as
// the one-process one.
type procPair struct {
	t           *testing.T
	left, right *Session
	lc          *udp.Server
	rc          *udp.Client
	// Datagrams the left sent and received before the current right
	// joined (to or from an earlier right).
	leftSentBefore, leftGotBefore uint64
}

// dialRight starts a right session connecting to the left at addr with
// tok; its connection closes when the test ends.
func dialRight(t *testing.T, addr string, tok udp.Token) (*Session, *udp.Client) {
	t.Helper()
	rc, err := udp.Dial(addr, tok, udp.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rc.Close() })
	cfg := DefaultConfig()
	cfg.Strategies, cfg.Role, cfg.Client = strategiesForTest(), RoleRight, rc
	right, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return right, rc
}

func newProcPair(t *testing.T, start int) *procPair {
	t.Helper()
	tok, err := udp.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	lc, err := udp.Listen("127.0.0.1:0", tok, leftNetConfig())
	if err != nil {
		t.Fatal(err)
	}
	rc, err := udp.Dial(lc.LocalAddr().String(), tok, udp.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lc.Close(); rc.Close() })
	cfg := DefaultConfig()
	cfg.Strategies, cfg.Start = strategiesForTest(), start
	cfg.Role, cfg.Server = RoleLeft, lc
	left, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Strategies, cfg.Start = strategiesForTest(), 0
	cfg.Role, cfg.Client = RoleRight, rc
	right, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := &procPair{t: t, left: left, right: right, lc: lc, rc: rc}
	// The handshake, before the left's first tick: the right asks, the left
	// answers from its Poll, the right joins at frame 0.
	p.settle(func() bool {
		right.pollRight()
		lc.Poll(0)
		return !right.joinedAfterPoll()
	})
	if !right.tp.joined {
		t.Fatal("the right did not join")
	}
	return p
}

// joinedAfterPoll lets the right take an accept that arrived (the session
// does this inside Step; the handshake above runs before any step).
func (s *Session) joinedAfterPoll() bool {
	if body, _, ok := s.tp.client.Accepted(); ok {
		s.applyState(body, true)
	}
	return s.tp.joined
}

// pollRight polls a right's connection outside Step, on its own tick.
func (s *Session) pollRight() {
	s.tp.tick++
	s.tp.client.Poll(s.tp.tick)
	s.tp.noteClient()
}

// leftNetConfig is the left's transport as the app opens it: one slot.
func leftNetConfig() udp.Config {
	c := udp.DefaultConfig()
	c.MaxClients = 1
	return c
}

// settle repeats step (with a millisecond's pause) while it returns true,
// for at most 5 s of wall time: it waits for datagrams, it times nothing.
func (p *procPair) settle(step func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for step() {
		if time.Now().After(deadline) {
			p.t.Fatal("the loopback interface did not deliver within 5 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// step runs one tick of both processes, each waiting until the other has
// read every datagram sent to it.
func (p *procPair) step(in cubes.Input) {
	p.left.Step(in)
	sent := p.lc.Counts().Sent
	p.settle(func() bool {
		return p.rc.Counts().Arrived < sent-p.leftSentBefore
	})
	p.right.Step(in)
	sent = p.rc.Counts().Sent
	p.settle(func() bool {
		return p.lc.Counts().Arrived-p.leftGotBefore < sent
	})
}

// TestTwoProcessesMatchOneProcess runs each strategy for 4 s of the
// katamari script in one process and as two processes over real UDP on the
// loopback interface: the data packets on the wire are the one-process
// packets byte for byte, and the right's error matches within the
// diagnostics' quantization (2 mm).
func TestTwoProcessesMatchOneProcess(t *testing.T) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	const frames = 4 * wire.TicksPerSecond
	for i, st := range strategiesForTest() {
		t.Run(st.ID(), func(t *testing.T) {
			// One process.
			cfg := DefaultConfig()
			cfg.Strategies, cfg.Start = strategiesForTest(), i
			one, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var want [][]byte
			one.onSend = func(pkt []byte) { want = append(want, append([]byte(nil), pkt...)) }
			var oneErr []float64
			oneValid := 0
			for f := range frames {
				one.Step(sc.InputAt(f))
				oneErr = append(oneErr, one.Metrics().PosRMSCm)
				if one.Metrics().Valid {
					oneValid++
				}
			}

			// Two processes.
			p := newProcPair(t, i)
			var got [][]byte
			var twoErr []float64
			for f := range frames {
				p.step(sc.InputAt(f))
				for _, d := range p.rc.Received(udp.KindData) {
					got = append(got, append([]byte(nil), d...))
				}
				m := p.right.Metrics()
				if m.Valid {
					twoErr = append(twoErr, m.PosRMSCm)
				} else {
					twoErr = append(twoErr, math.NaN())
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%d data packets over UDP, %d in one process", len(got), len(want))
			}
			for k := range want {
				if !bytes.Equal(got[k], want[k]) {
					t.Fatalf("packet %d differs:\n% x\n% x", k, got[k], want[k])
				}
			}
			compared := 0
			for f := range frames {
				if math.IsNaN(twoErr[f]) {
					continue
				}
				compared++
				// 2 mm of quantization per axis in the truth: at most
				// √3 mm = 0.17 cm on each cube, so on the RMS too.
				if d := math.Abs(twoErr[f] - oneErr[f]); d > 0.2 {
					t.Fatalf("frame %d: error %.3f cm over UDP, %.3f cm in one process", f, twoErr[f], oneErr[f])
				}
			}
			// Every strategy's right measures its error on most ticks in
			// both modes (the 2004 client, which draws its player ahead of
			// the left, with its own same-frame figures: strategy.OwnError).
			if compared < frames/2 || oneValid < frames/2 {
				t.Errorf("the right measured its error on only %d of %d ticks (one process: %d)", compared, frames, oneValid)
			}
			if d := p.lc.Drops(); d.Total() != 0 {
				t.Errorf("the left dropped %+v", d)
			}
			if d := p.rc.Drops(); d.Total() != 0 {
				t.Errorf("the right dropped %+v", d)
			}
		})
	}
}

// TestRightFollowsTheLeft: the presenter's keys on the left (a strategy
// switch, a setting, the link) reach the right within a control datagram,
// and a restarted left (a new epoch) restarts the right.
func TestRightFollowsTheLeft(t *testing.T) {
	p := newProcPair(t, 0)
	for range 10 {
		p.step(cubes.Input{})
	}
	if err := p.left.SetStrategy(2); err != nil {
		t.Fatal(err)
	}
	ss := p.left.Strategy().(*statesync.Strategy)
	ss.SetStep(5)
	lk := p.left.Link()
	lk.LatencyMs = 40
	p.left.SetLink(lk)
	for range 3 {
		p.step(cubes.Input{})
	}
	rs, ok := p.right.Strategy().(*statesync.Strategy)
	if !ok || p.right.StrategyIndex() != 2 {
		t.Fatalf("the right runs %s", p.right.Strategy().ID())
	}
	if rs.Step() != 5 || p.right.Link().LatencyMs != 40 {
		t.Errorf("the right has step %d, latency %v", rs.Step(), p.right.Link().LatencyMs)
	}
	// Every link setting crosses (the bottleneck's queue, MTU and the
	// rest): the right's link is the left's DSL preset exactly, so its HUD
	// names it.
	p.left.SetLink(link.PresetDSL.Config())
	for range 3 {
		p.step(cubes.Input{})
	}
	if got := p.right.Link(); got != link.PresetDSL.Config() {
		t.Errorf("the right's link %+v, the left's DSL %+v", got, link.PresetDSL.Config())
	}
	if f := p.right.Frame(); f < p.left.Frame()-1 || f > p.left.Frame() {
		t.Errorf("right frame %d, left %d", f, p.left.Frame())
	}
}

// TestRightBehindTheLeftKeepsDecoding: the two processes tick on their own
// clocks, so the right can be a few ticks behind the left (here the left
// runs 5 ticks before the right's first). The left's packets then carry
// frames from the right's future; the right follows the left's frame and
// decodes every one (before, it refused them all as hostile: 300 packets
// rejected in 5 s and a frozen right). A right ahead of the left is the
// other case: its packets are merely late.
func TestRightBehindTheLeftKeepsDecoding(t *testing.T) {
	for _, c := range []struct {
		name                string
		leftFirst, rightRun int
	}{
		{"right behind", 5, 0},
		{"right ahead", 0, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newProcPair(t, 2)
			for range c.leftFirst {
				p.left.Step(cubes.Input{})
			}
			for range c.rightRun {
				p.right.Step(cubes.Input{})
			}
			for range 2 * wire.TicksPerSecond {
				p.step(cubes.Input{Up: true})
			}
			m := p.right.Metrics()
			if m.Rejected != 0 {
				t.Errorf("the right rejected %d of the left's packets", m.Rejected)
			}
			if !m.Valid || m.PosMaxCm > 1 {
				t.Errorf("the right's view: valid %v, max error %.2f cm", m.Valid, m.PosMaxCm)
			}
			if d := p.right.Frame() - p.left.Frame(); d < 0 || d > c.rightRun {
				t.Errorf("right frame %d, left %d", p.right.Frame(), p.left.Frame())
			}
			// What the right's HUD shows of the traffic: the packets that
			// arrived, each on the timeline, and the left's figures.
			if m.PacketsReceived < wire.TicksPerSecond {
				t.Errorf("the right counts %d packets received in 2 s", m.PacketsReceived)
			}
			tl := p.right.Timeline(nil)
			if len(tl) < wire.TicksPerSecond {
				t.Fatalf("%d packets on the right's timeline", len(tl))
			}
			for _, r := range tl {
				if r.Fate != link.FateDelivered || r.Arrival < r.Sent || r.Arrival > p.right.Frame() {
					t.Fatalf("timeline record %+v at frame %d", r, p.right.Frame())
				}
			}
			want := p.left.Strategy().(strategy.Facts).Facts()
			if got := p.right.Remote().Facts; got == "" || len(got) > maxFactsBytes {
				t.Errorf("the right has the left's facts %q (the left says %q)", got, want)
			}
		})
	}
}

// TestRightDiesAndAnotherJoins: the right process goes; the left notices,
// frees its slot and keeps running; a new right connects
// mid-run and catches up (state sync corrects it to within centimetres).
func TestRightDiesAndAnotherJoins(t *testing.T) {
	p := newProcPair(t, 2)
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	f := 0
	for ; f < 120; f++ {
		p.step(sc.InputAt(f))
	}
	p.rc.Close() // it says goodbye (a crash without one is udp's TestTimeoutAndReconnect)
	timeout := udp.DefaultConfig().TimeoutTicks
	for k := 0; k <= timeout+1; k++ {
		p.left.Step(sc.InputAt(f))
		f++
	}
	if p.lc.Slot(0).Connected {
		t.Fatalf("the left still thinks the right is there %d ticks after it died", timeout+1)
	}
	said := false
	for _, e := range p.left.Events() {
		said = said || bytes.Contains([]byte(e), []byte("went silent")) || bytes.Contains([]byte(e), []byte("disconnected"))
	}
	if !said {
		t.Error("the left did not say the right went away")
	}
	// No figure of the old right stays as if current.
	if m := p.left.Metrics(); m.HasRTT || m.Loss != 0 || p.left.Remote().Connected {
		t.Errorf("with no right: RTT %v (%v), loss %v, connected %v", m.RTTms, m.HasRTT, m.Loss, p.left.Remote().Connected)
	}

	// A new right with the token joins the running left.
	right, rc := dialRight(t, p.lc.LocalAddr().String(), p.lc.Token())
	p.right, p.rc = right, rc
	p.leftSentBefore, p.leftGotBefore = p.lc.Counts().Sent, p.lc.Counts().Arrived
	p.settle(func() bool {
		right.pollRight()
		p.lc.Poll(wire.Tick(p.left.Frame()))
		return !right.joinedAfterPoll()
	})
	if d := right.Frame() - p.left.Frame(); d < -1 || d > 0 {
		t.Fatalf("the new right starts at frame %d, the left is at %d", right.Frame(), p.left.Frame())
	}
	// State sync joins the newcomer from one block of the left's world,
	// in pieces over the socket: its error, measured against the left's
	// diagnostics, is under a centimetre from its first second on (it
	// caught up from the initial world before the block crossed the
	// socket, and only fell by half from its first second to its fourth).
	var first, last float64
	sending := false
	for k := 0; k < 4*wire.TicksPerSecond; k++ {
		p.step(sc.InputAt(f))
		f++
		// The left process describes the block it sends, never a right
		// that waits: that right is in another process.
		facts := p.left.ClientStrategy(0).(strategy.Facts).Facts()
		if strings.Contains(facts, "waiting for the block") || strings.Contains(facts, "pieces, ") {
			t.Fatalf("tick %d: the left's facts speak for its right: %q", k, facts)
		}
		sending = sending || strings.Contains(facts, "sending the joining right")
		if m := right.Metrics(); m.Valid {
			if k < wire.TicksPerSecond {
				first = max(first, m.PosRMSCm)
			}
			last = m.PosRMSCm
		}
	}
	if !right.Metrics().Valid || first == 0 || first >= 1 || last >= 1 {
		t.Errorf("the right's error went from %.2f cm RMS in its first second to %.2f cm after 4 s", first, last)
	}
	if !sending {
		t.Error("the left's facts never said it sent the joining right a block")
	}
	if j := right.Strategy().(*statesync.Strategy).JoinStats(right.Frame()); !j.Ready || j.Pieces == 0 {
		t.Errorf("the new right did not join from a block: %+v", j)
	}
}

// stepRightAlone is one tick of a right process with no data packets:
// its strategy updates and draws from whatever state it took.
func stepRightAlone(right *Session) {
	st := right.strategies[right.active]
	right.frame++
	right.clients[0].receive(wire.Tick(right.frame), nil)
	right.right.Cubes = right.right.Cubes[:0]
	shown, ok := st.View(&right.right)
	right.updateMetrics(shown, ok)
}

// FuzzRightReadsState hands a right process arbitrary accept, control and
// diagnostics bodies: each is taken or refused (counted), never a panic,
// and whatever it takes leaves a session that still steps.
func FuzzRightReadsState(f *testing.F) {
	rc, err := udp.Dial("127.0.0.1:9", udp.Token{1}, udp.DefaultConfig())
	if err != nil {
		f.Fatal(err)
	}
	defer rc.Close()
	lc, err := udp.Listen("127.0.0.1:0", udp.Token{1}, udp.DefaultConfig())
	if err != nil {
		f.Fatal(err)
	}
	defer lc.Close()
	cfg := DefaultConfig()
	cfg.Strategies, cfg.Role, cfg.Server = strategiesForTest(), RoleLeft, lc
	left, err := New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	left.Step(cubes.Input{Up: true})
	state := append([]byte(nil), left.writeState(left.tp.ctlW, left.tp.ctlBuf, left.leftState(1, 0))...)
	diag, _ := left.diagBody()
	f.Add(uint8(0), state)
	f.Add(uint8(1), state)
	f.Add(uint8(2), append([]byte(nil), diag...))
	f.Add(uint8(2), diag[:40])
	cfg.Strategies, cfg.Role, cfg.Client = strategiesForTest(), RoleRight, rc
	right, err := New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		switch kind % 3 {
		case 0:
			right.applyState(body, true)
		case 1:
			right.applyState(body, false)
		default:
			right.recordDiag(body)
		}
		if right.tp.joined && kind >= 3 {
			stepRightAlone(right)
		}
	})
}

// TestRightRefusesFramesPastMaxFrame: a state datagram whose frame is past
// wire.MaxFrame is refused for every strategy; a frame at the bound is
// taken and the right steps on from it without a panic. (The fuzzer found
// frame 0x8c8c8c93 overflowing the prediction client's 32-bit input frames.)
func TestRightRefusesFramesPastMaxFrame(t *testing.T) {
	rc, err := udp.Dial("127.0.0.1:9", udp.Token{1}, udp.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	for _, tc := range []struct {
		frame uint32
		taken bool
	}{{0x8c8c8c93, false}, {wire.MaxFrame + 1, false}, {wire.MaxFrame - 2, true}} {
		for active := range strategiesForTest() {
			cfg := DefaultConfig()
			cfg.Strategies, cfg.Role, cfg.Client = strategiesForTest(), RoleRight, rc
			right, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rs := right.leftState(1, 0)
			rs.frame, rs.active = tc.frame, uint8(active)
			body := append([]byte(nil), right.writeState(right.tp.ctlW, right.tp.ctlBuf, rs)...)
			before := right.clients[0].metrics.RejectedBack
			right.applyState(body, true)
			if got := right.clients[0].metrics.RejectedBack > before; got == tc.taken {
				t.Errorf("frame %#x, strategy %d: refused %v, want %v", tc.frame, active, got, !tc.taken)
			}
			for range 3 {
				stepRightAlone(right)
			}
		}
	}
}

// TestLockstepOverTwoProcesses: the presenter switches the left to
// lockstep 2 s into a katamari run. Both processes start over from a
// freshly built world at the frame the left switched (the right learns it
// from the left's settings), and from then on the right is the left bit
// for bit: every hash compared agrees, and the right's frame trails the
// left's by the playout delay.
func TestLockstepOverTwoProcesses(t *testing.T) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	p := newProcPair(t, 1)
	const switchAt, end = 2 * wire.TicksPerSecond, 6 * wire.TicksPerSecond
	for f := 0; f < end; f++ {
		if f == switchAt {
			if err := p.left.SetStrategy(3); err != nil {
				t.Fatal(err)
			}
		}
		p.step(sc.InputAt(f))
	}
	ls, ok := p.right.Strategy().(*lockstep.Strategy)
	if !ok {
		t.Fatalf("the right runs %s", p.right.Strategy().ID())
	}
	ss := ls.Stats()
	t.Logf("right: %d hashes compared, desync %d, right world at frame %d, left at %d", ss.Checked, ss.Desync, ss.Frame, p.left.Frame())
	if ss.Desync >= 0 || ss.Checked < 3*wire.TicksPerSecond {
		t.Errorf("the right: desync at %d, %d frames checked", ss.Desync, ss.Checked)
	}
	if lag := p.left.Frame() - ss.Frame; lag < 6 || lag > 12 {
		t.Errorf("the right's world trails the left by %d frames", lag)
	}
}

// TestControlCannotWedgeTheRight: one control datagram cannot wedge the
// right (defence in depth: controls are authenticated before they get
// here). Sequence 2³²−1 used to make the right ignore every later control
// of the epoch; frame +36,000 restarted it in the future; another epoch
// restarted it. Each is refused, and the left's next real control is still
// taken.
func TestControlCannotWedgeTheRight(t *testing.T) {
	forged := []struct {
		name string
		edit func(rs *remoteState, right *Session)
	}{
		{"sequence 2^32-1", func(rs *remoteState, _ *Session) { rs.seq = math.MaxUint32; rs.links.Up.LossPercent = 100 }},
		{"sequence far ahead", func(rs *remoteState, _ *Session) { rs.seq += 100000; rs.links.Up.LossPercent = 100 }},
		{"frame +36000", func(rs *remoteState, right *Session) { rs.seq++; rs.frame = uint32(right.frame + 36000) }},
		{"another epoch", func(rs *remoteState, _ *Session) { rs.seq++; rs.epoch++ }},
	}
	for _, tc := range forged {
		t.Run(tc.name, func(t *testing.T) {
			p := newProcPair(t, 2)
			for range wire.TicksPerSecond {
				p.step(cubes.Input{})
			}
			rs := p.right.tp.remote
			tc.edit(&rs, p.right)
			body := append([]byte(nil), p.right.writeState(p.right.tp.ctlW, p.right.tp.ctlBuf, rs)...)
			frame, link := p.right.frame, p.right.Link()
			p.right.applyState(body, false)
			if p.right.frame != frame || p.right.Link() != link || p.right.tp.remote.seq == rs.seq {
				t.Fatalf("the forged control was taken: frame %d → %d, link %+v", frame, p.right.frame, p.right.Link())
			}
			// The left changes its link: the right still follows.
			lk := p.left.Link()
			lk.LatencyMs = 33
			p.left.SetLink(lk)
			for range 3 {
				p.step(cubes.Input{})
			}
			if p.right.Link().LatencyMs != 33 {
				t.Fatalf("after the forged control the right ignores the left's: latency %v", p.right.Link().LatencyMs)
			}
			if m := p.right.Metrics(); m.Rejected != 0 {
				t.Errorf("the right rejected %d packets", m.Rejected)
			}
		})
	}
}

// TestRightFarBehindStartsOver: a right that really fell far behind (its
// process was suspended and the left's datagrams of the meantime are lost)
// starts over at the left's frame once two controls a second apart agree,
// as they do when they are true; one alone does nothing.
func TestRightFarBehindStartsOver(t *testing.T) {
	p := newProcPair(t, 2)
	for range 10 {
		p.step(cubes.Input{})
	}
	right := p.right
	control := func(ahead int) []byte {
		rs := right.tp.remote
		rs.seq++
		rs.frame = uint32(right.frame + ahead)
		return append([]byte(nil), right.writeState(right.tp.ctlW, right.tp.ctlBuf, rs)...)
	}
	start := right.frame
	right.applyState(control(600), false)
	if right.frame != start {
		t.Fatal("one control 10 s ahead restarted the right")
	}
	// A second later (the right's own ticks), the left is a second further.
	for range wire.TicksPerSecond {
		stepRightAlone(right)
		right.tp.tick++
	}
	right.applyState(control(600), false)
	if right.frame != start+wire.TicksPerSecond+600 {
		t.Fatalf("two agreeing controls: the right is at frame %d, want %d", right.frame, start+wire.TicksPerSecond+600)
	}
	said := false
	for _, e := range right.Events() {
		said = said || bytes.Contains([]byte(e), []byte("fell 10.0 s behind"))
	}
	if !said {
		t.Error("the right did not say it fell behind")
	}
}

// TestForgedAckDoesNotBlindTheLeft: one ack header 30,000 sequences ahead,
// as if from the right, used to make every real ack stale (100 % loss for
// minutes). The left refuses it and its loss figure stays at the real
// link's.
func TestForgedAckDoesNotBlindTheLeft(t *testing.T) {
	p := newProcPair(t, 1)
	for range 2 * wire.TicksPerSecond {
		p.step(cubes.Input{Up: true})
	}
	h := p.right.clients[0].rightEP.Header()
	h.Sequence += 30000
	if _, fresh := p.left.clients[0].leftEP.Received(wire.Tick(p.left.frame), h, 23); fresh {
		t.Fatal("the forged ack was taken")
	}
	for range 3 * wire.TicksPerSecond {
		p.step(cubes.Input{Up: true})
	}
	if loss := p.left.Metrics().Loss; loss > 0.01 {
		t.Fatalf("loss %.0f %% after one forged ack on a perfect link", 100*loss)
	}
	if p.left.clients[0].leftEP.Stats().Refused != 1 {
		t.Errorf("refused %d headers", p.left.clients[0].leftEP.Stats().Refused)
	}
}

// TestRightStartedBeforeTheLeft: a right process started first keeps
// asking (its connection's tick advances though its frame stands still)
// and joins the left once it is there.
func TestRightStartedBeforeTheLeft(t *testing.T) {
	probe, err := udp.Listen("127.0.0.1:0", udp.Token{7}, leftNetConfig())
	if err != nil {
		t.Fatal(err)
	}
	addr := probe.LocalAddr().String()
	probe.Close()
	right, rc := dialRight(t, addr, udp.Token{7})
	for range 2 * wire.TicksPerSecond {
		right.Step(cubes.Input{})
	}
	if rc.Counts().Sent < 3 {
		t.Fatalf("a right alone sent %d requests in 2 s", rc.Counts().Sent)
	}
	lc, err := udp.Listen(addr, udp.Token{7}, leftNetConfig())
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	defer lc.Close()
	cfg := DefaultConfig()
	cfg.Strategies, cfg.Role, cfg.Server = strategiesForTest(), RoleLeft, lc
	left, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !right.Remote().Connected || !right.tp.joined {
		if time.Now().After(deadline) {
			t.Fatalf("the right never joined the late left: %+v", rc.Status())
		}
		left.Step(cubes.Input{})
		right.Step(cubes.Input{})
		time.Sleep(time.Millisecond)
	}
	if !left.Remote().Connected {
		t.Error("the left does not see its right")
	}
}
