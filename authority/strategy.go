package authority

import (
	"fmt"
	"netcubes/diverge"

	"netcubes/cubes"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Settings are the presenter's live choices.
type Settings struct {
	Step Step
	// P2P sends each machine's cubes straight to every other machine
	// (one simulated link per pair) instead of through the host.
	P2P bool
	// Cheat makes player 2's machine fling the cubes it owns.
	Cheat bool
	// BandwidthKbps is each machine's budget per peer.
	BandwidthKbps int
	// Divergence makes the players' machines differ from the host's, as
	// real machines do (package diverge): the host's world stays exact.
	Divergence diverge.Mode
}

// Budget range and step of the B key.
const (
	MinKbps  = 64
	MaxKbps  = 2048
	kbpsStep = 64
)

// DefaultPlayers is how many players the strategy starts with when the
// session has fewer (the scheme is about several players pushing the
// same pile).
const DefaultPlayers = 3

// cheater is the player whose machine cheats when the setting is on.
const cheater = 2

// room is what every client's instance shares (Clone): the one host, the
// machines by player, the peer-to-peer links.
type room struct {
	host     host
	machines [cubes.MaxPlayers]*machine
	mesh     mesh
}

// Strategy is distributed authority (strategy 6).
type Strategy struct {
	cfg      Config
	set      Settings
	controls []strategy.Control
	room     *room

	m      machine // this client's machine (the right)
	player int
	thin   bool
	out    outbox // host → this client
	back   outbox // this client → host (and its peers)
	in     Packet // scratch for reading
	flung  int    // the last frame the cheat flung a cube
	lie    int    // the cube the cheat just flung (−1: none)
}

var (
	_ strategy.Strategy    = (*Strategy)(nil)
	_ strategy.TwoWay      = (*Strategy)(nil)
	_ strategy.RightDriven = (*Strategy)(nil)
	_ strategy.Facts       = (*Strategy)(nil)
	_ strategy.Shared      = (*Strategy)(nil)
	_ strategy.Releaser    = (*Strategy)(nil)
	_ strategy.Budgeted    = (*Strategy)(nil)
	_ strategy.Restarter   = (*Strategy)(nil)
	_ strategy.Preparer    = (*Strategy)(nil)
	_ strategy.Multiplayer = (*Strategy)(nil)
	_ strategy.LeftOverlay = (*Strategy)(nil)
)

// New returns distributed authority at step 3 (the comment's rule), over
// the relay. A config that does not validate is refused with a panic: it
// is a programming error (DefaultConfig validates).
func New(cfg Config) *Strategy {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	st := &Strategy{cfg: cfg, room: &room{}}
	st.set = Settings{Step: StepLowestID, BandwidthKbps: cfg.BandwidthKbps}
	st.controls = st.buildControls()
	return st
}

// ID implements strategy.Strategy.
func (st *Strategy) ID() string { return "authority" }

// Name implements strategy.Strategy.
func (st *Strategy) Name() string { return "Distributed authority" }

// Family implements strategy.Strategy.
func (st *Strategy) Family() string { return "Authority" }

// MinPlayers implements strategy.Multiplayer.
func (st *Strategy) MinPlayers() int { return DefaultPlayers }

// Settings returns the current settings.
func (st *Strategy) Settings() Settings { return st.set }

// SetSettings changes the settings (out-of-range values are clamped).
func (st *Strategy) SetSettings(s Settings) {
	s.Step = min(max(s.Step, StepHost), StepReturn)
	s.BandwidthKbps = min(max(s.BandwidthKbps, MinKbps), MaxKbps)
	if !s.Divergence.Valid() {
		s.Divergence = diverge.Off
	}
	st.set = s
}

var stepNames = [...]string{"", "host authority only", "own cube", "the lowest id wins", "sequences and confirmation", "return at rest"}

// String names the step.
func (s Step) String() string {
	if s < StepHost || s > StepReturn {
		return "?"
	}
	return stepNames[s]
}

func (st *Strategy) topology() string {
	if st.set.P2P {
		return "peer to peer"
	}
	return "relay"
}

// Mode implements strategy.Strategy.
func (st *Strategy) Mode() string {
	s := fmt.Sprintf("step %d/%d %s · %s · %d kbit/s", st.set.Step, NumSteps, st.set.Step, st.topology(), st.set.BandwidthKbps)
	if st.set.Cheat {
		s += " · player 2 cheats"
	}
	if st.set.Divergence != diverge.Off {
		s += " · machines: " + st.set.Divergence.String()
	}
	return s
}

// Explain implements strategy.Strategy.
func (st *Strategy) Explain() string {
	switch st.set.Step {
	case StepHost:
		return "every machine simulates; the host owns every cube: your own pushes lag a round trip and fight its corrections"
	case StepOwnCube:
		return "each player owns its own cube: it answers at once, but the cubes it pushes are the host's and still lag"
	case StepLowestID:
		return "touching a cube (or a chain of touching cubes) takes it if your id is lower: the lower id wins, the loser sees a pop"
	case StepSequences:
		return "an ownership and an authority sequence per cube: the host confirms or refuses each claim, stale updates are ignored"
	default:
		return "a cube that rests for 1 s goes back to the host, so anyone can take it next: the tint shows who simulates what"
	}
}

// SideLabels implements strategy.RightDriven.
func (st *Strategy) SideLabels() (left, leftSub, right, rightSub string) {
	return "HOST", "judges claims · tint: who simulates each cube", "A PLAYER'S MACHINE", "its own input at once · tint: who it thinks simulates each cube"
}

// SubMode implements strategy.Strategy: the five steps.
func (st *Strategy) SubMode(dir int) string {
	s := st.set
	s.Step = Step((int(s.Step)-1+dir+NumSteps)%NumSteps + 1)
	st.SetSettings(s)
	return fmt.Sprintf("step %d: %s", s.Step, s.Step)
}

// RestartsAfter implements strategy.Restarter: every step starts the
// ownership over (a table built under one step's rules means nothing
// under another's); the worlds carry on.
func (st *Strategy) RestartsAfter(int) bool { return true }

// Restart implements strategy.Restarter.
func (st *Strategy) Restart(ctx strategy.Context) {
	st.room.host.reset(ctx, st.set)
	st.m.t.reset(ctx.Left().NumCubes(), ctx.Players())
	st.m.forget()
}

// Clone implements strategy.Strategy: the same settings and the same
// room (one host for every client).
func (st *Strategy) Clone() strategy.Strategy {
	c := &Strategy{cfg: st.cfg, set: st.set, room: st.room}
	c.controls = c.buildControls()
	return c
}

// Reset implements strategy.Strategy: every machine, the host's
// included, starts from the world they all load (a freshly built one),
// at this frame; nobody owns anything.
func (st *Strategy) Reset(ctx strategy.Context) {
	st.player, st.thin = ctx.Player(), ctx.Thin()
	st.m.reset(ctx)
	left := ctx.EditLeft()
	if st.m.w != nil && left.NumCubes() == st.m.w.NumCubes() && left.Restore(&st.m.fresh) == nil {
		left.SetFrame(ctx.Frame())
	}
	r := st.room
	r.host.reset(ctx, st.set)
	if p := ctx.Player(); p >= 0 && p < len(r.machines) {
		r.machines[p] = &st.m
	}
	for p := ctx.Players(); p < len(r.machines); p++ {
		r.machines[p] = nil
	}
	r.mesh.reset(ctx.Players())
	st.out, st.back = outbox{}, outbox{}
	st.flung, st.lie = ctx.Frame(), -1
}

// Release implements strategy.Releaser: the machine's world goes, and so
// does what the room shares (the host's tables and its view of the left
// world, the peer-to-peer links); Reset builds them again.
func (st *Strategy) Release() {
	st.m = machine{}
	*st.room = room{}
	st.out, st.back = outbox{}, outbox{}
}

// BudgetKbps implements strategy.Budgeted.
func (st *Strategy) BudgetKbps() (float64, bool) { return float64(st.set.BandwidthKbps), true }

// PrepareSend implements strategy.Preparer: the host's work once a tick.
func (st *Strategy) PrepareSend(ctx strategy.Context) {
	h := &st.room.host
	h.step, h.p2p = st.set.Step, st.set.P2P
	h.prepare(st, ctx)
}

// Send implements strategy.Strategy: the host's packet to this client.
func (st *Strategy) Send(ctx strategy.Context) {
	h := &st.room.host
	left := ctx.Left()
	id := int32(ctx.Player() + 1)
	p := &st.out.pkt
	*p = Packet{FromHost: true, Step: st.set.Step, Players: int32(ctx.Players()), NumCubes: int32(left.NumCubes())}
	for k := range ctx.Players() {
		p.Inputs[k] = h.input[k]
	}
	if ctx.Player() >= 0 {
		// The host stepped this player with what crossed the link; the
		// player's own machine knows its own input better.
		p.Inputs[ctx.Player()] = 0
	}
	f := ctx.Frame()
	st.out.fill(left, budgetBits(st.set.BandwidthKbps), st.cfg.MaxUpdates,
		func(i int) float64 { return h.priority(st, left, i, id, f) },
		func(u *Update) {
			i := u.Index
			u.Owner, u.OwnSeq, u.AuthSeq = h.t.owner[i], h.t.ownSeq[i], h.t.authSeq[i]
		})
	n, _ := ctx.Send(p)
	st.m.down.open(f)
	st.m.down.add(f, wire.WireBytes(n))
}

// Acked implements strategy.Strategy.
func (st *Strategy) Acked(strategy.Context, uint16) {}

// Receive implements strategy.Strategy: the host's packet reaches this
// client's machine.
func (st *Strategy) Receive(ctx strategy.Context, seq uint16, s *wire.ReadStream) error {
	p := &st.in
	*p = Packet{}
	if err := p.Serialize(s); err != nil {
		return err
	}
	if !p.FromHost || int(p.Players) != ctx.Players() || int(p.NumCubes) != ctx.Left().NumCubes() || st.m.w == nil {
		return errWrongWorld
	}
	sent, ok := wire.FrameOf(seq, ctx.Frame())
	if !ok {
		return errWrongWorld
	}
	for k := range ctx.Players() {
		if k != ctx.Player() {
			st.m.inputs[k] = cubes.InputFromBits(p.Inputs[k])
		}
	}
	if st.thin {
		return nil
	}
	for k := range p.NumUpdates {
		st.m.apply(st, &p.Updates[k], sent, ctx.Frame(), true)
	}
	return nil
}

// Update implements strategy.Strategy: this player's machine steps.
func (st *Strategy) Update(ctx strategy.Context) {
	if st.thin || st.m.w == nil {
		return
	}
	if st.set.P2P {
		st.room.mesh.deliver(st, ctx)
	}
	st.m.step(st, ctx, ctx.PresenterInput())
	if st.set.Cheat && ctx.Player()+1 == cheater {
		st.cheat(ctx.Frame())
	}
}

// SendBack implements strategy.TwoWay: this machine's input and the
// cubes it owns, to the host (and in peer to peer to every other
// machine).
func (st *Strategy) SendBack(ctx strategy.Context) {
	if ctx.Player() < 0 {
		return
	}
	m := &st.m
	p := &st.back.pkt
	*p = Packet{Step: st.set.Step, Sender: int32(ctx.Player() + 1), Players: int32(ctx.Players()), NumCubes: int32(ctx.Left().NumCubes())}
	p.Inputs[0] = ctx.PresenterInput().Bits()
	if !st.thin && m.w != nil {
		st.back.fill(m.w, budgetBits(st.set.BandwidthKbps), st.cfg.MaxUpdates, st.ownPriority,
			func(u *Update) {
				i := u.Index
				u.Owner, u.OwnSeq, u.AuthSeq = m.t.owner[i], m.t.ownSeq[i], m.t.authSeq[i]
				if m.pending[i] {
					u.OwnSeq++ // a claim proposes the next ownership
				}
				if m.released[i] {
					m.released[i] = false // one release is enough; the host times out otherwise
				}
			})
	}
	st.lie = -1
	n, _ := ctx.SendBack(p)
	f := ctx.Frame()
	st.m.up.open(f)
	st.m.up.add(f, wire.WireBytes(n))
	if st.set.P2P && !st.thin {
		st.room.mesh.send(st, ctx, p)
	}
}

// ownPriority is how much cube i matters to what this machine sends: the
// cubes it owns (its player most), and a release once.
func (st *Strategy) ownPriority(i int) float64 {
	m := &st.m
	cfg := &st.cfg
	switch {
	case i == m.own && st.set.Step >= StepOwnCube:
		return cfg.PlayerPriority
	case i == st.lie:
		return cfg.PlayerPriority
	case m.released[i]:
		return cfg.OwnedPriority * 10
	case m.t.owner[i] != m.me || i == m.own:
		return 0
	case m.w.AtRest(i):
		return cfg.RestingPriority
	}
	return cfg.OwnedPriority
}

// ReceiveBack implements strategy.TwoWay: the host judges a client's
// packet.
func (st *Strategy) ReceiveBack(ctx strategy.Context, s *wire.ReadStream) error {
	return st.room.host.receive(st, ctx, s)
}

// LeftInput implements strategy.RightDriven: the host steps each player
// with the newest input that crossed its link.
func (st *Strategy) LeftInput(ctx strategy.Context) cubes.Input {
	if p := ctx.Player(); p >= 0 && p < cubes.MaxPlayers {
		return cubes.InputFromBits(st.room.host.input[p])
	}
	return cubes.Input{}
}

// View implements strategy.Strategy: this player's machine as it draws
// its world (smoothed), each cube tinted by who it thinks simulates it.
func (st *Strategy) View(v *viewmodel.View) (float64, bool) {
	m := &st.m
	if m.w == nil {
		return 0, false
	}
	w := m.w
	v.HasErrorOffsets = true
	v.HasOwners = true
	f := w.Frame()
	for i := 0; i < w.NumCubes(); i++ {
		c := w.Cube(i)
		p, q := m.smooth.Rendered(i, c.Position, c.Orientation)
		cv := viewmodel.CubeView{
			Position: p, Orientation: q, HalfExtent: w.HalfExtent(i),
			Interacting: c.Interacting, AtRest: w.AtRest(i), ErrorOffset: m.smooth.Offset(i),
		}
		st.tint(&cv, &m.t, i, f)
		v.Cubes = append(v.Cubes, cv)
		if m.t.disputed[i] >= 0 && f-m.t.disputed[i] < st.cfg.DisputeTicks {
			v.Marks = append(v.Marks, viewmodel.Mark{Kind: viewmodel.MarkContested, Position: p, Orientation: q, HalfExtent: w.HalfExtent(i)})
		}
	}
	return float64(f), true
}

// tint fills a cube's owner overlay from a table.
func (st *Strategy) tint(cv *viewmodel.CubeView, t *table, i, f int) {
	if o := t.owner[i]; o >= 1 && o < t.def {
		cv.Owner = uint8(o)
	}
	cv.HandOff = t.changed[i] >= 0 && f-t.changed[i] < st.cfg.FlashTicks
}

// FillLeft implements strategy.LeftOverlay: the host's view of who
// simulates each cube, on the left.
func (st *Strategy) FillLeft(v *viewmodel.View) {
	h := &st.room.host
	if len(h.t.owner) != len(v.Cubes) {
		return
	}
	v.HasOwners = true
	f := h.prepared
	for i := range v.Cubes {
		st.tint(&v.Cubes[i], &h.t, i, f)
		if d := h.t.disputed[i]; d >= 0 && f-d < st.cfg.DisputeTicks {
			c := &v.Cubes[i]
			v.Marks = append(v.Marks, viewmodel.Mark{Kind: viewmodel.MarkContested, Position: c.Position, Orientation: c.Orientation, HalfExtent: c.HalfExtent})
		}
	}
}

var _ strategy.IndependentRight = (*Strategy)(nil)

// IndependentRight implements strategy.IndependentRight. Over the relay, a
// player's machine (Receive, Update, SendBack) reads and writes its own
// instance: its world, its ownership table, its outbox. The room it
// shares with the other instances holds the host, which only the left
// side changes (PrepareSend, ReceiveBack, Reset), and the machines by
// player, which only the figures read. Peer to peer, the machines talk
// within the tick: one's SendBack puts its packet on the peer links
// another's Update reads (the room's mesh), so what a machine sees
// depends on which ran first, and the session must run them in order.
func (st *Strategy) IndependentRight() bool { return !st.set.P2P }
